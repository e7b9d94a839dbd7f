// SPDX-License-Identifier: GPL-2.0-only
/*
 * report --profile output: an aligned table of where each task's time went, then the kernel
 * stacks each task blocked in longest (files recorded with -T), or the same as one JSON
 * object.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "ktrace/dat.h"
#include "ktrace/report.h"
#include "profile.h"
#include "report_file.h"
#include "report_print.h"
#include "report_rows.h"

static const char *const bucket_name[PROFILE_NR_BUCKETS] = {
	[PROFILE_RUN] = "running", [PROFILE_SLEEP] = "sleep", [PROFILE_BLOCK] = "blocked",
	[PROFILE_PREEMPT] = "preempted", [PROFILE_WAIT] = "wakeup_wait", [PROFILE_OTHER] = "other",
};

bool profile_task_shown(const struct profile_task *t, const struct report_opts *o)
{
	int i;

	if (!o || (!o->pids && !o->comms))
		return true;
	for (i = 0; o->pids && o->pids[i]; i++)
		if (atoi(o->pids[i]) == t->pid)
			return true;
	for (i = 0; o->comms && o->comms[i]; i++)
		if (!strcmp(o->comms[i], t->comm))
			return true;
	return false;
}

/* Milliseconds with 3 decimals (rounded to the microsecond), or raw clock ticks. */
static const char *put_time(char *buf, size_t len, uint64_t v, bool ticks)
{
	uint64_t us = (v + 500) / 1000;

	if (ticks)
		snprintf(buf, len, "%" PRIu64, v);
	else
		snprintf(buf, len, "%" PRIu64 ".%03" PRIu64, us / 1000, us % 1000);
	return buf;
}

static void put_frame(struct strbuf *sb, struct tep_handle *tep, uint64_t ip)
{
	const char *name = tep_find_function(tep, ip);

	if (name)
		strbuf_addf(sb, "%s+0x%llx", name,
			    (unsigned long long)(ip - tep_find_function_address(tep, ip)));
	else
		strbuf_addf(sb, "0x%llx", (unsigned long long)ip);
}

/* "comm-pid", or with --by-comm "comm [tasks]" */
static const char *row_name(char *buf, size_t len, const struct profile *p,
			    const struct profile_task *t)
{
	const char *comm = t->comm[0] ? t->comm : "<...>";

	if (p->by_comm)
		snprintf(buf, len, "%s [%d]", comm, t->nr_merged);
	else
		snprintf(buf, len, "%s-%d", comm, t->pid);
	return buf;
}

static void print_header(const struct profile *p, const struct profile_view *v, FILE *out)
{
	enum report_time_unit unit = v->ticks ? REPORT_TIME_RAW : REPORT_TIME_USECS;
	char first[48], last[48], span[32], rows[64];
	size_t i, tasks = 0;

	report_time_format(first, p->first_ts, unit, false);
	report_time_format(last, p->last_ts, unit, false);
	for (i = 0; i < p->nr_tasks; i++)
		tasks += p->by_comm ? (size_t)p->tasks[i]->nr_merged : 1;
	if (p->by_comm)
		snprintf(rows, sizeof(rows), "%zu tasks under %zu names", tasks, p->nr_tasks);
	else
		snprintf(rows, sizeof(rows), "%zu tasks", tasks);
	fprintf(out, "Profile of %s: %s %s from %s to %s, %d CPUs, %s\n", v->input,
		put_time(span, sizeof(span), p->last_ts - p->first_ts, v->ticks),
		v->ticks ? "ticks" : "ms", first + strspn(first, " "), last + strspn(last, " "),
		v->nr_cpus, rows);
	fprintf(out, "Times in %s. RUNNING: on a CPU. SLEEP: switched out in S (or I) until "
		"woken. BLOCKED: in D until\nwoken. PREEMPTED: runnable, waiting for the CPU again. "
		"WAKE-WAIT: from wakeup to running (the\nwakeup latency). OTHER: stopped/parked, or "
		"off CPU since the file's start.\n\n", v->ticks ? "clock ticks" : "ms");
	fprintf(out, "%-24s %11s %11s %11s %11s %11s %11s %7s %7s %7s %7s %10s\n",
		p->by_comm ? "COMM [TASKS]" : "TASK",
		"RUNNING", "SLEEP", "BLOCKED", "PREEMPTED", "WAKE-WAIT", "OTHER", "RUNS", "SLEEPS",
		"BLOCKS", "PREEMPT", "MAX-WAIT");
}

static void print_row(const struct profile *p, const struct profile_task *t, bool ticks,
		      FILE *out)
{
	char name[48], buf[32];
	int b;

	fprintf(out, "%-24s", row_name(name, sizeof(name), p, t));
	for (b = 0; b < PROFILE_NR_BUCKETS; b++)
		fprintf(out, " %11s", put_time(buf, sizeof(buf), t->sum[b].total, ticks));
	fprintf(out, " %7" PRIu64 " %7" PRIu64 " %7" PRIu64 " %7" PRIu64 " %10s\n",
		t->sum[PROFILE_RUN].count, t->sum[PROFILE_SLEEP].count,
		t->sum[PROFILE_BLOCK].count, t->sum[PROFILE_PREEMPT].count,
		put_time(buf, sizeof(buf), t->sum[PROFILE_WAIT].max, ticks));
}

