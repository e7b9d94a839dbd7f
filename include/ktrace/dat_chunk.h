/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_DAT_CHUNK_H
#define KTRACE_DAT_CHUNK_H

/*
 * The framing of compressed data in a v7 trace.dat (trace-cmd's trace-cmd.dat.v7.5.txt): a
 * chunk is <4 bytes compressed size><4 bytes raw size><compressed bytes>, the sizes in the
 * file's byte order. Flyrecord CPU data and latency text are a chunk count followed by
 * chunks; a compressed metadata section is one chunk.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ktrace/compress.h"

#define DAT_CHUNK_HEADER_SIZE	8
/* trace-cmd's chunk of CPU data or latency text: 10 pages (the last one may hold fewer) */
#define DAT_CHUNK_PAGES		10
#define DAT_HOST_BIG_ENDIAN	(__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__)

void dat_chunk_header_put(void *hdr, uint32_t csize, uint32_t rsize, bool big_endian);
void dat_chunk_header_get(const void *hdr, uint32_t *csize, uint32_t *rsize, bool big_endian);
/* The room dat_chunk_pack() needs for a chunk of len raw bytes, header included. */
size_t dat_chunk_bound(enum kt_compression c, size_t len);
/*
 * Compresses len bytes of `in` with codec into a whole chunk in `out` (capacity cap, see
 * dat_chunk_bound()); *out_len: the chunk's size, header included. 0 or negative errno.
 */
int dat_chunk_pack(struct kt_codec *codec, const void *in, size_t len, bool big_endian,
		   void *out, size_t cap, size_t *out_len);

#endif
