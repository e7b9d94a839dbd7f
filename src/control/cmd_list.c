// SPDX-License-Identifier: GPL-2.0-only
/*
 * ktrace list: what the running kernel offers (trace-cmd list's flags): events (optionally
 * with their formats, filters or triggers), tracers, options, functions, clocks, instances
 * and the compressions ktrace can write. Without a flag: systems, events, tracers, options.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event-parse.h>
#include <tracefs.h>

#include "ktrace/command.h"
#include "ktrace/compress.h"
#include "ktrace/fdio.h"
#include "ktrace/options.h"
#include "ktrace/report.h"
#include "ktrace/tfs.h"

enum { OPT_FULL = 256, OPT_DEBUG };

enum {
	SHOW_FORMAT = 1 << 0,
	SHOW_FULL = 1 << 1,
	SHOW_FILTER = 1 << 2,
	SHOW_TRIGGER = 1 << 3,
};

struct list_args {
	bool events, tracers, options, functions, clocks, instances, compressions, systems, plugins,
	     plugin_options;
	const char *event_re, *func_re, *option_re;
	unsigned int event_flags;
};

/* -e [REGEX], -o [REGEX] and -f [REGEX] */
static int set_regex(void *ctx, int id, const char *arg)
{
	struct list_args *a = ctx;

	if (id == 'e') {
		a->events = true;
		a->event_re = arg;
	} else if (id == 'o') {
		a->options = true;
		a->option_re = arg;
	} else {
		a->functions = true;
		a->func_re = arg;
	}
	return 0;
}

/* "-e REGEX" with a separate argument too: getopt only attaches optional arguments glued on */
#define LIST_MATCHING(ID, HELP) \
	{ .id = (ID), .arg = KT_ARG_OPTIONAL, .arg_name = "REGEX", .help = (HELP), \
	  .fn = set_regex, .flags = KT_OPT_NEXT_WORD }

static const struct kt_option list_options[] = {
	LIST_MATCHING('e', "list events (system:event) matching REGEX"),
	KT_BITS('F', NULL, struct list_args, event_flags, SHOW_FORMAT,
		"with -e: print each event's format"),
	KT_BITS(OPT_FULL, "full", struct list_args, event_flags, SHOW_FORMAT | SHOW_FULL,
		"with -F: include the print fmt line"),
	KT_BITS('l', NULL, struct list_args, event_flags, SHOW_FILTER,
		"with -e: print each event's filter"),
	KT_BITS('R', NULL, struct list_args, event_flags, SHOW_TRIGGER,
		"with -e: print each event's triggers"),
	KT_BOOL('t', NULL, struct list_args, tracers, "list the tracers"),
	KT_BOOL('p', NULL, struct list_args, tracers, "list the tracers (as -t)"),
	KT_BOOL('s', NULL, struct list_args, systems, "list the event systems"),
	KT_BOOL('P', NULL, struct list_args, plugins, "list the libtraceevent plugins loaded"),
	KT_BOOL('O', NULL, struct list_args, plugin_options,
		"list the plugin options of 'report -O' (as 'ktrace options')"),
	KT_NOOP(OPT_DEBUG, "debug", KT_ARG_NONE, NULL, "accepted for compatibility"),
	LIST_MATCHING('o', "list the trace options (matching REGEX) and their state"),
	LIST_MATCHING('f', "list the functions that can be filtered"),
	KT_BOOL('C', NULL, struct list_args, clocks, "list the clocks (the current one in [])"),
	KT_BOOL('B', NULL, struct list_args, instances, "list the instances"),
	KT_BOOL('c', NULL, struct list_args, compressions, "list the compressions ktrace writes"),
	{ 0 },
};

static const struct kt_command_help list_help = {
	.name = "list",
	.usage = "[-e [REGEX] [-F [--full]|-l|-R]] [-t|-p] [-o [REGEX]] [-P] [-O] [-f [REGEX]] [-C] [-B] [-s] [-c]",
	.summary = "List what the running kernel offers for tracing.",
	.options = list_options,
};

static int print_file(const char *file)
{
	struct strbuf path = STRBUF_INIT;
	int ret = tfs_path(&path, NULL, file), fd = -1;

	if (!ret)
		fd = open(path.buf, O_RDONLY | O_CLOEXEC);
	if (!ret && fd < 0)
		ret = -errno;
	if (!ret)
		ret = fflush(stdout) ? -errno : fd_copy_all(fd, STDOUT_FILENO);
	if (ret)
		fprintf(stderr, "ktrace list: cannot read %s/%s: %s\n", tracefs_tracing_dir(), file,
			tfs_cause(ret));
	if (fd >= 0)
		close(fd);
	strbuf_release(&path);
	return ret;
}

static int compile(regex_t *re, const char *pattern, const char *flag)
{
	int ret = regcomp(re, pattern, REG_ICASE | REG_NOSUB);

	if (ret)
		fprintf(stderr, "ktrace list: %s '%s' is not a valid regular expression\n", flag,
			pattern);
	return ret ? -EINVAL : 0;
}

