// SPDX-License-Identifier: GPL-2.0-only
/*
 * ktrace record and ktrace extract: the flow. parse -> a trace session (session.h: the stop
 * signals blocked, the held command, the plan applied with undo) -> recorders -> run the
 * command or wait for a signal -> tracing off -> flush recorders -> write trace.dat -> undo.
 * Every exit path, a signal included, goes through the same stop, write and undo steps.
 */
#include <errno.h>
#include <stddef.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <tracefs.h>
#include <unistd.h>

#include "ktrace/command.h"
#include "ktrace/dat_writer.h"
#include "ktrace/net_conn.h"
#include "ktrace/plan.h"
#include "ktrace/plan_options.h"
#include "ktrace/record.h"
#include "ktrace/session.h"
#include "ktrace/tfs.h"
#include "metadata.h"
#include "record_agent.h"
#include "record_date.h"
#include "record_extract.h"
#include "flight.h"
#include "record_net.h"
#include "record_plan.h"
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
	int latency;			/* the instance of a latency tracer, -1 if none */
	char max_latency[32];		/* its tracing_max_latency at the end, in us */
	struct strbuf err;
};

static const char *output_path(const struct plan *plan)
{
	return plan->output ? plan->output : "trace.dat";
}

int record_instance_names(const struct plan *plan, int latency, const char ***names)
{
	int i, n = 0;

	*names = calloc((size_t)plan->nr_instances + 1, sizeof(**names));
	if (!*names)
		return -ENOMEM;
	if (latency >= 0)
		(*names)[n++] = plan->instances[latency].name;
	for (i = 0; latency < 0 && i < plan->nr_instances; i++)
		if (plan_instance_in_use(plan, i))
			(*names)[n++] = plan->instances[i].name;
	return n;
}

int record_collect_events(const struct plan *plan, struct meta_events *ev)
{
	int i, j, ret = 0;

	ev->all = plan->all_formats;
	for (i = 0; !ret && i < plan->nr_instances; i++) {
		const struct plan_instance *inst = &plan->instances[i];

		if (!plan_instance_in_use(plan, i))
			continue;
		for (j = 0; !ret && j < inst->nr_events; j++)
			if (!inst->events[j].negate)
				ret = meta_events_add(ev, inst->events[j].system,
						      inst->events[j].name);
	}
	return ret;
}

/* --date is a convenience: without the offset the trace is still worth writing. */
static void measure_date(struct record_run *run)
{
	char *clock = meta_selected_clock(run->session.bufs[0].dir);
	int ret = record_date_offset(clock, &run->session.date);

	if (ret)
		fprintf(stderr, "ktrace %s: --date: cannot measure the wall-clock offset (%s); "
			"recording without it\n", run->cmd, strerror(-ret));
	free(clock);
}

static int setup_session(struct record_run *run)
{
	const char **names = NULL;
	int n = record_instance_names(run->plan, run->latency, &names);
	int ret = n < 0 ? n : 0;

	if (!ret)
		ret = record_session_init(&run->session, names, n, output_path(run->plan),
				       run->plan->file_version, run->plan->compression);
	if (!ret)
		run->session.max_bytes = (uint64_t)run->plan->max_kb * 1024;
	run->session.trace_id = run->agent_trace_id;
	if (!ret && run->plan->sleep_us > 0)
		run->session.wait_ms = run->plan->sleep_us / 1000 ? run->plan->sleep_us / 1000 : 1;
	if (!ret)
		ret = record_collect_events(run->plan, &run->session.events);
	/* as trace-cmd: a latency file has every event format, for the events in its text */
	run->session.latency = run->latency >= 0;
	run->session.events.all |= run->session.latency;
	free(names);
	if (ret)
		strbuf_addf(&run->err, "preparing the recorders: %s", strerror(-ret));
	if (!ret && run->plan->date)
		measure_date(run);
	return ret;
}

/*
 * Without a pid filter the recorders would see their own splices and wake-ups; the notrace pid
 * lists drop them, for events and (in function-tracer instances) for the function tracer.
 * Kernels without those files just keep them, as trace-cmd always does.
 */
