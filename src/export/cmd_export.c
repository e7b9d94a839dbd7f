// SPDX-License-Identifier: GPL-2.0-only
/*
 * ktrace export: write a trace.dat file in another tool's format. The one format so far is
 * Perfetto's protobuf trace (--perfetto), for ui.perfetto.dev and trace_processor. The events
 * come through report's stream and filters, so -F/--pid/--cpu select exactly what `ktrace
 * report` with the same flags prints.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ktrace/command.h"
#include "ktrace/dat.h"
#include "ktrace/options.h"
#include "ktrace/report.h"
#include "perfetto.h"

enum { OPT_PERFETTO = REPORT_OPT_FIRST_FREE };

static const struct kt_option export_options[] = {
	{ OPT_PERFETTO, "perfetto", KT_ARG_REQUIRED, "OUT", "write a Perfetto trace to OUT" },
	{ 'i', "input", KT_ARG_REQUIRED, "FILE", "read FILE (default trace.dat, or a bare FILE)" },
	REPORT_FILTER_OPTIONS,
	{ 0 }
};

static const struct kt_command_help export_help = {
	.name = "export",
	.usage = "--perfetto OUT [OPTIONS] [-i FILE | FILE]",
	.summary = "Convert a trace.dat file for Perfetto (ui.perfetto.dev, trace_processor).",
	.options = export_options,
};

struct export_args {
	struct report_opts o;	/* input and filters, as report takes them */
	const char *perfetto;
};

static int set_input(struct export_args *a, const char *file)
{
	if (a->o.input) {
		fprintf(stderr, "ktrace export: only one input file is supported ('%s' and '%s')\n",
			a->o.input, file);
		return -EINVAL;
	}
	a->o.input = file;
	return 0;
}

static int one_option(struct export_args *a, int c, const char *arg, bool *neg)
{
	int ret = report_opts_filter(&a->o, c, arg, neg, "export");

	if (ret <= 0)
		return ret;
	switch (c) {
	case 'i': return set_input(a, arg);
	case OPT_PERFETTO: a->perfetto = arg; return 0;
	default: return -EINVAL;
	}
}

/* 0, 1 after -h, or -EINVAL (message printed) */
static int parse_args(struct export_args *a, int argc, char **argv)
{
	struct kt_getopt g;
	bool neg = false;
	int c, ret = 0, idx;

	if (kt_getopt_init(&g, &export_help, argc, argv))
		return -ENOMEM;
	while (!ret && (c = kt_getopt_next(&g)) != -1) {
		if (c == 'h') {
			kt_usage(stdout, &export_help);
			ret = 1;
		} else {
			ret = c == '?' ? -EINVAL : one_option(a, c, g.arg, &neg);
		}
	}
	idx = kt_getopt_index(&g);
	kt_getopt_release(&g);
	for (; !ret && idx < argc; idx++)
		ret = set_input(a, argv[idx]);
	if (!ret && !a->perfetto) {
		fprintf(stderr, "ktrace export: say which format: --perfetto OUT "
			"(see 'ktrace export -h')\n");
		ret = -EINVAL;
	}
	if (!a->o.input)
		a->o.input = "trace.dat";
	return ret;
}

static int export_events(struct dat_file *df, struct report_filter *filter, struct pf_export *px,
			 struct strbuf *err)
{
	struct report_stream *rs = NULL;
	struct report_event ev;
	int ret;

	ret = report_stream_open(df, &rs, err);
	while (!ret && (ret = report_stream_next(rs, &ev, err)) > 0)
		ret = report_filter_keep(filter, &ev) ? pf_export_event(px, ev.record) : 0;
	report_stream_close(rs);
	return ret;
}

static int write_perfetto(const struct export_args *a, struct dat_file *df, FILE *out,
			  struct strbuf *err)
{
	struct report_filter *filter = NULL;
	struct pf_export *px = NULL;
	int ret;

	ret = report_filter_new(dat_file_tep(df), &a->o, &filter, err);
	if (!ret)
		ret = pf_export_new(df, out, &px);
	if (!ret)
		ret = export_events(df, filter, px, err);
	if (!ret)
		ret = pf_export_finish(px);
	if (ret == -EIO && !err->len)
		strbuf_addf(err, "%s: write failed", a->perfetto);
	if (!ret && px->nr_unmatched_exits)
		fprintf(stderr, "ktrace export: note: %lu function exits without their entry "
			"(calls entered before the recording began) were left out\n",
			px->nr_unmatched_exits);
	pf_export_free(px);
	report_filter_free(filter);
	return ret;
}

static int run_export(const struct export_args *a, struct strbuf *err)
{
	struct dat_file *df = NULL;
	FILE *out;
	int ret;

	ret = dat_file_open(a->o.input, &df, err);
	if (ret)
		return ret;
	out = fopen(a->perfetto, "wb");
	if (!out) {
		ret = -errno;
		strbuf_addf(err, "%s: %s", a->perfetto, strerror(errno));
	} else {
		ret = write_perfetto(a, df, out, err);
		if (fclose(out) && !ret) {
			ret = -EIO;
			strbuf_addf(err, "%s: write failed", a->perfetto);
		}
		/* half a trace would load as a shorter one without a word: leave none */
		if (ret)
			unlink(a->perfetto);
	}
	dat_file_close(df);
	return ret;
}

int cmd_export(int argc, char **argv)
{
	struct export_args a = { 0 };
	struct strbuf err = STRBUF_INIT;
	int ret, status = 0;

	ret = parse_args(&a, argc, argv);
	if (ret > 0) {
		ret = 0;
	} else if (!ret) {
		ret = run_export(&a, &err);
		if (ret) {
			fprintf(stderr, "ktrace export: %s\n",
				err.len ? strbuf_str(&err) : strerror(-ret));
			status = 1;
		}
	} else {
		status = 1;
	}
	strbuf_release(&err);
	report_opts_release(&a.o);
	return status;
}
