// SPDX-License-Identifier: GPL-2.0-only
/*
 * `ktrace report` options: the flags of trace-cmd 3.1.6 report, with the same meaning, parsed
 * into struct report_opts. -O goes straight to libtraceevent's plugin option list, as
 * trace-cmd does, so that plugins loaded later pick it up.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "ktrace/log_level.h"
#include "ktrace/options.h"
#include "ktrace/report.h"
#include "ktrace/strv.h"
#include "report_opts.h"

enum {
	OPT_CPU = REPORT_OPT_CPU, OPT_PID = REPORT_OPT_PID, OPT_COMM = REPORT_OPT_COMM,
	OPT_CPUS = REPORT_OPT_FIRST_FREE, OPT_EVENTS, OPT_EVENT, OPT_FIRST, OPT_LAST, OPT_KALLSYMS,
	OPT_CHECK_EVENTS, OPT_NODATE, OPT_STAT, OPT_BOUNDARY, OPT_DEBUG,
	OPT_PROFILE, OPT_UNAME, OPT_VERSION, OPT_BYCOMM, OPT_TSOFFSET, OPT_TS2SECS, OPT_TSDIFF,
	OPT_TSCHECK, OPT_RAW_TS, OPT_ALIGN_TS, OPT_VERBOSE, OPT_FORMAT, OPT_FIELDS, OPT_LAYOUT,
};

static const struct kt_option report_options[] = {
	KT_OPT('i', "input", KT_ARG_REQUIRED, "FILE",
	       "read FILE (default trace.dat; also a bare FILE); repeat to merge several files"),
	KT_OPT(OPT_FORMAT, "format", KT_ARG_REQUIRED, "FMT",
	       "text (default), json (one object per line), csv"),
	KT_OPT(OPT_LAYOUT, "layout", KT_ARG_REQUIRED, "LAYOUT",
	       "print as trace-cmd 3.1(.6) or 3.4 does (default $KTRACE_LAYOUT, else 3.1)"),
	KT_OPT(OPT_FIELDS, "fields", KT_ARG_REQUIRED, "LIST",
	       "csv columns or json members, e.g. ts,cpu,comm,pid,event,prev_pid"),
	KT_OPT('l', NULL, KT_ARG_NONE, NULL,
	       "latency format: irqs-off, need-resched, irq, preempt"),
	KT_OPT('t', NULL, KT_ARG_NONE, NULL, "full-resolution (nanosecond) timestamps"),
	KT_OPT('R', NULL, KT_ARG_NONE, NULL, "print the raw fields of every event"),
	KT_OPT('r', NULL, KT_ARG_REQUIRED, "EVENT", "print EVENT (regex) raw; repeatable"),
	KT_OPT('n', NULL, KT_ARG_REQUIRED, "EVENT",
	       "print EVENT (regex) without its plugin handler"),
	KT_OPT('F', NULL, KT_ARG_REQUIRED, "FILTER",
	       "event filter 'ev1,ev2' or 'ev: expr'; repeatable"),
	KT_OPT('v', NULL, KT_ARG_NONE, NULL, "the following -F filters drop what they match"),
	KT_OPT('T', "filter-test", KT_ARG_NONE, NULL, "check the filters and exit"),
	KT_OPT('I', NULL, KT_ARG_NONE, NULL, "hide events in hard interrupt context"),
	KT_OPT('S', NULL, KT_ARG_NONE, NULL, "hide events in soft interrupt context"),
	KT_OPT(OPT_CPU, "cpu", KT_ARG_REQUIRED, "LIST", "only these CPUs, e.g. 0,2-3"),
	KT_OPT(OPT_PID, "pid", KT_ARG_REQUIRED, "PID", "only events of PID (comma list)"),
	KT_OPT(OPT_COMM, "comm", KT_ARG_REQUIRED, "COMM", "only events of tasks named COMM"),
	KT_OPT('N', NULL, KT_ARG_NONE, NULL, "load no plugins"),
	KT_OPT('L', NULL, KT_ARG_NONE, NULL, "load no system-wide plugins"),
	KT_OPT('O', NULL, KT_ARG_REQUIRED, "PLUGIN:OPT[=VAL]",
	       "plugin option, e.g. fgraph:depth, parent"),
	KT_OPT(OPT_STAT, "stat", KT_ARG_NONE, NULL, "print the kernel buffer statistics"),
	KT_OPT(OPT_UNAME, "uname", KT_ARG_NONE, NULL, "print the uname of the recording system"),
	KT_OPT(OPT_VERSION, "version", KT_ARG_NONE, NULL,
	       "print the version of the recording kernel"),
	KT_OPT(OPT_CPUS, "cpus", KT_ARG_NONE, NULL, "list the CPUs that have data"),
	KT_OPT(OPT_FIRST, "first-event", KT_ARG_NONE, NULL,
	       "with --cpus: first event time per CPU"),
	KT_OPT(OPT_LAST, "last-event", KT_ARG_NONE, NULL, "with --cpus: last event time per CPU"),
	KT_OPT('e', NULL, KT_ARG_NONE, NULL, "print the file's and the host's endianness"),
	KT_OPT('p', NULL, KT_ARG_NONE, NULL, "print the file's and the host's page size"),
	KT_OPT('E', NULL, KT_ARG_NONE, NULL, "list the event formats the file holds"),
	KT_OPT('f', NULL, KT_ARG_NONE, NULL, "list the functions the file knows"),
	KT_OPT('P', NULL, KT_ARG_NONE, NULL, "list the trace_printk formats"),
	KT_OPT(OPT_KALLSYMS, "kallsyms", KT_ARG_REQUIRED, "FILE", "take function names from FILE"),
	KT_OPT(OPT_NODATE, "nodate", KT_ARG_NONE, NULL,
	       "ignore the --date offset of the recording"),
	KT_OPT(OPT_RAW_TS, "raw-ts", KT_ARG_NONE, NULL, "print raw timestamps, no offsets"),
	KT_OPT(OPT_TSOFFSET, "ts-offset", KT_ARG_REQUIRED, "NSEC",
	       "add NSEC to the times of the last -i FILE (not the first)"),
	KT_OPT(OPT_TS2SECS, "ts2secs", KT_ARG_REQUIRED, "HZ", "timestamps count at HZ"),
	KT_OPT(OPT_TSDIFF, "ts-diff", KT_ARG_NONE, NULL, "show the time since the previous event"),
	KT_OPT('w', NULL, KT_ARG_NONE, NULL, "wakeup latencies (sched_wakeup -> sched_switch)"),
	KT_OPT('q', NULL, KT_ARG_NONE, NULL, "quiet: no warnings"),
	KT_OPT(OPT_CHECK_EVENTS, "check-events", KT_ARG_NONE, NULL,
	       "exit 0 when every format parses"),
	KT_OPT(OPT_TSCHECK, "ts-check", KT_ARG_NONE, NULL,
	       "warn where an event's time is before the previous one's"),
	KT_OPT(OPT_ALIGN_TS, "align-ts", KT_ARG_NONE, NULL,
	       "count time from the first event's page"),
	KT_OPT(OPT_BOUNDARY, "boundary", KT_ARG_NONE, NULL,
	       "say where each ring-buffer page (sub-buffer) starts"),
	KT_OPT(OPT_DEBUG, "debug", KT_ARG_NONE, NULL,
	       "--boundary, and each event's time delta, page offset and size"),
	KT_OPT(OPT_VERBOSE, "verbose", KT_ARG_OPTIONAL, "LEVEL",
	       "libraries' messages up to LEVEL (none, crit, err, warn, info, debug, all; 0-6)"),
	KT_OPT('V', NULL, KT_ARG_OPTIONAL, "LEVEL", "as --verbose (plugins loaded, handlers)"),
	KT_OPT('G', NULL, KT_ARG_NONE, NULL,
	       "accepted; no effect (ktrace's --profile has no interrupt rows)"),
	KT_OPT(OPT_EVENTS, "events", KT_ARG_NONE, NULL, "print every event format of the file"),
	KT_OPT(OPT_EVENT, "event", KT_ARG_REQUIRED, "REGEX",
	       "print the formats of matching events ([SYSTEM:]EVENT)"),
	KT_OPT(OPT_PROFILE, "profile", KT_ARG_NONE, NULL,
	       "per task: time running, sleeping, blocked, preempted; -T stacks"),
	KT_OPT(OPT_BYCOMM, "by-comm", KT_ARG_NONE, NULL, "--profile: one row per task name"),
	KT_OPT('H', NULL, KT_ARG_REQUIRED, "HOOK", "not supported (a --profile option)"),
	{ 0 }
};

static const struct kt_command_help report_help = {
	.name = "report",
	.usage = "[OPTIONS] [-i FILE [-i FILE...] | FILE]",
	.summary = "Print the events of a trace.dat file, as trace-cmd report does.",
	.options = report_options,
};

/* The file the per-file options given now belong to: the last -i, NULL for the first file. */
static struct report_input *last_input(struct report_opts *o)
{
	return o->nr_more_inputs ? &o->more_inputs[o->nr_more_inputs - 1] : NULL;
}

