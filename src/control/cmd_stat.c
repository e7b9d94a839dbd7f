// SPDX-License-Identifier: GPL-2.0-only
/*
 * ktrace stat: how tracing is set up now, per instance, in trace-cmd stat's layout: tracer,
 * enabled events, filters, triggers, function filters, buffers, clock, CPU mask, probes, pid
 * lists, tracing on or off. One addition: the trace options that differ from the boot
 * defaults (trace-cmd shows options only with -o, all of them).
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tracefs.h>

#include "ktrace/command.h"
#include "ktrace/options.h"
#include "ktrace/tfs.h"

struct stat_args {
	char **names;		/* -B */
	bool top, all_options;
};

static const struct kt_option stat_options[] = {
	KT_STRING_LIST('B', NULL, "INSTANCE", struct stat_args, names,
		       "summarize INSTANCE (repeatable)"),
	KT_BOOL('t', NULL, struct stat_args, top, "the top instance too (with -B)"),
	KT_BOOL('o', NULL, struct stat_args, all_options, "list every option"),
	{ 0 },
};

static const struct kt_command_help stat_help = {
	.name = "stat",
	.usage = "[-B INSTANCE]... [-t] [-o]",
	.summary = "Summarize the current tracing setup.",
	.options = stat_options,
};

/* Reads FILE of the instance without trailing newlines; false when unreadable. */
static bool read_setting(const char *inst, const char *file, struct strbuf *sb)
{
	if (tfs_inst_read(inst, file, sb)) {
		strbuf_reset(sb);
		return false;
	}
	tfs_chomp(sb);
	return true;
}

/* "\nTITLE VALUE" when the file exists and holds something else than DEFAULT_VALUE. */
static void print_setting(const char *inst, const char *file, const char *def,
			  const char *title)
{
	struct strbuf sb = STRBUF_INIT;

	if (read_setting(inst, file, &sb) && sb.len && strcmp(sb.buf, def))
		printf("\n%s%s\n", title, sb.buf);
	strbuf_release(&sb);
}

