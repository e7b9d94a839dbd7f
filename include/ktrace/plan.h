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
#include <stdio.h>
#include <sys/types.h>

#include "ktrace/compress.h"

/*
 * -e SPEC: "sys:event" (globs allowed), "sys:" (a whole system), "WORD" (a system or an event
 * of any system named WORD: system NULL, name WORD), "all" (system and name NULL).
 */
struct plan_event {
	char *spec;		/* the -e argument as typed, for messages */
	char *system;		/* NULL for "all" or a bare WORD */
	char *name;		/* NULL for a whole system */
	char *filter;		/* -f, NULL if none */
	char **triggers;	/* -R, NULL-terminated, may be NULL */
	bool negate;		/* -v: disable rather than enable */
	bool optional;		/* --profile's: left out quietly where the kernel lacks it */
	/*
	 * --profile wants its stack: a stacktrace trigger, or -T's option where the kernel's
	 * triggers have no stacktrace
	 */
	bool profile_stack;
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
	int subbuf_kb;		/* --subbuf-size: buffer_subbuf_size_kb, 0 = unset */
	/*
	 * --module MOD: the following -l/-n/-g are MOD's functions (FUNC:mod:MOD); without any,
	 * all of MOD's (*:mod:MOD). NULL: none. Parsing state only: the filters hold the result.
	 */
	char *module;
	bool module_used;	/* a -l/-n/-g was given since the last --module */
	char *clock;		/* -C */
	char *cpumask;		/* -M */
	char **options;		/* -O, NULL-terminated, "opt" or "noopt" */
	bool stacktrace;	/* -T */
	bool func_stack;	/* --func-stack */
	bool remove;		/* -v -B NAME: delete this instance instead */
	/*
	 * --profile: the events report --profile reads (unless -S), stack traces of sched_switch
	 * and sched_wakeup, and function_graph at depth 1 where the kernel has max_graph_depth
	 * and no -p was given (the kernel decides those two at apply time)
	 */
	bool profile;
};

/*
 * What a command does with its plan, which decides what its options mean and which it allows:
 * plan_parse, plan_check_latency and the commands read these, never the command's name.
 */
enum plan_caps {
	PLAN_RUNS_COMMAND = 1 << 0,	/* record, stream, start: COMMAND [ARGS] last, -F */
	PLAN_WRITES_FILE = 1 << 1,	/* record, extract: -o FILE, trace.dat by default */
	PLAN_SENDS = 1 << 2,		/* record: -N HOST:PORT instead of a file */
	/*
	 * extract: the options pick what to read and nothing is set up: -s is the snapshot
	 * buffer, -t the top instance too, -a every instance; a latency tracer may share the
	 * kernel with other traced instances.
	 */
	PLAN_EXTRACTS = 1 << 3,
	/* profile: --profile on the top instance unless -B instances are given */
	PLAN_PROFILES = 1 << 4,
	/*
	 * set: only what is given changes: the events already on stay on, the tracer stays
	 * without -p, tracing_on and the buffers' content are left alone, and a successful run
	 * keeps its changes (a failed one is still put back)
	 */
	PLAN_ADDS = 1 << 5,
};

struct kt_command_help;

/* A command that takes a plan: its option table (rows of ktrace/plan_options.h) and caps */
struct plan_command {
	const struct kt_command_help *help;
	unsigned int caps;		/* enum plan_caps */
	/*
	 * The command's own rows (extract's -s, stream's --filter), into the struct it passes to
	 * plan_parse_own: 0 or -EINVAL after a message when the row is the command's, 1 when it is
	 * the plan's. NULL: every row is the plan's.
	 */
	int (*option)(void *own, int id, const char *arg);
};

/* The plan commands' tables (cmd_record.c, cmd_extract.c, cmd_start.c, cmd_stream.c) */
extern const struct plan_command plan_cmd_record, plan_cmd_extract, plan_cmd_start,
	plan_cmd_stream, plan_cmd_profile, plan_cmd_set;

struct plan {
	struct plan_instance *instances;	/* [0] is the top instance */
	int nr_instances;
	pid_t *pids;		/* -P */
	int nr_pids;
	bool filter_command;	/* -F */
	bool follow_children;	/* -c */
	char *output;		/* -o, default "trace.dat" (record, extract; NULL with -N) */
	char **command;		/* the command to run, NULL-terminated, or NULL */
	enum kt_compression compression;
	bool compression_any;	/* --compression any */
	int file_version;	/* 6 or 7 */
	bool quiet;		/* -q */
	bool keep;		/* -k (and -K) */
	bool keep_tracing_on;	/* -K: tracing_on is neither switched on nor off */
	/*
	 * -d: options/function-trace=0 in the last instance given (as trace-cmd's -d); -D also
	 * /proc/sys/kernel/ftrace_enabled=0
	 */
	bool no_function_trace;
	bool no_ftrace_enabled;
	int rt_prio;		/* -r: the recorders' SCHED_FIFO priority, 0 = unset */
	bool poll;		/* --poll: the recorders never wait on the ring buffer */
	bool daemonize;		/* record --daemonize (record_daemon.h) */
	bool proc_map;		/* --proc-map: the traced processes' maps go in the file */
	bool no_filter;		/* --no-filter: ktrace's own threads are not excluded */
	bool stdout_to_stderr;	/* --stderr: the command's stdout goes to stderr */
	char *user;		/* --user: the command runs as USER */
	char *ts_offset;	/* --ts-offset: the OFFSET option of the file, in ns */
	char *temp_dir;		/* --temp: where the recorders' per-CPU files go */
	bool ignore_missing;	/* -i */
	bool profile_manual;	/* -S: --profile adds no events of its own */
	bool all_formats;	/* -a: the formats of all events */
	int max_kb;		/* -m */
	int sleep_us;		/* -s */
	int cmdlines_size;	/* --cmdlines-size, 0 = unset */
	bool date;		/* --date */
	char *net_target;	/* -N host:port */
	bool net_tcp;		/* -t: data over TCP (the default; accepted as trace-cmd's) */
	bool net_udp;		/* --udp: data over UDP */
	bool net_tls;		/* --tls (or any --tls-* file): TLS to a ktrace listener */
	char *net_tls_cert;	/* --tls-cert: our client certificate */
	char *net_tls_key;	/* --tls-key: its private key */
	char *net_tls_ca;	/* --tls-ca: the CAs that vouch for the listener */
	char *net_tls_psk;	/* --tls-psk: a pre-shared key file instead */
	const char *cmd;	/* "record", "start", "extract": names messages */
	unsigned int caps;	/* the command's enum plan_caps */
};

