// SPDX-License-Identifier: GPL-2.0-only
/*
 * ktrace start: apply a record-style plan and leave tracing on, without recording (the
 * settings stay: 'ktrace stop', 'ktrace extract' and 'ktrace reset' follow).
 * ktrace set: the same flow, changing only what is given (PLAN_ADDS): what is on stays on,
 * tracing_on stays as it is.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ktrace/command.h"
#include "ktrace/options.h"
#include "ktrace/plan_options.h"
#include "ktrace/session.h"
#include "ktrace/plan.h"

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
	PLAN_PROFILE_OPTIONS
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

static const struct kt_option set_options[] = {
	PLAN_SETUP_OPTIONS
	PLAN_RUN_OPTIONS
	KT_OPT(PLAN_OPT_FORK, "fork", KT_ARG_NONE, NULL,
	       "with COMMAND: return once it runs, without waiting for its exit"),
	{ 0 },
};

static const struct kt_command_help set_help = {
	.name = "set",
	.usage = "[OPTIONS] [[--] COMMAND [ARGS]]",
	.summary = "Change only the given ftrace settings (events, tracer, filters, buffer "
		   "size, ...), keeping everything else as it is, tracing_on included; -v -B "
		   "INSTANCE deletes an instance.",
	.options = set_options,
};

/* trace-cmd set refuses what only a recording means, in its words */
static int set_option(void *own, int id, const char *arg)
{
	static const struct { int id; const char *flag; } recording_only[] = {
		{ 's', "-s" }, { 'k', "-k" }, { 'K', "-K" }, { 'a', "-a" },
		{ PLAN_OPT_DATE, "--date" },
	};
	size_t i;

	for (i = 0; i < sizeof(recording_only) / sizeof(recording_only[0]); i++)
		if (id == recording_only[i].id)
			return kt_usage_error("set", recording_only[i].flag, NULL,
					      "has no effect with the command set (did you mean "
					      "'record'?)");
	return start_option(own, id, arg);
}

const struct plan_command plan_cmd_set = {
	.help = &set_help, .caps = PLAN_RUNS_COMMAND | PLAN_ADDS, .option = set_option,
};

/*
 * A trace session that ends right after tracing is on (or once the command exits), keeping
 * what it set. A stop signal while the plan is applied puts everything back instead of leaving
 * half a setup behind.
 */
static int start_flow(const struct plan_command *cmd, int argc, char **argv)
{
	const char *name = cmd->help->name;
	struct trace_session trace;
	struct strbuf err = STRBUF_INIT;
	struct plan plan;
	bool fork_command = false;
	int ret;

	memset(&plan, 0, sizeof(plan));
	trace_session_init(&trace, &plan, name);
	ret = plan_parse_own(cmd, &fork_command, argc, argv, &plan);
	if (!ret && fork_command && !plan.command)
		ret = kt_usage_error(name, "--fork", NULL, "needs a COMMAND to run");
	/* set changes what it is given, even nothing; start without a trace is a mistake */
	if (!ret && !(cmd->caps & PLAN_ADDS))
		ret = check_something(&plan);
	if (!ret)
		ret = trace_session_begin(&trace);
	if (!ret)
		ret = trace_session_apply(&trace, &err);
	if (!ret)
		ret = trace_session_go(&trace, &err);
	if (!ret && trace_session_signalled(&trace)) {
		fprintf(stderr, "ktrace %s: stopped by signal %d; the settings are put back\n",
			name, trace.stop_signal);
		ret = -EINTR;
	}
	if (!ret && plan.command && !fork_command)
		wait_command(&trace);
	if (trace_session_end(&trace, !ret, &err) && !ret)
		ret = -EIO;
	if (err.len)
		fprintf(stderr, "ktrace %s: %s\n", name, err.buf);
	strbuf_release(&err);
	plan_release(&plan);
	return kt_result_of(ret);
}

int cmd_start(int argc, char **argv)
{
	return start_flow(&plan_cmd_start, argc, argv);
}

int cmd_set(int argc, char **argv)
{
	return start_flow(&plan_cmd_set, argc, argv);
}