static void exclude_recorders(struct record_run *run)
{
	pid_t *tids = NULL;
	int nr = 0;

	if (record_session_tids(&run->session, &tids, &nr))
		return;
	tids[nr++] = getpid();
	trace_session_exclude(&run->trace, tids, nr);
	free(tids);
}

/*
 * -N: the listener sends nothing after RINIT, so a control connection turning readable or hung
 * up means it went away. Recording stops there, and the command with it.
 */
#define MAX_NET_SESSIONS 64

static void status_tick(void *ctx, bool timeout)
{
	struct record_run *run = ctx;

	if (timeout)
		record_status_tick(&run->status, &run->session);
}

static void wait_for_end(struct record_run *run)
{
	struct pollfd net[MAX_NET_SESSIONS];
	struct session_wait w = { .tick_ms = 1000, .watch = net, .tick = status_tick, .ctx = run };

	w.nr_watch = record_net_pollfds(run->net, net, MAX_NET_SESSIONS);
	switch (trace_session_wait(&run->trace, &w)) {
	case SESSION_END_WATCHED:
		run->net_lost = true;
		break;
	case SESSION_END_SIGNAL:
		run->stopped_by_signal = true;
		break;
	default:
		break;
	}
}

static int start_and_run(struct record_run *run)
{
	int ret;

	if (run->latency < 0) {
		ret = record_session_start(&run->session, &run->err);
		if (ret)
			return ret;
		exclude_recorders(run);
	} else {
		/* the longest path of this run only, not one from before it */
		ret = plan_reset_max_latency(run->plan, run->trace.undo);
		if (ret)
			return ret;
	}
	/* without recorders there is no progress to show */
	record_status_begin(&run->status, run->plan->quiet || run->latency >= 0);
	ret = trace_session_go(&run->trace, &run->err);
	if (ret)
		return ret;
	if (!run->plan->command && !run->plan->quiet)
		fprintf(stderr, "Hit Ctrl^C to stop recording\n");
	wait_for_end(run);
	return 0;
}

/* The max latency the tracer measured, read before undo puts the old value back. */
static void read_max_latency(struct record_run *run)
{
	struct strbuf path = STRBUF_INIT, sb = STRBUF_INIT;

	strbuf_addf(&path, "%s/tracing_max_latency", run->session.bufs[0].dir);
	if (!strbuf_read_file(&sb, strbuf_str(&path)))
		snprintf(run->max_latency, sizeof(run->max_latency), "%.*s",
			 (int)strcspn(strbuf_str(&sb), "\n"), strbuf_str(&sb));
	strbuf_release(&path);
	strbuf_release(&sb);
}

/* Tracing off, recorders flushed, file written. Runs on every path once recorders started. */
static int stop_and_write(struct record_run *run, bool write_file)
{
	int ret;

	trace_session_stop(&run->trace);
	record_status_end(&run->status);
	if (run->latency >= 0) {
		read_max_latency(run);
		return write_file ? record_session_write(&run->session, run->out_fd, &run->err) : 0;
	}
	/* agent: the host's CLOSE woke the wait; that is the end it asked for */
	if (run->net_lost && record_net_peer_stopped(run->net))
		run->net_lost = false;
	ret = record_session_finish(&run->session, &run->err);
	/* A recorder's send error (EPIPE, ECONNRESET...) means the same as a hang-up. */
	if (run->net && (run->net_lost || ret)) {
		record_net_delivered(&run->session, run->net,
				     run->agent_peer ? run->agent_peer : run->plan->net_target,
				     run->net_lost || ret == -EPIPE || ret == -ECONNRESET);
		return ret ? ret : -ECONNRESET;
	}
	/*
	 * agent stopped by a signal (the agent itself is stopping): the host gets EOF on every
	 * connection rather than a CLOSE_RESP it did not ask for yet.
	 */
	if (run->net && run->agent_peer && run->stopped_by_signal) {
		record_session_close(&run->session);
		return 0;
	}
	if (run->net)
		return record_net_finish(&run->session, run->net, &run->err);
	if (!ret && write_file)
		ret = record_session_write(&run->session, run->out_fd, &run->err);
	return ret;
}