/* The format without its print fmt line unless --full, as trace-cmd prints it. */
static void print_event_detail(const char *sys, const char *name, unsigned int flags)
{
	const char *file = flags & SHOW_FORMAT ? "format" : flags & SHOW_FILTER ? "filter" :
			   "trigger";
	struct strbuf path = STRBUF_INIT, sb = STRBUF_INIT;
	char *fmt;

	strbuf_addf(&path, "events/%s/%s/%s", sys, name, file);
	if (!tfs_inst_read(NULL, path.buf, &sb)) {
		fmt = strstr(sb.buf, "\nprint fmt:");
		if ((flags & SHOW_FORMAT) && !(flags & SHOW_FULL) && fmt)
			fmt[1] = '\0';
		/* A format ends with a blank line already; a filter or trigger gets one. */
		if (flags & SHOW_FORMAT)
			printf("system: %s\n%s", sys, sb.buf);
		else
			printf("%s\n", sb.buf);
	}
	strbuf_release(&path);
	strbuf_release(&sb);
}

static void print_event(const struct list_args *a, const char *sys, const char *name)
{
	if (!(a->event_flags & SHOW_FORMAT))
		printf("%s:%s\n", sys, name);
	if (a->event_flags)
		print_event_detail(sys, name, a->event_flags);
}

/* Events of SYS, all of them or those matching re. */
static void list_system(const struct list_args *a, const char *sys, const regex_t *re)
{
	char **events = NULL;
	int e;

	if (tfs_system_events(sys, &events))
		return;
	for (e = 0; events[e]; e++)
		if (!re || !regexec(re, events[e], 0, NULL, 0))
			print_event(a, sys, events[e]);
	strv_free(events);
}

/*
 * trace-cmd's matching: "SYSRE:EVRE" picks events matching EVRE in systems matching SYSRE;
 * "RE:" whole systems matching RE; "RE" those too and, elsewhere, the events matching RE.
 * Matching is case-insensitive. ftrace's own system comes first.
 */
struct event_match {
	regex_t sys_re, ev_re;
	bool has_ev, just_systems;
};

static void list_matching(const struct list_args *a, const char *sys, struct event_match *m)
{
	if (!regexec(&m->sys_re, sys, 0, NULL, 0))
		list_system(a, sys, m->has_ev ? &m->ev_re : NULL);
	else if (!m->just_systems)
		list_system(a, sys, &m->sys_re);
}

static int walk_events(const struct list_args *a)
{
	struct event_match m = { .has_ev = false };
	char *sys_part, *colon, **systems = NULL;
	int i, ret;

	sys_part = strdup(a->event_re);
	if (!sys_part)
		return -ENOMEM;
	colon = strchr(sys_part, ':');
	if (colon)
		*colon = '\0';
	m.has_ev = colon && colon[1];
	m.just_systems = colon != NULL;
	ret = compile(&m.sys_re, sys_part, "-e");
	if (ret) {
		free(sys_part);
		return ret;
	}
	if (m.has_ev)
		ret = compile(&m.ev_re, colon + 1, "-e");
	if (!ret)
		ret = tfs_systems(&systems);
	if (!ret)
		list_matching(a, "ftrace", &m);
	for (i = 0; !ret && systems[i]; i++)
		list_matching(a, systems[i], &m);
	strv_free(systems);
	regfree(&m.sys_re);
	if (m.has_ev && ret != -EINVAL)
		regfree(&m.ev_re);
	free(sys_part);
	return ret;
}

static int list_events(const struct list_args *a)
{
	char **systems = NULL;
	int i, ret;

	if (a->event_re && *a->event_re)
		return walk_events(a);
	if (!a->event_flags)
		return print_file("available_events");
	ret = tfs_systems(&systems);
	for (i = 0; !ret && systems[i]; i++)
		list_system(a, systems[i], NULL);
	strv_free(systems);
	return ret;
}

