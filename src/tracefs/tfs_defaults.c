// SPDX-License-Identifier: GPL-2.0-only
/*
 * Putting an instance back to the kernel's boot defaults (ktrace reset): no tracer, no event,
 * no filter, trigger or pid list, local clock, every CPU, default options. Files the kernel
 * refuses to open (the function tracer's under lockdown) cannot hold anything to clear, so a
 * refusal there is not an error.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ktrace/tfs.h"

/* Boot values of trace options (kernel/trace/trace.c); instances differ in two of them. */
static const struct {
	const char *name;
	char top;
	char instance;
} default_options[] = {
	{ "print-parent", '1', '1' },	{ "sym-offset", '0', '0' },
	{ "sym-addr", '0', '0' },	{ "verbose", '0', '0' },
	{ "raw", '0', '0' },		{ "hex", '0', '0' },
	{ "bin", '0', '0' },		{ "block", '0', '0' },
	{ "fields", '0', '0' },		{ "trace_printk", '1', '1' },
	{ "annotate", '1', '1' },	{ "userstacktrace", '0', '0' },
	{ "sym-userobj", '0', '0' },	{ "printk-msg-only", '0', '0' },
	{ "context-info", '1', '1' },	{ "latency-format", '0', '0' },
	{ "record-cmd", '1', '1' },	{ "record-tgid", '0', '0' },
	{ "overwrite", '1', '1' },	{ "disable_on_free", '0', '0' },
	{ "irq-info", '1', '1' },	{ "markers", '1', '1' },
	{ "event-fork", '0', '0' },	{ "pause-on-trace", '0', '0' },
	{ "hash-ptr", '1', '1' },	{ "function-trace", '1', '1' },
	{ "function-fork", '0', '0' },	{ "stacktrace", '0', '0' },
	{ "func_stack_trace", '0', '0' }, { "func-no-repeats", '0', '0' },
	{ "copy_trace_marker", '1', '0' }, { "trace_printk_dest", '1', '0' },
};

int tfs_option_default(const char *name, bool instance)
{
	size_t i;

	for (i = 0; i < sizeof(default_options) / sizeof(default_options[0]); i++)
		if (!strcmp(default_options[i].name, name))
			return instance ? default_options[i].instance : default_options[i].top;
	return -1;
}

static int note_err(struct tfs_reset_ctx *ctx, const char *inst, const char *file, int err)
{
	struct strbuf path = STRBUF_INIT;

	if (!err || err == -ENOENT)
		return 0;
	tfs_path(&path, inst, file);
	fprintf(stderr, "ktrace reset: cannot write %s: %s\n", path.buf, tfs_cause(err));
	strbuf_release(&path);
	if (!ctx->err)
		ctx->err = err;
	return err;
}

static int put(struct tfs_reset_ctx *ctx, const char *inst, const char *file, const char *val)
{
	return note_err(ctx, inst, file, tfs_inst_write(inst, file, val));
}

/* Writes VAL only when the file reads something else: avoids needless (or refused) writes. */
static void put_if_differs(struct tfs_reset_ctx *ctx, const char *inst, const char *file,
			   const char *val)
{
	struct strbuf sb = STRBUF_INIT;

	if (!tfs_inst_read(inst, file, &sb)) {
		tfs_chomp(&sb);
		if (strcmp(sb.buf, val))
			put(ctx, inst, file, val);
	}
	strbuf_release(&sb);
}

static void reset_options(struct tfs_reset_ctx *ctx, const char *inst)
{
	struct strbuf file = STRBUF_INIT;
	char val[2] = "0";
	size_t i;

	for (i = 0; i < sizeof(default_options) / sizeof(default_options[0]); i++) {
		strbuf_reset(&file);
		strbuf_addf(&file, "options/%s", default_options[i].name);
		val[0] = inst ? default_options[i].instance : default_options[i].top;
		put_if_differs(ctx, inst, file.buf, val);
	}
	strbuf_release(&file);
}

/*
 * The command that removes the trigger a trigger file shows as line: '!' and the trigger as
 * written, filter included (a hist trigger is only removed with its filter); the file adds a
 * state (" [active]") after hist triggers.
 */
static void removal_of(struct strbuf *cmd, const char *line)
{
	size_t len = strlen(line);
	const char *state = NULL, *p;

	/* the last " [", when the line ends with its "]" (a filter may hold " [" too) */
	for (p = strstr(line, " ["); p && len && line[len - 1] == ']'; p = strstr(p + 1, " ["))
		state = p;
	strbuf_reset(cmd);
	strbuf_addch(cmd, '!');
	strbuf_add(cmd, line, state ? (size_t)(state - line) : len);
}