/* As trace-cmd: a -F filters the file of the last -i before it (the first file before any). */
static int push_filter(struct report_opts *o, const char *expr, bool neg)
{
	struct report_input *in = last_input(o);
	struct report_filter_arg **list = in ? &in->filters : &o->filters;
	int *nr = in ? &in->nr_filters : &o->nr_filters;
	struct report_filter_arg *grown = realloc(*list, (*nr + 1) * sizeof(*grown));

	if (!grown)
		return -ENOMEM;
	*list = grown;
	grown[*nr].expr = expr;
	grown[*nr].neg = neg;
	(*nr)++;
	return 0;
}

static int push_split(char ***list, const char *arg)
{
	char *copy = strdup(arg), *save = NULL, *tok;
	int ret = copy ? 0 : -ENOMEM;

	for (tok = copy ? strtok_r(copy, ",", &save) : NULL; tok && !ret;
	     tok = strtok_r(NULL, ",", &save))
		ret = strv_push(list, tok);
	free(copy);
	return ret;
}

static int set_cpu(struct report_opts *o, unsigned long cpu)
{
	if (cpu >= (unsigned long)o->nr_cpu_set) {
		bool *grown = realloc(o->cpu_set, (cpu + 1) * sizeof(*grown));

		if (!grown)
			return -ENOMEM;
		memset(grown + o->nr_cpu_set, 0, (cpu + 1 - o->nr_cpu_set) * sizeof(*grown));
		o->cpu_set = grown;
		o->nr_cpu_set = (int)cpu + 1;
	}
	o->cpu_set[cpu] = true;
	return 0;
}

