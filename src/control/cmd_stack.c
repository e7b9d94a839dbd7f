// SPDX-License-Identifier: GPL-2.0-only
/*
 * ktrace stack: the kernel's stack tracer (CONFIG_STACK_TRACER), as trace-cmd stack drives it.
 * It is switched by /proc/sys/kernel/stack_tracer_enabled, not by tracefs, and keeps the
 * deepest kernel stack seen in tracefs's stack_trace and stack_max_size. Without an action the
 * stack is printed; --start, --stop and --reset each do one thing, the last given wins.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ktrace/command.h"
#include "ktrace/options.h"
#include "ktrace/strbuf.h"
#include "ktrace/tfs.h"

#define STACK_TRACER_SWITCH "/proc/sys/kernel/stack_tracer_enabled"

enum stack_action {
	STACK_PRINT,
	STACK_START,
	STACK_STOP,
	STACK_RESET,
};

enum {
	OPT_START = 256,
	OPT_STOP,
	OPT_RESET,
	OPT_VERBOSE,
};

struct stack_args {
	enum stack_action action;
};

static int set_action(void *ctx, int id, const char *arg)
{
	struct stack_args *a = ctx;

	(void)arg;
	a->action = id == OPT_START ? STACK_START : id == OPT_STOP ? STACK_STOP : STACK_RESET;
	return 0;
}

static const struct kt_option stack_options[] = {
	KT_OPT(OPT_START, "start", KT_ARG_NONE, NULL, "enable the stack tracer"),
	KT_OPT(OPT_STOP, "stop", KT_ARG_NONE, NULL, "disable the stack tracer"),
	KT_OPT(OPT_RESET, "reset", KT_ARG_NONE, NULL,
	       "forget the deepest stack seen (stack_max_size to 0)"),
	KT_NOOP(OPT_VERBOSE, "verbose", KT_ARG_OPTIONAL, "LEVEL", "accepted for compatibility"),
	{ 0 },
};

static const struct kt_command_help stack_help = {
	.name = "stack",
	.usage = "[--start | --stop | --reset]",
	.summary = "Start, stop or reset the kernel's stack tracer; without a flag, print the "
		   "deepest kernel stack it saw.",
	.options = stack_options,
	.option = set_action,
};

/* 1 running, 0 not, or -errno */
static int stack_tracer_running(void)
{
	struct strbuf sb = STRBUF_INIT;
	int ret = tfs_read(STACK_TRACER_SWITCH, &sb);

	if (!ret)
		ret = sb.len && sb.buf[0] != '0';
	strbuf_release(&sb);
	return ret;
}

static int print_stack(void)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	int running = stack_tracer_running(), ret;
	const char *line, *end;

	if (running < 0) {
		fprintf(stderr, "ktrace stack: reading %s: %s\n", STACK_TRACER_SWITCH,
			tfs_cause(running));
		return running;
	}
	ret = tfs_path(&path, NULL, "stack_trace");
	if (!ret)
		ret = tfs_read(path.buf, &text);
	if (ret) {
		fprintf(stderr, "ktrace stack: reading %s: %s\n", path.len ? path.buf : "stack_trace",
			tfs_cause(ret));
	} else {
		printf("(stack tracer %s)\n", running ? "running" : "not running");
		/* the '#' lines tell how to switch the tracer on by hand: not ours to repeat */
		for (line = text.buf; line && *line; line = end) {
			end = strchr(line, '\n');
			end = end ? end + 1 : line + strlen(line);
			if (*line != '#')
				fwrite(line, 1, (size_t)(end - line), stdout);
		}
	}
	strbuf_release(&path);
	strbuf_release(&text);
	return ret;
}

static int write_value(const char *path, const char *value)
{
	int ret = tfs_write(path, value, strlen(value), true);

	if (ret)
		fprintf(stderr, "ktrace stack: writing '%s' to %s: %s\n", value, path,
			tfs_cause(ret));
	return ret;
}

static int reset_max(void)
{
	struct strbuf path = STRBUF_INIT;
	int ret = tfs_path(&path, NULL, "stack_max_size");

	if (!ret)
		ret = write_value(path.buf, "0");
	else
		fprintf(stderr, "ktrace stack: %s\n", tfs_cause(ret));
	strbuf_release(&path);
	return ret;
}

int cmd_stack(int argc, char **argv)
{
	struct stack_args a = { STACK_PRINT };
	int ret = kt_parse_options(&stack_help, argc, argv, &a, NULL);

	if (ret)
		return ret;
	if (access(STACK_TRACER_SWITCH, F_OK)) {
		fprintf(stderr, "ktrace stack: the running kernel has no stack tracer (no %s; "
			"CONFIG_STACK_TRACER)\n", STACK_TRACER_SWITCH);
		return 1;
	}
	switch (a.action) {
	case STACK_START:
		ret = write_value(STACK_TRACER_SWITCH, "1");
		break;
	case STACK_STOP:
		ret = write_value(STACK_TRACER_SWITCH, "0");
		break;
	case STACK_RESET:
		ret = reset_max();
		break;
	case STACK_PRINT:
		ret = print_stack();
		break;
	}
	return ret ? 1 : 0;
}
