// SPDX-License-Identifier: GPL-2.0-only
/*
 * fgraph_call: function_graph's funcgraph_entry and funcgraph_exit paired into calls, one row
 * per exit, in the order the calls end. Each task has a stack of the calls it entered: an exit
 * ends the innermost open call of its function and depth (the ones above it lost their exits,
 * as a dropped page loses them), and that call's caller is the open call below it.
 *
 *   id, parent_id  the entry record's place in the file (NULL parent: the outermost call); a
 *                  call whose entry the file lacks gets its exit's place
 *   ts, cpu        the entry's (without one: the exit's ts - dur and cpu)
 *   dur            rettime - calltime of the exit, as report prints it; the entry-exit gap in
 *                  files whose exit lacks them
 *
 * The walk needs every record of a task from its first call on, so no ts or cpu range is
 * pushed into it: SQLite filters the rows.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "ktrace/grow.h"
#include "ktrace/pid_table.h"
#include "sql.h"

static const char schema[] =
	"CREATE TABLE x(ts INTEGER, cpu INTEGER, id INTEGER, parent_id INTEGER, pid INTEGER, "
	"comm TEXT, func TEXT, addr INTEGER, depth INTEGER, dur INTEGER)";

enum { COL_TS, COL_CPU, COL_ID, COL_PARENT, COL_PID, COL_COMM, COL_FUNC, COL_ADDR, COL_DEPTH,
       COL_DUR };

struct fgraph_table {
	sqlite3_vtab base;
	struct sql_trace *trace;
	int entry_id, exit_id;	/* -1 when the file lacks the format */
	struct tep_format_field *entry_func, *entry_depth;
	struct tep_format_field *exit_func, *exit_depth, *calltime, *rettime;
};

struct fgraph_frame {
	int64_t id, ts;
	uint64_t func;
	int depth, cpu;
};

struct fgraph_task {
	struct pid_slot slot;
	struct fgraph_frame *stack;
	size_t nr, alloc;
};

struct fgraph_call {
	int64_t id, parent_id, ts, dur;	/* parent_id < 0: none */
	uint64_t func;
	int depth, cpu, pid;
};

struct fgraph_cursor {
	struct sql_walk w;	/* w.rowid: row.id */
	struct pid_table tasks;
	int64_t seq;
	struct fgraph_call row;
};

static uint64_t field_u64(struct tep_format_field *f, struct tep_record *r)
{
	unsigned long long v = 0;

	if (f && f->offset + f->size <= r->size)
		tep_read_number_field(f, r->data, &v);
	return v;
}

static int entered(struct fgraph_cursor *c, struct fgraph_table *t, struct tep_record *r,
		   int pid)
{
	struct fgraph_task *task = pid_table_get(&c->tasks, pid);
	struct fgraph_frame *fr;
	int depth = (int)field_u64(t->entry_depth, r);

	if (!task)
		return -ENOMEM;
	/* calls at this depth or deeper lost their exits */
	while (task->nr && task->stack[task->nr - 1].depth >= depth)
		task->nr--;
	if (array_grow(&task->stack, &task->alloc, task->nr + 1, sizeof(*task->stack)))
		return -ENOMEM;
	fr = &task->stack[task->nr++];
	fr->id = c->seq;
	fr->ts = (int64_t)r->ts;
	fr->func = field_u64(t->entry_func, r);
	fr->depth = depth;
	fr->cpu = r->cpu;
	return 0;
}

/* 1 with c->row set */
static int exited(struct fgraph_cursor *c, struct fgraph_table *t, struct tep_record *r,
		  int pid)
{
	struct fgraph_task *task = pid_table_get(&c->tasks, pid);
	struct fgraph_call *row = &c->row;
	size_t k;

	if (!task)
		return -ENOMEM;
	row->func = field_u64(t->exit_func, r);
	row->depth = (int)field_u64(t->exit_depth, r);
	row->pid = pid;
	row->dur = t->calltime && t->rettime ?
		(int64_t)(field_u64(t->rettime, r) - field_u64(t->calltime, r)) : -1;
	for (k = task->nr; k > 0; k--)
		if (task->stack[k - 1].depth == row->depth &&
		    task->stack[k - 1].func == row->func)
			break;
	if (k) {
		const struct fgraph_frame *fr = &task->stack[k - 1];

		row->id = fr->id;
		row->ts = fr->ts;
		row->cpu = fr->cpu;
		if (row->dur < 0)
			row->dur = (int64_t)r->ts - fr->ts;
		task->nr = k - 1;
	} else {
		row->id = c->seq;
		row->ts = (int64_t)r->ts - (row->dur > 0 ? row->dur : 0);
		row->cpu = r->cpu;
		if (row->dur < 0)
			row->dur = 0;
		while (task->nr && task->stack[task->nr - 1].depth >= row->depth)
			task->nr--;
	}
	row->parent_id = task->nr ? task->stack[task->nr - 1].id : -1;
	return 1;
}

static int cursor_next(sqlite3_vtab_cursor *cur)
{
	struct fgraph_cursor *c = (struct fgraph_cursor *)cur;
	struct fgraph_table *t = (struct fgraph_table *)cur->pVtab;
	struct tep_handle *tep = t->trace->tep;
	struct tep_record *r;
	int buffer, type, ret;

	for (;;) {
		ret = sql_walk_next(&c->w, &r, &buffer);
		if (!ret) {
			c->w.eof = true;
			return SQLITE_OK;
		}
		if (ret < 0)
			return -ret;
		c->seq++;
		type = tep_data_type(tep, r);
		if (type == t->entry_id)
			ret = entered(c, t, r, tep_data_pid(tep, r));
		else if (type == t->exit_id)
			ret = exited(c, t, r, tep_data_pid(tep, r));
		else
			ret = 0;
		if (ret < 0)
			return SQLITE_NOMEM;
		if (ret) {
			c->w.rowid = c->row.id;
			return SQLITE_OK;
		}
	}
}

