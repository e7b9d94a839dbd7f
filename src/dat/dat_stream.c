// SPDX-License-Identifier: GPL-2.0-only
/*
 * One CPU's ring-buffer pages, in order. Uncompressed data is read a window of pages at a
 * time; compressed data one chunk at a time ("count", then "zsize, size, data" per chunk), so
 * that memory stays bounded whatever the size of the file. With opts.decompress_ahead the
 * file's worker thread (dat_ahead.c) reads and decompresses the next chunks while the reader
 * walks the one before: each chunk in flight has its own buffer, swapped in when it is taken.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "ktrace/grow.h"
#include "dat_internal.h"
#include "ktrace/dat_chunk.h"

#define WINDOW_PAGES 16
/* Zeroes after the last page: kbuffer may read an event header a few bytes past the data. */
#define SLACK 64

/*
 * Chunks the worker loads ahead of the reader, in a ring: the reader takes them in order from
 * `head`, the worker fills the free slots after the full ones. The worker is woken again only
 * when half the ring is free: a wake-up for every chunk cost more CPU than it saved.
 */
#define AHEAD_CHUNKS 8
#define AHEAD_REFILL (AHEAD_CHUNKS / 2)

struct chunk_slot {
	uint8_t *buf;
	size_t cap;
	size_t len;		/* its pages' bytes, a multiple of page_size */
	uint64_t next;		/* the file offset after it */
	int ret;
	struct strbuf err;
};

struct chunk_ring {
	struct dat_ahead_job job;
	struct dat_page_stream *ps;
	struct chunk_slot slot[AHEAD_CHUNKS];
	/* under the worker's lock */
	int head;		/* the next slot the reader takes */
	int full;		/* loaded slots from head on */
	bool loading;		/* the job is queued or running */
	bool failed;		/* a load failed: nothing after it is loaded */
	bool closing;		/* the stream is being closed: nothing more is loaded */
	uint64_t load_pos;	/* the file offset of the next chunk to load */
	uint32_t load_left;	/* chunks not yet loaded */
};

struct dat_page_stream {
	struct dat_file *df;
	const char *what;
	int cpu;
	uint32_t page_size;
	bool compressed;
	uint64_t pos;		/* next file offset to read */
	uint64_t end;		/* end of this CPU's data in the file */
	uint32_t chunks_left;
	uint8_t *buf;		/* the pages read or decompressed */
	size_t buf_len;		/* bytes of pages in buf (a multiple of page_size) */
	size_t buf_pos;		/* next page in buf */
	size_t buf_cap;
	uint8_t *zbuf;		/* compressed chunk */
	size_t zcap;
	struct kt_codec *codec;
	uint64_t page_offset;	/* of the page last returned */
	uint64_t buf_offset;	/* of buf[0]: file offset, or position in the uncompressed data */
	struct chunk_ring *ahead;	/* NULL when the reader decompresses itself */
};

static void fill_ring(struct dat_ahead_job *job, struct dat_ahead *a);

static bool ring_wants_more(const struct chunk_ring *r)
{
	return r->full < AHEAD_CHUNKS && r->load_left && !r->failed && !r->closing;
}

/* The ring's job back on the worker's queue, where it is not already queued or running. */
static void queue_ring_locked(struct dat_ahead *a, struct chunk_ring *r)
{
	if (r->loading || !ring_wants_more(r))
		return;
	r->loading = true;
	dat_ahead_submit_locked(a, &r->job);
}

/* Without a worker (one CPU, or none could be started) the reader decompresses. */
static void start_ahead(struct dat_page_stream *ps)
{
	struct dat_file *df = ps->df;

	if (!ps->compressed || !df->opts.decompress_ahead || ps->chunks_left == 0)
		return;
	if (!df->ahead && !df->ahead_tried) {
		df->ahead_tried = true;
		if (dat_ahead_useful())
			dat_ahead_start(&df->ahead);
	}
	if (!df->ahead)
		return;
	ps->ahead = calloc(1, sizeof(*ps->ahead));
	if (!ps->ahead)
		return;
	ps->ahead->ps = ps;
	ps->ahead->job.run = fill_ring;
	ps->ahead->load_pos = ps->pos;
	ps->ahead->load_left = ps->chunks_left;
	dat_ahead_lock(df->ahead);
	queue_ring_locked(df->ahead, ps->ahead);
	dat_ahead_unlock(df->ahead);
}

