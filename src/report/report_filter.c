// SPDX-License-Identifier: GPL-2.0-only
/*
 * Which records `report` prints, with trace-cmd 3.1.6's rules:
 *  - -F filters (and --pid/--comm, turned into one more -F) are libtraceevent filters. A record
 *    passes when any positive filter matches it (or there is none) and no -v filter matches it.
 *    A kernel_stack/user_stack record also passes when the previous record of its CPU was
 *    printed, so that stack traces follow the events they belong to.
 *  - They apply to every buffer. (trace-cmd 3.1.6 hands the top buffer's filter to the instance
 *    buffers and then crashes on their first record; filtering them is what it meant to do.)
 *  - Then --cpu (by trace-cmd's CPU index across buffers), then -I / -S (irq context flags).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "ktrace/report.h"
#include "report_filter_check.h"
#include "ktrace/strv.h"
#include "report_opts.h"

#define FLAG_HARDIRQ 0x08
#define FLAG_SOFTIRQ 0x10

struct report_filter {
	struct tep_handle *tep;
	struct tep_event_filter **pos;
	int nr_pos;
	struct tep_event_filter **neg;
	int nr_neg;
	const bool *cpu_set;
	int nr_cpu_set;
	bool no_irqs, no_softirqs;
	int kernel_stack_id, user_stack_id;
	bool *last_printed;	/* by CPU number */
	int nr_last_printed;
	bool *refused;		/* report_filter_refused_events(), by event id */
	int nr_refused;
	bool refused_done;
};

static int add_filter(struct report_filter *f, const char *flag, const char *expr, bool neg,
		      struct strbuf *err)
{
	struct tep_event_filter ***list = neg ? &f->neg : &f->pos;
	int *nr = neg ? &f->nr_neg : &f->nr_pos;
	struct tep_event_filter *tf, **grown;
	struct strbuf notes = STRBUF_INIT;
	int ret = report_filter_check(f->tep, flag, expr, err, &notes);
	const char *line, *nl;

	/* the notes (a field no event has, '~') say why a filter that works matches nothing */
	for (line = notes.buf; line && *line && (nl = strchr(line, '\n')); line = nl + 1)
		fprintf(stderr, "ktrace: %.*s\n", (int)(nl - line), line);
	strbuf_release(&notes);
	if (ret)
		return ret;
	tf = tep_filter_alloc(f->tep);
	if (!tf)
		return -ENOMEM;
	if (tep_filter_add_filter_str(tf, expr) < 0) {
		tep_filter_free(tf);
		strbuf_addf(err, "%s '%s': Failed to create event filter", flag, expr);
		return -EBADMSG;
	}
	grown = realloc(*list, (*nr + 1) * sizeof(**list));
	if (!grown) {
		tep_filter_free(tf);
		return -ENOMEM;
	}
	grown[(*nr)++] = tf;
	*list = grown;
	return 0;
}

static void add_pid_terms(struct strbuf *sb, const char *pid)
{
	strbuf_addstr(sb, sb->len ? "||" : ".*:");
	strbuf_addf(sb, "(common_pid==%s)||(pid==%s)||(next_pid==%s)", pid, pid, pid);
}

/* --pid and --comm become one positive filter on the pid fields, as trace-cmd builds it. */
static int add_pid_filter(struct report_filter *f, const struct report_opts *o,
			  struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT;
	char num[24];
	int i, ret = 0;

	for (i = strv_len(o->comms) - 1; i >= 0; i--) {
		struct tep_cmdline *cl = tep_data_pid_from_comm(f->tep, o->comms[i], NULL);

		for (; cl; cl = tep_data_pid_from_comm(f->tep, o->comms[i], cl)) {
			snprintf(num, sizeof(num), "%d", tep_cmdline_pid(f->tep, cl));
			add_pid_terms(&sb, num);
		}
	}
	for (i = strv_len(o->pids) - 1; i >= 0; i--)
		add_pid_terms(&sb, o->pids[i]);
	if (sb.len)
		ret = add_filter(f, o->pids ? "--pid" : "--comm", sb.buf, false, err);
	strbuf_release(&sb);
	return ret;
}

static int event_id(struct tep_handle *tep, const char *name)
{
	struct tep_event *e = tep_find_event_by_name(tep, "ftrace", name);

	return e ? e->id : -1;
}

int report_filter_new(struct tep_handle *tep, const struct report_opts *o,
		      struct report_filter **out, struct strbuf *err)
{
	struct report_filter *f = calloc(1, sizeof(*f));
	int i, ret = 0;

	if (!f)
		return -ENOMEM;
	f->tep = tep;
	f->cpu_set = o->cpu_set;
	f->nr_cpu_set = o->nr_cpu_set;
	f->no_irqs = o->no_irqs;
	f->no_softirqs = o->no_softirqs;
	f->kernel_stack_id = event_id(tep, "kernel_stack");
	f->user_stack_id = event_id(tep, "user_stack");
	for (i = 0; i < o->nr_filters && !ret; i++)
		ret = add_filter(f, o->filter_flag ? o->filter_flag : "-F", o->filters[i].expr,
				 o->filters[i].neg, err);
	if (!ret)
		ret = add_pid_filter(f, o, err);
	if (ret) {
		report_filter_free(f);
		return ret;
	}
	*out = f;
	return 0;
}