static const char *cpulist_number(const char *p, const char *list, unsigned long *v,
				  struct strbuf *err)
{
	char *end;

	while (isspace((unsigned char)*p))
		p++;
	if (!isdigit((unsigned char)*p)) {
		strbuf_addf(err, "invalid character '%c' in cpu string '%s'", *p, list);
		return NULL;
	}
	*v = strtoul(p, &end, 10);
	if (*v > 65535) {
		strbuf_addf(err, "cpu number too large in cpu string '%s'", list);
		return NULL;
	}
	return end;
}

int report_parse_cpulist(struct report_opts *o, const char *list, struct strbuf *err)
{
	const char *p = list;
	unsigned long a, b;

	do {
		p = cpulist_number(p, list, &a, err);
		if (!p)
			return -EINVAL;
		b = a;
		if (*p == '-') {
			p = cpulist_number(p + 1, list, &b, err);
			if (!p)
				return -EINVAL;
		}
		if (a > b) {
			strbuf_addstr(err, "range of cpu numbers must be lower to greater");
			return -EINVAL;
		}
		for (; a <= b; a++)
			if (set_cpu(o, a))
				return -ENOMEM;
		if (*p == ',' || *p == ':')
			p++;
	} while (*p);
	return 0;
}

static int plugin_option(const char *arg)
{
	char *name = strdup(arg), *val;
	int ret;

	if (!name)
		return -ENOMEM;
	val = strchr(name, '=');
	if (val)
		*val++ = '\0';
	ret = tep_plugin_add_option(name, val);
	free(name);
	return ret < 0 ? ret : 0;
}

static int report_bad_format(const char *arg)
{
	fprintf(stderr, "ktrace report: --format: unknown format '%s' (text, json, csv)\n", arg);
	return -EINVAL;
}

static int set_format(struct report_opts *o, const char *arg)
{
	if (!strcmp(arg, "text"))
		o->format = REPORT_FORMAT_TEXT;
	else if (!strcmp(arg, "json"))
		o->format = REPORT_FORMAT_JSON;
	else if (!strcmp(arg, "csv"))
		o->format = REPORT_FORMAT_CSV;
	else
		return report_bad_format(arg);
	return 0;
}

/* "3.1", "3.1.6" or "3.4"; `from` names where the value came from in the message. */
static int set_layout(struct report_opts *o, const char *arg, const char *from)
{
	if (!strcmp(arg, "3.1") || !strcmp(arg, "3.1.6"))
		o->layout = REPORT_LAYOUT_316;
	else if (!strcmp(arg, "3.4"))
		o->layout = REPORT_LAYOUT_34;
	else
		return kt_option_error("report", from, arg, "is not a layout (3.1, 3.4)");
	return 0;
}

