// SPDX-License-Identifier: GPL-2.0-only
/*
 * ktrace export: write a trace.dat file in another tool's format. Perfetto's protobuf trace
 * (--perfetto), for ui.perfetto.dev and trace_processor: the events come through report's
 * stream and filters, so -F/--pid/--cpu select exactly what `ktrace report` with the same flags
 * prints. Parquet (--parquet DIR): the tables of `ktrace sql`, one file each (parquet.h), with
 * the same filters: their rows are those `ktrace sql` with the same flags has.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ktrace/command.h"
#include "ktrace/dat.h"
#include "ktrace/options.h"
#include "ktrace/report.h"
#include "ktrace/strv.h"
#include "parquet.h"
#include "perfetto.h"

enum {
	OPT_PERFETTO = REPORT_OPT_FIRST_FREE,
	OPT_PARQUET,
	OPT_TABLE,
	OPT_PARTITION,
	OPT_FORCE,
	OPT_VIA_SQL,
};

static const struct kt_option export_options[] = {
	KT_OPT(OPT_PERFETTO, "perfetto", KT_ARG_REQUIRED, "OUT", "write a Perfetto trace to OUT"),
	KT_OPT(OPT_PARQUET, "parquet", KT_ARG_REQUIRED, "DIR",
	       "write the tables of 'ktrace sql' as Parquet files into DIR"),
	KT_OPT(OPT_TABLE, "table", KT_ARG_REQUIRED, "NAME",
	       "--parquet: only the table NAME; repeatable"),
	KT_OPT(OPT_PARTITION, "partition", KT_ARG_REQUIRED, "KEY",
	       "--parquet: DIR/TABLE/VALUE.parquet by file, host or instance"),
	KT_OPT(OPT_FORCE, "force", KT_ARG_NONE, NULL, "--parquet: replace files that exist"),
	KT_OPT(OPT_VIA_SQL, "via-sql", KT_ARG_NONE, NULL,
	       "--parquet: every table through SQLite (slower; the same files)"),
	REPORT_INPUT_OPTION,
	REPORT_FILTER_OPTIONS,
	{ 0 }
};

static const struct kt_command_help export_help = {
	.name = "export",
	.usage = "--perfetto OUT [OPTIONS] [-i FILE... | FILE]\n"
		 "       ktrace export --parquet DIR [-i FILE ...] [--table NAME ...] "
		 "[--partition file|host|instance] [--force] [--via-sql]\n"
		 "       [report's -F/-v/-I/-S/--cpu/--pid/--comm]",
	.summary = "Convert trace.dat files for Perfetto, or into Parquet for SQL engines.",
	.options = export_options,
};

struct export_args {
	struct report_opts o;	/* input and filters, as report takes them */
	const char *perfetto;
	const char *parquet;
	char **tables;		/* --table (strv.h) */
	const char *partition;
	bool force;
	bool via_sql;
};

static int one_option(void *priv, int c, const char *arg)
{
	struct export_args *a = priv;

	switch (c) {
	case OPT_PERFETTO: a->perfetto = arg; return 0;
	case OPT_PARQUET: a->parquet = arg; return 0;
	case OPT_TABLE: return strv_push(&a->tables, arg);
	case OPT_PARTITION: a->partition = arg; return 0;
	case OPT_FORCE: a->force = true; return 0;
	case OPT_VIA_SQL: a->via_sql = true; return 0;
	default: return -EINVAL;
	}
}

static int usage(const char *flag, const char *why)
{
	fprintf(stderr, "ktrace export: %s: %s (see 'ktrace export -h')\n", flag, why);
	return -EINVAL;
}

static int check_args(void *priv)
{
	const struct export_args *a = priv;

	if (a->perfetto && a->parquet)
		return usage("--perfetto and --parquet", "give one");
	if (a->perfetto && (a->tables || a->partition || a->force || a->via_sql))
		return usage(a->tables ? "--table" : a->partition ? "--partition" :
			     a->force ? "--force" : "--via-sql",
			     "applies to --parquet only");
	if (a->perfetto)
		return 0;
	if (!a->parquet)
		return usage("format", "say which: --perfetto OUT or --parquet DIR");
	if (a->partition && strcmp(a->partition, "file") && strcmp(a->partition, "host") &&
	    strcmp(a->partition, "instance"))
		return usage("--partition", "expected file, host or instance");
	if (a->partition && !strcmp(a->partition, "instance") && a->o.nr_more_inputs)
		return usage("--partition instance",
			     "reads one input file (several: file or host)");
	return 0;
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

static int write_parquet(const struct export_args *a, struct strbuf *err)
{
	struct pq_export_opts po = {
		.dir = a->parquet, .nr_inputs = 1 + a->o.nr_more_inputs,
		.tables = a->tables, .force = a->force, .via_sql = a->via_sql, .filters = &a->o,
	};
	const char **inputs = calloc((size_t)po.nr_inputs, sizeof(*inputs));
	int i, ret;

	if (!inputs)
		return -ENOMEM;
	inputs[0] = a->o.input;
	for (i = 0; i < a->o.nr_more_inputs; i++)
		inputs[i + 1] = a->o.more_inputs[i].path;
	po.inputs = inputs;
	/* several inputs in one directory need a column that tells them apart */
	if (!a->partition)
		po.partition = po.nr_inputs > 1 ? PQ_PARTITION_FILE : PQ_PARTITION_NONE;
	else if (!strcmp(a->partition, "file"))
		po.partition = PQ_PARTITION_FILE;
	else if (!strcmp(a->partition, "host"))
		po.partition = PQ_PARTITION_HOST;
	else
		po.partition = PQ_PARTITION_INSTANCE;
	ret = pq_export_run(&po, err);
	free(inputs);
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

	if (a->parquet) {
		free(one);
		free(df);
		return write_parquet(a, err);
	}
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

static void release_args(void *priv)
{
	struct export_args *a = priv;

	strv_free(a->tables);
}

int cmd_export(int argc, char **argv)
{
	struct export_args a = { 0 };
	const struct report_cli cli = {
		.name = "export", .help = &export_help, .o = &a.o, .priv = &a,
		.option = one_option, .check = check_args, .run = run_export,
		.release = release_args, .multi_input = true,
	};

	return report_cli_run(&cli, report_cli_parse(&cli, argc, argv));
}
