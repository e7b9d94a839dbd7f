/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_RECORD_CONTROL_ARGS_H
#define KTRACE_RECORD_CONTROL_ARGS_H

#include <stdbool.h>

#include "ktrace/options.h"

/* The arguments of stop and stat: "-B NAME" (repeatable) and flags without an argument. */
struct control_args {
	char **names;		/* the -B names, NULL-terminated, or NULL */
	bool seen[128];		/* seen['a'] after -a */
};

/*
 * 0, PLAN_HELP_SHOWN after printing the usage, or -EINVAL after a message. Free names with
 * strv_free.
 */
int control_args_parse(const struct kt_command_help *help, int argc, char **argv,
		       struct control_args *a);

#endif
