// SPDX-License-Identifier: GPL-2.0-only
/*
 * `ktrace report -i A -i B ...`: the events of several files merged by time into one listing,
 * as trace-cmd 3.1.6 prints it (a host and a guest side by side). Each file keeps its own tep
 * handle, plugins, clock, filters and printer; every line starts with the file's base name (an
 * instance's own name for its buffers) right-aligned to the longest name. One file does not
 * come through here: cmd_report.c prints it with one stream and one printer.
 *
 * trace-cmd's order, which the merge keeps: its handles are the files' top buffers in
 * command-line order, then each file's instances; an equal time goes to the earlier handle,
 * then to the lower CPU. --cpu counts the CPUs of all those handles in that order.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "ktrace/dat.h"
#include "ktrace/report.h"
#include "report_file.h"
#include "report_info.h"
#include "report_opts.h"
#include "report_print.h"
#include "report_stream.h"

struct multi_file {
	struct report_file rf;
	const char *name;		/* the base name of the path */
	struct report_filter *filter;
	struct report_stream *stream;
	struct report_printer *printer;
	int *rank;			/* by buffer: its handle's place in trace-cmd's order */
	int *slot_base;			/* by buffer: its first CPU slot */
	uint64_t head_ts;		/* the next event, when have_head */
	int head_buffer;
	bool have_head;
};

struct multi {
	const struct report_opts *o;
	struct multi_file *files;
	int nr;
	int width;			/* of the name column */
};

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

static void widen(struct multi *m, const char *name)
{
	int len = name ? (int)strlen(name) : 0;

	if (len > m->width)
		m->width = len;
}

static int open_one(struct multi *m, int i, struct strbuf *err)
{
	const struct report_opts *o = m->o;
	const struct report_input *in = i ? &o->more_inputs[i - 1] : NULL;
	struct multi_file *mf = &m->files[i];
	const char *path = in ? in->path : o->input;
	int ret;

	ret = report_file_open(&mf->rf, o, path, in ? in->ts_offset : 0,
			       in && in->ts2secs ? in->ts2secs : o->ts2secs, err);
	if (ret) {
		if (!err->len)
			strbuf_addf(err, "%s: %s", path, strerror(-ret));
		return ret;
	}
	if (dat_file_incomplete(mf->rf.df))
		fprintf(stderr, "ktrace report: %s: incomplete recording (%s)\n", path,
			dat_file_incomplete(mf->rf.df));
	mf->name = base_name(path);
	widen(m, mf->name);
	return report_file_setup(&mf->rf, err);
}

/* --cpus, --first-event, --last-event: each file's list, as each file is read. */
static int list_cpus(struct multi *m, struct strbuf *err)
{
	int i, ret = 0;

	for (i = 0; i < m->nr && !ret; i++) {
		ret = open_one(m, i, err);
		if (!ret)
			ret = report_print_cpus(m->files[i].rf.df, m->o, &m->files[i].rf.clock,
						stdout, err);
	}
	return ret;
}

static void put_name(const struct multi *m, const char *name)
{
	if (name && *name)
		printf("%*s: ", m->width, name);
	else
		printf("%*s  ", m->width, "");
}

/* The file's filters: its own -F; --pid and --comm are the first file's, as in trace-cmd. */
static int make_filter(struct multi *m, int i, struct strbuf *err)
{
	struct report_opts fo = *m->o;
	int ret;

	if (i) {
		fo.filters = m->o->more_inputs[i - 1].filters;
		fo.nr_filters = m->o->more_inputs[i - 1].nr_filters;
		fo.pids = fo.comms = NULL;
	}
	ret = report_filter_new(m->files[i].rf.tep, &fo, &m->files[i].filter, err);
	return ret == -EINVAL || ret == -EBADMSG ? REPORT_ERR_USAGE : ret;
}

/*
 * What trace-cmd prints of a file before the events: its "cpus=N" line (the name column only
 * as wide as the names known by then: the instance names of a file come in once its line is
 * out, and not at all with --stat/--uname/--version), or the text of those. 1 when -T stops.
 */
static int start_file(struct multi *m, int i, struct strbuf *err)
{
	const struct report_opts *o = m->o;
	struct multi_file *mf = &m->files[i];
	struct dat_file *df = mf->rf.df;
	const struct dat_buffer *top = dat_file_nr_buffers(df) ? dat_file_buffer(df, 0) : NULL;
	int b, ret = make_filter(m, i, err);

	if (ret)
		return ret;
	if (o->filter_test && report_filter_has_event_filters(mf->filter))
		return 1;
	put_name(m, mf->name);
	printf("cpus=%d\n", dat_file_nr_cpus(df));
	if (top && top->latency) {
		strbuf_addf(err, "%s: latency traces do not work with multiple inputs",
			    mf->rf.path);
		return REPORT_ERR_USAGE;
	}
	if (o->version) {
		report_print_version(df, stdout);
	} else if (o->uname) {
		report_print_uname(df, stdout);
		report_print_version(df, stdout);
	} else if (o->stat) {
		return report_print_stat(df, stdout, err);
	}
	if (o->version || o->uname)
		return 0;
	for (b = 1; b < dat_file_nr_buffers(df); b++) {
		const char *name = dat_file_buffer(df, b)->name;

		widen(m, base_name(name ? name : ""));
	}
	return 0;
}

