// SPDX-License-Identifier: GPL-2.0-only
/*
 * ktrace report: print a trace.dat file the way `trace-cmd report` 3.1.6 does, byte for byte.
 * This file holds the flow: options -> file -> one-shot listings or
 * stream -> filter -> printer -> stdout.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event-parse.h>

#include "ktrace/command.h"
#include "ktrace/dat.h"
#include "ktrace/report.h"
#include "profile.h"
#include "report_file.h"
#include "report_info.h"
#include "report_opts.h"
#include "report_stream.h"
#include "report_print.h"
#include "report_rows.h"

/* trace-cmd exits with 255 for a file that is not a trace.dat file; scripts may test for it. */
#define EXIT_NOT_TRACE_FILE 255

struct report_run {
	const struct report_opts *o;
	struct report_file file;
	struct dat_file *df;		/* file.df once open */
	bool opened;			/* several files: every one opened */
	struct strbuf *err;
};

/* Listings that replace the events; 1 when one was printed. */
static int print_listing(struct report_run *run)
{
	const struct report_opts *o = run->o;

	if (o->show_endian) {
		printf("file is %s endian and host is %s endian\n",
		       dat_file_big_endian(run->df) ? "big" : "little",
		       tep_is_bigendian() ? "big" : "little");
	} else if (o->print_all_events || o->print_event) {
		/* as trace-cmd: --events wins over --event */
		int ret = report_print_formats(run->df, o->print_all_events ? NULL : o->print_event,
					       stdout, run->err);

		return ret < 0 ? ret : 1;
	} else if (o->show_funcs) {
		tep_print_funcs(run->file.tep);
	} else if (o->show_printk) {
		tep_print_printk(run->file.tep);
	} else if (o->show_events) {
		report_print_event_list(run->file.tep, stdout);
	} else if (o->show_cpus) {
		int ret = report_print_cpus(run->df, o, &run->file.clock, stdout, run->err);

		return ret < 0 ? ret : 1;
	} else {
		return 0;
	}
	return 1;
}

static int instance_prefix_width(struct dat_file *df)
{
	int i, width = 0, n = dat_file_nr_buffers(df);

	for (i = 1; i < n; i++) {
		const char *name = dat_file_buffer(df, i)->name;
		int len = name ? (int)strlen(name) : 0;

		if (len > width)
			width = len;
	}
	return width;
}

static int print_events(struct report_run *run, struct report_filter *filter)
{
	struct report_printer_conf conf = { .opts = run->o, .clock = run->file.clock };
	struct report_printer *printer = NULL;
	struct report_stream *rs = NULL;
	struct report_event ev;
	const bool *refused;
	int ret, nr, ahead;

	ret = report_stream_open_pages(run->df, run->o->boundary, &rs, run->err);
	if (ret)
		return ret;
	conf.stream = rs;
	conf.prefix = dat_file_nr_buffers(run->df) > 1;
	conf.prefix_width = instance_prefix_width(run->df);
	ret = report_printer_new(run->df, &conf, &printer, run->err);
	refused = ret ? NULL : report_filter_refused_events(filter, &nr);
	ahead = ret ? -1 : report_printer_lookahead_event(printer);
	/* records the filter refuses are passed over unread, unless the printer reads ahead */
	if (refused && (ahead < 0 || (ahead < nr && refused[ahead])))
		report_stream_skip_events(rs, refused, nr);
	while (!ret && (ret = report_stream_next(rs, &ev, run->err)) > 0)
		ret = report_filter_keep(filter, &ev) ?
		      report_print_event(printer, &ev, stdout) : 0;
	if (!ret)
		report_printer_finish(printer, stdout);
	report_printer_free(printer);
	report_stream_close(rs);
	return ret;
}

