/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_REPORT_H
#define KTRACE_REPORT_H

/*
 * `ktrace report`: the pieces between the merged record stream and stdout. The output must be
 * byte-identical to `trace-cmd report` 3.1.6, so each piece documents which trace-cmd behaviour
 * it reproduces.
 *
 *   cmd_report.c      options -> struct report_opts, then the flow
 *   report_stream.c   records of every buffer in trace-cmd's order, with a look-ahead per buffer
 *   report_filter.c   -F/-v/--pid/--comm/--cpu/-I/-S
 *   report_print.c    one event line (or the "CPU:N [N EVENTS DROPPED]" line before it)
 *   report_fgraph.c   the function_graph handlers (trace-cmd has its own, not a plugin)
 *   report_time.c     timestamp text
 *   report_info.c     --stat, --uname, --version, --cpus, -E, -f, -P, -e, -p
 *   report_rows.c     --format json|csv: the event loop of the structured output
 *   report_layout.c   each event's fields, typed, and their values in a record
 *   report_json.c     one NDJSON object per event
 *   report_csv.c      --fields columns, RFC 4180 quoting (and as flat JSON objects)
 *   profile_*.c       --profile: time running, sleeping, blocked, preempted per task
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "ktrace/strbuf.h"

struct dat_file;
struct report_filter;
struct tep_format_field;
struct tep_handle;
struct tep_record;
struct trace_seq;

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

struct report_opts {
	const char *input;
	enum report_format format;
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
	/*
	 * -i given more than once (report): the files after the first, whose events are merged
	 * with its own. input, filters, --pid and --comm stay the first file's, as in trace-cmd.
	 */
	struct report_input *more_inputs;
	int nr_more_inputs;

	struct report_filter_arg *filters;
	int nr_filters;
	char **pids;
	int nr_pids;
	char **comms;
	int nr_comms;
	/* --cpu LIST: cpu_set[i] for i < nr_cpu_set; NULL when every CPU is wanted */
	bool *cpu_set;
	int nr_cpu_set;
	int nr_plugin_options;		/* -O given: plugins may print differently */
	/* -r / -n: event name regexes printed raw / without their handler */
	char **raw_events;
	int nr_raw_events;
	char **nohandler_events;
	int nr_nohandler_events;
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

/*
 * Applies filter flag `id` to `o`: 0, 1 when `id` is not a filter flag, or -EINVAL after a
 * message naming "ktrace CMD" and the flag. `neg` is the parser's state (-v seen).
 */
int report_opts_filter(struct report_opts *o, int id, const char *arg, bool *neg, const char *cmd);
/* Fills `o` from argv: as report_cli_parse. */
int report_opts_parse(struct report_opts *o, int argc, char **argv);
void report_opts_release(struct report_opts *o);
/* Parses "0-2,5" into o->cpu_set; -EINVAL with a message in err. */
int report_parse_cpulist(struct report_opts *o, const char *list, struct strbuf *err);

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
 * Every record of df that filter keeps, in report's order, to fn(arg, record); stops at the
 * first nonzero fn returns, and returns that, or 0, or the stream's error (message in err).
 */
int report_cli_each(struct dat_file *df, struct report_filter *filter,
		    int (*fn)(void *arg, struct tep_record *record), void *arg, struct strbuf *err);

/* ------------------------------------------------------------------ numbers */

/*
 * printf's %*lld (pad ' '), %0*lld (pad '0') and %-*lld (left) without printf: writes into
 * `out` (no NUL) and returns the end. Room for 24 characters beyond `width` is enough.
 */
char *report_put_int(char *out, long long v, int width, char pad, bool left);
char *report_put_uint(char *out, unsigned long long v, int width, char pad);
/* How many digits v has in base 10 or 16, and those digits written to end at `end`. */
int report_num_len(unsigned long long v, int base);
void report_num_put(char *end, unsigned long long v, int base, bool upper);

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
 * Writes the timestamp as the event line shows it (" %5llu.%06llu:" and so on; `colon` adds
 * the leading blank and the trailing ':' of the event line) into buf, NUL-terminated.
 * Returns the length. buf must hold 48 bytes.
 */
int report_time_format(char *buf, unsigned long long ts, enum report_time_unit unit, bool colon);

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

/* ------------------------------------------------------------------ input files */

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
/*
 * The timestamp and buffer of the event report_stream_next() gives next, which stays where it
 * is: 1, 0 at the end, negative errno (message in err). It ends the current event's life.
 */
