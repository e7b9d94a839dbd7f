// SPDX-License-Identifier: GPL-2.0-only
/*
 * `ktrace split`: cuts a trace.dat into files by time, events or pages, as trace-cmd 3.1.6
 * split does: each file has the input's metadata (through the one writer), the top instance's
 * events of its piece, and names PREFIX.1, or with -r PREFIX.0001, PREFIX.0002... Every file is
 * written under a temp name in its folder and renamed once complete.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "ktrace/command.h"
#include "ktrace/dat.h"
#include "ktrace/dat_copy.h"
#include "ktrace/dat_format.h"
#include "ktrace/dat_writer.h"
#include "ktrace/options.h"
#include "split.h"

struct split_args {
	const char *input;
	const char *output;
	int secs, msecs, usecs, events, pages;
	bool repeat, per_cpu;
	int only_cpu;
};

#define SPLIT_COUNT(ID, ARG, MEMBER, HELP) \
	KT_INT(ID, NULL, ARG, struct split_args, MEMBER, 1, 0x7fffffff, HELP)

static const struct kt_option split_options_table[] = {
	KT_STRING('i', NULL, "FILE", struct split_args, input, "read FILE (default trace.dat)"),
	KT_STRING('o', NULL, "PREFIX", struct split_args, output,
		  "name the files PREFIX.N (default: the input's name)"),
	SPLIT_COUNT('s', "SECS", secs, "end a file SECS seconds after its first event"),
	SPLIT_COUNT('m', "MS", msecs, "end a file MS milliseconds after its first event"),
	SPLIT_COUNT('u', "US", usecs, "end a file US microseconds after its first event"),
	SPLIT_COUNT('e', "EVENTS", events, "end a file after EVENTS events"),
	SPLIT_COUNT('p', "PAGES", pages, "end a file after PAGES pages of each CPU (sets -c)"),
	KT_BOOL('r', NULL, struct split_args, repeat, "repeat until END or the end of the data"),
	KT_BOOL('c', NULL, struct split_args, per_cpu, "cut each CPU on its own"),
	KT_INT('C', NULL, "CPU", struct split_args, only_cpu, 0, 0x7fffffff,
	       "only the events of CPU"),
	{ 0 }
};

static const struct kt_command_help split_help = {
	.name = "split",
	.usage = "[-i FILE] [-o PREFIX] [-s SECS|-m MS|-u US|-e EVENTS|-p PAGES] [-r] [-c] "
		 "[-C CPU] [START [END]]",
	.summary = "Cut a trace.dat into smaller files, as trace-cmd split does.",
	.options = split_options_table,
};

/* What one run needs besides the arguments: the input, its lanes, each CPU's pages. */
struct split_run {
	struct dat_file *df;
	const struct dat_buffer *top;
	struct split_rules rules;
	uint64_t start;
	struct split_lane **lanes;
	int nr_lanes;
	struct split_pages **pages;	/* by CPU number */
	int nr_pages;
	char *dir;			/* the output's folder */
	struct strbuf err;
};

static int pick_rules(const struct split_args *a, struct split_rules *r)
{
	const struct { int value; enum split_unit unit; const char *flag; } units[] = {
		{ a->secs, SPLIT_SECONDS, "-s" }, { a->msecs, SPLIT_MSECS, "-m" },
		{ a->usecs, SPLIT_USECS, "-u" }, { a->events, SPLIT_EVENTS, "-e" },
		{ a->pages, SPLIT_PAGES, "-p" },
	};
	size_t i;

	r->unit = SPLIT_NONE;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (!units[i].value)
			continue;
		if (r->unit != SPLIT_NONE)
			return kt_usage_error("split", units[i].flag, NULL,
					      "only one of -s, -m, -u, -e, -p may be given");
		r->unit = units[i].unit;
		r->count = (uint64_t)units[i].value;
	}
	return 0;
}

/* START or END: seconds as report prints them, to ns as trace-cmd converts them. */
static int parse_time(const char *arg, const char *what, uint64_t *ns)
{
	char *end;
	double secs;

	errno = 0;
	secs = strtod(arg, &end);
	if (!*arg || *end || errno || secs < 0 || secs > 1.8e10)
		return kt_usage_error("split", what, arg, "is not a time in seconds");
	*ns = (uint64_t)(secs * 1000000000.0);
	return 0;
}

