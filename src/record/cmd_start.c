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
#include "control_args.h"
#include "plan_internal.h"

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

int cmd_start(int argc, char **argv)
{
	struct tracefs_undo *undo = NULL;
	struct plan plan;
	int ret;

	ret = plan_parse("start", argc, argv, &plan);
	if (!ret)
		ret = check_something(&plan);
	if (!ret)
		ret = plan_apply(&plan, &undo);
	if (!ret) {
		ret = plan_tracing_on(&plan, undo, true);
		if (ret)
			tracefs_undo_restore(undo);
		else
			tracefs_undo_keep(undo);
	}
	tracefs_undo_free(undo);
	plan_release(&plan);
	if (ret == PLAN_HELP_SHOWN)
		return 0;
	return ret ? 1 : 0;
}

static const struct kt_option stop_options[] = {
	{ 'B', NULL, KT_ARG_REQUIRED, "INSTANCE", "stop INSTANCE (repeatable)" },
	{ 'a', NULL, KT_ARG_NONE, NULL, "stop every instance (not the top one unless -t)" },
	{ 't', NULL, KT_ARG_NONE, NULL, "stop the top instance too (with -B or -a)" },
	{ 0 },
};

static const struct kt_command_help stop_help = {
	"stop", "[-B INSTANCE]... [-a] [-t]",
	"Stop tracing (tracing_on=0); the buffers keep their data for 'ktrace extract' or "
	"'ktrace show'.",
	stop_options,
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
	struct control_args a;
	int i, ret = control_args_parse(&stop_help, argc, argv, &a);

	if (!ret && (a.seen['t'] || (!a.seen['a'] && !a.names)))
		ret = stop_instance(NULL);
	for (i = 0; !ret && a.names && a.names[i]; i++)
		ret = stop_instance(a.names[i]);
	if (!ret && a.seen['a'])
		ret = stop_all_instances();
	strv_free(a.names);
	return ret == PLAN_HELP_SHOWN ? 0 : ret ? 1 : 0;
}
