// SPDX-License-Identifier: GPL-2.0-only
/*
 * The derived tables that are views over the format tables, so that they stream as those do.
 * Each exists for every file: a file without the events it is made of gives it no rows, so
 * that the schema does not depend on what was recorded. Events of one task (or one CPU) are
 * ordered by (ts, rowid): a format table's rowid is the record's place in the file's order, the
 * same in every table of one query, which keeps two records of one timestamp in file order.
 *
 *   sched_slice   sql_slice.c's (one walk, not a view)
 *   thread_state  per task, from each change to the next: running (switched in), what
 *                 task_state() says of prev_state when switched out, runnable when woken
 *                 or forked (with the waker, or the parent); a wakeup of a task that is
 *                 running or runnable is no change (as report --profile counts)
 *   wakeup        the first wakeup of a task since it last left a CPU, and the switch-in that
 *                 ends it: latency = switch_ts - ts (as `ktrace hist wakeup` counts)
 *   sql_derived_sys.c: syscall, irq, softirq, thread, process
 */
#include <errno.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "ktrace/strv.h"
#include "sql_derived.h"

char *sql_prefixed(const struct sql_trace *t, const char *name)
{
	return sqlite3_mprintf("%s%s", t->prefix ? t->prefix : "", name);
}

const char *sql_format_table(const struct sql_trace *t, const char *system, const char *name)
{
	struct tep_event *e = tep_find_event_by_name(t->tep, system, name);
	int i;

	for (i = 0; e && i < t->nr_formats; i++)
		if (t->formats[i].event_id == e->id)
			return t->formats[i].table;
	return NULL;
}

int sql_walk_table_create(sqlite3 *db, struct sql_trace *t, const char *table,
			  const sqlite3_module *module, struct strbuf *err)
{
	char *name = sql_prefixed(t, table);
	int ret;

	if (!name)
		return -ENOMEM;
	if (sqlite3_create_module(db, name, module, t) != SQLITE_OK) {
		strbuf_addf(err, "table %s: %s", name, sqlite3_errmsg(db));
		sqlite3_free(name);
		return -ENOMEM;
	}
	ret = strv_push(&t->tables, name);
	sqlite3_free(name);
	return ret;
}

int sql_view_create(sqlite3 *db, struct sql_trace *t, const struct sql_view *v,
		    const char *body, struct strbuf *err)
{
	struct strbuf sql = STRBUF_INIT;
	char *msg = NULL, *name = sql_prefixed(t, v->name);
	int ret = 0;

	if (!name)
		return -ENOMEM;
	strbuf_addf(&sql, "CREATE TEMP VIEW \"%s\"(%s) AS ", name, v->columns);
	if (body) {
		strbuf_addstr(&sql, body);
	} else {
		/* no source: no rows, the same columns */
		const char *c;

		strbuf_addstr(&sql, "SELECT NULL");
		for (c = v->columns; *c; c++)
			if (*c == ',')
				strbuf_addstr(&sql, ", NULL");
		strbuf_addstr(&sql, " WHERE 0");
	}
	if (sqlite3_exec(db, strbuf_str(&sql), NULL, NULL, &msg) != SQLITE_OK) {
		strbuf_addf(err, "%s: %s", name, msg ? msg : sqlite3_errmsg(db));
		ret = -EINVAL;
	}
	if (!ret)
		ret = strv_push(&t->tables, name);
	sqlite3_free(msg);
	sqlite3_free(name);
	strbuf_release(&sql);
	return ret;
}

static const struct sql_view thread_state = {
	"thread_state", "ts, dur, pid, comm, state, cpu, waker_pid, waker_comm" };
static const struct sql_view wakeup = {
	"wakeup", "ts, pid, comm, waker_pid, waker_comm, target_cpu, switch_ts, cpu, latency" };

/* The wakeup events of the file: " UNION ALL SELECT ..." of each, with `what` as the row. */
static void add_wakes(const struct sql_trace *t, struct strbuf *sb, const char *what)
{
	static const char *const names[] = { "sched_waking", "sched_wakeup", "sched_wakeup_new" };
	unsigned int i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const char *table = sql_format_table(t, "sched", names[i]);

		if (table)
			strbuf_addf(sb, " UNION ALL SELECT %s FROM \"%s\"", what, table);
	}
}

