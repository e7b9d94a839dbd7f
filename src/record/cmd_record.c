// SPDX-License-Identifier: GPL-2.0-only
/*
 * ktrace record: the flow (extract and an agent's recording reuse it, record_run.h). parse -> a trace session (session.h: the stop
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
#include "metadata.h"
#include "record_date.h"
#include "record_plan.h"
#include "record_run.h"

const char *record_output_path(const struct plan *plan)
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
void record_measure_date(struct record_run *run)
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
		ret = record_session_init(&run->session, names, n, record_output_path(run->plan),
				       run->plan->file_version, run->plan->compression);
	if (!ret)
		run->session.max_bytes = (uint64_t)run->plan->max_kb * 1024;
	run->session.ts_offset = run->plan->ts_offset;
	run->session.rt_prio = run->plan->rt_prio;
	run->session.no_ring_wait = run->plan->poll;
	if (!ret && run->plan->temp_dir)
		ret = record_session_set_temp_dir(&run->session, run->plan->temp_dir);
	run->session.trace_id = run->guests ? record_guests_trace_id(run->guests) :
				run->agent_trace_id;
	run->session.guests = run->guests;
	run->session.procmaps = &run->trace.procmaps;
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
		record_measure_date(run);
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
	if (run->plan->daemonize)
		record_daemon_detach(&run->daemon);
	else if (!run->plan->command && !run->plan->quiet)
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

int record_open_output(struct record_run *run)
{
	const char *path = record_output_path(run->plan);
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
				run->max_latency[0] ? run->max_latency : "?", record_output_path(run->plan));
		return;
	}
	for (i = 0; i < run->plan->nr_instances; i++)
		for (j = 0; j < run->plan->instances[i].nr_events; j++)
			if (run->plan->instances[i].events[j].filter)
				hints.event_filter = true;
	record_status_summary(&run->status, &run->session, &hints,
			   run->plan->net_target ? run->plan->net_target : record_output_path(run->plan));
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
static int check_something_to_do(const struct plan *plan, bool guests)
{
	int i;

	/* with -A the host's own buffer is recorded alongside, whatever it holds (trace-cmd) */
	if (guests)
		return 0;
	for (i = 0; i < plan->nr_instances; i++)
		if (plan_instance_active(&plan->instances[i]))
			return 0;
	fprintf(stderr, "ktrace record: no event or tracer was specified (-e EVENT or -p TRACER)\n");
	return -EINVAL;
}

/* The host's clock goes to the guests: -C of the top instance, else tracefs's current one. */
static int connect_guests(struct record_run *run)
{
	const char *dir = tracefs_tracing_dir();
	char *current = NULL;
	const char *clock = run->plan->instances[0].clock;
	int ret;

	if (!clock && dir)
		clock = current = meta_selected_clock(dir);
	ret = record_guests_connect(run->guests, record_output_path(run->plan), clock, &run->err);
	free(current);
	return ret;
}

