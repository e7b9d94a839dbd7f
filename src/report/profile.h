/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_REPORT_PROFILE_H
#define KTRACE_REPORT_PROFILE_H

/*
 * report --profile: where each task's time went. Split so that the bookkeeping can be tested
 * without a trace file:
 *
 *   profile_acc.c     the per-task state machine, fed plain values (no libtraceevent)
 *   profile_read.c    the file's sched/kernel_stack records -> profile_acc calls
 *   profile_comm.c    --by-comm: the tasks of one name merged into one row
 *   profile_print.c   the text table and the JSON object
 *
 * A task is always in one state; each change closes an interval of the old state:
 *   running     on a CPU (switched in .. switched out)
 *   sleep       switched out in S (or I, an idle kernel thread) .. woken
 *   blocked     switched out in D (uninterruptible) .. woken
 *   preempted   switched out while runnable (R) .. switched in again
 *   wait        woken (sched_waking/sched_wakeup(_new)) .. switched in: the wakeup latency
 *   other       switched out stopped/traced/parked, or off CPU since the file's start for
 *               a reason the file does not tell (its switch-out came before the first event)
 * A sleep or block that is never followed by a wakeup event lasts until the switch-in.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct dat_file;
struct report_opts;
struct strbuf;
struct tep_handle;

enum profile_bucket {
	PROFILE_RUN,
	PROFILE_SLEEP,
	PROFILE_BLOCK,
	PROFILE_PREEMPT,
	PROFILE_WAIT,
	PROFILE_OTHER,
	PROFILE_NR_BUCKETS,
};

struct profile_sum {
	uint64_t total, max;
	uint64_t count;
};

/* One distinct kernel stack a task blocked (S or D) in, and the time it spent there. */
struct profile_stack {
	uint64_t *ips;
	size_t nr;
	struct profile_sum sum;
};

struct profile_task {
	int pid;
	char comm[32];
	struct profile_sum sum[PROFILE_NR_BUCKETS];
	struct profile_stack *stacks;
	size_t nr_stacks;
	/* the state machine (profile_acc.c) */
	int state;
	uint64_t since;
	uint64_t block_len;		/* the last sleep/block, for its stack */
	bool want_stack;		/* switched out into S/D: its kernel_stack may follow */
	bool block_open;		/* that sleep/block has not ended yet */
	uint64_t *stack_ips;		/* the stack that came, until its block ends */
	size_t stack_nr;
	int nr_merged;			/* --by-comm: tasks in this row (pid: the lowest) */
	unsigned int cpu;		/* where it runs, while its state is running */
};

/* What the trace says a CPU runs: task `cur` (pid 0: idle) since `since` */
struct profile_cpu {
	bool known;			/* an event of the CPU was seen */
	int cur;
	uint64_t since;
};

struct profile {
	uint64_t first_ts, last_ts;
	bool have_ts;
	struct profile_task **tasks;	/* in order of first sight */
	size_t nr_tasks, alloc_tasks;
	void *root;			/* tsearch() index of tasks by pid */
	bool stacks;			/* the file has kernel_stack events */
	bool by_comm;			/* the rows are names (profile_by_comm) */
	struct profile_cpu *cpus;	/* by CPU number */
	size_t nr_cpus, alloc_cpus;
};

/* Every event's timestamp, so that the file's first and last are known. */
void profile_note_ts(struct profile *p, uint64_t ts);
/* sched_switch on `cpu`; prev_state is the raw field. 0 or -ENOMEM. */
int profile_switch(struct profile *p, unsigned int cpu, uint64_t ts, int prev_pid,
		   const char *prev_comm, unsigned long long prev_state, int next_pid,
		   const char *next_comm);
/*
 * An event that only the task running on `cpu` can make, outside the switch itself (the
 * scheduler's events but sched_switch): it tells the CPU runs `pid`, when the switch to it is
 * missing from the file.
 */
int profile_running(struct profile *p, unsigned int cpu, uint64_t ts, int pid);
/*
 * sched_waking, sched_wakeup, or (new) sched_process_fork's child and sched_wakeup_new: a task
 * that never ran.
 */
int profile_wakeup(struct profile *p, uint64_t ts, int pid, const char *comm, bool new_task);
/* A kernel_stack event of task `pid` (its common_pid): innermost frame first. */
int profile_stack(struct profile *p, int pid, const uint64_t *ips, size_t nr);
/* Closes every open interval at the file's last timestamp and sorts the tasks and stacks. */
int profile_finish(struct profile *p);
/* Busiest task first (time running), then by pid; each task's stacks longest first. */
int profile_sort(struct profile *p);
/* Whether --pid/--comm choose the task (all are chosen without them). */
bool profile_task_shown(const struct profile_task *t, const struct report_opts *o);
/* --by-comm, after profile_finish(): the chosen tasks of one comm become one row. */
int profile_by_comm(struct profile *p, const struct report_opts *o);
void profile_release(struct profile *p);

/* How to print a finished profile. */
struct profile_view {
	const struct report_opts *opts;	/* --pid/--comm: the tasks shown */
	struct tep_handle *tep;		/* names the stack frames */
	const char *input;
	bool ticks;			/* timestamps count clock ticks, not nanoseconds */
	int nr_cpus;
};

/* The longest blocking stacks shown per task */
#define PROFILE_TOP_STACKS 5

void profile_print_text(const struct profile *p, const struct profile_view *v, FILE *out);
void profile_print_json(const struct profile *p, const struct profile_view *v, FILE *out);

/*
 * Reads every event of the file and prints, per task, the time it ran, slept, was blocked,
 * preempted and waited after a wakeup, with its longest blocking stacks when the file has
 * them (text, or o->format json). -EINVAL with a message in err when it cannot.
 */
int report_profile_print(struct dat_file *df, const struct report_opts *o, FILE *out,
			 struct strbuf *err);

#endif
