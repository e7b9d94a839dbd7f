// SPDX-License-Identifier: GPL-2.0-only
/*
 * ftrace:function events, printed as libtraceevent's plugin_function prints them with its
 * default options (indent on, parent and offset off), without its per-event field lookups,
 * printf and strdup. Used only when no -O option was given (any plugin option may change the
 * plugin's output) and the plugin's handler would run.
 *
 * The plugin indents each function under its caller with a per-CPU list of names: the caller
 * is looked up from the top of the list; when found at i, the function is put at i + 1 and
 * indented by 3 * i, otherwise the list restarts as (caller, function). Entries past the
 * insertion point are not cleared, and later lookups can match them: that is kept as is.
 *
 * ftrace:func_repeats shares that state in the plugin, so it is printed here as well: the
 * function, then " (count: N  last_ts: TIME)".
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "ktrace/report.h"
#include "report_print.h"

struct cpu_stack {
	const char **names;	/* NULL-terminated prefix; names owned by the tep */
	int size;
};

struct report_function {
	struct tep_handle *tep;
	enum report_time_unit unit;
	int id, repeat_id;
	struct tep_format_field *ip, *parent_ip;
	struct tep_format_field *r_ip, *r_parent_ip, *r_count, *r_top, *r_bottom;
	struct cpu_stack *cpus;
	int nr_cpus;
};

/* func_repeats, when the file has it: all its fields, and the plugin's handler on it. */
static bool find_repeats(struct report_function *rf)
{
	struct tep_event *e = tep_find_event_by_name(rf->tep, "ftrace", "func_repeats");

	rf->repeat_id = -1;
	if (!e)
		return true;
	rf->r_ip = tep_find_field(e, "ip");
	rf->r_parent_ip = tep_find_field(e, "parent_ip");
	rf->r_count = tep_find_field(e, "count");
	rf->r_top = tep_find_field(e, "top_delta_ts");
	rf->r_bottom = tep_find_field(e, "bottom_delta_ts");
	if (!rf->r_ip || !rf->r_parent_ip || !rf->r_count || !rf->r_top || !rf->r_bottom ||
	    !e->handler)
		return false;
	rf->repeat_id = e->id;
	return true;
}

int report_function_new(struct tep_handle *tep, enum report_time_unit unit,
			struct report_function **out)
{
	struct tep_event *e = tep_find_event_by_name(tep, "ftrace", "function");
	struct report_function *rf = calloc(1, sizeof(*rf));

	if (!rf)
		return -ENOMEM;
	rf->tep = tep;
	rf->unit = unit;
	rf->id = -1;
	if (e) {
		rf->ip = tep_find_field(e, "ip");
		rf->parent_ip = tep_find_field(e, "parent_ip");
		/* both events or none: they share the indentation state */
		if (rf->ip && rf->parent_ip && e->handler && find_repeats(rf))
			rf->id = e->id;
		else
			rf->repeat_id = -1;
	}
	*out = rf;
	return 0;
}

void report_function_free(struct report_function *rf)
{
	int i;

	if (!rf)
		return;
	for (i = 0; i < rf->nr_cpus; i++)
		free(rf->cpus[i].names);
	free(rf->cpus);
	free(rf);
}

static struct cpu_stack *cpu_stack(struct report_function *rf, int cpu)
{
	if (cpu >= rf->nr_cpus) {
		struct cpu_stack *grown = realloc(rf->cpus, (cpu + 1) * sizeof(*grown));

		if (!grown)
			return NULL;
		memset(grown + rf->nr_cpus, 0, (cpu + 1 - rf->nr_cpus) * sizeof(*grown));
		rf->cpus = grown;
		rf->nr_cpus = cpu + 1;
	}
	return &rf->cpus[cpu];
}

static void set_name(struct cpu_stack *st, int pos, const char *name)
{
	if (!name)
		return;
	if (pos >= st->size) {
		int size = st->size + 16;
		const char **grown = realloc(st->names, size * sizeof(*grown));

		if (!grown)
			return;
		memset(grown + st->size, 0, (size - st->size) * sizeof(*grown));
		st->names = grown;
		st->size = size;
	}
	st->names[pos] = name;
}

static bool same_name(const char *a, const char *b)
{
	return a == b || !strcmp(a, b);
}

/* The indent level of `func` called from `parent` on this CPU, updating the CPU's list. */
static int indent_of(struct report_function *rf, const char *parent, const char *func, int cpu)
{
	struct cpu_stack *st;
	int i;

	if (cpu < 0)
		return 0;
	st = cpu_stack(rf, cpu);
	if (!st)
		return 0;
	for (i = 0; i < st->size && st->names[i]; i++) {
		if (same_name(parent, st->names[i])) {
			set_name(st, i + 1, func);
			return i;
		}
	}
	set_name(st, 0, parent);
	set_name(st, 1, func);
	return 0;
}

static unsigned long long read_field(struct tep_format_field *f, struct tep_record *r)
{
	unsigned long long v = 0;

	tep_read_number_field(f, r->data, &v);
	return v;
}

static void put_function(struct report_function *rf, struct strbuf *sb, struct tep_record *r,
			 unsigned long long ip, unsigned long long pip)
{
	const char *func = tep_find_function(rf->tep, ip);
	const char *parent = tep_find_function(rf->tep, pip);
	int indent = 0;

	if (parent)
		indent = indent_of(rf, parent, func, r->cpu);
	if (indent > 0 && !strbuf_grow(sb, (size_t)indent * 3)) {
		memset(sb->buf + sb->len, ' ', (size_t)indent * 3);
		sb->len += (size_t)indent * 3;
		sb->buf[sb->len] = '\0';
	}
	if (func)
		strbuf_addstr(sb, func);
	else
		strbuf_addf(sb, "0x%llx", ip);
}

static void put_repeats(struct report_function *rf, struct strbuf *sb, struct tep_record *r)
{
	unsigned long long delta = (read_field(rf->r_top, r) << 32) | read_field(rf->r_bottom, r);
	char tbuf[48];

	put_function(rf, sb, r, read_field(rf->r_ip, r), read_field(rf->r_parent_ip, r));
	strbuf_addf(sb, " (count: %lld  last_ts: ", (long long)read_field(rf->r_count, r));
	report_time_format(tbuf, r->ts - delta, rf->unit, false);
	strbuf_addstr(sb, tbuf);
	strbuf_addch(sb, ')');
}

bool report_function_print(struct report_function *rf, struct strbuf *sb, struct tep_record *r,
			   int type)
{
	if (!rf || type < 0)
		return false;
	if (type == rf->id)
		put_function(rf, sb, r, read_field(rf->ip, r), read_field(rf->parent_ip, r));
	else if (type == rf->repeat_id)
		put_repeats(rf, sb, r);
	else
		return false;
	return true;
}
