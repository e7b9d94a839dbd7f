// SPDX-License-Identifier: GPL-2.0-only
/* The option parsing shared by the small control commands (stop, stat). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "control_args.h"
#include "plan_internal.h"

int control_args_parse(const struct kt_command_help *help, int argc, char **argv,
		       struct control_args *a)
{
	struct kt_getopt g;
	int id, ret;

	memset(a, 0, sizeof(*a));
	ret = kt_getopt_init(&g, help, argc, argv);
	while (!ret && (id = kt_getopt_next(&g)) != -1) {
		if (id == 'h') {
			kt_usage(stdout, help);
			ret = PLAN_HELP_SHOWN;
		} else if (id == 'B') {
			ret = strv_push(&a->names, g.arg);
		} else if (id > 0 && id < 128 && id != '?') {
			a->seen[id] = true;
		} else {
			ret = -EINVAL;
		}
	}
	if (!ret && kt_getopt_index(&g) < argc) {
		fprintf(stderr, "ktrace %s: unexpected argument '%s'\n", help->name,
			argv[kt_getopt_index(&g)]);
		ret = -EINVAL;
	}
	kt_getopt_release(&g);
	return ret;
}
