// SPDX-License-Identifier: GPL-2.0-only
/*
 * report --profile: reads every record of the file and turns the scheduler's events into the
 * state changes profile_acc.c keeps. Every event counts, whatever its task: a switch involves
 * two tasks, so --pid/--comm choose the tasks printed, not the events read, and the event
 * filters (-F, --cpu, -I, -S) are refused rather than silently skewing the figures.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "ktrace/dat.h"
#include "ktrace/report.h"
#include "ktrace/sched_fields.h"
#include "profile.h"

#define MAX_FRAMES 128

struct profile_reader {
	struct tep_handle *tep;
	struct profile *p;
	struct sched_switch_fields sw;
	/* sched_waking, sched_wakeup, sched_wakeup_new */
	struct sched_wakeup_fields wk[3];
	int stack_id;
	int fork_id;
	struct tep_format_field *child_pid, *child_comm;
	struct tep_format_field *stack_size, *stack_caller;
	unsigned long nr_switches;
	/* by event id: the scheduler's events but sched_switch (profile_running()) */
	bool *on_cpu;
	int nr_ids;
};

static unsigned long long num(struct tep_format_field *f, const struct tep_record *r)
{
	unsigned long long v = 0;

	tep_read_number_field(f, r->data, &v);
	return v;
}

/* A char-array field, which need not end in a NUL */
static const char *comm_of(struct tep_format_field *f, const struct tep_record *r, char *buf,
			   size_t len)
{
	size_t n = (size_t)f->size < len - 1 ? (size_t)f->size : len - 1;

	if ((size_t)f->offset + n > (size_t)r->size)
		return NULL;
	memcpy(buf, (const char *)r->data + f->offset, n);
	buf[n] = '\0';
	return buf;
}

static int read_switch(struct profile_reader *rd, const struct tep_record *r)
{
	char prev[32], next[32];

	return profile_switch(rd->p, (unsigned int)r->cpu, r->ts, (int)num(rd->sw.prev_pid, r),
			      comm_of(rd->sw.prev_comm, r, prev, sizeof(prev)),
			      num(rd->sw.prev_state, r), (int)num(rd->sw.next_pid, r),
			      comm_of(rd->sw.next_comm, r, next, sizeof(next)));
}

static int read_wakeup(struct profile_reader *rd, const struct sched_wakeup_fields *f,
		       const struct tep_record *r, bool new_task)
{
	char comm[32];

	/* before Linux 4.19 a wakeup of a task that was runnable already says success=0 */
	if (f->success && !num(f->success, r))
		return 0;
	return profile_wakeup(rd->p, r->ts, (int)num(f->pid, r),
			      comm_of(f->comm, r, comm, sizeof(comm)), new_task);
}

/* kernel_stack: `size` frames from `caller`; the record may hold fewer than it says. */
static int read_stack(struct profile_reader *rd, const struct tep_record *r)
{
	unsigned int elem = rd->stack_caller->elementsize ? rd->stack_caller->elementsize :
			    (unsigned int)tep_get_long_size(rd->tep);
	size_t nr = num(rd->stack_size, r), room, i;
	uint64_t ips[MAX_FRAMES];
	const char *at;

	if (elem != 4 && elem != 8)
		return 0;
	room = r->size > rd->stack_caller->offset ?
	       (size_t)(r->size - rd->stack_caller->offset) / elem : 0;
	if (nr > room)
		nr = room;
	if (nr > MAX_FRAMES)
		nr = MAX_FRAMES;
	at = (const char *)r->data + rd->stack_caller->offset;
	for (i = 0; i < nr; i++)
		ips[i] = tep_read_number(rd->tep, at + i * elem, (int)elem);
	/* the kernel ends a short stack with ULONG_MAX or 0 entries */
	while (nr && (ips[nr - 1] == 0 || ips[nr - 1] == (elem == 8 ? ~0ULL : 0xffffffffULL)))
		nr--;
	return profile_stack(rd->p, tep_data_pid(rd->tep, (struct tep_record *)r), ips, nr);
}

/* The child of a fork is runnable from here on: its wakeup_new may not be in the file. */
static int read_fork(struct profile_reader *rd, const struct tep_record *r)
{
	char comm[32];

	return profile_wakeup(rd->p, r->ts, (int)num(rd->child_pid, r),
			      comm_of(rd->child_comm, r, comm, sizeof(comm)), true);
}

static int read_record(struct profile_reader *rd, struct tep_record *r)
{
	int type = tep_data_type(rd->tep, r), i;

	profile_note_ts(rd->p, r->ts);
	if (type >= 0 && type < rd->nr_ids && rd->on_cpu[type]) {
		int ret = profile_running(rd->p, (unsigned int)r->cpu, r->ts,
					  tep_data_pid(rd->tep, r));

		if (ret)
			return ret;
	}
	if (type == rd->sw.id) {
		rd->nr_switches++;
		return read_switch(rd, r);
	}
	if (type == rd->stack_id)
		return read_stack(rd, r);
	if (type == rd->fork_id)
		return read_fork(rd, r);
	for (i = 0; i < 3; i++)
		if (type == rd->wk[i].id)
			return read_wakeup(rd, &rd->wk[i], r, i == 2);
	return 0;
}