static int parse_args(struct split_args *a, struct split_run *run, int argc, char **argv)
{
	int first, ret;

	a->only_cpu = -1;
	ret = kt_parse_options(&split_help, argc, argv, a, &first);
	if (ret)
		return ret;
	ret = pick_rules(a, &run->rules);
	if (ret)
		return ret;
	if (argc - first > 2)
		return kt_usage_error("split", argv[first + 2], NULL,
				      "is one argument too many: split [START [END]]");
	if (first < argc)
		ret = parse_time(argv[first], "START", &run->start);
	if (!ret && first + 1 < argc) {
		ret = parse_time(argv[first + 1], "END", &run->rules.end);
		if (!ret && run->rules.end < run->start)
			ret = kt_usage_error("split", "END", argv[first + 1],
					     "is before START");
	}
	if (!a->input)
		a->input = "trace.dat";
	if (!a->output)
		a->output = a->input;
	if (a->pages)
		a->per_cpu = true;	/* pages only make sense per CPU */
	return ret;
}

static int fail(struct split_run *run, int ret)
{
	fprintf(stderr, "ktrace split: %s\n", strbuf_str(&run->err));
	return ret;
}

/* The CPU count the input declares: its CPUCOUNT option, or what the reader counts. */
static int input_cpus(struct dat_file *df)
{
	uint32_t size, n;
	const void *p = dat_file_option(df, DAT_OPT_CPUCOUNT, 0, &size);

	if (p && size == 4) {
		memcpy(&n, p, 4);
		return (int)n;
	}
	if (dat_file_version(df) < 7)
		return (int)dat_file_meta(df)->v6_cpus;
	return dat_file_nr_cpus(df);
}

static int open_input(const struct split_args *a, struct split_run *run)
{
	int ret, i, max = 0;

	ret = dat_file_open(a->input, &run->df, &run->err);
	if (ret)
		return ret;
	if (dat_file_latency_text(run->df, NULL)) {
		strbuf_addf(&run->err, "%s: a latency trace has no events to split", a->input);
		return -EINVAL;
	}
	run->top = dat_file_nr_buffers(run->df) ? dat_file_buffer(run->df, 0) : NULL;
	if (!run->top || run->top->name[0]) {
		strbuf_addf(&run->err, "%s: no top instance to split", a->input);
		return -EINVAL;
	}
	for (i = 0; i < run->top->nr_cpus; i++)
		if (run->top->cpus[i].cpu + 1 > max)
			max = run->top->cpus[i].cpu + 1;
	if (a->only_cpu >= 0) {
		for (i = 0; i < run->top->nr_cpus; i++)
			if (run->top->cpus[i].cpu == a->only_cpu)
				break;
		if (i == run->top->nr_cpus) {
			strbuf_addf(&run->err, "-C %d: %s has no data of that CPU", a->only_cpu,
				    a->input);
			return -EINVAL;
		}
	}
	run->nr_pages = max;
	return 0;
}

static int open_lanes(const struct split_args *a, struct split_run *run)
{
	struct split_pages_config cfg = {
		.page_size = run->top->page_size,
		.long_size = dat_file_long_size(run->df),
		.comp = dat_file_version(run->df) >= 7 ? dat_file_compression(run->df) :
			KT_COMP_NONE,
		.dir = run->dir,
	};
	int i, ret = 0;

	run->pages = calloc((size_t)run->nr_pages + 1, sizeof(*run->pages));
	run->lanes = calloc((size_t)run->top->nr_cpus + 1, sizeof(*run->lanes));
	if (!run->pages || !run->lanes) {
		strbuf_addf(&run->err, "out of memory");
		return -ENOMEM;
	}
	for (i = 0; !ret && i < run->top->nr_cpus; i++)
		ret = split_pages_new(&cfg, &run->pages[run->top->cpus[i].cpu], &run->err);
	if (!ret && !a->per_cpu && a->only_cpu < 0)
		ret = split_lane_open_merged(run->df, &run->lanes[run->nr_lanes++], &run->err);
	for (i = 0; !ret && (a->per_cpu || a->only_cpu >= 0) && i < run->top->nr_cpus; i++) {
		if (a->only_cpu >= 0 && run->top->cpus[i].cpu != a->only_cpu)
			continue;
		ret = split_lane_open_cpu(run->df, i, &run->lanes[run->nr_lanes++], &run->err);
	}
	return ret;
}

