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
	{ 'i', "input", KT_ARG_REQUIRED, "FILE", "read FILE (default trace.dat, or a bare FILE)" },
	{ OPT_BY, "by", KT_ARG_REQUIRED, "task", "wakeup: a histogram per task" },
	{ OPT_KEY, "key", KT_ARG_REQUIRED, "FIELD", "event: count the values of FIELD" },
	{ OPT_FORMAT, "format", KT_ARG_REQUIRED, "FMT", "text (default) or json" },
	REPORT_FILTER_OPTIONS,
	{ 0 }
};

static const struct kt_command_help hist_help = {
	.name = "hist",
	.usage = "wakeup|syscall|funcgraph|event EVENT --key FIELD [OPTIONS] [-i FILE | FILE]",
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
};

static int set_input(struct hist_args *a, const char *file)
{
	if (a->o.input) {
		fprintf(stderr, "ktrace hist: only one input file is supported ('%s' and '%s')\n",
			a->o.input, file);
		return -EINVAL;
	}
	a->o.input = file;
	return 0;
}

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

static int one_option(struct hist_args *a, int c, const char *arg, bool *neg)
{
	int ret = report_opts_filter(&a->o, c, arg, neg, "hist"), v = 0;

	if (ret <= 0)
		return ret;
	switch (c) {
	case 'i': return set_input(a, arg);
	case OPT_KEY: a->conf.key = arg; return 0;
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

static int check_args(struct hist_args *a)
{
	if (!a->kind) {
		fprintf(stderr, "ktrace hist: say which histogram: wakeup, syscall, funcgraph or "
			"event (see 'ktrace hist -h')\n");
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

/* The options up to the next non-option; its index in *idx. 0, 1 after -h, or -EINVAL. */
static int parse_options(struct hist_args *a, int argc, char **argv, bool *neg, int *idx)
{
	struct kt_getopt g;
	int c, ret = 0;

	if (kt_getopt_init(&g, &hist_help, argc, argv))
		return -ENOMEM;
	while (!ret && (c = kt_getopt_next(&g)) != -1) {
		if (c == 'h') {
			kt_usage(stdout, &hist_help);
			ret = 1;
		} else {
			ret = c == '?' ? -EINVAL : one_option(a, c, g.arg, neg);
		}
	}
	*idx = kt_getopt_index(&g);
	kt_getopt_release(&g);
	return ret;
}

/* 0, 1 after -h, or -EINVAL (message printed). Options may follow a bare FILE. */
static int parse_args(struct hist_args *a, int argc, char **argv)
{
	bool neg = false;
	int ret, idx;

	ret = parse_kind(a, &argc, &argv);
	while (!ret && !(ret = parse_options(a, argc, argv, &neg, &idx)) && idx < argc) {
		ret = set_input(a, argv[idx]);
		/* the getopt parser takes argv[0] as the program name: the FILE just taken */
		argc -= idx;
		argv += idx;
	}
	if (!ret)
		ret = check_args(a);
	if (!a->o.input)
		a->o.input = "trace.dat";
	return ret;
}

static int feed(struct dat_file *df, struct report_filter *filter, struct hist_source *src,
		struct strbuf *err)
{
	struct report_stream *rs = NULL;
	struct report_event ev;
	int ret;

	ret = report_stream_open(df, &rs, err);
	while (!ret && (ret = report_stream_next(rs, &ev, err)) > 0)
		ret = report_filter_keep(filter, &ev) ? src->event(src, ev.record) : 0;
	report_stream_close(rs);
	return ret;
}

static int print_hist(const struct hist_args *a, struct dat_file *df, struct hist_source *src)
{
	struct hist_print p = { .format = a->format, .what = a->kind->what,
				.group_by = a->kind->group_by };
	struct report_clock clock;

	report_clock_init(&clock, df, &a->o);
	p.unit = clock.unit == REPORT_TIME_RAW ? "ticks" : "ns";
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

static int run_hist(struct hist_args *a, struct strbuf *err)
{
	struct report_filter *filter = NULL;
	struct hist_source *src = NULL;
	struct dat_file *df = NULL;
	int ret;

	ret = dat_file_open(a->o.input, &df, err);
	if (ret)
		return ret;
	a->conf.tep = dat_file_tep(df);
	ret = report_filter_new(a->conf.tep, &a->o, &filter, err);
	if (!ret)
		ret = a->kind->create(&a->conf, &src, err);
	if (!ret)
		ret = feed(df, filter, src, err);
	if (!ret)
		ret = print_hist(a, df, src);
	if (ret == -EINVAL && !err->len)
		strbuf_addf(err, "%s: cannot be read", a->o.input);
	if (src)
		src->free(src);
	report_filter_free(filter);
	dat_file_close(df);
	return ret;
}

int cmd_hist(int argc, char **argv)
{
	struct hist_args a = { 0 };
	struct strbuf err = STRBUF_INIT;
	int ret, status = 0;

	ret = parse_args(&a, argc, argv);
	if (ret > 0) {
		ret = 0;
	} else if (!ret) {
		ret = run_hist(&a, &err);
		if (ret) {
			fprintf(stderr, "ktrace hist: %s\n",
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
