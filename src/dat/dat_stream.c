// SPDX-License-Identifier: GPL-2.0-only
/*
 * One CPU's ring-buffer pages, in order. Uncompressed data is read a window of pages at a
 * time; compressed data one chunk at a time ("count", then "zsize, size, data" per chunk), so
 * that memory stays bounded whatever the size of the file.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ktrace/grow.h"
#include "dat_internal.h"
#include "ktrace/dat_chunk.h"

#define WINDOW_PAGES 16
/* Zeroes after the last page: kbuffer may read an event header a few bytes past the data. */
#define SLACK 64

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
};

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
	return kt_codec_new(ps->df->comp, &ps->codec) ?
		dat_err(err, ps->df, ps->what, ps->pos, -ENOMEM, "out of memory") : 0;
}

int dat_page_stream_open(struct dat_file *df, int buffer, int cpu_index,
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
	*out = ps;
	return 0;
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

static int next_chunk(struct dat_page_stream *ps, struct strbuf *err)
{
	uint64_t at = ps->pos;
	uint32_t zsize, size;
	size_t padded;
	uint8_t h[8];
	int ret;

	if (ps->end - ps->pos < 8)
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
	    array_grow(&ps->buf, &ps->buf_cap, padded + SLACK, 1))
		return dat_err(err, ps->df, ps->what, at, -ENOMEM, "out of memory");
	ret = dat_pread(ps->df, ps->zbuf, zsize, at + 8, ps->what, err);
	if (ret)
		return ret;
	if (kt_codec_decompress(ps->codec, ps->zbuf, zsize, ps->buf, size))
		return dat_err(err, ps->df, ps->what, at, -EBADMSG,
			       "cpu %d: %s chunk does not decompress to %u bytes", ps->cpu,
			       kt_compression_name(ps->df->comp), size);
	memset(ps->buf + size, 0, padded - size + SLACK);
	ps->buf_offset += ps->buf_len;
	ps->pos = at + 8 + zsize;
	ps->chunks_left--;
	ps->buf_len = padded;
	ps->buf_pos = 0;
	return 0;
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
	int ret = dat_page_stream_open(df, buffer, cpu_index, &ps, err);

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
	free(ps->buf);
	free(ps->zbuf);
	kt_codec_free(ps->codec);
	free(ps);
}
