// SPDX-License-Identifier: GPL-2.0-only
/*
 * One event line, as trace-cmd 3.1.6 prints it:
 *
 *   [instance prefix][CPU:N [N EVENTS DROPPED]\n]COMM-PID [CPU] TIME: NAME: PADDING INFO
 *
 * or, with --layout 3.4, as trace-cmd 3.4 does: the latency flags after [CPU] on every line
 * (" d..2."; "-0x<flags>" with -R), -R's function pointers with their address, and the
 * sched_switch states of the kernel's table (libtraceevent 1.8's printing, done here).
 *
 * The line is built in one strbuf that lives as long as the printer (no allocation per
 * event), then written with one fwrite into a fully buffered stdout. libtraceevent's output
 * (event text it formats) goes through a scratch trace_seq, also reused.
 */
#include <errno.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>
#include <trace-seq.h>

#include "ktrace/dat.h"
#include "ktrace/report.h"
#include "report_print.h"
#include "report_stream.h"

/*
 * The task column looks the comm of every event up (a bsearch in libtraceevent), so answers
 * are kept by pid. Only names the tep has for the pid are kept: tep_register_comm() (plugins,
 * report_sched) never renames a pid it has and never moves its string, so a kept name stays
 * right; "<...>" is not kept, as a later registration may name that pid. Only
 * tep_override_comm() renames (and frees the old string): whoever calls it must call
 * report_printer_forget_comms().
 */
#define COMM_SLOTS 256
#define OUT_BATCH (64 * 1024)

struct comm_slot {
	int pid;
	const char *comm;	/* NULL: nothing kept */
	size_t len;
};

