/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_PLAN_OPTIONS_H
#define KTRACE_PLAN_OPTIONS_H

/*
 * The option rows that record, start, stream and extract share, for their own tables (in
 * cmd_record.c, cmd_extract.c, cmd_start.c, cmd_stream.c). plan_parse handles every row of a plan
 * command's table: what a row means for a command follows the capabilities it declares (enum
 * plan_caps), never its name.
 */
#include "ktrace/options.h"

/* The ids of the long-only options (the others are their letter) */
enum plan_option_id {
	PLAN_OPT_MAX_GRAPH_DEPTH = 256,
	PLAN_OPT_FUNC_STACK,
	PLAN_OPT_COMPRESSION,
	PLAN_OPT_FILE_VERSION,
	PLAN_OPT_CMDLINES_SIZE,
	PLAN_OPT_DATE,
	PLAN_OPT_UDP,
	PLAN_OPT_DISPLAY_FILTER,
	PLAN_OPT_FORK,
	PLAN_OPT_TLS,
	PLAN_OPT_TLS_CERT,
	PLAN_OPT_TLS_KEY,
	PLAN_OPT_TLS_CA,
	PLAN_OPT_TLS_PSK,
	PLAN_OPT_PROFILE,
	PLAN_OPT_SUBBUF_SIZE,
	PLAN_OPT_MODULE,
	PLAN_OPT_USER,
	PLAN_OPT_STDERR,
	PLAN_OPT_TS_OFFSET,
	PLAN_OPT_TEMP,
	PLAN_OPT_POLL,
	PLAN_OPT_NO_FILTER,
	PLAN_OPT_VERBOSE,
	PLAN_OPT_PROC_MAP,
	PLAN_OPT_DAEMONIZE,
};

/* How the file is written: record and extract */
#define PLAN_FILE_FORMAT_OPTIONS \
	KT_OPT(PLAN_OPT_COMPRESSION, "compression", KT_ARG_REQUIRED, "ALGO", \
	       "zstd (default), zlib, none or any"), \
	KT_OPT(PLAN_OPT_FILE_VERSION, "file-version", KT_ARG_REQUIRED, "N", \
	       "trace.dat version 6 or 7 (7)"),

/*
 * record, start and stream share these (start and stream refuse -o, -N, -m, --compression and
 * --file-version: they write no file); profile takes PLAN_SETUP_OPTIONS alone, as its -o is the
 * text's file
 */
#define PLAN_OPTIONS PLAN_SETUP_OPTIONS PLAN_RUN_OPTIONS PLAN_OUTPUT_OPTIONS

/* How the command runs: record, start, stream, set (profile has a --stderr of its own) */
#define PLAN_RUN_OPTIONS \
	KT_OPT(PLAN_OPT_USER, "user", KT_ARG_REQUIRED, "USER", "run COMMAND as USER"), \
	KT_OPT(PLAN_OPT_STDERR, "stderr", KT_ARG_NONE, NULL, \
	       "ktrace's output goes to stderr; COMMAND keeps stdout"),

/* What is traced and how: every plan command's */
#define PLAN_SETUP_OPTIONS \
	KT_OPT('p', NULL, KT_ARG_REQUIRED, "TRACER", "use the tracer (e.g. function, nop)"), \
	KT_OPT('e', NULL, KT_ARG_REQUIRED, "EVENT", \
	       "enable EVENT: system:event, system, glob or all"), \
	KT_OPT('f', NULL, KT_ARG_REQUIRED, "FILTER", "filter for the preceding -e"), \
	KT_OPT('R', NULL, KT_ARG_REQUIRED, "TRIGGER", "trigger for the preceding -e"), \
	KT_OPT('v', NULL, KT_ARG_NONE, NULL, "the following -e disable events; -v -B deletes"), \
	KT_OPT('l', NULL, KT_ARG_REQUIRED, "FUNC", "trace only FUNC (function tracer filter)"), \
	KT_OPT('n', NULL, KT_ARG_REQUIRED, "FUNC", "do not trace FUNC"), \
	KT_OPT('g', NULL, KT_ARG_REQUIRED, "FUNC", "graph FUNC (function_graph)"), \
	KT_OPT(PLAN_OPT_MODULE, "module", KT_ARG_REQUIRED, "MOD", \
	       "the following -l/-n/-g name MOD's functions (alone: all of MOD's)"), \
	KT_OPT('d', NULL, KT_ARG_NONE, NULL, \
	       "function tracer off (options/function-trace=0) in the last instance given"), \
	KT_OPT('D', NULL, KT_ARG_NONE, NULL, "as -d, and /proc/sys/kernel/ftrace_enabled=0"), \
	KT_OPT(PLAN_OPT_MAX_GRAPH_DEPTH, "max-graph-depth", KT_ARG_REQUIRED, "N", \
	       "function_graph depth"), \
	KT_OPT('P', NULL, KT_ARG_REQUIRED, "PID", "trace only PID (repeatable, or a,b,c)"), \
	KT_OPT('F', NULL, KT_ARG_NONE, NULL, "trace only the command"), \
	KT_OPT('c', NULL, KT_ARG_NONE, NULL, "also trace the children of -F/-P"), \
	KT_OPT('b', NULL, KT_ARG_REQUIRED, "KB", "ring buffer size per CPU in KB"), \
	KT_OPT(PLAN_OPT_SUBBUF_SIZE, "subbuf-size", KT_ARG_REQUIRED, "KB", \
	       "ring buffer sub-buffer (page) size in KB"), \
	KT_OPT('C', NULL, KT_ARG_REQUIRED, "CLOCK", "trace clock (see 'ktrace list -C')"), \
	KT_OPT('B', NULL, KT_ARG_REQUIRED, "INSTANCE", "the following options apply to INSTANCE"), \
	KT_OPT('M', NULL, KT_ARG_REQUIRED, "CPUMASK", "trace only the CPUs of the hex mask"), \
	KT_OPT('T', NULL, KT_ARG_NONE, NULL, "a stack trace with every event"), \
	KT_OPT('O', NULL, KT_ARG_REQUIRED, "OPTION", "set a trace option (noOPTION clears it)"), \
	KT_OPT(PLAN_OPT_FUNC_STACK, "func-stack", KT_ARG_NONE, NULL, \
	       "stack trace for function tracer"), \
	KT_OPT('s', NULL, KT_ARG_REQUIRED, "USEC", "recorders sleep USEC between reads"), \
	KT_OPT('i', NULL, KT_ARG_NONE, NULL, "ignore events that do not exist"), \
	KT_OPT('k', NULL, KT_ARG_NONE, NULL, "keep the settings when done (no undo)"), \
	KT_OPT('K', NULL, KT_ARG_NONE, NULL, "as -k, and tracing_on is never written"), \
	KT_OPT('q', "quiet", KT_ARG_NONE, NULL, "quiet: no status line"), \
	KT_OPT('a', NULL, KT_ARG_NONE, NULL, "save the formats of all events"), \
	KT_OPT(PLAN_OPT_CMDLINES_SIZE, "cmdlines-size", KT_ARG_REQUIRED, "N", \
	       "saved_cmdlines entries"), \
	KT_OPT(PLAN_OPT_DATE, "date", KT_ARG_NONE, NULL, "record the wall-clock offset"),