/* Calls fn(dir entry name) for each subdirectory of DIR (an instance-relative path). */
static void walk_dirs(const char *inst, const char *dir_name,
		      void (*fn)(const char *name, void *arg), void *arg)
{
	struct strbuf path = STRBUF_INIT;
	struct dirent *de;
	DIR *dir = NULL;

	if (!tfs_path(&path, inst, dir_name))
		dir = opendir(path.buf);
	while (dir && (de = readdir(dir)))
		if (de->d_type == DT_DIR && strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			fn(de->d_name, arg);
	if (dir)
		closedir(dir);
	strbuf_release(&path);
}

struct event_walk {
	const char *inst;
	const char *system;
	int printed;		/* headers printed so far, per section */
	struct strbuf file;
	struct strbuf text;
	void (*per_event)(struct event_walk *w, const char *event);
};

static char enable_state(struct event_walk *w, const char *rel)
{
	strbuf_reset(&w->file);
	strbuf_addf(&w->file, "events/%s/enable", rel);
	if (!read_setting(w->inst, w->file.buf, &w->text) || !w->text.len)
		return '\0';
	return w->text.buf[0];
}

static void system_enabled(const char *system, void *arg)
{
	struct event_walk *w = arg;

	if (enable_state(w, system) != '1')
		return;
	if (!w->printed++)
		printf(" Individual systems:\n");
	printf("   %s\n", system);
}

static void event_of_walk(const char *event, void *arg)
{
	struct event_walk *w = arg;

	w->per_event(w, event);
}

static void each_event_of(const char *system, void *arg)
{
	struct event_walk *w = arg;
	struct strbuf dir = STRBUF_INIT;

	w->system = system;
	strbuf_addf(&dir, "events/%s", system);
	walk_dirs(w->inst, dir.buf, event_of_walk, w);
	strbuf_release(&dir);
}

static void event_enabled(struct event_walk *w, const char *event)
{
	struct strbuf rel = STRBUF_INIT;
	char state;

	strbuf_addf(&rel, "%s/%s", w->system, event);
	state = enable_state(w, rel.buf);
	strbuf_release(&rel);
	if (state != '1')
		return;
	if (!w->printed)
		printf(" Individual events:\n");
	if (w->printed != 2)
		printf("    %s\n", w->system);
	w->printed = 2;
	printf("        %s\n", event);
}

/* Systems not wholly on or off ('X') list their enabled events. */
static void mixed_system(const char *system, void *arg)
{
	struct event_walk *w = arg;
	char state = enable_state(w, system);

	if (state == '1' || state == '0' || !state)
		return;
	if (w->printed == 2)
		w->printed = 1;
	each_event_of(system, w);
}

static void print_events(const char *inst)
{
	struct event_walk w = { inst, NULL, 0, STRBUF_INIT, STRBUF_INIT, event_enabled };
	int systems;

	if (!read_setting(inst, "events/enable", &w.text))
		goto out;
	printf("\nEvents:\n");
	if (w.text.buf[0] == '1' || w.text.buf[0] == '0') {
		printf(" %s\n", w.text.buf[0] == '1' ? "All enabled" : "All disabled");
		goto out;
	}
	walk_dirs(inst, "events", system_enabled, &w);
	systems = w.printed;
	w.printed = 0;
	walk_dirs(inst, "events", mixed_system, &w);
	if (!systems && !w.printed)
		printf("  (none enabled)\n");
out:
	strbuf_release(&w.file);
	strbuf_release(&w.text);
}

/* One "  sys:event "text"" line per event whose FILE is set, under TITLE. */
static void event_file_line(struct event_walk *w, const char *event, const char *title,
			    bool set)
{
	if (!set)
		return;
	if (!w->printed++)
		printf("\n%s:\n", title);
	printf("  %s:%s \"%s\"\n", w->system, event, w->text.buf);
}

static void event_filter(struct event_walk *w, const char *event)
{
	strbuf_reset(&w->file);
	strbuf_addf(&w->file, "events/%s/%s/filter", w->system, event);
	event_file_line(w, event, "Filters",
			read_setting(w->inst, w->file.buf, &w->text) &&
			strcmp(w->text.buf, "none"));
}

static void event_trigger(struct event_walk *w, const char *event)
{
	strbuf_reset(&w->file);
	strbuf_addf(&w->file, "events/%s/%s/trigger", w->system, event);
	event_file_line(w, event, "Triggers",
			read_setting(w->inst, w->file.buf, &w->text) && w->text.buf[0] != '#');
}

static void print_event_files(const char *inst,
			      void (*per_event)(struct event_walk *w, const char *event))
{
	struct event_walk w = { inst, NULL, 0, STRBUF_INIT, STRBUF_INIT, per_event };

	walk_dirs(inst, "events", each_event_of, &w);
	strbuf_release(&w.file);
	strbuf_release(&w.text);
}

/* Function filter files: the lines that are not "#" comments, under TITLE. */
static void print_functions(const char *inst, const char *file, const char *title)
{
	struct strbuf sb = STRBUF_INIT;
	char *save = NULL, *line;
	bool first = true;

	if (tfs_inst_read(inst, file, &sb))
		goto out;
	for (line = strtok_r(sb.buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '#')
			continue;
		if (first)
			printf("\n%s:\n", title);
		first = false;
		printf("   %s\n", line);
	}
out:
	strbuf_release(&sb);
}

/* Per-CPU sizes when the CPUs differ (buffer_size_kb reads "X"). */
static void print_cpu_buffers(const char *inst)
{
	struct strbuf sb = STRBUF_INIT, file = STRBUF_INIT;
	int cpu;

	for (cpu = 0;; cpu++) {
		strbuf_reset(&file);
		strbuf_addf(&file, "per_cpu/cpu%d/buffer_size_kb", cpu);
		if (!read_setting(inst, file.buf, &sb))
			break;
		printf("%sCPU %d buffer size (kb): %s\n", cpu ? "" : "\n", cpu, sb.buf);
	}
	strbuf_release(&sb);
	strbuf_release(&file);
}

static void print_buffers(const char *inst)
{
	struct strbuf sb = STRBUF_INIT;

	/* Not allocated yet: nothing to say. */
	if (!read_setting(inst, "buffer_size_kb", &sb) || strstr(sb.buf, "expanded"))
		goto out;
	if (strcmp(sb.buf, "X"))
		printf("\nBuffer size in kilobytes (per cpu):\n   %s\n", sb.buf);
	else
		print_cpu_buffers(inst);
	if (read_setting(inst, "buffer_total_size_kb", &sb))
		printf("\nBuffer total size in kilobytes:\n   %s\n", sb.buf);
out:
	strbuf_release(&sb);
}

static void print_clock_and_mask(const char *inst)
{
	struct strbuf sb = STRBUF_INIT, sel = STRBUF_INIT;
	char all[128];

	if (read_setting(inst, "trace_clock", &sb) && !tfs_selected(sb.buf, &sel) &&
	    strcmp(sel.buf, "local"))
		printf("\nClock: %s\n", sel.buf);
	tfs_all_cpus_mask(all, sizeof(all));
	if (read_setting(inst, "tracing_cpumask", &sb) && strcmp(sb.buf, all))
		printf("\nCPU mask: %s\n", sb.buf);
	strbuf_release(&sb);
	strbuf_release(&sel);
}

/* Kprobe/uprobe/synthetic definitions, each line indented. */
static void print_probes(const char *inst, const char *file, const char *title)
{
	struct strbuf sb = STRBUF_INIT;
	char *save = NULL, *line;

	if (read_setting(inst, file, &sb) && sb.len) {
		printf("\n%s:\n", title);
		for (line = strtok_r(sb.buf, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save))
			printf("   %s\n", line);
	}
	strbuf_release(&sb);
}

/* Option "NAME" or "noNAME" from the options/ file's value. */
static bool option_state(const char *inst, const char *name, struct strbuf *sb, char *state)
{
	struct strbuf file = STRBUF_INIT;
	bool ok;

	strbuf_addf(&file, "options/%s", name);
	ok = read_setting(inst, file.buf, sb) && sb->len;
	*state = ok ? sb->buf[0] : '\0';
	strbuf_release(&file);
	return ok;
}

struct option_walk {
	const char *inst;
	bool all;		/* -o: every option, else those changed from the defaults */
	bool printed;
	struct strbuf sb;
};

static void print_option(struct option_walk *w, const char *name)
{
	char state;
	int def;

	if (!option_state(w->inst, name, &w->sb, &state))
		return;
	def = tfs_option_default(name, w->inst != NULL);
	if (!w->all && (def < 0 || def == state))
		return;
	if (!w->printed)
		printf(w->all ? "\nOptions:\n" : "\nOptions changed from the defaults:\n");
	w->printed = true;
	printf("   %s%s\n", state == '0' ? "no" : "", name);
}

static void print_options(const char *inst, bool all)
{
	struct option_walk w = { inst, all, false, STRBUF_INIT };
	struct strbuf path = STRBUF_INIT;
	struct dirent *de;
	DIR *dir = NULL;

	if (!tfs_path(&path, inst, "options"))
		dir = opendir(path.buf);
	while (dir && (de = readdir(dir)))
		if (de->d_name[0] != '.')
			print_option(&w, de->d_name);
	if (dir)
		closedir(dir);
	strbuf_release(&path);
	strbuf_release(&w.sb);
}

static void print_instance_names(void)
{
	char **list = NULL;
	int i;

	tfs_instances(&list);
	if (list && list[0])
		printf("\nInstances:\n");
	for (i = 0; list && list[i]; i++)
		printf(" %s\n", list[i]);
	strv_free(list);
}

static void print_pids(const char *inst)
{
	print_setting(inst, "set_event_pid", "", "Filtered event PIDs:\n");
	print_setting(inst, "set_event_notrace_pid", "", "Filtered notrace event PIDs:\n");
	print_setting(inst, "set_ftrace_pid", "no pid", "Filtered function tracer PIDs:\n");
	print_setting(inst, "set_ftrace_notrace_pid", "no pid",
		      "Filtered function tracer notrace PIDs:\n");
}

static void stat_instance(const char *inst, bool first, bool all_options)
{
	struct strbuf sb = STRBUF_INIT;

	if (inst)
		printf("%sInstance: %s\n", first ? "" : "---------------\n", inst);
	print_setting(inst, "current_tracer", "nop", "Tracer: ");
	print_events(inst);
	print_event_files(inst, event_filter);
	print_event_files(inst, event_trigger);
	print_functions(inst, "set_ftrace_filter", "Function Filter");
	print_functions(inst, "set_ftrace_notrace", "Function No Trace");
	print_functions(inst, "set_graph_function", "Function Graph Filter");
	print_functions(inst, "set_graph_notrace", "Function Graph No Trace");
	print_buffers(inst);
	print_clock_and_mask(inst);
	print_setting(inst, "tracing_max_latency", "0", "Max Latency: ");
	print_probes(inst, "kprobe_events", "Kprobe events");
	print_probes(inst, "uprobe_events", "Uprobe events");
	print_probes(inst, "synthetic_events", "Synthetic events");
	print_pids(inst);
	print_options(inst, all_options);
	read_setting(inst, "tracing_on", &sb);
	printf("\nTracing is %s\n\n", !strcmp(sb.buf, "0") ? "disabled" : "enabled");
	print_setting(inst, "error_log", "", "Error log:\n");
	if (!inst)
		print_instance_names();
	strbuf_release(&sb);
}

static void print_stack_tracer(void)
{
	struct strbuf sb = STRBUF_INIT;

	if (!tfs_read("/proc/sys/kernel/stack_tracer_enabled", &sb) && atoi(sb.buf) > 0)
		printf("Stack tracing is enabled\n\n");
	strbuf_release(&sb);
}

int cmd_stat(int argc, char **argv)
{
	struct stat_args a = { 0 };
	bool top;
	int i, ret = kt_parse_options(&stat_help, argc, argv, &a, NULL);

	if (ret) {
		strv_free(a.names);
		return ret;
	}
	for (i = 0; !ret && a.names && a.names[i]; i++) {
		if (!tracefs_instance_exists(a.names[i])) {
			fprintf(stderr, "ktrace stat: -B '%s': no such instance\n", a.names[i]);
			ret = -ENOENT;
		}
	}
	top = a.top || !a.names;
	if (!ret && top)
		stat_instance(NULL, true, a.all_options);
	for (i = 0; !ret && a.names && a.names[i]; i++)
		stat_instance(a.names[i], !top && i == 0, a.all_options);
	if (!ret)
		print_stack_tracer();
	strv_free(a.names);
	return ret ? 1 : 0;
}
