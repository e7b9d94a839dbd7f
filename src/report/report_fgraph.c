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
#include "report_print.h"

#define FGRAPH_INDENT 2
#define MAX_INDENT 65536

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
	struct tep_plugin_option *opts;	/* what is read: options, or another file's */
	bool options_added;		/* opts is registered with libtraceevent */
	struct strbuf scratch;	/* for the tep handlers */
};

static unsigned long long field_val(struct tep_format_field *f, struct tep_record *rec)
{
	unsigned long long v = 0;

	if (f)
		tep_read_number_field(f, rec->data, &v);
	return v;
}

/* The overhead mark: how long the call took, at a glance. */
static const char *overhead_mark(unsigned long long duration)
{
	if (duration == ~0ULL)
		return "  ";
	if (duration > 1000000000ULL)
		return "$ ";
	if (duration > 1000000ULL)
		return "# ";
	if (duration > 100000ULL)
		return "! ";
	if (duration > 10000ULL)
		return "+ ";
	return "  ";
}

/*
 * The mark, then a time column of 7 characters of "usecs.nsecs" (the nanoseconds are left out
 * once the microseconds alone take 7 digits), " us ", padding, then the bar.
 */
static void put_duration(struct strbuf *sb, unsigned long long duration)
{
	char num[64], *o = num;
	int len;

	memcpy(o, overhead_mark(duration), 2);
	o += 2;
	o = report_put_uint(o, (unsigned long)(duration / 1000), 0, ' ');
	len = (int)(o - num) - 2;
	if (len < 7) {
		*o++ = '.';
		o = report_put_uint(o, (unsigned long)(duration % 1000), 3, '0');
		len += 4;
	}
	memcpy(o, " us ", 4);
	o += 4;
	while (len++ < 7)
		*o++ = ' ';
	memcpy(o, "|  ", 3);
	strbuf_add(sb, num, (size_t)(o + 3 - num));
}

void report_fgraph_put_duration(struct trace_seq *s, unsigned long long duration)
{
	struct strbuf sb = STRBUF_INIT;

	put_duration(&sb, duration);
	trace_seq_puts(s, strbuf_str(&sb));
	strbuf_release(&sb);
}

static void put_indent(struct strbuf *sb, unsigned long long depth)
{
	int n = (int)(depth * FGRAPH_INDENT);

	/* a corrupt depth must not ask for gigabytes of blanks */
	if (n > MAX_INDENT)
		n = MAX_INDENT;
	if (n > 0 && !strbuf_grow(sb, (size_t)n)) {
		memset(sb->buf + sb->len, ' ', (size_t)n);
		sb->len += (size_t)n;
		sb->buf[sb->len] = '\0';
	}
}

static void put_func(struct report_fgraph *fg, struct strbuf *sb, unsigned long long addr,
		     const char *tail)
{
	const char *name = tep_find_function(fg->tep, addr);

	if (name)
		strbuf_addstr(sb, name);
	else
		strbuf_addf(sb, "%llx", addr);
	strbuf_addstr(sb, tail);
}

static void put_depth(struct report_fgraph *fg, struct strbuf *sb, unsigned long long depth)
{
	if (fg->opts[OPT_DEPTH].set)
		strbuf_addf(sb, " (%lld)", (long long)depth);
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

static void print_entry(struct report_fgraph *fg, struct strbuf *sb, struct tep_record *rec)
{
	unsigned long long depth, func = field_val(fg->ent_func, rec);
	struct tep_record *exit = take_leaf_exit(fg, rec);

	depth = field_val(fg->ent_depth, rec);
	if (exit) {
		/* read everything needed from the exit before it is dropped */
		put_duration(sb, field_val(fg->ret_rettime, exit) -
				 field_val(fg->ret_calltime, exit));
		fg->la.consume(fg->la.priv);
		put_indent(sb, depth);
		put_func(fg, sb, func, "();");
	} else {
		strbuf_addstr(sb, "             |  ");
		put_indent(sb, depth);
		put_func(fg, sb, func, "() {");
	}
	put_depth(fg, sb, depth);
}

static void print_exit(struct report_fgraph *fg, struct strbuf *sb, struct tep_record *rec)
{
	unsigned long long depth = field_val(fg->ret_depth, rec);

	put_duration(sb, field_val(fg->ret_rettime, rec) - field_val(fg->ret_calltime, rec));
	put_indent(sb, depth);
	strbuf_addch(sb, '}');
	if (fg->opts[OPT_TAILPRINT].set) {
		const char *name = tep_find_function(fg->tep, field_val(fg->ret_func, rec));

		if (name)
			strbuf_addf(sb, " /* %s */", name);
	}
	put_depth(fg, sb, depth);
}

bool report_fgraph_print(struct report_fgraph *fg, struct strbuf *sb, struct tep_record *rec,
			 int type)
{
	if (!fg || !fg->entry || type < 0)
		return false;
	if (type == fg->entry->id)
		print_entry(fg, sb, rec);
	else if (type == fg->exit->id)
		print_exit(fg, sb, rec);
	else
		return false;
	return true;
}

/* The handlers libtraceevent calls (tep_print_event): the same text through a scratch strbuf. */
static int graph_handler(struct trace_seq *s, struct tep_record *rec, struct tep_event *event,
			 void *context)
{
	struct report_fgraph *fg = context;

	strbuf_reset(&fg->scratch);
	report_fgraph_print(fg, &fg->scratch, rec, event->id);
	trace_seq_puts(s, strbuf_str(&fg->scratch));
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
	fg->opts = fg->options;
	/* picks up -O fgraph:depth and the like given before */
	if (tep_plugin_add_options("ftrace", fg->opts) == 0)
		fg->options_added = true;
	/* Without a funcgraph_exit format trace-cmd falls back to the plain format text. */
	if (find_fields(fg)) {
		tep_register_event_handler(tep, fg->entry->id, "ftrace", "funcgraph_entry",
					   graph_handler, fg);
		tep_register_event_handler(tep, fg->exit->id, "ftrace", "funcgraph_exit",
					   graph_handler, fg);
	} else {
		fg->entry = NULL;
	}
	*out = fg;
	return 0;
}

void report_fgraph_share_options(struct report_fgraph *fg, struct report_fgraph *from)
{
	if (fg->options_added)
		tep_plugin_remove_options(fg->opts);
	fg->opts = from->opts;
	fg->options_added = tep_plugin_add_options("ftrace", fg->opts) == 0;
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
					     graph_handler, fg);
		tep_unregister_event_handler(fg->tep, fg->exit->id, "ftrace", "funcgraph_exit",
					     graph_handler, fg);
	}
	if (fg->options_added)
		tep_plugin_remove_options(fg->opts);
	strbuf_release(&fg->scratch);
	free(fg);
}
