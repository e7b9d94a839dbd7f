// SPDX-License-Identifier: GPL-2.0-only
/*
 * ktrace restart: tracing_on=1 again after 'ktrace stop' (trace-cmd restart's meaning); the
 * settings and the buffers stay as they are.
 */
#include <errno.h>
#include <stdio.h>

#include "control_instances.h"
#include "ktrace/command.h"
#include "ktrace/options.h"
#include "ktrace/tfs.h"

struct restart_args {
	char **names;		/* -B */
	bool all, top;		/* -a, -t */
};

static const struct kt_option restart_options[] = {
	KT_STRING_LIST('B', NULL, "INSTANCE", struct restart_args, names,
		       "restart INSTANCE (repeatable); the top one then stays unless -t"),
	KT_BOOL('a', NULL, struct restart_args, all,
		"restart every instance, and the top one unless -B is given"),
	KT_BOOL('t', NULL, struct restart_args, top, "restart the top instance too (with -B)"),
	{ 0 },
};

static const struct kt_command_help restart_help = {
	.name = "restart",
	.usage = "[-B INSTANCE]... [-a] [-t]",
	.summary = "Turn tracing back on (tracing_on=1) after 'ktrace stop', in the top "
		   "instance, the -B instances, or every instance (-a).",
	.options = restart_options,
};

static int restart_instance(const char *name)
{
	int ret = tfs_inst_write(name, "tracing_on", "1");

	if (ret)
		fprintf(stderr, "ktrace restart: cannot write tracing_on of %s: %s\n",
			name ? name : "the top instance", tfs_cause(ret));
	return ret;
}

int cmd_restart(int argc, char **argv)
{
	struct restart_args a = { 0 };
	int i, err = 0, ret = kt_parse_options(&restart_help, argc, argv, &a, NULL);
	bool top;

	/*
	 * trace-cmd's rule: a -B leaves the top instance out, -t puts it back; -a alone includes
	 * it (decided before -a adds its names).
	 */
	top = a.top || !a.names;
	if (!ret && control_check_instances("restart", a.names))
		ret = KT_ERR_USAGE;
	if (!ret && a.all && control_add_all_instances("restart", &a.names))
		ret = KT_ERR_FAILED;
	if (ret) {
		strv_free(a.names);
		return ret;
	}
	if (top)
		err = restart_instance(NULL);
	for (i = 0; a.names && a.names[i]; i++)
		if (restart_instance(a.names[i]) && !err)
			err = -1;
	strv_free(a.names);
	return err ? 1 : 0;
}