static int open_output(struct record_run *run)
{
	const char *path = output_path(run->plan);
	int ret;

	if (run->plan->net_target || run->net)
		return 0;
	run->out_fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (run->out_fd < 0) {
		fprintf(stderr, "ktrace %s: cannot create %s: %s\n", run->cmd, path,
			strerror(errno));
		return -errno;
	}
	ret = dat_writer_mark_unfinished(run->out_fd);
	if (ret)
		fprintf(stderr, "ktrace %s: cannot write %s: %s\n", run->cmd, path,
			strerror(-ret));
	return ret;
}

static void print_summary(struct record_run *run)
{
	struct record_hints hints = { .pid_filter = run->plan->filter_command || run->plan->nr_pids };
	int i, j;

	if (run->latency >= 0) {
		if (!run->plan->quiet)
			fprintf(stderr, "%s latency trace (tracing_max_latency %s us) written to %s\n",
				run->plan->instances[run->latency].tracer,
				run->max_latency[0] ? run->max_latency : "?", output_path(run->plan));
		return;
	}
	for (i = 0; i < run->plan->nr_instances; i++)
		for (j = 0; j < run->plan->instances[i].nr_events; j++)
			if (run->plan->instances[i].events[j].filter)
				hints.event_filter = true;
	record_status_summary(&run->status, &run->session, &hints,
			   run->plan->net_target ? run->plan->net_target : output_path(run->plan));
}

/*
 * -N: each recorded buffer is a listener session of its own (record_net.h); returns how many,
 * or a negative errno. -m bounds a file, and there is none here.
 */
static int check_net(const struct plan *plan)
{
	int i, nr = 0;

	for (i = 0; i < plan->nr_instances; i++)
		nr += plan_instance_in_use(plan, i);
	if (nr > MAX_NET_SESSIONS) {
		fprintf(stderr, "ktrace record: -N %s: %d instances; at most %d can be sent\n",
			plan->net_target, nr, MAX_NET_SESSIONS);
		return -EINVAL;
	}
	if (plan->max_kb) {
		fprintf(stderr, "ktrace record: -N %s: -m limits a file; nothing is kept here\n",
			plan->net_target);
		return -EINVAL;
	}
	return nr;
}

/* The plan's --tls rows, as the net layer takes them. */
static struct net_tls_opts tls_opts(const struct plan *plan)
{
	return (struct net_tls_opts){ .enabled = plan->net_tls, .cert = plan->net_tls_cert,
				      .key = plan->net_tls_key, .ca = plan->net_tls_ca,
				      .psk = plan->net_tls_psk };
}

/* As trace-cmd: a recording with neither events nor a tracer would only hold metadata. */
static int check_something_to_do(const struct plan *plan)
{
	int i;

	for (i = 0; i < plan->nr_instances; i++)
		if (plan_instance_active(&plan->instances[i]))
			return 0;
	fprintf(stderr, "ktrace record: no event or tracer was specified (-e EVENT or -p TRACER)\n");
	return -EINVAL;
}

/*
 * agent: the host's options record one buffer into the host's files; a file or a listener of
 * the guest's own makes no sense there (trace-cmd refuses them too).
 */
