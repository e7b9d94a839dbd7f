// SPDX-License-Identifier: GPL-2.0-only
/*
 * report --profile bookkeeping (profile_acc.c) on hand-made event sequences whose answers are
 * worked out by hand in the comments, then on the corpus file sched.dat (argv[1]) against
 * figures read off its `trace-cmd report -t` text.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <errno.h>

#include "ktrace/dat.h"
#include "ktrace/report.h"
#include "profile.h"

#define S	0x01
#define D	0x02
#define R_PLUS	0x100	/* TASK_REPORT_MAX: preempted */
#define DEAD	0x10

static const char *corpus;

static const struct profile_task *task(const struct profile *p, int pid)
{
	size_t i;

	for (i = 0; i < p->nr_tasks; i++)
		if (p->tasks[i]->pid == pid)
			return p->tasks[i];
	fail_msg("no task %d", pid);
	return NULL;
}

static void check_sum(const struct profile_sum *s, uint64_t total, uint64_t count, uint64_t max)
{
	assert_int_equal(s->total, total);
	assert_int_equal(s->count, count);
	assert_int_equal(s->max, max);
}

/*
 * A runs from the file's start (100) to 150, sleeps (S) until woken at 400, waits to 420,
 * runs to 500, is preempted (R+) until 530, runs to 600, blocks (D) to the end (1000).
 * B is born by fork at 140, waits for a CPU until 150 (switched in when A sleeps), runs to 420
 * where A preempts it, is runnable until 500, and runs to 530 where it exits.
 */
static void test_states(void **state)
{
	struct profile p = { 0 };
	const struct profile_task *a, *b;

	(void)state;
	profile_note_ts(&p, 100);
	profile_note_ts(&p, 140);
	assert_int_equal(profile_wakeup(&p, 140, 2, "b", true), 0);
	profile_note_ts(&p, 150);
	assert_int_equal(profile_switch(&p, 0, 150, 1, "a", S, 2, "b"), 0);
	profile_note_ts(&p, 400);
	assert_int_equal(profile_wakeup(&p, 400, 1, "a", false), 0);
	/* sched_wakeup after sched_waking: the same wakeup, the first one counts */
	assert_int_equal(profile_wakeup(&p, 405, 1, "a", false), 0);
	assert_int_equal(profile_switch(&p, 0, 420, 2, "b", 0, 1, "a"), 0);
	assert_int_equal(profile_switch(&p, 0, 500, 1, "a", R_PLUS, 2, "b"), 0);
	assert_int_equal(profile_switch(&p, 0, 530, 2, "b", DEAD, 1, "a"), 0);
	assert_int_equal(profile_switch(&p, 0, 600, 1, "a", D, 0, "swapper/0"), 0);
	profile_note_ts(&p, 1000);
	assert_int_equal(profile_finish(&p), 0);

	a = task(&p, 1);
	check_sum(&a->sum[PROFILE_RUN], 50 + 80 + 70, 3, 80);
	check_sum(&a->sum[PROFILE_SLEEP], 250, 1, 250);
	check_sum(&a->sum[PROFILE_WAIT], 20, 1, 20);
	check_sum(&a->sum[PROFILE_PREEMPT], 30, 1, 30);
	check_sum(&a->sum[PROFILE_BLOCK], 400, 1, 400);
	check_sum(&a->sum[PROFILE_OTHER], 0, 0, 0);
	b = task(&p, 2);
	check_sum(&b->sum[PROFILE_WAIT], 10, 1, 10);
	check_sum(&b->sum[PROFILE_RUN], 270 + 30, 2, 270);
	check_sum(&b->sum[PROFILE_PREEMPT], 80, 1, 80);
	assert_int_equal(b->sum[PROFILE_OTHER].count, 0);
	/* the busiest first; the idle task (pid 0) is no task */
	assert_int_equal(p.nr_tasks, 2);
	assert_ptr_equal(p.tasks[0], b);
	profile_release(&p);
}

/*
 * Stacks: C sleeps twice in stack X (10 and 30) and once in stack Y (25), each stack arriving
 * right after its switch-out; the second X sleep is woken before its stack is read (it comes
 * from the CPU C left, after another CPU's wakeup), which must still count.
 * A stack of a running task (any event's -T stack) is not a blocking stack.
 */
