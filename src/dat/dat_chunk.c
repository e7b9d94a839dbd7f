// SPDX-License-Identifier: GPL-2.0-only
/*
 * Compressed chunks <csize><rsize><bytes> (dat_chunk.h): the one place that lays out their
 * header, for the recorder, the file writer and the listener alike.
 */
#include <errno.h>

#include "ktrace/dat_chunk.h"

static void put32(uint8_t *p, uint32_t v, bool big)
{
	int i;

	for (i = 0; i < 4; i++)
		p[big ? 3 - i : i] = (uint8_t)(v >> (8 * i));
}

static uint32_t get32(const uint8_t *p, bool big)
{
	uint32_t v = 0;
	int i;

	for (i = 0; i < 4; i++)
		v |= (uint32_t)p[big ? 3 - i : i] << (8 * i);
	return v;
}

void dat_chunk_header_put(void *hdr, uint32_t csize, uint32_t rsize, bool big_endian)
{
	put32(hdr, csize, big_endian);
	put32((uint8_t *)hdr + 4, rsize, big_endian);
}

void dat_chunk_header_get(const void *hdr, uint32_t *csize, uint32_t *rsize, bool big_endian)
{
	*csize = get32(hdr, big_endian);
	*rsize = get32((const uint8_t *)hdr + 4, big_endian);
}

size_t dat_chunk_bound(enum kt_compression c, size_t len)
{
	return DAT_CHUNK_HEADER_SIZE + kt_compress_bound(c, len);
}

int dat_chunk_pack(struct kt_codec *codec, const void *in, size_t len, bool big_endian,
		   void *out, size_t cap, size_t *out_len)
{
	size_t clen;
	int ret;

	if (cap < DAT_CHUNK_HEADER_SIZE || len > UINT32_MAX)
		return -EINVAL;
	clen = cap - DAT_CHUNK_HEADER_SIZE;
	ret = kt_codec_compress(codec, in, len, (uint8_t *)out + DAT_CHUNK_HEADER_SIZE, &clen);
	if (ret)
		return ret;
	if (clen > UINT32_MAX)
		return -EFBIG;
	dat_chunk_header_put(out, (uint32_t)clen, (uint32_t)len, big_endian);
	*out_len = DAT_CHUNK_HEADER_SIZE + clen;
	return 0;
}
