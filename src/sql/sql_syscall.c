// SPDX-License-Identifier: GPL-2.0-only
/*
 * syscall: one row per syscall entry (raw_syscalls:sys_enter and syscalls:sys_enter_NAME; a
 * syscall both record is there twice, as `ktrace hist syscall` counts it), with dur and ret
 * from the exit of the same number that is the task's next entry or exit, NULL without one
 * (exit_group, a successful execve, the trace's end). One walk of the file with one pending
 * entry per task, rather than a view: a view's window over four scans sorted the whole file.
 * Rows come as their entries end: at the exit, at the task's next entry, or at the end.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "ktrace/pid_table.h"
#include "ktrace/syscall_name.h"
#include "sql.h"

static const char schema[] =
	"CREATE TABLE x(ts INTEGER, dur INTEGER, cpu INTEGER, pid INTEGER, comm TEXT, "
	"nr INTEGER, name TEXT, ret INTEGER)";

enum { COL_TS, COL_DUR, COL_CPU, COL_PID, COL_COMM, COL_NR, COL_NAME, COL_RET };

/* What an event id is to this table. */
struct syscall_event {
	char kind;			/* 'e' entry, 'x' exit, 0 neither */
	const char *name;		/* syscalls:*: the name after sys_enter_ / sys_exit_ */
	struct tep_format_field *nr, *ret;
};

struct syscall_table {
	sqlite3_vtab base;
	struct sql_trace *trace;
	struct syscall_event *events;	/* by event id */
	int nr_events;
};

struct syscall_row {
	int64_t ts, dur, nr, ret;
	bool paired;
	int cpu, pid;
	const char *ename;
};

struct syscall_task {
	struct pid_slot slot;
	bool pending;
	struct syscall_row entry;
};

struct syscall_cursor {
	struct sql_walk w;
	struct pid_table tasks;
	size_t flushed;		/* at the end: the next slot of tasks to give */
	bool at_end;
	struct syscall_row row;
};

static int64_t field_num(struct tep_format_field *f, struct tep_record *r)
{
	unsigned long long v = 0;

	if (f && f->offset + f->size <= r->size)
		tep_read_number_field(f, r->data, &v);
	/* ret is a long: sign-extend what is narrower */
	if (f && f->size == 4 && (f->flags & TEP_FIELD_IS_SIGNED))
		return (int32_t)v;
	return (int64_t)v;
}

/* 1 with c->row set to a finished entry, 0 when the record ends none */
static int syscall_record(struct syscall_cursor *c, struct syscall_table *t,
			  struct tep_record *r)
{
	struct tep_handle *tep = t->trace->tep;
	int type = tep_data_type(tep, r);
	const struct syscall_event *e;
	struct syscall_task *task;
	int64_t nr;
	int out = 0;

	if (type < 0 || type >= t->nr_events || !t->events[type].kind)
		return 0;
	e = &t->events[type];
	task = pid_table_get(&c->tasks, tep_data_pid(tep, r));
	if (!task)
		return -ENOMEM;
	nr = field_num(e->nr, r);
	if (task->pending) {
		c->row = task->entry;
		task->pending = false;
		out = 1;
		if (e->kind == 'x' && c->row.nr == nr) {
			c->row.paired = true;
			c->row.dur = (int64_t)r->ts - c->row.ts;
			c->row.ret = field_num(e->ret, r);
		}
	}
	if (e->kind == 'e') {
		task->pending = true;
		task->entry = (struct syscall_row){ .ts = (int64_t)r->ts, .nr = nr, .cpu = r->cpu,
						    .pid = task->slot.pid, .ename = e->name };
	}
	return out;
}

static int cursor_next(sqlite3_vtab_cursor *cur)
{
	struct syscall_cursor *c = (struct syscall_cursor *)cur;
	struct syscall_table *t = (struct syscall_table *)cur->pVtab;
	struct tep_record *r;
	int buffer, ret;

	c->w.rowid++;
	while (!c->at_end) {
		ret = sql_walk_next(&c->w, &r, &buffer);
		if (ret < 0)
			return -ret;
		if (!ret) {
			c->at_end = true;
			break;
		}
		ret = syscall_record(c, t, r);
		if (ret < 0)
			return SQLITE_NOMEM;
		if (ret)
			return SQLITE_OK;
	}
	/* the end: the entries still open, without an exit */
	for (; c->flushed < c->tasks.cap; c->flushed++) {
		struct syscall_task *task = pid_table_slot(&c->tasks, c->flushed);

		if (task && task->pending) {
			task->pending = false;
			c->row = task->entry;
			return SQLITE_OK;
		}
	}
	c->w.eof = true;
	return SQLITE_OK;
}

static int cursor_filter(sqlite3_vtab_cursor *cur, int idx, const char *plan, int argc,
			 sqlite3_value **argv)
{
	struct syscall_cursor *c = (struct syscall_cursor *)cur;
	struct syscall_table *t = (struct syscall_table *)cur->pVtab;
	int ret;

	pid_table_release(&c->tasks);
	pid_table_init(&c->tasks, sizeof(struct syscall_task), 64);
	c->flushed = 0;
	c->at_end = false;
	ret = sql_walk_restart(&c->w, t->trace);
	return ret != SQLITE_OK ? ret : cursor_next(cur);
}

