// SPDX-License-Identifier: GPL-2.0-only
/*
 * The SQL functions the derived tables use, and users may too:
 *
 *   task_state(prev_state)  what sched_switch's prev_state says the task does next: runnable
 *                           (preempted), sleeping (S, and I: an idle kernel thread), blocked (D),
 *                           stopped (T, t), dead (X, Z), parked (P); the bits as Linux >= 4.14
 *                           reports them (TASK_REPORT: S 0x01 ... I 0x80, preempted 0x100 or 0)
 *   syscall_name(nr)        the x86_64 name of syscall nr (NULL when unknown)
 *   softirq_name(vec)       HI, TIMER, ... RCU as the kernel's softirq_to_name
 *   ksym(addr)              the kernel function at addr, from the file's kallsyms (NULL: none)
 */
#include <errno.h>

#include <traceevent/event-parse.h>

#include "ktrace/dat.h"
#include "ktrace/syscall_name.h"
#include "sql_derived.h"

static void result_static(sqlite3_context *ctx, const char *s)
{
	if (s)
		sqlite3_result_text(ctx, s, -1, SQLITE_STATIC);
	else
		sqlite3_result_null(ctx);
}

static bool int_arg(sqlite3_value *v, sqlite3_int64 *out)
{
	if (sqlite3_value_type(v) == SQLITE_NULL)
		return false;
	*out = sqlite3_value_int64(v);
	return true;
}

static void task_state(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	static const struct { unsigned int bits; const char *name; } states[] = {
		{ 0x01, "sleeping" }, { 0x02, "blocked" }, { 0x0c, "stopped" },
		{ 0x30, "dead" }, { 0x40, "parked" }, { 0x80, "sleeping" },
	};
	sqlite3_int64 v;
	unsigned int i;

	if (!int_arg(argv[0], &v))
		return result_static(ctx, NULL);
	for (i = 0; i < sizeof(states) / sizeof(states[0]); i++)
		if (v & states[i].bits)
			return result_static(ctx, states[i].name);
	result_static(ctx, "runnable");
}

static void syscall_name_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	sqlite3_int64 v;

	result_static(ctx, int_arg(argv[0], &v) ? syscall_name((long)v) : NULL);
}

static void softirq_name(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	static const char *const names[] = {
		"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET", "SCHED",
		"HRTIMER", "RCU",
	};
	sqlite3_int64 v;

	result_static(ctx, int_arg(argv[0], &v) && v >= 0 && v < 10 ? names[v] : NULL);
}

static void ksym(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	struct sql_trace *t = sqlite3_user_data(ctx);
	const char *name;
	sqlite3_int64 v;

	if (!int_arg(argv[0], &v))
		return result_static(ctx, NULL);
	name = tep_find_function(t->tep, (unsigned long long)v);
	if (name)
		sqlite3_result_text(ctx, name, -1, SQLITE_TRANSIENT);
}

int sql_functions_create(sqlite3 *db, struct sql_trace *t, struct strbuf *err)
{
	static const struct {
		const char *name;
		void (*fn)(sqlite3_context *, int, sqlite3_value **);
	} fns[] = {
		{ "task_state", task_state }, { "syscall_name", syscall_name_fn },
		{ "softirq_name", softirq_name }, { "ksym", ksym },
	};
	unsigned int i;

	dat_file_load_kallsyms(t->df);
	for (i = 0; i < sizeof(fns) / sizeof(fns[0]); i++) {
		if (sqlite3_create_function(db, fns[i].name, 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC,
					    t, fns[i].fn, NULL, NULL) != SQLITE_OK) {
			strbuf_addf(err, "function %s: %s", fns[i].name, sqlite3_errmsg(db));
			return -ENOMEM;
		}
	}
	return 0;
}
