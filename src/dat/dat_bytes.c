// SPDX-License-Identifier: GPL-2.0-only
/* A bounded walk over a block held in memory (dat_bytes.h). */
#include <errno.h>
#include <string.h>

#include "ktrace/dat_bytes.h"

int dat_bytes_num(struct dat_bytes *b, int bytes, uint64_t *v)
{
	uint64_t x = 0;
	int i;

	if (b->pos > b->len || (uint64_t)bytes > b->len - b->pos)
		return -EBADMSG;
	for (i = 0; i < bytes; i++) {
		int shift = b->big_endian ? (bytes - 1 - i) * 8 : i * 8;

		x |= (uint64_t)b->p[b->pos + i] << shift;
	}
	b->pos += bytes;
	*v = x;
	return 0;
}

int dat_bytes_str(struct dat_bytes *b, const char **s)
{
	const uint8_t *nul;

	if (b->pos >= b->len)
		return -EBADMSG;
	nul = memchr(b->p + b->pos, '\0', b->len - b->pos);
	if (!nul)
		return -EBADMSG;
	*s = (const char *)b->p + b->pos;
	b->pos = (uint64_t)(nul - b->p) + 1;
	return 0;
}

int dat_bytes_run(struct dat_bytes *b, uint64_t len, const uint8_t **p)
{
	if (b->pos > b->len || len > b->len - b->pos)
		return -EBADMSG;
	*p = b->p + b->pos;
	b->pos += len;
	return 0;
}
