// SPDX-License-Identifier: GPL-2.0-only
/*
 * ktrace stat: a readable summary of how tracing is set up now, per instance: tracer,
 * enabled events with their filters and triggers, pid lists, buffer sizes, clock, CPU mask,
 * options that differ from the boot defaults, and whether tracing is on.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tracefs.h>

#include "ktrace/command.h"
#include "ktrace/options.h"
#include "control_args.h"
#include "plan_internal.h"
#include "tracefs_defaults.h"

static const struct kt_option stat_options[] = {
	{ 'B', NULL, KT_ARG_REQUIRED, "INSTANCE", "summarize INSTANCE (repeatable)" },
	{ 't', NULL, KT_ARG_NONE, NULL, "the top instance too (with -B)" },
	{ 'o', NULL, KT_ARG_NONE, NULL, "list every option, not only those changed" },
	{ 0 },
};

static const struct kt_command_help stat_help = {
	"stat", "[-B INSTANCE]... [-t] [-o]",
	"Summarize the current tracing setup.",
	stat_options,
};

/* Reads FILE of the instance without its trailing newline; "" when unreadable. */
static void read_setting(const char *inst, const char *file, struct strbuf *sb)
{
	if (tfs_inst_read(inst, file, sb))
		strbuf_reset(sb);
	tfs_chomp(sb);
}