/*
 * Parses the options of the command cmd (argv[0] is its name) into plan. 0, or an enum
 * kt_result of ktrace/options.h: KT_HELP_SHOWN after the usage, KT_ERR_USAGE after one message
 * naming the flag. Release the plan in every case.
 */
int plan_parse(const struct plan_command *cmd, int argc, char **argv, struct plan *plan);
/* The same, with the command's own rows (plan_command.option) filling `own`. */
int plan_parse_own(const struct plan_command *cmd, void *own, int argc, char **argv,
		   struct plan *plan);
void plan_release(struct plan *plan);
/*
 * After parsing: adds the event SPEC (with FILTER and TRIGGER, each may be NULL) to the instance
 * (NULL: the top one; a new instance is created when the plan has none by that name), checked
 * as -B/-e/-f/-R would be; buffer_kb sets that instance's -b when not 0. 0 or -errno (a
 * message printed about the input for -EINVAL).
 */
int plan_add_event(struct plan *plan, const char *instance, const char *spec, const char *filter,
		   const char *trigger, int buffer_kb);
/* True when the instance asks for a function tracer or function filter (files that may EPERM). */
bool plan_instance_wants_function(const struct plan_instance *inst);
/* True when the instance has something to trace (a tracer or enabled events). */
bool plan_instance_active(const struct plan_instance *inst);
/*
 * True when instances[i] is configured (and should be recorded): every -B instance not being
 * deleted, and the top one unless only -B instances have work (as trace-cmd does).
 */
bool plan_instance_in_use(const struct plan *plan, int i);

/*
 * The latency tracers (irqsoff, preemptoff, preemptirqsoff, wakeup, wakeup_rt, wakeup_dl): their
 * result is the text of `trace` (the max-latency trace), not ring-buffer events.
 */
bool plan_tracer_is_latency(const char *tracer);
/* The kernel config option(s) a tracer needs ("CONFIG_IRQSOFF_TRACER"), NULL if not known. */
const char *plan_tracer_config(const char *tracer);
/* The index of the instance whose -p is a latency tracer, or -1. */
int plan_latency_instance(const struct plan *plan);
/*
 * With a latency tracer: refuses stream, -N, and any other traced instance (record); checks that
 * the kernel has the tracer. 0 (also without a latency tracer) or -errno after one message.
 */
int plan_check_latency(const struct plan *plan);

struct tfs_undo;

/*
 * Saves what the plan will touch, then applies it. command_pid (the held command under -F, 0
 * if none) joins -P's pids in set_event_pid, and in set_ftrace_pid where a function tracer is
 * used, both written before current_tracer. On failure everything already changed is restored
 * and one message names the tracefs file and the cause.
 */
int plan_apply(const struct plan *plan, pid_t command_pid, struct tfs_undo **undo);
/* Adds pids whose events are dropped (set_event_notrace_pid), e.g. ktrace's own recorders. */
int plan_set_event_notrace_pids(const struct plan *plan, struct tfs_undo *undo,
				const pid_t *pids, int nr_pids);
/*
 * Adds pids the function tracer skips (set_ftrace_notrace_pid), only in the instances that ask
 * for a function tracer (the file may refuse writes otherwise); 0 when none does.
 */
int plan_set_ftrace_notrace_pids(const struct plan *plan, struct tfs_undo *undo,
				 const pid_t *pids, int nr_pids);
/*
 * plan_apply leaves tracing_on at 0 in every instance of the plan (after clearing their
 * buffers); this writes tracing_on for all of them (the old value is restored on undo).
 */
int plan_tracing_on(const struct plan *plan, struct tfs_undo *undo, bool on);
/* Only the -O trace options of every instance of the plan (extract), each saved in undo first. */
int plan_apply_trace_options(const struct plan *plan, struct tfs_undo *undo);
/* Saves, then zeroes tracing_max_latency in the instance of a latency tracer (as trace-cmd). */
int plan_reset_max_latency(const struct plan *plan, struct tfs_undo *undo);
#endif