struct report_printer {
	struct tep_handle *tep;
	struct dat_file *df;
	const struct report_opts *o;
	struct report_clock clock;
	struct report_stream *stream;
	struct report_fgraph *fgraph;
	int fgraph_entry_id;
	struct report_sched *sched;	/* NULL with -N: the plugin is not there */
	struct report_wakeup *wakeup;	/* -w */
	struct report_function *function; /* NULL unless plugin_function runs with its defaults */
	struct report_cfmt *cfmt;	/* events by id, compiled print formats */
	struct comm_slot comms[COMM_SLOTS];	/* tep_data_comm_from_pid() answers, by pid */
	struct strbuf line;		/* lines not written yet, then the one being built */
	FILE *out;			/* where they go */
	struct trace_seq seq;		/* scratch for what libtraceevent prints */
	bool prefix;
	int prefix_width;
	const char *top_name;		/* several files: the top buffer's prefix, else NULL */
	unsigned long long last_ts;	/* --ts-diff */
	unsigned long long checked_ts;	/* --ts-check: the previous event's time */
	uint32_t page_size;		/* --boundary, --debug */
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
static int flag_events(struct tep_handle *tep, char **names, int flag, struct strbuf *err)
{
	struct tep_event **events;
	int i, j;

	if (!names)
		return 0;
	events = tep_list_events(tep, TEP_EVENT_SORT_ID);
	if (!events)
		return -ENOMEM;
	for (i = 0; names[i]; i++) {
		struct strbuf pat = STRBUF_INIT;
		regex_t re;

		strbuf_addf(&pat, "^%s$", names[i]);
		if (regcomp(&re, pat.buf, REG_ICASE | REG_NOSUB)) {
			strbuf_addf(err, "%s '%s': not a regular expression (trace-cmd: \"Can't "
				    "parse\")", flag == TEP_EVENT_FL_PRINTRAW ? "-r" : "-n", names[i]);
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

static int printer_create(struct tep_handle *tep, struct dat_file *df,
			  const struct report_printer_conf *conf, struct report_printer **out,
			  struct strbuf *err)
{
	const struct report_opts *o = conf->opts;
	struct report_printer *p = calloc(1, sizeof(*p));
	int ret;

	if (!p)
		return -ENOMEM;
	p->df = df;
	p->tep = tep;
	p->o = o;
	p->page_size = (uint32_t)tep_get_page_size(tep);
	p->clock = conf->clock;
	p->stream = conf->stream;
	p->prefix = conf->prefix;
	p->prefix_width = conf->prefix_width;
	p->top_name = conf->top_name;
	p->fgraph_entry_id = -1;
	trace_seq_init(&p->seq);
	ret = report_cfmt_new(p->tep, &p->cfmt);
	if (ret)
		goto fail;
	if (o->layout == REPORT_LAYOUT_34)
		report_cfmt_set_func_addr(p->cfmt);
	if (!o->no_plugins && !o->no_sys_plugins && conf->stream) {
		struct report_lookahead la = { peek_cb, consume_cb, conf->stream };

		ret = report_fgraph_register(p->tep, &la, &p->fgraph);
		if (ret)
			goto fail;
		if (conf->first && conf->first->fgraph)
			report_fgraph_share_options(p->fgraph, conf->first->fgraph);
		p->fgraph_entry_id = report_fgraph_entry_id(p->fgraph);
	}
	if (!o->no_plugins) {
		ret = report_sched_new(p->tep, &p->sched);
		if (ret)
			goto fail;
		if (o->layout == REPORT_LAYOUT_34)
			report_sched_use_kernel_states(p->sched);
	}
	if (!o->no_plugins && !o->nr_plugin_options) {
		ret = report_function_new(p->tep, p->clock.unit, &p->function);
		if (ret)
			goto fail;
	}
	if (o->wakeup) {
		if (df)
			dat_file_load_kallsyms(df);
		ret = report_wakeup_new(p->tep, &p->wakeup);
		if (ret)
			goto fail;
	}
	ret = flag_events(p->tep, o->nohandler_events, TEP_EVENT_FL_NOHANDLE, err);
	if (!ret)
		ret = flag_events(p->tep, o->raw_events, TEP_EVENT_FL_PRINTRAW, err);
	if (ret)
		goto fail;
	*out = p;
	return 0;
fail:
	report_printer_free(p);
	return ret;
}

int report_printer_new(struct dat_file *df, const struct report_printer_conf *conf,
		       struct report_printer **out, struct strbuf *err)
{
	return printer_create(dat_file_tep(df), df, conf, out, err);
}

int report_printer_new_live(struct tep_handle *tep, const struct report_printer_conf *conf,
			    struct report_printer **out, struct strbuf *err)
{
	return printer_create(tep, NULL, conf, out, err);
}

/* With several files trace-cmd shows base names: the file's, or an instance's own. */
static const char *prefix_name(const struct report_printer *p, int buffer)
{
	const char *name = buffer ? dat_file_buffer(p->df, buffer)->name : p->top_name;
	const char *slash;

	if (!p->top_name || !name)
		return name;
	slash = strrchr(name, '/');
	return slash ? slash + 1 : name;
}

static void put_prefix(struct report_printer *p, int buffer)
{
	const char *name;

	if (!p->prefix || !p->df)
		return;
	name = prefix_name(p, buffer);
	if (name && *name)
		strbuf_addf(&p->line, "%*s: ", p->prefix_width, name);
	else
		strbuf_addf(&p->line, "%*s  ", p->prefix_width, "");
}

/* Appends what libtraceevent wrote into the scratch trace_seq. */
static void take_seq(struct report_printer *p)
{
	strbuf_add(&p->line, p->seq.buffer, p->seq.len);
	trace_seq_reset(&p->seq);
}

/* %*s (right-aligned), or %*.*s when `max` is set */
static char *put_str(char *out, const char *str, size_t len, int width, int max)
{
	if (max && len > (size_t)max)
		len = (size_t)max;
	while (width-- > (int)len)
		*out++ = ' ';
	memcpy(out, str, len);
	return out + len;
}

void report_printer_forget_comms(struct report_printer *p)
{
	memset(p->comms, 0, sizeof(p->comms));
}

/* The comm of pid and its length */
static const char *find_comm(struct report_printer *p, int pid, size_t *len)
{
	struct comm_slot *c = &p->comms[(unsigned int)pid % COMM_SLOTS];
	const char *comm;

	if (c->comm && c->pid == pid) {
		*len = c->len;
		return c->comm;
	}
	comm = tep_data_comm_from_pid(p->tep, pid);
	*len = strlen(comm);
	if (strcmp(comm, "<...>"))
		*c = (struct comm_slot){ pid, comm, *len };
	return comm;
}

/* Room for n more bytes and the NUL: the common case without a call */
static bool room(struct strbuf *sb, size_t n)
{
	return sb->len + n < sb->alloc || !strbuf_grow(sb, n);
}

/* "%16s-%-5d [%03d]", or "%8.8s-%-5d %3d" in latency format */
static void put_task(struct report_printer *p, struct tep_record *r)
{
	int pid = report_cfmt_pid(p->cfmt, r);
	size_t len;
	const char *comm = find_comm(p, pid, &len);
	char *o;

	if (!room(&p->line, len + 64))
		return;
	o = p->line.buf + p->line.len;
	o = put_str(o, comm, len, p->o->latency ? 8 : 16, p->o->latency ? 8 : 0);
	*o++ = '-';
	o = report_put_int(o, pid, 5, ' ', true);
	*o++ = ' ';
	if (p->o->latency) {
		o = report_put_int(o, r->cpu, 3, ' ', false);
	} else {
		*o++ = '[';
		o = report_put_int(o, r->cpu, 3, '0', false);
		*o++ = ']';
	}
	p->line.len = (size_t)(o - p->line.buf);
	*o = '\0';
}

static void put_ts_diff(struct report_printer *p, unsigned long long ts)
{
	char buf[50] = "";

	if (p->clock.use_trace_clock && !p->o->nsec)
		ts = (ts + 500) / 1000;
	if (p->last_ts)
		snprintf(buf, sizeof(buf), "(+%lld)", (long long)(ts - p->last_ts));
	p->last_ts = ts;
	strbuf_addf(&p->line, " %-8s", buf);
}

/* " NAME: " then blanks up to a 20-character name column */
static void put_event_name(struct report_printer *p, struct tep_event *event)
{
	static const char blanks[] = "                    ";
	const char *name = event ? event->name : "(NULL)";
	size_t len = strlen(name);
	char *o;

	if (!room(&p->line, len + 23))
		return;
	o = p->line.buf + p->line.len;
	*o++ = ' ';
	memcpy(o, name, len);
	o += len;
	*o++ = ':';
	*o++ = ' ';
	if (len < 20) {
		memcpy(o, blanks, 20 - len);
		o += 20 - len;
	}
	*o = '\0';
	p->line.len = (size_t)(o - p->line.buf);
}

/* The timestamp column (report_time_format() writes at most 48 bytes) */
static void put_time(struct report_printer *p, unsigned long long ts)
{
	if (room(&p->line, 48))
		p->line.len += (size_t)report_time_format(p->line.buf + p->line.len, ts,
							  p->clock.unit, true);
}

/* Before anything but a compiled format or the sched printer: kernel symbols, by address or name */
static void need_symbols(struct report_printer *p)
{
	if (p->df)
		dat_file_load_kallsyms(p->df);
}

/*
 * The event's text, as libtraceevent's TEP_PRINT_INFO gives it, with the hot paths taken
 * directly: compiled formats and fields, the sched events, and events whose handler prints
 * everything. flex: where the event's flexible array starts (report_cfmt_event()).
 */
static void put_info(struct report_printer *p, struct tep_record *r, struct tep_event *event,
		     unsigned int flex)
{
	struct trace_seq *s = &p->seq;
	bool raw = p->o->raw || (event && (event->flags & TEP_EVENT_FL_PRINTRAW));
	int flags;

	if (flex && (r->size < 0 || (unsigned int)r->size < flex)) {
		strbuf_addf(&p->line, "[damaged record: %d bytes, its format needs %u]", r->size,
			    flex);
		return;
	}
	if (event && (raw || !event->handler || (event->flags & TEP_EVENT_FL_NOHANDLE)) &&
	    report_cfmt_print(p->cfmt, &p->line, r, event, raw))
		return;
	if (!event || raw || !event->handler || (event->flags & TEP_EVENT_FL_NOHANDLE)) {
		need_symbols(p);
		tep_print_event(p->tep, s, r, "%s", p->o->raw ? TEP_PRINT_INFO_RAW : TEP_PRINT_INFO);
		take_seq(p);
		return;
	}
	if (p->sched && report_sched_print(p->sched, &p->line, r, event->id))
		return;
	need_symbols(p);
	if (report_fgraph_print(p->fgraph, &p->line, r, event->id))
		return;
	if (report_function_print(p->function, &p->line, r, event->id))
		return;
	if (event->handler(s, r, event, event->context)) {
		/* the handler asked for the format's text after its own */
		flags = event->flags;
		event->flags |= TEP_EVENT_FL_NOHANDLE;
		tep_print_event(p->tep, s, r, "%s", TEP_PRINT_INFO);
		event->flags = flags;
	}
	take_seq(p);
}

static void put_line(struct report_printer *p, struct tep_record *r, struct tep_event *event,
		     unsigned int flex)
{
	if (event)
		put_task(p, r);
	else
		strbuf_addstr(&p->line, "[UNKNOWN EVENT]");
	if (p->o->latency || p->o->layout == REPORT_LAYOUT_34) {
		/* 3.4 prints the column on every line, after a blank when not in -l's layout */
		if (p->o->raw)
			strbuf_addf(&p->line, "-0x%x", tep_data_flags(p->tep, r));
		else
			tep_print_event(p->tep, &p->seq, r, p->o->latency ? "%s" : " %s",
					TEP_PRINT_LATENCY);
		take_seq(p);
	}
	if (event)
		put_time(p, r->ts);
	else
		strbuf_addstr(&p->line, "[UNKNOWN EVENT]");
	if (p->o->ts_diff)
		put_ts_diff(p, r->ts);
	put_event_name(p, event);
	put_info(p, r, event, flex);
}

/* Writes the finished lines; the one being built, from `keep` on, stays. */
static void flush_lines(struct report_printer *p, size_t keep)
{
	struct strbuf *line = &p->line;

	if (!p->out || !keep)
		return;
	fwrite_unlocked(line->buf, 1, keep, p->out);
	memmove(line->buf, line->buf + keep, line->len - keep);
	line->len -= keep;
	line->buf[line->len] = '\0';
}

int report_printer_lookahead_event(const struct report_printer *p)
{
	return p->fgraph_entry_id;
}

int report_print_event(struct report_printer *p, const struct report_event *ev, FILE *out)
{
	struct strbuf *line = &p->line;
	struct tep_record *src = ev->record;
	struct tep_event *event;
	struct tep_record r;
	unsigned int flex;
	size_t start;
	char *nul;

	if (p->fgraph_entry_id >= 0 && report_cfmt_type(p->cfmt, src) == p->fgraph_entry_id) {
		/* the look-ahead for the matching exit must not recycle this record */
		src = report_stream_pin(p->stream);
		if (!src)
			return -ENOMEM;
	}
	r = *src;
	event = report_cfmt_event(p->cfmt, &r, &flex);
	if (p->o->ts_check)
		report_ts_check(&p->checked_ts, &r, p->o->quiet);

	/* lines gather in p->line and go out in large writes */
	if (p->out != out) {
		flush_lines(p, line->len);
		p->out = out;
	}
	start = line->len;
	put_prefix(p, ev->buffer);
	if (r.missed_events > 0)
		strbuf_addf(line, "CPU:%d [%lld EVENTS DROPPED]\n", r.cpu, r.missed_events);
	else if (r.missed_events < 0)
		strbuf_addf(line, "CPU:%d [EVENTS DROPPED]\n", r.cpu);
	if (p->o->boundary)
		report_debug_boundary(line, &r, p->page_size, p->o->debug);
	put_line(p, &r, event, flex);

	if (line->len > start && line->buf[line->len - 1] == '\n')
		line->len--;
	if (p->o->debug)
		report_debug_record(line, &r, p->page_size);
	/* trace-cmd prints the line with "%.*s": text after a NUL byte is not shown */
	nul = memchr(line->buf + start, '\0', line->len - start);
	if (nul)
		line->len = (size_t)(nul - line->buf);
	if (p->wakeup) {
		flush_lines(p, line->len);
		report_wakeup_event(p->wakeup, &r, out);
	}
	strbuf_addch(line, '\n');
	if (line->len >= OUT_BATCH)
		flush_lines(p, line->len);
	return 0;
}

void report_printer_flush(struct report_printer *p)
{
	flush_lines(p, p->line.len);
}

void report_printer_switch(struct report_printer *from, struct report_printer *to)
{
	flush_lines(from, from->line.len);
	to->last_ts = from->last_ts;
	to->checked_ts = from->checked_ts;
}

void report_printer_finish(struct report_printer *p, FILE *out)
{
	flush_lines(p, p->line.len);
	report_wakeup_finish(p->wakeup, out);
}

void report_printer_free(struct report_printer *p)
{
	if (!p)
		return;
	report_fgraph_unregister(p->fgraph);
	report_sched_free(p->sched);
	report_wakeup_free(p->wakeup);
	report_function_free(p->function);
	report_cfmt_free(p->cfmt);
	/* after an error: what was printed so far still goes out, as with stdio */
	flush_lines(p, p->line.len);
	trace_seq_destroy(&p->seq);
	strbuf_release(&p->line);
	free(p);
}
