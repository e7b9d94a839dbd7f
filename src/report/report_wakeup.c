// SPDX-License-Identifier: GPL-2.0-only
/*
 * report -w: how long woken tasks waited for a CPU, as trace-cmd 3.1.6 computes it. A
 * successful sched_wakeup(_new) of a pid starts the clock; the next printed sched_switch to
 * that pid stops it, and its line gets " Latency: N.NNN usecs". At the end, the average,
 * maximum and minimum, for all tasks and for real-time ones (next_prio below 100).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "ktrace/pid_table.h"
#include "ktrace/report.h"
#include "report_print.h"

struct wake_slot {
	struct pid_slot slot;
	unsigned long long start;
};

struct lat_stats {
	unsigned long long total, count;
	unsigned long long max, max_time;
	unsigned long long min, min_time;
};

struct report_wakeup {
	struct tep_handle *tep;
	int wakeup_id, wakeup_new_id, switch_id;
	struct tep_format_field *wakeup_pid, *wakeup_success;
	struct tep_format_field *new_pid, *new_success;
	struct tep_format_field *next_pid, *next_prio;
	struct pid_table woken;		/* struct wake_slot: woken, not yet switched in */
	struct lat_stats all, rt;
};

static unsigned long long field(struct tep_format_field *f, struct tep_record *r, bool *ok)
{
	unsigned long long v = 0;

	*ok = f && !tep_read_number_field(f, r->data, &v);
	return v;
}

static void note_wakeup(struct report_wakeup *w, unsigned int pid, unsigned long long ts)
{
	struct wake_slot *s = pid_table_get(&w->woken, (int)pid);

	/* a second wakeup before the switch restarts the clock */
	if (s)
		s->start = ts;
}

static void add_latency(struct lat_stats *st, unsigned long long lat, unsigned long long ts)
{
	if (lat > st->max) {
		st->max = lat;
		st->max_time = ts;
	}
	if (lat < st->min) {
		st->min = lat;
		st->min_time = ts;
	}
	st->total += lat;
	st->count++;
}

static void note_switch(struct report_wakeup *w, unsigned int pid, bool rt,
			unsigned long long ts, FILE *out)
{
	struct wake_slot *s = pid_table_find(&w->woken, (int)pid);
	unsigned long long lat;

	if (!s)
		return;
	lat = ts - s->start;
	add_latency(&w->all, lat, ts);
	if (rt)
		add_latency(&w->rt, lat, ts);
	fprintf(out, " Latency: %llu.%03llu usecs", lat / 1000, lat % 1000);
	pid_table_remove(&w->woken, s);
}

int report_wakeup_new(struct tep_handle *tep, struct report_wakeup **out)
{
	struct tep_event *wk = tep_find_event_by_name(tep, "sched", "sched_wakeup");
	struct tep_event *sw = tep_find_event_by_name(tep, "sched", "sched_switch");
	struct tep_event *wn = tep_find_event_by_name(tep, "sched", "sched_wakeup_new");
	struct report_wakeup *w;

	*out = NULL;
	/* trace-cmd silently drops -w when the file lacks what it needs */
	if (!wk || !sw || !tep_find_field(wk, "pid") || !tep_find_field(sw, "next_pid") ||
	    !tep_find_field(sw, "next_prio") || (wn && !tep_find_field(wn, "pid")))
		return 0;
	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	w->tep = tep;
	w->wakeup_id = wk->id;
	w->wakeup_pid = tep_find_field(wk, "pid");
	w->wakeup_success = tep_find_field(wk, "success");
	w->switch_id = sw->id;
	w->next_pid = tep_find_field(sw, "next_pid");
	w->next_prio = tep_find_field(sw, "next_prio");
	w->wakeup_new_id = wn ? wn->id : -1;
	w->new_pid = wn ? tep_find_field(wn, "pid") : NULL;
	w->new_success = wn ? tep_find_field(wn, "success") : NULL;
	w->all.min = w->rt.min = ~0ULL;
	pid_table_init(&w->woken, sizeof(struct wake_slot), 1024);
	*out = w;
	return 0;
}

static void wakeup_of(struct report_wakeup *w, struct tep_format_field *pid_f,
		      struct tep_format_field *success_f, struct tep_record *r)
{
	unsigned long long v;
	bool ok;

	v = field(success_f, r, &ok);
	if (ok && !v)
		return;
	v = field(pid_f, r, &ok);
	if (ok)
		note_wakeup(w, (unsigned int)v, r->ts);
}

void report_wakeup_event(struct report_wakeup *w, struct tep_record *r, FILE *out)
{
	int type = tep_data_type(w->tep, r);
	unsigned long long prio, pid;
	bool ok;

	if (type == w->wakeup_id) {
		wakeup_of(w, w->wakeup_pid, w->wakeup_success, r);
	} else if (type == w->wakeup_new_id) {
		wakeup_of(w, w->new_pid, w->new_success, r);
	} else if (type == w->switch_id) {
		prio = field(w->next_prio, r, &ok);
		if (!ok)
			return;
		pid = field(w->next_pid, r, &ok);
		if (ok)
			note_switch(w, (unsigned int)pid, prio <= 99, r->ts, out);
	}
}

static void print_stats(const struct lat_stats *st, FILE *out)
{
	unsigned long long avg = st->total / st->count;

	fprintf(out, "\nAverage wakeup latency: %llu.%03llu usecs\n", avg / 1000, avg % 1000);
	fprintf(out, "Maximum Latency: %llu.%03llu usecs at ", st->max / 1000, st->max % 1000);
	fprintf(out, "timestamp: %llu.%06llu\n", st->max_time / 1000000000ULL,
		((st->max_time + 500) % 1000000000ULL) / 1000);
	fprintf(out, "Minimum Latency: %llu.%03llu usecs at ", st->min / 1000, st->min % 1000);
	fprintf(out, "timestamp: %llu.%06llu\n\n", st->min_time / 1000000000ULL,
		((st->min_time + 500) % 1000000000ULL) / 1000);
}

void report_wakeup_finish(struct report_wakeup *w, FILE *out)
{
	if (!w || !w->all.count)
		return;
	print_stats(&w->all, out);
	if (w->rt.count) {
		fputs("RT task timings:\n", out);
		print_stats(&w->rt, out);
	}
}

void report_wakeup_free(struct report_wakeup *w)
{
	if (!w)
		return;
	pid_table_release(&w->woken);
	free(w);
}