static void print_events(const char *inst)
{
	struct strbuf sb = STRBUF_INIT;
	char *save = NULL, *line;

	read_setting(inst, "set_event", &sb);
	printf("\nEvents:\n");
	if (!sb.len)
		printf(" All disabled\n");
	for (line = strtok_r(sb.buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		printf("   %s\n", line);
	strbuf_release(&sb);
}

/* The filters and triggers that are set, each section gathered over all events. */
struct event_scan {
	const char *inst;
	struct strbuf filters;
	struct strbuf triggers;
};

static void scan_event(const char *sys, const char *ev, void *arg)
{
	struct event_scan *s = arg;
	struct strbuf file = STRBUF_INIT, sb = STRBUF_INIT;
	char *save = NULL, *line;

	strbuf_addf(&file, "events/%s/%s/filter", sys, ev);
	read_setting(s->inst, file.buf, &sb);
	if (sb.len && strcmp(sb.buf, "none"))
		strbuf_addf(&s->filters, "   %s:%s %s\n", sys, ev, sb.buf);
	strbuf_reset(&file);
	strbuf_addf(&file, "events/%s/%s/trigger", sys, ev);
	read_setting(s->inst, file.buf, &sb);
	for (line = strtok_r(sb.buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (line[0] != '#')
			strbuf_addf(&s->triggers, "   %s:%s %s\n", sys, ev, line);
	strbuf_release(&file);
	strbuf_release(&sb);
}

static void print_filters_triggers(const char *inst)
{
	struct event_scan s = { inst, STRBUF_INIT, STRBUF_INIT };

	tfs_for_each_event(scan_event, &s);
	if (s.filters.len)
		printf("\nEvent filters:\n%s", s.filters.buf);
	if (s.triggers.len)
		printf("\nEvent triggers:\n%s", s.triggers.buf);
	strbuf_release(&s.filters);
	strbuf_release(&s.triggers);
}

/* Prints "\nTITLE:\n   VALUE" when the file is not empty (and not DEFAULT_VALUE). */
static void print_setting(const char *inst, const char *file, const char *title,
			  const char *default_value)
{
	struct strbuf sb = STRBUF_INIT;

	read_setting(inst, file, &sb);
	if (sb.len && (!default_value || strcmp(sb.buf, default_value)))
		printf("\n%s:\n   %s\n", title, sb.buf);
	strbuf_release(&sb);
}

/*
 * Function filters, when the kernel lets us read them (under lockdown it does not, and then
 * none can be set either). An empty filter file reads as a "#### all functions" comment.
 */
static void print_function_filters(const char *inst)
{
	static const char *const files[][2] = {
		{ "set_ftrace_filter", "Function filter" },
		{ "set_ftrace_notrace", "Function notrace" },
		{ "set_graph_function", "Graph functions" },
		{ "set_graph_notrace", "Graph notrace" },
		{ "set_ftrace_pid", "Function pid filter" },
	};
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		read_setting(inst, files[i][0], &sb);
		if (sb.len && sb.buf[0] != '#' && strcmp(sb.buf, "no pid"))
			printf("\n%s:\n   %s\n", files[i][1], sb.buf);
	}
	strbuf_release(&sb);
}

static void print_clock(const char *inst)
{
	struct strbuf sb = STRBUF_INIT, sel = STRBUF_INIT;

	read_setting(inst, "trace_clock", &sb);
	if (!tfs_selected(sb.buf, &sel) && strcmp(sel.buf, "local"))
		printf("\nClock:\n   %s\n", sel.buf);
	strbuf_release(&sb);
	strbuf_release(&sel);
}

/* trace_options lists "noNAME" for an option that is off. */
static bool differs_from_default(const char *inst, const char *word, struct strbuf *path)
{
	const char *name = word;
	char state = '1';
	int def;

	if (!strncmp(word, "no", 2)) {
		strbuf_reset(path);
		strbuf_addf(path, "options/%s", word + 2);
		if (!tfs_path(path, inst, path->buf) && !access(path->buf, F_OK)) {
			name = word + 2;
			state = '0';
		}
	}
	def = tracefs_option_default(name, inst != NULL);
	return def >= 0 && def != state;
}

static void print_options(const char *inst, bool all)
{
	struct strbuf sb = STRBUF_INIT, path = STRBUF_INIT;
	char *save = NULL, *w;
	bool header = false;

	read_setting(inst, "trace_options", &sb);
	for (w = strtok_r(sb.buf, " \n", &save); w; w = strtok_r(NULL, " \n", &save)) {
		if (!all && !differs_from_default(inst, w, &path))
			continue;
		if (!header)
			printf("\nOptions%s:\n", all ? "" : " (changed from the defaults)");
		header = true;
		printf("   %s\n", w);
	}
	strbuf_release(&sb);
	strbuf_release(&path);
}

static void print_cpumask(const char *inst)
{
	char all[128];

	tracefs_all_cpus_mask(all, sizeof(all));
	print_setting(inst, "tracing_cpumask", "CPU mask", all);
}

static void stat_instance(const char *inst, bool all_options)
{
	struct strbuf sb = STRBUF_INIT;

	if (inst)
		printf("\nInstance: %s\n", inst);
	print_setting(inst, "current_tracer", "Tracer", "nop");
	print_events(inst);
	print_filters_triggers(inst);
	print_function_filters(inst);
	print_setting(inst, "set_event_pid", "Event pid filter", NULL);
	print_setting(inst, "set_event_notrace_pid", "Event pids not traced", NULL);
	print_setting(inst, "buffer_size_kb", "Buffer size in kilobytes (per cpu)", NULL);
	print_setting(inst, "buffer_total_size_kb", "Buffer total size in kilobytes", NULL);
	print_clock(inst);
	print_cpumask(inst);
	print_options(inst, all_options);
	read_setting(inst, "tracing_on", &sb);
	printf("\nTracing is %s\n", !strcmp(sb.buf, "0") ? "disabled" : "enabled");
	strbuf_release(&sb);
}

static void print_instance_names(void)
{
	char **list = tracefs_instances(NULL);
	int i;

	if (list && list[0])
		printf("\nInstances:\n");
	for (i = 0; list && list[i]; i++)
		printf("   %s\n", list[i]);
	tracefs_list_free(list);
}

int cmd_stat(int argc, char **argv)
{
	struct control_args a;
	int i, ret = control_args_parse(&stat_help, argc, argv, &a);

	for (i = 0; !ret && a.names && a.names[i]; i++) {
		if (!tracefs_instance_exists(a.names[i])) {
			fprintf(stderr, "ktrace stat: -B '%s': no such instance\n", a.names[i]);
			ret = -ENOENT;
		}
	}
	if (!ret && (a.seen['t'] || !a.names)) {
		stat_instance(NULL, a.seen['o']);
		print_instance_names();
	}
	for (i = 0; !ret && a.names && a.names[i]; i++)
		stat_instance(a.names[i], a.seen['o']);
	plan_strv_free(a.names);
	return ret == PLAN_HELP_SHOWN ? 0 : ret ? 1 : 0;
}
