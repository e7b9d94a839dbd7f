// SPDX-License-Identifier: GPL-2.0-only
/*
 * Where a CPU's pages go as they arrive. For a v7 file with compression they are compressed
 * on the fly, in trace-cmd's chunks of 10 pages: the temporary file holds the finished chunks
 * followed by a raw tail shorter than a chunk, so the disk holds about the compressed size and
 * finishing a session only copies bytes. Otherwise the pages are kept raw.
 */
#define _FILE_OFFSET_BITS 64
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ktrace/dat_chunk.h"
#include "ktrace/fdio.h"
#include "ktrace/grow.h"
#include "listen.h"


void server_ctx_release_codecs(struct server_ctx *srv)
{
	size_t i;

	for (i = 0; i < sizeof(srv->codecs) / sizeof(srv->codecs[0]); i++)
		kt_codec_free(srv->codecs[i]);
	free(srv->zin);
	free(srv->zout);
}

static int compress_backlog(struct chan *c, struct server_ctx *srv);

int chan_compress_start(struct chan *c, struct server_ctx *srv, int compression,
			uint32_t page_size, int big)
{
	enum kt_compression comp = (enum kt_compression)compression;
	size_t chunk = (size_t)page_size * DAT_CHUNK_PAGES;
	int ret;

	if (comp == KT_COMP_NONE || (unsigned int)comp >= 3)
		return 0;
	if (!srv->codecs[comp]) {
		ret = kt_codec_new(comp, &srv->codecs[comp]);
		if (ret)
			return ret;
		kt_codec_like_trace_cmd(srv->codecs[comp]);
	}
	ret = array_grow(&srv->zin, &srv->zin_cap, chunk, 1);
	if (!ret)
		ret = array_grow(&srv->zout, &srv->zout_cap, dat_chunk_bound(comp, chunk), 1);
	if (ret)
		return ret;
	c->codec = srv->codecs[comp];
	c->chunk = (uint32_t)chunk;
	c->big = big;
	c->raw_start = 0;
	c->nr_chunks = 0;
	return c->size ? compress_backlog(c, srv) : 0;
}

/* Compresses len raw bytes into a chunk written where the raw tail started. */
static int write_chunk(struct chan *c, struct server_ctx *srv, const char *raw, size_t len)
{
	size_t n;
	int ret = dat_chunk_pack(c->codec, raw, len, c->big, srv->zout, srv->zout_cap, &n);

	if (!ret)
		ret = fd_pwrite_all(c->tmp, srv->zout, n, c->raw_start);
	if (ret)
		return ret;
	c->raw_start += n;
	c->nr_chunks++;
	return 0;
}

/*
 * Pages that arrived before the metadata was complete (the event loop reads every socket, so
 * CPU data can overtake the last metadata messages) are compressed now, into a new temporary
 * file, rather than staying raw on disk until the session ends.
 */
static int compress_backlog(struct chan *c, struct server_ctx *srv)
{
	uint64_t off = 0, size = c->size;
	struct strbuf name = STRBUF_INIT;
	int old = c->tmp, ret = 0;

	/* Built aside, then renamed over the raw file: a crash leaves one or the other. */
	if (c->path)
		ret = strbuf_addf(&name, "%s.z", c->path);
	c->tmp = ret ? ret : chan_file_open(srv->dir_fd, c->path ? strbuf_str(&name) : NULL);
	if (c->tmp < 0) {
		ret = c->tmp;
		c->tmp = old;
		strbuf_release(&name);
		return ret;
	}
	for (ret = 0; !ret && size - off >= c->chunk; off += c->chunk) {
		ret = fd_pread_all(old, srv->zin, c->chunk, off);
		if (!ret)
			ret = write_chunk(c, srv, srv->zin, c->chunk);
	}
	if (!ret && size > off)
		ret = fd_pread_all(old, srv->zin, (size_t)(size - off), off);
	if (!ret && size > off)
		ret = fd_pwrite_all(c->tmp, srv->zin, (size_t)(size - off), c->raw_start);
	if (!ret && c->path && renameat(srv->dir_fd, strbuf_str(&name), srv->dir_fd, c->path))
		ret = -errno;
	close(old);
	strbuf_release(&name);
	c->size = c->raw_start + (size - off);
	return ret;
}

static int read_tail(struct chan *c, struct server_ctx *srv, size_t tail)
{
	return fd_pread_all(c->tmp, srv->zin, tail, c->raw_start);
}

static int store_compressed(struct chan *c, struct server_ctx *srv, const char *buf, size_t n)
{
	size_t tail = (size_t)(c->size - c->raw_start), take;
	int ret;

	if (tail + n < c->chunk) {
		ret = fd_pwrite_all(c->tmp, buf, n, c->size);
		if (!ret)
			c->size += n;
		return ret;
	}
	/*
	 * The tail and the start of buf make the first chunk; all of it is in memory first. The
	 * tail leaves the file before the chunk goes over it, so that a listener killed in
	 * between leaves chunks and whole raw pages (recover.c), never a chunk's remains.
	 */
	ret = read_tail(c, srv, tail);
	if (!ret && ftruncate(c->tmp, (off_t)c->raw_start))
		ret = -errno;
	take = c->chunk - tail;
	if (!ret) {
		memcpy(srv->zin + tail, buf, take);
		ret = write_chunk(c, srv, srv->zin, c->chunk);
	}
	for (buf += take, n -= take; !ret && n >= c->chunk; buf += c->chunk, n -= c->chunk)
		ret = write_chunk(c, srv, buf, c->chunk);
	if (!ret && n)
		ret = fd_pwrite_all(c->tmp, buf, n, c->raw_start);
	c->size = c->raw_start + n;
	return ret;
}

/* c->size is where the temporary file ends, whether it holds raw pages or chunks and a tail. */
int chan_store(struct chan *c, struct server_ctx *srv, const char *buf, size_t n)
{
	int ret;

	if (c->codec)
		return store_compressed(c, srv, buf, n);
	ret = fd_pwrite_all(c->tmp, buf, n, c->size);
	if (!ret)
		c->size += n;
	return ret;
}

int64_t chan_finish(struct chan *c, struct server_ctx *srv, uint32_t page_size,
		    struct dat_append_cpu *blob)
{
	uint64_t tail = c->size - c->raw_start, torn = tail % page_size;
	int ret = 0;

	blob->fd = c->tmp;
	if (!c->codec) {
		blob->size = c->size - torn;
		return (int64_t)torn;
	}
	tail -= torn;
	if (tail)
		ret = read_tail(c, srv, (size_t)tail);
	if (!ret && tail)
		ret = write_chunk(c, srv, srv->zin, (size_t)tail);
	if (!ret && ftruncate(c->tmp, (off_t)c->raw_start))
		ret = -errno;
	blob->compressed = 1;
	blob->nr_chunks = c->nr_chunks;
	blob->size = c->raw_start;
	return ret ? ret : (int64_t)torn;
}
