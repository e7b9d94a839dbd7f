// SPDX-License-Identifier: GPL-2.0-only
/*
 * Damaged trace.dat files, made from corpus files in a temporary file: truncated at many
 * offsets, bytes flipped in the header, options, section headers and ring-buffer pages, and
 * targeted lies (magic, compression, counts, sizes, loops). Each must give an error naming
 * the file and an offset, or read to the end; never crash or hang.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <traceevent/event-parse.h>

#include "ktrace/dat.h"
#include "ktrace/merge.h"
#include "corpus_util.h"

static const char *corpus;

struct tmpdat {
	char path[64];
	int fd;
	unsigned char *orig;
	size_t len;
};

static void tmp_init(struct tmpdat *t, const char *name)
{
	char *src = corpus_path(corpus, name);

	t->orig = read_whole(src, &t->len);
	assert_non_null(t->orig);
	free(src);
	strcpy(t->path, "/tmp/ktrace-baddat-XXXXXX");
	t->fd = mkstemp(t->path);
	assert_true(t->fd >= 0);
}

static void tmp_write(struct tmpdat *t, const unsigned char *buf, size_t len)
{
	assert_int_equal(ftruncate(t->fd, 0), 0);
	assert_int_equal(pwrite(t->fd, buf, len, 0), (ssize_t)len);
}

static void tmp_done(struct tmpdat *t)
{
	close(t->fd);
	unlink(t->path);
	free(t->orig);
}

/* An error message must name the file and say where. */
static void check_message(const struct tmpdat *t, const struct strbuf *err)
{
	const char *msg = strbuf_str(err);

	if (!strstr(msg, t->path) || !strstr(msg, "offset"))
		fail_msg("message without file or offset: \"%s\"", msg);
	assert_null(strchr(msg, '\n'));
}

/* Reads every event; returns 0 or the error (message checked). */
static int read_all(const struct tmpdat *t, struct dat_file *df)
{
	struct strbuf err = STRBUF_INIT;
	struct merged_event ev;
	struct merge *m;
	int ret;

	ret = merge_open(df, NULL, &m, &err);
	if (!ret) {
		while ((ret = merge_next(m, &ev, &err)) > 0)
			assert_true(ev.record->size >= 0);
		merge_close(m);
	}
	if (ret < 0)
		check_message(t, &err);
	strbuf_release(&err);
	return ret;
}

/* Every page of every CPU, without libtraceevent (files opened for their layout only). */
static int stream_all(const struct tmpdat *t, struct dat_file *df)
{
	struct strbuf err = STRBUF_INIT;
	struct dat_page_stream *ps;
	const void *page;
	int i, j, ret = 0;

	for (i = 0; i < dat_file_nr_buffers(df) && !ret; i++) {
		for (j = 0; j < dat_file_buffer(df, i)->nr_cpus && !ret; j++) {
			ret = dat_page_stream_open(df, i, j, &ps, &err);
			if (ret)
				break;
			while ((ret = dat_page_stream_next(ps, &page, &err)) > 0)
				;
			dat_page_stream_close(ps);
		}
	}
	if (ret < 0)
		check_message(t, &err);
	strbuf_release(&err);
	return ret;
}

/* Opens the temporary file; 0 when it read through, else the (checked) error. */
static int try_open(const struct tmpdat *t, bool with_tep)
{
	struct dat_open_opts opts = { .no_tep = !with_tep };
	struct strbuf err = STRBUF_INIT;
	struct dat_file *df;
	int ret = dat_file_open_opts(t->path, &opts, &df, &err);

	if (ret < 0) {
		check_message(t, &err);
	} else {
		ret = with_tep ? read_all(t, df) : stream_all(t, df);
		dat_file_close(df);
	}
	strbuf_release(&err);
	return ret < 0 ? ret : 0;
}