static void print_stacks(const struct profile *p, const struct profile_task *t,
			 const struct profile_view *v, FILE *out)
{
	struct strbuf sb = STRBUF_INIT;
	char total[32], max[32], name[48];
	size_t i, f;

	fprintf(out, "\n%s: %zu distinct stack%s\n", row_name(name, sizeof(name), p, t),
		t->nr_stacks, t->nr_stacks == 1 ? "" : "s");
	for (i = 0; i < t->nr_stacks && i < PROFILE_TOP_STACKS; i++) {
		const struct profile_stack *s = &t->stacks[i];

		const char *unit = v->ticks ? "ticks" : "ms";

		fprintf(out, "  %s %s total, %s %s max, %" PRIu64 " time%s\n",
			put_time(total, sizeof(total), s->sum.total, v->ticks), unit,
			put_time(max, sizeof(max), s->sum.max, v->ticks), unit, s->sum.count,
			s->sum.count == 1 ? "" : "s");
		for (f = 0; f < s->nr; f++) {
			strbuf_reset(&sb);
			put_frame(&sb, v->tep, s->ips[f]);
			fprintf(out, "      %s\n", strbuf_str(&sb));
		}
	}
	strbuf_release(&sb);
}

void profile_print_text(const struct profile *p, const struct profile_view *v, FILE *out)
{
	bool any_stack = false;
	size_t i;

	print_header(p, v, out);
	for (i = 0; i < p->nr_tasks; i++) {
		if (!profile_task_shown(p->tasks[i], v->opts))
			continue;
		print_row(p, p->tasks[i], v->ticks, out);
		any_stack |= p->tasks[i]->nr_stacks > 0;
	}
	if (!p->stacks)
		return;
	fprintf(out, "\nLongest blocking kernel stacks (the sched_switch that put the task to "
		"sleep; top %d per task):\n", PROFILE_TOP_STACKS);
	if (!any_stack)
		fprintf(out, "  none: no task blocked with a stack recorded\n");
	for (i = 0; i < p->nr_tasks; i++)
		if (p->tasks[i]->nr_stacks && profile_task_shown(p->tasks[i], v->opts))
			print_stacks(p, p->tasks[i], v, out);
}

static void json_sum(struct strbuf *sb, const char *name, const struct profile_sum *s)
{
	strbuf_addf(sb, "\"%s\":{\"total\":%" PRIu64 ",\"count\":%" PRIu64 ",\"max\":%" PRIu64 "}",
		    name, s->total, s->count, s->max);
}

static void json_stacks(struct strbuf *sb, const struct profile_task *t, struct tep_handle *tep)
{
	struct strbuf frame = STRBUF_INIT;
	size_t i, f;

	strbuf_addstr(sb, ",\"stacks\":[");
	for (i = 0; i < t->nr_stacks && i < PROFILE_TOP_STACKS; i++) {
		const struct profile_stack *s = &t->stacks[i];

		strbuf_addf(sb, "%s{\"total\":%" PRIu64 ",\"count\":%" PRIu64 ",\"max\":%" PRIu64
			    ",\"frames\":[", i ? "," : "", s->sum.total, s->sum.count, s->sum.max);
		for (f = 0; f < s->nr; f++) {
			strbuf_reset(&frame);
			put_frame(&frame, tep, s->ips[f]);
			if (f)
				strbuf_addch(sb, ',');
			report_json_put_str(sb, frame.buf, frame.len);
		}
		strbuf_addstr(sb, "]}");
	}
	strbuf_addch(sb, ']');
	strbuf_release(&frame);
}

static void json_task(struct strbuf *sb, const struct profile *p, const struct profile_task *t,
		      struct tep_handle *tep)
{
	int b;

	if (p->by_comm)
		strbuf_addf(sb, "{\"tasks\":%d,\"comm\":", t->nr_merged);
	else
		strbuf_addf(sb, "{\"pid\":%d,\"comm\":", t->pid);
	report_json_put_str(sb, t->comm, strlen(t->comm));
	for (b = 0; b < PROFILE_NR_BUCKETS; b++) {
		strbuf_addch(sb, ',');
		json_sum(sb, bucket_name[b], &t->sum[b]);
	}
	json_stacks(sb, t, tep);
	strbuf_addch(sb, '}');
}

void profile_print_json(const struct profile *p, const struct profile_view *v, FILE *out)
{
	struct strbuf sb = STRBUF_INIT;
	bool first = true;
	size_t i;

	strbuf_addstr(&sb, "{\"file\":");
	report_json_put_str(&sb, v->input, strlen(v->input));
	strbuf_addf(&sb, ",\"unit\":\"%s\",\"first_ts\":%" PRIu64 ",\"last_ts\":%" PRIu64
		    ",\"cpus\":%d,\"stacks_recorded\":%s,\"tasks\":[", v->ticks ? "ticks" : "ns",
		    p->first_ts, p->last_ts, v->nr_cpus, p->stacks ? "true" : "false");
	for (i = 0; i < p->nr_tasks; i++) {
		if (!profile_task_shown(p->tasks[i], v->opts))
			continue;
		strbuf_addstr(&sb, first ? "\n" : ",\n");
		first = false;
		json_task(&sb, p, p->tasks[i], v->tep);
	}
	strbuf_addstr(&sb, "\n]}\n");
	fwrite(sb.buf, 1, sb.len, out);
	strbuf_release(&sb);
}

int report_profile_file(const char *path, bool by_comm, FILE *out, struct strbuf *err)
{
	struct report_opts o = { .input = path, .profile = true, .by_comm = by_comm };
	struct report_file rf;
	int ret;

	ret = report_file_open(&rf, &o, path, 0, 0, err);
	if (ret)
		return ret;
	ret = report_file_setup(&rf, err);
	if (!ret)
		ret = report_profile_print(rf.df, &o, out, err);
	if (!ret)
		ret = dat_file_kallsyms_error(rf.df, err);
	report_file_close(&rf);
	return ret;
}
