// SPDX-License-Identifier: GPL-2.0-only
/*
 * function_graph output as trace-cmd 3.1.6 prints it. trace-cmd does not leave this to a
 * libtraceevent plugin: it registers its own handlers for ftrace:funcgraph_entry and
 * ftrace:funcgraph_exit. An entry whose very next record in the same buffer is the exit of the
 * same function by the same task is a leaf: both print as one "func();" line with the duration,
 * and the exit is not printed again. Any other entry opens "func() {", closed by its exit "}".
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>
#include <trace-seq.h>

#include "ktrace/report.h"

#define FGRAPH_INDENT 2

enum { OPT_TAILPRINT, OPT_DEPTH, NR_FGRAPH_OPTS };

struct report_fgraph {
	struct tep_handle *tep;
	struct report_lookahead la;
	struct tep_event *entry;
	struct tep_event *exit;
	struct tep_format_field *ent_func, *ent_depth;
	struct tep_format_field *ret_func, *ret_depth, *ret_calltime, *ret_rettime;
	/* libtraceevent writes the parsed -O values into these, so they cannot be const */
	struct tep_plugin_option options[NR_FGRAPH_OPTS + 1];
	bool options_added;
};

static unsigned long long field_val(struct tep_format_field *f, struct tep_record *rec)
{
	unsigned long long v = 0;

	if (f)
		tep_read_number_field(f, rec->data, &v);
	return v;
}

static void put_overhead(struct trace_seq *s, unsigned long long duration)
{
	const char *mark = "  ";

	if (duration == ~0ULL)
		mark = "  ";
	else if (duration > 1000000000ULL)
		mark = "$ ";
	else if (duration > 1000000ULL)
		mark = "# ";
	else if (duration > 100000ULL)
		mark = "! ";
	else if (duration > 10000ULL)
		mark = "+ ";
	trace_seq_puts(s, mark);
}

/*
 * The time column is 7 characters of "usecs.nsecs" (the nanoseconds are left out once the
 * microseconds alone take 7 digits), " us ", padding, then the bar.
 */
static void put_duration_text(struct trace_seq *s, unsigned long long duration)
{
	char num[48];
	int len, i;

	len = snprintf(num, sizeof(num), "%lu", (unsigned long)(duration / 1000));
	if (len < 7)
		len += snprintf(num + len, sizeof(num) - len, ".%03lu",
				(unsigned long)(duration % 1000));
	trace_seq_puts(s, num);
	trace_seq_puts(s, " us ");
	for (i = len; i < 7; i++)
		trace_seq_putc(s, ' ');
	trace_seq_puts(s, "|  ");
}

void report_fgraph_put_duration(struct trace_seq *s, unsigned long long duration)
{
	put_overhead(s, duration);
	put_duration_text(s, duration);
}

static void put_indent(struct trace_seq *s, unsigned long long depth)
{
	int i, n = (int)(depth * FGRAPH_INDENT);

	for (i = 0; i < n; i++)
		trace_seq_putc(s, ' ');
}

static void put_func(struct report_fgraph *fg, struct trace_seq *s, unsigned long long addr,
		     const char *tail)
{
	const char *name = tep_find_function(fg->tep, addr);

	if (name)
		trace_seq_printf(s, "%s%s", name, tail);
	else
		trace_seq_printf(s, "%llx%s", addr, tail);
}

static void put_depth(struct report_fgraph *fg, struct trace_seq *s, unsigned long long depth)
{
	if (fg->options[OPT_DEPTH].set)
		trace_seq_printf(s, " (%lld)", (long long)depth);
}

/* The exit that makes `entry` a leaf, consumed from the stream; NULL when it is not a leaf. */
static struct tep_record *take_leaf_exit(struct report_fgraph *fg, struct tep_record *entry)
{
	struct tep_record *next = fg->la.peek(fg->la.priv);

	if (!next)
		return NULL;
	if (tep_data_type(fg->tep, next) != fg->exit->id)
		return NULL;
	if (tep_data_pid(fg->tep, next) != tep_data_pid(fg->tep, entry))
		return NULL;
	if (field_val(fg->ret_func, next) != field_val(fg->ent_func, entry))
		return NULL;
	return next;
}

