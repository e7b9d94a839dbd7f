// SPDX-License-Identifier: GPL-2.0-only
/*
 * ktrace profile: record --profile and report --profile in one step, as trace-cmd profile does.
 * trace-cmd reads the events live; ktrace records them, compressed as record does, into a file
 * of $TMPDIR that is removed afterwards, so that the figures are those of report --profile (one
 * accounting, tested once) and a machine too busy for a live reader loses no event to it.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ktrace/command.h"
#include "ktrace/options.h"
#include "ktrace/plan.h"
#include "ktrace/plan_options.h"
#include "ktrace/record.h"
#include "ktrace/report.h"
#include "ktrace/strbuf.h"

enum profile_option_id {
	PROFILE_OPT_STDERR = 512,	/* above the plan's ids */
	PROFILE_OPT_BY_COMM,
};

struct profile_args {
	const char *output;	/* -o: the profile's text, standard output when NULL */
	bool to_stderr;		/* --stderr */
	bool by_comm;		/* --by-comm */
};

static const struct kt_option profile_options[] = {
	PLAN_SETUP_OPTIONS
	PLAN_PROFILE_OPTIONS
	KT_OPT('o', NULL, KT_ARG_REQUIRED, "FILE", "write the profile to FILE"),
	KT_OPT(PROFILE_OPT_STDERR, "stderr", KT_ARG_NONE, NULL,
	       "write the profile to standard error (the command keeps standard output)"),
	KT_OPT(PROFILE_OPT_BY_COMM, "by-comm", KT_ARG_NONE, NULL, "one row per task name"),
	KT_OPT('G', NULL, KT_ARG_NONE, NULL, "accepted for compatibility; no effect"),
	KT_OPT('H', NULL, KT_ARG_REQUIRED, "HOOK", "not supported (event hooks)"),
	{ 0 },
};

static const struct kt_command_help profile_help = {
	.name = "profile",
	.usage = "[OPTIONS] [[--] COMMAND [ARGS]]",
	.summary = "Trace the scheduler, interrupts, faults and syscalls while COMMAND runs (or "
		   "until Ctrl-C), then print per task the time it ran, slept, was blocked and "
		   "preempted, as report --profile does.",
	.options = profile_options,
};

static int profile_option(void *own, int id, const char *arg)
{
	struct profile_args *a = own;

	switch (id) {
	case 'o':
		a->output = arg;
		return 0;
	case PROFILE_OPT_STDERR:
		a->to_stderr = true;
		return 0;
	case PROFILE_OPT_BY_COMM:
		a->by_comm = true;
		return 0;
	case 'G':
		return 0;
	case 'H':
		return kt_usage_error("profile", "-H", arg, "event hooks are not supported");
	}
	return 1;
}

const struct plan_command plan_cmd_profile = {
	.help = &profile_help,
	.caps = PLAN_RUNS_COMMAND | PLAN_WRITES_FILE | PLAN_PROFILES,
	.option = profile_option,
};

/* The recording's file: a fresh name in $TMPDIR (or /tmp), for plan->output. */
static int temp_output(struct plan *plan)
{
	const char *dir = getenv("TMPDIR");
	char *path = NULL;
	int fd;

	if (asprintf(&path, "%s/ktrace-profile-XXXXXX.dat", dir && *dir ? dir : "/tmp") < 0)
		return -ENOMEM;
	fd = mkstemps(path, 4);
	if (fd < 0) {
		int ret = -errno;

		fprintf(stderr, "ktrace profile: cannot create %s: %s\n", path, strerror(-ret));
		free(path);
		return ret;
	}
	close(fd);
	free(plan->output);
	plan->output = path;
	return 0;
}

/* report --profile of the recording, to -o FILE, standard error or standard output */
static int print_profile(const struct profile_args *a, const char *path)
{
	FILE *out = a->to_stderr ? stderr : stdout;
	struct strbuf err = STRBUF_INIT;
	int ret;

	if (a->output) {
		out = fopen(a->output, "we");
		if (!out) {
			ret = -errno;
			fprintf(stderr, "ktrace profile: -o %s: %s\n", a->output, strerror(-ret));
			return ret;
		}
	}
	/* a reader gone (| head) ends the report with EPIPE, not the process: the file goes */
	signal(SIGPIPE, SIG_IGN);
	ret = report_profile_file(path, a->by_comm, out, &err);
	if (fflush(out) && !ret)
		ret = -errno;
	if (a->output && fclose(out) && !ret)
		ret = -errno;
	if (ret && ret != -EPIPE)
		fprintf(stderr, "ktrace profile: %s\n",
			err.len ? strbuf_str(&err) : strerror(-ret));
	strbuf_release(&err);
	return ret;
}

int cmd_profile(int argc, char **argv)
{
	struct profile_args args = { 0 };
	struct plan plan;
	int ret;

	ret = plan_parse_own(&plan_cmd_profile, &args, argc, argv, &plan);
	if (!ret)
		ret = temp_output(&plan);
	if (!ret) {
		ret = record_plan_run(&plan);
		if (!ret)
			ret = print_profile(&args, plan.output);
		unlink(plan.output);
	}
	plan_release(&plan);
	return kt_result_of(ret);
}