int report_stream_head(struct report_stream *rs, uint64_t *ts, int *buffer, struct strbuf *err);
/*
 * How many CPU slots trace-cmd gives buffer `index` of df when it numbers the CPUs of all its
 * buffers (and files) in one row, as --cpu counts them.
 */
int report_buffer_slots(struct dat_file *df, int index);
/*
 * The next record of the current event's buffer (all of its CPUs, in merge order), without
 * consuming it; NULL at the end or on error (reported by the next report_stream_next()).
 * Call report_stream_pin() first: peeking may reuse the current record's memory otherwise.
 */
struct tep_record *report_stream_peek(struct report_stream *rs);
/* Drops the record report_stream_peek() returned, as if it had been printed. */
void report_stream_consume_peeked(struct report_stream *rs);
/* Copies the current record so that it survives a peek; returns the copy. */
struct tep_record *report_stream_pin(struct report_stream *rs);
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
bool report_filter_has_event_filters(const struct report_filter *f);
void report_filter_free(struct report_filter *f);

/* ------------------------------------------------------------------ fgraph */

/* How the function_graph handlers read ahead: the report stream, or a test double. */
struct report_lookahead {
	struct tep_record *(*peek)(void *priv);
	void (*consume)(void *priv);
	void *priv;
};

struct report_fgraph;

/*
 * Registers trace-cmd's function_graph output on `tep` (funcgraph_entry folded with its
 * matching funcgraph_exit into "func();", otherwise "func() {" ... "}") and its options
 * fgraph:tailprint and fgraph:depth (set with -O before or after this call).
 */
int report_fgraph_register(struct tep_handle *tep, const struct report_lookahead *la,
			   struct report_fgraph **out);
/*
 * Several files: trace-cmd has one set of these options, registered again for each file it
 * opens, so that a valueless -O fgraph:depth toggles once per file. fg then reads, and
 * registers once more, the options of `from` (unregister fg before from).
 */
void report_fgraph_share_options(struct report_fgraph *fg, struct report_fgraph *from);
void report_fgraph_unregister(struct report_fgraph *fg);
/*
 * Appends the function_graph text of a funcgraph_entry/exit record (what the registered
 * handlers print) to sb; false for other event types.
 */
bool report_fgraph_print(struct report_fgraph *fg, struct strbuf *sb, struct tep_record *rec,
			 int type);
/* The ftrace event type whose records need report_stream_pin() before printing, or -1. */
int report_fgraph_entry_id(const struct report_fgraph *fg);
/* "  "/"+ "/"! "/"# "/"$ " then "%lu.%03lu us " padded, then "|  ", as trace-cmd. */
void report_fgraph_put_duration(struct trace_seq *s, unsigned long long duration);

/* ------------------------------------------------------------------ compiled formats */

/*
 * Events by id, and their print formats compiled once (report_cfmt.c): the text that
 * libtraceevent's pretty printer gives, without its per-event evaluation, for the formats that
 * can be compiled exactly.
 */
struct report_cfmt;

int report_cfmt_new(struct tep_handle *tep, struct report_cfmt **out);
/* tep_data_type() and tep_data_pid(), read directly where the byte order allows */
int report_cfmt_type(const struct report_cfmt *rc, const struct tep_record *r);
int report_cfmt_pid(const struct report_cfmt *rc, const struct tep_record *r);
/*
 * The record's event (tep_find_event_by_record() with a table by id); NULL when unknown.
 * *flex: where its flexible array ("char buf[]") starts, 0 without one: a damaged file can
 * hold records shorter than that, for which libtraceevent takes a negative array length and
 * copies gigabytes: those are not printed.
 */
struct tep_event *report_cfmt_event(struct report_cfmt *rc, struct tep_record *r,
				    unsigned int *flex);

/*
 * Appends the text tep_print_event(TEP_PRINT_INFO) gives for `event` when it has no handler
 * to run, or with `raw` the fields tep_print_fields() prints (-R, -r); false, with sb
 * unchanged, when libtraceevent must print this record.
 */
bool report_cfmt_print(struct report_cfmt *rc, struct strbuf *sb, struct tep_record *r,
		       struct tep_event *event, bool raw);
void report_cfmt_free(struct report_cfmt *rc);

/* ------------------------------------------------------------------ sched fast path */

/*
 * The fields of sched_switch and of sched_wakeup/sched_wakeup_new/sched_waking, found once (also
 * for the Perfetto export). id is -1 when the file lacks the event or a field it needs; success
 * and target_cpu are optional (NULL).
 */