static void truncations(const char *name)
{
	struct tmpdat t;
	size_t cut, step;

	tmp_init(&t, name);
	step = t.len / 97 + 1;
	for (cut = 0; cut < t.len; cut += cut < 80 ? 1 : step) {
		tmp_write(&t, t.orig, cut);
		if (try_open(&t, false) == 0)
			fail_msg("%s cut at %zu opened without error", name, cut);
	}
	for (cut = t.len - 24; cut < t.len; cut++) {
		tmp_write(&t, t.orig, cut);
		if (try_open(&t, false) == 0)
			fail_msg("%s cut at %zu opened without error", name, cut);
	}
	tmp_done(&t);
}

static void test_truncated_v7(void **state)
{
	(void)state;
	truncations("sched.dat");
}

static void test_truncated_v6(void **state)
{
	(void)state;
	truncations("sched_v6.dat");
}

static void flip_range(struct tmpdat *t, unsigned char *buf, size_t from, size_t to, size_t step)
{
	size_t i;

	for (i = from; i < to && i < t->len; i += step) {
		buf[i] ^= 0xff;
		tmp_write(t, buf, t->len);
		try_open(t, false);
		buf[i] ^= 0xff;
	}
}

/* Flips in the header, the section headers and both options sections of sched.dat. */
static void test_flips_layout(void **state)
{
	struct strbuf err = STRBUF_INIT;
	struct dat_open_opts layout = { .no_tep = true };
	struct dat_file *df;
	struct tmpdat t;
	unsigned char *buf;
	int i;

	(void)state;
	tmp_init(&t, "sched.dat");
	buf = malloc(t.len);
	memcpy(buf, t.orig, t.len);
	tmp_write(&t, buf, t.len);
	assert_int_equal(dat_file_open_opts(t.path, &layout, &df, &err), 0);
	flip_range(&t, buf, 0, 64, 1);
	for (i = 0; i < dat_file_nr_sections(df); i++) {
		const struct dat_section *s = dat_file_section(df, i);

		flip_range(&t, buf, s->offset, s->offset + 24, 1);
		if (s->id == 0)
			flip_range(&t, buf, s->offset + 16, s->offset + 16 + s->size, 3);
		if (s->id == 3)
			flip_range(&t, buf, s->offset + 16, s->offset + 16 + s->size, 97);
	}
	dat_file_close(df);
	free(buf);
	tmp_done(&t);
	strbuf_release(&err);
}

/*
 * Flips inside the ring-buffer pages of an uncompressed file, read through kbuffer: the
 * metadata is parsed once and the pages are rewritten between reads, as the reader fetches
 * pages from the file when a merge starts.
 */
static void test_flips_pages(void **state)
{
	struct strbuf err = STRBUF_INIT;
	const struct dat_buffer *b;
	struct dat_file *df;
	struct tmpdat t;
	uint64_t off, end;
	unsigned char byte;
	int j, errors = 0, reads = 0;

	(void)state;
	tmp_init(&t, "sched_none.dat");
	tmp_write(&t, t.orig, t.len);
	assert_int_equal(dat_file_open(t.path, &df, &err), 0);
	b = dat_file_buffer(df, 0);
	for (j = 0; j < b->nr_cpus; j++) {
		end = b->cpus[j].offset + b->cpus[j].size;
		for (off = b->cpus[j].offset; off < end; off += off % 4096 < 64 ? 1 : 29) {
			byte = t.orig[off] ^ 0xff;
			assert_int_equal(pwrite(t.fd, &byte, 1, off), 1);
			if (read_all(&t, df) < 0)
				errors++;
			reads++;
			assert_int_equal(pwrite(t.fd, &t.orig[off], 1, off), 1);
		}
	}
	/* the page headers are checked: some flips must have been caught */
	assert_true(errors > 0);
	assert_true(reads > errors);
	dat_file_close(df);
	tmp_done(&t);
	strbuf_release(&err);
}