/* Each buffer's place among trace-cmd's handles, and its CPU slots. */
static int number_buffers(struct multi *m)
{
	int i, b, rank = m->nr, slot = 0;

	for (i = 0; i < m->nr; i++) {
		struct multi_file *mf = &m->files[i];
		int n = dat_file_nr_buffers(mf->rf.df);

		mf->rank = calloc(n ? n : 1, sizeof(*mf->rank));
		mf->slot_base = calloc(n ? n : 1, sizeof(*mf->slot_base));
		if (!mf->rank || !mf->slot_base)
			return -ENOMEM;
		mf->rank[0] = i;
		mf->slot_base[0] = slot;
		if (n)
			slot += report_buffer_slots(mf->rf.df, 0);
	}
	for (i = 0; i < m->nr; i++) {
		struct multi_file *mf = &m->files[i];

		for (b = 1; b < dat_file_nr_buffers(mf->rf.df); b++) {
			mf->rank[b] = rank++;
			mf->slot_base[b] = slot;
			slot += report_buffer_slots(mf->rf.df, b);
		}
	}
	return 0;
}

static int open_printers(struct multi *m, struct strbuf *err)
{
	int i, ret = number_buffers(m);

	for (i = 0; i < m->nr && !ret; i++) {
		struct multi_file *mf = &m->files[i];
		struct report_printer_conf conf = {
			.opts = m->o, .clock = mf->rf.clock, .prefix = true,
			.prefix_width = m->width, .top_name = mf->name,
			.first = m->files[0].printer,
		};

		ret = report_stream_open_pages(mf->rf.df, m->o->boundary, &mf->stream, err);
		conf.stream = mf->stream;
		if (!ret)
			ret = report_printer_new(mf->rf.df, &conf, &mf->printer, err);
	}
	return ret;
}

/* The file whose event comes next: 1 with *next set, 0 at the end, negative errno. */
static int next_file(struct multi *m, struct multi_file **next, struct strbuf *err)
{
	struct multi_file *best = NULL;
	int i, ret;

	for (i = 0; i < m->nr; i++) {
		struct multi_file *mf = &m->files[i];

		if (!mf->have_head) {
			ret = report_stream_head(mf->stream, &mf->head_ts, &mf->head_buffer, err);
			if (ret < 0)
				return ret;
			if (!ret)
				continue;
			mf->have_head = true;
		}
		if (!best || mf->head_ts < best->head_ts ||
		    (mf->head_ts == best->head_ts &&
		     mf->rank[mf->head_buffer] < best->rank[best->head_buffer]))
			best = mf;
	}
	*next = best;
	return best ? 1 : 0;
}

static int print_events(struct multi *m, struct strbuf *err)
{
	struct report_printer *last = NULL;
	struct multi_file *mf;
	struct report_event ev;
	int i, ret;

	while ((ret = next_file(m, &mf, err)) > 0) {
		mf->have_head = false;
		ret = report_stream_next(mf->stream, &ev, err);
		if (ret <= 0)
			break;
		ev.cpu_slot = mf->slot_base[ev.buffer] + ev.record->cpu;
		if (!report_filter_keep(mf->filter, &ev))
			continue;
		if (last && last != mf->printer)
			report_printer_switch(last, mf->printer);
		last = mf->printer;
		ret = report_print_event(mf->printer, &ev, stdout);
		if (ret)
			break;
	}
	for (i = 0; i < m->nr && !ret; i++)
		ret = dat_file_kallsyms_error(m->files[i].rf.df, err);
	return ret;
}

static int print_all(struct multi *m, struct strbuf *err)
{
	const struct report_opts *o = m->o;
	struct dat_file **dfs;
	int i, ret = 0;

	for (i = 0; i < m->nr && !ret; i++)
		ret = start_file(m, i, err);
	if (ret || o->version || o->uname || o->stat)
		return ret > 0 ? 0 : ret;
	if (o->align_ts) {
		dfs = calloc(m->nr, sizeof(*dfs));
		if (!dfs)
			return -ENOMEM;
		for (i = 0; i < m->nr; i++)
			dfs[i] = m->files[i].rf.df;
		ret = report_align_ts(dfs, m->nr, err);
		free(dfs);
		if (ret)
			return ret;
	}
	ret = open_printers(m, err);
	return ret ? ret : print_events(m, err);
}

static void close_all(struct multi *m)
{
	int i;

	for (i = 0; i < m->nr; i++)
		if (m->files[i].printer)
			report_printer_finish(m->files[i].printer, stdout);
	/* the last first: the later printers use the first one's options */
	for (i = m->nr - 1; i >= 0; i--) {
		struct multi_file *mf = &m->files[i];

		report_printer_free(mf->printer);
		report_stream_close(mf->stream);
		report_filter_free(mf->filter);
		free(mf->rank);
		free(mf->slot_base);
		report_file_close(&mf->rf);
	}
	free(m->files);
}

int report_multi_print(const struct report_opts *o, bool *opened, struct strbuf *err)
{
	struct multi m = { .o = o, .nr = 1 + o->nr_more_inputs };
	int i, ret = 0;

	m.files = calloc(m.nr, sizeof(*m.files));
	if (!m.files)
		return -ENOMEM;
	if (o->show_cpus) {
		ret = list_cpus(&m, err);
	} else {
		for (i = 0; i < m.nr && !ret; i++)
			ret = open_one(&m, i, err);
		*opened = !ret;
		if (!ret) {
			report_file_repeat_format(&m.files[m.nr - 1].rf);
			ret = print_all(&m, err);
		}
	}
	close_all(&m);
	return ret;
}
