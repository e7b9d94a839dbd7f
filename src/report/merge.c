// SPDX-License-Identifier: GPL-2.0-only
/*
 * The events of every selected CPU of every selected buffer, by timestamp, through a binary
 * min-heap of cursors. Equal timestamps go to the earlier buffer, then to the lower CPU, which
 * is the order in which trace-cmd report scans its CPUs with a strict "<".
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>

#include "ktrace/cursor.h"
#include "ktrace/dat.h"
#include "ktrace/merge.h"

struct heap_entry {
	uint64_t ts;
	int order;	/* position of the cursor in (buffer, cpu) order: the tie-break */
};

struct merge {
	struct dat_file *df;
	struct cpu_cursor **cursors;	/* by order */
	int *buffer_of;			/* by order */
	int nr_cursors;
	struct heap_entry *heap;
	int heap_len;
	int pending;	/* cursor whose record was handed out, advanced on the next call */
};

static bool entry_less(const struct heap_entry *a, const struct heap_entry *b)
{
	return a->ts < b->ts || (a->ts == b->ts && a->order < b->order);
}

static void sift_down(struct merge *m, int i)
{
	struct heap_entry e = m->heap[i];
	int child;

	for (;;) {
		child = 2 * i + 1;
		if (child >= m->heap_len)
			break;
		if (child + 1 < m->heap_len && entry_less(&m->heap[child + 1], &m->heap[child]))
			child++;
		if (!entry_less(&m->heap[child], &e))
			break;
		m->heap[i] = m->heap[child];
		i = child;
	}
	m->heap[i] = e;
}