static int sched_views(sqlite3 *db, struct sql_trace *t, struct strbuf *err)
{
	const char *sw = sql_format_table(t, "sched", "sched_switch");
	const char *fork = sql_format_table(t, "sched", "sched_process_fork");
	struct strbuf sb = STRBUF_INIT;
	int ret;

	/* sql_slice.c's table, where the view would be in the list */
	ret = sql_walk_table_create(db, t, "sched_slice", &sql_slice_module, err);
	if (!ret && sw) {
		strbuf_addf(&sb, "WITH ev AS (SELECT ts, rowid AS seq, cpu, next_pid AS pid, "
			    "next_comm AS comm, 'running' AS state, 0 AS woken, NULL AS waker_pid, "
			    "NULL AS waker_comm FROM \"%s\" WHERE next_pid <> 0 "
			    "UNION ALL SELECT ts, rowid, cpu, prev_pid, prev_comm, "
			    "task_state(prev_state), 0, NULL, NULL FROM \"%s\" WHERE prev_pid <> 0",
			    sw, sw);
		add_wakes(t, &sb, "ts, rowid, target_cpu, pid, comm, 'runnable', 1, common_pid, "
			  "common_comm");
		/* a new task is runnable from its fork: its wakeup_new may not be in the file */
		if (fork)
			strbuf_addf(&sb, " UNION ALL SELECT ts, rowid, cpu, child_pid, child_comm, "
				    "'runnable', 1, parent_pid, parent_comm FROM \"%s\"", fork);
		strbuf_addstr(&sb, "), k AS (SELECT *, lag(state) OVER (PARTITION BY pid "
			      "ORDER BY ts, seq) AS before FROM ev) "
			      "SELECT ts, lead(ts) OVER w - ts, pid, comm, state, cpu, waker_pid, "
			      "waker_comm FROM k WHERE NOT woken OR before IS NULL OR before NOT IN "
			      "('running', 'runnable') WINDOW w AS (PARTITION BY pid ORDER BY ts, seq) "
			      "ORDER BY ts, pid");
	}
	if (!ret)
		ret = sql_view_create(db, t, &thread_state, sw ? strbuf_str(&sb) : NULL, err);

	strbuf_reset(&sb);
	if (sw) {
		/* 'w' a wakeup, 'o' switched out, 'i' switched in; only a first wakeup counts */
		strbuf_addf(&sb, "WITH ev AS (SELECT ts, rowid AS seq, prev_pid AS pid, "
			    "prev_comm AS comm, NULL AS waker_pid, NULL AS waker_comm, "
			    "cpu, 'o' AS kind FROM \"%s\" UNION ALL SELECT ts, rowid, next_pid, "
			    "next_comm, NULL, NULL, cpu, 'i' FROM \"%s\"", sw, sw);
		add_wakes(t, &sb, "ts, rowid, pid, comm, common_pid, common_comm, target_cpu, 'w'");
		strbuf_addstr(&sb, "), f AS (SELECT *, lag(kind) OVER (PARTITION BY pid "
			      "ORDER BY ts, seq) AS before FROM ev), "
			      "g AS (SELECT *, lead(kind) OVER p AS next_kind, lead(ts) OVER p AS "
			      "next_ts, lead(cpu) OVER p AS next_cpu FROM f WHERE kind <> 'w' OR "
			      "before IS NULL OR before <> 'w' "
			      "WINDOW p AS (PARTITION BY pid ORDER BY ts, seq)) "
			      "SELECT ts, pid, comm, waker_pid, waker_comm, cpu, next_ts, next_cpu, "
			      "next_ts - ts FROM g WHERE kind = 'w' AND next_kind = 'i' "
			      "ORDER BY ts, pid");
	}
	if (!ret)
		ret = sql_view_create(db, t, &wakeup, sw ? strbuf_str(&sb) : NULL, err);
	strbuf_release(&sb);
	return ret;
}

int sql_derived_create(sqlite3 *db, struct sql_trace *t, struct strbuf *err)
{
	int ret = sql_functions_create(db, t, err);

	if (!ret)
		ret = sched_views(db, t, err);
	if (!ret)
		ret = sql_sys_views_create(db, t, err);
	if (!ret)
		ret = sql_meta_create(db, t, err);
	return ret;
}