static int serve_agent(struct record_run *run)
{
	const char *top = tracefs_tracing_dir();
	long cpus = sysconf(_SC_NPROCESSORS_CONF);
	struct net_conn *conn = run->agent_conn;
	struct net_send *ns = NULL;
	int i, nr = 0, ret = 0;

	run->agent_conn = NULL;
	for (i = 0; i < run->plan->nr_instances; i++)
		nr += plan_instance_in_use(run->plan, i);
	/* the plan defaults -o to trace.dat: only another name is known to come from the host */
	if (strcmp(output_path(run->plan), "trace.dat") || run->plan->net_target ||
	    run->plan->command) {
		strbuf_addf(&run->err, "%s asks for %s: an agent records to the host only",
			    run->agent_peer, run->plan->command ? "a command" :
			    run->plan->output ? "-o" : "-N");
		ret = -EINVAL;
	} else if (nr != 1) {
		strbuf_addf(&run->err, "%s asks for %d buffers: an agent records one", run->agent_peer,
			    nr);
		ret = -EINVAL;
	} else if (!top || cpus < 1) {
		ret = -ENODEV;
	}
	if (ret) {
		net_conn_close(conn);
		return ret;
	}
	run->plan->quiet = true;
	ret = net_send_serve(conn, run->agent_peer, (uint32_t)cpus, meta_subbuf_size(top),
			     run->agent_trace_id, &ns, &run->err);
	return ret ? ret : record_net_agent(ns, &run->net);
}

static int record_run(struct record_run *run)
{
	bool started = false;
	int ret, restored;

	ret = flight_check(&run->flight, run->plan);
	if (!ret)
		ret = check_something_to_do(run->plan);
	if (!ret)
		ret = plan_check_latency(run->plan);
	if (ret)
		return ret;
	if (run->flight.armed)
		return flight_run(run->plan, &run->flight, &run->trace);
	if (run->agent_conn) {
		ret = serve_agent(run);
	} else if (run->plan->net_target) {
		struct net_tls_opts tls = tls_opts(run->plan);

		ret = check_net(run->plan);
		if (ret >= 0)
			ret = record_net_connect(run->plan->net_target, run->plan->net_udp,
						 &tls, ret, &run->net, &run->err);
	}
	/* blocked before the file exists: a signal from here on goes through the cleanup */
	if (!ret)
		ret = trace_session_begin(&run->trace);
	if (!ret)
		ret = open_output(run);
	if (!ret)
		ret = trace_session_apply(&run->trace, &run->err);
	if (!ret)
		ret = setup_session(run);
	if (!ret && run->net)
		ret = record_net_start(&run->session, run->net, &run->err);
	if (!ret) {
		started = true;
		ret = start_and_run(run);
	}
	if (started) {
		int r = stop_and_write(run, !ret);

		ret = ret ? ret : r;
	}
	record_session_close(&run->session);
	record_net_free(run->net);
	run->net = NULL;
	restored = trace_session_end(&run->trace, run->plan->keep, &run->err);
	if (run->out_fd >= 0)
		close(run->out_fd);
	if (ret && run->out_fd >= 0)
		unlink(output_path(run->plan));
	if (run->err.len)
		fprintf(stderr, "ktrace %s: %s\n", run->cmd, strbuf_str(&run->err));
	if (!ret)
		print_summary(run);
	/* the recording is kept: tracefs not put back fails the command, not the file */
	return ret ? ret : restored;
}

/* the fields a run starts with (the agent's are set before: nothing is cleared here) */
static void run_init(struct record_run *run, struct plan *plan, const char *cmd)
{
	run->plan = plan;
	run->cmd = cmd;
	run->out_fd = -1;
	trace_session_init(&run->trace, plan, cmd);
}

static void run_release(struct record_run *run)
{
	net_conn_close(run->agent_conn);
	strbuf_release(&run->err);
	record_session_release(&run->session);
}

static int run_prepared(struct record_run *run, const struct plan_command *cmd, int argc,
			char **argv, int (*fn)(struct record_run *run), size_t own_offset);

/* own_offset: where in struct record_run the command's own rows go */
static int run_command(const struct plan_command *cmd, int argc, char **argv,
		       int (*fn)(struct record_run *run), size_t own_offset)
{
	struct record_run run;

	memset(&run, 0, sizeof(run));
	return run_prepared(&run, cmd, argc, argv, fn, own_offset);
}