/*
 * What ktrace cannot print as trace-cmd does for several files (trace-cmd refuses -w itself;
 * ktrace's JSON/CSV rows have no per-file form). --profile prints a table per file.
 */
static int check_multi(const struct report_opts *o)
{
	const char *opt = NULL;

	if (!o->nr_more_inputs)
		return 0;
	if (o->format != REPORT_FORMAT_TEXT && !(o->profile && o->format == REPORT_FORMAT_JSON))
		opt = o->format == REPORT_FORMAT_JSON ? "--format json" : "--format csv";
	else if (o->wakeup)
		opt = "-w";
	if (!opt)
		return 0;
	fprintf(stderr, "ktrace report: %s reads one input file only, not several -i\n", opt);
	return -EINVAL;
}

/*
 * trace-cmd 3.4: the global filters (the first file's list, when -F came before it) filter
 * every file, before the file's own.
 */
static int share_filters(struct report_opts *o)
{
	struct report_filter_arg *list;
	int i, n;

	if (o->layout != REPORT_LAYOUT_34 || !o->filters_every_file)
		return 0;
	for (i = 0; i < o->nr_more_inputs; i++) {
		struct report_input *in = &o->more_inputs[i];

		n = o->nr_filters + in->nr_filters;
		list = malloc((size_t)n * sizeof(*list));
		if (!list)
			return -ENOMEM;
		/* either list may be empty (NULL): memcpy takes no NULL, even for 0 bytes */
		if (o->nr_filters)
			memcpy(list, o->filters, (size_t)o->nr_filters * sizeof(*list));
		if (in->nr_filters)
			memcpy(list + o->nr_filters, in->filters,
			       (size_t)in->nr_filters * sizeof(*list));
		free(in->filters);
		in->filters = list;
		in->nr_filters = n;
	}
	return 0;
}

/* Combinations that cannot mean anything, refused once every option is known. */
static int check_format(void *priv)
{
	struct report_opts *o = priv;
	const char *why = NULL;

	if (o->fields && o->format == REPORT_FORMAT_TEXT)
		why = "--fields needs --format csv or json";
	else if (o->wakeup && o->format != REPORT_FORMAT_TEXT)
		why = "-w prints into the text output: it needs --format text";
	else if (o->by_comm && !o->profile)
		why = "--by-comm is a --profile option: add --profile";
	if (!why)
		return check_multi(o) ?: share_filters(o);
	fprintf(stderr, "ktrace report: %s\n", why);
	return -EINVAL;
}

static int unsupported(const char *what)
{
	fprintf(stderr, "ktrace report: %s is not supported\n", what);
	return -EINVAL;
}

/*
 * trace-cmd 3.1.6 gives the offset to the file of the last -i, but the first file's offset is
 * fixed (to 0) when its -i is parsed: with one file it has no effect, and ktrace does the same.
 * The number is read as atoll() reads it.
 */
static int set_ts_offset(struct report_opts *o, const char *arg)
{
	struct report_input *in = last_input(o);

	if (!o->input) {
		fprintf(stderr, "ktrace report: --ts-offset must come after -i\n");
		return -EINVAL;
	}
	if (in)
		in->ts_offset = strtoll(arg, NULL, 10);
	return 0;
}

/* As trace-cmd: for the file of the last -i once there are two, else for every file. */
static int set_ts2secs(struct report_opts *o, const char *arg)
{
	struct report_input *in = last_input(o);

	if (in)
		in->ts2secs = strtoull(arg, NULL, 0);
	else
		o->ts2secs = strtoull(arg, NULL, 0);
	return 0;
}

static int cpu_option(struct report_opts *o, const char *arg, const char *cmd)
{
	struct strbuf err = STRBUF_INIT;
	int ret = report_parse_cpulist(o, arg, &err);

	if (ret)
		fprintf(stderr, "ktrace %s: --cpu: %s\n", cmd, strbuf_str(&err));
	strbuf_release(&err);
	return ret;
}