static void test_stacks(void **state)
{
	const uint64_t x[] = { 0xffffffff81000010ULL, 0xffffffff81000200ULL },
		       y[] = { 0xffffffff81000010ULL, 0xffffffff81000300ULL, 0x42 };
	struct profile p = { 0 };
	const struct profile_task *c;

	(void)state;
	profile_note_ts(&p, 0);
	assert_int_equal(profile_switch(&p, 0, 0, 0, "swapper/0", 0, 3, "c"), 0);
	assert_int_equal(profile_stack(&p, 3, y, 3), 0);
	assert_int_equal(profile_switch(&p, 0, 10, 3, "c", S, 0, "swapper/0"), 0);
	assert_int_equal(profile_stack(&p, 3, x, 2), 0);
	assert_int_equal(profile_wakeup(&p, 20, 3, "c", false), 0);
	assert_int_equal(profile_switch(&p, 0, 20, 0, "swapper/0", 0, 3, "c"), 0);
	assert_int_equal(profile_switch(&p, 0, 30, 3, "c", S, 0, "swapper/0"), 0);
	assert_int_equal(profile_wakeup(&p, 60, 3, "c", false), 0);
	assert_int_equal(profile_stack(&p, 3, x, 2), 0);
	assert_int_equal(profile_switch(&p, 0, 61, 0, "swapper/0", 0, 3, "c"), 0);
	assert_int_equal(profile_switch(&p, 0, 70, 3, "c", D, 0, "swapper/0"), 0);
	assert_int_equal(profile_stack(&p, 3, y, 3), 0);
	assert_int_equal(profile_wakeup(&p, 95, 3, "c", false), 0);
	assert_int_equal(profile_switch(&p, 0, 95, 0, "swapper/0", 0, 3, "c"), 0);
	profile_note_ts(&p, 100);
	assert_int_equal(profile_finish(&p), 0);

	assert_true(p.stacks);
	c = task(&p, 3);
	assert_int_equal(c->nr_stacks, 2);
	/* by total: X (40) before Y (25) */
	assert_int_equal(c->stacks[0].nr, 2);
	assert_memory_equal(c->stacks[0].ips, x, sizeof(x));
	check_sum(&c->stacks[0].sum, 40, 2, 30);
	assert_int_equal(c->stacks[1].nr, 3);
	check_sum(&c->stacks[1].sum, 25, 1, 25);
	check_sum(&c->sum[PROFILE_SLEEP], 40, 2, 30);
	check_sum(&c->sum[PROFILE_BLOCK], 25, 1, 25);
	profile_release(&p);
}

/*
 * A kernel that drops the switch out of the idle task (the test VM's does, on one CPU): the task
 * woken onto the idle CPU ran from its wakeup on, and was preempted later on another idle CPU.
 */
static void test_idle_switch_lost(void **state)
{
	struct profile p = { 0 };
	const struct profile_task *t;

	(void)state;
	profile_note_ts(&p, 0);
	assert_int_equal(profile_switch(&p, 1, 0, 0, "swapper/1", 0, 5, "t"), 0);
	assert_int_equal(profile_switch(&p, 1, 100, 5, "t", S, 0, "swapper/1"), 0);
	assert_int_equal(profile_wakeup(&p, 200, 5, "t", false), 0);
	/* swapper/1 ==> t at ~200 is missing */
	assert_int_equal(profile_switch(&p, 1, 500, 5, "t", 0, 7, "u"), 0);
	/* CPU 0 went idle at 550, t (preempted at 500) moved there: that switch is missing too */
	assert_int_equal(profile_switch(&p, 0, 550, 7, "u", S, 0, "swapper/0"), 0);
	assert_int_equal(profile_switch(&p, 0, 700, 5, "t", S, 0, "swapper/0"), 0);
	profile_note_ts(&p, 700);
	assert_int_equal(profile_finish(&p), 0);

	t = task(&p, 5);
	check_sum(&t->sum[PROFILE_RUN], 100 + 300 + 150, 3, 300);
	check_sum(&t->sum[PROFILE_SLEEP], 100, 2, 100);	/* the last one ends with the file */
	check_sum(&t->sum[PROFILE_WAIT], 0, 1, 0);
	check_sum(&t->sum[PROFILE_PREEMPT], 50, 1, 50);
	profile_release(&p);
}

