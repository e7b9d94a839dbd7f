// SPDX-License-Identifier: GPL-2.0-only
/*
 * One table per event format of the file (sched_switch, ...): its records only, a column per
 * field of the format, named as the format names it and typed as it says (integers as
 * INTEGER, char arrays and __data_loc strings as TEXT, other arrays as BLOB of their bytes),
 * after ts, cpu and the task (pid, comm). A field named like one of those four keeps its name;
 * the record's column is then common_ts, common_cpu, common_pid or common_comm (blktrace has
 * cpu and pid fields, sched_wakeup pid and comm).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "../report/report_rows.h"
#include "sql.h"

enum {
	COL_PID = SQL_COL_CPU + 1,
	COL_COMM,
	COL_FIRST_FIELD,
};

struct format_table {
	struct sql_table t;
	const struct report_event_layout *layout;
};

static const char *sql_type(const struct report_field *rf)
{
	switch (rf->kind) {
	case REPORT_FIELD_STR: return "TEXT";
	case REPORT_FIELD_ARRAY: return "BLOB";
	default: return "INTEGER";
	}
}

const char *sql_format_common_column(const struct report_event_layout *el, int col)
{
	static const char *const plain[SQL_FORMAT_NR_COMMON] = { "ts", "cpu", "pid", "comm" };
	static const char *const renamed[SQL_FORMAT_NR_COMMON] = { "common_ts", "common_cpu",
								  "common_pid", "common_comm" };

	return report_layout_has_field(el, plain[col]) ? renamed[col] : plain[col];
}

/* The table's CREATE TABLE: the common columns first, then the format's own fields. */
static int schema_of(const struct report_event_layout *el, struct strbuf *sb)
{
	int i;

	strbuf_addstr(sb, "CREATE TABLE x(");
	for (i = 0; i < SQL_FORMAT_NR_COMMON; i++)
		strbuf_addf(sb, "%s%s %s", i ? ", " : "", sql_format_common_column(el, i),
			    i == SQL_FORMAT_NR_COMMON - 1 ? "TEXT" : "INTEGER");
	for (i = 0; i < el->nr_fields; i++)
		strbuf_addf(sb, ", \"%s\" %s", el->fields[i].name, sql_type(&el->fields[i]));
	return strbuf_addch(sb, ')');
}

static int field_column(struct format_table *f, sqlite3_context *ctx, const struct tep_record *r,
			const struct report_field *rf)
{
	struct tep_handle *tep = f->t.trace->tep;
	struct report_value v;

	report_field_value(tep, rf, r, &v);
	if (!v.valid)
		return SQLITE_OK;	/* the record is too short for it: NULL */
	switch (v.kind) {
	case REPORT_FIELD_INT:
		sqlite3_result_int64(ctx, v.i);
		break;
	case REPORT_FIELD_UINT:
		/* above INT64_MAX (kernel pointers) as the same 64 bits, negative */
		sqlite3_result_int64(ctx, (sqlite3_int64)v.u);
		break;
	case REPORT_FIELD_STR:
		sqlite3_result_text(ctx, v.data, (int)v.len, SQLITE_TRANSIENT);
		break;
	case REPORT_FIELD_ARRAY:
		sqlite3_result_blob(ctx, v.data, (int)(v.len * rf->elem), SQLITE_TRANSIENT);
		break;
	}
	return SQLITE_OK;
}

static int format_column(sqlite3_vtab *vtab, sqlite3_context *ctx, const struct tep_record *cr,
			 int buffer, int col)
{
	struct format_table *f = (struct format_table *)vtab;
	struct tep_handle *tep = f->t.trace->tep;
	struct tep_record *r = (struct tep_record *)cr;
	const char *comm;

	switch (col) {
	case COL_PID:
		sqlite3_result_int(ctx, tep_data_pid(tep, r));
		return SQLITE_OK;
	case COL_COMM:
		comm = tep_data_comm_from_pid(tep, tep_data_pid(tep, r));
		if (comm)
			sqlite3_result_text(ctx, comm, -1, SQLITE_TRANSIENT);
		return SQLITE_OK;
	}
	if (col - COL_FIRST_FIELD >= f->layout->nr_fields)
		return SQLITE_OK;
	return field_column(f, ctx, cr, &f->layout->fields[col - COL_FIRST_FIELD]);
}

static void format_free(sqlite3_vtab *vtab)
{
	sqlite3_free(vtab);
}

static const struct sql_table_ops format_ops = {
	.column = format_column,
	.free = format_free,
};

/* aux: the table's struct sql_format_ref */
int sql_format_create(sqlite3 *db, void *aux, int argc, const char *const *argv,
		      sqlite3_vtab **out, char **err)
{
	const struct sql_format_ref *ref = aux;
	struct sql_trace *t = ref->trace;
	const struct report_event_layout *el;
	struct strbuf schema = STRBUF_INIT;
	struct format_table *f;
	struct tep_event *event;
	int ret;

	event = tep_find_event(t->tep, ref->event_id);
	if (!event) {
		*err = sqlite3_mprintf("%s: no such event format", argv[2]);
		return SQLITE_ERROR;
	}
	el = report_layout_of(t->layouts, event);
	if (!el)
		return SQLITE_NOMEM;
	if (schema_of(el, &schema)) {
		strbuf_release(&schema);
		return SQLITE_NOMEM;
	}
	ret = sql_vtab_new(db, strbuf_str(&schema), sizeof(*f), out);
	strbuf_release(&schema);
	if (ret != SQLITE_OK)
		return ret;
	f = (struct format_table *)*out;
	f->t.trace = t;
	f->t.ops = &format_ops;
	f->t.event_id = event->id;
	f->layout = el;
	return SQLITE_OK;
}
