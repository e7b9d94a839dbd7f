// SPDX-License-Identifier: GPL-2.0-only
/*
 * The events table: one row per record of the file, every event type, as `ktrace report
 * --format json` gives it: the task, the event's names, the common flags and preempt count,
 * and the event's own fields as one JSON object (report's rendering: report_json.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "ktrace/dat.h"
#include "../report/report_rows.h"
#include "sql.h"

enum {
	COL_PID = SQL_COL_CPU + 1,
	COL_COMM,
	COL_SYSTEM,
	COL_NAME,
	COL_FLAGS,
	COL_PREEMPT_COUNT,
	COL_FIELDS,
	COL_INSTANCE,
};

static const char schema[] =
	"CREATE TABLE x(ts INTEGER, cpu INTEGER, pid INTEGER, comm TEXT, system TEXT, "
	"name TEXT, flags INTEGER, preempt_count INTEGER, fields TEXT, instance TEXT)";

struct events_table {
	struct sql_table t;
	struct strbuf json;
};

static void result_text(sqlite3_context *ctx, const char *s)
{
	if (s)
		sqlite3_result_text(ctx, s, -1, SQLITE_TRANSIENT);
}

static int put_fields(struct events_table *e, sqlite3_context *ctx, struct tep_record *r,
		      struct tep_event *event)
{
	struct report_row row = { .tep = e->t.trace->tep, .record = r };

	row.layout = report_layout_of(e->t.trace->layouts, event);
	if (!row.layout)
		return SQLITE_NOMEM;
	strbuf_reset(&e->json);
	if (report_json_fields(&row, &e->json))
		return SQLITE_NOMEM;
	sqlite3_result_text(ctx, e->json.buf, (int)e->json.len, SQLITE_TRANSIENT);
	return SQLITE_OK;
}

static int events_column(sqlite3_vtab *vtab, sqlite3_context *ctx, const struct tep_record *cr,
			 int buffer, int col)
{
	struct events_table *e = (struct events_table *)vtab;
	struct tep_handle *tep = e->t.trace->tep;
	struct tep_record *r = (struct tep_record *)cr;
	struct tep_event *event;
	const struct dat_buffer *b;

	switch (col) {
	case COL_PID:
		sqlite3_result_int(ctx, tep_data_pid(tep, r));
		return SQLITE_OK;
	case COL_COMM:
		result_text(ctx, tep_data_comm_from_pid(tep, tep_data_pid(tep, r)));
		return SQLITE_OK;
	case COL_FLAGS:
		sqlite3_result_int(ctx, tep_data_flags(tep, r));
		return SQLITE_OK;
	case COL_PREEMPT_COUNT:
		sqlite3_result_int(ctx, tep_data_preempt_count(tep, r));
		return SQLITE_OK;
	case COL_INSTANCE:
		/* NULL for the top buffer, as report names no instance for it */
		b = dat_file_buffer(e->t.trace->df, buffer);
		result_text(ctx, b && b->name && *b->name ? b->name : NULL);
		return SQLITE_OK;
	}
	event = tep_find_event_by_record(tep, r);
	if (!event)
		return SQLITE_OK;	/* a type the file has no format for: NULL */
	if (col == COL_SYSTEM)
		result_text(ctx, event->system);
	else if (col == COL_NAME)
		result_text(ctx, event->name);
	else if (col == COL_FIELDS)
		return put_fields(e, ctx, r, event);
	return SQLITE_OK;
}

static void events_free(sqlite3_vtab *vtab)
{
	struct events_table *e = (struct events_table *)vtab;

	strbuf_release(&e->json);
	sqlite3_free(e);
}

static const struct sql_table_ops events_ops = {
	.column = events_column,
	.free = events_free,
};

int sql_events_create(sqlite3 *db, void *aux, int argc, const char *const *argv,
		      sqlite3_vtab **out, char **err)
{
	struct events_table *e;
	int ret = sql_vtab_new(db, schema, sizeof(*e), out);

	if (ret != SQLITE_OK)
		return ret;
	e = (struct events_table *)*out;
	e->t.trace = aux;
	e->t.ops = &events_ops;
	e->t.event_id = -1;
	return SQLITE_OK;
}