/* Options that only set a flag; false when `c` is not one of them. */
static bool flag_option(struct report_opts *o, int c)
{
	switch (c) {
	case 'l': o->latency = true; break;
	case 't': o->nsec = true; break;
	case 'R': o->raw = true; break;
	case 'N': o->no_plugins = true; break;
	case 'L': o->no_sys_plugins = true; break;
	case 'T': o->filter_test = true; break;
	case 'e': o->show_endian = true; break;
	case 'p': o->show_page_size = true; break;
	case 'E': o->show_events = true; break;
	case 'f': o->show_funcs = true; break;
	case 'P': o->show_printk = true; break;
	case 'w': o->wakeup = true; break;
	case OPT_PROFILE: o->profile = true; break;
	case 'q': o->quiet = true; break;
	case OPT_CPUS: o->show_cpus = true; break;
	case OPT_FIRST: o->show_first = o->show_cpus = true; break;
	case OPT_LAST: o->show_last = o->show_cpus = true; break;
	case OPT_NODATE: o->nodate = true; break;
	case OPT_RAW_TS: o->raw_ts = true; break;
	case OPT_TSDIFF: o->ts_diff = true; break;
	case OPT_CHECK_EVENTS: o->check_events = true; break;
	case OPT_STAT: o->stat = true; break;
	case OPT_UNAME: o->uname = true; break;
	case OPT_VERSION: o->version = true; break;
	case OPT_ALIGN_TS: o->align_ts = true; break;
	case OPT_TSCHECK: o->ts_check = true; break;
	case OPT_BOUNDARY: o->boundary = true; break;
	case OPT_DEBUG: o->boundary = o->debug = true; break;
	case 'G':
		break;
	default:
		return false;
	}
	return true;
}

int report_opts_filter(struct report_opts *o, int id, const char *arg, bool *neg, const char *cmd)
{
	switch (id) {
	case 'I': o->no_irqs = true; return 0;
	case 'S': o->no_softirqs = true; return 0;
	case 'F': return push_filter(o, arg, *neg);
	case 'v':
		if (*neg) {
			fprintf(stderr, "ktrace %s: Only 1 -v can be used\n", cmd);
			return -EINVAL;
		}
		*neg = true;
		return 0;
	case OPT_CPU: return cpu_option(o, arg, cmd);
	case OPT_PID: return push_split(&o->pids, arg);
	case OPT_COMM: return push_split(&o->comms, arg);
	default: return 1;
	}
}

/* report's own options; the input and the filter flags are report_cli's */
static int one_option(void *priv, int c, const char *arg)
{
	struct report_opts *o = priv;

	if (flag_option(o, c))
		return 0;
	switch (c) {
	case 'r': return strv_push(&o->raw_events, arg);
	case 'n': return strv_push(&o->nohandler_events, arg);
	case 'O':
		o->nr_plugin_options++;
		return plugin_option(arg);
	case OPT_KALLSYMS: o->kallsyms = arg; return 0;
	case OPT_FORMAT: return set_format(o, arg);
	case OPT_FIELDS: o->fields = arg; return 0;
	case OPT_LAYOUT: return set_layout(o, arg, "--layout");
	case OPT_TSOFFSET: return set_ts_offset(o, arg);
	case OPT_TS2SECS: return set_ts2secs(o, arg);
	case OPT_EVENTS: o->print_all_events = true; return 0;
	case OPT_EVENT: o->print_event = arg; return 0;
	case OPT_BYCOMM: o->by_comm = true; return 0;
	case 'H': return unsupported("-H");
	case 'V': case OPT_VERBOSE:
		o->log_level = kt_log_level_parse(arg);
		if (o->log_level >= 0)
			return 0;
		fprintf(stderr, "ktrace report: %s: invalid verbose level '%s' (%s)\n",
			c == 'V' ? "-V" : "--verbose", arg, KT_LOG_LEVEL_CHOICES);
		return -EINVAL;
	default: return -EINVAL;
	}
}

int report_opts_parse(struct report_opts *o, int argc, char **argv)
{
	const struct report_cli cli = {
		.help = &report_help, .o = o, .priv = o, .option = one_option, .check = check_format,
		.file_ends_args = true, .multi_input = true,
	};

	const char *layout = getenv("KTRACE_LAYOUT");

	memset(o, 0, sizeof(*o));
	/* the variable first, so that --layout overrides it */
	if (layout && *layout && set_layout(o, layout, "KTRACE_LAYOUT"))
		return kt_result_of(-EINVAL);
	return report_cli_parse(&cli, argc, argv);
}

void report_opts_release(struct report_opts *o)
{
	int i;

	for (i = 0; i < o->nr_more_inputs; i++)
		free(o->more_inputs[i].filters);
	free(o->more_inputs);
	free(o->filters);
	strv_free(o->pids);
	strv_free(o->comms);
	strv_free(o->raw_events);
	strv_free(o->nohandler_events);
	free(o->cpu_set);
	memset(o, 0, sizeof(*o));
}