/* Writes `orig` with `len` bytes replaced at `off`; expects an error mentioning `what`. */
static void expect_error(struct tmpdat *t, size_t off, const void *bytes, size_t len,
			 const char *what)
{
	struct dat_open_opts layout = { .no_tep = true };
	struct strbuf err = STRBUF_INIT;
	unsigned char *buf = malloc(t->len);
	struct dat_file *df;

	memcpy(buf, t->orig, t->len);
	memcpy(buf + off, bytes, len);
	tmp_write(t, buf, t->len);
	if (dat_file_open_opts(t->path, &layout, &df, &err) == 0) {
		dat_file_close(df);
		fail_msg("no error for %s", what);
	}
	check_message(t, &err);
	if (!strstr(strbuf_str(&err), what))
		fail_msg("\"%s\" does not mention \"%s\"", strbuf_str(&err), what);
	free(buf);
	strbuf_release(&err);
}

static void le32(unsigned char *b, uint32_t v)
{
	b[0] = v;
	b[1] = v >> 8;
	b[2] = v >> 16;
	b[3] = v >> 24;
}

static void test_targeted_v7(void **state)
{
	unsigned char b[8] = { 0 };
	struct strbuf err = STRBUF_INIT;
	struct dat_file *df;
	uint64_t opt1, sec0;
	struct tmpdat t;

	(void)state;
	tmp_init(&t, "sched.dat");
	tmp_write(&t, t.orig, t.len);
	assert_int_equal(dat_file_open(t.path, &df, &err), 0);
	sec0 = dat_file_option_section(df, 0)->offset;
	opt1 = dat_file_option_section(df, 1)->offset;
	dat_file_close(df);

	expect_error(&t, 0, "\x17\x08\x45", 3, "magic");
	expect_error(&t, 10, "8", 1, "version");
	expect_error(&t, 12, "\x07", 1, "endianness");
	expect_error(&t, 14, "\x00\x0c\x00\x00", 4, "page size");
	expect_error(&t, 18, "lz4x", 4, "unknown compression");
	/* BUFFER option: id, size, offset, "", "global", page size, then the cpu count */
	le32(b, 70000);
	expect_error(&t, opt1 + 16 + 6 + 8 + 1 + 7 + 4, b, 4, "cpu count 70000");
	/* a section size far past the end of the file */
	memset(b, 0x7f, 8);
	expect_error(&t, sec0 + 8, b, 8, "past the end");
	/* the second options section's DONE pointing back at the first */
	memcpy(b, &sec0, 8);
	expect_error(&t, opt1 + 16 + 6 + 64 + 6, b, 8, "loops");
	tmp_done(&t);
	strbuf_release(&err);
}

static void test_targeted_v6(void **state)
{
	const struct dat_meta_summary *m;
	struct strbuf err = STRBUF_INIT;
	unsigned char b[4];
	struct dat_file *df;
	size_t kind;
	struct tmpdat t;

	(void)state;
	tmp_init(&t, "sched_v6.dat");
	tmp_write(&t, t.orig, t.len);
	assert_int_equal(dat_file_open(t.path, &df, &err), 0);
	m = dat_file_meta(df);
	kind = m->v6_cpu_offsets_at - 10;
	dat_file_close(df);
	expect_error(&t, kind, "flyrekord", 9, "flyrecord");
	le32(b, 0x7fffffff);
	expect_error(&t, 18 + 12, b, 4, "bytes needed");
	tmp_done(&t);
	strbuf_release(&err);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_truncated_v7),
		cmocka_unit_test(test_truncated_v6),
		cmocka_unit_test(test_flips_layout),
		cmocka_unit_test(test_flips_pages),
		cmocka_unit_test(test_targeted_v7),
		cmocka_unit_test(test_targeted_v6),
	};

	if (argc < 2) {
		fprintf(stderr, "usage: %s CORPUS_DIR\n", argv[0]);
		return 2;
	}
	corpus = argv[1];
	return cmocka_run_group_tests(tests, NULL, NULL);
}
