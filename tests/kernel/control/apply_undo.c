// SPDX-License-Identifier: GPL-2.0-only
/*
 * Test helper: parse record options into a plan, apply it, run a shell command while it is
 * applied (e.g. a tracefs snapshot), then undo. Exit status: 0 when apply and undo both
 * worked, 1 when apply failed (nothing should have changed), 2 when undo failed.
 *   apply_undo 'SHELL COMMAND' [RECORD OPTIONS]
 *   apply_undo --kill [RECORD OPTIONS]: apply, turn tracing on, then SIGKILL itself
 *   (leaving only the journal, for `ktrace reset --restore`).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ktrace/command.h"
#include "ktrace/plan.h"
#include "ktrace/tfs.h"

int main(int argc, char **argv)
{
	struct tfs_undo *undo = NULL;
	struct plan plan;
	const char *shell;
	struct strbuf err = STRBUF_INIT;
	pid_t self = getpid();
	int ret;

	if (argc < 2 || kt_tracefs_locate(NULL, &err)) {
		fprintf(stderr, "apply_undo: %s\n", err.len ? err.buf : "usage: SHELL PLAN...");
		return 3;
	}
	shell = argv[1];
	argv[1] = argv[0];
	if (plan_parse(&plan_cmd_record, argc - 1, argv + 1, &plan))
		return 3;
	ret = plan_apply(&plan, 0, &undo);
	/* As record does for its own threads; a no-op (no EPERM) unless a function tracer. */
	if (!ret)
		ret = plan_set_ftrace_notrace_pids(&plan, undo, &self, 1);
	if (!ret)
		ret = plan_tracing_on(&plan, undo, true);
	if (ret) {
		tfs_undo_restore(undo);
		tfs_undo_free(undo);
		plan_release(&plan);
		return 1;
	}
	if (!strcmp(shell, "--kill"))
		kill(getpid(), SIGKILL);
	fflush(stdout);
	if (system(shell) != 0)
		fprintf(stderr, "apply_undo: '%s' failed\n", shell);
	ret = tfs_undo_restore(undo);
	tfs_undo_free(undo);
	plan_release(&plan);
	return ret ? 2 : 0;
}
