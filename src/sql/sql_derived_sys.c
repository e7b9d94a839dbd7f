// SPDX-License-Identifier: GPL-2.0-only
/*
 * The derived tables of entries and exits, and of tasks (sql_derived.c says how they order):
 *
 *   syscall  sql_syscall.c's (one walk, not a view)
 *   irq      one row per irq_handler_entry, dur and ret from the cpu's next irq_handler_exit
 *   softirq  one row per softirq_entry, dur from the cpu's next softirq_exit of that vec
 *   thread   one row per name a task was seen with: first and last ts of it (sched events'
 *            comm fields, fork's child_comm, and every record's task)
 *   process  one row per task forked, exec'd or exited in the trace, with its parent (fork),
 *            the program exec'd and when
 */
#include <errno.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "ktrace/strv.h"
#include "sql_derived.h"

static const struct sql_view irq_view = { "irq", "ts, dur, cpu, irq, name, ret" };
static const struct sql_view softirq_view = { "softirq", "ts, dur, cpu, vec, name" };
static const struct sql_view thread_view = { "thread", "tid, comm, first_ts, last_ts" };
static const struct sql_view process_view = {
	"process", "pid, parent_pid, comm, fork_ts, exec_ts, filename, exit_ts" };

/* The pairing of entries ('e') and exits ('x') in ev, per `by`, equal in `key`. */
static void add_pairs(struct strbuf *sb, const char *by, const char *key, const char *cols)
{
	strbuf_addf(sb, "), p AS (SELECT *, (lead(kind) OVER w = 'x' AND lead(%s) OVER w IS %s) "
		    "AS paired, lead(ts) OVER w AS nts, lead(ret) OVER w AS nret FROM ev "
		    "WINDOW w AS (PARTITION BY %s ORDER BY ts, seq)) "
		    "SELECT %s FROM p WHERE kind = 'e' ORDER BY ts, cpu", key, key, by, cols);
}

#define PAIRED(X) "CASE WHEN paired THEN " X " END"

static int irq_create(sqlite3 *db, struct sql_trace *t, struct strbuf *err)
{
	const char *entry = sql_format_table(t, "irq", "irq_handler_entry");
	const char *exit = sql_format_table(t, "irq", "irq_handler_exit");
	struct strbuf sb = STRBUF_INIT;
	int ret;

	if (entry) {
		strbuf_addf(&sb, "WITH ev(ts, seq, cpu, irq, name, ret, kind) AS (SELECT ts, rowid, "
			    "cpu, irq, name, NULL, 'e' FROM \"%s\"", entry);
		if (exit)
			strbuf_addf(&sb, " UNION ALL SELECT ts, rowid, cpu, irq, NULL, ret, 'x' "
				    "FROM \"%s\"", exit);
		add_pairs(&sb, "cpu", "irq", "ts, " PAIRED("nts - ts") ", cpu, irq, name, "
			  PAIRED("nret"));
	}
	ret = sql_view_create(db, t, &irq_view, entry ? strbuf_str(&sb) : NULL, err);
	strbuf_reset(&sb);
	entry = sql_format_table(t, "irq", "softirq_entry");
	exit = sql_format_table(t, "irq", "softirq_exit");
	if (entry) {
		strbuf_addf(&sb, "WITH ev(ts, seq, cpu, vec, ret, kind) AS (SELECT ts, rowid, cpu, "
			    "vec, NULL, 'e' FROM \"%s\"", entry);
		if (exit)
			strbuf_addf(&sb, " UNION ALL SELECT ts, rowid, cpu, vec, NULL, 'x' "
				    "FROM \"%s\"", exit);
		add_pairs(&sb, "cpu", "vec", "ts, " PAIRED("nts - ts") ", cpu, vec, "
			  "softirq_name(vec)");
	}
	if (!ret)
		ret = sql_view_create(db, t, &softirq_view, entry ? strbuf_str(&sb) : NULL, err);
	strbuf_release(&sb);
	return ret;
}

