// SPDX-License-Identifier: GPL-2.0-only
/*
 * --format csv --fields ts,cpu,comm,pid,event,FIELD...: one row per event under a header row.
 * A column is one of the event's own fields where the name is not one of the fixed columns
 * (ts, cpu, pid, comm, instance, system, event, dropped, lat); "fields.NAME" always means the
 * event's field, for names such as sched_wakeup's pid and comm. An event without the field
 * leaves the cell empty. Quoting follows RFC 4180: a cell holding a comma, a double quote or
 * a line break is quoted, its quotes doubled. With --format json the same columns make one
 * flat JSON object per event.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "ktrace/report.h"
#include "report_rows.h"

enum csv_col_kind {
	COL_TS, COL_CPU, COL_PID, COL_COMM, COL_INSTANCE, COL_SYSTEM, COL_EVENT, COL_DROPPED,
	COL_LAT, COL_FIELD,
};

static const char *const fixed_names[] = {
	[COL_TS] = "ts", [COL_CPU] = "cpu", [COL_PID] = "pid", [COL_COMM] = "comm",
	[COL_INSTANCE] = "instance", [COL_SYSTEM] = "system", [COL_EVENT] = "event",
	[COL_DROPPED] = "dropped", [COL_LAT] = "lat",
};

struct csv_col {
	enum csv_col_kind kind;
	char *name;		/* as given, for the header */
	const char *field;	/* COL_FIELD: the field's name */
};

/* Each event's COL_FIELD columns resolved to its fields (NULL: the event lacks it). */
struct csv_map {
	const struct report_event_layout *layout;
	const struct report_field **cols;
};

struct report_csv {
	struct tep_handle *tep;
	struct csv_col *cols;
	int nr_cols;
	struct csv_map *by_id;
	size_t nr_ids;
};

#define DEFAULT_FIELDS "ts,cpu,comm,pid,event"

/* common_type and common_pid are not columns: "event" and "pid" are */
static bool field_known(struct tep_handle *tep, const char *name)
{
	struct tep_event **events = tep_list_events(tep, TEP_EVENT_SORT_ID);
	struct strbuf full = STRBUF_INIT;
	bool found = false;
	int i;

	if (strncmp(name, "common_", 7))
		strbuf_addstr(&full, "common_");
	strbuf_addstr(&full, name);
	if (!strcmp(full.buf, "common_type") || !strcmp(full.buf, "common_pid"))
		strbuf_reset(&full);
	for (i = 0; !found && events && events[i]; i++)
		found = tep_find_field(events[i], name) ||
			(full.len && tep_find_common_field(events[i], full.buf));
	strbuf_release(&full);
	return found;
}

static int parse_col(struct report_csv *csv, struct csv_col *col, struct strbuf *err)
{
	size_t k;

	for (k = 0; k < sizeof(fixed_names) / sizeof(fixed_names[0]); k++) {
		if (!strcmp(col->name, fixed_names[k])) {
			col->kind = (enum csv_col_kind)k;
			return 0;
		}
	}
	col->kind = COL_FIELD;
	col->field = strncmp(col->name, "fields.", 7) ? col->name : col->name + 7;
	if (!*col->field || !field_known(csv->tep, col->field)) {
		strbuf_addf(err, "--fields: no event of the file has a field '%s'", col->field);
		return -EINVAL;
	}
	return 0;
}

static int parse_fields(struct report_csv *csv, const char *list, struct strbuf *err)
{
	char *copy = strdup(list), *save = NULL, *tok;
	int ret = copy ? 0 : -ENOMEM;

	for (tok = copy ? strtok_r(copy, ",", &save) : NULL; tok && !ret;
	     tok = strtok_r(NULL, ",", &save)) {
		struct csv_col *grown = realloc(csv->cols, (csv->nr_cols + 1) * sizeof(*grown));

		if (!grown) {
			ret = -ENOMEM;
			break;
		}
		csv->cols = grown;
		grown[csv->nr_cols].name = strdup(tok);
		if (!grown[csv->nr_cols].name) {
			ret = -ENOMEM;
			break;
		}
		ret = parse_col(csv, &grown[csv->nr_cols++], err);
	}
	if (!ret && !csv->nr_cols) {
		strbuf_addstr(err, "--fields: no column given");
		ret = -EINVAL;
	}
	free(copy);
	return ret;
}