struct report_sched_switch_fields {
	int id;
	struct tep_format_field *prev_comm, *prev_pid, *prev_prio, *prev_state;
	struct tep_format_field *next_comm, *next_pid, *next_prio;
};

struct report_sched_wakeup_fields {
	int id;
	struct tep_format_field *comm, *pid, *prio, *success, *target_cpu;
};

void report_sched_find_switch(struct tep_handle *tep, struct report_sched_switch_fields *f);
void report_sched_find_wakeup(struct tep_handle *tep, const char *name,
			      struct report_sched_wakeup_fields *f);

/* plugin_sched_switch's text for sched_switch/sched_wakeup(_new), without its per-field lookups */
struct report_sched;

int report_sched_new(struct tep_handle *tep, struct report_sched **out);
/* true when `type` is one of those events and its info was appended to sb */
bool report_sched_print(struct report_sched *rs, struct strbuf *sb, struct tep_record *r,
			int type);
void report_sched_free(struct report_sched *rs);

/* ------------------------------------------------------------------ function fast path */

/* plugin_function's text for ftrace:function/func_repeats with its default options */
struct report_function;

int report_function_new(struct tep_handle *tep, enum report_time_unit unit,
			struct report_function **out);
/* true when `type` is one of those events and its info was appended to sb */
bool report_function_print(struct report_function *rf, struct strbuf *sb, struct tep_record *r,
			   int type);
void report_function_free(struct report_function *rf);

/* ------------------------------------------------------------------ -w */

struct report_wakeup;

/* *out stays NULL when the file lacks the sched events -w needs (trace-cmd then ignores -w). */
int report_wakeup_new(struct tep_handle *tep, struct report_wakeup **out);
/* After a printed line: " Latency: ..." when it switches to a woken task. */
void report_wakeup_event(struct report_wakeup *w, struct tep_record *r, FILE *out);
void report_wakeup_finish(struct report_wakeup *w, FILE *out);
void report_wakeup_free(struct report_wakeup *w);

/* ------------------------------------------------------------------ --profile */

/*
 * Reads every event of the file and prints, per task, the time it ran, slept, was blocked,
 * preempted and waited after a wakeup, with its longest blocking stacks when the file has
 * them (text, or o->format json). -EINVAL with a message in err when it cannot.
 */
int report_profile_print(struct dat_file *df, const struct report_opts *o, FILE *out,
			 struct strbuf *err);

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

int report_printer_new(struct dat_file *df, const struct report_printer_conf *conf,
		       struct report_printer **out, struct strbuf *err);
/*
 * The same printer for records read live (ktrace stream): no file, so no instance prefix, and
 * conf->stream NULL (no function_graph look-ahead: entries and exits print as they come).
 */
int report_printer_new_live(struct tep_handle *tep, const struct report_printer_conf *conf,
			    struct report_printer **out, struct strbuf *err);
/* Prints one event (and the dropped-events line before it) to `out`. */
int report_print_event(struct report_printer *p, const struct report_event *ev, FILE *out);
/* After the last event: the -w summary. */
/* Writes the lines gathered so far (a live stream must not wait for a full batch). */
void report_printer_flush(struct report_printer *p);
/*
 * Several files, one printer each, one output: writes from's lines before `to` prints, and
 * hands it --ts-diff's previous time (trace-cmd keeps one for all files).
 */
void report_printer_switch(struct report_printer *from, struct report_printer *to);
/* After tep_override_comm(): the printer's kept pid -> comm answers are stale. */
void report_printer_forget_comms(struct report_printer *p);
void report_printer_finish(struct report_printer *p, FILE *out);
void report_printer_free(struct report_printer *p);

/* ------------------------------------------------------------------ structured output */

/* How a field's bytes are read: decided once per event from its format. */
enum report_field_kind {
	REPORT_FIELD_INT,	/* signed integer of 1, 2, 4 or 8 bytes */
	REPORT_FIELD_UINT,	/* unsigned integer (pointers too) */
	REPORT_FIELD_STR,	/* char array, up to its first NUL */
	REPORT_FIELD_ARRAY,	/* any other array: integers of `elem` bytes */
};

struct report_field {
	struct tep_format_field *f;
	const char *name;		/* common fields without their "common_" */
	enum report_field_kind kind;
	bool dynamic;			/* __data_loc / __rel_loc: the data lies after the fields */
	bool sign;			/* ARRAY: signed elements */
	unsigned int elem;		/* ARRAY: element size (1, 2, 4 or 8) */
};

