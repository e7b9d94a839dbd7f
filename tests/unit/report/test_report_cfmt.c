// SPDX-License-Identifier: GPL-2.0-only
/*
 * Compiled print formats (report_cfmt) must give libtraceevent's pretty-printed text byte for
 * byte. Two checks, each against tep_print_event(TEP_PRINT_INFO) with the event's handler off:
 *  - every record of every corpus file whose format compiles (argv[1]: the corpus folder);
 *  - synthetic formats with the conversions, flags, lengths, casts and strings the compiler
 *    accepts, over values chosen at the sign and width edges; and formats it must refuse.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <event-parse.h>
#include <trace-seq.h>

#include "ktrace/dat.h"
#include "ktrace/report.h"
#include "../dat/corpus_util.h"
#include "report_print.h"

static const char *corpus_dir;

/* libtraceevent's text for the record, as report_print.c asks for it without a handler */
static void reference(struct tep_handle *tep, struct tep_event *event, struct tep_record *r,
		      struct trace_seq *s)
{
	int flags = event->flags;

	trace_seq_reset(s);
	event->flags |= TEP_EVENT_FL_NOHANDLE;
	tep_print_event(tep, s, r, "%s", TEP_PRINT_INFO);
	event->flags = flags;
	trace_seq_terminate(s);
}

/* 1 when compiled and identical, 0 when not compiled; fails the test on a difference */
static int compare(struct tep_handle *tep, struct report_cfmt *rc, struct tep_record *r,
		   const char *where)
{
	struct strbuf sb = STRBUF_INIT;
	struct tep_event *event;
	struct trace_seq s;
	unsigned int flex;
	int ret = 0;

	event = report_cfmt_event(rc, r, &flex);
	if (!event)
		return 0;
	trace_seq_init(&s);
	if (report_cfmt_print(rc, &sb, r, event, false)) {
		reference(tep, event, r, &s);
		if (strcmp(strbuf_str(&sb), s.buffer))
			fail_msg("%s: %s:%s\n  compiled: '%s'\n  libtraceevent: '%s'", where,
				 event->system, event->name, strbuf_str(&sb), s.buffer);
		ret = 1;
	}
	trace_seq_destroy(&s);
	strbuf_release(&sb);
	return ret;
}

struct corpus_counts {
	long records;
	int distinct;		/* event types */
};

static void compare_file(const char *path, void *arg)
{
	struct corpus_counts *counts = arg;
	struct strbuf err = STRBUF_INIT;
	struct report_stream *st;
	struct report_cfmt *rc;
	struct report_event ev;
	struct dat_file *df;
	char *seen;
	int ret, type;

	assert_int_equal(dat_file_open(path, &df, &err), 0);
	assert_int_equal(report_stream_open(df, &st, &err), 0);
	assert_int_equal(report_cfmt_new(dat_file_tep(df), &rc), 0);
	seen = calloc(0x10000, 1);
	assert_non_null(seen);
	while ((ret = report_stream_next(st, &ev, &err)) == 1) {
		if (!compare(dat_file_tep(df), rc, ev.record, path))
			continue;
		counts->records++;
		type = tep_data_type(dat_file_tep(df), ev.record);
		if (!seen[type & 0xffff]++)
			counts->distinct++;
	}
	assert_int_equal(ret, 0);
	free(seen);
	report_cfmt_free(rc);
	report_stream_close(st);
	dat_file_close(df);
	strbuf_release(&err);
}

static void test_corpus(void **state)
{
	struct corpus_counts counts = { 0 };
	int files;

	(void)state;
	files = corpus_each_dat(corpus_dir, compare_file, &counts);
	print_message("%d files: %ld records of %d event types compiled, all identical\n", files,
		      counts.records, counts.distinct);
	/* 629 records of 33 types when this was written: the fast path must keep running */
	assert_true(files >= 20);
	assert_true(counts.records >= 600);
	assert_true(counts.distinct >= 30);
}

/* ------------------------------------------------------------------ synthetic formats */

#define COMMON_FIELDS \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

