// SPDX-License-Identifier: GPL-2.0-only
/*
 * ktrace start: apply a record-style plan and leave tracing on, without recording (the
 * settings stay: 'ktrace stop', 'ktrace extract' and 'ktrace reset' follow).
 * ktrace stop: tracing_on=0 in the chosen instances; the buffers keep their data.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tracefs.h>

#include "ktrace/command.h"
#include "ktrace/options.h"
#include "ktrace/plan_options.h"
#include "ktrace/session.h"
#include "ktrace/plan.h"
#include "ktrace/tfs.h"

/* Like trace-cmd: starting without anything to trace is a mistake, not a no-op. */
static int check_something(const struct plan *plan)
{
	int i;

	for (i = 0; i < plan->nr_instances; i++)
		if (plan_instance_active(&plan->instances[i]))
			return 0;
	fprintf(stderr, "ktrace start: no event or tracer to start (give -e EVENT or -p TRACER)\n");
	return -EINVAL;
}

static const struct kt_option start_options[] = {
	PLAN_OPTIONS
	KT_OPT(PLAN_OPT_FORK, "fork", KT_ARG_NONE, NULL,
	       "with COMMAND: return once it runs, without waiting for its exit"),
	{ 0 },
};

static const struct kt_command_help start_help = {
	.name = "start",
	.usage = "[OPTIONS] [[--] COMMAND [ARGS]]",
	.summary = "Configure ftrace from the options and leave tracing on, without recording "
		   "(record's options, but none about a file); with COMMAND, run it and wait.",
	.options = start_options,
};

/* --fork is start's own: the plan does not know it. own: the bool it sets. */
static int start_option(void *own, int id, const char *arg)
{
	(void)arg;
	if (id != PLAN_OPT_FORK)
		return 1;
	*(bool *)own = true;
	return 0;
}

const struct plan_command plan_cmd_start = {
	.help = &start_help, .caps = PLAN_RUNS_COMMAND, .option = start_option,
};

/*
 * As trace-cmd start does, the command runs with tracing set up and start waits for it (not
 * with --fork); the settings stay either way. A stop signal is passed on to the command, which
 * decides whether it ends.
 */
static void wait_command(struct trace_session *trace)
{
	const struct session_wait forever = { .tick_ms = -1 };

	trace_session_wait(trace, &forever);
}

/*
 * A trace session that ends right after tracing is on (or once the command exits), keeping
 * what it set. A stop signal while the plan is applied puts everything back instead of leaving
 * half a setup behind.
 */
int cmd_start(int argc, char **argv)
{
	struct trace_session trace;
	struct strbuf err = STRBUF_INIT;
	struct plan plan;
	bool fork_command = false;
	int ret;

	memset(&plan, 0, sizeof(plan));
	trace_session_init(&trace, &plan, "start");
	ret = plan_parse_own(&plan_cmd_start, &fork_command, argc, argv, &plan);
	if (!ret && fork_command && !plan.command)
		ret = kt_usage_error("start", "--fork", NULL, "needs a COMMAND to run");
	if (!ret)
		ret = check_something(&plan);
	if (!ret)
		ret = trace_session_begin(&trace);
	if (!ret)
		ret = trace_session_apply(&trace, &err);
	if (!ret)
		ret = trace_session_go(&trace, &err);
	if (!ret && trace_session_signalled(&trace)) {
		fprintf(stderr, "ktrace start: stopped by signal %d; the settings are put back\n",
			trace.stop_signal);
		ret = -EINTR;
	}
	if (!ret && plan.command && !fork_command)
		wait_command(&trace);
	if (trace_session_end(&trace, !ret, &err) && !ret)
		ret = -EIO;
	if (err.len)
		fprintf(stderr, "ktrace start: %s\n", err.buf);
	strbuf_release(&err);
	plan_release(&plan);
	return kt_result_of(ret);
}

struct stop_args {
	char **names;		/* -B */
	bool all, top;
};

static const struct kt_option stop_options[] = {
	KT_STRING_LIST('B', NULL, "INSTANCE", struct stop_args, names,
		       "stop INSTANCE (repeatable)"),
	KT_BOOL('a', NULL, struct stop_args, all,
		"stop every instance, and the top one unless -B is given"),
	KT_BOOL('t', NULL, struct stop_args, top, "stop the top instance too (with -B)"),
	{ 0 },
};

static const struct kt_command_help stop_help = {
	.name = "stop",
	.usage = "[-B INSTANCE]... [-a] [-t]",
	.summary = "Stop tracing (tracing_on=0); the buffers keep their data for "
		   "'ktrace extract' or 'ktrace show'.",
	.options = stop_options,
};

static int stop_instance(const char *name)
{
	int ret;

	if (name && !tracefs_instance_exists(name)) {
		fprintf(stderr, "ktrace stop: -B '%s': no such instance\n", name);
		return -ENOENT;
	}
	ret = tfs_inst_write(name, "tracing_on", "0");
	if (ret)
		fprintf(stderr, "ktrace stop: cannot write tracing_on of %s: %s\n",
			name ? name : "the top instance", tfs_cause(ret));
	return ret;
}

static int stop_all_instances(void)
{
	char **list = NULL;
	int i, ret = 0;

	tfs_instances(&list);
	for (i = 0; list && list[i]; i++)
		if (stop_instance(list[i]))
			ret = -1;
	strv_free(list);
	return ret;
}

int cmd_stop(int argc, char **argv)
{
	struct stop_args a = { 0 };
	int i, ret = kt_parse_options(&stop_help, argc, argv, &a, NULL);

	if (ret) {
		strv_free(a.names);
		return ret;
	}
	/* as trace-cmd: the top instance unless a -B names another, or -t brings it back */
	if (a.top || !a.names)
		ret = stop_instance(NULL);
	for (i = 0; !ret && a.names && a.names[i]; i++)
		ret = stop_instance(a.names[i]);
	if (!ret && a.all)
		ret = stop_all_instances();
	strv_free(a.names);
	return ret ? 1 : 0;
}
