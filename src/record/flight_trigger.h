/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_RECORD_FLIGHT_TRIGGER_H
#define KTRACE_RECORD_FLIGHT_TRIGGER_H

/*
 * --save-on 'EVENT: FILTER'. ktrace learns that it fired from a watcher: a private instance
 * (ktrace-flight-PID, in the plan as a -B of its own, so undo removes it) holding only EVENT
 * behind FILTER, with buffer_percent 0, whose trace_pipe_raw files poll() readable at its
 * first event and never before: nothing runs until it fires. Where the kernel has snapshot
 * triggers and one instance is recorded, that instance's EVENT also gets `snapshot:1 if
 * FILTER`, which freezes the buffer at the very event; the save reads that half, and the
 * trigger is armed again afterwards.
 */
#include <poll.h>
#include <stdbool.h>

#include "ktrace/strbuf.h"

struct plan;
struct tfs_undo;

#define FLIGHT_MAX_WATCH_FDS 64

/*
 * The watcher instance's per_cpu/cpuN/trace_pipe_raw, non-blocking, into fds (at most max; a
 * CPU that has none is skipped; CPUs past max are named once on stderr): how many, or a
 * negative errno with a message in err. Shared by --save-on and the latency watcher.
 */
int flight_open_cpu_pipes(const char *instance, int *fds, int max, struct strbuf *err);

struct flight_trigger {
	char *event;		/* EVENT as typed */
	char *filter;		/* FILTER, NULL without one */
	char watch[64];		/* the watcher instance, "" without --save-on */
	char *trigger_path;	/* the recorded instance's events/SYS/EVENT/trigger, or NULL */
	char *trigger_text;	/* "snapshot:1 if FILTER" */
	struct pollfd fds[FLIGHT_MAX_WATCH_FDS];
	int nr_fds;
};

void flight_trigger_init(struct flight_trigger *t);
/* save_on's syntax (NULL is fine): 0 or -EINVAL after a message naming --save-on. */
int flight_trigger_check(const char *save_on);
/* Adds the watcher to the plan; picks the kernel trigger when it can (see above). */
int flight_trigger_plan(struct flight_trigger *t, struct plan *plan, const char *save_on,
			const char *const *names, int nr_names, bool snapshot);
/* After the plan is applied: opens the watcher's files, writes the kernel trigger (undone). */
int flight_trigger_arm(struct flight_trigger *t, struct tfs_undo *undo, struct strbuf *err);
int flight_trigger_pollfds(struct flight_trigger *t, struct pollfd **fds);
/* After a wake-up: empties the watcher; true when the kernel trigger swapped the buffer. */
bool flight_trigger_fired(struct flight_trigger *t);
/* The kernel trigger armed again (it fires once per arming). */
int flight_trigger_rearm(struct flight_trigger *t, struct strbuf *err);
/* Closes the watcher's files (before undo removes its instance). */
void flight_trigger_close(struct flight_trigger *t);
void flight_trigger_release(struct flight_trigger *t);

#endif
