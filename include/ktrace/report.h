/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_REPORT_H
#define KTRACE_REPORT_H

/*
 * What other commands take from `ktrace report`: its command line front end (report_cli: -i and
 * the filter flags, shared by export and hist), the filters, the records of a file in report's
 * order, and the event printer (ktrace stream prints live records with it). Everything else of
 * src/report is private to that folder; its files:
 *
 *   cmd_report.c      options -> struct report_opts, then the flow (report_opts.h)
 *   report_opts.c     report's option table and parser, -F/-v/--pid/--comm/--cpu
 *   report_cli.c      the front end report, export and hist share (below)
 *   report_file.c     one input file: tep handle, plugins, clock (report_file.h)
 *   report_multi.c    several -i files merged into one output (report_file.h)
 *   report_stream.c   records of every buffer in trace-cmd's order, with a look-ahead per buffer
 *                     (report_stream.h)
 *   report_filter.c   -F/-v/--pid/--comm/--cpu/-I/-S
 *   report_print.c    one event line (or the "CPU:N [N EVENTS DROPPED]" line before it)
 *                     (report_print.h, as are the next ones)
 *   report_fmt.c      numbers without printf
 *   report_time.c     timestamp text
 *   report_fgraph.c   the function_graph handlers (trace-cmd has its own, not a plugin)
 *   report_cfmt*.c    print formats compiled once (report_cfmt.h inside)
 *   report_sched.c    plugin_sched_switch's text, fast
 *   report_function.c plugin_function's text, fast
 *   report_wakeup.c   -w
 *   report_info.c     --stat, --uname, --version, --cpus, -E (report_info.h)
 *   report_plugin_options.c  the -O options of the plugins, for `ktrace options` (below)
 *   report_formats.c  --events, --event (report_info.h)
 *   report_rows.c     --format json|csv: the event loop of the structured output (report_rows.h,
 *                     as are the next three)
 *   report_layout.c   each event's fields, typed, and their values in a record
 *   report_json.c     one NDJSON object per event
 *   report_csv.c      --fields columns, RFC 4180 quoting (and as flat JSON objects)
 *   profile_*.c       --profile: time running, sleeping, blocked, preempted per task (profile.h)
 *   merge.c, cursor.c the per-CPU merge of records (ktrace/merge.h, ktrace/cursor.h)
 *   cmd_dump.c, dump_*.c  `ktrace dump` (dump.h)
 *
 * The output must be byte-identical to `trace-cmd report` 3.1.6 (or to 3.4's with --layout 3.4),
 * so each piece documents which trace-cmd behaviour it reproduces.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "ktrace/strbuf.h"

struct dat_file;
struct report_filter;
struct tep_handle;
struct tep_record;

/* ------------------------------------------------------------------ options */

struct report_filter_arg {
	const char *expr;
	bool neg;		/* given after -v: drop what matches */
};

/*
 * A second or later -i FILE, with what trace-cmd 3.1.6 attaches to the last -i before an option:
 * the -F filters, --ts-offset and --ts2secs given between it and the next -i.
 */
struct report_input {
	const char *path;
	struct report_filter_arg *filters;
	int nr_filters;
	long long ts_offset;
	unsigned long long ts2secs;	/* 0: the one given before the second -i, if any */
};

/* --format: trace-cmd's text (the default), or one JSON object or CSV row per event */
enum report_format {
	REPORT_FORMAT_TEXT,
	REPORT_FORMAT_JSON,
	REPORT_FORMAT_CSV,
};

/*
 * --layout (or KTRACE_LAYOUT): which trace-cmd's text the event lines copy. 3.1.6 (Debian 12's,
 * the default) or 3.4: a latency column on every line, -R's "-0x<flags>" after the CPU, -R's
 * function pointers with their address, sched_switch's states from the kernel's own table.
 */
enum report_layout_version {
	REPORT_LAYOUT_316,
	REPORT_LAYOUT_34,
};