/*
 * The scheduler's events are made with interrupts enabled, by the task running, or in an
 * interrupt on its CPU, never between sched_switch and the switch itself, where the task
 * leaving still makes events (function entries, tlb_flush, the switch's own stack).
 */
static int find_on_cpu_events(struct profile_reader *rd)
{
	struct tep_event **events = tep_list_events(rd->tep, TEP_EVENT_SORT_ID);
	int i, n = tep_get_events_count(rd->tep), max = -1;

	if (!events)
		return n ? -ENOMEM : 0;
	for (i = 0; i < n; i++)
		if (events[i]->id > max)
			max = events[i]->id;
	rd->on_cpu = calloc((size_t)max + 1, sizeof(*rd->on_cpu));
	if (!rd->on_cpu)
		return max < 0 ? 0 : -ENOMEM;
	rd->nr_ids = max + 1;
	for (i = 0; i < n; i++)
		rd->on_cpu[events[i]->id] = events[i]->system && events[i]->id != rd->sw.id &&
					    !strcmp(events[i]->system, "sched");
	return 0;
}

static int reader_init(struct profile_reader *rd, struct tep_handle *tep, struct strbuf *err)
{
	struct tep_event *stack = tep_find_event_by_name(tep, "ftrace", "kernel_stack");
	struct tep_event *fork = tep_find_event_by_name(tep, "sched", "sched_process_fork");

	rd->tep = tep;
	sched_switch_fields_find(tep, &rd->sw);
	if (rd->sw.id < 0) {
		strbuf_addstr(err, "--profile: the file has no usable sched_switch format "
			      "(record with -e sched)");
		return -EINVAL;
	}
	sched_wakeup_fields_find(tep, "sched_waking", &rd->wk[0]);
	sched_wakeup_fields_find(tep, "sched_wakeup", &rd->wk[1]);
	sched_wakeup_fields_find(tep, "sched_wakeup_new", &rd->wk[2]);
	rd->stack_id = -1;
	rd->stack_size = stack ? tep_find_field(stack, "size") : NULL;
	rd->stack_caller = stack ? tep_find_field(stack, "caller") : NULL;
	if (rd->stack_size && rd->stack_caller)
		rd->stack_id = stack->id;
	rd->fork_id = -1;
	rd->child_pid = fork ? tep_find_field(fork, "child_pid") : NULL;
	rd->child_comm = fork ? tep_find_any_field(fork, "child_comm") : NULL;
	if (rd->child_pid && rd->child_comm)
		rd->fork_id = fork->id;
	return find_on_cpu_events(rd);
}

static int check_opts(const struct report_opts *o, struct strbuf *err)
{
	const char *why = NULL;

	if (o->format == REPORT_FORMAT_CSV || o->fields)
		why = "--profile prints text or --format json, without --fields";
	else if (o->nr_filters || o->cpu_set || o->no_irqs || o->no_softirqs)
		why = "--profile reads every event: -F, --cpu, -I and -S do not apply "
		      "(--pid and --comm choose the tasks shown)";
	else if (o->wakeup)
		why = "--profile already shows the wakeup latency: leave out -w";
	if (!why)
		return 0;
	strbuf_addstr(err, why);
	return -EINVAL;
}

static int read_file(struct dat_file *df, struct profile *p, struct strbuf *err)
{
	struct profile_reader rd = { .p = p };
	struct report_stream *rs = NULL;
	struct report_event ev;
	int ret;

	ret = reader_init(&rd, dat_file_tep(df), err);
	if (!ret)
		ret = report_stream_open(df, &rs, err);
	while (!ret && (ret = report_stream_next(rs, &ev, err)) > 0)
		ret = read_record(&rd, ev.record);
	report_stream_close(rs);
	free(rd.on_cpu);
	if (!ret && !rd.nr_switches) {
		/* every file has the format; an empty table would look like an idle system */
		strbuf_addstr(err, "--profile: the file holds no sched_switch event "
			      "(record with -e sched)");
		ret = -EINVAL;
	}
	if (!ret)
		ret = profile_finish(p);
	return ret;
}

int report_profile_print(struct dat_file *df, const struct report_opts *o, FILE *out,
			 struct strbuf *err)
{
	struct profile p = { 0 };
	struct profile_view view = { .opts = o, .tep = dat_file_tep(df), .input = o->input };
	struct report_clock clock;
	int ret;

	ret = check_opts(o, err);
	if (!ret)
		ret = read_file(df, &p, err);
	if (!ret && o->by_comm)
		ret = profile_by_comm(&p, o);
	if (ret) {
		if (ret == -ENOMEM && !err->len)
			strbuf_addstr(err, "--profile: out of memory");
		profile_release(&p);
		return ret;
	}
	report_clock_init(&clock, df, o);
	view.ticks = clock.unit == REPORT_TIME_RAW;
	view.nr_cpus = dat_file_nr_cpus(df);
	if (o->format == REPORT_FORMAT_JSON)
		profile_print_json(&p, &view, out);
	else
		profile_print_text(&p, &view, out);
	profile_release(&p);
	return 0;
}
