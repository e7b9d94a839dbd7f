/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_RECORD_RUN_H
#define KTRACE_RECORD_RUN_H

/*
 * One run of record, extract or an agent's recording: what cmd_record.c's flow, cmd_extract.c
 * and record_agent_serve.c share. Private to src/record.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ktrace/net_conn.h"
#include "ktrace/plan.h"
#include "ktrace/session.h"
#include "flight.h"
#include "record_daemon.h"
#include "record_extract.h"
#include "record_guest.h"
#include "record_net.h"
#include "record_session.h"
#include "record_status.h"

struct record_run {
	struct plan *plan;
	const char *cmd;		/* "record" or "extract" */
	struct trace_session trace;	/* signals, the command, tracefs and its undo */
	struct record_session session;	/* the recorders */
	struct record_status status;
	int out_fd;
	struct record_net *net;		/* -N: the listener sessions, NULL when writing a file */
	bool net_lost;			/* -N: the listener went away while recording */
	struct net_conn *agent_conn;	/* agent: the host's control connection, until served */
	const char *agent_peer;		/* agent: the host, for messages */
	uint64_t agent_trace_id;
	bool stopped_by_signal;		/* the wait ended on a stop signal */
	struct extract_args extract;	/* extract's own -s, -t, -a */
	struct flight_args flight;	/* record's own -W and its rows */
	struct record_guests *guests;	/* -A: the guests recorded alongside, NULL without */
	struct record_daemon daemon;	/* --daemonize */
	int latency;			/* the instance of a latency tracer, -1 if none */
	char max_latency[32];		/* its tracing_max_latency at the end, in us */
	struct strbuf err;
};

/* -o, or trace.dat */
const char *record_output_path(const struct plan *plan);
/* Creates the output file (not with -N), marked unfinished until written. */
int record_open_output(struct record_run *run);
/* --date (record, extract): the session's DATE option, or a warning when it cannot be measured */
void record_measure_date(struct record_run *run);
/*
 * Parses argv as cmd's options (the command's own rows at own_offset in struct record_run, which
 * starts as *run) and runs fn; returns the exit status.
 */
int record_run_prepared(struct record_run *run, const struct plan_command *cmd, int argc,
			char **argv, int (*fn)(struct record_run *run), size_t own_offset);
/* record's flow, for cmd_record and an agent's recording */
int record_run_record(struct record_run *run);
/* agent: checks the host's options and answers its TRACE_REQ; the run then sends to it */
int record_agent_prepare(struct record_run *run);

#endif