static int open_chunks(struct dat_page_stream *ps, struct strbuf *err)
{
	uint8_t b[4];
	int ret;

	if (ps->end - ps->pos < 4)
		return dat_err(err, ps->df, ps->what, ps->pos, -EBADMSG,
			       "cpu %d: no room for the chunk count", ps->cpu);
	ret = dat_pread(ps->df, b, 4, ps->pos, ps->what, err);
	if (ret)
		return ret;
	ps->chunks_left = dat_get32(ps->df, b);
	ps->pos += 4;
	/* every chunk takes at least its 8-byte header */
	if (ps->chunks_left > (ps->end - ps->pos) / 8)
		return dat_err(err, ps->df, ps->what, ps->pos - 4, -EBADMSG,
			       "cpu %d: %u chunks cannot fit in %llu bytes", ps->cpu,
			       ps->chunks_left, (unsigned long long)(ps->end - ps->pos));
	ps->buf_offset = 0;
	if (kt_codec_new(ps->df->comp, &ps->codec))
		return dat_err(err, ps->df, ps->what, ps->pos, -ENOMEM, "out of memory");
	return 0;
}

static int stream_open(struct dat_file *df, int buffer, int cpu_index, bool pages,
		       struct dat_page_stream **out, struct strbuf *err)
{
	const struct dat_buffer *b = dat_file_buffer(df, buffer);
	struct dat_page_stream *ps;
	const struct dat_cpu *c;
	int ret = 0;

	if (!b || b->latency || cpu_index < 0 || cpu_index >= b->nr_cpus)
		return dat_err(err, df, "buffer", 0, -EINVAL, "no buffer %d cpu index %d", buffer,
			       cpu_index);
	c = &b->cpus[cpu_index];
	ps = calloc(1, sizeof(*ps));
	if (!ps)
		return dat_err(err, df, "buffer", 0, -ENOMEM, "out of memory");
	ps->df = df;
	ps->what = b->name[0] ? "instance data" : "cpu data";
	ps->cpu = c->cpu;
	ps->page_size = b->page_size;
	ps->compressed = b->compressed;
	ps->pos = c->offset;
	ps->end = c->size ? c->offset + c->size : c->offset;
	/* trace-cmd's compressed size leaves out the 4-byte chunk count in front */
	if (ps->compressed && c->size)
		ps->end += 4;
	ps->buf_offset = c->offset;
	if (ps->compressed && c->size)
		ret = open_chunks(ps, err);
	if (ret) {
		dat_page_stream_close(ps);
		return ret;
	}
	if (pages)
		start_ahead(ps);
	*out = ps;
	return 0;
}

int dat_page_stream_open(struct dat_file *df, int buffer, int cpu_index,
			 struct dat_page_stream **out, struct strbuf *err)
{
	return stream_open(df, buffer, cpu_index, true, out, err);
}

static int fill_window(struct dat_page_stream *ps, struct strbuf *err)
{
	uint64_t left = ps->end - ps->pos;
	size_t want = (size_t)ps->page_size * WINDOW_PAGES;
	size_t len = left < want ? (size_t)left : want;
	size_t padded = (len + ps->page_size - 1) / ps->page_size * ps->page_size;
	int ret;

	if (array_grow(&ps->buf, &ps->buf_cap, want + SLACK, 1))
		return dat_err(err, ps->df, ps->what, ps->pos, -ENOMEM, "out of memory");
	ret = dat_pread(ps->df, ps->buf, len, ps->pos, ps->what, err);
	if (ret)
		return ret;
	/* a partial last page reads as an empty tail */
	memset(ps->buf + len, 0, padded - len + SLACK);
	ps->buf_offset = ps->pos;
	ps->pos += len;
	ps->buf_len = padded;
	ps->buf_pos = 0;
	return 0;
}

/*
 * Reads and decompresses the chunk at file offset `at` into *buf (grown as needed): its pages'
 * bytes (zero-padded to whole pages, SLACK after) in *len, the offset after it in *next. Uses
 * the stream's compressed-data buffer and codec, so that only one thread runs it per stream.
 */
