// SPDX-License-Identifier: GPL-2.0-only
/*
 * Decompression ahead (opts.decompress_ahead, dat_ahead.c): every CPU stream of every corpus
 * file yields the same pages, at the same offsets, in both modes, with all of a file's streams
 * read in turn so that the worker holds several of them at once; on damaged copies the pages
 * before the damage and the error are the same too.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "ktrace/dat.h"
#include "dat_internal.h"
#include "corpus_util.h"

static const char *corpus;

/* What a file's streams yield, folded into one FNV-1a hash, and how many pages. */
struct transcript {
	uint64_t hash;
	int pages;
	int errors;
	bool worker;	/* the file had a worker thread */
};

static void fold(struct transcript *t, const void *data, size_t len)
{
	const unsigned char *p = data;

	while (len--)
		t->hash = (t->hash ^ *p++) * 0x100000001b3ull;
}

static void fold_err(struct transcript *t, int ret, const struct strbuf *err)
{
	fold(t, &ret, sizeof(ret));
	fold(t, strbuf_str(err), err->len);
	t->errors++;
}

#define MAX_STREAMS 64

static void stream_round_robin(struct dat_file *df, struct transcript *t)
{
	struct dat_page_stream *ps[MAX_STREAMS];
	struct strbuf err = STRBUF_INIT;
	int n = 0, live, i, j, ret;
	const void *page;
	uint64_t off;

	for (i = 0; i < dat_file_nr_buffers(df); i++) {
		for (j = 0; j < dat_file_buffer(df, i)->nr_cpus && n < MAX_STREAMS; j++) {
			if (dat_file_buffer(df, i)->latency)
				continue;
			ret = dat_page_stream_open(df, i, j, &ps[n], &err);
			if (ret)
				fold_err(t, ret, &err);
			else
				n++;
		}
	}
	t->worker = df->ahead != NULL;
	do {
		live = 0;
		for (i = 0; i < n; i++) {
			if (!ps[i])
				continue;
			ret = dat_page_stream_next(ps[i], &page, &err);
			if (ret <= 0) {
				if (ret < 0)
					fold_err(t, ret, &err);
				dat_page_stream_close(ps[i]);
				ps[i] = NULL;
				continue;
			}
			live++;
			off = dat_page_stream_offset(ps[i]);
			fold(t, &i, sizeof(i));
			fold(t, &off, sizeof(off));
			fold(t, page, dat_file_page_size(df));
			t->pages++;
		}
	} while (live);
	strbuf_release(&err);
}

static struct transcript read_file(const char *path, bool ahead)
{
	struct dat_open_opts opts = { .no_tep = true, .decompress_ahead = ahead };
	struct transcript t = { .hash = 0xcbf29ce484222325ull };
	struct strbuf err = STRBUF_INIT;
	struct dat_file *df;
	int ret;

	ret = dat_file_open_opts(path, &opts, &df, &err);
	if (ret) {
		fold_err(&t, ret, &err);
	} else {
		stream_round_robin(df, &t);
		dat_file_close(df);
	}
	strbuf_release(&err);
	return t;
}

static int compressed_files, worker_files;

static void same_pages(const char *path, void *arg)
{
	struct transcript inline_t = read_file(path, false);
	struct transcript ahead_t = read_file(path, true);

	if (inline_t.hash != ahead_t.hash || inline_t.pages != ahead_t.pages)
		fail_msg("%s: %d pages inline, %d ahead, or not the same", path, inline_t.pages,
			 ahead_t.pages);
	assert_int_equal(inline_t.errors, 0);
	assert_false(inline_t.worker);
	worker_files += ahead_t.worker;
}

static bool is_compressed(const char *path)
{
	struct dat_open_opts opts = { .no_tep = true };
	struct strbuf err = STRBUF_INIT;
	struct dat_file *df;
	bool ret = false;

	if (!dat_file_open_opts(path, &opts, &df, &err)) {
		ret = dat_file_compression(df) != KT_COMP_NONE;
		dat_file_close(df);
	}
	strbuf_release(&err);
	return ret;
}

static void count_compressed(const char *path, void *arg)
{
	compressed_files += is_compressed(path);
}

static void test_corpus_same_pages(void **state)
{
	assert_true(corpus_each_dat(corpus, same_pages, NULL) > 0);
	assert_true(corpus_each_dat(corpus, count_compressed, NULL) > 0);
	assert_true(compressed_files > 0);
	/* On one CPU there is no worker, and this test then compares the reader with itself. */
	if (dat_ahead_useful())
		assert_int_equal(worker_files, compressed_files);
	else
		print_message("NOTE: one CPU available: no worker thread to compare with\n");
}

static void write_whole(const char *path, const unsigned char *buf, size_t len)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(buf, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

/*
 * A compressed file with two instances, damaged at 200 places in its second half (where the
 * CPU data is) and cut at 20: the same pages, then the same error, in both modes.
 */
static void test_damaged_same_errors(void **state)
{
	char tmp[] = "/tmp/ktrace-ahead-XXXXXX";
	struct transcript a, b;
	int fd = mkstemp(tmp), i, failed = 0;
	size_t len, at;
	unsigned char *orig, *copy;
	char *path;

	assert_true(fd >= 0);
	close(fd);
	path = corpus_path(corpus, "instance.dat");
	assert_true(is_compressed(path));
	orig = read_whole(path, &len);
	assert_non_null(orig);
	copy = malloc(len);
	assert_non_null(copy);
	srand(7);
	for (i = 0; i < 220; i++) {
		memcpy(copy, orig, len);
		at = len / 2 + (size_t)rand() % (len / 2);
		if (i < 200) {
			copy[at] ^= (unsigned char)(1 + rand() % 255);
			write_whole(tmp, copy, len);
		} else {
			write_whole(tmp, copy, at);
		}
		a = read_file(tmp, false);
		b = read_file(tmp, true);
		if (a.hash != b.hash || a.pages != b.pages) {
			unlink(tmp);
			fail_msg("damage %d at %zu: %d pages inline, %d ahead, or not the same",
				 i, at, a.pages, b.pages);
		}
		failed += a.errors > 0;
	}
	/* most damage inside compressed chunks is found */
	assert_true(failed > 100);
	unlink(tmp);
	free(copy);
	free(orig);
	free(path);
}

/* A stream closed with its next chunk still in flight, and the file closed after it. */
static void test_close_in_flight(void **state)
{
	struct dat_open_opts opts = { .no_tep = true, .decompress_ahead = true };
	struct strbuf err = STRBUF_INIT;
	char *path = corpus_path(corpus, "instance.dat");
	struct dat_page_stream *ps;
	struct dat_file *df;
	const void *page;
	int round;

	for (round = 0; round < 50; round++) {
		assert_int_equal(dat_file_open_opts(path, &opts, &df, &err), 0);
		assert_int_equal(dat_page_stream_open(df, 0, 0, &ps, &err), 0);
		if (round % 2)
			assert_int_equal(dat_page_stream_next(ps, &page, &err), 1);
		dat_page_stream_close(ps);
		dat_file_close(df);
	}
	strbuf_release(&err);
	free(path);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_corpus_same_pages),
		cmocka_unit_test(test_damaged_same_errors),
		cmocka_unit_test(test_close_in_flight),
	};

	corpus = argc > 1 ? argv[1] : "tests/data/corpus";
	return cmocka_run_group_tests(tests, NULL, NULL);
}
