// SPDX-License-Identifier: GPL-2.0-only
/*
 * hist wakeup's pairing of a wakeup with the switch-in that follows it, on crafted sequences in
 * the order report's merge gives them (by timestamp, CPUs interleaved): a wakeup on one CPU and
 * its switch-in on another, skewed clocks, a switch-in the kernel did not record, a wakeup of a
 * task that was still running.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <event-parse.h>

#include "hist.h"
#include "../sched_formats.h"

enum { SWITCH_ID = 319, WAKING_ID = 320, WAKEUP_ID = 321 };

static const char switch_fmt[] = SCHED_SWITCH_FMT;
static const char waking_fmt[] = SCHED_WAKE_FMT("sched_waking", "320");
static const char wakeup_fmt[] = SCHED_WAKE_FMT("sched_wakeup", "321");

/* One event: WAKING/WAKEUP of `pid`, or SWITCH from `pid` to `next`. */
struct ev {
	int type;
	uint64_t ts;
	int cpu;
	int pid;
	int next;
};

#define TASK 10		/* the task whose wakeups are measured, "sleep" */
#define OTHER 1

static struct tep_handle *new_tep(void)
{
	struct tep_handle *tep = tep_alloc();

	assert_non_null(tep);
	tep_set_long_size(tep, 8);
	tep_set_file_bigendian(tep, TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, TEP_LITTLE_ENDIAN);
	assert_int_equal(tep_parse_event(tep, switch_fmt, strlen(switch_fmt), "sched"), 0);
	assert_int_equal(tep_parse_event(tep, waking_fmt, strlen(waking_fmt), "sched"), 0);
	assert_int_equal(tep_parse_event(tep, wakeup_fmt, strlen(wakeup_fmt), "sched"), 0);
	return tep;
}

static void put32(uint8_t *d, size_t off, int v)
{
	memcpy(d + off, &v, sizeof(v));
}

static void comm(uint8_t *d, size_t off, int pid)
{
	strcpy((char *)d + off, pid == TASK ? "sleep" : "other");
}

static void feed(struct hist_source *src, const struct ev *e)
{
	uint8_t data[64] = { 0 };
	struct tep_record rec = { .ts = e->ts, .cpu = e->cpu, .data = data, .size = sizeof(data) };
	uint16_t type = (uint16_t)e->type;

	memcpy(data, &type, sizeof(type));
	put32(data, 4, e->type == SWITCH_ID ? e->pid : OTHER);
	comm(data, 8, e->pid);
	put32(data, 24, e->pid);
	if (e->type == SWITCH_ID) {
		comm(data, 40, e->next);
		put32(data, 56, e->next);
	}
	assert_int_equal(src->event(src, &rec), 0);
}

/* Runs the events through hist wakeup; the values of `group` must be `want` (sorted). */
static void check(const struct ev *evs, size_t n, bool by_task, const char *group,
		  const uint64_t *want, size_t nr_want)
{
	struct tep_handle *tep = new_tep();
	struct hist_source_conf conf = { .tep = tep, .by_task = by_task };
	struct hist_source *src;
	struct strbuf err = STRBUF_INIT;
	size_t i;

	assert_int_equal(hist_wakeup_new(&conf, &src, &err), 0);
	for (i = 0; i < n; i++)
		feed(src, &evs[i]);
	hist_set_finish(&src->set);
	if (!nr_want) {
		assert_int_equal(src->set.nr_groups, 0);
	} else {
		assert_int_equal(src->set.nr_groups, 1);
		assert_string_equal(src->set.groups[0]->name, group);
		assert_int_equal(src->set.groups[0]->nr, nr_want);
		for (i = 0; i < nr_want; i++)
			assert_int_equal(src->set.groups[0]->values[i], want[i]);
	}
	src->free(src);
	strbuf_release(&err);
	tep_free(tep);
}

/* Woken from CPU 0, run on CPU 1: the latency spans the two CPUs' streams. */
static void test_across_cpus(void **state)
{
	static const struct ev evs[] = {
		{ SWITCH_ID, 900, 1, TASK, OTHER },	/* goes to sleep */
		{ WAKING_ID, 1000, 0, TASK, 0 },
		{ SWITCH_ID, 1500, 1, OTHER, TASK },
	};
	static const uint64_t want[] = { 500 };

	(void)state;
	check(evs, 3, true, "sleep-10", want, 1);
}

/* sched_waking on the waker's CPU, sched_wakeup later on the target's: one wakeup, from the first. */
static void test_waking_then_wakeup(void **state)
{
	static const struct ev evs[] = {
		{ WAKING_ID, 1000, 0, TASK, 0 },
		{ WAKEUP_ID, 1004, 1, TASK, 0 },
		{ SWITCH_ID, 1010, 1, OTHER, TASK },
	};
	static const uint64_t want[] = { 10 };

	(void)state;
	check(evs, 3, false, "all", want, 1);
}

/*
 * CPU clocks a little apart: the switch-in sorts before the wakeup that caused it. That pair is
 * lost, and the wakeup is not kept for a later switch-in once the task has run and left a CPU
 * (here preempted, then back without a wakeup).
 */
static void test_skewed_clocks(void **state)
{
	static const struct ev evs[] = {
		{ SWITCH_ID, 999, 1, OTHER, TASK },
		{ WAKING_ID, 1000, 0, TASK, 0 },
		{ SWITCH_ID, 2000, 1, TASK, OTHER },
		{ SWITCH_ID, 3000, 1, OTHER, TASK },
	};

	(void)state;
	check(evs, 4, false, "all", NULL, 0);
}

/*
 * The kernel gap seen in tests/kernel/hist: the task woken on an idle CPU runs, but the trace
 * has no sched_switch putting it there (none of that CPU's switches out of idle was recorded).
 * Nothing can be measured for that wakeup, and it must not pair with the next switch-in.
 */
static void test_missing_switch_in(void **state)
{
	static const struct ev evs[] = {
		{ WAKING_ID, 1000, 1, TASK, 0 },
		{ SWITCH_ID, 2000, 1, TASK, OTHER },	/* it ran: it leaves the CPU */
		{ WAKING_ID, 3000, 0, TASK, 0 },
		{ SWITCH_ID, 3100, 1, OTHER, TASK },
	};
	static const uint64_t want[] = { 100 };

	(void)state;
	check(evs, 4, false, "all", want, 1);
}

/* A wakeup of a task still on its CPU (its switch-out comes after, runnable): no latency. */
static void test_woken_while_running(void **state)
{
	static const struct ev evs[] = {
		{ WAKING_ID, 1000, 0, TASK, 0 },
		{ SWITCH_ID, 1100, 1, TASK, OTHER },
		{ SWITCH_ID, 1500, 1, OTHER, TASK },
	};

	(void)state;
	check(evs, 3, false, "all", NULL, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_across_cpus),
		cmocka_unit_test(test_waking_then_wakeup),
		cmocka_unit_test(test_skewed_clocks),
		cmocka_unit_test(test_missing_switch_in),
		cmocka_unit_test(test_woken_while_running),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
