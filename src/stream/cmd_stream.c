// SPDX-License-Identifier: GPL-2.0-only
/*
 * ktrace stream: record's options -> plan -> tracefs (with undo), then every CPU's
 * trace_pipe_raw is read live and printed by report's printer (the same line for the same
 * event, and report's -F filters as --filter), merged by timestamp, until
 * Ctrl-C, SIGTERM/SIGHUP or the command's exit; then tracing goes off, what is left is printed
 * and tracefs is restored.
 *
 * It runs in a trace session (session.h) as record does, so that every way out, a signal
 * included, goes through the same drain and undo.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event-parse.h>
#include <tracefs.h>

#include "ktrace/command.h"
#include "ktrace/dat.h"
#include "ktrace/plan.h"
#include "ktrace/plan_options.h"
#include "ktrace/report.h"
#include "ktrace/session.h"
#include "ktrace/strv.h"
#include "stream_comm.h"
#include "stream_cpu.h"

/* How long the kernel may batch events before they are printed; also the ordering window. */
#define STREAM_POLL_MS 100
/* Pages taken from one CPU per round, so that a busy CPU cannot starve the others. */
#define STREAM_PAGES_PER_ROUND 64

struct stream_run {
	struct plan plan;
	struct trace_session trace;	/* signals, the command, tracefs and its undo */
	struct tep_handle *tep;
	struct tep_plugin_list *plugins;
	struct tracefs_instance *instance;
	struct stream_cpu **cpus;
	int nr_cpus;
	struct report_opts opts;	/* report's defaults, and --filter as its -F */
	struct report_printer *printer;
	struct report_filter *filter;
	struct stream_comm *comm;
	char **display_filters;		/* --filter: report's -F, on the printed events */
};

/* The instance streamed: the first one the plan configures (stream follows one buffer). */
static const char *stream_instance_name(const struct plan *plan)
{
	int i;

	for (i = 0; i < plan->nr_instances; i++)
		if (plan_instance_in_use(plan, i))
			return plan->instances[i].name;
	return NULL;
}

/* As report prints a file of the same clock: raw counts where it does not count nanoseconds. */
static enum report_time_unit clock_unit(struct tracefs_instance *instance)
{
	char *clock = tracefs_get_clock(instance);
	enum report_time_unit unit = REPORT_TIME_USECS;

	if (clock && !dat_clock_counts_ns(clock))
		unit = REPORT_TIME_RAW;
	free(clock);
	return unit;
}

static int take_filters(struct stream_run *run)
{
	char **f = run->display_filters;
	int i, n = 0;

	while (f && f[n])
		n++;
	if (!n)
		return 0;
	run->opts.filters = calloc((size_t)n, sizeof(*run->opts.filters));
	if (!run->opts.filters)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		run->opts.filters[i].expr = f[i];
	run->opts.nr_filters = n;
	run->opts.filter_flag = "--filter";
	return 0;
}

static int open_printer(struct stream_run *run)
{
	struct report_printer_conf conf = { .opts = &run->opts };
	struct strbuf err = STRBUF_INIT;
	int ret;

	conf.clock.unit = clock_unit(run->instance);
	ret = take_filters(run);
	if (!ret)
		ret = report_filter_new(run->tep, &run->opts, &run->filter, &err);
	if (!ret)
		ret = report_printer_new_live(run->tep, &conf, &run->printer, &err);
	if (ret)
		fprintf(stderr, "ktrace stream: %s\n", err.len ? err.buf : strerror(-ret));
	strbuf_release(&err);
	return ret;
}

static int open_readers(struct stream_run *run)
{
	const char *name = stream_instance_name(&run->plan);
	long n = sysconf(_SC_NPROCESSORS_CONF);
	int cpu, ret;

	if (name) {
		run->instance = tracefs_instance_alloc(NULL, name);
		if (!run->instance)
			return -errno ? -errno : -ENOMEM;
	}
	run->tep = tracefs_local_events(NULL);
	if (!run->tep) {
		fprintf(stderr, "ktrace stream: cannot read the event formats of %s\n",
			tracefs_tracing_dir());
		return -EIO;
	}
	/* the blk tracer's records have no format file: the one report makes up */
	dat_tep_add_blk_event(run->tep);
	run->plugins = tep_load_plugins(run->tep);
	run->cpus = calloc(n > 0 ? (size_t)n : 1, sizeof(*run->cpus));
	if (!run->cpus)
		return -ENOMEM;
	for (cpu = 0; cpu < n; cpu++) {
		ret = stream_cpu_open(run->tep, run->instance, cpu, &run->cpus[run->nr_cpus]);
		if (ret == -ENOENT)
			continue;	/* a possible CPU that tracefs does not list */
		if (ret) {
			fprintf(stderr, "ktrace stream: cannot open CPU %d's trace_pipe_raw: %s\n",
				cpu, strerror(-ret));
			return ret;
		}
		run->nr_cpus++;
	}
	ret = stream_comm_new(run->tep, &run->comm);
	if (!ret)
		ret = open_printer(run);
	return ret;
}

/*
 * Reads every CPU once. Returns the merge limit: a CPU that delivered pages may still be
 * writing events older than its newest one to a page not read yet, but not older than what
 * the other CPUs have already shown, so records up to the smallest "newest" are safe.
 */
static unsigned long long fill_all(struct stream_run *run, bool *any)
{
	unsigned long long limit = ULLONG_MAX, last;
	int i, n;

	*any = false;
	for (i = 0; i < run->nr_cpus; i++) {
		n = stream_cpu_fill(run->cpus[i], STREAM_PAGES_PER_ROUND, &last);
		if (n > 0) {
			*any = true;
			if (last < limit)
				limit = last;
		}
	}
	return limit;
}

