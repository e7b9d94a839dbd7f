/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_RECORD_FLIGHT_SAVE_H
#define KTRACE_RECORD_FLIGHT_SAVE_H

/*
 * One flight-recorder save: what the armed buffers hold, written by record's own capture and
 * writer (record_session.h) into PREFIX-YYYYMMDD-HHMMSS.dat while tracing goes on.
 */
#include <stdbool.h>
#include <time.h>

#include "ktrace/strbuf.h"

struct plan;

struct flight_saver {
	const struct plan *plan;
	const char *const *names;	/* the recorded instances, NULL for the top one */
	int nr_names;
	char *prefix;			/* absolute: -o without its .dat */
	bool snapshot;			/* a snapshot kernel: swap, read the frozen half */
	int nr_saves;
	struct timespec last;		/* CLOCK_MONOTONIC of the last save */
	char last_path[4096];
};

/* True when tracefs has a snapshot buffer (CONFIG_TRACER_SNAPSHOT). */
bool flight_kernel_has_snapshot(void);
int flight_saver_init(struct flight_saver *fs, const struct plan *plan, const char *const *names,
		      int nr_names);
/*
 * Saves now. swapped: the event's snapshot trigger has already swapped the buffers (at the
 * moment it fired); else a snapshot kernel swaps them here. 0 with fs->last_path written, or
 * -errno with a message in err (the partial file removed).
 */
int flight_save(struct flight_saver *fs, bool swapped, struct strbuf *err);
struct tfs_undo;

/* A snapshot kernel: allocates each snapshot buffer now, freed on undo. */
int flight_saver_arm(struct flight_saver *fs, struct tfs_undo *undo, struct strbuf *err);
/*
 * --keep SECONDS: measures the busiest CPU's rate for a second, then sizes every recorded
 * buffer to hold SECONDS of it (buffer_size_kb saved for undo first).
 */
int flight_keep_seconds(struct flight_saver *fs, int seconds, struct tfs_undo *undo, bool quiet,
			struct strbuf *err);
/* How far back the buffers reach now (now ts - oldest event ts), in seconds; -1 if unknown. */
double flight_reach_back(const struct flight_saver *fs);
/* A snapshot kernel: empties the frozen halves (a trigger that came too soon). */
void flight_saver_discard(struct flight_saver *fs);
/* Milliseconds since the last save, or -1 before the first. */
long flight_since_last_ms(const struct flight_saver *fs);
void flight_saver_release(struct flight_saver *fs);

#endif
