// SPDX-License-Identifier: GPL-2.0-only
/*
 * report_sched prints sched_switch/sched_wakeup without the plugin for speed: it must give the
 * plugin's exact text. Each record here goes through the real plugin_sched_switch handler and
 * through report_sched, and the two texts are compared.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <event-parse.h>
#include <trace-seq.h>

#include "ktrace/report.h"
#include "../sched_formats.h"
#include "report_print.h"

static const char switch_fmt[] = SCHED_SWITCH_FMT;
static const char wakeup_fmt[] = SCHED_WAKE_FMT("sched_wakeup", "321");

struct fixture {
	struct tep_handle *tep;
	struct tep_plugin_list *plugins;
	struct report_sched *rs;
	struct tep_event *sw, *wk;
	uint8_t data[64];
	struct tep_record rec;
	struct trace_seq s;
	struct strbuf sb;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	f->tep = tep_alloc();
	tep_set_long_size(f->tep, 8);
	tep_set_file_bigendian(f->tep, TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(f->tep, TEP_LITTLE_ENDIAN);
	f->plugins = tep_load_plugins(f->tep);
	assert_int_equal(tep_parse_event(f->tep, switch_fmt, strlen(switch_fmt), "sched"), 0);
	assert_int_equal(tep_parse_event(f->tep, wakeup_fmt, strlen(wakeup_fmt), "sched"), 0);
	f->sw = tep_find_event_by_name(f->tep, "sched", "sched_switch");
	f->wk = tep_find_event_by_name(f->tep, "sched", "sched_wakeup");
	/* the comparison needs the real plugin: libtraceevent1-plugin must be installed */
	assert_non_null(f->sw->handler);
	assert_non_null(f->wk->handler);
	assert_int_equal(report_sched_new(f->tep, &f->rs), 0);
	trace_seq_init(&f->s);
	f->rec.data = f->data;
	f->rec.size = sizeof(f->data);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	report_sched_free(f->rs);
	trace_seq_destroy(&f->s);
	strbuf_release(&f->sb);
	tep_unload_plugins(f->plugins, f->tep);
	tep_free(f->tep);
	free(f);
	return 0;
}

static void put(uint8_t *p, uint64_t v, int size)
{
	memcpy(p, &v, size);
}

static void make_switch(struct fixture *f, const char *prev, int prev_pid, int prev_prio,
			long state, const char *next, int next_pid, int next_prio)
{
	memset(f->data, 0, sizeof(f->data));
	put(f->data, 319, 2);
	memcpy(f->data + 8, prev, strnlen(prev, 16));
	put(f->data + 24, (uint32_t)prev_pid, 4);
	put(f->data + 28, (uint32_t)prev_prio, 4);
	put(f->data + 32, (uint64_t)state, 8);
	memcpy(f->data + 40, next, strnlen(next, 16));
	put(f->data + 56, (uint32_t)next_pid, 4);
	put(f->data + 60, (uint32_t)next_prio, 4);
}

static void make_wakeup(struct fixture *f, const char *comm, int pid, int prio, int cpu)
{
	memset(f->data, 0, sizeof(f->data));
	put(f->data, 321, 2);
	memcpy(f->data + 8, comm, strnlen(comm, 16));
	put(f->data + 24, (uint32_t)pid, 4);
	put(f->data + 28, (uint32_t)prio, 4);
	put(f->data + 32, (uint32_t)cpu, 4);
}

/* The record through the plugin and through report_sched: same text. */
static void same_text(struct fixture *f, struct tep_event *event)
{
	trace_seq_reset(&f->s);
	assert_int_equal(event->handler(&f->s, &f->rec, event, event->context), 0);
	trace_seq_terminate(&f->s);
	strbuf_reset(&f->sb);
	assert_true(report_sched_print(f->rs, &f->sb, &f->rec, event->id));
	assert_string_equal(strbuf_str(&f->sb), f->s.buffer);
}

static void test_switch_states(void **state)
{
	static const long states[] = { 0, 1, 2, 4, 8, 0x10, 0x20, 0x40, 0x80, 0x81, 0x3, 0xff,
				       0x100, 0x101, 0x7fffffff, -1 };
	struct fixture *f = *state;
	size_t i;

	for (i = 0; i < sizeof(states) / sizeof(states[0]); i++) {
		make_switch(f, "bash", 120, 120, states[i], "swapper/1", 0, 120);
		same_text(f, f->sw);
	}
}