/* " UNION ALL SELECT ts, PID, COMM FROM table" for each (event, pid, comm) the file has */
static void add_names(const struct sql_trace *t, struct strbuf *sb)
{
	static const char *const seen[][3] = {
		{ "sched_switch", "prev_pid", "prev_comm" },
		{ "sched_switch", "next_pid", "next_comm" },
		{ "sched_waking", "pid", "comm" },
		{ "sched_wakeup", "pid", "comm" },
		{ "sched_wakeup_new", "pid", "comm" },
		{ "sched_process_fork", "child_pid", "child_comm" },
		{ "sched_process_exit", "pid", "comm" },
	};
	unsigned int i;

	for (i = 0; i < sizeof(seen) / sizeof(seen[0]); i++) {
		const char *table = sql_format_table(t, "sched", seen[i][0]);

		if (table)
			strbuf_addf(sb, " UNION ALL SELECT ts, %s, %s FROM \"%s\"", seen[i][1],
				    seen[i][2], table);
	}
}

static int task_create(sqlite3 *db, struct sql_trace *t, struct strbuf *err)
{
	const char *fork = sql_format_table(t, "sched", "sched_process_fork");
	const char *exec = sql_format_table(t, "sched", "sched_process_exec");
	const char *exit = sql_format_table(t, "sched", "sched_process_exit");
	struct strbuf sb = STRBUF_INIT;
	int ret;

	strbuf_addstr(&sb, "WITH seen(ts, tid, comm) AS (SELECT ts, pid, comm FROM events");
	add_names(t, &sb);
	strbuf_addstr(&sb, ") SELECT tid, comm, min(ts), max(ts) FROM seen WHERE tid <> 0 AND "
		      "comm IS NOT NULL GROUP BY tid, comm ORDER BY tid, min(ts)");
	ret = sql_view_create(db, t, &thread_view, strbuf_str(&sb), err);
	strbuf_reset(&sb);
	if (fork || exec || exit) {
		strbuf_addstr(&sb, "WITH ev(ts, pid, parent_pid, comm, filename, kind) AS ("
			      "SELECT NULL, NULL, NULL, NULL, NULL, NULL WHERE 0");
		if (fork)
			strbuf_addf(&sb, " UNION ALL SELECT ts, child_pid, parent_pid, child_comm, "
				    "NULL, 'f' FROM \"%s\"", fork);
		if (exec)
			strbuf_addf(&sb, " UNION ALL SELECT ts, pid, NULL, comm, filename, 'x' "
				    "FROM \"%s\"", exec);
		if (exit)
			strbuf_addf(&sb, " UNION ALL SELECT ts, pid, NULL, comm, NULL, 'e' "
				    "FROM \"%s\"", exit);
		/* the latest exec gives the name and the program; a fork's name the rest */
		strbuf_addstr(&sb, ") SELECT pid, max(parent_pid), coalesce((SELECT comm FROM ev y "
			      "WHERE y.pid = ev.pid AND kind = 'x' ORDER BY ts DESC LIMIT 1), "
			      "(SELECT comm FROM ev y WHERE y.pid = ev.pid ORDER BY ts LIMIT 1)), "
			      "min(CASE kind WHEN 'f' THEN ts END), max(CASE kind WHEN 'x' THEN ts "
			      "END), (SELECT filename FROM ev y WHERE y.pid = ev.pid AND kind = 'x' "
			      "ORDER BY ts DESC LIMIT 1), max(CASE kind WHEN 'e' THEN ts END) "
			      "FROM ev GROUP BY pid ORDER BY pid");
	}
	if (!ret)
		ret = sql_view_create(db, t, &process_view, sb.len ? strbuf_str(&sb) : NULL, err);
	strbuf_release(&sb);
	return ret;
}

int sql_sys_views_create(sqlite3 *db, struct sql_trace *t, struct strbuf *err)
{
	int ret = sql_walk_table_create(db, t, "syscall", &sql_syscall_module, err);

	if (!ret)
		ret = irq_create(db, t, err);
	if (!ret)
		ret = task_create(db, t, err);
	return ret;
}
