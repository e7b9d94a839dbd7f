// SPDX-License-Identifier: GPL-2.0-only
/*
 * ktrace options: the plugin options `ktrace report -O` takes, printed as `trace-cmd options`
 * prints them (the plugin, the option, its description and its default).
 */
#include <stdio.h>
#include <string.h>

#include "ktrace/command.h"
#include "ktrace/options.h"
#include "ktrace/report.h"

static const struct kt_option options_options[] = {
	{ 0 },
};

static const struct kt_command_help options_help = {
	.name = "options",
	.usage = "[-h]",
	.summary = "List the plugin options (PLUGIN:OPTION) that 'ktrace report -O' sets, with "
		   "their descriptions and defaults.",
	.options = options_options,
};

int cmd_options(int argc, char **argv)
{
	int ret = kt_parse_options(&options_help, argc, argv, NULL, NULL);

	if (ret)
		return ret;
	ret = report_print_plugin_options(stdout);
	if (ret) {
		fprintf(stderr, "ktrace options: cannot print the plugin options: %s\n",
			strerror(-ret));
		return 1;
	}
	return 0;
}
