// SPDX-License-Identifier: GPL-2.0-only
/*
 * Wakeup latency: from sched_waking (or sched_wakeup) of a task to the sched_switch that puts
 * it on a CPU. The first wakeup since the task last ran counts: sched_waking and sched_wakeup
 * of one wakeup give one latency, from the earlier. A task seen leaving a CPU was running, so
 * a wakeup before that (of a task that had not slept yet) is dropped rather than matched with
 * a much later switch-in.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "ktrace/sched_fields.h"
#include "hist.h"

struct hist_wakeup {
	struct hist_source src;
	struct sched_switch_fields sw;
	struct sched_wakeup_fields wk[2];	/* sched_waking, sched_wakeup */
	struct hist_pending pending;
	bool by_task;
};

static long long field_num(struct tep_format_field *f, struct tep_record *rec)
{
	unsigned long long v = 0;

	tep_read_number_field(f, rec->data, &v);
	return (long long)v;
}

static void woken(struct hist_wakeup *w, struct tep_record *rec, struct tep_format_field *pid)
{
	struct hist_start *st = hist_pending_get(&w->pending, (int)field_num(pid, rec));

	if (st && !st->set) {
		st->set = true;
		st->ts = rec->ts;
	}
}

/* "comm-pid", as report names a task */
static int switched_in(struct hist_wakeup *w, struct tep_record *rec)
{
	const struct tep_format_field *comm = w->sw.next_comm;
	int pid = (int)field_num(w->sw.next_pid, rec);
	struct hist_start *st = hist_pending_get(&w->pending, pid);
	char name[64];

	if (!st)
		return -ENOMEM;
	if (!st->set || rec->ts < st->ts)
		return 0;
	st->set = false;
	if (!w->by_task)
		return hist_set_add(&w->src.set, "all", rec->ts - st->ts);
	snprintf(name, sizeof(name), "%.*s-%d", (int)strnlen((char *)rec->data + comm->offset,
		 comm->size), (char *)rec->data + comm->offset, pid);
	return hist_set_add(&w->src.set, name, rec->ts - st->ts);
}

static int wakeup_event(struct hist_source *src, struct tep_record *rec)
{
	struct hist_wakeup *w = (struct hist_wakeup *)src;
	int type = tep_data_type(w->sw.next_pid->event->tep, rec);
	struct hist_start *st;
	int i;

	for (i = 0; i < 2; i++)
		if (type == w->wk[i].id)
			woken(w, rec, w->wk[i].pid);
	if (type != w->sw.id)
		return 0;
	st = hist_pending_get(&w->pending, (int)field_num(w->sw.prev_pid, rec));
	if (!st)
		return -ENOMEM;
	st->set = false;
	return switched_in(w, rec);
}

static void wakeup_free(struct hist_source *src)
{
	struct hist_wakeup *w = (struct hist_wakeup *)src;

	hist_pending_release(&w->pending);
	hist_set_release(&w->src.set);
	free(w);
}

int hist_wakeup_new(const struct hist_source_conf *c, struct hist_source **out,
		    struct strbuf *err)
{
	struct hist_wakeup *w = calloc(1, sizeof(*w));

	if (!w)
		return -ENOMEM;
	sched_switch_fields_find(c->tep, &w->sw);
	sched_wakeup_fields_find(c->tep, "sched_waking", &w->wk[0]);
	sched_wakeup_fields_find(c->tep, "sched_wakeup", &w->wk[1]);
	if (w->sw.id < 0 || (w->wk[0].id < 0 && w->wk[1].id < 0)) {
		strbuf_addstr(err, "the file has no sched_switch or no sched_waking/sched_wakeup "
			      "event (record with -e sched)");
		free(w);
		return -EINVAL;
	}
	w->by_task = c->by_task;
	w->src.event = wakeup_event;
	w->src.free = wakeup_free;
	*out = &w->src;
	return 0;
}