/*
 * A kernel that drops every event of some task (the test VM's does for its agent's threads),
 * its switches included: t is preempted by the agent at 100, the agent's switch back to t is
 * missing, and t's next scheduler event at 250 tells that t runs again. The agent left at an
 * unknown moment: "other" from 250. An event of the idle task (pid 0) at 500 ends sh's run.
 */
static void test_hidden_task_switch_lost(void **state)
{
	struct profile p = { 0 };
	const struct profile_task *t;

	(void)state;
	profile_note_ts(&p, 0);
	assert_int_equal(profile_switch(&p, 1, 0, 9, "sh", 0, 5, "t"), 0);
	assert_int_equal(profile_switch(&p, 1, 100, 5, "t", 0, 71, "agent"), 0);
	assert_int_equal(profile_running(&p, 1, 250, 5), 0);
	assert_int_equal(profile_running(&p, 1, 260, 5), 0);
	assert_int_equal(profile_switch(&p, 1, 400, 5, "t", S, 9, "sh"), 0);
	assert_int_equal(profile_running(&p, 1, 500, 0), 0);
	profile_note_ts(&p, 600);
	assert_int_equal(profile_finish(&p), 0);

	t = task(&p, 5);
	check_sum(&t->sum[PROFILE_RUN], 100 + 150, 2, 150);
	check_sum(&t->sum[PROFILE_PREEMPT], 150, 1, 150);
	check_sum(&t->sum[PROFILE_SLEEP], 200, 1, 200);
	t = task(&p, 71);
	check_sum(&t->sum[PROFILE_RUN], 150, 1, 150);
	check_sum(&t->sum[PROFILE_OTHER], 100 + 350, 2, 350);	/* unseen before 100 */
	t = task(&p, 9);
	check_sum(&t->sum[PROFILE_RUN], 0 + 100, 2, 100);	/* from the file's start to 0 */
	check_sum(&t->sum[PROFILE_OTHER], 100, 1, 100);
	profile_release(&p);
}

/*
 * A sleeping task seen leaving an idle CPU: its wakeup and switch-in are both missing, so when
 * it became runnable is unknown, and the sleep is not taken for running: it lasts to 400.
 */
static void test_sleeper_switch_lost(void **state)
{
	struct profile p = { 0 };
	const struct profile_task *t;

	(void)state;
	profile_note_ts(&p, 0);
	assert_int_equal(profile_switch(&p, 1, 0, 0, "swapper/1", 0, 8, "x"), 0);
	assert_int_equal(profile_switch(&p, 1, 50, 8, "x", S, 0, "swapper/1"), 0);
	assert_int_equal(profile_switch(&p, 0, 0, 0, "swapper/0", 0, 5, "t"), 0);
	assert_int_equal(profile_switch(&p, 0, 100, 5, "t", S, 0, "swapper/0"), 0);
	assert_int_equal(profile_switch(&p, 1, 400, 5, "t", 0, 9, "u"), 0);
	profile_note_ts(&p, 500);
	assert_int_equal(profile_finish(&p), 0);

	t = task(&p, 5);
	check_sum(&t->sum[PROFILE_RUN], 100 + 0, 2, 100);
	check_sum(&t->sum[PROFILE_SLEEP], 300, 1, 300);
	check_sum(&t->sum[PROFILE_PREEMPT], 100, 1, 100);
	profile_release(&p);
}

/* A task first seen switched in was off CPU since the file's start for an unknown reason. */
static void test_clipped(void **state)
{
	struct profile p = { 0 };
	const struct profile_task *t;

	(void)state;
	profile_note_ts(&p, 1000);
	assert_int_equal(profile_switch(&p, 0, 1300, 0, "swapper/1", 0, 7, "late"), 0);
	profile_note_ts(&p, 2000);
	assert_int_equal(profile_finish(&p), 0);
	t = task(&p, 7);
	check_sum(&t->sum[PROFILE_OTHER], 300, 1, 300);
	check_sum(&t->sum[PROFILE_RUN], 700, 1, 700);
	profile_release(&p);
}

