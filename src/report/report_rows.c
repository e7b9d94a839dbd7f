// SPDX-License-Identifier: GPL-2.0-only
/*
 * --format json and --format csv: the same events as the text output (the same stream,
 * filters and instances), each written as one JSON object or one CSV row per line. Only what
 * both formats need is gathered here; the formats themselves are report_json.c and
 * report_csv.c.
 */
#include <errno.h>
#include <stdlib.h>

#include <event-parse.h>
#include <trace-seq.h>

#include "ktrace/dat.h"
#include "ktrace/report.h"
#include "report_rows.h"
#include "report_stream.h"

struct report_rows {
	struct tep_handle *tep;
	struct dat_file *df;
	struct report_layouts *layouts;
	struct report_csv *csv;		/* --fields (or CSV): the columns; NULL: whole events */
	bool json;
	bool want_lat;
	bool instances;			/* the file has instances: name each event's */
	struct trace_seq seq;		/* the latency text */
	struct strbuf line;
};

static int put_row(struct report_rows *w, const struct report_event *ev, FILE *out)
{
	struct tep_record *r = ev->record;
	struct tep_event *event = tep_find_event_by_record(w->tep, r);
	struct report_row row = { .tep = w->tep, .record = r };
	const char *name;
	int ret = 0;

	row.pid = tep_data_pid(w->tep, r);
	row.comm = tep_data_comm_from_pid(w->tep, row.pid);
	if (event) {
		row.layout = report_layout_of(w->layouts, event);
		if (!row.layout)
			return -ENOMEM;
	}
	if (w->instances) {
		name = dat_file_buffer(w->df, ev->buffer)->name;
		row.instance = name ? name : "";
	}
	if (w->want_lat && event) {
		trace_seq_reset(&w->seq);
		tep_print_event(w->tep, &w->seq, r, "%s", TEP_PRINT_LATENCY);
		trace_seq_terminate(&w->seq);
		row.lat = w->seq.buffer;
	}
	strbuf_reset(&w->line);
	if (w->csv && w->json)
		ret = report_csv_json_row(w->csv, &row, &w->line);
	else if (w->csv)
		ret = report_csv_row(w->csv, &row, &w->line);
	else
		report_json_row(&row, &w->line);
	strbuf_addch(&w->line, '\n');
	fwrite_unlocked(w->line.buf, 1, w->line.len, out);
	return ret;
}

static int rows_init(struct report_rows *w, struct dat_file *df, const struct report_opts *o,
		     struct strbuf *err)
{
	int ret;

	w->df = df;
	w->tep = dat_file_tep(df);
	w->instances = dat_file_nr_buffers(df) > 1;
	trace_seq_init(&w->seq);
	w->json = o->format == REPORT_FORMAT_JSON;
	ret = report_layouts_new(w->tep, &w->layouts);
	if (ret || (w->json && !o->fields)) {
		w->want_lat = o->latency;
		return ret;
	}
	ret = report_csv_new(w->tep, o->fields, &w->csv, err);
	if (ret)
		return ret;
	w->want_lat = report_csv_wants_lat(w->csv);
	return 0;
}

static void rows_release(struct report_rows *w)
{
	report_csv_free(w->csv);
	report_layouts_free(w->layouts);
	trace_seq_destroy(&w->seq);
	strbuf_release(&w->line);
}

int report_rows_print(struct dat_file *df, const struct report_opts *o,
		      struct report_filter *filter, FILE *out, struct strbuf *err)
{
	struct report_rows w = { .line = STRBUF_INIT };
	struct report_stream *rs = NULL;
	struct report_event ev;
	const bool *refused;
	int ret, nr;

	ret = rows_init(&w, df, o, err);
	if (!ret)
		ret = report_stream_open(df, &rs, err);
	/* a row is one record: nothing reads ahead, the records refused can go unread */
	refused = ret ? NULL : report_filter_refused_events(filter, &nr);
	if (refused)
		report_stream_skip_events(rs, refused, nr);
	if (!ret && w.csv && !w.json) {
		report_csv_header(w.csv, &w.line);
		strbuf_addch(&w.line, '\n');
		fwrite_unlocked(w.line.buf, 1, w.line.len, out);
	}
	while (!ret && (ret = report_stream_next(rs, &ev, err)) > 0)
		ret = report_filter_keep(filter, &ev) ? put_row(&w, &ev, out) : 0;
	report_stream_close(rs);
	rows_release(&w);
	return ret;
}