#define FIELDS COMMON_FIELDS \
	"\tfield:int i;\toffset:8;\tsize:4;\tsigned:1;\n" \
	"\tfield:long l;\toffset:16;\tsize:8;\tsigned:1;\n" \
	"\tfield:unsigned long a[3];\toffset:24;\tsize:24;\tsigned:0;\n" \
	"\tfield:short h;\toffset:48;\tsize:2;\tsigned:1;\n" \
	"\tfield:unsigned char c;\toffset:50;\tsize:1;\tsigned:0;\n" \
	"\tfield:char comm[16];\toffset:52;\tsize:16;\tsigned:1;\n" \
	"\tfield:__data_loc char[] name;\toffset:68;\tsize:4;\tsigned:1;\n\n"

struct synth {
	const char *fmt;	/* print fmt after "print fmt: " */
	bool compiles;
};

static const struct synth synths[] = {
	{ "\"NR %ld (%lx, %lx, %lx)\", REC->l, REC->a[0], REC->a[1], REC->a[2]", true },
	{ "\"dfd: 0x%08lx, x: 0x%08lx\", ((unsigned long)(REC->i)), ((unsigned long)(REC->l))",
	  true },
	{ "\"%d %u %x %X %i|%ld %lu %lx|%lld %llu %llx|%zu %zx\", REC->i, REC->i, REC->i, REC->i, "
	  "REC->i, REC->i, REC->i, REC->i, REC->l, REC->l, REC->l, REC->l, REC->l", true },
	{ "\"%hd %hu %hx %hhd %hhu %hhx|%d %d %u\", REC->h, REC->h, REC->h, REC->i, REC->i, REC->i, "
	  "REC->h, REC->c, REC->c", true },
	{ "\"[%5d] [%-5d] [%05d] [%-05d] [%8x] [%08X] [%#x] [%#08lx] [%-#10x] [%1d]\", REC->i, "
	  "REC->i, REC->i, REC->i, REC->i, REC->i, REC->i, REC->l, REC->i, REC->h", true },
	{ "\"%d %d %d %d %d %d %lu %lu\", (u8)REC->i, (s8)REC->i, (u16)REC->i, (s16)REC->i, "
	  "(unsigned char)REC->i, (int)REC->l, (unsigned int)REC->l, (u32)REC->l", true },
	{ "\"%ld %ld %d\", (char)REC->l, (short)REC->l, (long)REC->h", true },
	{ "\"%u %x %d %hu %hhx\", REC->l, REC->l, REC->l, REC->a[1], REC->a[2]", true },
	{ "\"name=%s comm=%s [%-20s] [%20s] %%\\\\t\\tend\\n\", __get_str(name), REC->comm, "
	  "__get_str(name), REC->comm", true },
	{ "\"\"", true },
	{ "\"%p\", REC->l", false },
	{ "\"%c\", REC->c", false },
	{ "\"%.3d\", REC->i", false },
	{ "\"%*d\", REC->i, REC->i", false },
	{ "\"% d\", REC->i", false },
	{ "\"%d\", 5", false },
	{ "\"%d\", REC->i + 1", false },
	{ "\"%s\", __print_symbolic(REC->i, { 0, \"zero\" }, { 1, \"one\" })", false },
	{ "\"%s\", REC->l", false },
	{ "\"%d %d\", REC->i", false },
	{ "\"%Ld %Lu %Lx %016Lx\", REC->l, REC->l, REC->i, REC->l", true },
};

static const long long values[] = {
	0, 1, -1, -100, 9, 10, 0x7f, 0x80, 0xff, 0x100, 0x7fff, 0x8000, 0xffff, 0x7fffffff,
	-0x80000000LL, 0xffffffffLL, 0x123456789abcdefLL, -0x7fffffffffffffffLL - 1,
	0x7fffffffffffffffLL, 4096,
};

static const char *names[] = { "", "x", "openat", "a-much-longer-name-than-twenty" };