static int cursor_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int col)
{
	struct syscall_cursor *c = (struct syscall_cursor *)cur;
	struct syscall_table *t = (struct syscall_table *)cur->pVtab;
	const struct syscall_row *row = &c->row;
	const char *s;

	switch (col) {
	case COL_TS: sqlite3_result_int64(ctx, row->ts); break;
	case COL_DUR:
		if (row->paired)
			sqlite3_result_int64(ctx, row->dur);
		break;
	case COL_CPU: sqlite3_result_int(ctx, row->cpu); break;
	case COL_PID: sqlite3_result_int(ctx, row->pid); break;
	case COL_COMM:
		s = tep_data_comm_from_pid(t->trace->tep, row->pid);
		if (s)
			sqlite3_result_text(ctx, s, -1, SQLITE_TRANSIENT);
		break;
	case COL_NR: sqlite3_result_int64(ctx, row->nr); break;
	case COL_NAME:
		s = syscall_name((long)row->nr);
		if (s || row->ename)
			sqlite3_result_text(ctx, s ? s : row->ename, -1, SQLITE_STATIC);
		else
			sqlite3_result_int64(ctx, row->nr);
		break;
	case COL_RET:
		if (row->paired)
			sqlite3_result_int64(ctx, row->ret);
		break;
	}
	return SQLITE_OK;
}

static int cursor_open(sqlite3_vtab *vtab, sqlite3_vtab_cursor **out)
{
	int ret = sql_walk_open(sizeof(struct syscall_cursor), out);

	if (ret == SQLITE_OK)
		pid_table_init(&((struct syscall_cursor *)*out)->tasks,
			       sizeof(struct syscall_task), 64);
	return ret;
}

static int cursor_close(sqlite3_vtab_cursor *cur)
{
	struct syscall_cursor *c = (struct syscall_cursor *)cur;

	pid_table_release(&c->tasks);
	sql_walk_close(&c->w);
	return SQLITE_OK;
}

static int table_free(sqlite3_vtab *vtab)
{
	struct syscall_table *t = (struct syscall_table *)vtab;

	free(t->events);
	sqlite3_free(t);
	return SQLITE_OK;
}

/* Which events are entries and exits, and their number and return fields. */
static int find_events(struct syscall_table *t)
{
	struct tep_handle *tep = t->trace->tep;
	struct tep_event **all = tep_list_events(tep, TEP_EVENT_SORT_ID);
	int i, n = tep_get_events_count(tep);

	if (!all)
		return -ENOMEM;
	for (i = 0; i < n && all[i]; i++)
		if (all[i]->id >= t->nr_events)
			t->nr_events = all[i]->id + 1;
	t->events = calloc(t->nr_events ? (size_t)t->nr_events : 1, sizeof(*t->events));
	if (!t->events)
		return -ENOMEM;
	for (i = 0; i < n && all[i]; i++) {
		struct tep_event *e = all[i];
		struct syscall_event *se = &t->events[e->id];
		bool raw = !strcmp(e->system, "raw_syscalls");

		if (raw && (!strcmp(e->name, "sys_enter") || !strcmp(e->name, "sys_exit"))) {
			se->nr = tep_find_field(e, "id");
			se->kind = !strcmp(e->name, "sys_enter") ? 'e' : 'x';
		} else if (!strcmp(e->system, "syscalls") && !strncmp(e->name, "sys_enter_", 10)) {
			se->nr = tep_find_field(e, "__syscall_nr");
			se->kind = 'e';
			se->name = e->name + 10;
		} else if (!strcmp(e->system, "syscalls") && !strncmp(e->name, "sys_exit_", 9)) {
			se->nr = tep_find_field(e, "__syscall_nr");
			se->kind = 'x';
			se->name = e->name + 9;
		}
		if (se->kind == 'x')
			se->ret = tep_find_field(e, "ret");
		if (!se->nr || (se->kind == 'x' && !se->ret))
			se->kind = 0;	/* not a format this table knows */
	}
	return 0;
}

static int syscall_create(sqlite3 *db, void *aux, int argc, const char *const *argv,
			  sqlite3_vtab **out, char **err)
{
	struct syscall_table *t;
	int ret = sql_vtab_new(db, schema, sizeof(*t), out);

	if (ret != SQLITE_OK)
		return ret;
	t = (struct syscall_table *)*out;
	t->trace = aux;
	if (find_events(t)) {
		table_free(&t->base);
		*out = NULL;
		return SQLITE_NOMEM;
	}
	return SQLITE_OK;
}

const sqlite3_module sql_syscall_module = {
	.xCreate = syscall_create, .xConnect = syscall_create, .xBestIndex = sql_walk_best_index,
	.xDisconnect = table_free, .xDestroy = table_free, .xOpen = cursor_open,
	.xClose = cursor_close, .xFilter = cursor_filter, .xNext = cursor_next,
	.xEof = sql_walk_eof, .xColumn = cursor_column, .xRowid = sql_walk_rowid,
};
