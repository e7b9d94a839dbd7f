// SPDX-License-Identifier: GPL-2.0-only
/*
 * Cutting a stream of events into pieces as trace-cmd split means it: a piece starts at its
 * first event (or at START) and ends before the event that passes its time span, after its
 * count of events, or before the event that would start one page too many; END ends the last.
 * The event that ended a piece starts the next one, so that no event falls between two pieces
 * (trace-cmd 3.1.6 loses it when its CPU had no event in the piece).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "ktrace/cursor.h"
#include "ktrace/dat.h"
#include "ktrace/merge.h"
#include "split.h"

struct split_lane {
	struct merge *merge;
	struct cpu_cursor *cursor;
	struct split_event ev;
	bool pending;		/* ev holds the lane's next event */
	bool done;		/* nothing more: the end of the data, or past END */
};

static int lane_new(struct split_lane **out)
{
	*out = calloc(1, sizeof(**out));
	return *out ? 0 : -ENOMEM;
}

int split_lane_open_merged(struct dat_file *df, struct split_lane **out, struct strbuf *err)
{
	int nr = dat_file_nr_buffers(df);
	struct merge_options opts = { 0 };
	bool *top;
	int ret;

	top = calloc((size_t)nr + 1, sizeof(*top));
	ret = top ? lane_new(out) : -ENOMEM;
	if (ret) {
		free(top);
		strbuf_addf(err, "out of memory");
		return ret;
	}
	top[0] = true;
	opts.buffer_filter = top;
	opts.nr_buffer_filter = nr;
	ret = merge_open(df, &opts, &(*out)->merge, err);
	free(top);
	if (ret) {
		free(*out);
		*out = NULL;
	}
	return ret;
}

int split_lane_open_cpu(struct dat_file *df, int cpu_index, struct split_lane **out,
			struct strbuf *err)
{
	int ret = lane_new(out);

	if (ret) {
		strbuf_addf(err, "out of memory");
		return ret;
	}
	ret = cpu_cursor_open(df, 0, cpu_index, &(*out)->cursor, err);
	if (ret) {
		free(*out);
		*out = NULL;
	}
	return ret;
}

void split_lane_close(struct split_lane *l)
{
	if (!l)
		return;
	if (l->merge)
		merge_close(l->merge);
	if (l->cursor)
		cpu_cursor_close(l->cursor);
	free(l->ev.data);
	free(l);
}

static int keep(struct split_lane *l, const struct tep_record *rec, int cpu)
{
	uint32_t size = rec->size > 0 ? (uint32_t)rec->size : 0;

	if (size > l->ev.cap) {
		uint8_t *data = realloc(l->ev.data, size);

		if (!data)
			return -ENOMEM;
		l->ev.data = data;
		l->ev.cap = size;
	}
	if (size)
		memcpy(l->ev.data, rec->data, size);
	l->ev.size = size;
	l->ev.ts = rec->ts;
	l->ev.cpu = cpu;
	l->ev.missed = rec->missed_events;
	l->pending = true;
	return 0;
}

/* The lane's next event in l->ev: 1, 0 at the end, negative errno. */
static int peek(struct split_lane *l, struct strbuf *err)
{
	struct merged_event me;
	int ret;

	if (l->pending)
		return 1;
	if (l->done)
		return 0;
	if (l->merge) {
		ret = merge_next(l->merge, &me, err);
		if (ret == 1)
			ret = keep(l, me.record, me.record->cpu);
	} else {
		ret = cpu_cursor_next(l->cursor, err);
		if (ret == 1)
			ret = keep(l, cpu_cursor_record(l->cursor), cpu_cursor_cpu(l->cursor));
	}
	if (ret == -ENOMEM)
		strbuf_addf(err, "out of memory");
	if (ret < 0)
		return ret;
	if (!l->pending)
		l->done = true;
	return l->pending;
}

int split_lane_more(struct split_lane *l, uint64_t end, struct strbuf *err)
{
	int ret = peek(l, err);

	if (ret == 1 && end && l->ev.ts > end) {
		l->done = true;
		l->pending = false;
		ret = 0;
	}
	return ret;
}

static uint64_t unit_ns(enum split_unit unit)
{
	switch (unit) {
	case SPLIT_SECONDS:
		return 1000000000ULL;
	case SPLIT_MSECS:
		return 1000000ULL;
	case SPLIT_USECS:
		return 1000ULL;
	default:
		return 0;
	}
}

/* Does the event after `count` events of a piece anchored at `anchor` start the next one? */
static bool piece_over(const struct split_rules *r, uint64_t anchor, uint64_t count,
		       uint64_t ts)
{
	uint64_t span = unit_ns(r->unit);

	if (span)
		return ts > anchor + r->count * span;
	return r->unit == SPLIT_EVENTS && count >= r->count;
}

int split_lane_cut(struct split_lane *l, const struct split_rules *r, uint64_t start,
		   struct split_pages **pages, int nr_pages, struct strbuf *err)
{
	uint64_t anchor, count = 0, nr_new_pages = 0;
	struct split_pages *sp;
	int ret;

	while ((ret = peek(l, err)) == 1 && start && l->ev.ts < start)
		l->pending = false;
	if (ret <= 0)
		return ret;
	anchor = start ? start : l->ev.ts;
	while (ret == 1) {
		if (r->end && l->ev.ts > r->end) {
			l->done = true;
			l->pending = false;
			break;
		}
		if (l->ev.cpu < 0 || l->ev.cpu >= nr_pages || !pages[l->ev.cpu]) {
			strbuf_addf(err, "an event of CPU %d, a CPU the file does not list",
				    l->ev.cpu);
			return -EBADMSG;
		}
		sp = pages[l->ev.cpu];
		if (r->unit == SPLIT_PAGES && split_pages_needs_page(sp, &l->ev) &&
		    ++nr_new_pages > r->count)
			break;
		ret = split_pages_add(sp, &l->ev, NULL, err);
		if (ret)
			return ret;
		l->pending = false;
		count++;
		ret = peek(l, err);
		if (ret == 1 && piece_over(r, anchor, count, l->ev.ts))
			break;
	}
	return ret < 0 ? ret : 0;
}
