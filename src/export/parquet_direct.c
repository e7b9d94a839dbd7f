// SPDX-License-Identifier: GPL-2.0-only
/*
 * The tables of records (events and one per event format) straight from the sql layer's scan
 * into their writers, in one walk of the file for all of them: no SQLite row, no second walk
 * per table. The columns and values are those of sql_events.c and sql_format.c, put as
 * parquet_export.c would put what SQLite gives of them (kinds from the declared types), so the
 * files are the ones `SELECT *` writes; tests/interop/export compares them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "ktrace/dat.h"
#include "../report/report_rows.h"
#include "../sql/sql.h"
#include "parquet_direct.h"
#include "parquet_file.h"
#include "parquet_writer.h"

static const char *const events_columns[] = {
	"ts", "cpu", "pid", "comm", "system", "name", "flags", "preempt_count", "fields",
	"instance",
};
static const enum pq_kind events_kinds[] = {
	PQ_KIND_INT64, PQ_KIND_INT64, PQ_KIND_INT64, PQ_KIND_TEXT, PQ_KIND_TEXT, PQ_KIND_TEXT,
	PQ_KIND_INT64, PQ_KIND_INT64, PQ_KIND_TEXT, PQ_KIND_TEXT,
};
#define NR_EVENTS_COLUMNS ((int)(sizeof(events_columns) / sizeof(events_columns[0])))

struct direct_table {
	const char *name;
	const struct report_event_layout *layout;	/* NULL: the events table */
	struct pq_file file;
	struct pq_writer *w;
	int first;		/* 1 after the partition column, else 0 */
};

struct direct {
	struct sql_trace *t;
	struct direct_table *tabs;
	int nr;
	struct direct_table *events;
	struct direct_table **by_id;	/* a format table by event id */
	int nr_ids;
	const char *part_value;
	size_t part_len;
	struct strbuf json;
	/* the comm of the last pid: a task's records come in runs */
	int last_pid;
	const char *last_comm;
};

static const struct sql_format_ref *format_of(const struct sql_trace *t, const char *table)
{
	int i;

	for (i = 0; i < t->nr_formats; i++)
		if (!strcmp(t->formats[i].table, table))
			return &t->formats[i];
	return NULL;
}

bool pq_direct_has(const struct sql_trace *t, const char *table, enum pq_partition partition)
{
	const struct sql_format_ref *ref;
	struct tep_event *event;
	const struct report_event_layout *el;

	if (!strcmp(table, "events"))
		return partition != PQ_PARTITION_INSTANCE;
	ref = format_of(t, table);
	if (!ref || partition != PQ_PARTITION_INSTANCE)
		return ref != NULL;
	/* a file per instance for a table with an instance column: parquet_export.c's */
	event = tep_find_event(t->tep, ref->event_id);
	el = event ? report_layout_of(t->layouts, event) : NULL;
	return el && !report_layout_has_field(el, "instance");
}

/* The names and kinds of a format table's columns, as sql_format.c declares them */
static int format_writer(struct direct_table *dt, const char *part, FILE *out)
{
	const struct report_event_layout *el = dt->layout;
	int nr = 4 + el->nr_fields + dt->first, i, ret;
	const char **names = calloc((size_t)nr, sizeof(*names));

	if (!names)
		return -ENOMEM;
	if (dt->first)
		names[0] = part;
	for (i = 0; i < SQL_FORMAT_NR_COMMON; i++)
		names[dt->first + i] = sql_format_common_column(el, i);
	for (i = 0; i < el->nr_fields; i++)
		names[dt->first + 4 + i] = el->fields[i].name;
	ret = pq_writer_new(out, names, nr, NULL, &dt->w);
	free(names);
	if (ret)
		return ret;
	if (dt->first)
		pq_writer_set_kind(dt->w, 0, PQ_KIND_TEXT);
	for (i = 0; i < 4; i++)
		pq_writer_set_kind(dt->w, dt->first + i, i == 3 ? PQ_KIND_TEXT : PQ_KIND_INT64);
	for (i = 0; i < el->nr_fields; i++)
		pq_writer_set_kind(dt->w, dt->first + 4 + i,
				   el->fields[i].kind == REPORT_FIELD_STR ? PQ_KIND_TEXT :
				   el->fields[i].kind == REPORT_FIELD_ARRAY ? PQ_KIND_BLOB :
				   PQ_KIND_INT64);
	return 0;
}