/* The piece's CPU data, metadata first, into fd. */
static int write_piece(struct split_run *run, int fd)
{
	const struct dat_buffer *top = run->top;
	struct dat_writer_config cfg = {
		.version = dat_file_version(run->df) >= 7 ? 7 : 6,
		.compression = dat_file_version(run->df) >= 7 ? dat_file_compression(run->df) :
			       KT_COMP_NONE,
		.page_size = dat_file_page_size(run->df),
	};
	struct dat_cpu_source *cpus;
	struct dat_buffer_source buf = {
		.name = "", .clock = top->clock ? top->clock : "local",
		.page_size = top->page_size, .nr_cpus = top->nr_cpus,
	};
	struct dat_writer *w = NULL;
	int i, ret;

	cpus = calloc((size_t)top->nr_cpus + 1, sizeof(*cpus));
	if (!cpus) {
		strbuf_addf(&run->err, "out of memory");
		return -ENOMEM;
	}
	for (i = 0; i < top->nr_cpus; i++) {
		cpus[i] = *split_pages_source(run->pages[top->cpus[i].cpu]);
		cpus[i].cpu = top->cpus[i].cpu;
	}
	buf.cpus = cpus;
	ret = dat_writer_open(fd, &cfg, &w, &run->err);
	if (!ret)
		ret = dat_copy_metadata(run->df, w, &run->err);
	if (!ret)
		ret = dat_writer_cpu_count(w, input_cpus(run->df));
	if (ret && !run->err.len)
		strbuf_addf(&run->err, "writing the metadata: %s", strerror(-ret));
	if (!ret)
		ret = dat_writer_buffers(w, &buf, 1, &run->err);
	if (!ret)
		ret = dat_writer_finish(w, &run->err);
	dat_writer_free(w);
	free(cpus);
	return ret;
}

/* Cuts the next piece of every lane and writes it as `name`, through a temp file. */
static int split_piece(struct split_run *run, const char *name, uint64_t start)
{
	char *tmp = NULL;
	int i, fd, ret = 0;

	for (i = 0; !ret && i < run->nr_pages; i++)
		if (run->pages[i])
			ret = split_pages_reset(run->pages[i], &run->err);
	for (i = 0; !ret && i < run->nr_lanes; i++)
		ret = split_lane_cut(run->lanes[i], &run->rules, start, run->pages,
				     run->nr_pages, &run->err);
	for (i = 0; !ret && i < run->nr_pages; i++)
		if (run->pages[i])
			ret = split_pages_flush(run->pages[i], &run->err);
	if (ret)
		return ret;
	if (asprintf(&tmp, "%s.XXXXXX", name) < 0) {
		strbuf_addf(&run->err, "out of memory");
		return -ENOMEM;
	}
	fd = mkstemp(tmp);
	if (fd < 0) {
		ret = -errno;
		strbuf_addf(&run->err, "%s: %s", tmp, strerror(errno));
		free(tmp);
		return ret;
	}
	ret = write_piece(run, fd);
	if (!ret && fchmod(fd, 0644))
		ret = -errno;
	if (close(fd) && !ret)
		ret = -errno;
	if (!ret && rename(tmp, name))
		ret = -errno;
	if (ret) {
		if (!run->err.len)
			strbuf_addf(&run->err, "%s: %s", name, strerror(-ret));
		unlink(tmp);
	}
	free(tmp);
	return ret;
}

/* Whether any lane has an event left for another piece: 1, 0, negative errno. */
static int more(struct split_run *run)
{
	int i, ret = 0;

	for (i = 0; ret == 0 && i < run->nr_lanes; i++)
		ret = split_lane_more(run->lanes[i], run->rules.end, &run->err);
	return ret;
}

static int run_split(const struct split_args *a, struct split_run *run)
{
	char *copy, *name;
	size_t room = strlen(a->output) + 32;
	uint64_t start = run->start;
	int piece = 1, ret;

	copy = strdup(a->output);
	name = malloc(room);
	run->dir = copy ? strdup(dirname(copy)) : NULL;
	free(copy);
	if (!name || !run->dir) {
		free(name);
		strbuf_addf(&run->err, "out of memory");
		return -ENOMEM;
	}
	ret = open_lanes(a, run);
	if (ret)
		goto out;
	do {
		if (a->repeat)
			snprintf(name, room, "%s.%04d", a->output, piece++);
		else
			snprintf(name, room, "%s.1", a->output);
		ret = split_piece(run, name, start);
		start = 0;
		if (!ret && a->repeat)
			ret = more(run);
	} while (ret == 1);
out:
	free(name);
	return ret < 0 ? ret : 0;
}

int cmd_split(int argc, char **argv)
{
	struct split_args a = { 0 };
	struct split_run run = { .err = STRBUF_INIT };
	int ret, i;

	ret = parse_args(&a, &run, argc, argv);
	if (ret)
		return ret;
	ret = open_input(&a, &run);
	if (!ret)
		ret = run_split(&a, &run);
	if (ret)
		fail(&run, ret);
	for (i = 0; run.lanes && i < run.nr_lanes; i++)
		split_lane_close(run.lanes[i]);
	for (i = 0; run.pages && i < run.nr_pages; i++)
		split_pages_free(run.pages[i]);
	free(run.lanes);
	free(run.pages);
	free(run.dir);
	if (run.df)
		dat_file_close(run.df);
	strbuf_release(&run.err);
	return ret ? (ret == -EINVAL ? KT_ERR_USAGE : 1) : 0;
}
