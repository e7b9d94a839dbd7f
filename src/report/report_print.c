// SPDX-License-Identifier: GPL-2.0-only
/*
 * One event line, as trace-cmd 3.1.6 prints it:
 *
 *   [instance prefix][CPU:N [N EVENTS DROPPED]\n]COMM-PID [CPU] TIME: NAME: PADDING INFO
 *
 * The whole line is built in one trace_seq that lives as long as the printer (no allocation
 * per event), then written with one fwrite into a fully buffered stdout.
 */
#include <errno.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>
#include <trace-seq.h>

#include "ktrace/dat.h"
#include "ktrace/report.h"

struct report_printer {
	struct tep_handle *tep;
	struct dat_file *df;
	const struct report_opts *o;
	struct report_clock clock;
	struct report_stream *stream;
	struct report_fgraph *fgraph;
	int fgraph_entry_id;
	struct trace_seq seq;
	bool prefix;
	int prefix_width;
	unsigned long long last_ts;	/* --ts-diff */
};

static struct tep_record *peek_cb(void *priv)
{
	return report_stream_peek(priv);
}

static void consume_cb(void *priv)
{
	report_stream_consume_peeked(priv);
}

/* -r / -n: trace-cmd matches "^NAME$", case-insensitively, against event or system names. */
static int flag_events(struct tep_handle *tep, char **names, int nr, int flag,
		       struct strbuf *err)
{
	struct tep_event **events;
	int i, j;

	if (!nr)
		return 0;
	events = tep_list_events(tep, TEP_EVENT_SORT_ID);
	if (!events)
		return -ENOMEM;
	for (i = 0; i < nr; i++) {
		struct strbuf pat = STRBUF_INIT;
		regex_t re;

		strbuf_addf(&pat, "^%s$", names[i]);
		if (regcomp(&re, pat.buf, REG_ICASE | REG_NOSUB)) {
			strbuf_addf(err, "Can't parse '%s'", names[i]);
			strbuf_release(&pat);
			return -EINVAL;
		}
		strbuf_release(&pat);
		for (j = 0; events[j]; j++)
			if (!regexec(&re, events[j]->name, 0, NULL, 0) ||
			    !regexec(&re, events[j]->system, 0, NULL, 0))
				events[j]->flags |= flag;
		regfree(&re);
	}
	return 0;
}

int report_printer_new(struct dat_file *df, const struct report_printer_conf *conf,
		       struct report_printer **out, struct strbuf *err)
{
	const struct report_opts *o = conf->opts;
	struct report_printer *p = calloc(1, sizeof(*p));
	int ret;

	if (!p)
		return -ENOMEM;
	p->df = df;
	p->tep = dat_file_tep(df);
	p->o = o;
	p->clock = conf->clock;
	p->stream = conf->stream;
	p->prefix = conf->prefix;
	p->prefix_width = conf->prefix_width;
	p->fgraph_entry_id = -1;
	trace_seq_init(&p->seq);
	if (!o->no_plugins && !o->no_sys_plugins && conf->stream) {
		struct report_lookahead la = { peek_cb, consume_cb, conf->stream };

		ret = report_fgraph_register(p->tep, &la, &p->fgraph);
		if (ret)
			goto fail;
		p->fgraph_entry_id = report_fgraph_entry_id(p->fgraph);
	}
	ret = flag_events(p->tep, o->nohandler_events, o->nr_nohandler_events,
			  TEP_EVENT_FL_NOHANDLE, err);
	if (!ret)
		ret = flag_events(p->tep, o->raw_events, o->nr_raw_events, TEP_EVENT_FL_PRINTRAW,
				  err);
	if (ret)
		goto fail;
	*out = p;
	return 0;
fail:
	report_printer_free(p);
	return ret;
}

static void put_prefix(struct report_printer *p, int buffer)
{
	const struct dat_buffer *b;

	if (!p->prefix)
		return;
	b = dat_file_buffer(p->df, buffer);
	if (buffer && b->name && *b->name)
		trace_seq_printf(&p->seq, "%*s: ", p->prefix_width, b->name);
	else
		trace_seq_printf(&p->seq, "%*s  ", p->prefix_width, "");
}

