// SPDX-License-Identifier: GPL-2.0-only
/* The trace.dat reader on the reference corpus: headers, options, buffers, page streams. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <unistd.h>
#include <traceevent/event-parse.h>

#include "ktrace/dat.h"
#include "ktrace/dat_format.h"
#include "corpus_util.h"

static const char *corpus;

static struct dat_file *open_ok(const char *name, const struct dat_open_opts *opts)
{
	struct strbuf err = STRBUF_INIT;
	struct dat_file *df = NULL;
	char *path = corpus_path(corpus, name);
	int ret = dat_file_open_opts(path, opts, &df, &err);

	if (ret)
		fail_msg("%s: %s", name, strbuf_str(&err));
	free(path);
	strbuf_release(&err);
	return df;
}

static void test_header_v7(void **state)
{
	struct dat_file *df = open_ok("sched.dat", NULL);
	const struct dat_buffer *b;

	(void)state;
	assert_int_equal(dat_file_version(df), 7);
	assert_int_equal(dat_file_compression(df), KT_COMP_ZSTD);
	assert_true(strlen(dat_file_compression_version(df)) > 0);
	assert_false(dat_file_big_endian(df));
	assert_int_equal(dat_file_meta(df)->header_long_size, 8);
	assert_int_equal(dat_file_long_size(df), 8);
	assert_int_equal(dat_file_page_size(df), 4096);
	assert_int_equal(dat_file_nr_cpus(df), 2);
	assert_non_null(dat_file_tep(df));
	assert_int_equal(dat_file_parse_failures(df), 0);
	assert_int_equal(dat_file_nr_buffers(df), 1);
	b = dat_file_buffer(df, 0);
	assert_string_equal(b->name, "");
	assert_string_equal(b->clock, "global");
	assert_true(b->compressed);
	assert_int_equal(b->nr_cpus, 2);
	assert_string_equal(dat_file_trace_clock(df), "global");
	assert_true(dat_file_in_usecs(df));
	assert_true(dat_file_use_trace_clock(df));
	assert_int_equal(dat_file_meta(df)->nr_ftrace_events, 18);
	assert_int_equal(dat_file_meta(df)->nr_systems, 1);
	assert_int_equal(dat_file_meta(df)->kallsyms_size, 4160800);
	dat_file_close(df);
}

static void test_header_v6(void **state)
{
	struct dat_file *df = open_ok("sched_v6.dat", NULL);
	const struct dat_meta_summary *m;

	(void)state;
	m = dat_file_meta(df);
	assert_int_equal(dat_file_version(df), 6);
	assert_int_equal(dat_file_compression(df), KT_COMP_NONE);
	assert_int_equal(m->v6_cpus, 2);
	assert_true(m->v6_has_options);
	assert_false(m->latency);
	assert_string_equal(m->v6_clock, "[global]");
	assert_string_equal(dat_file_trace_clock(df), "global");
	assert_int_equal(dat_file_nr_buffers(df), 1);
	assert_int_equal(dat_file_buffer(df, 0)->nr_cpus, 2);
	assert_int_equal(dat_file_buffer(df, 0)->cpus[1].offset, 4194304);
	assert_int_equal(dat_file_nr_options(df), 6);
	assert_int_equal(dat_file_nr_option_sections(df), 0);
	dat_file_close(df);
}

/* sched.dat chains two options sections: the metadata one, then the buffer's. */
static void test_options_chain(void **state)
{
	struct dat_file *df = open_ok("sched.dat", NULL);
	const struct dat_section *s0, *s1;
	const char *clock;
	uint32_t size;
	int id, section;

	(void)state;
	assert_int_equal(dat_file_nr_option_sections(df), 2);
	s0 = dat_file_option_section(df, 0);
	s1 = dat_file_option_section(df, 1);
	assert_int_equal(s0->next_options, s1->offset);
	assert_int_equal(s1->next_options, 0);
	assert_string_equal(s0->desc, "options");
	assert_int_equal(dat_file_nr_options(df), 16);
	dat_file_option_at(df, 15, &id, &size, &section);
	assert_int_equal(id, DAT_OPT_DONE);
	assert_int_equal(section, 1);
	clock = dat_file_option(df, DAT_OPT_TRACECLOCK, 0, &size);
	assert_non_null(clock);
	assert_non_null(strstr(clock, "[global]"));
	assert_non_null(dat_file_option(df, DAT_OPT_CPUSTAT, 1, NULL));
	assert_null(dat_file_option(df, DAT_OPT_CPUSTAT, 2, NULL));
	assert_int_equal(dat_file_nr_sections(df), 10);
	dat_file_close(df);
}