int record_run_record(struct record_run *run)
{
	bool started = false;
	int ret, restored, guests = 0;

	ret = flight_check(&run->flight, run->plan);
	if (!ret)
		ret = check_something_to_do(run->plan, run->guests);
	if (!ret && run->guests && (run->plan->net_target || run->latency >= 0 ||
				    run->flight.armed))
		ret = kt_option_error(run->cmd, "-A", NULL, run->plan->net_target ?
				      "and -N: the guests' files are written here" :
				      run->flight.armed ? "and -W: a flight recorder saves this machine's "
				      "buffers only" : "and a latency tracer: not recorded together");
	if (!ret)
		ret = plan_check_latency(run->plan);
	if (!ret && run->plan->daemonize && (run->flight.armed || run->agent_conn))
		ret = kt_option_error(run->cmd, "--daemonize", NULL, run->agent_conn ?
				      "is the host's to give, not an agent's" :
				      "and -W: not together yet (run the flight recorder under nohup)");
	/* before anything is touched or any thread runs: the parent only waits */
	if (!ret && run->plan->daemonize) {
		ret = record_daemon_fork(&run->daemon);
		if (ret)
			fprintf(stderr, "ktrace %s: --daemonize: %s\n", run->cmd, strerror(-ret));
	}
	if (ret)
		return ret;
	if (run->flight.armed)
		return flight_run(run->plan, &run->flight, &run->trace);
	if (run->agent_conn) {
		ret = record_agent_prepare(run);
	} else if (run->plan->net_target) {
		struct net_tls_opts tls = tls_opts(run->plan);

		ret = check_net(run->plan);
		if (ret >= 0)
			ret = record_net_connect(run->plan->net_target, run->plan->net_udp,
						 &tls, ret, &run->net, &run->err);
	}
	/* the guests start before tracefs is touched: a refused one leaves it as it was */
	if (!ret && run->guests)
		ret = connect_guests(run);
	/* blocked before the file exists: a signal from here on goes through the cleanup */
	if (!ret)
		ret = trace_session_begin(&run->trace);
	if (!ret)
		ret = record_open_output(run);
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
		/* a guest that failed loses its file, not the host's */
		if (!ret && run->guests)
			guests = record_guests_finish(run->guests, &run->err);
	}
	record_session_close(&run->session);
	record_net_free(run->net);
	run->net = NULL;
	restored = trace_session_end(&run->trace, run->plan->keep, &run->err);
	if (run->plan->daemonize)
		record_daemon_end(&run->daemon);
	if (run->out_fd >= 0)
		close(run->out_fd);
	if (ret && run->out_fd >= 0)
		unlink(record_output_path(run->plan));
	if (run->err.len)
		fprintf(stderr, "ktrace %s: %s\n", run->cmd, strbuf_str(&run->err));
	if (!ret)
		print_summary(run);
	if (!ret && !guests && run->guests && !run->plan->quiet)
		record_guests_summary(run->guests);
	/* the recording is kept: tracefs not put back fails the command, not the file */
	return ret ? ret : guests ? guests : restored;
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

int record_run_prepared(struct record_run *runp, const struct plan_command *cmd, int argc,
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
	ret = record_run_record(&run);
	run_release(&run);
	return ret;
}

static const struct kt_option record_options[] = {
	PLAN_OPTIONS
	PLAN_PROFILE_OPTIONS
	PLAN_CAPTURE_OPTIONS
	PLAN_NET_TLS_OPTIONS
	FLIGHT_OPTIONS
	KT_OPT('A', NULL, KT_ARG_REQUIRED, "GUEST",
	       "record GUEST's agent too (NAME@CID[:PORT], HOST:PORT, @HOST:PORT); the options "
	       "after it, up to -B or -A, are the guest's"),
	KT_OPT(RECORD_OPT_GUEST_NAME, "name", KT_ARG_REQUIRED, "NAME",
	       "after -A: the guest's name (its file is trace-NAME.dat)"),
	{ 0 },
};

static int record_option(void *own, int id, const char *arg)
{
	/* -A and --name are taken out before parsing (record_guest.h) */
	if (id == 'A' || id == RECORD_OPT_GUEST_NAME)
		return kt_option_error("record", id == 'A' ? "-A" : "--name", arg,
				       "is not allowed here");
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
	struct record_guests *guests = NULL;
	struct record_run run;
	char **host_argv = NULL;
	int host_argc, ret;

	memset(&run, 0, sizeof(run));
	ret = record_guests_split(record_options, argc, argv, &host_argc, &host_argv, &guests);
	if (ret)
		return ret;
	run.guests = guests;
	ret = record_run_prepared(&run, &plan_cmd_record, host_argc, host_argv, record_run_record,
				  offsetof(struct record_run, flight));
	record_guests_free(guests);
	free(host_argv);
	return ret;
}

