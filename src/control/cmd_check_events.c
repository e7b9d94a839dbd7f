// SPDX-License-Identifier: GPL-2.0-only
/*
 * ktrace check-events: parses the format of every event of the live tracefs with
 * libtraceevent, the plugins loaded first (unless -N) as report loads them, and lists the
 * events whose format it cannot use: those a reader of a recording would print as
 * "[FAILED TO PARSE]" (a print fmt that names a kernel function no plugin provides, a syntax
 * libtraceevent lacks), unless a plugin prints them itself.
 *
 * The exit status is trace-cmd's: 0 once the formats were read, failures or not.
 * trace-cmd check-events 3.1.6 (and 3.4) computes EINVAL for failures and drops it, and it
 * prints nothing unless --verbose shows libtraceevent's own warnings, most of which do not
 * name the event.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "ktrace/command.h"
#include "ktrace/dat.h"
#include "ktrace/options.h"
#include "ktrace/tfs.h"

enum { OPT_VERBOSE = 256 };

struct check_args {
	bool no_plugins;	/* -N */
};

static const struct kt_option check_options[] = {
	KT_BOOL('N', NULL, struct check_args, no_plugins,
		"do not load the plugins (their print helpers and handlers)"),
	KT_NOOP(OPT_VERBOSE, "verbose", KT_ARG_OPTIONAL, "LEVEL",
		"accepted for compatibility (the failures are always listed)"),
	{ 0 },
};

static const struct kt_command_help check_help = {
	.name = "check-events",
	.usage = "[-N]",
	.summary = "Parse the format of every event of tracefs with libtraceevent and list "
		   "those that fail, one 'SYSTEM:EVENT: why' line each.",
	.options = check_options,
};

struct check_run {
	struct tep_handle *tep;
	char **failed;		/* "SYSTEM:EVENT: why" lines */
	int err;		/* first error that stopped the check (no memory) */
};

static const char *failure_reason(enum dat_format_result res, const struct tep_event *event)
{
	switch (res) {
	case DAT_FORMAT_PRINT_FAILED:
		/* a plugin's handler prints the event: libtraceevent does not need the text */
		return event && event->handler ? NULL : "libtraceevent cannot parse its print fmt";
	case DAT_FORMAT_REFUSED:
		return "libtraceevent refuses its format";
	case DAT_FORMAT_CRASHES:
		return "its format would crash libtraceevent (not parsed)";
	default:
		return NULL;
	}
}

static void add_failure(struct check_run *run, const char *sys, const char *name,
			const char *why)
{
	struct strbuf line = STRBUF_INIT;

	if (strbuf_addf(&line, "%s:%s: %s", sys, name, why) ||
	    strv_push(&run->failed, line.buf))
		run->err = -ENOMEM;
	strbuf_release(&line);
}

static void check_event(const char *sys, const char *name, void *arg)
{
	struct check_run *run = arg;
	struct strbuf rel = STRBUF_INIT, path = STRBUF_INIT, fmt = STRBUF_INIT;
	struct tep_event *event;
	const char *why = NULL;
	int ret;

	if (run->err)
		return;
	ret = strbuf_addf(&rel, "events/%s/%s/format", sys, name);
	if (!ret)
		ret = tfs_path(&path, NULL, rel.buf);
	if (!ret)
		ret = tfs_read(path.buf, &fmt);
	if (ret == -ENOMEM) {
		run->err = ret;
	} else if (ret) {
		strbuf_reset(&rel);
		if (strbuf_addf(&rel, "cannot read %s: %s", path.buf, tfs_cause(ret)))
			run->err = -ENOMEM;
		why = rel.buf;
	} else {
		enum dat_format_result res = dat_format_parse(run->tep, fmt.buf, fmt.len, sys,
							      &event);

		why = failure_reason(res, event);
	}
	if (why && !run->err)
		add_failure(run, sys, name, why);
	strbuf_release(&rel);
	strbuf_release(&path);
	strbuf_release(&fmt);
}

/* ftrace's events have no "enable" file, so the systems' walk leaves them out, as in libtracefs */
static void check_ftrace(struct check_run *run)
{
	char **events = NULL;
	int i, ret = tfs_system_events("ftrace", &events);

	if (ret) {
		run->err = ret;
		return;
	}
	for (i = 0; events[i]; i++)
		check_event("ftrace", events[i], run);
	strv_free(events);
}

static int compare_lines(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int check_all(struct check_run *run)
{
	int i, ret = tfs_for_each_event(check_event, run);

	if (ret) {
		fprintf(stderr, "ktrace check-events: cannot list the events of tracefs: %s\n",
			tfs_cause(ret));
		return ret;
	}
	check_ftrace(run);
	if (run->err) {
		fprintf(stderr, "ktrace check-events: %s\n", strerror(-run->err));
		return run->err;
	}
	if (run->failed)
		qsort(run->failed, strv_len(run->failed), sizeof(char *), compare_lines);
	for (i = 0; run->failed && run->failed[i]; i++)
		printf("%s\n", run->failed[i]);
	if (fflush(stdout)) {
		ret = -errno;
		fprintf(stderr, "ktrace check-events: writing the list: %s\n", strerror(errno));
	}
	return ret;
}

int cmd_check_events(int argc, char **argv)
{
	struct check_args a = { 0 };
	struct check_run run = { 0 };
	struct tep_plugin_list *plugins;
	int ret = kt_parse_options(&check_help, argc, argv, &a, NULL);

	if (ret)
		return ret;
	run.tep = tep_alloc();
	if (!run.tep) {
		fprintf(stderr, "ktrace check-events: %s\n", strerror(ENOMEM));
		return 1;
	}
	/* before the formats: plugins add the print helpers some of them call */
	if (a.no_plugins)
		tep_set_flag(run.tep, TEP_DISABLE_PLUGINS);
	plugins = tep_load_plugins(run.tep);
	ret = check_all(&run);
	strv_free(run.failed);
	tep_unload_plugins(plugins, run.tep);
	tep_free(run.tep);
	return ret ? 1 : 0;
}
