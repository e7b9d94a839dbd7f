// SPDX-License-Identifier: GPL-2.0-only
/*
 * The records of every buffer of a file, in the order trace-cmd 3.1.6 prints them: the smallest
 * timestamp first, ties going to the earlier buffer, then the lower CPU index (that part is the
 * merge's). Each buffer has its own merge so that the function_graph printer can look at the
 * next record *of the same buffer*, which is what trace-cmd's look-ahead sees.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "ktrace/cursor.h"
#include "ktrace/dat.h"
#include "ktrace/dat_format.h"
#include "ktrace/merge.h"
#include "ktrace/report.h"
#include "report_stream.h"

struct buffer_cursor {
	struct merge *merge;
	struct merged_event head;
	bool have;		/* head holds a record not handed out yet */
	bool done;
	int slot_base;		/* trace-cmd numbers the CPUs of all buffers in one row */
};

struct report_stream {
	struct dat_file *df;
	int nr;
	struct buffer_cursor *bufs;
	int current;			/* buffer of the last event handed out, -1 before */
	struct tep_record *current_rec;
	struct tep_record pinned;
	struct cursor_page_info pinned_info;	/* the pinned record's, with --debug */
	bool page_info;
	void *pin_data;
	size_t pin_cap;
	int error;			/* a failed look-ahead, reported by the next call */
	struct strbuf error_msg;
};

/*
 * How many CPU slots trace-cmd gives a buffer: its highest CPU + 1, at least the CPUCOUNT of
 * the file (an instance handle starts as a copy of the top one).
 */
int report_buffer_slots(struct dat_file *df, int index)
{
	const struct dat_buffer *b = dat_file_buffer(df, index);
	uint32_t size;
	const void *count = dat_file_option(df, DAT_OPT_CPUCOUNT, 0, &size);
	int i, n = 0;

	if (count && size >= 4)
		n = (int)tep_read_number(dat_file_tep(df), count, 4);
	for (i = 0; i < b->nr_cpus; i++)
		if (b->cpus[i].cpu + 1 > n)
			n = b->cpus[i].cpu + 1;
	return n;
}

static int cursor_open(struct report_stream *rs, int index, bool *filter, struct strbuf *err)
{
	const struct dat_buffer *b = dat_file_buffer(rs->df, index);
	struct buffer_cursor *c = &rs->bufs[index];
	struct merge_options mo = {
		.buffer_filter = filter,
		.nr_buffer_filter = rs->nr,
		.page_info = rs->page_info,
	};
	memset(filter, 0, rs->nr * sizeof(*filter));
	filter[index] = true;
	if (b->latency) {
		c->done = true;
		return 0;
	}
	return merge_open(rs->df, &mo, &c->merge, err);
}

int report_stream_open(struct dat_file *df, struct report_stream **out, struct strbuf *err)
{
	return report_stream_open_pages(df, false, out, err);
}

int report_stream_open_pages(struct dat_file *df, bool page_info, struct report_stream **out,
			     struct strbuf *err)
{
	struct report_stream *rs;
	bool *filter = NULL;
	int i, ret = -ENOMEM, base = 0;

	rs = calloc(1, sizeof(*rs));
	if (!rs)
		return -ENOMEM;
	rs->df = df;
	rs->page_info = page_info;
	rs->current = -1;
	rs->nr = dat_file_nr_buffers(df);
	rs->bufs = calloc(rs->nr ? rs->nr : 1, sizeof(*rs->bufs));
	filter = calloc(rs->nr ? rs->nr : 1, sizeof(*filter));
	if (!rs->bufs || !filter)
		goto fail;
	for (i = 0; i < rs->nr; i++) {
		rs->bufs[i].slot_base = base;
		base += report_buffer_slots(df, i);
		ret = cursor_open(rs, i, filter, err);
		if (ret)
			goto fail;
	}
	free(filter);
	*out = rs;
	return 0;
fail:
	free(filter);
	report_stream_close(rs);
	return ret;
}

