// SPDX-License-Identifier: GPL-2.0-only
/*
 * One input file of `ktrace report`, opened and set up the way trace-cmd 3.1.6 sets up each
 * handle it reads: its own tep handle with its own plugins, -t, -T, --kallsyms, its clock.
 * One file or several (report_multi.c), each goes through here.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <event-parse.h>

#include "ktrace/cursor.h"
#include "ktrace/dat.h"
#include "ktrace/log_level.h"
#include "ktrace/report.h"
#include "report_file.h"

static int load_kallsyms(struct report_file *rf, struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT;
	int fd = open(rf->o->kallsyms, O_RDONLY);

	if (fd < 0) {
		strbuf_addf(err, "Can't read file %s", rf->o->kallsyms);
		return -errno;
	}
	/* the symbols only name addresses: a failed read keeps what came before it */
	strbuf_read_fd(&sb, fd);
	close(fd);
	tep_parse_kallsyms(rf->tep, strbuf_str(&sb));
	strbuf_release(&sb);
	return 0;
}

/* Plugins must be in place before the formats are parsed: some add print helpers. */
static int prepare_tep(struct tep_handle *tep, int version, void *arg)
{
	struct report_file *rf = arg;

	/* libtracecmd's message once it has read the header, as -V and --debug show it */
	if (report_tracecmd_level(rf->o) >= KT_LOG_INFO)
		printf("version = %d\n", version);
	if (rf->o->no_plugins)
		tep_set_flag(tep, TEP_DISABLE_PLUGINS);
	if (rf->o->no_sys_plugins)
		tep_set_flag(tep, TEP_DISABLE_SYS_PLUGINS);
	rf->plugins = tep_load_plugins(tep);
	return 0;
}

static void release_tep(struct tep_handle *tep, void *arg)
{
	struct report_file *rf = arg;

	if (rf->plugins)
		tep_unload_plugins(rf->plugins, tep);
	rf->plugins = NULL;
}

int report_tracecmd_level(const struct report_opts *o)
{
	/* --debug is trace-cmd's tracecmd_set_debug(), which sets its library's level */
	return o->debug && o->log_level < KT_LOG_DEBUG ? KT_LOG_DEBUG : o->log_level;
}

void report_file_say_empty(const struct report_file *rf, int buffer)
{
	const struct dat_buffer *b = dat_file_buffer(rf->df, buffer);
	int i, cpu, top = -1;

	if (report_tracecmd_level(rf->o) < KT_LOG_INFO || !b || b->latency)
		return;
	/* trace-cmd 3.1.6 keeps CPUs by number: one the file does not list is empty too */
	for (i = 0; i < b->nr_cpus; i++)
		if (b->cpus[i].cpu > top)
			top = b->cpus[i].cpu;
	for (cpu = 0; cpu <= top; cpu++) {
		for (i = 0; i < b->nr_cpus && b->cpus[i].cpu != cpu; i++)
			;
		if (i == b->nr_cpus || !b->cpus[i].size)
			printf("CPU %d is empty\n", cpu);
	}
}

int report_file_open(struct report_file *rf, const struct report_opts *o, const char *path,
		     long long ts_offset, unsigned long long ts2secs, struct strbuf *err)
{
	struct dat_open_opts opts = {
		.ignore_date = o->nodate,
		.raw_ts = o->raw_ts,
		.ts_offset = ts_offset,
		.ts2secs_hz = ts2secs,
		.prepare_tep = prepare_tep,
		.release_tep = release_tep,
		.prepare_arg = rf,
		/*
		 * The text printer loads them before the first event that is not printed by a
		 * compiled format (report_print.c); -f lists them, --kallsyms adds to them.
		 */
		.defer_kallsyms = o->format == REPORT_FORMAT_TEXT && !o->show_funcs &&
				  !o->kallsyms,
		.decompress_ahead = true,
	};

	memset(rf, 0, sizeof(*rf));
	rf->o = o;
	/* -V: libtraceevent's own messages (plugins registered, handlers overridden) */
	if (o->log_level)
		tep_set_loglevel((enum tep_loglevel)o->log_level);
	rf->path = path;
	return dat_file_open_opts(path, &opts, &rf->df, err);
}

int report_file_setup(struct report_file *rf, struct strbuf *err)
{
	const struct report_opts *o = rf->o;

	rf->tep = dat_file_tep(rf->df);
	if (o->nsec)
		tep_set_flag(rf->tep, TEP_NSEC_OUTPUT);
	if (o->filter_test)
		tep_set_test_filters(rf->tep, 1);
	if (o->kallsyms) {
		int ret = load_kallsyms(rf, err);

		if (ret)
			return ret;
	}
	report_clock_init(&rf->clock, rf->df, o);
	return 0;
}

/*
 * plugin_function prints the time of a func_repeats event's last call with the format in its
 * variable tep_func_repeat_format, which trace-cmd overrides to match its own timestamps.
 * Plugins are loaded RTLD_GLOBAL, so the variable can be found and set the same way.
 */
void report_file_repeat_format(const struct report_file *rf)
{
	const char **fmt = dlsym(RTLD_DEFAULT, "tep_func_repeat_format");

	if (!fmt)
		return;
	if (rf->o->raw_ts)
		*fmt = "%d";
	else if (rf->clock.unit == REPORT_TIME_NSECS)
		*fmt = "%9.1d";
	else if (rf->clock.unit == REPORT_TIME_USECS)
		*fmt = "%6.1000d";
	else
		*fmt = "%12d";
}

/* trace-cmd's tracecmd_get_first_ts(): the earliest first page among the top buffer's CPUs */
static int first_ts(struct dat_file *df, uint64_t *ts, struct strbuf *err)
{
	const struct dat_buffer *top = dat_file_nr_buffers(df) ? dat_file_buffer(df, 0) : NULL;
	bool found = false;
	uint64_t t;
	int i, ret;

	*ts = 0;
	for (i = 0; top && !top->latency && i < top->nr_cpus; i++) {
		if (!top->cpus[i].size)
			continue;
		ret = cpu_cursor_first_page_ts(df, 0, i, &t, err);
		if (ret < 0)
			return ret;
		if (ret && (!found || t < *ts))
			*ts = t;
		found = found || ret;
	}
	return 0;
}

int report_align_ts(struct dat_file **files, int nr, struct strbuf *err)
{
	uint64_t ts, first = 0;
	int i, ret;

	for (i = 0; i < nr; i++) {
		ret = first_ts(files[i], &ts, err);
		if (ret)
			return ret;
		if (!i || ts < first)
			first = ts;
	}
	for (i = 0; i < nr; i++)
		dat_file_add_ts_offset(files[i], -(int64_t)first);
	return 0;
}

void report_file_close(struct report_file *rf)
{
	dat_file_close(rf->df);
	rf->df = NULL;
}
