// SPDX-License-Identifier: GPL-2.0-only
/*
 * The chunk framing (dat_chunk.h) and dat_append_cpu_data(): the metadata-only end the writer
 * leaves for record -N, scanned and completed with CPU data (raw pages, pages compressed as
 * they are copied, chunks made beforehand, a CPU without data), must read back page for page,
 * for v6 and v7 with each compression, with or without the incomplete note, and for a v6
 * protocol-1 client that sent only the headers.
 */
#define _FILE_OFFSET_BITS 64
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "ktrace/dat.h"
#include "ktrace/dat_append.h"
#include "ktrace/dat_chunk.h"
#include "ktrace/dat_format.h"
#include "ktrace/dat_writer.h"
#include "../dat_pages.h"

#define PS TEST_PAGE_SIZE
#define NR_CPUS 3

static void test_chunk_header(void **state)
{
	uint8_t h[DAT_CHUNK_HEADER_SIZE];
	uint32_t c, r;

	dat_chunk_header_put(h, 0x01020304, 0x0a0b0c0d, true);
	assert_memory_equal(h, "\x01\x02\x03\x04\x0a\x0b\x0c\x0d", 8);
	dat_chunk_header_get(h, &c, &r, true);
	assert_int_equal(c, 0x01020304);
	assert_int_equal(r, 0x0a0b0c0d);
	dat_chunk_header_put(h, 0x01020304, 0x0a0b0c0d, false);
	assert_memory_equal(h, "\x04\x03\x02\x01\x0d\x0c\x0b\x0a", 8);
	dat_chunk_header_get(h, &c, &r, false);
	assert_int_equal(c, 0x01020304);
	assert_int_equal(r, 0x0a0b0c0d);
}

static void test_chunk_pack(void **state)
{
	enum kt_compression comps[] = { KT_COMP_ZLIB, KT_COMP_ZSTD };
	char in[3 * PS], back[3 * PS];
	size_t i, cap, len;

	for (i = 0; i < sizeof(in); i++)
		in[i] = (char)(i % 251 < 100 ? 0 : i);
	for (i = 0; i < 2; i++) {
		struct kt_codec *codec;
		uint8_t *out;
		uint32_t c, r;

		assert_int_equal(kt_codec_new(comps[i], &codec), 0);
		cap = dat_chunk_bound(comps[i], sizeof(in));
		out = malloc(cap);
		assert_int_equal(dat_chunk_pack(codec, in, sizeof(in), DAT_HOST_BIG_ENDIAN, out,
						cap, &len), 0);
		dat_chunk_header_get(out, &c, &r, DAT_HOST_BIG_ENDIAN);
		assert_int_equal(r, sizeof(in));
		assert_int_equal(c + DAT_CHUNK_HEADER_SIZE, len);
		assert_int_equal(kt_decompress(comps[i], out + 8, c, back, r), 0);
		assert_memory_equal(back, in, sizeof(in));
		/* no room for the header: refused, nothing written past cap */
		assert_true(dat_chunk_pack(codec, in, sizeof(in), false, out, 4, &len) < 0);
		free(out);
		kt_codec_free(codec);
	}
}

/* nr pages from seed in a temporary file: raw, or as chunks of two pages when codec. */
static void cpu_file(struct kt_codec *codec, int nr, int seed, struct dat_append_cpu *c)
{
	char tmpl[] = "/tmp/ktrace-append-test-XXXXXX", pages[2 * PS];
	int fd = mkstemp(tmpl), i;

	assert_true(fd >= 0);
	unlink(tmpl);
	memset(c, 0, sizeof(*c));
	c->fd = fd;
	c->compressed = codec != NULL;
	for (i = 0; i < nr; i += 2) {
		int n = nr - i < 2 ? nr - i : 2;
		size_t cap = dat_chunk_bound(KT_COMP_ZSTD, sizeof(pages)), len = (size_t)n * PS;
		char *z = malloc(cap);

		test_page_fill(pages, seed + i);
		test_page_fill(pages + PS, seed + i + 1);
		if (codec) {
			assert_int_equal(dat_chunk_pack(codec, pages, len, DAT_HOST_BIG_ENDIAN, z,
							cap, &len), 0);
			c->nr_chunks++;
		} else {
			memcpy(z, pages, len);
		}
		assert_int_equal(write(fd, z, len), (ssize_t)len);
		c->size += len;
		free(z);
	}
}

static void write_metadata(int fd, int version, enum kt_compression comp)
{
	struct dat_writer_config cfg = { .version = version, .compression = comp, .page_size = PS };
	struct strbuf err = STRBUF_INIT;
	struct dat_writer *w;

	assert_int_equal(dat_writer_open(fd, &cfg, &w, &err), 0);
	test_write_metadata(w, NR_CPUS);
	assert_int_equal(dat_writer_metadata_end(w, &err), 0);
	dat_writer_free(w);
	strbuf_release(&err);
}