int report_csv_new(struct tep_handle *tep, const char *fields, struct report_csv **out,
		   struct strbuf *err)
{
	struct report_csv *csv = calloc(1, sizeof(*csv));
	int ret;

	if (!csv)
		return -ENOMEM;
	csv->tep = tep;
	ret = parse_fields(csv, fields ? fields : DEFAULT_FIELDS, err);
	if (ret) {
		report_csv_free(csv);
		return ret;
	}
	*out = csv;
	return 0;
}

bool report_csv_wants_lat(const struct report_csv *csv)
{
	int i;

	for (i = 0; i < csv->nr_cols; i++)
		if (csv->cols[i].kind == COL_LAT)
			return true;
	return false;
}

/* RFC 4180: quote the cell when it holds a comma, a quote or a line break. */
void report_csv_put_cell(struct strbuf *sb, const char *s, size_t len)
{
	size_t i;

	if (!memchr(s, ',', len) && !memchr(s, '"', len) && !memchr(s, '\n', len) &&
	    !memchr(s, '\r', len)) {
		strbuf_add(sb, s, len);
		return;
	}
	strbuf_addch(sb, '"');
	for (i = 0; i < len; i++) {
		if (s[i] == '"')
			strbuf_addch(sb, '"');
		strbuf_addch(sb, s[i]);
	}
	strbuf_addch(sb, '"');
}

void report_csv_header(const struct report_csv *csv, struct strbuf *sb)
{
	int i;

	for (i = 0; i < csv->nr_cols; i++) {
		if (i)
			strbuf_addch(sb, ',');
		report_csv_put_cell(sb, csv->cols[i].name, strlen(csv->cols[i].name));
	}
}

static const struct report_field *find_in(const struct report_field *fields, int nr,
					  const char *name)
{
	int i;

	for (i = 0; i < nr; i++)
		if (!strcmp(fields[i].name, name) || !strcmp(fields[i].f->name, name))
			return &fields[i];
	return NULL;
}

static const struct report_field **map_of(struct report_csv *csv,
					  const struct report_event_layout *el)
{
	size_t id = (size_t)el->event->id;
	struct csv_map *m;
	int i;

	if (id >= csv->nr_ids) {
		size_t n = id + 64;
		struct csv_map *grown = realloc(csv->by_id, n * sizeof(*grown));

		if (!grown)
			return NULL;
		memset(grown + csv->nr_ids, 0, (n - csv->nr_ids) * sizeof(*grown));
		csv->by_id = grown;
		csv->nr_ids = n;
	}
	m = &csv->by_id[id];
	if (m->layout)
		return m->cols;
	m->cols = calloc((size_t)csv->nr_cols, sizeof(*m->cols));
	if (!m->cols)
		return NULL;
	m->layout = el;
	for (i = 0; i < csv->nr_cols; i++) {
		const char *name = csv->cols[i].field;

		if (csv->cols[i].kind != COL_FIELD)
			continue;
		m->cols[i] = find_in(el->fields, el->nr_fields, name);
		if (!m->cols[i])
			m->cols[i] = find_in(el->common, el->nr_common, name);
	}
	return m->cols;
}

static void put_field(const struct report_row *row, const struct report_field *rf,
		      struct strbuf *sb, struct strbuf *scratch)
{
	struct report_value v;