/* Calls fn on each line of FILE that matches the regular expression (of flag FLAG). */
static int grep_file(const char *file, const char *pattern, const char *flag,
		     void (*fn)(const struct list_args *a, char *line), const struct list_args *a)
{
	struct strbuf sb = STRBUF_INIT;
	char *save = NULL, *line;
	regex_t re;
	int ret;

	if (compile(&re, pattern ? pattern : ".", flag))
		return -EINVAL;
	ret = tfs_inst_read(NULL, file, &sb);
	if (ret)
		fprintf(stderr, "ktrace list: cannot read %s/%s: %s\n", tracefs_tracing_dir(), file,
			tfs_cause(ret));
	for (line = ret ? NULL : strtok_r(sb.buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		if (!regexec(&re, line, 0, NULL, 0))
			fn(a, line);
	regfree(&re);
	strbuf_release(&sb);
	return ret;
}

static void print_line(const struct list_args *a, char *line)
{
	printf("%s\n", line);
}

static int list_functions(const struct list_args *a)
{
	return grep_file("available_filter_functions", a->func_re, "-f", print_line, a);
}

/*
 * Each file of options/ in directory order (those whose name matches RE when given), "noNAME"
 * when off, as trace-cmd lists them.
 */
static int list_options_state(const char *re)
{
	struct strbuf path = STRBUF_INIT, sb = STRBUF_INIT;
	struct dirent *de;
	regex_t reg;
	DIR *dir;
	int ret = re && *re ? compile(&reg, re, "-o") : 0;

	if (ret)
		return ret;
	ret = tfs_path(&path, NULL, "options");
	dir = ret ? NULL : opendir(path.buf);
	if (!dir) {
		ret = ret ? ret : -errno;
		fprintf(stderr, "ktrace list: cannot read %s: %s\n", path.buf, tfs_cause(ret));
	}
	while (dir && (de = readdir(dir))) {
		if (de->d_name[0] == '.' || (re && *re && regexec(&reg, de->d_name, 0, NULL, 0)))
			continue;
		strbuf_reset(&path);
		strbuf_addf(&path, "options/%s", de->d_name);
		if (!tfs_inst_read(NULL, path.buf, &sb))
			printf("%s%s\n", sb.buf[0] == '0' ? "no" : "", de->d_name);
	}
	if (dir)
		closedir(dir);
	if (re && *re)
		regfree(&reg);
	strbuf_release(&path);
	strbuf_release(&sb);
	return ret;
}

static int list_instances(void)
{
	char **list = NULL;
	int i;

	tfs_instances(&list);
	if (!list || !list[0])
		printf("No buffer instances defined\n");
	for (i = 0; list && list[i]; i++)
		printf("%s\n", list[i]);
	strv_free(list);
	return 0;
}

static int list_compressions(void)
{
	static const enum kt_compression algos[] = { KT_COMP_ZSTD, KT_COMP_ZLIB };
	size_t i;

	printf("Supported compression algorithms:\n");
	for (i = 0; i < sizeof(algos) / sizeof(algos[0]); i++)
		printf("\t%s, %s\n", kt_compression_name(algos[i]),
		       kt_compression_version(algos[i]));
	return 0;
}

/* The directories of events/ in directory order, ftrace's own included, as trace-cmd does. */
static int list_systems(void)
{
	struct strbuf path = STRBUF_INIT;
	struct dirent *de;
	DIR *dir;
	int ret = tfs_path(&path, NULL, "events");

	dir = ret ? NULL : opendir(path.buf);
	if (!dir)
		ret = ret ? ret : -errno;
	while (dir && (de = readdir(dir)))
		if (de->d_type == DT_DIR && de->d_name[0] != '.')
			printf("%s\n", de->d_name);
	printf("\n");
	if (dir)
		closedir(dir);
	else
		fprintf(stderr, "ktrace list: cannot read %s: %s\n", path.buf, tfs_cause(ret));
	strbuf_release(&path);
	return ret;
}

/* The plugin files libtraceevent loads, one per line, as trace-cmd list -P prints them */
static int list_plugins(void)
{
	struct tep_handle *tep = tep_alloc();
	struct tep_plugin_list *plugins;
	struct trace_seq s;

	if (!tep) {
		fprintf(stderr, "ktrace list: -P: out of memory\n");
		return -ENOMEM;
	}
	trace_seq_init(&s);
	plugins = tep_load_plugins(tep);
	tep_print_plugins(&s, "  ", "\n", plugins);
	trace_seq_do_printf(&s);
	trace_seq_destroy(&s);
	tep_unload_plugins(plugins, tep);
	tep_free(tep);
	return 0;
}

/* No flag: the overview trace-cmd list prints. */
static int list_everything(const struct list_args *a)
{
	int ret;

	printf("event systems:\n");
	ret = list_systems();
	printf("events:\n");
	ret |= list_events(a);
	printf("\ntracers:\n");
	ret |= print_file("available_tracers");
	printf("\noptions:\n");
	ret |= list_options_state(NULL);
	ret |= list_compressions();
	return ret;
}

int cmd_list(int argc, char **argv)
{
	struct list_args a = { 0 };
	int ret = kt_parse_options(&list_help, argc, argv, &a, NULL);

	if (ret)
		return ret;
	if (a.event_flags && !a.events)
		a.events = true;
	if (!(a.events || a.tracers || a.options || a.functions || a.clocks || a.instances ||
	      a.compressions || a.systems || a.plugins || a.plugin_options))
		return list_everything(&a) ? 1 : 0;
	if (a.events)
		ret |= list_events(&a);
	if (a.tracers)
		ret |= print_file("available_tracers");
	if (a.options)
		ret |= list_options_state(a.option_re);
	if (a.plugins)
		ret |= list_plugins();
	if (a.plugin_options && report_print_plugin_options(stdout)) {
		fprintf(stderr, "ktrace list: -O: cannot print the plugin options\n");
		ret |= 1;
	}
	if (a.functions)
		ret |= list_functions(&a);
	if (a.clocks)
		ret |= print_file("trace_clock");
	if (a.instances)
		ret |= list_instances();
	if (a.systems)
		ret |= list_systems();
	if (a.compressions)
		ret |= list_compressions();
	return ret ? 1 : 0;
}