static void expect_pages(struct dat_file *df, int cpu, int nr, int seed)
{
	int idx = test_cpu_index(dat_file_buffer(df, 0), cpu);

	if (!nr && idx < 0)
		return;
	assert_true(idx >= 0);
	test_expect_pages(df, 0, idx, nr, seed);
}

/*
 * CPU 0: 23 raw pages (compressed as they are copied into a compressed file), kept as they
 * were; CPU 1: 5 pages, in chunks already when the file is compressed, emptied as copied;
 * CPU 2: nothing.
 */
static void append_round_trip(int version, enum kt_compression comp, const char *note,
			      int headers_only)
{
	struct strbuf err = STRBUF_INIT;
	struct dat_append_cpu cpus[NR_CPUS];
	struct kt_codec *codec = NULL;
	struct dat_metadata m;
	struct dat_file *df;
	struct stat st;
	char path[64], page[PS];
	int fd = memfd_create("test_dat_append", 0), i;
	uint64_t size;
	int64_t end;
	const char *opt;
	uint32_t opt_size;

	assert_true(fd >= 0);
	write_metadata(fd, version, comp);
	size = (uint64_t)lseek(fd, 0, SEEK_END);
	if (dat_metadata_scan(fd, size, &m, &err))
		fail_msg("v%d: the metadata is refused: %s", version, strbuf_str(&err));
	if (headers_only) {
		/* a protocol-1 client sends the metadata up to the printk formats only */
		size = m.headers_end;
		assert_int_equal(ftruncate(fd, (off_t)size), 0);
		assert_int_equal(dat_metadata_scan(fd, size, &m, &err), 0);
		assert_int_equal(m.headers_only, 1);
	}
	if (version >= 7 && comp != KT_COMP_NONE)
		assert_int_equal(kt_codec_new(comp, &codec), 0);
	cpu_file(NULL, 23, 0, &cpus[0]);
	cpus[0].keep = 1;
	cpu_file(codec, 5, 50, &cpus[1]);
	cpu_file(NULL, 0, 0, &cpus[2]);
	end = dat_append_cpu_data(fd, size, &m, cpus, NR_CPUS, note, &err);
	if (end < 0)
		fail_msg("v%d: %s", version, strbuf_str(&err));
	assert_int_equal(fstat(fd, &st), 0);
	assert_int_equal(end, st.st_size);
	/* the kept file is as it was; its first page is still there */
	assert_int_equal(pread(cpus[0].fd, page, PS, 0), PS);
	assert_int_equal(page[16], 16);

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (dat_file_open(path, &df, &err))
		fail_msg("v%d %s: %s", version, kt_compression_name(comp), strbuf_str(&err));
	assert_int_equal(dat_file_version(df), version);
	assert_int_equal(dat_file_compression(df), version < 7 ? KT_COMP_NONE : comp);
	opt = dat_file_option(df, DAT_OPT_KTRACE_INCOMPLETE, 0, &opt_size);
	if (note) {
		assert_non_null(opt);
		assert_int_equal(opt_size, strlen(note) + 1);
		assert_string_equal(opt, note);
	} else {
		assert_null(opt);
	}
	expect_pages(df, 0, 23, 0);
	expect_pages(df, 1, 5, 50);
	expect_pages(df, 2, 0, 0);
	dat_file_close(df);
	for (i = 0; i < NR_CPUS; i++)
		close(cpus[i].fd);
	kt_codec_free(codec);
	close(fd);
	strbuf_release(&err);
}

static void test_v7(void **state)
{
	enum kt_compression comps[] = { KT_COMP_NONE, KT_COMP_ZLIB, KT_COMP_ZSTD };
	int i;

	for (i = 0; i < 3; i++) {
		append_round_trip(7, comps[i], NULL, 0);
		append_round_trip(7, comps[i], "listener killed", 0);
	}
}

static void test_v6(void **state)
{
	append_round_trip(6, KT_COMP_NONE, NULL, 0);
	append_round_trip(6, KT_COMP_NONE, "listener killed", 0);
	append_round_trip(6, KT_COMP_NONE, NULL, 1);
	append_round_trip(6, KT_COMP_NONE, "listener killed", 1);
}

/* An unknown compression in the metadata is refused before anything is written. */
static void test_unknown_compression(void **state)
{
	struct dat_metadata m = { .version = 7, .page_size = PS, .compression = "lz9" };
	struct strbuf err = STRBUF_INIT;
	int fd = memfd_create("test_dat_append", 0);

	assert_int_equal(dat_append_cpu_data(fd, 0, &m, NULL, 0, NULL, &err), -EINVAL);
	assert_non_null(strstr(strbuf_str(&err), "unknown compression 'lz9'"));
	assert_int_equal(lseek(fd, 0, SEEK_END), 0);
	close(fd);
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_chunk_header),
		cmocka_unit_test(test_chunk_pack),
		cmocka_unit_test(test_v7),
		cmocka_unit_test(test_v6),
		cmocka_unit_test(test_unknown_compression),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