	if (!rf)
		return;
	report_field_value(row->tep, rf, row->record, &v);
	if (!v.valid)
		return;
	if (v.kind == REPORT_FIELD_STR) {
		report_csv_put_cell(sb, v.data, v.len);
	} else if (v.kind == REPORT_FIELD_ARRAY) {
		strbuf_reset(scratch);
		report_value_put_array(row->tep, rf, &v, scratch);
		report_csv_put_cell(sb, scratch->buf, scratch->len);
	} else {
		report_value_put_int(&v, sb);
	}
}

/* A string cell; in JSON a string or null. */
static void put_str_cell(struct strbuf *sb, const char *s, bool json)
{
	if (json && !s)
		strbuf_add(sb, "null", 4);
	else if (json)
		report_json_put_str(sb, s, strlen(s));
	else if (s)
		report_csv_put_cell(sb, s, strlen(s));
}

static void put_fixed(const struct report_row *row, enum csv_col_kind kind, bool json,
		      struct strbuf *sb)
{
	const struct tep_record *r = row->record;
	struct tep_event *ev = row->layout ? row->layout->event : NULL;

	switch (kind) {
	case COL_TS: strbuf_addf(sb, "%llu", r->ts); break;
	case COL_CPU: strbuf_addf(sb, "%d", r->cpu); break;
	case COL_PID: strbuf_addf(sb, "%d", row->pid); break;
	case COL_COMM: put_str_cell(sb, row->comm, json); break;
	case COL_INSTANCE: put_str_cell(sb, row->instance, json); break;
	case COL_SYSTEM: put_str_cell(sb, ev ? ev->system : NULL, json); break;
	case COL_EVENT: put_str_cell(sb, ev ? ev->name : NULL, json); break;
	case COL_LAT: put_str_cell(sb, row->lat, json); break;
	case COL_DROPPED:
		if (r->missed_events)
			strbuf_addf(sb, "%lld", r->missed_events > 0 ? r->missed_events : -1);
		else if (json)
			strbuf_add(sb, "null", 4);
		break;
	case COL_FIELD: break;
	}
}

int report_csv_row(struct report_csv *csv, const struct report_row *row, struct strbuf *sb)
{
	const struct report_field **map = NULL;
	struct strbuf scratch = STRBUF_INIT;
	int i;

	if (row->layout) {
		map = map_of(csv, row->layout);
		if (!map)
			return -ENOMEM;
	}
	for (i = 0; i < csv->nr_cols; i++) {
		if (i)
			strbuf_addch(sb, ',');
		if (csv->cols[i].kind != COL_FIELD)
			put_fixed(row, csv->cols[i].kind, false, sb);
		else if (map)
			put_field(row, map[i], sb, &scratch);
	}
	strbuf_release(&scratch);
	return 0;
}

int report_csv_json_row(struct report_csv *csv, const struct report_row *row, struct strbuf *sb)
{
	const struct report_field **map = NULL;
	int i;

	if (row->layout) {
		map = map_of(csv, row->layout);
		if (!map)
			return -ENOMEM;
	}
	strbuf_addch(sb, '{');
	for (i = 0; i < csv->nr_cols; i++) {
		if (i)
			strbuf_addch(sb, ',');
		report_json_put_str(sb, csv->cols[i].name, strlen(csv->cols[i].name));
		strbuf_addch(sb, ':');
		if (csv->cols[i].kind != COL_FIELD)
			put_fixed(row, csv->cols[i].kind, true, sb);
		else if (map && map[i])
			report_json_put_value(row, map[i], sb);
		else
			strbuf_add(sb, "null", 4);
	}
	strbuf_addch(sb, '}');
	return 0;
}

void report_csv_free(struct report_csv *csv)
{
	size_t i;
	int c;

	if (!csv)
		return;
	for (i = 0; i < csv->nr_ids; i++)
		free(csv->by_id[i].cols);
	free(csv->by_id);
	for (c = 0; c < csv->nr_cols; c++)
		free(csv->cols[c].name);
	free(csv->cols);
	free(csv);
}
