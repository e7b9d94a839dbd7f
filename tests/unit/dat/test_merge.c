// SPDX-License-Identifier: GPL-2.0-only
/*
 * The merge on the reference corpus: events come out by timestamp, equal timestamps by
 * buffer then CPU, and each CPU yields as many events as trace-cmd report --cpu shows.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <traceevent/event-parse.h>

#include "ktrace/dat.h"
#include "ktrace/merge.h"
#include "corpus_util.h"

static const char *corpus;

static const char *const all_files[] = {
	"block", "date", "fgraph_depth", "fgraph_events", "fgraph_open", "function_stack",
	"function_vfs", "instance", "kmem", "kprobe", "lost", "lost_graph", "markers",
	"pid_filter", "sched", "sched_clock_counter", "sched_none", "sched_v6", "sched_zstd",
	"syscalls_irq",
};

/* Files whose report prints exactly one line per event (no folding, no stack lines). */
static const char *const one_line_files[] = {
	"block", "date", "instance", "kmem", "kprobe", "lost", "pid_filter", "sched",
	"sched_clock_counter", "sched_none", "sched_v6", "sched_zstd", "syscalls_irq",
};

static struct dat_file *open_case(const char *name)
{
	struct strbuf err = STRBUF_INIT;
	struct dat_file *df = NULL;
	char file[128], *path;

	snprintf(file, sizeof(file), "%s.dat", name);
	path = corpus_path(corpus, file);
	if (dat_file_open(path, &df, &err))
		fail_msg("%s", strbuf_str(&err));
	free(path);
	strbuf_release(&err);
	return df;
}

/* Walks the whole merge, checking the order; returns the number of events. */
static long walk(struct dat_file *df, const struct merge_options *mo)
{
	struct strbuf err = STRBUF_INIT;
	unsigned long long last_ts = 0;
	int last_buffer = -1, last_cpu = -1, ret;
	struct merged_event ev;
	struct merge *m;
	long n = 0;

	if (merge_open(df, mo, &m, &err))
		fail_msg("%s", strbuf_str(&err));
	while ((ret = merge_next(m, &ev, &err)) > 0) {
		assert_true(ev.record->ts >= last_ts);
		if (n && ev.record->ts == last_ts) {
			assert_true(ev.buffer >= last_buffer);
			if (ev.buffer == last_buffer)
				assert_true(ev.record->cpu >= last_cpu);
		}
		assert_non_null(ev.record->data);
		assert_true(ev.record->size > 0);
		last_ts = ev.record->ts;
		last_buffer = ev.buffer;
		last_cpu = ev.record->cpu;
		n++;
	}
	if (ret < 0)
		fail_msg("%s", strbuf_str(&err));
	merge_close(m);
	strbuf_release(&err);
	return n;
}

static void test_order_all_files(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(all_files) / sizeof(all_files[0]); i++) {
		struct dat_file *df = open_case(all_files[i]);

		assert_true(walk(df, NULL) > 0);
		dat_file_close(df);
	}
}

/* Event lines of CPU 0 in NAME.report-cpu0.txt ("[000]" after the task). */
static long report_cpu0_lines(const char *name)
{
	char file[128], *path, *text, *p;
	size_t len = 0;
	long n = 0;

	snprintf(file, sizeof(file), "%s.report-cpu0.txt", name);
	path = corpus_path(corpus, file);
	text = (char *)read_whole(path, &len);
	assert_non_null(text);
	text = realloc(text, len + 1);
	text[len] = '\0';
	for (p = text; (p = strstr(p, "] ")) != NULL; p++)
		if (p - text >= 4 && memcmp(p - 4, "[000", 4) == 0)
			n++;
	free(text);
	free(path);
	return n;
}

static void test_cpu0_counts(void **state)
{
	bool cpu0[1] = { true };
	struct merge_options mo = { .cpu_filter = cpu0, .nr_cpu_filter = 1 };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(one_line_files) / sizeof(one_line_files[0]); i++) {
		struct dat_file *df = open_case(one_line_files[i]);
		long got = walk(df, &mo);
		long want = report_cpu0_lines(one_line_files[i]);

		if (got != want)
			fail_msg("%s: %ld events on cpu 0, trace-cmd shows %ld", one_line_files[i],
				 got, want);
		dat_file_close(df);
	}
}

/* Buffer filter: instance.dat's "inst1" alone has only its own events. */
static void test_buffer_filter(void **state)
{
	bool only_inst[2] = { false, true };
	struct merge_options mo = { .buffer_filter = only_inst, .nr_buffer_filter = 2 };
	struct dat_file *df = open_case("instance");
	long inst = walk(df, &mo), all = walk(df, NULL);

	(void)state;
	/* 16 irq_handler_entry lines carry the "inst1:" prefix in instance.report.txt */
	assert_int_equal(inst, 16);
	assert_int_equal(all, 85);
	dat_file_close(df);
}

/* trace-cmd's made-up blktrace format appears when records are read, not before. */
static void test_blk_event(void **state)
{
	struct dat_file *df = open_case("sched");
	struct tep_handle *tep = dat_file_tep(df);
	struct tep_event *user_stack, *blk;

	(void)state;
	assert_null(tep_find_event_by_name(tep, "ftrace", "blktrace"));
	walk(df, NULL);
	user_stack = tep_find_event_by_name(tep, "ftrace", "user_stack");
	blk = tep_find_event_by_name(tep, "ftrace", "blktrace");
	assert_non_null(user_stack);
	assert_non_null(blk);
	assert_int_equal(blk->id, user_stack->id + 1);
	assert_non_null(tep_find_field(blk, "sector"));
	walk(df, NULL);
	dat_file_close(df);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_order_all_files),
		cmocka_unit_test(test_cpu0_counts),
		cmocka_unit_test(test_buffer_filter),
		cmocka_unit_test(test_blk_event),
	};

	if (argc < 2) {
		fprintf(stderr, "usage: %s CORPUS_DIR\n", argv[0]);
		return 2;
	}
	corpus = argv[1];
	return cmocka_run_group_tests(tests, NULL, NULL);
}