/* Makes sure the cursor holds its next record; false at its end or on error. */
static bool cursor_fill(struct report_stream *rs, struct buffer_cursor *c, struct strbuf *err)
{
	int ret;

	if (c->have)
		return true;
	if (c->done)
		return false;
	ret = merge_next(c->merge, &c->head, err);
	if (ret > 0) {
		c->have = true;
		return true;
	}
	c->done = true;
	if (ret < 0 && !rs->error)
		rs->error = ret;
	return false;
}

/* The buffer whose record comes next: 1 with *index set, 0 at the end, negative errno. */
static int next_buffer(struct report_stream *rs, int *index, struct strbuf *err)
{
	struct buffer_cursor *best = NULL;
	int i;

	if (rs->error) {
		if (rs->error_msg.len)
			strbuf_addstr(err, strbuf_str(&rs->error_msg));
		return rs->error;
	}
	for (i = 0; i < rs->nr; i++) {
		struct buffer_cursor *c = &rs->bufs[i];

		if (!cursor_fill(rs, c, err))
			continue;
		if (!best || c->head.record->ts < best->head.record->ts) {
			best = c;
			*index = i;
		}
	}
	if (rs->error)
		return rs->error;
	return best ? 1 : 0;
}

int report_stream_head(struct report_stream *rs, uint64_t *ts, int *buffer, struct strbuf *err)
{
	int ret = next_buffer(rs, buffer, err);

	if (ret > 0)
		*ts = rs->bufs[*buffer].head.record->ts;
	return ret;
}

int report_stream_next(struct report_stream *rs, struct report_event *ev, struct strbuf *err)
{
	struct buffer_cursor *best;
	int best_index = 0, ret = next_buffer(rs, &best_index, err);

	if (ret <= 0)
		return ret;
	best = &rs->bufs[best_index];
	best->have = false;
	rs->current = best_index;
	rs->current_rec = best->head.record;
	ev->record = best->head.record;
	ev->buffer = best_index;
	/* trace-cmd indexes a buffer's CPUs by CPU number */
	ev->cpu_slot = best->slot_base + best->head.record->cpu;
	return 1;
}

struct tep_record *report_stream_peek(struct report_stream *rs)
{
	struct buffer_cursor *c;

	if (rs->current < 0)
		return NULL;
	c = &rs->bufs[rs->current];
	if (!cursor_fill(rs, c, &rs->error_msg))
		return NULL;
	return c->head.record;
}

void report_stream_consume_peeked(struct report_stream *rs)
{
	if (rs->current >= 0)
		rs->bufs[rs->current].have = false;
}

struct tep_record *report_stream_pin(struct report_stream *rs)
{
	struct tep_record *r = rs->current_rec;
	size_t need;

	if (!r || r == &rs->pinned)
		return r;
	need = r->size > 0 ? (size_t)r->size : 0;
	if (need > rs->pin_cap) {
		void *p = realloc(rs->pin_data, need);

		if (!p)
			return NULL;
		rs->pin_data = p;
		rs->pin_cap = need;
	}
	rs->pinned = *r;
	memcpy(rs->pin_data, r->data, need);
	rs->pinned.data = rs->pin_data;
	if (rs->page_info && r->priv) {
		rs->pinned_info = *(const struct cursor_page_info *)r->priv;
		rs->pinned.priv = &rs->pinned_info;
	}
	rs->current_rec = &rs->pinned;
	return &rs->pinned;
}

void report_stream_skip_events(struct report_stream *rs, const bool *skip, int nr)
{
	int i;

	for (i = 0; i < rs->nr; i++)
		if (rs->bufs[i].merge)
			merge_skip_events(rs->bufs[i].merge, skip, nr);
}

void report_stream_close(struct report_stream *rs)
{
	int i;

	if (!rs)
		return;
	for (i = 0; rs->bufs && i < rs->nr; i++)
		merge_close(rs->bufs[i].merge);
	free(rs->bufs);
	free(rs->pin_data);
	strbuf_release(&rs->error_msg);
	free(rs);
}
