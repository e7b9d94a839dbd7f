/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_TESTS_PLAN_TEST_H
#define KTRACE_TESTS_PLAN_TEST_H

/*
 * The plan unit tests' one way to parse argv as the dispatcher would: the command of that name,
 * with its own rows (extract's struct, stream's --filter list, start's --fork) given the place
 * they fill and then dropped, since these tests look at the plan.
 */
#include <stdbool.h>
#include <string.h>

#include "ktrace/plan.h"
#include "ktrace/strv.h"
#include "record_extract.h"

static inline const struct plan_command *plan_command_named(const char *name)
{
	if (!strcmp(name, "extract"))
		return &plan_cmd_extract;
	if (!strcmp(name, "start"))
		return &plan_cmd_start;
	if (!strcmp(name, "stream"))
		return &plan_cmd_stream;
	return &plan_cmd_record;
}

static inline int plan_test_parse(struct plan *plan, int argc, char **argv)
{
	const struct plan_command *cmd = plan_command_named(argv[0]);
	struct extract_args x = { 0 };
	char **filters = NULL;
	bool fork_command = false;
	int ret;

	if (cmd == &plan_cmd_extract)
		return plan_parse_own(cmd, &x, argc, argv, plan);
	if (cmd == &plan_cmd_start)
		return plan_parse_own(cmd, &fork_command, argc, argv, plan);
	if (cmd != &plan_cmd_stream)
		return plan_parse(cmd, argc, argv, plan);
	ret = plan_parse_own(cmd, &filters, argc, argv, plan);
	strv_free(filters);
	return ret;
}

#endif