static int run_prepared(struct record_run *runp, const struct plan_command *cmd, int argc,
			char **argv, int (*fn)(struct record_run *run), size_t own_offset)
{
	struct record_run run = *runp;
	struct plan plan;
	int ret;

	memset(&plan, 0, sizeof(plan));
	run_init(&run, &plan, cmd->help->name);
	ret = plan_parse_own(cmd, (char *)&run + own_offset, argc, argv, &plan);
	run.latency = ret ? -1 : plan_latency_instance(&plan);
	if (!ret)
		ret = fn(&run);
	plan_release(&plan);
	run_release(&run);
	return kt_result_of(ret);
}

int record_plan_run(struct plan *plan)
{
	struct record_run run;
	int ret;

	memset(&run, 0, sizeof(run));
	run_init(&run, plan, plan->cmd);
	run.latency = plan_latency_instance(plan);
	ret = record_run(&run);
	run_release(&run);
	return ret;
}

static const struct kt_option record_options[] = {
	PLAN_OPTIONS
	PLAN_PROFILE_OPTIONS
	PLAN_NET_TLS_OPTIONS
	FLIGHT_OPTIONS
	{ 0 },
};

static int record_option(void *own, int id, const char *arg)
{
	return flight_option(own, id, arg);
}

static const struct kt_command_help record_help = {
	.name = "record",
	.usage = "[OPTIONS] [[--] COMMAND [ARGS]]",
	.summary = "Configure ftrace from the options; record the trace while COMMAND runs (or "
		   "until Ctrl-C without one).",
	.options = record_options,
};

const struct plan_command plan_cmd_record = {
	.help = &record_help, .caps = PLAN_RUNS_COMMAND | PLAN_WRITES_FILE | PLAN_SENDS,
	.option = record_option,
};

int cmd_record(int argc, char **argv)
{
	return run_command(&plan_cmd_record, argc, argv, record_run,
			   offsetof(struct record_run, flight));
}

int record_agent_serve(struct net_conn *conn, const char *peer, const struct net_trace_req *req,
		       uint64_t trace_id)
{
	struct record_run run = { .agent_conn = conn, .agent_peer = peer,
				  .agent_trace_id = trace_id };
	char **argv = calloc((size_t)req->argc + 2, sizeof(*argv));
	int i, ret;

	if (!argv) {
		net_conn_close(conn);
		return kt_result_of(-ENOMEM);
	}
	argv[0] = "record";
	for (i = 0; i < req->argc; i++)
		argv[i + 1] = req->argv[i];
	ret = run_prepared(&run, &plan_cmd_record, req->argc + 1, argv, record_run,
			   offsetof(struct record_run, flight));
	free(argv);
	return ret;
}

/*
 * extract's buffers, as trace-cmd picks them: the top instance alone by default; with -B the
 * named instances, with -a every instance tracefs has; the top one too with -t.
 */
static int extract_names(const struct plan *plan, const struct extract_args *x,
			 const char ***names)
{
	char **all = NULL;
	int i, n = 0;

	*names = calloc((size_t)plan->nr_instances + 2, sizeof(**names));
	if (!*names)
		return -ENOMEM;
	if (x->top_too || (plan->nr_instances < 2 && !x->all_instances))
		(*names)[n++] = NULL;
	for (i = 1; !x->all_instances && i < plan->nr_instances; i++)
		(*names)[n++] = strdup(plan->instances[i].name);
	if (x->all_instances)
		tfs_instances(&all);
	for (i = 0; all && all[i]; i++) {
		const char **grown = realloc(*names, sizeof(**names) * (size_t)(n + 2));

		if (!grown)
			break;
		*names = grown;
		(*names)[n++] = strdup(all[i]);
	}
	strv_free(all);
	return n;
}

static void free_names(const char **names, int n)
{
	int i;

	for (i = 0; names && i < n; i++)
		free((char *)names[i]);
	free(names);
}

/*
 * extract: whatever the kernel buffers hold now, without changing any setting (trace-cmd also
 * switches all tracing off afterwards; use ktrace stop/reset for that). The recorders take every
 * page, the partial last ones too, and stop at the first empty read.
 */