struct report_opts {
	const char *input;
	enum report_format format;
	enum report_layout_version layout;	/* --layout, KTRACE_LAYOUT */
	const char *fields;	/* --fields: the CSV columns or JSON members, comma-separated */
	bool latency;		/* -l */
	bool nsec;		/* -t */
	bool raw;		/* -R */
	bool no_irqs;		/* -I */
	bool no_softirqs;	/* -S */
	bool no_plugins;	/* -N */
	bool no_sys_plugins;	/* -L */
	bool nodate;
	bool raw_ts;
	bool ts_diff;
	bool wakeup;		/* -w */
	bool profile;		/* --profile: a table per task instead of the events */
	bool by_comm;		/* --by-comm: --profile's rows are task names */
	bool quiet;		/* -q */
	bool filter_test;	/* -T: check the filters and exit */
	bool check_events;
	/* instead of the events: --version beats --uname beats --stat, as in trace-cmd */
	bool stat, uname, version;
	/* one-shot listings that replace the event output */
	bool show_cpus, show_first, show_last;
	bool show_events, show_funcs, show_printk, show_endian, show_page_size;
	const char *print_event;	/* --event NAME: its format */
	bool print_all_events;		/* --events */
	const char *kallsyms;
	unsigned long long ts2secs;	/* --ts2secs HZ, 0 when not given */
	bool align_ts;		/* --align-ts: time counts from the earliest file's first page */
	bool ts_check;		/* --ts-check: warn where a timestamp goes backwards */
	bool boundary;		/* --boundary: a line where each sub-buffer (page) starts */
	bool debug;		/* --debug: --boundary and where each record sits in its page */
	/* -V/--verbose: libtraceevent's and libtracecmd's level (log_level.h); 0 when not given */
	int log_level;
	/*
	 * -i given more than once (report): the files after the first, whose events are merged
	 * with its own. input, filters, --pid and --comm stay the first file's, as in trace-cmd.
	 */
	struct report_input *more_inputs;
	int nr_more_inputs;

	struct report_filter_arg *filters;
	int nr_filters;
	/*
	 * -F given before the first input (trace-cmd 3.4's global filters): with --layout 3.4
	 * the first file's filters are also every other file's, before their own.
	 */
	bool filters_every_file;
	const char *filter_flag;	/* the flag that gave them, in messages: NULL is "-F" */
	char **pids;			/* --pid, comma lists split (strv.h) */
	char **comms;			/* --comm (strv.h) */
	/* --cpu LIST: cpu_set[i] for i < nr_cpu_set; NULL when every CPU is wanted */
	bool *cpu_set;
	int nr_cpu_set;
	int nr_plugin_options;		/* -O given: plugins may print differently */
	/* -r / -n: event name regexes printed raw / without their handler (strv.h) */
	char **raw_events;
	char **nohandler_events;
};

/*
 * The filter flags other commands share with report (-F, -v, -I, -S, --cpu, --pid, --comm):
 * their ids in an option table (the short ones are their letter) and one parser, so that they
 * mean the same everywhere. A command's own long options start at REPORT_OPT_FIRST_FREE.
 */
enum report_filter_option {
	REPORT_OPT_CPU = 256,
	REPORT_OPT_PID,
	REPORT_OPT_COMM,
	REPORT_OPT_FIRST_FREE,
};

/* -i, as report_cli_parse takes it, as a row of a command's struct kt_option table */
#define REPORT_INPUT_OPTION \
	KT_OPT('i', "input", KT_ARG_REQUIRED, "FILE", \
	       "read FILE (default trace.dat, or a bare FILE)")

/* Those flags as rows of a command's struct kt_option table (needs ktrace/options.h). */
#define REPORT_FILTER_OPTIONS \
	KT_OPT('F', NULL, KT_ARG_REQUIRED, "FILTER", \
	       "filter 'ev1,ev2' or 'ev: expr'; repeatable"), \
	KT_OPT('v', NULL, KT_ARG_NONE, NULL, "the following -F filters drop what they match"), \
	KT_OPT('I', NULL, KT_ARG_NONE, NULL, "leave out events in hard interrupt context"), \
	KT_OPT('S', NULL, KT_ARG_NONE, NULL, "leave out events in soft interrupt context"), \
	KT_OPT(REPORT_OPT_CPU, "cpu", KT_ARG_REQUIRED, "LIST", "only these CPUs, e.g. 0,2-3"), \
	KT_OPT(REPORT_OPT_PID, "pid", KT_ARG_REQUIRED, "PID", "only events of PID (comma list)"), \
	KT_OPT(REPORT_OPT_COMM, "comm", KT_ARG_REQUIRED, "COMM", "only events of tasks named COMM")

