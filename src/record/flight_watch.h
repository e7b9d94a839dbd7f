/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_RECORD_FLIGHT_WATCH_H
#define KTRACE_RECORD_FLIGHT_WATCH_H

/*
 * The flight recorder's triggers that need ktrace to look, on a tick: --save-on-latency and
 * --save-on-lost. A trigger found in the tick is handed to the wait through an eventfd (one of
 * the watched fds), so that it ends the wait as --save-on's watcher does.
 *
 * --save-on-latency wakeup>5ms (or wakeup_rt: real-time tasks only): a private instance
 * (ktrace-flight-lat-PID, in the plan, removed on undo) holding sched_wakeup and sched_switch;
 * every 100 ms ktrace reads its trace_pipe_raw pages (every CPU, then the events in time
 * order), notes when each pid was woken and, at that pid's next switch-in, saves when the time
 * between is over the threshold: the wakeup tracer's measure (sched_wakeup to the switch to
 * the task), without the tracer.
 *
 * --save-on-lost: every second ktrace reads per_cpu/cpuN/stats of the recorded instances and
 * saves when "commit overrun" or "dropped events" grew: events the kernel could not store, a
 * hole in the newest part of the trace. "overrun" (the oldest events overwritten) is what a
 * flight recorder's buffer does all the time and is not counted.
 */
#include <poll.h>
#include <stdbool.h>

#include "ktrace/pid_table.h"
#include "ktrace/strbuf.h"

struct plan;
struct watch_decode;

struct flight_watch {
	/* --save-on-latency */
	const char *latency;		/* as typed, NULL without */
	bool rt_only;			/* wakeup_rt */
	long long threshold_ns;
	char inst[64];			/* the sched watcher instance, "" without */
	int fds[64];			/* its per_cpu/cpuN/trace_pipe_raw (FLIGHT_MAX_WATCH_FDS) */
	int nr_fds;
	struct watch_decode *dec;	/* the two formats, the page parser, a tick's events */
	struct pid_table woken;		/* pid -> when it was woken (ns) */
	/* --save-on-lost */
	bool lost;
	const char *const *names;	/* the recorded instances */
	int nr_names;
	unsigned long long *counts;	/* per instance and CPU: commit overrun + dropped events */
	int nr_cpus;
	long long last_lost_check;	/* CLOCK_MONOTONIC ns */
	/* both */
	int event_fd;			/* readable once a trigger was found */
	struct strbuf why;		/* what the trigger found, for the save's message */
};

void flight_watch_init(struct flight_watch *w);
/* --save-on-latency's syntax (NULL is fine): 0 or -EINVAL after a message naming the flag. */
int flight_watch_check(const char *latency);
/* Adds the latency watcher to the plan (before the plan is applied). */
int flight_watch_plan(struct flight_watch *w, struct plan *plan, const char *latency, bool lost,
		      const char *const *names, int nr_names);
/* After the plan is applied: opens trace_pipe_raw, reads the first counts, the eventfd. */
int flight_watch_arm(struct flight_watch *w, struct strbuf *err);
/* The session wait's tick (ms, -1 without a trigger of these) and its fd (-1 without). */
int flight_watch_tick_ms(const struct flight_watch *w);
int flight_watch_fd(const struct flight_watch *w);
/* session_wait.tick: reads what came, marks the eventfd on a trigger. ctx: the watch. */
void flight_watch_tick(void *ctx, bool timeout);
/* After a watched wake-up: true (and the eventfd read) when it was one of these triggers. */
bool flight_watch_fired(struct flight_watch *w);
/* Closes trace_pipe_raw (before undo removes its instance). */
void flight_watch_close(struct flight_watch *w);
void flight_watch_release(struct flight_watch *w);

#endif
