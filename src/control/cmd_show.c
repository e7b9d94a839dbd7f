// SPDX-License-Identifier: GPL-2.0-only
/*
 * ktrace show: print a tracefs file, by default the `trace` file (trace-cmd show's flags).
 * The --FILE flags print one setting each and stop, in the order given; so do FILE arguments,
 * any file (or folder: its entries) under the instance's tracefs folder; --hist prints an
 * event's histogram and --trigger its triggers (show_hist.c).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <tracefs.h>

#include "ktrace/command.h"
#include "ktrace/fdio.h"
#include "ktrace/options.h"
#include "ktrace/tfs.h"
#include "show_hist.h"

enum {
	OPT_HIST = 256,
	OPT_TRIGGER,
	OPT_CLEAR,
	OPT_FIRST_FILE,
};

/* The file each --FILE flag prints; the flag's id is OPT_FIRST_FILE + index. */
static const char *const show_files[] = {
	"tracing_on", "current_tracer", "buffer_size_kb", "buffer_total_size_kb",
	"set_ftrace_filter", "set_ftrace_notrace", "set_ftrace_pid", "set_graph_function",
	"set_graph_notrace", "tracing_cpumask", "tracing_max_latency", "buffer_subbuf_size_kb",
	"buffer_percent",
};

#define NR_SHOW_FILES (sizeof(show_files) / sizeof(show_files[0]))

struct show_args {
	const char *instance;
	const char *cpu;
	const char *hist_event;	/* the argument of --hist */
	const char *trigger;	/* the argument of --trigger */
	bool pipe, snapshot, show_name, hist, clear;
	int files[NR_SHOW_FILES];
	int nr_files;
	char **names;		/* FILE arguments (argv) */
	int nr_names;
};

static int dump_file(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret;

	if (fd < 0) {
		fprintf(stderr, "ktrace show: cannot read %s: %s\n", path, tfs_cause(-errno));
		return -1;
	}
	/* trace_pipe waits for data: the reader sees each piece as it comes. */
	fflush(stdout);
	ret = fd_copy_all(fd, STDOUT_FILENO);
	close(fd);
	if (ret) {
		fprintf(stderr, "ktrace show: reading %s: %s\n", path, strerror(-ret));
		return -1;
	}
	return 0;
}

/* A folder's entries, one a line, folders with a trailing '/', in the kernel's order. */
static int list_dir(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *de;

	if (!d) {
		fprintf(stderr, "ktrace show: cannot read %s: %s\n", path, tfs_cause(-errno));
		return -1;
	}
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			printf("%s%s\n", de->d_name, de->d_type == DT_DIR ? "/" : "");
	closedir(d);
	return 0;
}

static int show_one(const struct show_args *a, const char *file)
{
	struct strbuf path = STRBUF_INIT;
	struct stat st;
	int ret = tfs_path(&path, a->instance, file);

	if (!ret && a->show_name)
		printf("%s\n", path.buf);
	if (!ret && !stat(path.buf, &st) && S_ISDIR(st.st_mode))
		ret = list_dir(path.buf);
	else if (!ret)
		ret = dump_file(path.buf);
	strbuf_release(&path);
	return ret;
}

/* A FILE argument stays inside the instance's tracefs folder. */
static int check_name(const char *name)
{
	const char *p;

	if (name[0] == '/' || !name[0]) {
		fprintf(stderr, "ktrace show: FILE '%s': give a path relative to the tracefs "
			"folder (e.g. tracing_thresh, events/sched/sched_switch/format)\n", name);
		return -EINVAL;
	}
	for (p = name; p; p = strchr(p, '/') ? strchr(p, '/') + 1 : NULL) {
		if (!strncmp(p, "..", 2) && (p[2] == '/' || !p[2])) {
			fprintf(stderr, "ktrace show: FILE '%s': '..' leaves tracefs\n", name);
			return -EINVAL;
		}
	}
	return 0;
}

/* --FILE: the file show_files[id - OPT_FIRST_FILE] */
static int add_file(void *ctx, int id, const char *arg)
{
	struct show_args *a = ctx;

	if (a->nr_files < (int)NR_SHOW_FILES)
		a->files[a->nr_files++] = id - OPT_FIRST_FILE;
	return 0;
}

/* --hist[=EVENT]: the event may also be the one argument (--hist --clear EVENT) */
static int set_hist(void *ctx, int id, const char *arg)
{
	struct show_args *a = ctx;

	a->hist = true;
	if (arg)
		a->hist_event = arg;
	return 0;
}

