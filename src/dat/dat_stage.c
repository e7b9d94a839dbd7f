// SPDX-License-Identifier: GPL-2.0-only
/*
 * A CPU's pages into a staging file for the writer (dat_stage.h): DAT_CHUNK_PAGES pages at a
 * time, one chunk when compressed, else one write.
 */
#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ktrace/dat_chunk.h"
#include "ktrace/dat_stage.h"
#include "ktrace/fdio.h"

int dat_stage_init(struct dat_stage *st, struct kt_codec *codec, uint32_t page_size)
{
	memset(st, 0, sizeof(*st));
	st->codec = codec;
	st->page_size = page_size;
	st->chunk_cap = (size_t)DAT_CHUNK_PAGES * page_size;
	st->raw = malloc(st->chunk_cap);
	if (!st->raw)
		return -ENOMEM;
	if (codec) {
		st->bound = dat_chunk_bound(kt_codec_compression(codec), st->chunk_cap);
		st->z = malloc(st->bound);
		if (!st->z) {
			dat_stage_release(st);
			return -ENOMEM;
		}
	}
	return 0;
}

int dat_stage_flush(struct dat_stage *st)
{
	size_t zlen = st->raw_len;
	const void *out = st->raw;
	int ret = 0;

	if (!st->raw_len)
		return 0;
	if (st->codec) {
		ret = dat_chunk_pack(st->codec, st->raw, st->raw_len, DAT_HOST_BIG_ENDIAN, st->z,
				     st->bound, &zlen);
		out = st->z;
		st->cs->nr_chunks++;
	}
	if (!ret)
		ret = fd_write_all(st->cs->fd, out, zlen);
	st->cs->size += zlen;
	st->cs->raw_size += st->raw_len;
	st->raw_len = 0;
	return ret;
}

int dat_stage_page(struct dat_stage *st, const void *page)
{
	memcpy(st->raw + st->raw_len, page, st->page_size);
	st->raw_len += st->page_size;
	return st->raw_len == st->chunk_cap ? dat_stage_flush(st) : 0;
}

void dat_stage_drop(struct dat_stage *st)
{
	st->raw_len = 0;
}

void dat_stage_release(struct dat_stage *st)
{
	free(st->raw);
	free(st->z);
	st->raw = st->z = NULL;
}

int dat_stage_raw_pages(int in_fd, uint64_t size, uint32_t page_size, enum kt_compression comp,
			const char *tmp_dir, struct dat_cpu_source *cs, struct strbuf *err)
{
	struct kt_codec *codec = NULL;
	struct dat_stage st = { 0 };
	uint64_t done = 0;
	int ret;

	cs->fd = fd_open_temp(tmp_dir);
	if (cs->fd < 0) {
		strbuf_addf(err, "a staging file in %s: %s", tmp_dir, strerror(-cs->fd));
		return cs->fd;
	}
	ret = kt_codec_new(comp, &codec);
	if (!ret) {
		kt_codec_like_trace_cmd(codec);
		ret = dat_stage_init(&st, codec, page_size);
		st.cs = cs;
	}
	while (!ret && done < size) {
		size_t len = size - done < st.chunk_cap ? (size_t)(size - done) : st.chunk_cap;

		ret = fd_pread_all(in_fd, st.raw, len, done);
		st.raw_len = len;
		if (!ret)
			ret = dat_stage_flush(&st);
		done += len;
	}
	if (ret)
		strbuf_addf(err, "compressing cpu %d's data into %s: %s", cs->cpu, tmp_dir,
			    strerror(-ret));
	dat_stage_release(&st);
	kt_codec_free(codec);
	return ret;
}