static void sift_up(struct merge *m, int i)
{
	struct heap_entry e = m->heap[i];

	while (i > 0 && entry_less(&e, &m->heap[(i - 1) / 2])) {
		m->heap[i] = m->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	m->heap[i] = e;
}

static bool selected(const bool *filter, int nr, int index)
{
	return !filter || (index >= 0 && index < nr && filter[index]);
}

static int cmp_cpu(const void *a, const void *b)
{
	const struct dat_cpu *x = *(const struct dat_cpu *const *)a;
	const struct dat_cpu *y = *(const struct dat_cpu *const *)b;

	return (x->cpu > y->cpu) - (x->cpu < y->cpu);
}

/* Adds the pages of the first `nr` CPUs of `buffer` that have data, each rounded up to pages. */
static int add_cpu_pages(struct dat_file *df, int buffer, int nr, uint64_t *base,
			 struct strbuf *err)
{
	const struct dat_buffer *b = dat_file_buffer(df, buffer);
	uint64_t size;
	int i, ret;

	for (i = 0; i < nr && !b->latency; i++) {
		if (!b->cpus[i].size)
			continue;
		ret = dat_cpu_data_size(df, buffer, i, &size, err);
		if (ret)
			return ret;
		*base += (size + b->page_size - 1) / b->page_size * b->page_size;
	}
	return 0;
}

/*
 * Where trace-cmd puts a CPU's pages when it numbers compressed data: the CPUs with data one
 * after the other, each from a page boundary, the first one page in. An instance's handle
 * starts as a copy of the top one once that has placed all of its CPUs.
 */
static int compressed_page_base(struct dat_file *df, int buffer, int cpu_index, uint64_t *base,
				struct strbuf *err)
{
	int ret = 0;

	*base = dat_file_buffer(df, buffer)->page_size;
	if (buffer > 0 && dat_file_buffer(df, 0)->compressed)
		ret = add_cpu_pages(df, 0, dat_file_buffer(df, 0)->nr_cpus, base, err);
	return ret ?: add_cpu_pages(df, buffer, cpu_index, base, err);
}

/* Opens a cursor on one CPU and puts its first event in the heap; empty CPUs are dropped. */
static int add_cursor(struct merge *m, int buffer, int cpu_index, bool page_info,
		      struct strbuf *err)
{
	struct cpu_cursor *c;
	uint64_t base = 0;
	int ret = cpu_cursor_open(m->df, buffer, cpu_index, &c, err);

	if (ret)
		return ret;
	if (page_info && dat_file_buffer(m->df, buffer)->compressed)
		ret = compressed_page_base(m->df, buffer, cpu_index, &base, err);
	if (page_info)
		cpu_cursor_keep_page_info(c, base);
	ret = ret ?: cpu_cursor_next(c, err);
	if (ret <= 0) {
		cpu_cursor_close(c);
		return ret;
	}
	m->cursors[m->nr_cursors] = c;
	m->buffer_of[m->nr_cursors] = buffer;
	m->heap[m->heap_len].ts = cpu_cursor_record(c)->ts;
	m->heap[m->heap_len].order = m->nr_cursors;
	m->nr_cursors++;
	sift_up(m, m->heap_len++);
	return 0;
}

static int add_buffer(struct merge *m, int buffer, const struct merge_options *opts,
		      struct strbuf *err)
{
	const struct dat_buffer *b = dat_file_buffer(m->df, buffer);
	const struct dat_cpu **sorted;
	int i, ret = 0;

	if (b->latency || !b->nr_cpus)
		return 0;
	sorted = malloc(b->nr_cpus * sizeof(*sorted));
	if (!sorted)
		return -ENOMEM;
	for (i = 0; i < b->nr_cpus; i++)
		sorted[i] = &b->cpus[i];
	qsort(sorted, b->nr_cpus, sizeof(*sorted), cmp_cpu);
	for (i = 0; i < b->nr_cpus && !ret; i++) {
		if (!sorted[i]->size ||
		    !selected(opts ? opts->cpu_filter : NULL, opts ? opts->nr_cpu_filter : 0,
			      sorted[i]->cpu))
			continue;
		ret = add_cursor(m, buffer, (int)(sorted[i] - b->cpus), opts && opts->page_info,
				 err);
	}
	free(sorted);
	return ret;
}

int merge_open(struct dat_file *df, const struct merge_options *opts, struct merge **out,
	       struct strbuf *err)
{
	int i, total = 0, n = dat_file_nr_buffers(df);
	struct merge *m;
	int ret = 0;

	/* trace-cmd adds this format when it starts reading records: so do we */
	dat_file_add_blk_event(df);
	for (i = 0; i < n; i++)
		total += dat_file_buffer(df, i)->nr_cpus;
	m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	m->df = df;
	m->pending = -1;
	m->cursors = calloc(total + 1, sizeof(*m->cursors));
	m->buffer_of = calloc(total + 1, sizeof(*m->buffer_of));
	m->heap = calloc(total + 1, sizeof(*m->heap));
	if (!m->cursors || !m->buffer_of || !m->heap)
		ret = -ENOMEM;
	for (i = 0; i < n && !ret; i++)
		if (selected(opts ? opts->buffer_filter : NULL, opts ? opts->nr_buffer_filter : 0,
			     i))
			ret = add_buffer(m, i, opts, err);
	if (ret) {
		if (ret == -ENOMEM && err && !err->len)
			strbuf_addf(err, "%s: out of memory", dat_file_path(df));
		merge_close(m);
		return ret;
	}
	*out = m;
	return 0;
}

/* Moves the cursor at the top of the heap to its next event. */
static int advance_top(struct merge *m, struct strbuf *err)
{
	int order = m->heap[0].order;
	int ret = cpu_cursor_next(m->cursors[order], err);

	if (ret < 0)
		return ret;
	if (ret > 0) {
		m->heap[0].ts = cpu_cursor_record(m->cursors[order])->ts;
	} else {
		m->heap[0] = m->heap[--m->heap_len];
	}
	if (m->heap_len)
		sift_down(m, 0);
	return 0;
}

int merge_next(struct merge *m, struct merged_event *ev, struct strbuf *err)
{
	int order, ret;

	if (m->pending >= 0) {
		m->pending = -1;
		ret = advance_top(m, err);
		if (ret < 0) {
			/* drop the damaged CPU so that a caller going on does not loop */
			m->heap[0] = m->heap[--m->heap_len];
			if (m->heap_len)
				sift_down(m, 0);
			return ret;
		}
	}
	if (!m->heap_len)
		return 0;
	order = m->heap[0].order;
	m->pending = order;
	ev->record = cpu_cursor_record(m->cursors[order]);
	ev->buffer = m->buffer_of[order];
	return 1;
}

void merge_skip_events(struct merge *m, const bool *skip, int nr)
{
	int i;

	for (i = 0; i < m->nr_cursors; i++)
		cpu_cursor_skip_events(m->cursors[i], skip, nr);
}

void merge_close(struct merge *m)
{
	int i;

	if (!m)
		return;
	for (i = 0; i < m->nr_cursors; i++)
		cpu_cursor_close(m->cursors[i]);
	free(m->cursors);
	free(m->buffer_of);
	free(m->heap);
	free(m);
}