static int extract_run(struct record_run *run)
{
	const char **names = NULL;
	int n, ret, restored;

	/* -p LATENCY_TRACER: the text its `trace` file holds, as record would store it */
	ret = plan_check_latency(run->plan);
	if (ret)
		return ret;
	/*
	 * Reading a buffer consumes it: a signal waits until the file holding the pages is
	 * written, and is then dropped (trace_session_end), so an interrupted extract keeps them.
	 */
	ret = trace_session_begin(&run->trace);
	if (!ret)
		ret = open_output(run);
	n = ret ? 0 : run->latency >= 0 ? record_instance_names(run->plan, run->latency, &names)
					: extract_names(run->plan, &run->extract, &names);
	if (n < 0)
		ret = n;
	if (!ret)
		ret = record_session_init(&run->session, names, n, output_path(run->plan),
				       run->plan->file_version, run->plan->compression);
	run->session.events.all = true;
	run->session.latency = run->latency >= 0;
	if (run->extract.snapshot)
		run->session.raw_file = "snapshot_raw";
	if (!ret && !run->session.latency)
		ret = record_session_start(&run->session, &run->err);
	if (!ret && !run->session.latency)
		ret = record_session_finish(&run->session, &run->err);
	if (!ret)
		ret = record_session_write(&run->session, run->out_fd, &run->err);
	if (run->latency >= 0)
		free(names);	/* borrowed from the plan */
	else
		free_names(names, n);
	if (run->out_fd >= 0)
		close(run->out_fd);
	if (ret && run->out_fd >= 0)
		unlink(output_path(run->plan));
	restored = trace_session_end(&run->trace, false, &run->err);
	if (run->err.len)
		fprintf(stderr, "ktrace extract: %s\n", strbuf_str(&run->err));
	else if (ret)
		fprintf(stderr, "ktrace extract: %s\n", strerror(-ret));
	return ret ? ret : restored;
}

/*
 * extract reads what is there: no events or filters, and -s means the snapshot buffer. It
 * changes no setting, so trace-cmd's -O, -k and --date (which set options, keep tracing on, and
 * write a date marker) are not in its table: they are unknown options.
 */
static const struct kt_option extract_options[] = {
	KT_OPT('p', NULL, KT_ARG_REQUIRED, "TRACER", "the tracer whose data is extracted"),
	KT_OPT('o', NULL, KT_ARG_REQUIRED, "FILE", "output file (default trace.dat)"),
	KT_OPT('B', NULL, KT_ARG_REQUIRED, "INSTANCE", "extract INSTANCE (repeatable)"),
	KT_OPT('a', NULL, KT_ARG_NONE, NULL, "extract every instance"),
	KT_OPT('t', NULL, KT_ARG_NONE, NULL, "the top instance too (with -B or -a)"),
	KT_OPT('s', NULL, KT_ARG_NONE, NULL, "extract the snapshot buffer"),
	KT_OPT('q', NULL, KT_ARG_NONE, NULL, "quiet"),
	PLAN_FILE_FORMAT_OPTIONS
	{ 0 },
};

static const struct kt_command_help extract_help = {
	.name = "extract",
	.usage = "[OPTIONS]",
	.summary = "Save what the kernel buffers hold into a trace.dat file.",
	.options = extract_options,
};

/* -s, -t and -a mean other things to extract than to record: its own rows. */
static int extract_option(void *own, int id, const char *arg)
{
	struct extract_args *x = own;

	switch (id) {
	case 's':
		x->snapshot = true;
		return 0;
	case 't':
		x->top_too = true;
		return 0;
	case 'a':
		x->all_instances = true;
		return 0;
	}
	return 1;
}

const struct plan_command plan_cmd_extract = {
	.help = &extract_help, .caps = PLAN_WRITES_FILE | PLAN_EXTRACTS, .option = extract_option,
};

int cmd_extract(int argc, char **argv)
{
	return run_command(&plan_cmd_extract, argc, argv, extract_run,
			   offsetof(struct record_run, extract));
}