static void test_switch_odd_values(void **state)
{
	struct fixture *f = *state;

	make_switch(f, "0123456789abcdef", 4194304, -1, 1, "", 1, 0);
	same_text(f, f->sw);
	make_switch(f, "rcu_preempt", 15, 99, 0x80, "kworker/u4:1", 25, 139);
	same_text(f, f->sw);
	make_switch(f, "x", -5, 2147483647, 2, "y", 2147483647, -2147483647);
	same_text(f, f->sw);
}

static void test_wakeup(void **state)
{
	static const int cpus[] = { 0, 1, 7, 99, 100, 123, 1234, -1 };
	struct fixture *f = *state;
	size_t i;

	for (i = 0; i < sizeof(cpus) / sizeof(cpus[0]); i++) {
		make_wakeup(f, "ksoftirqd/1", 21, 120, cpus[i]);
		same_text(f, f->wk);
	}
	make_wakeup(f, "0123456789abcdef", -3, -1, 0);
	same_text(f, f->wk);
}

static void test_comm_is_registered(void **state)
{
	struct fixture *f = *state;

	make_wakeup(f, "worker", 777, 120, 1);
	strbuf_reset(&f->sb);
	assert_true(report_sched_print(f->rs, &f->sb, &f->rec, f->wk->id));
	assert_string_equal(tep_data_comm_from_pid(f->tep, 777), "worker");
	/* other events are left to the caller */
	f->data[0] = 1;
	f->data[1] = 0;
	assert_false(report_sched_print(f->rs, &f->sb, &f->rec, 1));
}

static const char *switch_text(struct fixture *f, long state)
{
	make_switch(f, "a", 1, 120, state, "b", 2, 120);
	strbuf_reset(&f->sb);
	assert_true(report_sched_print(f->rs, &f->sb, &f->rec, f->sw->id));
	return strstr(strbuf_str(&f->sb), "] ") + 2;
}

/* --layout 3.4: libtraceevent 1.8's letters, without a __print_flags() its defaults */
static void test_kernel_states_default(void **state)
{
	struct fixture *f = *state;

	report_sched_use_kernel_states(f->rs);
	assert_string_equal(switch_text(f, 0x80), "I ==> b:2 [120]");
	assert_string_equal(switch_text(f, 0x10), "X ==> b:2 [120]");
	assert_string_equal(switch_text(f, 0x21), "S|Z ==> b:2 [120]");
	assert_string_equal(switch_text(f, 0), "R ==> b:2 [120]");
}

/* ... and with one, its table: a letter at each flag's lowest bit, up to the first gap */
static void test_kernel_states_table(void **state)
{
	static const char fmt[] = SCHED_SWITCH_FMT_PRINT(
		"\"prev_state=%s\", (REC->prev_state & 15) ? __print_flags(REC->prev_state & 15, "
		"\"|\", { 0x01, \"A\" }, { 0x02, \"B\" }, { 0x08, \"Q\" }) : \"R\"");
	struct fixture *f = *state;
	struct tep_handle *tep = tep_alloc();
	struct report_sched *rs;

	assert_int_equal(tep_parse_event(tep, fmt, strlen(fmt), "sched"), 0);
	assert_int_equal(report_sched_new(tep, &rs), 0);
	report_sched_use_kernel_states(rs);
	report_sched_free(f->rs);
	f->rs = rs;
	assert_string_equal(switch_text(f, 0x3), "A|B ==> b:2 [120]");
	/* 0x04 has no letter: the table ends there, as in the plugin */
	assert_string_equal(switch_text(f, 0x8), "R ==> b:2 [120]");
	report_sched_free(f->rs);
	f->rs = NULL;
	tep_free(tep);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_switch_states, setup, teardown),
		cmocka_unit_test_setup_teardown(test_switch_odd_values, setup, teardown),
		cmocka_unit_test_setup_teardown(test_wakeup, setup, teardown),
		cmocka_unit_test_setup_teardown(test_comm_is_registered, setup, teardown),
		cmocka_unit_test_setup_teardown(test_kernel_states_default, setup, teardown),
		cmocka_unit_test_setup_teardown(test_kernel_states_table, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
