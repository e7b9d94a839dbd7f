// SPDX-License-Identifier: GPL-2.0-only
/*
 * ktrace clear: empties the ring buffers (trace-cmd clear's meaning): truncating an
 * instance's "trace" file clears it. The settings and tracing_on stay as they are.
 */
#include <errno.h>
#include <stdio.h>

#include "control_instances.h"
#include "ktrace/command.h"
#include "ktrace/options.h"
#include "ktrace/tfs.h"

struct clear_args {
	char **names;		/* -B */
	bool all;		/* -a */
};

static const struct kt_option clear_options[] = {
	KT_STRING_LIST('B', NULL, "INSTANCE", struct clear_args, names,
		       "clear the buffer of INSTANCE (repeatable); the top one stays"),
	KT_BOOL('a', "all", struct clear_args, all,
		"clear every instance's buffer, the top one included"),
	{ 0 },
};

static const struct kt_command_help clear_help = {
	.name = "clear",
	.usage = "[-B INSTANCE]... [-a]",
	.summary = "Clear the trace buffer of the top instance, of the -B instances, or of "
		   "every instance (-a); settings and tracing_on stay.",
	.options = clear_options,
};

static int clear_buffer(const char *name)
{
	int ret = tfs_inst_write(name, "trace", "");

	if (ret)
		fprintf(stderr, "ktrace clear: cannot clear the buffer of %s: %s\n",
			name ? name : "the top instance", tfs_cause(ret));
	return ret;
}

int cmd_clear(int argc, char **argv)
{
	struct clear_args a = { 0 };
	int i, err = 0, ret = kt_parse_options(&clear_help, argc, argv, &a, NULL);

	if (!ret && control_check_instances("clear", a.names))
		ret = KT_ERR_USAGE;
	if (!ret && a.all && control_add_all_instances("clear", &a.names))
		ret = KT_ERR_FAILED;
	if (ret) {
		strv_free(a.names);
		return ret;
	}
	/* Like trace-cmd: -B alone leaves the top buffer alone; -a includes it. */
	if (a.all || !a.names)
		err = clear_buffer(NULL);
	for (i = 0; a.names && a.names[i]; i++)
		if (clear_buffer(a.names[i]) && !err)
			err = -1;
	strv_free(a.names);
	return err ? 1 : 0;
}