static void tasks_release(struct pid_table *tasks)
{
	size_t i;

	for (i = 0; i < tasks->cap; i++) {
		struct fgraph_task *task = pid_table_slot(tasks, i);

		if (task)
			free(task->stack);
	}
	pid_table_release(tasks);
	pid_table_init(tasks, sizeof(struct fgraph_task), 64);
}

static int cursor_filter(sqlite3_vtab_cursor *cur, int idx, const char *plan, int argc,
			 sqlite3_value **argv)
{
	struct fgraph_cursor *c = (struct fgraph_cursor *)cur;
	struct fgraph_table *t = (struct fgraph_table *)cur->pVtab;
	int ret;

	tasks_release(&c->tasks);
	c->seq = 0;
	if (t->exit_id < 0) {
		c->w.eof = true;
		return SQLITE_OK;
	}
	ret = sql_walk_restart(&c->w, t->trace);
	return ret != SQLITE_OK ? ret : cursor_next(cur);
}

static int cursor_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int col)
{
	struct fgraph_cursor *c = (struct fgraph_cursor *)cur;
	struct fgraph_table *t = (struct fgraph_table *)cur->pVtab;
	const struct fgraph_call *row = &c->row;
	const char *s;

	switch (col) {
	case COL_TS: sqlite3_result_int64(ctx, row->ts); break;
	case COL_CPU: sqlite3_result_int(ctx, row->cpu); break;
	case COL_ID: sqlite3_result_int64(ctx, row->id); break;
	case COL_PARENT:
		if (row->parent_id >= 0)
			sqlite3_result_int64(ctx, row->parent_id);
		break;
	case COL_PID: sqlite3_result_int(ctx, row->pid); break;
	case COL_COMM:
		s = tep_data_comm_from_pid(t->trace->tep, row->pid);
		if (s)
			sqlite3_result_text(ctx, s, -1, SQLITE_TRANSIENT);
		break;
	case COL_FUNC:
		s = tep_find_function(t->trace->tep, row->func);
		if (s)
			sqlite3_result_text(ctx, s, -1, SQLITE_TRANSIENT);
		break;
	case COL_ADDR: sqlite3_result_int64(ctx, (sqlite3_int64)row->func); break;
	case COL_DEPTH: sqlite3_result_int(ctx, row->depth); break;
	case COL_DUR: sqlite3_result_int64(ctx, row->dur); break;
	}
	return SQLITE_OK;
}

static int cursor_open(sqlite3_vtab *vtab, sqlite3_vtab_cursor **out)
{
	int ret = sql_walk_open(sizeof(struct fgraph_cursor), out);

	if (ret == SQLITE_OK)
		pid_table_init(&((struct fgraph_cursor *)*out)->tasks, sizeof(struct fgraph_task),
			       64);
	return ret;
}

static int cursor_close(sqlite3_vtab_cursor *cur)
{
	struct fgraph_cursor *c = (struct fgraph_cursor *)cur;

	tasks_release(&c->tasks);
	pid_table_release(&c->tasks);
	sql_walk_close(&c->w);
	return SQLITE_OK;
}

static int table_free(sqlite3_vtab *vtab)
{
	sqlite3_free(vtab);
	return SQLITE_OK;
}

static struct tep_format_field *field(struct tep_event *e, const char *name)
{
	return e ? tep_find_field(e, name) : NULL;
}

static int fgraph_create(sqlite3 *db, void *aux, int argc, const char *const *argv,
			 sqlite3_vtab **out, char **err)
{
	struct sql_trace *trace = aux;
	struct tep_event *entry = tep_find_event_by_name(trace->tep, "ftrace", "funcgraph_entry");
	struct tep_event *exit = tep_find_event_by_name(trace->tep, "ftrace", "funcgraph_exit");
	struct fgraph_table *t;
	int ret = sql_vtab_new(db, schema, sizeof(*t), out);

	if (ret != SQLITE_OK)
		return ret;
	t = (struct fgraph_table *)*out;
	t->trace = trace;
	t->entry_id = entry ? entry->id : -1;
	t->exit_id = exit ? exit->id : -1;
	t->entry_func = field(entry, "func");
	t->entry_depth = field(entry, "depth");
	t->exit_func = field(exit, "func");
	t->exit_depth = field(exit, "depth");
	t->calltime = field(exit, "calltime");
	t->rettime = field(exit, "rettime");
	if (!t->exit_func || !t->exit_depth)
		t->exit_id = -1;	/* not a format this table knows: no rows */
	return SQLITE_OK;
}

const sqlite3_module sql_fgraph_module = {
	.xCreate = fgraph_create, .xConnect = fgraph_create, .xBestIndex = sql_walk_best_index,
	.xDisconnect = table_free, .xDestroy = table_free, .xOpen = cursor_open,
	.xClose = cursor_close, .xFilter = cursor_filter, .xNext = cursor_next,
	.xEof = sql_walk_eof, .xColumn = cursor_column, .xRowid = sql_walk_rowid,
};
