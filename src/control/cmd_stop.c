// SPDX-License-Identifier: GPL-2.0-only
/* ktrace stop: tracing_on=0 in the chosen instances; the buffers keep their data. */
#include <errno.h>
#include <stdio.h>

#include <tracefs.h>

#include "ktrace/command.h"
#include "ktrace/options.h"
#include "ktrace/strv.h"
#include "ktrace/tfs.h"

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
