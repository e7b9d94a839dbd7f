// SPDX-License-Identifier: GPL-2.0-only
/*
 * ktrace: the command table and the dispatcher. Setup shared by commands (root check, tracefs
 * mount) happens here, once, driven by each command's flags.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ktrace/command.h"
#include "ktrace/options.h"
#include "ktrace/strbuf.h"
#include "ktrace/version.h"

static const struct kt_command commands[] = {
	{ "record", cmd_record, NEED_ROOT | NEED_TRACEFS, "record a trace into a trace.dat file" },
	{ "start", cmd_start, NEED_ROOT | NEED_TRACEFS, "configure and start tracing, no recording" },
	{ "set", cmd_set, NEED_ROOT | NEED_TRACEFS, "change only the given ftrace settings" },
	{ "stop", cmd_stop, NEED_ROOT | NEED_TRACEFS, "stop tracing (the buffers keep their data)" },
	{ "extract", cmd_extract, NEED_ROOT | NEED_TRACEFS, "save what the kernel buffers hold" },
	{ "save", cmd_save, NEED_ROOT, "tell the armed flight recorder (record -W) to save" },
	{ "reset", cmd_reset, NEED_ROOT | NEED_TRACEFS, "put tracefs back to its defaults" },
	{ "restart", cmd_restart, NEED_ROOT | NEED_TRACEFS, "turn tracing back on after 'stop'" },
	{ "clear", cmd_clear, NEED_ROOT | NEED_TRACEFS, "clear the trace buffers" },
	{ "options", cmd_options, 0, "list the plugin options of 'report -O'" },
	{ "check-events", cmd_check_events, NEED_ROOT | NEED_TRACEFS | USAGE_EXIT_255,
	  "list the event formats libtraceevent cannot parse" },
	{ "show", cmd_show, NEED_ROOT | NEED_TRACEFS, "print what tracefs holds now" },
	{ "stat", cmd_stat, NEED_ROOT | NEED_TRACEFS, "summarize the current tracing setup" },
	{ "list", cmd_list, NEED_ROOT | NEED_TRACEFS, "list tracers, events, options, functions" },
	{ "report", cmd_report, USAGE_EXIT_255, "print the events of a trace.dat file" },
	{ "dump", cmd_dump, 0, "describe the structure of a trace.dat file" },
	{ "convert", cmd_convert, 0, "rewrite a trace.dat file in another version or compression" },
	{ "export", cmd_export, 0, "convert a trace.dat file for Perfetto" },
	{ "hist", cmd_hist, 0, "latency and count histograms of a trace.dat file" },
	{ "mem", cmd_mem, USAGE_EXIT_255,
	  "kmalloc/kfree statistics per call site of a trace.dat file" },
	{ "sql", cmd_sql, 0, "run SQL queries over the events of a trace.dat file" },
	{ "split", cmd_split, 0, "cut a trace.dat file into smaller files" },
	{ "restore", cmd_restore, 0, "make a trace.dat from a crashed recording's CPU files" },
	{ "setup-guest", cmd_setup_guest, 0, "make the virtio-serial FIFOs of a libvirt guest" },
	{ "listen", cmd_listen, 0, "receive traces from remote 'record -N' clients" },
	{ "agent", cmd_agent, NEED_ROOT | NEED_TRACEFS, "record for a host's 'record -A' (in a guest)" },
	{ "stream", cmd_stream, NEED_ROOT | NEED_TRACEFS, "print events live as they happen" },
	{ "snapshot", cmd_snapshot, NEED_ROOT | NEED_TRACEFS, "take, print, clear or free a snapshot" },
	{ "profile", cmd_profile, NEED_ROOT | NEED_TRACEFS,
	  "record and print per-task run, sleep and blocked times in one step" },
	{ "sqlhist", cmd_sqlhist, TRACEFS_OPTIONAL,
	  "make a synthetic event or histogram from an SQL SELECT" },
	{ "stack", cmd_stack, NEED_ROOT | NEED_TRACEFS, "start, stop, reset or print the kernel stack tracer" },
};

#define NR_COMMANDS (sizeof(commands) / sizeof(commands[0]))

static const struct kt_command *find_command(const char *name)
{
	size_t i;

	for (i = 0; i < NR_COMMANDS; i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

static void print_overview(FILE *out)
{
	size_t i;

	fprintf(out, "usage: ktrace COMMAND [OPTIONS]\n\n"
		     "ktrace records and reports Linux ftrace traces (trace-cmd compatible).\n\n"
		     "commands:\n");
	for (i = 0; i < NR_COMMANDS; i++)
		fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(out, "  %-10s %s\n  %-10s %s\n\n", "help", "help CMD: show a command's options",
		"version", "print ktrace's version");
	fprintf(out, "'ktrace CMD -h' shows the options of CMD.\n");
}

/* Suggest the command with the longest common prefix, for typos like 'reprot'. */
static const char *closest_command(const char *name)
{
	const char *best = NULL;
	size_t best_score = 0, i;

	for (i = 0; i < NR_COMMANDS; i++) {
		const char *c = commands[i].name;
		size_t score = 0;

		while (c[score] && name[score] && c[score] == name[score])
			score++;
		if (score > best_score) {
			best_score = score;
			best = c;
		}
	}
	return best_score >= 2 ? best : NULL;
}

