// SPDX-License-Identifier: GPL-2.0-only
/*
 * dat_stage_raw_pages (restore's CPU files in a compressed file): whole pages of a plain file
 * into chunks of DAT_CHUNK_PAGES pages that decompress to the same bytes; a file shorter than
 * the size asked for is an error naming the CPU.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "ktrace/dat_chunk.h"
#include "ktrace/dat_copy.h"
#include "ktrace/dat_stage.h"
#include "ktrace/fdio.h"

#define PAGE	4096u
#define PAGES	25u

static int make_pages(uint8_t **data)
{
	int fd = fd_open_temp("/tmp");
	size_t i;

	assert_true(fd >= 0);
	*data = malloc(PAGES * PAGE);
	assert_non_null(*data);
	for (i = 0; i < PAGES * PAGE; i++)
		(*data)[i] = (uint8_t)(i / 7 + i % 13);
	assert_int_equal(fd_write_all(fd, *data, PAGES * PAGE), 0);
	return fd;
}

/* The staged chunks of cs, decompressed end to end, are `pages` pages of data. */
static void check_chunks(enum kt_compression comp, const struct dat_cpu_source *cs,
			 const uint8_t *data, unsigned int pages)
{
	uint8_t hdr[DAT_CHUNK_HEADER_SIZE], *z, *raw;
	struct kt_codec *codec;
	uint64_t off = 0, done = 0;
	uint32_t csize, rsize, n;

	assert_int_equal(kt_codec_new(comp, &codec), 0);
	raw = malloc(DAT_CHUNK_PAGES * PAGE);
	assert_non_null(raw);
	for (n = 0; n < cs->nr_chunks; n++) {
		assert_int_equal(pread(cs->fd, hdr, sizeof(hdr), (off_t)off), (ssize_t)sizeof(hdr));
		dat_chunk_header_get(hdr, &csize, &rsize, DAT_HOST_BIG_ENDIAN);
		assert_true(rsize <= DAT_CHUNK_PAGES * PAGE && rsize % PAGE == 0);
		z = malloc(csize);
		assert_non_null(z);
		assert_int_equal(pread(cs->fd, z, csize, (off_t)(off + sizeof(hdr))), (ssize_t)csize);
		assert_int_equal(kt_codec_decompress(codec, z, csize, raw, rsize), 0);
		assert_memory_equal(raw, data + done, rsize);
		free(z);
		off += sizeof(hdr) + csize;
		done += rsize;
	}
	assert_int_equal(off, cs->size);
	assert_int_equal(done, (uint64_t)pages * PAGE);
	assert_int_equal(cs->raw_size, done);
	assert_int_equal(cs->nr_chunks, (pages + DAT_CHUNK_PAGES - 1) / DAT_CHUNK_PAGES);
	free(raw);
	kt_codec_free(codec);
}

static void stage(enum kt_compression comp, unsigned int pages)
{
	struct dat_cpu_source cs = { .cpu = 3, .fd = -1 };
	struct strbuf err = STRBUF_INIT;
	uint8_t *data;
	int fd = make_pages(&data);

	assert_int_equal(dat_stage_raw_pages(fd, (uint64_t)pages * PAGE, PAGE, comp, "/tmp", &cs,
					     &err), 0);
	check_chunks(comp, &cs, data, pages);
	close(cs.fd);
	close(fd);
	free(data);
	strbuf_release(&err);
}

static void test_zstd(void **state)
{
	(void)state;
	stage(KT_COMP_ZSTD, PAGES);
	stage(KT_COMP_ZSTD, 12);
	stage(KT_COMP_ZSTD, 0);
}

static void test_zlib(void **state)
{
	(void)state;
	stage(KT_COMP_ZLIB, PAGES);
	stage(KT_COMP_ZLIB, 10);
}

static void test_short_file(void **state)
{
	struct dat_cpu_source cs = { .cpu = 3, .fd = -1 };
	struct strbuf err = STRBUF_INIT;
	uint8_t *data;
	int fd = make_pages(&data);

	(void)state;
	assert_int_equal(dat_stage_raw_pages(fd, (PAGES + 5) * PAGE, PAGE, KT_COMP_ZSTD, "/tmp",
					     &cs, &err), -EIO);
	assert_non_null(strstr(strbuf_str(&err), "cpu 3"));
	if (cs.fd >= 0)
		close(cs.fd);
	close(fd);
	free(data);
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_zstd),
		cmocka_unit_test(test_zlib),
		cmocka_unit_test(test_short_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