static int entry_handler(struct trace_seq *s, struct tep_record *rec, struct tep_event *event,
			 void *context)
{
	struct report_fgraph *fg = context;
	unsigned long long depth, func = field_val(fg->ent_func, rec);
	struct tep_record *exit = take_leaf_exit(fg, rec);

	depth = field_val(fg->ent_depth, rec);
	if (exit) {
		unsigned long long duration = field_val(fg->ret_rettime, exit) -
					      field_val(fg->ret_calltime, exit);

		/* read everything needed from the exit before it is dropped */
		report_fgraph_put_duration(s, duration);
		fg->la.consume(fg->la.priv);
		put_indent(s, depth);
		put_func(fg, s, func, "();");
	} else {
		put_overhead(s, ~0ULL);
		trace_seq_puts(s, "           |  ");
		put_indent(s, depth);
		put_func(fg, s, func, "() {");
	}
	put_depth(fg, s, depth);
	return 0;
}

static int exit_handler(struct trace_seq *s, struct tep_record *rec, struct tep_event *event,
			void *context)
{
	struct report_fgraph *fg = context;
	unsigned long long depth = field_val(fg->ret_depth, rec);

	report_fgraph_put_duration(s, field_val(fg->ret_rettime, rec) -
				      field_val(fg->ret_calltime, rec));
	put_indent(s, depth);
	trace_seq_putc(s, '}');
	if (fg->options[OPT_TAILPRINT].set && fg->ret_func) {
		const char *name = tep_find_function(fg->tep, field_val(fg->ret_func, rec));

		if (name)
			trace_seq_printf(s, " /* %s */", name);
	}
	put_depth(fg, s, depth);
	return 0;
}

static void init_options(struct report_fgraph *fg)
{
	static const char *const names[NR_FGRAPH_OPTS] = { "tailprint", "depth" };
	static const char *const help[NR_FGRAPH_OPTS] = {
		"Print function name at function exit in function graph",
		"Show the depth of each entry",
	};
	int i;

	for (i = 0; i < NR_FGRAPH_OPTS; i++) {
		fg->options[i].name = (char *)names[i];
		fg->options[i].plugin_alias = (char *)"fgraph";
		fg->options[i].description = (char *)help[i];
	}
}

static bool find_fields(struct report_fgraph *fg)
{
	fg->entry = tep_find_event_by_name(fg->tep, "ftrace", "funcgraph_entry");
	fg->exit = tep_find_event_by_name(fg->tep, "ftrace", "funcgraph_exit");
	if (!fg->entry || !fg->exit)
		return false;
	fg->ent_func = tep_find_field(fg->entry, "func");
	fg->ent_depth = tep_find_field(fg->entry, "depth");
	fg->ret_func = tep_find_field(fg->exit, "func");
	fg->ret_depth = tep_find_field(fg->exit, "depth");
	fg->ret_calltime = tep_find_field(fg->exit, "calltime");
	fg->ret_rettime = tep_find_field(fg->exit, "rettime");
	return fg->ent_func && fg->ent_depth && fg->ret_func && fg->ret_depth &&
	       fg->ret_calltime && fg->ret_rettime;
}

int report_fgraph_register(struct tep_handle *tep, const struct report_lookahead *la,
			   struct report_fgraph **out)
{
	struct report_fgraph *fg = calloc(1, sizeof(*fg));

	if (!fg)
		return -ENOMEM;
	fg->tep = tep;
	fg->la = *la;
	init_options(fg);
	/* picks up -O fgraph:depth and the like given before */
	if (tep_plugin_add_options("ftrace", fg->options) == 0)
		fg->options_added = true;
	/* Without a funcgraph_exit format trace-cmd falls back to the plain format text. */
	if (find_fields(fg)) {
		tep_register_event_handler(tep, fg->entry->id, "ftrace", "funcgraph_entry",
					   entry_handler, fg);
		tep_register_event_handler(tep, fg->exit->id, "ftrace", "funcgraph_exit",
					   exit_handler, fg);
	} else {
		fg->entry = NULL;
	}
	*out = fg;
	return 0;
}

int report_fgraph_entry_id(const struct report_fgraph *fg)
{
	return fg && fg->entry ? fg->entry->id : -1;
}

void report_fgraph_unregister(struct report_fgraph *fg)
{
	if (!fg)
		return;
	if (fg->entry) {
		tep_unregister_event_handler(fg->tep, fg->entry->id, "ftrace", "funcgraph_entry",
					     entry_handler, fg);
		tep_unregister_event_handler(fg->tep, fg->exit->id, "ftrace", "funcgraph_exit",
					     exit_handler, fg);
	}
	if (fg->options_added)
		tep_plugin_remove_options(fg->options);
	free(fg);
}