static void test_instance_buffers(void **state)
{
	struct dat_file *df = open_ok("instance.dat", NULL);
	const struct dat_buffer *b;

	(void)state;
	assert_int_equal(dat_file_nr_buffers(df), 2);
	assert_string_equal(dat_file_buffer(df, 0)->name, "");
	b = dat_file_buffer(df, 1);
	assert_string_equal(b->name, "inst1");
	assert_int_equal(b->nr_cpus, 1);
	assert_int_equal(b->cpus[0].cpu, 1);
	assert_string_equal(b->section_desc, "buffer flyrecord inst1");
	dat_file_close(df);
}

/* The DATE option shifts timestamps by its microseconds unless --nodate. */
static void test_date_and_clock(void **state)
{
	struct dat_open_opts nodate = { .ignore_date = true };
	struct dat_open_opts raw = { .raw_ts = true };
	struct dat_file *df;

	(void)state;
	df = open_ok("date.dat", NULL);
	assert_int_equal(dat_file_ts(df, 5), 5 + 0x6616b5fc4c8b3ull * 1000);
	dat_file_close(df);
	df = open_ok("date.dat", &nodate);
	assert_int_equal(dat_file_ts(df, 5), 5);
	dat_file_close(df);
	df = open_ok("sched_clock_counter.dat", NULL);
	assert_string_equal(dat_file_trace_clock(df), "counter");
	assert_false(dat_file_in_usecs(df));
	dat_file_close(df);
	df = open_ok("sched.dat", &raw);
	assert_false(dat_file_in_usecs(df));
	assert_true(dat_file_raw_ts(df));
	dat_file_close(df);
}

static int count_pages(struct dat_file *df, int buffer, int cpu_index)
{
	struct strbuf err = STRBUF_INIT;
	struct dat_page_stream *ps;
	const void *page;
	int n = 0, ret;

	ret = dat_page_stream_open(df, buffer, cpu_index, &ps, &err);
	if (ret)
		fail_msg("%s", strbuf_str(&err));
	while ((ret = dat_page_stream_next(ps, &page, &err)) > 0) {
		/* the commit field of every page must fit in the page (in the file's byte order) */
		const unsigned char *c = (const unsigned char *)page + 8;
		uint64_t commit = 0;
		int k;

		for (k = 0; k < 8; k++)
			commit |= (uint64_t)c[dat_file_big_endian(df) ? 7 - k : k] << (8 * k);
		assert_true((commit & ((1u << 27) - 1)) <= dat_file_page_size(df) - 16);
		n++;
	}
	if (ret < 0)
		fail_msg("%s", strbuf_str(&err));
	dat_page_stream_close(ps);
	strbuf_release(&err);
	return n;
}

static void test_page_streams(void **state)
{
	static const char *const files[] = { "sched_v6.dat", "sched_none.dat", "sched_zstd.dat",
					     "sched.dat", "lost.dat", "instance.dat" };
	const struct dat_buffer *b;
	struct dat_file *df;
	size_t f;
	int i, j, pages;

	(void)state;
	for (f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
		df = open_ok(files[f], NULL);
		for (i = 0; i < dat_file_nr_buffers(df); i++) {
			b = dat_file_buffer(df, i);
			for (j = 0; j < b->nr_cpus; j++) {
				pages = count_pages(df, i, j);
				if (!b->compressed)
					assert_int_equal(pages, b->cpus[j].size / b->page_size);
				else if (b->cpus[j].size)
					assert_true(pages > 0);
			}
		}
		dat_file_close(df);
	}
}

/*
 * A v7 BUFFER_TEXT (latency) buffer: sched_none.dat with its BUFFER option and section
 * relabelled, so that the reader takes the section's bytes as the latency text.
 */