/*
 * --by-comm: two "w" tasks and one "v" on one CPU, ending at 100.
 *   10 w: runs 0-10, sleeps (stack X) 10-30, waits 30-40, runs 40-60, blocks (stack Y) to 100
 *   11 w: off CPU since the start 0-10, runs 10-25, sleeps (X) 25-50, waits 50-60, runs to 100
 *   12 v: off CPU 0-25, runs 25-40, preempted 40-100
 * "w [2]" adds 10 and 11 up (X seen by both: one stack); --pid 10,12 keeps 10 alone in it.
 */
static void by_comm_sequence(struct profile *p)
{
	const uint64_t x[] = { 0xffffffff81000010ULL, 0xffffffff81000200ULL },
		       y[] = { 0xffffffff81000010ULL, 0xffffffff81000300ULL };

	profile_note_ts(p, 0);
	assert_int_equal(profile_switch(p, 0, 0, 0, "swapper/0", 0, 10, "w"), 0);
	assert_int_equal(profile_switch(p, 0, 10, 10, "w", S, 11, "w"), 0);
	assert_int_equal(profile_stack(p, 10, x, 2), 0);
	assert_int_equal(profile_switch(p, 0, 25, 11, "w", S, 12, "v"), 0);
	assert_int_equal(profile_stack(p, 11, x, 2), 0);
	assert_int_equal(profile_wakeup(p, 30, 10, "w", false), 0);
	assert_int_equal(profile_switch(p, 0, 40, 12, "v", R_PLUS, 10, "w"), 0);
	assert_int_equal(profile_wakeup(p, 50, 11, "w", false), 0);
	assert_int_equal(profile_switch(p, 0, 60, 10, "w", D, 11, "w"), 0);
	assert_int_equal(profile_stack(p, 10, y, 2), 0);
	profile_note_ts(p, 100);
	assert_int_equal(profile_finish(p), 0);
}

static void test_by_comm(void **state)
{
	struct report_opts o = { .format = REPORT_FORMAT_TEXT, .by_comm = true };
	struct profile p = { 0 };
	const struct profile_task *w, *v;

	(void)state;
	by_comm_sequence(&p);
	assert_int_equal(profile_by_comm(&p, &o), 0);
	assert_true(p.by_comm);
	assert_int_equal(p.nr_tasks, 2);
	w = p.tasks[0];		/* busiest first */
	v = p.tasks[1];
	assert_string_equal(w->comm, "w");
	assert_int_equal(w->nr_merged, 2);
	assert_int_equal(w->pid, 10);
	check_sum(&w->sum[PROFILE_RUN], 10 + 20 + 15 + 40, 4, 40);
	check_sum(&w->sum[PROFILE_SLEEP], 20 + 25, 2, 25);
	check_sum(&w->sum[PROFILE_WAIT], 10 + 10, 2, 10);
	check_sum(&w->sum[PROFILE_BLOCK], 40, 1, 40);
	/* 10's is 0 long: switched in at the file's start */
	check_sum(&w->sum[PROFILE_OTHER], 0 + 10, 2, 10);
	assert_int_equal(w->nr_stacks, 2);
	check_sum(&w->stacks[0].sum, 20 + 25, 2, 25);	/* X, from both tasks */
	check_sum(&w->stacks[1].sum, 40, 1, 40);		/* Y */
	assert_string_equal(v->comm, "v");
	assert_int_equal(v->nr_merged, 1);
	check_sum(&v->sum[PROFILE_RUN], 15, 1, 15);
	check_sum(&v->sum[PROFILE_PREEMPT], 60, 1, 60);
	check_sum(&v->sum[PROFILE_OTHER], 25, 1, 25);
	profile_release(&p);

	/* --pid chooses tasks before they are merged */
	memset(&p, 0, sizeof(p));
	o.pids = (char *[]){ "10", "12", NULL };
	by_comm_sequence(&p);
	assert_int_equal(profile_by_comm(&p, &o), 0);
	assert_int_equal(p.nr_tasks, 2);
	w = p.tasks[0];
	assert_int_equal(w->nr_merged, 1);
	check_sum(&w->sum[PROFILE_RUN], 10 + 20, 2, 20);
	check_sum(&w->stacks[0].sum, 40, 1, 40);		/* Y, then X of task 10 only */
	check_sum(&w->stacks[1].sum, 20, 1, 20);
	profile_release(&p);
}

