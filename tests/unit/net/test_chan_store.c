// SPDX-License-Identifier: GPL-2.0-only
/*
 * The listener's per-CPU storage: raw pages, or trace-cmd's 10-page compressed chunks made as
 * the data arrives in pieces of any size, or for what arrived before compression started; a torn
 * last page is dropped.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include <fcntl.h>

#include "listen.h"

#define PAGE	4096

static char *make_data(size_t len)
{
	char *d = malloc(len);
	size_t i;

	/* Compressible but not constant, like trace pages. */
	for (i = 0; i < len; i++)
		d[i] = (char)((i / 64) % 7 + (i % 5 == 0 ? (int)(i >> 9) : 0));
	return d;
}

static void feed(struct chan *c, struct server_ctx *srv, const char *d, size_t len)
{
	size_t off = 0, step = 1;

	/* Pieces of growing odd sizes cross every chunk boundary in a different place. */
	while (off < len) {
		size_t n = len - off < step ? len - off : step;

		assert_int_equal(chan_store(c, srv, d + off, n), 0);
		off += n;
		step = step * 3 + 7;
		if (step > 70000)
			step = 13;
	}
}

static uint32_t get32(const unsigned char *p)
{
	return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void check_chunks(const struct dat_append_cpu *b, const char *want, size_t want_len)
{
	unsigned char *file = malloc(b->size);
	char *out = malloc(want_len + 1);
	size_t off = 0, got = 0;
	uint32_t i, clen, ulen;

	assert_int_equal(pread(b->fd, file, b->size, 0), (ssize_t)b->size);
	for (i = 0; i < b->nr_chunks; i++) {
		clen = get32(file + off);
		ulen = get32(file + off + 4);
		assert_true(ulen == 10 * PAGE || i == b->nr_chunks - 1);
		assert_true(got + ulen <= want_len);
		assert_int_equal(kt_decompress(KT_COMP_ZSTD, file + off + 8, clen, out + got,
					       ulen), 0);
		off += 8 + clen;
		got += ulen;
	}
	assert_int_equal(off, b->size);
	assert_int_equal(got, want_len);
	assert_memory_equal(out, want, want_len);
	free(file);
	free(out);
}

static void test_compress_as_received(void **state)
{
	struct server_ctx srv = { 0 };
	size_t len = 37 * PAGE + 100;
	char *d = make_data(len);
	struct dat_append_cpu blob = { 0 };
	struct chan c = { .tmp = memfd_create("chan", 0) };

	(void)state;
	assert_int_equal(chan_compress_start(&c, &srv, KT_COMP_ZSTD, PAGE, 0), 0);
	feed(&c, &srv, d, len);
	assert_true(c.size < len / 2);		/* compressed on the way, not at the end */
	assert_int_equal(chan_finish(&c, &srv, PAGE, &blob), 100);
	assert_int_equal(blob.compressed, 1);
	assert_int_equal(blob.nr_chunks, 4);
	check_chunks(&blob, d, 37 * PAGE);
	close(c.tmp);
	server_ctx_release_codecs(&srv);
	free(d);
}

static void test_backlog_compressed(void **state)
{
	char dir[] = "/tmp/test_chan_store.XXXXXX";
	struct server_ctx srv = { .dir_fd = open(mkdtemp(dir), O_RDONLY | O_DIRECTORY) };
	size_t len = 33 * PAGE + 5, early = 12 * PAGE + 7;
	char *d = make_data(len);
	struct dat_append_cpu blob = { 0 };
	struct chan c = { .path = strdup(".t.dat.part.cpu0") };
	struct stat st;

	(void)state;
	c.tmp = chan_file_open(srv.dir_fd, c.path);
	assert_true(c.tmp >= 0);
	feed(&c, &srv, d, early);
	/* Data before the metadata was complete: compressed when compression starts. */
	assert_int_equal(chan_compress_start(&c, &srv, KT_COMP_ZSTD, PAGE, 0), 0);
	assert_non_null(c.codec);
	assert_int_equal(c.nr_chunks, 1);
	assert_true(c.size < early / 2);
	/* ...into a new file that took the raw one's name, for a listener killed later. */
	assert_int_equal(fstatat(srv.dir_fd, c.path, &st, 0), 0);
	assert_int_equal((uint64_t)st.st_size, c.size);
	assert_int_equal(faccessat(srv.dir_fd, ".t.dat.part.cpu0.z", F_OK, 0), -1);
	feed(&c, &srv, d + early, len - early);
	assert_int_equal(chan_finish(&c, &srv, PAGE, &blob), 5);
	assert_int_equal(blob.compressed, 1);
	assert_int_equal(blob.nr_chunks, 4);
	check_chunks(&blob, d, 33 * PAGE);
	close(c.tmp);
	chan_remove(&c, srv.dir_fd);
	assert_int_equal(faccessat(srv.dir_fd, ".t.dat.part.cpu0", F_OK, 0), -1);
	close(srv.dir_fd);
	assert_int_equal(rmdir(dir), 0);
	server_ctx_release_codecs(&srv);
	free(d);
}

static void test_empty_and_exact(void **state)
{
	struct server_ctx srv = { 0 };
	char *d = make_data(20 * PAGE);
	struct dat_append_cpu blob = { 0 };
	struct chan c = { .tmp = memfd_create("chan", 0) };

	(void)state;
	assert_int_equal(chan_compress_start(&c, &srv, KT_COMP_ZSTD, PAGE, 0), 0);
	assert_int_equal(chan_finish(&c, &srv, PAGE, &blob), 0);
	assert_int_equal(blob.size, 0);
	assert_int_equal(blob.nr_chunks, 0);
	close(c.tmp);

	memset(&c, 0, sizeof(c));
	memset(&blob, 0, sizeof(blob));
	c.tmp = memfd_create("chan", 0);
	assert_int_equal(chan_compress_start(&c, &srv, KT_COMP_ZSTD, PAGE, 0), 0);
	assert_int_equal(chan_store(&c, &srv, d, 20 * PAGE), 0);
	assert_int_equal(chan_finish(&c, &srv, PAGE, &blob), 0);
	assert_int_equal(blob.nr_chunks, 2);
	check_chunks(&blob, d, 20 * PAGE);
	close(c.tmp);
	server_ctx_release_codecs(&srv);
	free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_compress_as_received),
		cmocka_unit_test(test_backlog_compressed),
		cmocka_unit_test(test_empty_and_exact),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
