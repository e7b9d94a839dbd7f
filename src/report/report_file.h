/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_REPORT_FILE_H
#define KTRACE_REPORT_FILE_H

/*
 * Private to src/report: the input files of report (report_file.c), several of them merged
 * (report_multi.c).
 */
#include "ktrace/report.h"

struct tep_plugin_list;

/* One input file as report reads it: its own tep handle, plugins and clock. */
struct report_file {
	const struct report_opts *o;
	const char *path;
	struct dat_file *df;
	struct tep_handle *tep;		/* set by report_file_setup() */
	struct tep_plugin_list *plugins;
	struct report_clock clock;	/* set by report_file_setup() */
};

/*
 * Opens path with o's reading options (-N, -L, --nodate, --raw-ts) and this file's --ts-offset
 * and --ts2secs: 0, or negative errno with a message in err (possibly empty).
 */
int report_file_open(struct report_file *rf, const struct report_opts *o, const char *path,
		     long long ts_offset, unsigned long long ts2secs, struct strbuf *err);
/* Then -t, -T, --kallsyms and the clock, as trace-cmd sets up each file it reads. */
int report_file_setup(struct report_file *rf, struct strbuf *err);
/* The level of trace-cmd's own library messages that -V and --debug ask for (log_level.h). */
int report_tracecmd_level(const struct report_opts *o);
/* libtracecmd's "CPU N is empty" for each CPU of `buffer` without data, at level info. */
void report_file_say_empty(const struct report_file *rf, int buffer);
/* libtraceevent's func_repeats time format is global: trace-cmd sets it from its last file. */
void report_file_repeat_format(const struct report_file *rf);
/*
 * --align-ts: shifts every file so that time 0 is the earliest first page of their top
 * buffers, as trace-cmd does. Before any stream is opened.
 */
int report_align_ts(struct dat_file **files, int nr, struct strbuf *err);
void report_file_close(struct report_file *rf);
/*
 * The 2nd and later -i files too (o->more_inputs): their events merged with the first file's
 * (report_multi.c). *opened once every file is open. 0 or negative errno, message in err.
 */
int report_multi_print(const struct report_opts *o, bool *opened, struct strbuf *err);

#endif