static void put_task(struct report_printer *p, struct tep_record *r)
{
	int pid = tep_data_pid(p->tep, r);
	const char *comm = tep_data_comm_from_pid(p->tep, pid);

	if (p->o->latency)
		trace_seq_printf(&p->seq, "%8.8s-%-5d %3d", comm, pid, r->cpu);
	else
		trace_seq_printf(&p->seq, "%16s-%-5d [%03d]", comm, pid, r->cpu);
}

static void put_ts_diff(struct report_printer *p, unsigned long long ts)
{
	char buf[50] = "";

	if (p->clock.use_trace_clock && !p->o->nsec)
		ts = (ts + 500) / 1000;
	if (p->last_ts)
		snprintf(buf, sizeof(buf), "(+%lld)", (long long)(ts - p->last_ts));
	p->last_ts = ts;
	trace_seq_printf(&p->seq, " %-8s", buf);
}

static void put_event_name(struct report_printer *p, struct tep_event *event)
{
	static const char spaces[] = "                    ";
	const char *name = event ? event->name : "(NULL)";
	int len = (int)strlen(name);

	trace_seq_printf(&p->seq, " %s: ", name);
	if (len < 20)
		trace_seq_printf(&p->seq, "%.*s", 20 - len, spaces);
}

static void put_line(struct report_printer *p, struct tep_record *r, struct tep_event *event)
{
	struct trace_seq *s = &p->seq;
	char tbuf[48];

	if (event)
		put_task(p, r);
	else
		trace_seq_puts(s, "[UNKNOWN EVENT]");
	if (p->o->latency) {
		if (p->o->raw)
			trace_seq_printf(s, "-0x%x", tep_data_flags(p->tep, r));
		else
			tep_print_event(p->tep, s, r, "%s", TEP_PRINT_LATENCY);
	}
	if (event) {
		report_time_format(tbuf, r->ts, p->clock.unit, true);
		trace_seq_puts(s, tbuf);
	} else {
		trace_seq_puts(s, "[UNKNOWN EVENT]");
	}
	if (p->o->ts_diff)
		put_ts_diff(p, r->ts);
	put_event_name(p, event);
	tep_print_event(p->tep, s, r, "%s", p->o->raw ? TEP_PRINT_INFO_RAW : TEP_PRINT_INFO);
}

int report_print_event(struct report_printer *p, const struct report_event *ev, FILE *out)
{
	struct trace_seq *s = &p->seq;
	struct tep_record *src = ev->record;
	struct tep_event *event;
	struct tep_record r;
	size_t len;

	if (p->fgraph_entry_id >= 0 && tep_data_type(p->tep, src) == p->fgraph_entry_id) {
		/* the look-ahead for the matching exit must not recycle this record */
		src = report_stream_pin(p->stream);
		if (!src)
			return -ENOMEM;
	}
	r = *src;
	event = tep_find_event_by_record(p->tep, &r);

	trace_seq_reset(s);
	put_prefix(p, ev->buffer);
	if (r.missed_events > 0)
		trace_seq_printf(s, "CPU:%d [%lld EVENTS DROPPED]\n", r.cpu, r.missed_events);
	else if (r.missed_events < 0)
		trace_seq_printf(s, "CPU:%d [EVENTS DROPPED]\n", r.cpu);
	put_line(p, &r, event);

	if (s->len && s->buffer[s->len - 1] == '\n')
		s->len--;
	/* trace-cmd prints the line with "%.*s": text after a NUL byte is not shown */
	len = strnlen(s->buffer, s->len);
	fwrite(s->buffer, 1, len, out);
	fputc('\n', out);
	return 0;
}

void report_printer_finish(struct report_printer *p, FILE *out)
{
	(void)p;
	(void)out;
}

void report_printer_free(struct report_printer *p)
{
	if (!p)
		return;
	report_fgraph_unregister(p->fgraph);
	trace_seq_destroy(&p->seq);
	free(p);
}
