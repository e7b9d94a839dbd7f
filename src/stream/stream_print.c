// SPDX-License-Identifier: GPL-2.0-only
/*
 * report's event line without a dat_file: "COMM-PID [CPU] TIME: NAME: INFO". report_printer
 * needs a dat_file today; until it takes a bare tep handle (asked for in the notes), this
 * reproduces its default line with report's own pieces (time format, sched fast path).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>
#include <trace-seq.h>

#include "stream_print.h"

struct stream_printer {
	struct tep_handle *tep;
	enum report_time_unit unit;
	struct report_sched *sched;
	struct strbuf line;
	struct trace_seq seq;
};

int stream_printer_new(struct tep_handle *tep, enum report_time_unit unit,
		       struct stream_printer **out)
{
	struct stream_printer *p = calloc(1, sizeof(*p));
	int ret;

	if (!p)
		return -ENOMEM;
	p->tep = tep;
	p->unit = unit;
	trace_seq_init(&p->seq);
	ret = report_sched_new(tep, &p->sched);
	if (ret) {
		stream_printer_free(p);
		return ret;
	}
	*out = p;
	return 0;
}

static void put_task(struct stream_printer *p, struct tep_record *r)
{
	int pid = tep_data_pid(p->tep, r);

	strbuf_addf(&p->line, "%16s-%-5d [%03d]", tep_data_comm_from_pid(p->tep, pid), pid,
		    r->cpu);
}

static void put_info(struct stream_printer *p, struct tep_record *r, struct tep_event *event)
{
	/* report's fast path stands in for plugin_sched_switch's handlers, when they are there */
	if (event && event->handler && p->sched &&
	    report_sched_print(p->sched, &p->line, r, event->id))
		return;
	tep_print_event(p->tep, &p->seq, r, "%s", TEP_PRINT_INFO);
	strbuf_add(&p->line, p->seq.buffer, p->seq.len);
	trace_seq_reset(&p->seq);
}

void stream_print(struct stream_printer *p, struct tep_record *r, FILE *out)
{
	struct tep_event *event = tep_find_event_by_record(p->tep, r);
	char tbuf[48];

	strbuf_reset(&p->line);
	if (r->missed_events > 0)
		strbuf_addf(&p->line, "CPU:%d [%lld EVENTS DROPPED]\n", r->cpu, r->missed_events);
	else if (r->missed_events < 0)
		strbuf_addf(&p->line, "CPU:%d [EVENTS DROPPED]\n", r->cpu);
	if (!event) {
		strbuf_addf(&p->line, "[UNKNOWN EVENT][UNKNOWN EVENT] (NULL): %14s", "");
	} else {
		put_task(p, r);
		strbuf_add(&p->line, tbuf, report_time_format(tbuf, r->ts, p->unit, true));
		strbuf_addf(&p->line, " %s: %*s", event->name,
			    strlen(event->name) < 20 ? (int)(20 - strlen(event->name)) : 0, "");
	}
	put_info(p, r, event);
	if (p->line.len && p->line.buf[p->line.len - 1] == '\n')
		p->line.len--;
	fwrite(p->line.buf, 1, strnlen(p->line.buf, p->line.len), out);
	fputc('\n', out);
}

void stream_printer_free(struct stream_printer *p)
{
	if (!p)
		return;
	report_sched_free(p->sched);
	trace_seq_destroy(&p->seq);
	strbuf_release(&p->line);
	free(p);
}