/* The CPU whose queued record is the oldest, or -1 when nothing is queued. */
static int oldest_cpu(struct stream_run *run)
{
	unsigned long long best = ULLONG_MAX;
	struct tep_record *r;
	int i, at = -1;

	for (i = 0; i < run->nr_cpus; i++) {
		r = stream_cpu_peek(run->cpus[i]);
		if (r && (at < 0 || r->ts < best)) {
			best = r->ts;
			at = i;
		}
	}
	return at;
}

static void print_until(struct stream_run *run, unsigned long long limit)
{
	struct report_event ev = { 0 };
	int at;

	stream_comm_round(run->comm);
	while ((at = oldest_cpu(run)) >= 0) {
		ev.record = stream_cpu_peek(run->cpus[at]);
		if (ev.record->ts > limit)
			break;
		ev.cpu_slot = ev.record->cpu;
		if (stream_comm_check(run->comm, tep_data_pid(run->tep, ev.record)))
			report_printer_forget_comms(run->printer);
		if (report_filter_keep(run->filter, &ev))
			report_print_event(run->printer, &ev, stdout);
		stream_cpu_advance(run->cpus[at]);
	}
	report_printer_flush(run->printer);
	fflush(stdout);
}

static void stream_tick(void *ctx, bool timeout)
{
	struct stream_run *run = ctx;
	bool any;

	print_until(run, fill_all(run, &any));
}

/* Tracing is off: everything still in the buffers is printed. */
static void drain(struct stream_run *run)
{
	bool any = true;

	while (any)
		fill_all(run, &any);
	print_until(run, ULLONG_MAX);
}

static int go_live(struct stream_run *run)
{
	struct session_wait w = { .tick_ms = STREAM_POLL_MS, .tick = stream_tick, .ctx = run };
	struct strbuf err = STRBUF_INIT;
	pid_t self = getpid();
	int ret;

	/* our own reads must not feed the stream */
	trace_session_exclude(&run->trace, &self, 1);
	ret = trace_session_go(&run->trace, &err);
	if (err.len)
		fprintf(stderr, "ktrace stream: %s\n", err.buf);
	strbuf_release(&err);
	if (ret)
		return ret;
	if (!run->plan.command && !run->plan.quiet)
		fprintf(stderr, "Hit Ctrl^C to stop streaming\n");
	trace_session_wait(&run->trace, &w);
	return 0;
}

/* Before tracefs is put back: the kernel refuses a new current_tracer while a reader is open */
static void close_readers(struct stream_run *run)
{
	int i;

	for (i = 0; i < run->nr_cpus; i++)
		stream_cpu_close(run->cpus[i]);
	run->nr_cpus = 0;
}

static void stream_cleanup(struct stream_run *run)
{
	close_readers(run);
	free(run->cpus);
	report_printer_free(run->printer);
	report_filter_free(run->filter);
	free(run->opts.filters);
	stream_comm_free(run->comm);
	if (run->plugins)
		tep_unload_plugins(run->plugins, run->tep);
	tep_free(run->tep);
	tracefs_instance_free(run->instance);
}

static int stream_run(struct stream_run *run)
{
	struct strbuf err = STRBUF_INIT;
	int ret;

	ret = plan_check_latency(&run->plan);
	if (!ret)
		ret = trace_session_begin(&run->trace);
	if (!ret)
		ret = trace_session_apply(&run->trace, &err);
	if (err.len)
		fprintf(stderr, "ktrace stream: %s\n", err.buf);
	strbuf_release(&err);
	if (!ret)
		ret = open_readers(run);
	if (!ret) {
		ret = go_live(run);
		trace_session_stop(&run->trace);
		drain(run);
	}
	close_readers(run);
	if (trace_session_end(&run->trace, run->plan.keep, &err) && !ret)
		ret = -EIO;
	if (err.len)
		fprintf(stderr, "ktrace stream: %s\n", err.buf);
	strbuf_release(&err);
	stream_cleanup(run);
	return ret;
}

static const struct kt_option stream_options[] = {
	PLAN_OPTIONS
	KT_OPT(PLAN_OPT_DISPLAY_FILTER, "filter", KT_ARG_REQUIRED, "FILTER",
	       "print only the events FILTER keeps (report's -F)"),
	{ 0 },
};

static const struct kt_command_help stream_help = {
	.name = "stream",
	.usage = "[OPTIONS] [[--] COMMAND [ARGS]]",
	.summary = "Configure ftrace from the options and print the events live, as report "
		   "formats them, until Ctrl-C or COMMAND exits.",
	.options = stream_options,
};

/* --filter is stream's own: the plan does not know it. own: the char ** list of them. */
static int stream_option(void *own, int id, const char *arg)
{
	if (id != PLAN_OPT_DISPLAY_FILTER)
		return 1;
	return strv_push(own, arg);
}

const struct plan_command plan_cmd_stream = {
	.help = &stream_help, .caps = PLAN_RUNS_COMMAND, .option = stream_option,
};

int cmd_stream(int argc, char **argv)
{
	struct stream_run run;
	int ret;

	memset(&run, 0, sizeof(run));
	trace_session_init(&run.trace, &run.plan, "stream");
	ret = plan_parse_own(&plan_cmd_stream, &run.display_filters, argc, argv, &run.plan);
	if (!ret)
		ret = stream_run(&run);
	plan_release(&run.plan);
	strv_free(run.display_filters);
	return kt_result_of(ret);
}