struct report_event_layout {
	struct tep_event *event;
	struct report_field *fields;	/* the event's own fields, in format order */
	int nr_fields;
	struct report_field *common;	/* common fields but common_type and common_pid */
	int nr_common;
};

/* One field's value in one record; STR and ARRAY point into the record. */
struct report_value {
	bool valid;			/* false when the record is too short for the field */
	enum report_field_kind kind;
	long long i;
	unsigned long long u;
	const char *data;		/* STR: the bytes (no NUL); ARRAY: the first element */
	size_t len;			/* STR: bytes; ARRAY: elements */
};

struct report_layouts;

int report_layouts_new(struct tep_handle *tep, struct report_layouts **out);
/* The event's layout, built on first use; NULL when out of memory. */
const struct report_event_layout *report_layout_of(struct report_layouts *l,
						  struct tep_event *event);
void report_layouts_free(struct report_layouts *l);
void report_field_value(struct tep_handle *tep, const struct report_field *rf,
			const struct tep_record *r, struct report_value *v);
/* An ARRAY value as "[1,2,3]" (signed or not as the field says). */
void report_value_put_array(struct tep_handle *tep, const struct report_field *rf,
			    const struct report_value *v, struct strbuf *sb);
/* An integer value (INT or UINT) in decimal. */
void report_value_put_int(const struct report_value *v, struct strbuf *sb);

/* What JSON and CSV rows show of one event, gathered once. */
struct report_row {
	struct tep_handle *tep;
	struct tep_record *record;
	const struct report_event_layout *layout;	/* NULL: an event type the file lacks */
	const char *instance;		/* NULL when the file has no instances, "" for the top */
	const char *comm;
	int pid;
	const char *lat;		/* -l: the latency column ("d.h1."), else NULL */
};

/* Appends the event's JSON object (no newline) to sb. */
void report_json_row(const struct report_row *row, struct strbuf *sb);
/* The JSON string of len bytes: escapes, invalid UTF-8 bytes as \u00XX. */
void report_json_put_str(struct strbuf *sb, const char *s, size_t len);
/* A field's value in the record as JSON: number, string, array, or null when it is cut short. */
void report_json_put_value(const struct report_row *row, const struct report_field *rf,
			   struct strbuf *sb);

struct report_csv;

/* Parses --fields (default ts,cpu,comm,pid,event); -EINVAL naming an unknown column. */
int report_csv_new(struct tep_handle *tep, const char *fields, struct report_csv **out,
		   struct strbuf *err);
/* One cell, quoted as RFC 4180 asks when it holds a comma, a quote, CR or LF. */
void report_csv_put_cell(struct strbuf *sb, const char *s, size_t len);
void report_csv_header(const struct report_csv *csv, struct strbuf *sb);
/* true when a column needs the latency text (struct report_row.lat) */
bool report_csv_wants_lat(const struct report_csv *csv);
/* Appends the event's row (no newline) to sb; 0 or -ENOMEM. */
int report_csv_row(struct report_csv *csv, const struct report_row *row, struct strbuf *sb);
/*
 * --format json --fields: the same columns as one flat JSON object (no newline), a member per
 * column named as given, typed as --format json types it, null where the CSV cell is empty.
 */
int report_csv_json_row(struct report_csv *csv, const struct report_row *row, struct strbuf *sb);
void report_csv_free(struct report_csv *csv);

/* Streams the kept events of df to out as JSON or CSV (o->format). */
int report_rows_print(struct dat_file *df, const struct report_opts *o,
		      struct report_filter *filter, FILE *out, struct strbuf *err);

/* ------------------------------------------------------------------ info */

/* --stat: the "cpus=N" line is printed by the caller. */
int report_print_stat(struct dat_file *df, FILE *out, struct strbuf *err);
void report_print_uname(struct dat_file *df, FILE *out);
void report_print_version(struct dat_file *df, FILE *out);
/* --cpus, --first-event, --last-event */
int report_print_cpus(struct dat_file *df, const struct report_opts *o,
		      const struct report_clock *clock, FILE *out, struct strbuf *err);
/* -E: every event as system:name, sorted by system then name */
void report_print_event_list(struct tep_handle *tep, FILE *out);

/*
 * --events (regex NULL) and --event REGEX: the event formats of the file, as the kernel wrote
 * them (report_formats.c says which). 0 or negative errno with a message in err.
 */
int report_print_formats(struct dat_file *df, const char *regex, FILE *out, struct strbuf *err);

#endif
