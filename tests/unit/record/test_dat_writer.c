// SPDX-License-Identifier: GPL-2.0-only
/*
 * The trace.dat writer, read back by ktrace's reader: for v6 and v7 with each compression, two
 * buffers (the top one with an empty CPU, an instance), the pages must come back byte for byte
 * and the layout facts (version, compression, buffer names, clocks, options) must match.
 * A latency tracer's text, stored by record's record_latency_store from a file, must read back
 * unchanged. (The metadata-only end that record -N sends: tests/unit/dat/test_append.c.)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "ktrace/dat.h"
#include "ktrace/dat_format.h"
#include "ktrace/dat_writer.h"
#include "../dat_pages.h"
#include "record_latency.h"

#define PS TEST_PAGE_SIZE

/* A temp file holding `nr` pages, raw or as the recorder's compressed chunks of 2 pages. */
static int source_file(enum kt_compression comp, int nr, int seed, struct dat_cpu_source *src)
{
	char tmpl[] = "/tmp/ktrace-writer-test-XXXXXX";
	char pages[2 * PS];
	int fd = mkstemp(tmpl), i;

	assert_true(fd >= 0);
	unlink(tmpl);
	memset(src, 0, sizeof(*src));
	src->fd = fd;
	for (i = 0; i < nr; i += 2) {
		int n = nr - i < 2 ? nr - i : 2;
		size_t clen = kt_compress_bound(comp, sizeof(pages));
		char *z = malloc(clen + 8);
		uint32_t hdr[2];

		test_page_fill(pages, seed + i);
		test_page_fill(pages + PS, seed + i + 1);
		if (comp == KT_COMP_NONE) {
			assert_int_equal(write(fd, pages, (size_t)n * PS), n * PS);
			src->size += (uint64_t)n * PS;
		} else {
			assert_int_equal(kt_compress(comp, pages, (size_t)n * PS, z + 8, &clen), 0);
			hdr[0] = (uint32_t)clen;
			hdr[1] = (uint32_t)(n * PS);
			memcpy(z, hdr, 8);
			assert_int_equal(write(fd, z, clen + 8), (ssize_t)(clen + 8));
			src->size += clen + 8;
			src->nr_chunks++;
		}
		src->raw_size += (uint64_t)n * PS;
		free(z);
	}
	return fd;
}

static void write_file(const char *path, int version, enum kt_compression comp)
{
	struct dat_writer_config cfg = { .version = version, .compression = comp, .page_size = PS };
	struct dat_cpu_source top[2], inst[1];
	struct dat_buffer_source bufs[2] = {
		{ .name = "", .clock = "local", .page_size = PS, .cpus = top, .nr_cpus = 2 },
		{ .name = "inst", .clock = "global", .page_size = PS, .cpus = inst, .nr_cpus = 1 },
	};
	struct strbuf err = STRBUF_INIT;
	struct dat_writer *w;
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);

	assert_true(fd >= 0);
	source_file(comp, 3, 0, &top[0]);
	top[0].cpu = 0;
	source_file(comp, 0, 0, &top[1]);
	top[1].cpu = 1;
	source_file(comp, 1, 100, &inst[0]);
	inst[0].cpu = 0;
	assert_int_equal(dat_writer_open(fd, &cfg, &w, &err), 0);
	test_write_metadata(w, 2);
	assert_int_equal(dat_writer_buffers(w, bufs, 2, &err), 0);
	assert_int_equal(dat_writer_finish(w, &err), 0);
	dat_writer_free(w);
	close(top[0].fd);
	close(top[1].fd);
	close(inst[0].fd);
	close(fd);
	strbuf_release(&err);
}

static void round_trip(int version, enum kt_compression comp)
{
	char path[] = "/tmp/ktrace-writer-dat-XXXXXX";
	struct strbuf err = STRBUF_INIT;
	const struct dat_buffer *b;
	struct dat_file *df;
	uint32_t size;
	int fd = mkstemp(path), idx = -1;

	assert_true(fd >= 0);
	close(fd);
	write_file(path, version, comp);
	if (dat_file_open(path, &df, &err))
		fail_msg("v%d %s: %s", version, kt_compression_name(comp), strbuf_str(&err));
	assert_int_equal(dat_file_version(df), version);
	assert_int_equal(dat_file_compression(df), version < 7 ? KT_COMP_NONE : comp);
	assert_int_equal(dat_file_nr_buffers(df), 2);
	b = dat_file_buffer(df, 0);
	assert_string_equal(b->name, "");
	assert_string_equal(b->clock, "local");
	idx = test_cpu_index(b, 0);
	assert_true(idx >= 0);
	test_expect_pages(df, 0, idx, 3, 0);
	b = dat_file_buffer(df, 1);
	assert_string_equal(b->name, "inst");
	idx = test_cpu_index(b, 0);
	assert_true(idx >= 0);
	test_expect_pages(df, 1, idx, 1, 100);
	assert_non_null(dat_file_option(df, DAT_OPT_UNAME, 0, &size));
	dat_file_close(df);
	unlink(path);
	strbuf_release(&err);
}