static int events_writer(struct direct_table *dt, const char *part, FILE *out)
{
	const char *names[NR_EVENTS_COLUMNS + 1];
	int i, ret;

	names[0] = part;
	for (i = 0; i < NR_EVENTS_COLUMNS; i++)
		names[dt->first + i] = events_columns[i];
	ret = pq_writer_new(out, names, NR_EVENTS_COLUMNS + dt->first, NULL, &dt->w);
	if (ret)
		return ret;
	if (dt->first)
		pq_writer_set_kind(dt->w, 0, PQ_KIND_TEXT);
	for (i = 0; i < NR_EVENTS_COLUMNS; i++)
		pq_writer_set_kind(dt->w, dt->first + i, events_kinds[i]);
	return 0;
}

/* The partition column comes first unless the table has a column of that name */
static bool table_has_column(const struct direct_table *dt, const char *column)
{
	int i;

	if (!dt->layout) {
		for (i = 0; i < NR_EVENTS_COLUMNS; i++)
			if (!strcmp(events_columns[i], column))
				return true;
		return false;
	}
	return report_layout_has_field(dt->layout, column) || !strcmp(column, "ts") ||
	       !strcmp(column, "cpu") || !strcmp(column, "pid") || !strcmp(column, "comm");
}

static int open_table(struct direct *d, struct direct_table *dt, const char *table,
		      const struct pq_export_opts *o, const char *part, const char *value,
		      struct strbuf *err)
{
	const struct sql_format_ref *ref = format_of(d->t, table);
	struct tep_event *event = NULL;
	int ret;

	dt->name = table;
	if (ref) {
		event = tep_find_event(d->t->tep, ref->event_id);
		dt->layout = event ? report_layout_of(d->t->layouts, event) : NULL;
		if (!dt->layout)
			return -ENOMEM;
		if (ref->event_id >= 0 && ref->event_id < d->nr_ids)
			d->by_id[ref->event_id] = dt;
	} else {
		d->events = dt;
	}
	dt->first = value && !table_has_column(dt, part) ? 1 : 0;
	ret = pq_file_target(&dt->file, o, table, value, err);
	if (!ret)
		ret = pq_file_open(&dt->file, err);
	if (!ret)
		ret = dt->layout ? format_writer(dt, part, dt->file.out) :
			events_writer(dt, part, dt->file.out);
	return ret;
}

static const char *comm_of(struct direct *d, int pid)
{
	if (pid != d->last_pid || !d->last_comm) {
		d->last_pid = pid;
		d->last_comm = tep_data_comm_from_pid(d->t->tep, pid);
	}
	return d->last_comm;
}

static void put_text(struct pq_writer *w, int col, const char *s)
{
	if (s)
		pq_put_bytes(w, col, s, strlen(s));
	else
		pq_put_null(w, col);
}

/* sql_events.c's fields column: the event's own fields as one JSON object */
static int put_fields(struct direct *d, struct pq_writer *w, int col, struct tep_record *r,
		      const struct report_event_layout *el)
{
	struct report_row row = { .tep = d->t->tep, .record = r, .layout = el };

	strbuf_reset(&d->json);
	if (report_json_fields(&row, &d->json))
		return -ENOMEM;
	pq_put_bytes(w, col, d->json.buf, d->json.len);
	return 0;
}

static int events_row(struct direct *d, struct tep_record *r, struct tep_event *event,
		      const struct report_event_layout *el, int pid, const char *comm, int buffer)
{
	struct direct_table *dt = d->events;
	struct pq_writer *w = dt->w;
	const struct dat_buffer *b = dat_file_buffer(d->t->df, buffer);
	int c = dt->first, ret = 0;

	if (c)
		pq_put_bytes(w, 0, d->part_value, d->part_len);
	pq_put_int64(w, c, (int64_t)r->ts);
	pq_put_int64(w, c + 1, r->cpu);
	pq_put_int64(w, c + 2, pid);
	put_text(w, c + 3, comm);
	put_text(w, c + 4, event ? event->system : NULL);
	put_text(w, c + 5, event ? event->name : NULL);
	pq_put_int64(w, c + 6, tep_data_flags(d->t->tep, r));
	pq_put_int64(w, c + 7, tep_data_preempt_count(d->t->tep, r));
	if (el)
		ret = put_fields(d, w, c + 8, r, el);
	else
		pq_put_null(w, c + 8);
	/* NULL for the top buffer, as report names no instance for it */
	put_text(w, c + 9, b && b->name && *b->name ? b->name : NULL);
	return ret ? ret : pq_writer_end_row(w);
}

