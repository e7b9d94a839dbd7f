// SPDX-License-Identifier: GPL-2.0-only
/*
 * sched_slice: one row per sched_switch, the task it switched in (next_pid, next_comm) on
 * that cpu from ts for dur, until the cpu's next sched_switch, whose prev_state is end_state
 * (NULL, as dur, for the last switch of each cpu). One walk of the file with one pending
 * switch per cpu, rather than a view: the view's window sorted every switch of the file
 * (17 CPU s for 2.4 M switches). Rows come as their slices end, the last ones at the end in
 * cpu order: ORDER BY ts gives them in start order.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "../report/report_rows.h"
#include "ktrace/grow.h"
#include "sql.h"

static const char schema[] =
	"CREATE TABLE x(cpu INTEGER, ts INTEGER, dur INTEGER, pid INTEGER, comm TEXT, "
	"end_state INTEGER)";

enum { COL_CPU, COL_TS, COL_DUR, COL_PID, COL_COMM, COL_END_STATE };

/* TASK_COMM_LEN is 16: room for any kernel's, cut where a longer array would not fit */
#define SLICE_COMM_MAX	64

struct slice_table {
	sqlite3_vtab base;
	struct sql_trace *trace;
	int switch_id;			/* sched:sched_switch, -1 when the file lacks it */
	const struct report_field *next_pid, *next_comm, *prev_state;
};

struct slice_row {
	int64_t ts, dur, end_state;
	bool ended;			/* dur and end_state known */
	int cpu, pid;
	char comm[SLICE_COMM_MAX + 1];
};

/* A cpu's slice in progress: since its last sched_switch */
struct slice_cpu {
	bool running;
	struct slice_row row;
};

struct slice_cursor {
	struct sql_walk w;
	struct slice_cpu *cpus;		/* by cpu number */
	size_t nr_cpus, cap;
	size_t flushed;			/* at the end: the next cpu to give */
	bool at_end;
	struct slice_row row;
};

static const struct report_field *find_field(const struct report_event_layout *el,
					     const char *name)
{
	int i;

	for (i = 0; el && i < el->nr_fields; i++)
		if (!strcmp(el->fields[i].name, name))
			return &el->fields[i];
	return NULL;
}

static int64_t int_value(struct tep_handle *tep, const struct report_field *f,
			 const struct tep_record *r)
{
	struct report_value v;

	report_field_value(tep, f, r, &v);
	if (!v.valid)
		return 0;
	return v.kind == REPORT_FIELD_INT ? (int64_t)v.i : (int64_t)v.u;
}

static int cpu_slot(struct slice_cursor *c, int cpu)
{
	size_t want = (size_t)cpu + 1;

	if (cpu < 0)
		return -EINVAL;
	if (want > c->nr_cpus) {
		if (array_grow(&c->cpus, &c->cap, want, sizeof(*c->cpus)))
			return -ENOMEM;
		memset(c->cpus + c->nr_cpus, 0, (want - c->nr_cpus) * sizeof(*c->cpus));
		c->nr_cpus = want;
	}
	return 0;
}

/* 1 with c->row set to the slice the record ends, 0 when it ends none */
static int slice_record(struct slice_cursor *c, struct slice_table *t, struct tep_record *r)
{
	struct tep_handle *tep = t->trace->tep;
	struct slice_row *p;
	struct report_value v;
	int out = 0;

	if (tep_data_type(tep, r) != t->switch_id)
		return 0;
	if (cpu_slot(c, r->cpu))
		return r->cpu < 0 ? 0 : -ENOMEM;
	p = &c->cpus[r->cpu].row;
	if (c->cpus[r->cpu].running) {
		c->row = *p;
		c->row.ended = true;
		c->row.dur = (int64_t)r->ts - p->ts;
		c->row.end_state = int_value(tep, t->prev_state, r);
		out = 1;
	}
	c->cpus[r->cpu].running = true;
	memset(p, 0, sizeof(*p));
	p->ts = (int64_t)r->ts;
	p->cpu = r->cpu;
	p->pid = (int)int_value(tep, t->next_pid, r);
	report_field_value(tep, t->next_comm, r, &v);
	if (v.valid && v.kind == REPORT_FIELD_STR)
		memcpy(p->comm, v.data, v.len < SLICE_COMM_MAX ? v.len : SLICE_COMM_MAX);
	return out;
}