struct kt_command_help;

/*
 * What the run of a report_cli command returns for input trace-cmd refuses as it refuses a bad
 * option (a -F that does not parse, a latency file among several -i): the command's usage
 * error, 255 for report. Negative, but not an errno.
 */
#define REPORT_ERR_USAGE (-4096)

/*
 * The front end of a command that reads one trace.dat file through the filters above (report,
 * export, hist): -i FILE or a bare FILE (once), the filter flags, the command's own options
 * through `option`, then run -> one message -> release. The callbacks get `priv`; those marked
 * so may be NULL.
 */
struct report_cli {
	const char *name;			/* "export": names the command in messages */
	const struct kt_command_help *help;	/* the option table, for report_cli_parse */
	struct report_opts *o;			/* where the input and the filters go */
	void *priv;
	/* one of the command's own options: 0, or -EINVAL after a message (NULL: none) */
	int (*option)(void *priv, int id, const char *arg);
	/* once every option is known: 0, or -EINVAL after a message (may be NULL) */
	int (*check)(void *priv);
	/*
	 * The work: 0; a negative errno or REPORT_ERR_USAGE, its message in err (empty: the
	 * input and strerror); or a positive exit status, its message (if any) printed.
	 */
	int (*run)(void *priv, struct strbuf *err);
	/* exit status after run's negative errno (NULL: 1) */
	int (*fail_status)(void *priv, int ret, const struct strbuf *err);
	/* after the message, before the options are released (may be NULL) */
	void (*release)(void *priv);
	/* as trace-cmd report: what follows a bare FILE is not read (else options may follow) */
	bool file_ends_args;
	/* -i may be repeated (report): the later files go to o->more_inputs */
	bool multi_input;
	/*
	 * A bare argument that is no FILE (sql's QUERY): 0, or -EINVAL after a message. NULL: a
	 * bare argument is the input FILE.
	 */
	int (*arg)(void *priv, const char *arg);
};

/*
 * Fills cli->o from argv: 0, or an enum kt_result of ktrace/options.h (KT_HELP_SHOWN after
 * the usage, KT_ERR_USAGE after a message).
 */
int report_cli_parse(const struct report_cli *cli, int argc, char **argv);
/*
 * Given report_cli_parse's (or report_opts_parse's) result: runs the command when it is 0,
 * prints the one message of a failure, releases everything; returns the exit status or an
 * enum kt_result (the dispatcher's to map: report's usage errors exit 255).
 */
int report_cli_run(const struct report_cli *cli, int parsed);
/*
 * The options one file of several -i is read with, as report reads it: input 0 is the first
 * -i with every option; a later one has its own -F filters, --ts-offset and --ts2secs, and no
 * --pid, --comm or --cpu (they name the first file's tasks and CPUs). one shares o's memory.
 */
void report_cli_input_opts(const struct report_opts *o, int i, struct report_opts *one);
/*
 * Every record of df that filter keeps, in report's order, to fn(arg, record); stops at the
 * first nonzero fn returns, and returns that, or 0, or the stream's error (message in err).
 */
int report_cli_each(struct dat_file *df, struct report_filter *filter,
		    int (*fn)(void *arg, struct tep_record *record), void *arg, struct strbuf *err);

/* ------------------------------------------------------------------ time */

/*
 * How trace-cmd prints a timestamp: microseconds rounded to 6 decimals (default), nanoseconds
 * with 9 decimals (-t), or the raw count for clocks that are not in nanoseconds (counter,
 * x86-tsc) and for --raw-ts.
 */
enum report_time_unit {
	REPORT_TIME_USECS,
	REPORT_TIME_NSECS,
	REPORT_TIME_RAW,
};

