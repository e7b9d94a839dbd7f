// SPDX-License-Identifier: GPL-2.0-only
/*
 * ktrace extract: what the kernel buffers hold now into a trace.dat, through record's recorders
 * and writer (record_run.h), changing no setting.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tracefs.h>

#include "ktrace/command.h"
#include "ktrace/plan.h"
#include "ktrace/plan_options.h"
#include "ktrace/strv.h"
#include "ktrace/tfs.h"
#include "record_plan.h"
#include "record_run.h"

/*
 * extract's buffers, as trace-cmd picks them: the top instance alone by default; with -B the
 * named instances, with -a every instance tracefs has; the top one too with -t.
 */
static int extract_names(const struct plan *plan, const struct extract_args *x,
			 const char ***names)
{
	char **all = NULL;
	int i, n = 0;

	*names = calloc((size_t)plan->nr_instances + 2, sizeof(**names));
	if (!*names)
		return -ENOMEM;
	if (x->top_too || (plan->nr_instances < 2 && !x->all_instances))
		(*names)[n++] = NULL;
	for (i = 1; !x->all_instances && i < plan->nr_instances; i++)
		(*names)[n++] = strdup(plan->instances[i].name);
	if (x->all_instances)
		tfs_instances(&all);
	for (i = 0; all && all[i]; i++) {
		const char **grown = realloc(*names, sizeof(**names) * (size_t)(n + 2));

		if (!grown)
			break;
		*names = grown;
		(*names)[n++] = strdup(all[i]);
	}
	strv_free(all);
	return n;
}

static void free_names(const char **names, int n)
{
	int i;

	for (i = 0; names && i < n; i++)
		free((char *)names[i]);
	free(names);
}

/*
 * -O: as trace-cmd, the trace options are set before the buffers are read and put back
 * afterwards, unless -k keeps them.
 */
static int set_trace_options(struct record_run *run)
{
	const struct plan *plan = run->plan;
	int i, ret, with = 0;

	for (i = 0; i < plan->nr_instances; i++) {
		const char *name = plan->instances[i].name;

		if (!plan->instances[i].options)
			continue;
		with++;
		if (name && !tracefs_instance_exists(name)) {
			fprintf(stderr, "ktrace extract: -B '%s': no such instance\n", name);
			return -ENOENT;
		}
	}
	if (!with)
		return 0;
	ret = tfs_undo_new(&run->trace.undo);
	/* plan_apply_trace_options says what failed */
	return ret ? ret : plan_apply_trace_options(plan, run->trace.undo);
}

/*
 * extract: whatever the kernel buffers hold now, changing no setting but -O's (trace-cmd also
 * switches all tracing off afterwards; use ktrace stop/reset for that). The recorders take every
 * page, the partial last ones too, and stop at the first empty read.
 */
static int extract_run(struct record_run *run)
{
	const char **names = NULL;
	int n, ret, restored;
	bool said = false;	/* the message is out already */

	/* -p LATENCY_TRACER: the text its `trace` file holds, as record would store it */
	ret = plan_check_latency(run->plan);
	if (ret)
		return ret;
	/*
	 * Reading a buffer consumes it: a signal waits until the file holding the pages is
	 * written, and is then dropped (trace_session_end), so an interrupted extract keeps them.
	 */
	ret = trace_session_begin(&run->trace);
	if (!ret) {
		ret = set_trace_options(run);
		said = ret != 0;
	}
	if (!ret)
		ret = record_open_output(run);
	n = ret ? 0 : run->latency >= 0 ? record_instance_names(run->plan, run->latency, &names)
					: extract_names(run->plan, &run->extract, &names);
	if (n < 0)
		ret = n;
	if (!ret)
		ret = record_session_init(&run->session, names, n, record_output_path(run->plan),
				       run->plan->file_version, run->plan->compression);
	run->session.events.all = true;
	if (!ret && run->plan->date)
		record_measure_date(run);
	run->session.latency = run->latency >= 0;
	if (run->extract.snapshot)
		run->session.raw_file = "snapshot_raw";
	if (!ret && !run->session.latency)
		ret = record_session_start(&run->session, &run->err);
	if (!ret && !run->session.latency)
		ret = record_session_finish(&run->session, &run->err);
	if (!ret)
		ret = record_session_write(&run->session, run->out_fd, &run->err);
	if (run->latency >= 0)
		free(names);	/* borrowed from the plan */
	else
		free_names(names, n);
	if (run->out_fd >= 0)
		close(run->out_fd);
	if (ret && run->out_fd >= 0)
		unlink(record_output_path(run->plan));
	restored = trace_session_end(&run->trace, run->plan->keep, &run->err);
	if (run->err.len)
		fprintf(stderr, "ktrace extract: %s\n", strbuf_str(&run->err));
	else if (ret && !said)
		fprintf(stderr, "ktrace extract: %s\n", strerror(-ret));
	return ret ? ret : restored;
}

/*
 * extract reads what is there: no events or filters, and -s means the snapshot buffer. It
 * changes no setting but the trace options of -O (put back afterwards, unless -k); trace-cmd
 * also switches tracing off afterwards without -k, which ktrace never does (use ktrace stop or
 * reset for that). --date writes the DATE option as record's does.
 */
static const struct kt_option extract_options[] = {
	KT_OPT('p', NULL, KT_ARG_REQUIRED, "TRACER", "the tracer whose data is extracted"),
	KT_OPT('o', NULL, KT_ARG_REQUIRED, "FILE", "output file (default trace.dat)"),
	KT_OPT('B', NULL, KT_ARG_REQUIRED, "INSTANCE", "extract INSTANCE (repeatable)"),
	KT_OPT('a', NULL, KT_ARG_NONE, NULL, "extract every instance"),
	KT_OPT('t', NULL, KT_ARG_NONE, NULL, "the top instance too (with -B or -a)"),
	KT_OPT('s', NULL, KT_ARG_NONE, NULL, "extract the snapshot buffer"),
	KT_OPT('q', NULL, KT_ARG_NONE, NULL, "quiet"),
	KT_OPT('O', NULL, KT_ARG_REQUIRED, "OPTION",
	       "set a trace option while extracting (noOPTION clears it; put back after)"),
	KT_OPT('k', NULL, KT_ARG_NONE, NULL,
	       "keep the -O options set (tracing is left on either way)"),
	KT_OPT(PLAN_OPT_DATE, "date", KT_ARG_NONE, NULL, "record the wall-clock offset"),
	PLAN_FILE_FORMAT_OPTIONS
	{ 0 },
};

static const struct kt_command_help extract_help = {
	.name = "extract",
	.usage = "[OPTIONS]",
	.summary = "Save what the kernel buffers hold into a trace.dat file.",
	.options = extract_options,
};

/* -s, -t and -a mean other things to extract than to record: its own rows. */
static int extract_option(void *own, int id, const char *arg)
{
	struct extract_args *x = own;

	switch (id) {
	case 's':
		x->snapshot = true;
		return 0;
	case 't':
		x->top_too = true;
		return 0;
	case 'a':
		x->all_instances = true;
		return 0;
	}
	return 1;
}

const struct plan_command plan_cmd_extract = {
	.help = &extract_help, .caps = PLAN_WRITES_FILE | PLAN_EXTRACTS, .option = extract_option,
};

int cmd_extract(int argc, char **argv)
{
	struct record_run run;

	memset(&run, 0, sizeof(run));
	return record_run_prepared(&run, &plan_cmd_extract, argc, argv, extract_run,
				   offsetof(struct record_run, extract));
}