static const struct kt_option show_options[] = {
	KT_BOOL('p', NULL, struct show_args, pipe,
		"read trace_pipe (consumes events, waits for more)"),
	KT_BOOL('s', NULL, struct show_args, snapshot, "read the snapshot file"),
	KT_STRING('c', NULL, "CPU", struct show_args, cpu, "read only that CPU's file"),
	KT_STRING('B', NULL, "INSTANCE", struct show_args, instance, "read from INSTANCE"),
	KT_BOOL('f', NULL, struct show_args, show_name, "print the path of the file first"),
	{ .id = OPT_HIST, .long_name = "hist", .arg = KT_ARG_OPTIONAL, .arg_name = "EVENT",
	  .help = "print EVENT's histogram (its hist file), or list the events with hist triggers",
	  .fn = set_hist, .flags = KT_OPT_NEXT_WORD },
	KT_STRING(OPT_TRIGGER, "trigger", "EVENT", struct show_args, trigger,
		  "print EVENT's trigger file"),
	KT_BOOL(OPT_CLEAR, "clear", struct show_args, clear,
		"with --hist EVENT: then zero its histogram (the trigger stays)"),
	KT_OPT(OPT_FIRST_FILE + 0, "tracing_on", KT_ARG_NONE, NULL, "print tracing_on"),
	KT_OPT(OPT_FIRST_FILE + 1, "current_tracer", KT_ARG_NONE, NULL, "print current_tracer"),
	KT_OPT(OPT_FIRST_FILE + 2, "buffer_size", KT_ARG_NONE, NULL, "print buffer_size_kb"),
	KT_OPT(OPT_FIRST_FILE + 3, "buffer_total_size", KT_ARG_NONE, NULL,
	       "print buffer_total_size_kb"),
	KT_OPT(OPT_FIRST_FILE + 4, "ftrace_filter", KT_ARG_NONE, NULL, "print set_ftrace_filter"),
	KT_OPT(OPT_FIRST_FILE + 5, "ftrace_notrace", KT_ARG_NONE, NULL, "print set_ftrace_notrace"),
	KT_OPT(OPT_FIRST_FILE + 6, "ftrace_pid", KT_ARG_NONE, NULL, "print set_ftrace_pid"),
	KT_OPT(OPT_FIRST_FILE + 7, "graph_function", KT_ARG_NONE, NULL, "print set_graph_function"),
	KT_OPT(OPT_FIRST_FILE + 8, "graph_notrace", KT_ARG_NONE, NULL, "print set_graph_notrace"),
	KT_OPT(OPT_FIRST_FILE + 9, "cpumask", KT_ARG_NONE, NULL, "print tracing_cpumask"),
	KT_OPT(OPT_FIRST_FILE + 10, "max_latency", KT_ARG_NONE, NULL, "print tracing_max_latency"),
	KT_OPT(OPT_FIRST_FILE + 11, "buffer_subbuf_size", KT_ARG_NONE, NULL,
	       "print buffer_subbuf_size_kb"),
	KT_OPT(OPT_FIRST_FILE + 12, "buffer_percent", KT_ARG_NONE, NULL, "print buffer_percent"),
	{ 0 },
};

static const struct kt_command_help show_help = {
	.name = "show",
	.usage = "[-p|-s] [-c CPU] [-B INSTANCE] [-f] [--FILE]... [FILE]... | [-B INSTANCE] --hist"
		 "[=EVENT] [--clear] | [-B INSTANCE] --trigger EVENT",
	.summary = "Print what tracefs holds now: the trace file by default, or the settings named "
		   "by the --FILE flags, or any tracefs FILE by its path under the instance's "
		   "folder.",
	.options = show_options,
	.option = add_file,
};

static int parse_args(struct show_args *a, int argc, char **argv)
{
	int i, first, ret = kt_parse_options(&show_help, argc, argv, a, &first);

	if (ret)
		return ret;
	if (a->hist && !a->hist_event && first == argc - 1)
		a->hist_event = argv[first++];
	if ((a->hist || a->trigger) && first < argc)
		return kt_usage_error("show", "argument", argv[first],
				      "is not expected (--hist and --trigger take one EVENT)");
	a->names = argv + first;
	a->nr_names = argc - first;
	for (i = 0; i < a->nr_names; i++)
		if (check_name(a->names[i]))
			return KT_ERR_USAGE;
	if (a->clear && !a->hist_event)
		return kt_usage_error("show", "--clear", "", "goes with --hist EVENT");
	if (a->pipe && a->snapshot)
		return kt_usage_error("show", "-p and -s", "", "cannot be combined");
	return 0;
}

static int show_trace(const struct show_args *a)
{
	const char *base = a->pipe ? "trace_pipe" : a->snapshot ? "snapshot" : "trace";
	struct strbuf file = STRBUF_INIT;
	char *end;
	long cpu;
	int ret;

	if (a->cpu) {
		cpu = strtol(a->cpu, &end, 0);
		if (end == a->cpu || *end || cpu < 0) {
			fprintf(stderr, "ktrace show: -c '%s' is not a CPU number\n", a->cpu);
			return -EINVAL;
		}
		strbuf_addf(&file, "per_cpu/cpu%ld/%s", cpu, base);
	} else {
		strbuf_addstr(&file, base);
	}
	ret = show_one(a, file.buf);
	strbuf_release(&file);
	return ret;
}

int cmd_show(int argc, char **argv)
{
	struct show_args a = { 0 };
	int i, ret = parse_args(&a, argc, argv);

	if (ret)
		return ret;
	if (a.instance && !tracefs_instance_exists(a.instance)) {
		fprintf(stderr, "ktrace show: -B '%s': no such instance\n", a.instance);
		return 1;
	}
	/* As in trace-cmd, the --FILE flags stop before --hist and --trigger; --hist wins. */
	for (i = 0; i < a.nr_files; i++)
		if (show_one(&a, show_files[a.files[i]]))
			ret = -1;
	for (i = 0; i < a.nr_names; i++)
		if (show_one(&a, a.names[i]))
			ret = -1;
	if (a.nr_files || a.nr_names)
		return ret ? 1 : 0;
	if (a.hist)
		return show_hist(a.instance, a.hist_event, a.clear) ? 1 : 0;
	if (a.trigger)
		return show_trigger(a.instance, a.trigger) ? 1 : 0;
	ret = show_trace(&a);
	return ret ? 1 : 0;
}