/*
 * The unit of the file's timestamps. The records come out of the merge already converted
 * (--date, OFFSET, TSC2NSEC, --ts-offset: the reader's dat_file_ts()).
 */
struct report_clock {
	enum report_time_unit unit;
	bool use_trace_clock;		/* the file names its clock (for --ts-diff) */
};

void report_clock_init(struct report_clock *c, const struct dat_file *df,
		       const struct report_opts *o);

/* ------------------------------------------------------------------ stream */

struct report_stream;

struct report_event {
	struct tep_record *record;	/* valid until the next report_stream_next() */
	int buffer;			/* dat_file_buffer() index */
	int cpu_slot;			/* trace-cmd's CPU index across buffers (for --cpu) */
};

int report_stream_open(struct dat_file *df, struct report_stream **out, struct strbuf *err);
/* 1 with *ev set, 0 at the end, negative errno (message in err). */
int report_stream_next(struct report_stream *rs, struct report_event *ev, struct strbuf *err);
void report_stream_close(struct report_stream *rs);

/* ------------------------------------------------------------------ filters */

struct report_filter;

/*
 * Builds the filters of the command line (-F/--pid/--comm, --cpu, -I/-S). -EINVAL when a
 * filter does not parse ("Failed to create event filter" in err).
 */
int report_filter_new(struct tep_handle *tep, const struct report_opts *o,
		      struct report_filter **out, struct strbuf *err);
bool report_filter_keep(struct report_filter *f, const struct report_event *ev);
/*
 * The event ids report_filter_keep() refuses whatever their fields say (no positive filter
 * names their event): refused[id] for id < *nr, or NULL when there are none. A reader may pass
 * over their records unread (cpu_cursor_skip_events()). Valid as long as f.
 */
const bool *report_filter_refused_events(struct report_filter *f, int *nr);
void report_filter_free(struct report_filter *f);
/* Whether o gives any of those filters (a command may then skip building one). */
bool report_opts_has_filters(const struct report_opts *o);

/* ------------------------------------------------------------------ printer */

struct report_printer;

struct report_printer_conf {
	const struct report_opts *opts;
	struct report_clock clock;
	struct report_stream *stream;	/* for the function_graph look-ahead */
	bool prefix;			/* the file has instances: prefix every line */
	int prefix_width;		/* width of the instance-name column */
	/* several files (report_multi.c): the top buffer's prefix, and instances' base names */
	const char *top_name;
	/* several files: the first file's printer, whose function_graph options this one shares */
	struct report_printer *first;
};

/*
 * report's event printer for records read live (ktrace stream): no file, so no instance prefix,
 * and conf->stream NULL (no function_graph look-ahead: entries and exits print as they come).
 */
int report_printer_new_live(struct tep_handle *tep, const struct report_printer_conf *conf,
			    struct report_printer **out, struct strbuf *err);
/*
 * The event id whose printed records make the printer read the record after them from its
 * stream (function_graph's entry, to fold it with its exit), or -1: a stream that passes over
 * records must not pass over those that come after one.
 */
int report_printer_lookahead_event(const struct report_printer *p);
/* Prints one event (and the dropped-events line before it) to `out`. */
int report_print_event(struct report_printer *p, const struct report_event *ev, FILE *out);
/* Writes the lines gathered so far (a live stream must not wait for a full batch). */
void report_printer_flush(struct report_printer *p);
/* After tep_override_comm(): the printer's kept pid -> comm answers are stale. */
void report_printer_forget_comms(struct report_printer *p);
void report_printer_free(struct report_printer *p);

/* ------------------------------------------------------------------ profile */

/*
 * `report --profile` of the file at path (its rows task names when by_comm) written to out, as
 * ktrace report prints it (ktrace profile's last step): 0, or a negative errno with a message
 * in err (possibly empty: then the path and strerror say it).
 */
int report_profile_file(const char *path, bool by_comm, FILE *out, struct strbuf *err);

/* ------------------------------------------------------------------ plugin options */

/*
 * Prints the plugin options report takes with -O (its own fgraph ones and those of the
 * libtraceevent plugins it loads), as `trace-cmd options` does. 0 or negative errno.
 */
int report_print_plugin_options(FILE *out);

#endif