static int load_chunk(struct dat_page_stream *ps, uint64_t at, uint8_t **buf, size_t *cap,
		      size_t *len, uint64_t *next, struct strbuf *err)
{
	uint32_t zsize, size;
	size_t padded;
	uint8_t h[8];
	int ret;

	if (ps->end - at < 8)
		return dat_err(err, ps->df, ps->what, at, -EBADMSG,
			       "cpu %d: chunk header past the end of the data", ps->cpu);
	ret = dat_pread(ps->df, h, 8, at, ps->what, err);
	if (ret)
		return ret;
	dat_chunk_header_get(h, &zsize, &size, ps->df->big_endian);
	if (zsize > ps->end - at - 8)
		return dat_err(err, ps->df, ps->what, at, -EBADMSG,
			       "cpu %d: chunk of %u compressed bytes runs past the data's end",
			       ps->cpu, zsize);
	if (size == 0 || size > DAT_MAX_CHUNK)
		return dat_err(err, ps->df, ps->what, at, -EBADMSG,
			       "cpu %d: chunk of %u uncompressed bytes (limit %u)", ps->cpu, size,
			       DAT_MAX_CHUNK);
	padded = ((size_t)size + ps->page_size - 1) / ps->page_size * ps->page_size;
	if (array_grow(&ps->zbuf, &ps->zcap, zsize ? zsize : 1, 1) ||
	    array_grow(buf, cap, padded + SLACK, 1))
		return dat_err(err, ps->df, ps->what, at, -ENOMEM, "out of memory");
	ret = dat_pread(ps->df, ps->zbuf, zsize, at + 8, ps->what, err);
	if (ret)
		return ret;
	if (kt_codec_decompress(ps->codec, ps->zbuf, zsize, *buf, size))
		return dat_err(err, ps->df, ps->what, at, -EBADMSG,
			       "cpu %d: %s chunk does not decompress to %u bytes", ps->cpu,
			       kt_compression_name(ps->df->comp), size);
	memset(*buf + size, 0, padded - size + SLACK);
	*len = padded;
	*next = at + 8 + zsize;
	return 0;
}

#define ring_of(j) ((struct chunk_ring *)((char *)(j) - offsetof(struct chunk_ring, job)))

/*
 * The worker's job: one chunk into the next free slot, then back to the queue's tail while the
 * ring has room, so that the streams take turns: a reader that opens its CPUs one after the
 * other (merge.c) waits for one chunk of each, not for a whole ring of each.
 */
static void fill_ring(struct dat_ahead_job *job, struct dat_ahead *a)
{
	struct chunk_ring *r = ring_of(job);
	struct chunk_slot *sl;
	uint64_t at;

	dat_ahead_lock(a);
	if (ring_wants_more(r)) {
		sl = &r->slot[(r->head + r->full) % AHEAD_CHUNKS];
		at = r->load_pos;
		dat_ahead_unlock(a);
		sl->ret = load_chunk(r->ps, at, &sl->buf, &sl->cap, &sl->len, &sl->next, &sl->err);
		dat_ahead_lock(a);
		r->full++;
		r->load_left--;
		r->load_pos = sl->next;
		r->failed = sl->ret != 0;
	}
	if (ring_wants_more(r))
		dat_ahead_submit_locked(a, &r->job);
	else
		r->loading = false;
	dat_ahead_progress_locked(a);
	dat_ahead_unlock(a);
}

static void chunk_taken(struct dat_page_stream *ps, size_t len, uint64_t next)
{
	ps->buf_offset += ps->buf_len;
	ps->pos = next;
	ps->chunks_left--;
	ps->buf_len = len;
	ps->buf_pos = 0;
}

/*
 * The next chunk from the ring: its buffer swapped with the reader's, whose pages the reader
 * is done with, and the slot given back to the worker. A failed load stays at the head: every
 * later call fails the same way, as the reader's own load would.
 */