/* record, start and profile: what report --profile reads (stream prints events, not that) */
#define PLAN_PROFILE_OPTIONS \
	KT_OPT(PLAN_OPT_PROFILE, "profile", KT_ARG_NONE, NULL, \
	       "the events (and stacks) 'report --profile' reads"), \
	KT_OPT('S', NULL, KT_ARG_NONE, NULL, "with --profile: only the events given"),

/* Where the trace goes: record's file or listener (start and stream refuse them) */
#define PLAN_OUTPUT_OPTIONS \
	KT_OPT('o', NULL, KT_ARG_REQUIRED, "FILE", "output file (default trace.dat)"), \
	KT_OPT('m', NULL, KT_ARG_REQUIRED, "KB", "keep at most KB per CPU in the file"), \
	KT_OPT(PLAN_OPT_TS_OFFSET, "ts-offset", KT_ARG_REQUIRED, "NS", \
	       "report adds NS (trace clock units) to every timestamp (not with --date)"), \
	KT_OPT(PLAN_OPT_TEMP, "temp", KT_ARG_REQUIRED, "DIR", \
	       "the per-CPU temp files go in DIR (default: beside the output)"), \
	PLAN_FILE_FORMAT_OPTIONS \
	KT_OPT('N', NULL, KT_ARG_REQUIRED, "HOST:PORT", "send the trace to 'ktrace listen'"), \
	KT_OPT('t', NULL, KT_ARG_NONE, NULL, "with -N: data over TCP (the default)"), \
	KT_OPT(PLAN_OPT_UDP, "udp", KT_ARG_NONE, NULL, \
	       "with -N: data over UDP, as trace-cmd without -t"),

/* How record's recorders run (stream reads otherwise) */
#define PLAN_CAPTURE_OPTIONS \
	KT_OPT('r', NULL, KT_ARG_REQUIRED, "PRIO", \
	       "the recorders run at SCHED_FIFO priority PRIO (1-99)"), \
	KT_OPT(PLAN_OPT_POLL, "poll", KT_ARG_NONE, NULL, \
	       "never wait on the ring buffer's wake-up (no IPIs): read every -s"), \
	KT_OPT(PLAN_OPT_NO_FILTER, "no-filter", KT_ARG_NONE, NULL, \
	       "do not keep ktrace's own threads out of the events"), \
	KT_OPT(PLAN_OPT_DAEMONIZE, "daemonize", KT_ARG_NONE, NULL, \
	       "go to the background once recording has started (pid in " \
	       "/var/run/ktrace-record.pid)"), \
	KT_OPT(PLAN_OPT_PROC_MAP, "proc-map", KT_ARG_NONE, NULL, \
	       "save the address maps of COMMAND (at exit; with -c its children's) and -P's"), \
	KT_NOOP(PLAN_OPT_VERBOSE, "verbose", KT_ARG_OPTIONAL, "LEVEL", \
		"accepted for compatibility"),

/* TLS for -N, between ktrace ends (record; each row implies --tls) */
#define PLAN_NET_TLS_OPTIONS \
	KT_OPT(PLAN_OPT_TLS, "tls", KT_ARG_NONE, NULL, \
	       "with -N: TLS to 'ktrace listen', the listener verified (system CAs by default)"), \
	KT_OPT(PLAN_OPT_TLS_CA, "tls-ca", KT_ARG_REQUIRED, "FILE", \
	       "with -N: the listener's certificate must be signed by a CA of FILE"), \
	KT_OPT(PLAN_OPT_TLS_CERT, "tls-cert", KT_ARG_REQUIRED, "FILE", \
	       "with -N: our client certificate (PEM), for a listener with --tls-ca"), \
	KT_OPT(PLAN_OPT_TLS_KEY, "tls-key", KT_ARG_REQUIRED, "FILE", \
	       "with -N: the client certificate's private key (PEM)"), \
	KT_OPT(PLAN_OPT_TLS_PSK, "tls-psk", KT_ARG_REQUIRED, "FILE", \
	       "with -N: TLS with the pre-shared key in FILE instead of certificates"),

#endif
