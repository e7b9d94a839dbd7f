/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_RECORD_STATUS_H
#define KTRACE_RECORD_STATUS_H

/*
 * What record tells the user: a status line on a terminal about once a second (elapsed time,
 * bytes and events per second, events lost per CPU so far), and the end-of-run per-CPU summary
 * with advice when events were lost or none were recorded.
 */
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

struct record_session;

struct record_status {
	bool line;		/* a status line is being drawn (stderr is a terminal, no -q) */
	bool quiet;
	struct timespec t0;
	double seconds;		/* recording time once ended */
	double last_t;
	uint64_t last_bytes, last_events;
	bool drawn;
};

/* Why nothing may have been recorded, filled by the command from its plan. */
struct record_hints {
	bool pid_filter;
	bool event_filter;
};

void record_status_begin(struct record_status *st, bool quiet);
void record_status_tick(struct record_status *st, const struct record_session *s);
void record_status_end(struct record_status *st);
void record_status_summary(const struct record_status *st, const struct record_session *s,
			const struct record_hints *hints, const char *output);

#endif