/* --format json/csv: the events only, without trace-cmd's "cpus=N" line */
static int print_rows(struct report_run *run, struct report_filter *filter,
		      const struct dat_buffer *top)
{
	if (top && top->latency) {
		strbuf_addf(run->err, "%s holds a latency tracer's text, not events: "
			    "--format %s needs events", run->o->input,
			    run->o->format == REPORT_FORMAT_JSON ? "json" : "csv");
		return -EINVAL;
	}
	return report_rows_print(run->df, run->o, filter, stdout, run->err);
}

static void print_latency_text(struct dat_file *df)
{
	uint64_t size = 0;
	const char *text = dat_file_latency_text(df, &size);

	if (text)
		fwrite(text, 1, size, stdout);
	putchar('\n');
}

static int print_file(struct report_run *run)
{
	const struct report_opts *o = run->o;
	const struct dat_buffer *top;
	struct report_filter *filter = NULL;
	int i, ret;

	ret = report_filter_new(run->file.tep, o, &filter, run->err);
	/* -EBADMSG: a -F string the filter check refused; -EINVAL: libtraceevent's refusal */
	if (ret)
		return ret == -EINVAL || ret == -EBADMSG ? REPORT_ERR_USAGE : ret;
	if (o->filter_test && report_filter_has_event_filters(filter))
		goto out;
	if (o->align_ts) {
		ret = report_align_ts(&run->df, 1, run->err);
		if (ret)
			goto out;
	}
	top = dat_file_nr_buffers(run->df) ? dat_file_buffer(run->df, 0) : NULL;
	if (o->format != REPORT_FORMAT_TEXT && !o->version && !o->uname && !o->stat) {
		ret = print_rows(run, filter, top);
		goto out;
	}
	/* trace-cmd initialises the top buffer before it says cpus=, the instances after */
	report_file_say_empty(&run->file, 0);
	printf("cpus=%d\n", dat_file_nr_cpus(run->df));
	for (i = 1; i < dat_file_nr_buffers(run->df); i++)
		report_file_say_empty(&run->file, i);
	if (top && top->latency) {
		print_latency_text(run->df);
	} else if (o->version) {
		report_print_version(run->df, stdout);
	} else if (o->uname) {
		/* trace-cmd falls through from the uname to the version */
		report_print_uname(run->df, stdout);
		report_print_version(run->df, stdout);
	} else if (o->stat) {
		ret = report_print_stat(run->df, stdout, run->err);
	} else {
		ret = print_events(run, filter);
	}
out:
	report_filter_free(filter);
	return ret;
}

static int open_file(struct report_run *run)
{
	const struct report_opts *o = run->o;
	int ret = report_file_open(&run->file, o, o->input, 0, o->ts2secs, run->err);

	run->df = run->file.df;
	return ret;
}

/* What trace-cmd prints of the first file only, and then stops, with several -i. */
static bool first_file_only(const struct report_opts *o)
{
	return o->show_page_size || o->show_endian || o->print_all_events || o->print_event ||
	       o->show_funcs || o->show_printk || o->show_events;
}

/* The message of one of several files starts with its name. */
static void name_the_file(struct strbuf *err, const char *path)
{
	char *msg = strbuf_detach(err, NULL);

	strbuf_addf(err, "%s: %s", path, msg ? msg : "");
	free(msg);
}

/*
 * --profile with several -i (a host and its guests): one table per file, each headed by its
 * name and read with that file's offsets, so that every machine's times are on the host's
 * clock and no task of one machine is mixed with another's. (trace-cmd prints one garbled
 * table then.)
 */
