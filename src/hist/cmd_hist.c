// SPDX-License-Identifier: GPL-2.0-only
/*
 * ktrace hist: latency and count histograms of a trace.dat file, with exact percentiles, so
 * that "how long do wakeups take" or "which syscalls are slow" needs no script over report's
 * text. The events come through report's stream and filters: -F/--pid/--cpu select the same
 * events `ktrace report` with the same flags prints, before they are paired.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ktrace/command.h"
#include "ktrace/dat.h"
#include "ktrace/options.h"
#include "ktrace/report.h"
#include "hist.h"

enum { OPT_BY = REPORT_OPT_FIRST_FREE, OPT_KEY, OPT_FORMAT };

static const struct kt_option hist_options[] = {
	REPORT_INPUT_OPTION,
	KT_OPT(OPT_BY, "by", KT_ARG_REQUIRED, "task", "wakeup: a histogram per task"),
	KT_OPT(OPT_KEY, "key", KT_ARG_REQUIRED, "FIELD", "event: count the values of FIELD"),
	KT_OPT(OPT_FORMAT, "format", KT_ARG_REQUIRED, "FMT", "text (default) or json"),
	KT_OPT('P', NULL, KT_ARG_NONE, NULL,
	       "without a kind (trace-cmd's call-stack histogram): all tasks in one tree"),
	REPORT_FILTER_OPTIONS,
	{ 0 }
};

static const struct kt_command_help hist_help = {
	.name = "hist",
	.usage = "wakeup|syscall|funcgraph|event EVENT --key FIELD [OPTIONS] [-i FILE... | FILE]\n"
		 "       ktrace hist [-P] [-i FILE]  (trace-cmd's call-stack histogram)",
	.summary = "Latency and count histograms with percentiles from a trace.dat file.",
	.options = hist_options,
};

struct hist_kind {
	const char *name;
	int (*create)(const struct hist_source_conf *c, struct hist_source **out,
		      struct strbuf *err);
	const char *what, *group_by;
};

static const struct hist_kind kinds[] = {
	{ "wakeup", hist_wakeup_new, "wakeup latency (waking -> switch-in)", "all" },
	{ "syscall", hist_syscall_new, "syscall duration (enter -> exit)", "syscall" },
	{ "funcgraph", hist_funcgraph_new, "function duration (function_graph)", "function" },
	{ "event", hist_event_new, NULL, NULL },
};

struct hist_args {
	struct report_opts o;	/* input and filters, as report takes them */
	const struct hist_kind *kind;
	struct hist_source_conf conf;
	enum hist_format format;
	bool compact;		/* -P of trace-cmd's form */
};

static int set_choice(const char *flag, const char *arg, const char *a, const char *b, int *out)
{
	if (!strcmp(arg, a) || (b && !strcmp(arg, b))) {
		*out = !strcmp(arg, a) ? 0 : 1;
		return 0;
	}
	fprintf(stderr, "ktrace hist: %s '%s': expected %s%s%s\n", flag, arg, a, b ? " or " : "",
		b ? b : "");
	return -EINVAL;
}

static int one_option(void *priv, int c, const char *arg)
{
	struct hist_args *a = priv;
	int ret, v = 0;

	switch (c) {
	case OPT_KEY: a->conf.key = arg; return 0;
	case 'P': a->compact = true; return 0;
	case OPT_BY:
		ret = set_choice("--by", arg, "task", NULL, &v);
		a->conf.by_task = !ret;
		return ret;
	case OPT_FORMAT:
		ret = set_choice("--format", arg, "text", "json", &v);
		a->format = v ? HIST_FORMAT_JSON : HIST_FORMAT_TEXT;
		return ret;
	default: return -EINVAL;
	}
}

/* The kind and, for `event`, its EVENT come before the options. Shifts them off argv. */
static int parse_kind(struct hist_args *a, int *argc, char ***argv)
{
	const char *name = *argc > 1 ? (*argv)[1] : NULL;
	size_t i;

	if (!name || name[0] == '-')
		return 0;
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]) && !a->kind; i++)
		if (!strcmp(kinds[i].name, name))
			a->kind = &kinds[i];
	if (!a->kind) {
		fprintf(stderr, "ktrace hist: '%s': not a histogram (wakeup, syscall, funcgraph, "
			"event)\n", name);
		return -EINVAL;
	}
	(*argc)--;
	(*argv)++;
	if (strcmp(name, "event"))
		return 0;
	if (*argc < 2 || (*argv)[1][0] == '-') {
		fprintf(stderr, "ktrace hist event: say which event: event EVENT --key FIELD\n");
		return -EINVAL;
	}
	a->conf.event = (*argv)[1];
	(*argc)--;
	(*argv)++;
	return 0;
}

