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
	.usage = "--perfetto OUT [OPTIONS] [-i FILE... | FILE]",
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

/* One file into out, as machine `machine` (0: the host, or the only file). */
static int write_perfetto(const struct export_args *a, const struct report_opts *o,
			  struct dat_file *df, uint32_t machine, FILE *out, struct strbuf *err)
{
	struct report_filter *filter = NULL;
	struct pf_export *px = NULL;
	int ret;

	ret = report_filter_new(dat_file_tep(df), o, &filter, err);
	if (!ret)
		ret = pf_export_new(df, out, machine, &px);
	if (!ret)
		ret = report_cli_each(df, filter, export_event, px, err);
	if (!ret)
		ret = pf_export_finish(px);
	if (ret == -EIO && !err->len)
		strbuf_addf(err, "%s: write failed", a->perfetto);
	if (!ret && px->nr_unmatched_exits)
		fprintf(stderr, "ktrace export: note: %s%s%lu function exits without their entry "
			"(calls entered before the recording began) were left out\n",
			machine || a->o.nr_more_inputs ? o->input : "",
			machine || a->o.nr_more_inputs ? ": " : "", px->nr_unmatched_exits);
	pf_export_free(px);
	report_filter_free(filter);
	return ret;
}

/*
 * Several -i (a host and its guests): one Perfetto trace, each file a machine of its own (its
 * CPUs, processes and tracks apart), the guests' times on the host's clock (their TimeShift).
 * Every file is opened before the output is made.
 */
static int run_export(void *priv, struct strbuf *err)
{
	const struct export_args *a = priv;
	int i, nr = a->o.nr_more_inputs + 1, ret = 0;
	struct report_opts *one = calloc(nr, sizeof(*one));
	struct dat_file **df = calloc(nr, sizeof(*df));
	FILE *out = NULL;

	if (!one || !df)
		ret = -ENOMEM;
	for (i = 0; i < nr && !ret; i++) {
		report_cli_input_opts(&a->o, i, &one[i]);
		ret = dat_file_open(one[i].input, &df[i], err);
	}
	if (!ret && !(out = fopen(a->perfetto, "wb"))) {
		ret = -errno;
		strbuf_addf(err, "%s: %s", a->perfetto, strerror(errno));
	}
	for (i = 0; i < nr && !ret; i++)
		ret = write_perfetto(a, &one[i], df[i], (uint32_t)i, out, err);
	if (out) {
		if (fclose(out) && !ret) {
			ret = -EIO;
			strbuf_addf(err, "%s: write failed", a->perfetto);
		}
		/* half a trace would load as a shorter one without a word: leave none */
		if (ret)
			unlink(a->perfetto);
	}
	for (i = 0; df && i < nr; i++)
		dat_file_close(df[i]);
	free(df);
	free(one);
	return ret;
}

int cmd_export(int argc, char **argv)
{
	struct export_args a = { 0 };
	const struct report_cli cli = {
		.name = "export", .help = &export_help, .o = &a.o, .priv = &a,
		.option = one_option, .check = check_args, .run = run_export, .multi_input = true,
	};

	return report_cli_run(&cli, report_cli_parse(&cli, argc, argv));
}
