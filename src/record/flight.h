/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_RECORD_FLIGHT_H
#define KTRACE_RECORD_FLIGHT_H

/*
 * record --flight-recorder (-W): the plan applied as record applies it, then nothing copied and
 * nothing written until a trigger; the events stay in the kernel's ring buffers (overwrite
 * mode), and each trigger saves what they hold into NAME-TIMESTAMP.dat while tracing goes on.
 * The process sleeps in poll() on fds that only turn readable on a trigger: the signalfd
 * (SIGUSR1 from `ktrace save` or kill, a stop signal, the command's exit) and, with --save-on,
 * a private instance holding only the trigger's event behind its filter.
 *
 * Where the kernel has a snapshot buffer, a save swaps it in (`snapshot`, or the event's
 * snapshot trigger at the exact moment of --save-on) and reads the frozen half; else it reads
 * trace_pipe_raw while the writer goes on, bounded by what the buffer held (recorder.h), and
 * what came after stays for the next save.
 */
#include <stdbool.h>

#include "ktrace/options.h"

struct plan;
struct trace_session;

struct flight_args {
	bool armed;		/* --flight-recorder / -W */
	const char *keep;	/* --keep SECONDS|MB: sizes the buffers */
	const char *save_on;	/* --save-on 'EVENT: FILTER' */
	const char *save_on_latency;	/* --save-on-latency KIND>DURATION */
	bool save_on_lost;	/* --save-on-lost */
	int max_saves;		/* --max-saves N: disarm after N saves, 0 = no bound */
	int interval_ms;	/* --save-interval MS: the shortest time between two saves */
	bool interval_set;	/* --save-interval given (else 1000) */
};

enum flight_option_id {
	FLIGHT_OPT_ARM = 'W',
	FLIGHT_OPT_KEEP = 400,
	FLIGHT_OPT_SAVE_ON,
	FLIGHT_OPT_MAX_SAVES,
	FLIGHT_OPT_INTERVAL,
	FLIGHT_OPT_LATENCY,
	FLIGHT_OPT_LOST,
};

#define FLIGHT_OPTIONS \
	KT_OPT(FLIGHT_OPT_ARM, "flight-recorder", KT_ARG_NONE, NULL, \
	       "flight recorder: keep the events in the kernel buffers, save them on a trigger"), \
	KT_OPT(FLIGHT_OPT_KEEP, "keep", KT_ARG_REQUIRED, "SECONDS|MB", \
	       "with -W: size the buffers to hold about 30s or 64MB (all CPUs)"), \
	KT_OPT(FLIGHT_OPT_SAVE_ON, "save-on", KT_ARG_REQUIRED, "EVENT:FILTER", \
	       "with -W: save when EVENT fires with FILTER true"), \
	KT_OPT(FLIGHT_OPT_MAX_SAVES, "max-saves", KT_ARG_REQUIRED, "N", \
	       "with -W: disarm after N saves"), \
	KT_OPT(FLIGHT_OPT_INTERVAL, "save-interval", KT_ARG_REQUIRED, "MS", \
	       "with -W: skip a trigger less than MS after the last save (1000)"), \
	KT_OPT(FLIGHT_OPT_LATENCY, "save-on-latency", KT_ARG_REQUIRED, "KIND>DURATION", \
	       "with -W: save when a wake-up waits longer (wakeup>5ms, wakeup_rt>100us)"), \
	KT_OPT(FLIGHT_OPT_LOST, "save-on-lost", KT_ARG_NONE, NULL, \
	       "with -W: save when the kernel drops events (commit overrun, dropped events)"),

/* record's parse callback for the rows above (plan_command.option): 0, -EINVAL or 1. */
int flight_option(struct flight_args *fa, int id, const char *arg);
/* After parsing: the flight options without -W, and what -W cannot be combined with. */
int flight_check(const struct flight_args *fa, const struct plan *plan);
/* Arms, saves on every trigger, disarms; tracefs put back on every path. 0 or -errno. */
int flight_run(struct plan *plan, const struct flight_args *fa, struct trace_session *trace);

#endif