static void fill(uint8_t *data, int type, long long v, const char *name, const char *comm)
{
	uint32_t loc = (uint32_t)((strlen(name) + 1) << 16 | 72);
	uint64_t u = (uint64_t)v, a[3] = { u, ~u, u >> 7 };
	int32_t i = (int32_t)v;
	int16_t h = (int16_t)v;
	uint16_t t = (uint16_t)type;

	memset(data, 0, 128);
	memcpy(data, &t, 2);
	memcpy(data + 8, &i, 4);
	memcpy(data + 16, &u, 8);
	memcpy(data + 24, a, 24);
	memcpy(data + 48, &h, 2);
	data[50] = (uint8_t)v;
	strncpy((char *)data + 52, comm, 16);
	memcpy(data + 68, &loc, 4);
	memcpy(data + 72, name, strlen(name) + 1);
}

static void test_synthetic(void **state)
{
	uint8_t data[128];
	struct tep_record r = { .data = data, .size = sizeof(data) };
	char text[2048], where[64];
	size_t i, j, k;

	(void)state;
	for (i = 0; i < sizeof(synths) / sizeof(synths[0]); i++) {
		struct tep_handle *tep = tep_alloc();
		struct report_cfmt *rc;
		int id = 100 + (int)i, compiled = 0;

		tep_set_long_size(tep, 8);
		tep_set_file_bigendian(tep, TEP_LITTLE_ENDIAN);
		tep_set_local_bigendian(tep, TEP_LITTLE_ENDIAN);
		snprintf(text, sizeof(text), "name: e%zu\nID: %d\nformat:\n" FIELDS "print fmt: %s\n",
			 i, id, synths[i].fmt);
		assert_int_equal(tep_parse_event(tep, text, strlen(text), "test"), 0);
		assert_int_equal(report_cfmt_new(tep, &rc), 0);
		for (j = 0; j < sizeof(values) / sizeof(values[0]); j++) {
			for (k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
				fill(data, id, values[j], names[k], names[(k + 1) % 4]);
				snprintf(where, sizeof(where), "format %zu value %zu name %zu", i, j, k);
				compiled += compare(tep, rc, &r, where);
			}
		}
		if (synths[i].compiles)
			assert_int_equal(compiled, 20 * 4);
		else
			assert_int_equal(compiled, 0);
		report_cfmt_free(rc);
		tep_free(tep);
	}
}

/* A record too short for a field, or a string without its NUL, goes back to libtraceevent. */
static void test_short_record(void **state)
{
	uint8_t data[128];
	struct tep_record r = { .data = data, .size = sizeof(data) };
	struct tep_handle *tep = tep_alloc();
	struct strbuf sb = STRBUF_INIT;
	struct report_cfmt *rc;
	struct tep_event *event;
	unsigned int flex;
	uint32_t loc;
	char text[2048];

	(void)state;
	tep_set_long_size(tep, 8);
	snprintf(text, sizeof(text), "name: e\nID: 7\nformat:\n" FIELDS "print fmt: %s\n",
		 "\"%s %lx\", __get_str(name), REC->a[2]");
	assert_int_equal(tep_parse_event(tep, text, strlen(text), "test"), 0);
	assert_int_equal(report_cfmt_new(tep, &rc), 0);
	fill(data, 7, 5, "abc", "comm");
	event = report_cfmt_event(rc, &r, &flex);
	assert_non_null(event);
	assert_true(report_cfmt_print(rc, &sb, &r, event, false));
	assert_string_equal(strbuf_str(&sb), "abc 0");
	strbuf_reset(&sb);
	r.size = 47;
	assert_false(report_cfmt_print(rc, &sb, &r, event, false));
	assert_int_equal(sb.len, 0);
	/* "abc" without its NUL: libtraceevent would read past the record */
	r.size = 75;
	loc = 3 << 16 | 72;
	memcpy(data + 68, &loc, 4);
	assert_false(report_cfmt_print(rc, &sb, &r, event, false));
	assert_int_equal(sb.len, 0);
	strbuf_release(&sb);
	report_cfmt_free(rc);
	tep_free(tep);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_synthetic),
		cmocka_unit_test(test_short_record),
		cmocka_unit_test(test_corpus),
	};

	if (argc < 2) {
		fprintf(stderr, "usage: %s CORPUS_DIR\n", argv[0]);
		return 2;
	}
	corpus_dir = argv[1];
	return cmocka_run_group_tests(tests, NULL, NULL);
}