static void test_v7_zstd(void **state)
{
	(void)state;
	round_trip(7, KT_COMP_ZSTD);
}

static void test_v7_zlib(void **state)
{
	(void)state;
	round_trip(7, KT_COMP_ZLIB);
}

static void test_v7_none(void **state)
{
	(void)state;
	round_trip(7, KT_COMP_NONE);
}

static void test_v6(void **state)
{
	(void)state;
	round_trip(6, KT_COMP_NONE);
}

/*
 * record's latency path: the `trace` text of a latency tracer, read from a file, becomes the
 * file's latency data; the reader gives back the same bytes (a text over several compression
 * chunks) with the clock in v7's BUFFER_TEXT option.
 */
static void latency_trip(int version, enum kt_compression comp)
{
	struct dat_writer_config cfg = { .version = version, .compression = comp, .page_size = PS };
	char text_path[] = "/tmp/ktrace-latency-text-XXXXXX";
	char path[] = "/tmp/ktrace-latency-dat-XXXXXX";
	struct strbuf text = STRBUF_INIT, err = STRBUF_INIT;
	const struct dat_buffer *b;
	struct dat_writer *w;
	struct dat_file *df;
	const char *got;
	uint64_t len = 0;
	int tfd = mkstemp(text_path), fd = mkstemp(path), i;

	assert_true(tfd >= 0 && fd >= 0);
	strbuf_addstr(&text, "# tracer: wakeup_rt\n#\n# wakeup_rt latency trace v1.1.5\n");
	for (i = 0; text.len < 20 * PS; i++)
		strbuf_addf(&text, "  <idle>-0  1dNh5 %4dus : 0:120:R + [001]  17:  0:R rcu_preempt\n",
			    i);
	assert_int_equal(write(tfd, text.buf, text.len), (ssize_t)text.len);
	close(tfd);
	assert_int_equal(dat_writer_open(fd, &cfg, &w, &err), 0);
	test_write_metadata(w, 2);
	if (record_latency_store(w, text_path, "global", &err) || dat_writer_finish(w, &err))
		fail_msg("%s", strbuf_str(&err));
	dat_writer_free(w);
	close(fd);
	if (dat_file_open(path, &df, &err))
		fail_msg("%s", strbuf_str(&err));
	got = dat_file_latency_text(df, &len);
	assert_non_null(got);
	assert_int_equal(len, text.len);
	assert_memory_equal(got, text.buf, text.len);
	assert_int_equal(dat_file_nr_buffers(df), 1);
	b = dat_file_buffer(df, 0);
	assert_true(b->latency);
	if (version >= 7)
		assert_string_equal(b->clock, "global");
	dat_file_close(df);
	unlink(text_path);
	unlink(path);
	strbuf_release(&text);
	strbuf_release(&err);
}

static void test_latency(void **state)
{
	(void)state;
	latency_trip(6, KT_COMP_NONE);
	latency_trip(7, KT_COMP_NONE);
	latency_trip(7, KT_COMP_ZLIB);
	latency_trip(7, KT_COMP_ZSTD);
}

/* A `trace` file that cannot be read: the error names it. */
static void test_latency_unreadable(void **state)
{
	struct dat_writer_config cfg = { .version = 7, .compression = KT_COMP_ZSTD, .page_size = PS };
	char path[] = "/tmp/ktrace-latency-dat-XXXXXX";
	struct strbuf err = STRBUF_INIT;
	struct dat_writer *w;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(dat_writer_open(fd, &cfg, &w, &err), 0);
	test_write_metadata(w, 2);
	assert_int_equal(record_latency_store(w, "/nonexistent/trace", "local", &err), -ENOENT);
	assert_non_null(strstr(strbuf_str(&err), "cannot read /nonexistent/trace"));
	dat_writer_free(w);
	close(fd);
	unlink(path);
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_v7_zstd),
		cmocka_unit_test(test_v7_zlib),
		cmocka_unit_test(test_v7_none),
		cmocka_unit_test(test_v6),
		cmocka_unit_test(test_latency),
		cmocka_unit_test(test_latency_unreadable),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