static int take_ahead(struct dat_page_stream *ps, struct chunk_ring *r, struct strbuf *err)
{
	struct dat_ahead *a = ps->df->ahead;
	struct chunk_slot *sl;
	uint8_t *buf;
	size_t cap;

	dat_ahead_lock(a);
	while (!r->full)
		dat_ahead_wait_locked(a);
	dat_ahead_unlock(a);
	sl = &r->slot[r->head];
	if (sl->ret) {
		if (err) {
			strbuf_reset(err);
			strbuf_addstr(err, strbuf_str(&sl->err));
		}
		return sl->ret;
	}
	buf = ps->buf;
	cap = ps->buf_cap;
	ps->buf = sl->buf;
	ps->buf_cap = sl->cap;
	sl->buf = buf;
	sl->cap = cap;
	chunk_taken(ps, sl->len, sl->next);
	dat_ahead_lock(a);
	r->head = (r->head + 1) % AHEAD_CHUNKS;
	r->full--;
	if (r->full <= AHEAD_REFILL)
		queue_ring_locked(a, r);
	dat_ahead_unlock(a);
	return 0;
}

static int next_chunk(struct dat_page_stream *ps, struct strbuf *err)
{
	uint64_t next;
	size_t len;
	int ret;

	if (ps->ahead)
		return take_ahead(ps, ps->ahead, err);
	ret = load_chunk(ps, ps->pos, &ps->buf, &ps->buf_cap, &len, &next, err);
	if (!ret)
		chunk_taken(ps, len, next);
	return ret;
}

/* Before the ring is freed: the worker is done with it once its job is neither queued nor run. */
static void ring_free(struct dat_page_stream *ps, struct chunk_ring *r)
{
	struct dat_ahead *a = ps->df->ahead;
	int i;

	dat_ahead_lock(a);
	r->closing = true;	/* a queued or running job stops after its current chunk */
	while (r->loading)
		dat_ahead_wait_locked(a);
	dat_ahead_unlock(a);
	for (i = 0; i < AHEAD_CHUNKS; i++) {
		free(r->slot[i].buf);
		strbuf_release(&r->slot[i].err);
	}
	free(r);
}

int dat_page_stream_next(struct dat_page_stream *ps, const void **page, struct strbuf *err)
{
	int ret;

	if (ps->buf_pos >= ps->buf_len) {
		if (ps->compressed ? ps->chunks_left == 0 : ps->pos >= ps->end)
			return 0;
		ret = ps->compressed ? next_chunk(ps, err) : fill_window(ps, err);
		if (ret)
			return ret;
	}
	*page = ps->buf + ps->buf_pos;
	ps->page_offset = ps->buf_offset + ps->buf_pos;
	ps->buf_pos += ps->page_size;
	return 1;
}

int dat_cpu_data_size(struct dat_file *df, int buffer, int cpu_index, uint64_t *size,
		      struct strbuf *err)
{
	struct dat_page_stream *ps;
	uint32_t zsize, rsize;
	uint8_t h[8];
	int ret = stream_open(df, buffer, cpu_index, false, &ps, err);

	if (ret)
		return ret;
	*size = ps->compressed ? 0 : ps->end - ps->pos;
	/* the chunk headers only: nothing is decompressed */
	while (ps->compressed && ps->chunks_left && !ret) {
		if (ps->end - ps->pos < 8) {
			ret = dat_err(err, df, ps->what, ps->pos, -EBADMSG,
				      "cpu %d: chunk header past the end of the data", ps->cpu);
			break;
		}
		ret = dat_pread(df, h, 8, ps->pos, ps->what, err);
		dat_chunk_header_get(h, &zsize, &rsize, df->big_endian);
		if (!ret && zsize > ps->end - ps->pos - 8)
			ret = dat_err(err, df, ps->what, ps->pos, -EBADMSG,
				      "cpu %d: chunk of %u compressed bytes runs past the data's end",
				      ps->cpu, zsize);
		*size += rsize;
		ps->pos += 8 + (uint64_t)zsize;
		ps->chunks_left--;
	}
	dat_page_stream_close(ps);
	return ret;
}

uint64_t dat_page_stream_offset(const struct dat_page_stream *ps)
{
	return ps->page_offset;
}

void dat_page_stream_close(struct dat_page_stream *ps)
{
	if (!ps)
		return;
	if (ps->ahead)
		ring_free(ps, ps->ahead);
	free(ps->buf);
	free(ps->zbuf);
	kt_codec_free(ps->codec);
	free(ps);
}
