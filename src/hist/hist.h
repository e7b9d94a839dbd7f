/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_HIST_H
#define KTRACE_HIST_H

/*
 * `ktrace hist`: statistics over a trace.dat file, in groups (a task, a syscall, a function,
 * a field value). The events come through report's stream and filters; the sources below
 * turn them into values, hist_set keeps and prints them.
 *
 *   cmd_hist.c       options and the flow
 *   hist_set.c       groups of values: percentiles, log2 buckets, text and JSON
 *   hist_sched.c     wakeup -> switch-in latency
 *   hist_syscall.c   sys_enter -> sys_exit durations per thread
 *   hist_source.c    function_graph durations, field value counts, the per-pid table
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "ktrace/strbuf.h"

struct tep_handle;
struct tep_record;

/* ------------------------------------------------------------------ groups of values */

struct hist_group {
	char *name;
	uint64_t *values;	/* sorted by hist_set_finish() */
	size_t nr, alloc;
};

struct hist_set {
	void *root;		/* tsearch() tree of groups by name */
	struct hist_group **groups;	/* by count, then name, after hist_set_finish() */
	size_t nr_groups, alloc_groups;
};

/* Adds `value` to the group `name` (created on first use); -ENOMEM. */
int hist_set_add(struct hist_set *s, const char *name, uint64_t value);
/* Sorts the values of each group and the groups; call once, before printing. */
void hist_set_finish(struct hist_set *s);
void hist_set_release(struct hist_set *s);

/* Nearest-rank percentile of a finished group: the smallest value with pct% at or below it. */
uint64_t hist_group_percentile(const struct hist_group *g, unsigned int pct);

enum hist_format {
	HIST_FORMAT_TEXT,
	HIST_FORMAT_JSON,
};

struct hist_print {
	enum hist_format format;
	const char *what;	/* "wakeup", "syscall", ... */
	const char *unit;	/* "ns", or "ticks" for clocks that do not count time */
	const char *group_by;	/* what a group's name is: "task", "syscall", ... */
	bool counts_only;	/* `event --key`: the groups' sizes, no value statistics */
	const char *file;	/* several input files: the one this histogram is of */
};

int hist_set_print(const struct hist_set *s, const struct hist_print *p, FILE *out);

/* ------------------------------------------------------------------ per-pid state */

/* A pending start per thread: a wakeup not yet followed by its switch-in, a syscall entered. */
struct hist_pending {
	void *root;
};

struct hist_start {
	int pid;
	bool set;
	uint64_t ts;
	long key;		/* the syscall number */
};

/* The entry of `pid`, created unset on first use; NULL on ENOMEM. */
struct hist_start *hist_pending_get(struct hist_pending *p, int pid);
void hist_pending_release(struct hist_pending *p);

/* ------------------------------------------------------------------ sources */

/* One kind of statistic: looks at each event it is given and adds values to its set. */
struct hist_source {
	/* 0 or negative errno; err says why */
	int (*event)(struct hist_source *src, struct tep_record *rec);
	void (*free)(struct hist_source *src);
	struct hist_set set;
};

struct hist_source_conf {
	struct tep_handle *tep;
	bool by_task;		/* wakeup: a group per task instead of one */
	const char *event;	/* event: "name" or "system:name" */
	const char *key;	/* event: the field counted */
};

/* Each returns -EINVAL with a message in err when the file lacks what it needs. */
int hist_wakeup_new(const struct hist_source_conf *c, struct hist_source **out,
		    struct strbuf *err);
int hist_syscall_new(const struct hist_source_conf *c, struct hist_source **out,
		     struct strbuf *err);
int hist_funcgraph_new(const struct hist_source_conf *c, struct hist_source **out,
		       struct strbuf *err);
int hist_event_new(const struct hist_source_conf *c, struct hist_source **out,
		   struct strbuf *err);

/* ------------------------------------------------------------------ trace-cmd's forms */

/* trace-cmd hist [-P]: the call-stack histogram of input on stdout; message in err. */
int hist_stack_run(const char *input, bool compact, struct strbuf *err);

#endif