/* Each line goes with its removal_of(); some need a second pass (one that another uses). */
static void clear_triggers(struct tfs_reset_ctx *ctx, const char *inst, const char *file)
{
	struct strbuf sb = STRBUF_INIT, cmd = STRBUF_INIT;
	int pass, left = 1;

	for (pass = 0; pass < 3 && left; pass++) {
		char *save = NULL, *line;

		left = 0;
		if (tfs_inst_read(inst, file, &sb))
			break;
		for (line = strtok_r(sb.buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
			if (line[0] == '#')
				continue;
			left++;
			removal_of(&cmd, line);
			if (pass == 2)
				put(ctx, inst, file, cmd.buf);
			else
				tfs_inst_write(inst, file, cmd.buf);
		}
	}
	strbuf_release(&sb);
	strbuf_release(&cmd);
}

struct event_reset {
	struct tfs_reset_ctx *ctx;
	const char *inst;
};

/*
 * A hist trigger with an action (a synthetic event's end histogram: onmatch, onmax, onchange)
 * uses the variables of another event's histogram, which the kernel refuses to remove (EBUSY)
 * while it exists: those go first, over every event, before the rest.
 */
static void remove_action_triggers(const char *sys, const char *event, void *arg)
{
	struct event_reset *r = arg;
	struct strbuf file = STRBUF_INIT, sb = STRBUF_INIT, cmd = STRBUF_INIT;
	char *save = NULL, *line;

	strbuf_addf(&file, "events/%s/%s/trigger", sys, event);
	if (!tfs_inst_read(r->inst, file.buf, &sb))
		for (line = strtok_r(sb.buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
			if (strncmp(line, "hist:", 5) || (!strstr(line, ":onmatch(") &&
			    !strstr(line, ":onmax(") && !strstr(line, ":onchange(")))
				continue;
			removal_of(&cmd, line);
			tfs_inst_write(r->inst, file.buf, cmd.buf);
		}
	strbuf_release(&file);
	strbuf_release(&sb);
	strbuf_release(&cmd);
}

static void reset_event(const char *sys, const char *event, void *arg)
{
	struct event_reset *r = arg;
	struct strbuf file = STRBUF_INIT, sb = STRBUF_INIT;

	strbuf_addf(&file, "events/%s/%s/filter", sys, event);
	if (!tfs_inst_read(r->inst, file.buf, &sb) && strncmp(sb.buf, "none", 4))
		put(r->ctx, r->inst, file.buf, "0");
	strbuf_reset(&file);
	strbuf_addf(&file, "events/%s/%s/trigger", sys, event);
	clear_triggers(r->ctx, r->inst, file.buf);
	strbuf_release(&file);
	strbuf_release(&sb);
}

static void reset_events(struct tfs_reset_ctx *ctx, const char *inst)
{
	struct event_reset r = { ctx, inst };

	put(ctx, inst, "set_event", "");
	tfs_for_each_event(remove_action_triggers, &r);
	tfs_for_each_event(reset_event, &r);
}

/* Function tracer files: under lockdown even reading them fails, and then nothing is set. */
static void reset_function_files(struct tfs_reset_ctx *ctx, const char *inst)
{
	static const char *const files[] = { "set_ftrace_filter", "set_ftrace_notrace",
					      "set_graph_function", "set_graph_notrace",
					      "set_ftrace_pid", "set_ftrace_notrace_pid" };
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		if (tfs_inst_read(inst, files[i], &sb))
			continue;
		tfs_chomp(&sb);
		if (sb.len && sb.buf[0] != '#')
			put(ctx, inst, files[i], "");
	}
	strbuf_release(&sb);
}

void tfs_all_cpus_mask(char *buf, size_t size)
{
	long cpus = sysconf(_SC_NPROCESSORS_CONF);
	int full = (int)((cpus - 1) / 32), bits = (int)((cpus - 1) % 32 + 1);
	size_t len;

	snprintf(buf, size, "%x", (unsigned int)((1ULL << bits) - 1));
	while (full-- > 0 && (len = strlen(buf)) + 10 < size)
		snprintf(buf + len, size - len, ",ffffffff");
}

/* The kernel's default ring buffer: trace_buf_size= on the command line, else 1441792 bytes. */
int tfs_default_buffer_kb(void)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p;
	long bytes = 1441792;

	if (!tfs_read("/proc/cmdline", &sb) && (p = strstr(sb.buf, "trace_buf_size="))) {
		char *end;

		bytes = strtol(p + 15, &end, 10);
		if (*end == 'K' || *end == 'k')
			bytes <<= 10;
		else if (*end == 'M' || *end == 'm')
			bytes <<= 20;
	}
	strbuf_release(&sb);
	return (int)(bytes >> 10);
}

static void reset_buffer(struct tfs_reset_ctx *ctx, const char *inst)
{
	struct strbuf sb = STRBUF_INIT;
	const char *exp;
	long cur;
	int kb = ctx->buffer_kb;

	/* Without -b only the top buffer has a known default (instances round it up). */
	if (!kb && inst)
		return;
	if (!kb)
		kb = tfs_default_buffer_kb();
	if (!tfs_inst_read(inst, "buffer_size_kb", &sb)) {
		exp = strstr(sb.buf, "(expanded: ");
		cur = exp ? strtol(exp + 11, NULL, 10) : strtol(sb.buf, NULL, 10);
		if (cur != kb || sb.buf[0] == 'X') {
			char val[24];

			snprintf(val, sizeof(val), "%d", kb);
			put(ctx, inst, "buffer_size_kb", val);
		}
	}
	strbuf_release(&sb);
}

int tfs_reset_instance(struct tfs_reset_ctx *ctx, const char *inst)
{
	char mask[128];

	put(ctx, inst, "tracing_on", "0");
	put_if_differs(ctx, inst, "current_tracer", "nop");
	reset_events(ctx, inst);
	put(ctx, inst, "trace", "");
	reset_buffer(ctx, inst);
	tfs_inst_write(inst, "error_log", "");
	put(ctx, inst, "trace_clock", "local");
	put(ctx, inst, "set_event_pid", "");
	put(ctx, inst, "set_event_notrace_pid", "");
	if (!inst) {
		put_if_differs(ctx, inst, "tracing_max_latency", "0");
		/* global: a latency tracer then keeps the latest latency over it, not the longest */
		put_if_differs(ctx, inst, "tracing_thresh", "0");
	}
	tfs_all_cpus_mask(mask, sizeof(mask));
	put_if_differs(ctx, inst, "tracing_cpumask", mask);
	reset_function_files(ctx, inst);
	reset_options(ctx, inst);
	put(ctx, inst, "tracing_on", "1");
	return ctx->err;
}