static void test_latency_v7(void **state)
{
	char path[] = "/tmp/ktrace-latency-XXXXXX";
	struct strbuf err = STRBUF_INIT;
	unsigned char *buf, id[2] = { 22, 0 };
	const struct dat_buffer *b;
	struct dat_file *df;
	uint64_t opt, sec, size, sec_size;
	char *src;
	size_t len;
	int fd;

	(void)state;
	df = open_ok("sched_none.dat", NULL);
	opt = dat_file_option_section(df, 1)->offset + 16;
	sec = dat_file_buffer(df, 0)->section_offset;
	sec_size = dat_file_buffer(df, 0)->section_size;
	dat_file_close(df);
	src = corpus_path(corpus, "sched_none.dat");
	buf = read_whole(src, &len);
	assert_non_null(buf);
	memcpy(buf + opt, id, 2);
	memcpy(buf + sec, id, 2);
	fd = mkstemp(path);
	assert_int_equal(write(fd, buf, len), (ssize_t)len);
	close(fd);
	assert_int_equal(dat_file_open(path, &df, &err), 0);
	b = dat_file_buffer(df, 0);
	assert_true(b->latency);
	assert_non_null(dat_file_latency_text(df, &size));
	assert_int_equal(size, sec_size);
	dat_file_close(df);
	unlink(path);
	free(buf);
	free(src);
	strbuf_release(&err);
}

/* src/dat's fast kallsyms loader (internal to the reader, declared here for the test) */
void dat_load_kallsyms(struct tep_handle *tep, const char *text, size_t len);

static void print_funcs(void *tep)
{
	tep_print_funcs(tep);
}

/* What libtraceevent ends up knowing about functions, as tep_print_funcs() lists it. */
static char *funcs_of(const char *kallsyms, bool ours)
{
	struct tep_handle *tep = tep_alloc();
	char *copy = strdup(kallsyms), *text;

	if (ours)
		dat_load_kallsyms(tep, copy, strlen(copy));
	else
		tep_parse_kallsyms(tep, copy);
	text = stdout_of(print_funcs, tep);
	assert_non_null(text);
	free(copy);
	tep_free(tep);
	return text;
}

static void same_funcs(const char *kallsyms)
{
	char *want = funcs_of(kallsyms, false), *got = funcs_of(kallsyms, true);

	assert_string_equal(got, want);
	free(want);
	free(got);
}

/* The fast loader must leave libtraceevent exactly as tep_parse_kallsyms() does. */
static void test_kallsyms_equivalence(void **state)
{
	struct strbuf err = STRBUF_INIT;
	struct dat_file *df = open_ok("sched_v6.dat", NULL);
	uint64_t size;
	void *block;

	(void)state;
	assert_int_equal(dat_file_load_v6_block(df, DAT_OPT_KALLSYMS, &block, &size, &err), 0);
	assert_true(size > 4);
	same_funcs((const char *)block + 4);
	free(block);
	dat_file_close(df);
	same_funcs("ffffffff81000000 T _stext\n\nffffffff81000010 t a_func\t[mod1]\n"
		   "0xffffffff81000020 T hexprefix\n  ffffffff81000030 T indented\n"
		   "ffffffff81000040 A abs_sym\nffffffff81000050 t $a\n"
		   "ffffffff81000060 t spaced  [notmod]\nffffffff81000070 t tabbed\t[ odd]\n"
		   "ffffffff81000080 t tabmod\t[mod2] trailing\nffffffff81000090  T two_spaces\n"
		   "12345678901234567 T too_long\nzzzz T not_hex\n");
	same_funcs("ffffffff81000000 T first\nbroken line here\nffffffff81000010 T after\n");
	strbuf_release(&err);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_header_v7),
		cmocka_unit_test(test_header_v6),
		cmocka_unit_test(test_options_chain),
		cmocka_unit_test(test_instance_buffers),
		cmocka_unit_test(test_date_and_clock),
		cmocka_unit_test(test_page_streams),
		cmocka_unit_test(test_kallsyms_equivalence),
		cmocka_unit_test(test_latency_v7),
	};

	if (argc < 2) {
		fprintf(stderr, "usage: %s CORPUS_DIR\n", argv[0]);
		return 2;
	}
	corpus = argv[1];
	return cmocka_run_group_tests(tests, NULL, NULL);
}
