/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_PLAN_H
#define KTRACE_PLAN_H

/*
 * record/start/extract options -> a plan (pure data, read-only once parsed) -> applied to tracefs
 * with every touched setting saved first, so that undo puts the kernel back exactly.
 *
 * Only what the user asked for is touched: without -p/-l/-n/-g nothing function-tracer related
 * is opened (on some kernels those files refuse writes with EPERM).
 */
#include <stdbool.h>
#include <sys/types.h>

#include "ktrace/compress.h"

struct plan_event {
	char *system;		/* NULL for "all" or a bare event name glob */
	char *name;		/* NULL for a whole system */
	char *filter;		/* -f, NULL if none */
	char **triggers;	/* -R, NULL-terminated, may be NULL */
	bool negate;		/* -v: disable rather than enable */
};

struct plan_instance {
	char *name;		/* NULL for the top instance, else -B NAME */
	char *tracer;		/* -p, NULL leaves the tracer alone */
	struct plan_event *events;
	int nr_events;
	char **func_filters;	/* -l */
	char **func_notrace;	/* -n */
	char **graph_funcs;	/* -g */
	int max_graph_depth;	/* --max-graph-depth, 0 = unset */
	int buffer_kb;		/* -b, 0 = unset */
	char *clock;		/* -C */
	char *cpumask;		/* -M */
	char **options;		/* -O, NULL-terminated, "opt" or "noopt" */
	bool stacktrace;	/* -T */
	bool func_stack;	/* --func-stack */
};

struct plan {
	struct plan_instance *instances;	/* [0] is the top instance */
	int nr_instances;
	pid_t *pids;		/* -P */
	int nr_pids;
	bool filter_command;	/* -F */
	bool follow_children;	/* -c */
	char *output;		/* -o, default "trace.dat" */
	char **command;		/* the command to run, NULL-terminated, or NULL */
	enum kt_compression compression;
	bool compression_any;	/* --compression any */
	int file_version;	/* 6 or 7 */
	bool quiet;		/* -q */
	bool keep;		/* -k */
	bool ignore_missing;	/* -i */
	bool all_formats;	/* -a (extract) */
	int max_kb;		/* -m */
	int sleep_us;		/* -s */
	int cmdlines_size;	/* --cmdlines-size, 0 = unset */
	bool date;		/* --date */
	char *net_target;	/* -N host:port */
};

/* Parses record-style options (cmd is "record", "start", "extract" for messages). */
int plan_parse(const char *cmd, int argc, char **argv, struct plan *plan);
void plan_release(struct plan *plan);

struct tracefs_undo;

/*
 * Saves what the plan will touch, then applies it. On failure everything already changed is
 * restored and one message names the tracefs file and the cause.
 */
int plan_apply(const struct plan *plan, struct tracefs_undo **undo);
/* Adds pids (e.g. the forked command, or the recorders to exclude) to the pid filters. */
int plan_set_event_pids(const struct plan *plan, struct tracefs_undo *undo, const pid_t *pids,
			int nr_pids);
/* Restores every saved setting; safe to call once from a signal-driven exit path. */
int tracefs_undo_restore(struct tracefs_undo *undo);
void tracefs_undo_free(struct tracefs_undo *undo);

#endif