/*
 * sched.dat, `trace-cmd report -t`: sleep-121 is forked at 5.870308354, switched in at
 * 5.870764695, sleeps (S) at 5.874354689, is woken at 6.874812617, switched in at
 * 6.875188092 and exits (X) at 6.878970797.
 */
static void test_corpus(void **state)
{
	char path[4096];
	struct dat_file *df = NULL;
	struct strbuf err = STRBUF_INIT;
	struct report_opts o = { .format = REPORT_FORMAT_JSON };
	FILE *out;
	char *text = NULL;
	size_t len = 0;

	(void)state;
	snprintf(path, sizeof(path), "%s/sched.dat", corpus);
	o.input = path;
	o.pids = (char *[]){ "121", NULL };
	assert_int_equal(dat_file_open(path, &df, &err), 0);
	out = open_memstream(&text, &len);
	assert_non_null(out);
	assert_int_equal(report_profile_print(df, &o, out, &err), 0);
	fclose(out);
	assert_non_null(strstr(text, "{\"pid\":121,\"comm\":\"sleep\","
			       "\"running\":{\"total\":7372699,\"count\":2,\"max\":3782705},"
			       "\"sleep\":{\"total\":1000457928,\"count\":1,\"max\":1000457928},"
			       "\"blocked\":{\"total\":0,\"count\":0,\"max\":0},"
			       "\"preempted\":{\"total\":0,\"count\":0,\"max\":0},"
			       "\"wakeup_wait\":{\"total\":831816,\"count\":2,\"max\":456341},"
			       "\"other\":{\"total\":0,\"count\":0,\"max\":0},\"stacks\":[]}"));
	/* only the task asked for */
	assert_null(strstr(text, "\"pid\":120,"));
	free(text);
	dat_file_close(df);
	strbuf_release(&err);
}

/* A file without sched_switch records, and filters that would skew the figures: one message. */
static void test_refused(void **state)
{
	char path[4096];
	struct dat_file *df = NULL;
	struct strbuf err = STRBUF_INIT;
	struct report_opts o = { .format = REPORT_FORMAT_TEXT };
	struct report_filter_arg filter = { .expr = "sched_switch" };

	(void)state;
	snprintf(path, sizeof(path), "%s/function_vfs.dat", corpus);
	o.input = path;
	assert_int_equal(dat_file_open(path, &df, &err), 0);
	assert_int_equal(report_profile_print(df, &o, stdout, &err), -EINVAL);
	assert_non_null(strstr(strbuf_str(&err), "no sched_switch event"));
	dat_file_close(df);
	strbuf_reset(&err);

	snprintf(path, sizeof(path), "%s/sched.dat", corpus);
	assert_int_equal(dat_file_open(path, &df, &err), 0);
	o.filters = &filter;
	o.nr_filters = 1;
	assert_int_equal(report_profile_print(df, &o, stdout, &err), -EINVAL);
	assert_non_null(strstr(strbuf_str(&err), "-F"));
	dat_file_close(df);
	strbuf_release(&err);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_states),
		cmocka_unit_test(test_stacks),
		cmocka_unit_test(test_idle_switch_lost),
		cmocka_unit_test(test_hidden_task_switch_lost),
		cmocka_unit_test(test_sleeper_switch_lost),
		cmocka_unit_test(test_clipped),
		cmocka_unit_test(test_by_comm),
		cmocka_unit_test(test_corpus),
		cmocka_unit_test(test_refused),
	};

	if (argc < 2) {
		fprintf(stderr, "usage: %s CORPUS_DIR\n", argv[0]);
		return 1;
	}
	corpus = argv[1];
	return cmocka_run_group_tests(tests, NULL, NULL);
}
