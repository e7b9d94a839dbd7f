/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_RECORD_EXTRACT_H
#define KTRACE_RECORD_EXTRACT_H

/*
 * extract's own options: -s, -t and -a mean other things to extract than to record, so they
 * fill this, not the plan (plan_command.option of plan_cmd_extract).
 */
#include <stdbool.h>

struct extract_args {
	bool snapshot;		/* -s: the snapshot buffer */
	bool top_too;		/* -t: the top instance too, with -B or -a */
	bool all_instances;	/* -a: every instance tracefs has */
};

#endif