static int cursor_next(sqlite3_vtab_cursor *cur)
{
	struct slice_cursor *c = (struct slice_cursor *)cur;
	struct slice_table *t = (struct slice_table *)cur->pVtab;
	struct tep_record *r;
	int buffer, ret;

	c->w.rowid++;
	while (!c->at_end && t->switch_id >= 0) {
		ret = sql_walk_next(&c->w, &r, &buffer);
		if (ret < 0)
			return -ret;
		if (!ret)
			break;
		ret = slice_record(c, t, r);
		if (ret < 0)
			return SQLITE_NOMEM;
		if (ret)
			return SQLITE_OK;
	}
	c->at_end = true;
	/* the end: the slice still running on each cpu */
	for (; c->flushed < c->nr_cpus; c->flushed++) {
		if (c->cpus[c->flushed].running) {
			c->cpus[c->flushed].running = false;
			c->row = c->cpus[c->flushed].row;
			return SQLITE_OK;
		}
	}
	c->w.eof = true;
	return SQLITE_OK;
}

static int cursor_filter(sqlite3_vtab_cursor *cur, int idx, const char *plan, int argc,
			 sqlite3_value **argv)
{
	struct slice_cursor *c = (struct slice_cursor *)cur;
	struct slice_table *t = (struct slice_table *)cur->pVtab;
	int ret;

	c->nr_cpus = 0;
	c->flushed = 0;
	c->at_end = false;
	c->w.eof = false;
	ret = t->switch_id >= 0 ? sql_walk_restart(&c->w, t->trace) : SQLITE_OK;
	return ret != SQLITE_OK ? ret : cursor_next(cur);
}

static int cursor_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int col)
{
	const struct slice_row *row = &((struct slice_cursor *)cur)->row;

	switch (col) {
	case COL_CPU: sqlite3_result_int(ctx, row->cpu); break;
	case COL_TS: sqlite3_result_int64(ctx, row->ts); break;
	case COL_DUR:
		if (row->ended)
			sqlite3_result_int64(ctx, row->dur);
		break;
	case COL_PID: sqlite3_result_int(ctx, row->pid); break;
	case COL_COMM: sqlite3_result_text(ctx, row->comm, -1, SQLITE_TRANSIENT); break;
	case COL_END_STATE:
		if (row->ended)
			sqlite3_result_int64(ctx, row->end_state);
		break;
	}
	return SQLITE_OK;
}

static int cursor_open(sqlite3_vtab *vtab, sqlite3_vtab_cursor **out)
{
	return sql_walk_open(sizeof(struct slice_cursor), out);
}

static int cursor_close(sqlite3_vtab_cursor *cur)
{
	struct slice_cursor *c = (struct slice_cursor *)cur;

	free(c->cpus);
	sql_walk_close(&c->w);
	return SQLITE_OK;
}

static int table_free(sqlite3_vtab *vtab)
{
	sqlite3_free(vtab);
	return SQLITE_OK;
}

static int slice_create(sqlite3 *db, void *aux, int argc, const char *const *argv,
			sqlite3_vtab **out, char **err)
{
	struct slice_table *t;
	struct tep_event *e;
	const struct report_event_layout *el = NULL;
	int ret = sql_vtab_new(db, schema, sizeof(*t), out);

	if (ret != SQLITE_OK)
		return ret;
	t = (struct slice_table *)*out;
	t->trace = aux;
	t->switch_id = -1;
	e = tep_find_event_by_name(t->trace->tep, "sched", "sched_switch");
	if (e)
		el = report_layout_of(t->trace->layouts, e);
	if (e && !el) {
		table_free(&t->base);
		*out = NULL;
		return SQLITE_NOMEM;
	}
	t->next_pid = find_field(el, "next_pid");
	t->next_comm = find_field(el, "next_comm");
	t->prev_state = find_field(el, "prev_state");
	/* a format without these fields is not one this table reads: no rows */
	if (e && t->next_pid && t->next_comm && t->prev_state)
		t->switch_id = e->id;
	return SQLITE_OK;
}

const sqlite3_module sql_slice_module = {
	.xCreate = slice_create, .xConnect = slice_create, .xBestIndex = sql_walk_best_index,
	.xDisconnect = table_free, .xDestroy = table_free, .xOpen = cursor_open,
	.xClose = cursor_close, .xFilter = cursor_filter, .xNext = cursor_next,
	.xEof = sql_walk_eof, .xColumn = cursor_column, .xRowid = sql_walk_rowid,
};