static int check_args(void *priv)
{
	const struct hist_args *a = priv;

	/* no kind: trace-cmd's call-stack histogram, which takes -i and -P only */
	if (!a->kind)
		return 0;
	if (a->compact) {
		fprintf(stderr, "ktrace hist: -P applies to the call-stack histogram (no kind)\n");
		return -EINVAL;
	}
	if (a->conf.event && !a->conf.key) {
		fprintf(stderr, "ktrace hist event: --key FIELD is required\n");
		return -EINVAL;
	}
	if ((a->conf.key && !a->conf.event) || (a->conf.by_task && strcmp(a->kind->name,
								      "wakeup"))) {
		fprintf(stderr, "ktrace hist %s: %s applies to %s only\n", a->kind->name,
			a->conf.by_task ? "--by task" : "--key", a->conf.by_task ? "wakeup" :
			"event");
		return -EINVAL;
	}
	return 0;
}

static int feed(void *arg, struct tep_record *record)
{
	struct hist_source *src = arg;

	return src->event(src, record);
}

static int print_hist(const struct hist_args *a, const struct report_opts *o,
		      struct dat_file *df, struct hist_source *src)
{
	struct hist_print p = { .format = a->format, .what = a->kind->what,
				.group_by = a->kind->group_by };
	struct report_clock clock;

	report_clock_init(&clock, df, o);
	p.unit = clock.unit == REPORT_TIME_RAW ? "ticks" : "ns";
	if (a->o.nr_more_inputs)
		p.file = o->input;
	if (a->conf.by_task)
		p.group_by = "task";
	if (a->conf.event) {
		p.what = a->conf.event;
		p.group_by = a->conf.key;
		p.counts_only = true;
	}
	hist_set_finish(&src->set);
	return hist_set_print(&src->set, &p, stdout);
}

/* One file's histogram, with the options that file is read with (report_cli_input_opts). */
static int hist_file(struct hist_args *a, const struct report_opts *o, struct dat_file *df,
		     struct strbuf *err)
{
	struct hist_source_conf conf = a->conf;
	struct report_filter *filter = NULL;
	struct hist_source *src = NULL;
	int ret;

	conf.tep = dat_file_tep(df);
	ret = report_filter_new(conf.tep, o, &filter, err);
	if (!ret)
		ret = a->kind->create(&conf, &src, err);
	if (!ret)
		ret = report_cli_each(df, filter, feed, src, err);
	if (!ret)
		ret = print_hist(a, o, df, src);
	if (src)
		src->free(src);
	report_filter_free(filter);
	return ret;
}

/*
 * Several -i (a host and its guests): every file is opened first, then each gets its own
 * histogram, headed by its name; a guest's times are on the host's clock (its TIME_SHIFT),
 * and no latency pairs events of two machines.
 */
static int run_hist(void *priv, struct strbuf *err)
{
	struct hist_args *a = priv;
	int i, nr = a->o.nr_more_inputs + 1, ret = 0;
	struct report_opts *one;
	struct dat_file **df;

	if (!a->kind)
		return hist_stack_run(a->o.input, a->compact, err);
	one = calloc(nr, sizeof(*one));
	df = calloc(nr, sizeof(*df));

	if (!one || !df)
		ret = -ENOMEM;
	for (i = 0; i < nr && !ret; i++) {
		report_cli_input_opts(&a->o, i, &one[i]);
		ret = dat_file_open(one[i].input, &df[i], err);
	}
	for (i = 0; i < nr && !ret; i++) {
		/* JSON: the documents follow each other (as jq reads them), nothing between */
		if (i && a->format != HIST_FORMAT_JSON)
			fputc('\n', stdout);
		ret = hist_file(a, &one[i], df[i], err);
		if (ret == -EINVAL && !err->len)
			strbuf_addf(err, "%s: cannot be read", one[i].input);
	}
	for (i = 0; df && i < nr; i++)
		dat_file_close(df[i]);
	free(df);
	free(one);
	return ret;
}

int cmd_hist(int argc, char **argv)
{
	struct hist_args a = { 0 };
	const struct report_cli cli = {
		.name = "hist", .help = &hist_help, .o = &a.o, .priv = &a,
		.option = one_option, .check = check_args, .run = run_hist, .multi_input = true,
	};
	int ret;

	/* the kind and, for `event`, its EVENT come before the options */
	ret = kt_result_of(parse_kind(&a, &argc, &argv));
	if (!ret)
		ret = report_cli_parse(&cli, argc, argv);
	return report_cli_run(&cli, ret);
}
