// SPDX-License-Identifier: GPL-2.0-only
/*
 * dat_file_copy (ktrace convert): every corpus file rewritten as v6, v7 none, v7 zlib and v7
 * zstd, the zlib copy rewritten again as v6 (a zlib input), each compared with its source
 * piece by piece: the six metadata payloads byte for byte, every option but the ones that
 * hold offsets of the layout (same ids, payloads, order), the CPU count, every buffer (name,
 * clock, page size, CPUs) with the same pages (a latency file's text: tests/interop/convert
 * brings those).
 */
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

#include "ktrace/dat.h"
#include "ktrace/dat_copy.h"
#include "ktrace/dat_format.h"
#include "corpus_util.h"

static const char *corpus;

static const struct dat_writer_config variants[] = {
	{ .version = 6 },
	{ .version = 7, .compression = KT_COMP_NONE },
	{ .version = 7, .compression = KT_COMP_ZLIB },
	{ .version = 7, .compression = KT_COMP_ZSTD },
};

static struct dat_file *open_no_tep(const char *path)
{
	struct dat_open_opts opts = { .no_tep = true };
	struct strbuf err = STRBUF_INIT;
	struct dat_file *df = NULL;

	if (dat_file_open_opts(path, &opts, &df, &err))
		fail_msg("%s: %s", path, strbuf_str(&err));
	strbuf_release(&err);
	return df;
}

static bool layout_option(int id)
{
	return id == DAT_OPT_DONE || id == DAT_OPT_BUFFER || id == DAT_OPT_BUFFER_TEXT ||
	       id == DAT_OPT_CPUCOUNT || (id >= DAT_OPT_HEADER_INFO && id <= DAT_OPT_CMDLINES);
}

static void payload(struct dat_file *df, int id, void **data, uint64_t *size)
{
	struct strbuf err = STRBUF_INIT;
	const void *opt;
	uint64_t offset;
	int ret;

	*data = NULL;
	*size = 0;
	if (dat_file_version(df) < 7) {
		ret = dat_file_load_v6_block(df, id, data, size, &err);
	} else {
		opt = dat_file_option(df, id, 0, NULL);
		assert_non_null(opt);
		memcpy(&offset, opt, 8);
		ret = dat_file_load_section(df, offset, data, size, &err);
	}
	if (ret)
		fail_msg("%s: option %d: %s", dat_file_path(df), id, strbuf_str(&err));
	strbuf_release(&err);
}

static void same_metadata(struct dat_file *a, struct dat_file *b)
{
	uint64_t sa, sb;
	void *da, *db;
	int id;

	for (id = DAT_OPT_HEADER_INFO; id <= DAT_OPT_CMDLINES; id++) {
		payload(a, id, &da, &sa);
		payload(b, id, &db, &sb);
		assert_int_equal(sa, sb);
		assert_memory_equal(da, db, sa);
		free(da);
		free(db);
	}
}

static void same_options(struct dat_file *a, struct dat_file *b)
{
	const void *pa = NULL, *pb = NULL;
	uint32_t sa = 0, sb = 0;
	int ia = 0, ib = 0, ida = 0, idb = 0;
	int na = dat_file_nr_options(a), nb = dat_file_nr_options(b);

	for (;;) {
		while (ia < na && (pa = dat_file_option_at(a, ia, &ida, &sa, NULL), layout_option(ida)))
			ia++;
		while (ib < nb && (pb = dat_file_option_at(b, ib, &idb, &sb, NULL), layout_option(idb)))
			ib++;
		if (ia >= na || ib >= nb)
			break;
		assert_int_equal(ida, idb);
		assert_int_equal(sa, sb);
		assert_memory_equal(pa, pb, sa);
		ia++;
		ib++;
	}
	assert_true(ia >= na && ib >= nb);
}

static void same_pages(struct dat_file *a, struct dat_file *b, int buffer, int cpu, int cpu_b,
		       uint32_t ps)
{
	struct dat_page_stream *sa, *sb;
	struct strbuf err = STRBUF_INIT;
	const void *pa, *pb;
	int ra, rb, n = 0;

	assert_int_equal(dat_page_stream_open(a, buffer, cpu, &sa, &err), 0);
	assert_int_equal(dat_page_stream_open(b, buffer, cpu_b, &sb, &err), 0);
	do {
		ra = dat_page_stream_next(sa, &pa, &err);
		rb = dat_page_stream_next(sb, &pb, &err);
		if (ra != rb)
			fail_msg("%s buffer %d cpu index %d: page %d in one file, not the other (%d, %d)",
				 dat_file_path(a), buffer, cpu, n, ra, rb);
		if (ra > 0)
			assert_memory_equal(pa, pb, ps);
		n++;
	} while (ra > 0);
	assert_int_equal(ra, 0);
	dat_page_stream_close(sa);
	dat_page_stream_close(sb);
	strbuf_release(&err);
}