bool report_opts_has_filters(const struct report_opts *o)
{
	return o->nr_filters || o->pids || o->comms || o->cpu_set || o->no_irqs || o->no_softirqs;
}

bool report_filter_has_event_filters(const struct report_filter *f)
{
	return f->nr_pos || f->nr_neg;
}

static bool any_match(struct tep_event_filter **list, int nr, struct tep_record *rec)
{
	int i;

	for (i = 0; i < nr; i++) {
		enum tep_errno r = tep_filter_match(list[i], rec);

		if (r == TEP_ERRNO__NO_FILTER || r == TEP_ERRNO__FILTER_MATCH)
			return true;
	}
	return false;
}

static bool *last_printed_slot(struct report_filter *f, int cpu)
{
	if (cpu < 0)
		return NULL;
	if (cpu >= f->nr_last_printed) {
		bool *p = realloc(f->last_printed, (cpu + 1) * sizeof(*p));

		if (!p)
			return NULL;
		memset(p + f->nr_last_printed, 0, (cpu + 1 - f->nr_last_printed) * sizeof(*p));
		f->last_printed = p;
		f->nr_last_printed = cpu + 1;
	}
	return &f->last_printed[cpu];
}

static bool is_stack_trace(struct report_filter *f, struct tep_record *rec)
{
	int id;

	if (f->kernel_stack_id < 0 && f->user_stack_id < 0)
		return false;
	id = tep_data_type(f->tep, rec);
	return id == f->kernel_stack_id || id == f->user_stack_id;
}

static bool event_filters_pass(struct report_filter *f, struct tep_record *rec)
{
	bool *last = last_printed_slot(f, rec->cpu);
	bool dropped;

	if (f->nr_pos && !any_match(f->pos, f->nr_pos, rec)) {
		if (!is_stack_trace(f, rec) || !last || !*last)
			return false;
	}
	dropped = any_match(f->neg, f->nr_neg, rec);
	if (last)
		*last = !dropped;
	return !dropped;
}

bool report_filter_keep(struct report_filter *f, const struct report_event *ev)
{
	if ((f->nr_pos || f->nr_neg) && !event_filters_pass(f, ev->record))
		return false;
	if (f->cpu_set) {
		if (ev->cpu_slot < 0 || ev->cpu_slot >= f->nr_cpu_set || !f->cpu_set[ev->cpu_slot])
			return false;
	}
	if (f->no_irqs || f->no_softirqs) {
		int flags = tep_data_flags(f->tep, ev->record);

		if (f->no_irqs && (flags & FLAG_HARDIRQ))
			return false;
		if (f->no_softirqs && (flags & FLAG_SOFTIRQ))
			return false;
	}
	return true;
}

/* Whether no positive filter names event id: tep_filter_match() then says FILTER_NOT_FOUND. */
static bool named_by_none(const struct report_filter *f, int id)
{
	int i;

	for (i = 0; i < f->nr_pos; i++)
		if (!f->pos[i]->filters || tep_event_filtered(f->pos[i], id))
			return false;
	return true;
}

static void build_refused(struct report_filter *f)
{
	int i, n = tep_get_events_count(f->tep), max_id = -1;
	bool any = false;

	for (i = 0; i < n; i++)
		if (tep_get_event(f->tep, i)->id > max_id)
			max_id = tep_get_event(f->tep, i)->id;
	if (max_id < 0 || !f->nr_pos)
		return;
	f->refused = calloc(max_id + 1, sizeof(*f->refused));
	if (!f->refused)
		return;	/* only a shortcut: every record is then read */
	for (i = 0; i < n; i++) {
		int id = tep_get_event(f->tep, i)->id;

		/* a stack trace passes after a printed record, whatever the filters */
		if (id < 0 || id == f->kernel_stack_id || id == f->user_stack_id)
			continue;
		f->refused[id] = named_by_none(f, id);
		any |= f->refused[id];
	}
	f->nr_refused = max_id + 1;
	if (!any) {
		free(f->refused);
		f->refused = NULL;
		f->nr_refused = 0;
	}
}

const bool *report_filter_refused_events(struct report_filter *f, int *nr)
{
	if (!f->refused_done) {
		build_refused(f);
		f->refused_done = true;
	}
	*nr = f->nr_refused;
	return f->refused;
}

void report_filter_free(struct report_filter *f)
{
	int i;

	if (!f)
		return;
	for (i = 0; i < f->nr_pos; i++)
		tep_filter_free(f->pos[i]);
	for (i = 0; i < f->nr_neg; i++)
		tep_filter_free(f->neg[i]);
	free(f->pos);
	free(f->neg);
	free(f->last_printed);
	free(f->refused);
	free(f);
}
