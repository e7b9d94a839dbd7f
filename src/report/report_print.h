/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_REPORT_PRINT_H
#define KTRACE_REPORT_PRINT_H

/*
 * Private to src/report: the pieces of report's event text. report_print.c builds a line from
 * them; the fast paths (compiled formats, sched, function) print what libtraceevent's plugins
 * would, without their per-field lookups.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "ktrace/report.h"

struct tep_event;
struct trace_seq;

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

/* ------------------------------------------------------------------ debug */

/*
 * --boundary: "CPU:N [SUBBUFFER START]" (with --debug, the page's timestamp and offset) and a
 * newline when r is its page's first entry. The record's priv must hold its page facts
 * (report_stream_open_pages()); without them nothing is added.
 */
void report_debug_boundary(struct strbuf *line, const struct tep_record *r, uint32_t page_size,
			   bool debug);
/* --debug: " [delta:0xOFFSET:SIZE]" and the padding and time entries that follow the record. */
void report_debug_record(struct strbuf *line, const struct tep_record *r, uint32_t page_size);
/* --ts-check: trace-cmd's warning on stderr when r is older than *last (unless quiet). */
void report_ts_check(unsigned long long *last, const struct tep_record *r, bool quiet);

/* ------------------------------------------------------------------ time */

/*
 * Writes the timestamp as the event line shows it (" %5llu.%06llu:" and so on; `colon` adds
 * the leading blank and the trailing ':' of the event line) into buf, NUL-terminated.
 * Returns the length. buf must hold 48 bytes.
 */
int report_time_format(char *buf, unsigned long long ts, enum report_time_unit unit, bool colon);

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
/*
 * libtraceevent 1.8's -R (trace-cmd 3.4): a function pointer field prints "name (0xADDR)", or
 * " (0xADDR)" when no symbol holds it.
 */
void report_cfmt_set_func_addr(struct report_cfmt *rc);
void report_cfmt_free(struct report_cfmt *rc);

/* ------------------------------------------------------------------ sched fast path */

/* plugin_sched_switch's text for sched_switch/sched_wakeup(_new), without its per-field lookups */
struct report_sched;

int report_sched_new(struct tep_handle *tep, struct report_sched **out);
/* true when `type` is one of those events and its info was appended to sb */
bool report_sched_print(struct report_sched *rs, struct strbuf *sb, struct tep_record *r,
			int type);
/*
 * libtraceevent 1.8's plugin (trace-cmd 3.4): prev_state's letters from the __print_flags()
 * table of the event's own print format (the kernel's), not 1.7's fixed "SDTtZXxW".
 */
void report_sched_use_kernel_states(struct report_sched *rs);
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

/* ------------------------------------------------------------------ printer */

int report_printer_new(struct dat_file *df, const struct report_printer_conf *conf,
		       struct report_printer **out, struct strbuf *err);
/*
 * Several files, one printer each, one output: writes from's lines before `to` prints, and
 * hands it --ts-diff's previous time (trace-cmd keeps one for all files).
 */
void report_printer_switch(struct report_printer *from, struct report_printer *to);
/* After the last event: the -w summary. */
void report_printer_finish(struct report_printer *p, FILE *out);

#endif
