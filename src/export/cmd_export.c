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
	KT_OPT(OPT_PERFETTO, "perfetto", KT_ARG_REQUIRED, "OUT", "write a Perfetto trace to OUT"),
	REPORT_INPUT_OPTION,
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

static int one_option(void *priv, int c, const char *arg)
{
	struct export_args *a = priv;

	switch (c) {
	case OPT_PERFETTO: a->perfetto = arg; return 0;
	default: return -EINVAL;
	}
}

static int check_args(void *priv)
{
	const struct export_args *a = priv;

	if (a->perfetto)
		return 0;
	fprintf(stderr, "ktrace export: say which format: --perfetto OUT "
		"(see 'ktrace export -h')\n");
	return -EINVAL;
}

static int export_event(void *px, struct tep_record *record)
{
	return pf_export_event(px, record);
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
		ret = report_cli_each(df, filter, export_event, px, err);
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

static int run_export(void *priv, struct strbuf *err)
{
	const struct export_args *a = priv;
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
	const struct report_cli cli = {
		.name = "export", .help = &export_help, .o = &a.o, .priv = &a,
		.option = one_option, .check = check_args, .run = run_export,
	};

	return report_cli_run(&cli, report_cli_parse(&cli, argc, argv));
}