static int profile_each(struct report_run *run)
{
	const struct report_opts *o = run->o;
	int i, nr = o->nr_more_inputs + 1, ret = 0;
	struct report_opts *one = calloc(nr, sizeof(*one));
	struct report_file *rf = calloc(nr, sizeof(*rf));

	if (!one || !rf)
		ret = -ENOMEM;
	/* every file opened before the first table, as trace-cmd opens its inputs */
	for (i = 0; i < nr && !ret; i++) {
		report_cli_input_opts(o, i, &one[i]);
		ret = report_file_open(&rf[i], &one[i], one[i].input,
				       i ? o->more_inputs[i - 1].ts_offset : 0, one[i].ts2secs,
				       run->err);
		if (!ret)
			ret = report_file_setup(&rf[i], run->err);
		if (ret && run->err->len && !strstr(strbuf_str(run->err), one[i].input))
			name_the_file(run->err, one[i].input);
	}
	run->opened = !ret;
	for (i = 0; i < nr && !ret; i++) {
		/* JSON: the documents follow each other (as jq reads them), nothing between */
		if (i && o->format != REPORT_FORMAT_JSON)
			fputc('\n', stdout);
		ret = report_profile_print(rf[i].df, &one[i], stdout, run->err);
		if (ret && run->err->len && !strstr(strbuf_str(run->err), one[i].input))
			name_the_file(run->err, one[i].input);
	}
	for (i = 0; rf && i < nr; i++)
		report_file_close(&rf[i]);
	free(rf);
	free(one);
	return ret;
}

static int run_report(struct report_run *run)
{
	const struct report_opts *o = run->o;
	int ret;

	if (o->nr_more_inputs && o->profile)
		return profile_each(run);
	if (o->nr_more_inputs && !first_file_only(o))
		return report_multi_print(o, &run->opened, run->err);

	ret = open_file(run);
	if (ret)
		return ret;
	/* As for a killed record's file, in the same words; here the events there are follow. */
	if (dat_file_incomplete(run->df))
		fprintf(stderr, "ktrace report: %s: incomplete recording (%s)\n", o->input,
			dat_file_incomplete(run->df));
	if (o->show_page_size) {
		printf("file page size is %u, and host page size is %d\n",
		       dat_file_page_size(run->df), getpagesize());
		return 0;
	}
	ret = report_file_setup(&run->file, run->err);
	if (ret)
		return ret;
	report_file_repeat_format(&run->file);
	ret = print_listing(run);
	if (ret == 0 && o->profile)
		ret = report_profile_print(run->df, o, stdout, run->err);
	else if (ret == 0)
		ret = print_file(run);
	else if (ret > 0)
		ret = 0;
	return ret ? ret : dat_file_kallsyms_error(run->df, run->err);
}

/*
 * As trace-cmd: a file that cannot be opened exits with open()'s errno, one that is not a
 * trace.dat file with 255.
 */
static int open_status(int ret)
{
	switch (ret) {
	case -ENOENT: case -EACCES: case -EISDIR: case -ENOTDIR: case -ELOOP: case -EPERM:
		return -ret;
	default:
		return EXIT_NOT_TRACE_FILE;
	}
}

/*
 * --check-events: the exit status alone, as trace-cmd. Every format that did not parse was
 * already refused by the reader.
 */
static int check_events(struct report_run *run)
{
	int ret = open_file(run);

	return (ret || dat_file_parse_failures(run->df)) ? EINVAL : 0;
}

static int run_cmd(void *priv, struct strbuf *err)
{
	struct report_run *run = priv;

	run->err = err;
	return run->o->check_events ? check_events(run) : run_report(run);
}

static int fail_status(void *priv, int ret, const struct strbuf *err)
{
	const struct report_run *run = priv;

	return run->df || run->opened ? 1 : open_status(ret);
}

static void release_run(void *priv)
{
	struct report_run *run = priv;

	fflush(stdout);
	report_file_close(&run->file);
}

int cmd_report(int argc, char **argv)
{
	struct report_opts o;
	struct report_run run = { .o = &o };
	const struct report_cli cli = {
		.name = "report", .o = &o, .priv = &run, .run = run_cmd,
		.fail_status = fail_status, .release = release_run,
	};

	/* a report is mostly output: write it in large blocks */
	setvbuf(stdout, NULL, _IOFBF, 1 << 20);
	return report_cli_run(&cli, report_opts_parse(&o, argc, argv));
}