/*
 * The index of that CPU in the buffer, or -1: a v7 BUFFER option leaves out CPUs without data,
 * v6 has a slot for every CPU.
 */
static int cpu_index(const struct dat_buffer *b, int cpu)
{
	int i;

	for (i = 0; i < b->nr_cpus; i++)
		if (b->cpus[i].cpu == cpu)
			return i;
	return -1;
}

static void same_buffers(struct dat_file *a, struct dat_file *b)
{
	const struct dat_buffer *ba, *bb;
	uint64_t la, lb;
	int i, j, k;

	assert_int_equal(dat_file_nr_buffers(a), dat_file_nr_buffers(b));
	for (i = 0; i < dat_file_nr_buffers(a); i++) {
		ba = dat_file_buffer(a, i);
		bb = dat_file_buffer(b, i);
		assert_string_equal(ba->name, bb->name);
		if (ba->clock[0])
			assert_string_equal(ba->clock, bb->clock);
		assert_int_equal(ba->page_size, bb->page_size);
		assert_int_equal(ba->latency, bb->latency);
		if (ba->latency) {
			const char *ta = dat_file_latency_text(a, &la);
			const char *tb = dat_file_latency_text(b, &lb);

			assert_int_equal(la, lb);
			assert_memory_equal(ta, tb, la);
			continue;
		}
		for (j = 0; j < ba->nr_cpus; j++) {
			if (!ba->cpus[j].size)
				continue;
			k = cpu_index(bb, ba->cpus[j].cpu);
			assert_true(k >= 0);
			same_pages(a, b, i, j, k, ba->page_size);
		}
	}
}

static void same_trace(struct dat_file *a, struct dat_file *b)
{
	assert_int_equal(dat_file_page_size(a), dat_file_page_size(b));
	assert_int_equal(dat_file_meta(a)->header_long_size, dat_file_meta(b)->header_long_size);
	assert_int_equal(dat_file_nr_cpus(a), dat_file_nr_cpus(b));
	same_metadata(a, b);
	same_options(a, b);
	same_buffers(a, b);
}

/* src copied with cfg into a temp file, opened. */
static struct dat_file *copy_of(struct dat_file *src, const struct dat_writer_config *cfg,
				char *path)
{
	struct strbuf err = STRBUF_INIT;
	struct dat_file *out;
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	if (dat_file_copy(src, fd, cfg, "/tmp", &err))
		fail_msg("%s: %s", dat_file_path(src), strbuf_str(&err));
	close(fd);
	out = open_no_tep(path);
	assert_int_equal(dat_file_version(out), cfg->version);
	if (cfg->version >= 7)
		assert_int_equal(dat_file_compression(out), cfg->compression);
	strbuf_release(&err);
	return out;
}

static void copy_one(const char *path, void *arg)
{
	static const struct dat_writer_config v6 = { .version = 6 };
	struct dat_file *src = open_no_tep(path), *copy, *again;
	size_t i;

	(void)arg;
	for (i = 0; i < sizeof(variants) / sizeof(variants[0]); i++) {
		char p1[] = "/tmp/ktrace-copy-XXXXXX", p2[] = "/tmp/ktrace-copy-XXXXXX";

		copy = copy_of(src, &variants[i], p1);
		same_trace(src, copy);
		/* the corpus has no zlib file: the copy is one */
		if (variants[i].compression == KT_COMP_ZLIB) {
			again = copy_of(copy, &v6, p2);
			same_trace(src, again);
			dat_file_close(again);
			unlink(p2);
		}
		dat_file_close(copy);
		unlink(p1);
	}
	dat_file_close(src);
}

static void test_corpus(void **state)
{
	(void)state;
	assert_true(corpus_each_dat(corpus, copy_one, NULL) >= 20);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_corpus),
	};

	corpus = argc > 1 ? argv[1] : "tests/data/corpus";
	return cmocka_run_group_tests(tests, NULL, NULL);
}