static int format_row(struct direct *d, struct direct_table *dt, struct tep_record *r, int pid,
		      const char *comm)
{
	const struct report_event_layout *el = dt->layout;
	struct pq_writer *w = dt->w;
	struct report_value v;
	int c = dt->first + 4, i;

	if (dt->first)
		pq_put_bytes(w, 0, d->part_value, d->part_len);
	pq_put_int64(w, dt->first, (int64_t)r->ts);
	pq_put_int64(w, dt->first + 1, r->cpu);
	pq_put_int64(w, dt->first + 2, pid);
	put_text(w, dt->first + 3, comm);
	for (i = 0; i < el->nr_fields; i++) {
		const struct report_field *rf = &el->fields[i];

		report_field_value(d->t->tep, rf, r, &v);
		if (!v.valid)
			pq_put_null(w, c + i);	/* the record is too short for it */
		else if (v.kind == REPORT_FIELD_INT)
			pq_put_int64(w, c + i, v.i);
		else if (v.kind == REPORT_FIELD_UINT)
			/* above INT64_MAX (kernel pointers) as the same 64 bits, negative */
			pq_put_int64(w, c + i, (int64_t)v.u);
		else if (v.kind == REPORT_FIELD_STR)
			pq_put_bytes(w, c + i, v.data, v.len);
		else
			pq_put_bytes(w, c + i, v.data, v.len * rf->elem);
	}
	return pq_writer_end_row(w);
}

static int one_record(struct direct *d, struct tep_record *r, int buffer)
{
	struct tep_handle *tep = d->t->tep;
	int type = tep_data_type(tep, r), pid = tep_data_pid(tep, r), ret = 0;
	struct direct_table *dt = type >= 0 && type < d->nr_ids ? d->by_id[type] : NULL;
	const char *comm = comm_of(d, pid);
	struct tep_event *event = NULL;
	const struct report_event_layout *el = dt ? dt->layout : NULL;

	if (d->events) {
		event = el ? el->event : tep_find_event_by_record(tep, r);
		if (event && !el)
			el = report_layout_of(d->t->layouts, event);
		if (event && !el)
			return -ENOMEM;
		ret = events_row(d, r, event, el, pid, comm, buffer);
	}
	if (!ret && dt)
		ret = format_row(d, dt, r, pid, comm);
	return ret;
}

static int walk(struct direct *d, struct strbuf *err)
{
	struct sql_range all = SQL_RANGE_ALL;
	struct sql_scan *scan = NULL;
	struct tep_record *r;
	int buffer, ret;

	ret = sql_scan_open(d->t, &all, &scan, err);
	while (!ret && (ret = sql_scan_next(scan, &r, &buffer, err)) > 0)
		ret = one_record(d, r, buffer);
	sql_scan_close(scan);
	return ret;
}

static int max_event_id(const struct sql_trace *t)
{
	int i, n = 0;

	for (i = 0; i < t->nr_formats; i++)
		if (t->formats[i].event_id + 1 > n)
			n = t->formats[i].event_id + 1;
	return n;
}

int pq_direct_export(struct sql_trace *t, const struct pq_export_opts *o, char *const *tables,
		     const char *part, const char *value, struct strbuf *err)
{
	struct direct d = { .t = t, .json = STRBUF_INIT, .last_pid = -1 };
	int i, ret = 0;

	while (tables && tables[d.nr])
		d.nr++;
	if (!d.nr)
		return 0;
	d.part_value = value;
	d.part_len = value ? strlen(value) : 0;
	d.nr_ids = max_event_id(t);
	d.tabs = calloc((size_t)d.nr, sizeof(*d.tabs));
	d.by_id = calloc(d.nr_ids ? (size_t)d.nr_ids : 1, sizeof(*d.by_id));
	if (!d.tabs || !d.by_id)
		ret = -ENOMEM;
	for (i = 0; i < d.nr && !ret; i++)
		ret = open_table(&d, &d.tabs[i], tables[i], o, part, value, err);
	if (!ret)
		ret = walk(&d, err);
	for (i = 0; d.tabs && i < d.nr; i++) {
		struct direct_table *dt = &d.tabs[i];

		if (!ret && dt->w)
			ret = pq_writer_finish(dt->w);
		pq_writer_free(dt->w);
		ret = pq_file_close(&dt->file, ret, err);
	}
	free(d.tabs);
	free(d.by_id);
	strbuf_release(&d.json);
	return ret;
}