static int unknown_command(const char *name)
{
	const char *hint = closest_command(name);

	fprintf(stderr, "ktrace: '%s' is not a ktrace command.", name);
	if (hint)
		fprintf(stderr, " Did you mean '%s'?", hint);
	fprintf(stderr, " See 'ktrace help'.\n");
	return 1;
}

static int prepare(const struct kt_command *cmd, const char *tracefs_dir)
{
	struct strbuf err = STRBUF_INIT;
	int ret;

	if ((cmd->flags & NEED_ROOT) && geteuid() != 0) {
		fprintf(stderr, "ktrace %s: tracing needs root; run it as root (e.g. with sudo).\n",
			cmd->name);
		return -EPERM;
	}
	if (cmd->flags & (NEED_TRACEFS | TRACEFS_OPTIONAL)) {
		const char *env = getenv("KTRACE_TRACEFS");
		/* optional: no tracefs here is fine, a named one that is no tracefs is not */
		bool named = tracefs_dir || (env && *env);

		ret = kt_tracefs_locate(tracefs_dir, &err);
		if (ret && (cmd->flags & TRACEFS_OPTIONAL) && !named)
			ret = 0;
		else if (ret)
			fprintf(stderr, "ktrace %s: %s\n", cmd->name,
				err.len ? err.buf : strerror(-ret));
		strbuf_release(&err);
		return ret;
	}
	return 0;
}

/*
 * ktrace's own options, before the command: --tracefs PATH (or --tracefs=PATH). Returns how
 * many words they took, or -1 after a message.
 */
static int global_options(int argc, char **argv, const char **tracefs_dir)
{
	int i = 1;

	while (i < argc && !strncmp(argv[i], "--tracefs", 9)) {
		if (argv[i][9] == '=') {
			*tracefs_dir = argv[i] + 10;
			i++;
		} else if (!argv[i][9] && i + 1 < argc) {
			*tracefs_dir = argv[i + 1];
			i += 2;
		} else {
			fprintf(stderr, "ktrace: %s: expected --tracefs PATH before the command\n",
				argv[i]);
			return -1;
		}
	}
	return i - 1;
}

/* A command's result as the process exit status. */
static int exit_status(const struct kt_command *cmd, int ret)
{
	switch (ret) {
	case KT_HELP_SHOWN:
		return 0;
	case KT_ERR_USAGE:
		return cmd->flags & USAGE_EXIT_255 ? 255 : 1;
	case KT_ERR_FAILED:
		return 1;
	default:
		return ret;
	}
}

static int run_help(int argc, char **argv)
{
	const struct kt_command *cmd;
	char *help_argv[] = { NULL, "-h", NULL };

	if (argc < 2) {
		print_overview(stdout);
		return 0;
	}
	cmd = find_command(argv[1]);
	if (!cmd)
		return unknown_command(argv[1]);
	help_argv[0] = argv[1];
	return exit_status(cmd, cmd->fn(2, help_argv));
}

static int wants_help(int argc, char **argv)
{
	return argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"));
}

int main(int argc, char **argv)
{
	const struct kt_command *cmd;
	const char *tracefs_dir = NULL;
	int skip = global_options(argc, argv, &tracefs_dir);

	if (skip < 0)
		return 1;
	/* the command sees its own name as argv[0], as without the global options */
	argc -= skip;
	argv += skip;
	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		print_overview(argc < 2 ? stderr : stdout);
		return argc < 2 ? 1 : 0;
	}
	if (!strcmp(argv[1], "help"))
		return run_help(argc - 1, argv + 1);
	if (!strcmp(argv[1], "__complete"))
		return kt_complete(argc - 1, argv + 1, commands, NR_COMMANDS);
	if (!strcmp(argv[1], "version") || !strcmp(argv[1], "--version")) {
		printf("ktrace %s\n", KTRACE_VERSION);
		return 0;
	}
	cmd = find_command(argv[1]);
	if (!cmd)
		return unknown_command(argv[1]);
	/* Help needs neither root nor tracefs. */
	if (!wants_help(argc - 1, argv + 1) && prepare(cmd, tracefs_dir))
		return 1;
	return exit_status(cmd, cmd->fn(argc - 1, argv + 1));
}
