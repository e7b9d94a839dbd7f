// SPDX-License-Identifier: GPL-2.0-only
/*
 * ktrace __complete: the candidates the bash completion (completions/ktrace) offers, from the
 * same data as the help: the command table of main.c, each command's option table, and for
 * arguments that name something of the kernel the live tracefs, read as `ktrace list` reads it.
 *
 *   ktrace __complete commands          the commands, help and version included
 *   ktrace __complete options CMD       CMD's option table (KT_COMPLETION_FLAG's lines)
 *   ktrace __complete values ARG_NAME   what an option's argument may be: TRACER, EVENT,
 *                                       OPTION, CLOCK, INSTANCE, LAYOUT; nothing for other
 *                                       names
 *
 * A completion never complains: what cannot be read (no tracefs, not root) gives no candidate,
 * and the exit status is 0 but for a malformed call (2).
 */
#include <dirent.h>
#include <stdio.h>
#include <string.h>

#include "ktrace/command.h"
#include "ktrace/options.h"
#include "ktrace/tfs.h"

/* The words of a tracefs file, one a line ("[local] global": the brackets dropped). */
static void print_words(const char *file)
{
	struct strbuf path = STRBUF_INIT;
	char **words = NULL;
	size_t i;

	if (!tfs_path(&path, NULL, file) && !tfs_words(path.buf, &words))
		for (i = 0; words[i]; i++)
			printf("%s\n", words[i]);
	strv_free(words);
	strbuf_release(&path);
}

static void print_strv(char **list)
{
	size_t i;

	for (i = 0; list && list[i]; i++)
		printf("%s\n", list[i]);
	strv_free(list);
}

static void print_tracers(void)
{
	print_words("available_tracers");
}

static void print_clocks(void)
{
	print_words("trace_clock");
}

/* -e takes a system or system:event: the systems, then available_events as `list -e` prints it */
static void print_events(void)
{
	struct strbuf sb = STRBUF_INIT;
	char **systems = NULL;

	if (!tfs_systems(&systems))
		print_strv(systems);	/* frees it */
	if (!tfs_inst_read(NULL, "available_events", &sb))
		fputs(sb.buf, stdout);
	strbuf_release(&sb);
}

/* -O NAME sets an option and -O noNAME clears it: both, whatever the option's state now. */
static void print_options(void)
{
	struct strbuf path = STRBUF_INIT;
	struct dirent *de;
	DIR *dir = NULL;

	if (!tfs_path(&path, NULL, "options"))
		dir = opendir(path.buf);
	while (dir && (de = readdir(dir)))
		if (de->d_name[0] != '.')
			printf("%s\nno%s\n", de->d_name, de->d_name);
	if (dir)
		closedir(dir);
	strbuf_release(&path);
}

static void print_instances(void)
{
	char **names = NULL;

	if (!tfs_instances(&names))
		print_strv(names);
}

/* report --layout: the trace-cmd versions whose text it copies */
static void print_layouts(void)
{
	printf("3.1\n3.4\n");
}

/* What the argument of an option is, by the name its table gives it ("-p TRACER"). */
static const struct {
	const char *arg_name;
	void (*print)(void);
} value_sources[] = {
	{ "TRACER", print_tracers },
	{ "EVENT", print_events },
	{ "OPTION", print_options },
	{ "CLOCK", print_clocks },
	{ "INSTANCE", print_instances },
	{ "LAYOUT", print_layouts },
};

static int print_values(const char *arg_name)
{
	size_t i;

	for (i = 0; i < sizeof(value_sources) / sizeof(value_sources[0]); i++)
		if (!strcmp(arg_name, value_sources[i].arg_name))
			value_sources[i].print();
	return 0;
}

static int print_options_of(const char *name, const struct kt_command *commands, size_t n)
{
	char *argv[] = { (char *)name, KT_COMPLETION_FLAG, NULL };
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(commands[i].name, name))
			return commands[i].fn(2, argv) == KT_HELP_SHOWN ? 0 : 1;
	return 0;
}

int kt_complete(int argc, char **argv, const struct kt_command *commands, size_t n)
{
	size_t i;

	if (argc == 2 && !strcmp(argv[1], "commands")) {
		for (i = 0; i < n; i++)
			printf("%s\n", commands[i].name);
		printf("help\nversion\n");
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "options"))
		return print_options_of(argv[2], commands, n);
	if (argc == 3 && !strcmp(argv[1], "values"))
		return print_values(argv[2]);
	fprintf(stderr, "usage: ktrace __complete commands | options CMD | values ARG_NAME\n");
	return 2;
}
