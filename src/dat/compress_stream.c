// SPDX-License-Identifier: GPL-2.0-only
/*
 * One compressed block decompressed piece by piece, for blocks too large to hold whole next
 * to what they are parsed into (the kallsyms section: 1 MB compressed, 5 MB of text). The
 * same streams as kt_decompress() reads: a zlib stream, or one zstd frame.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

#include "ktrace/compress.h"

struct kt_unpack {
	enum kt_compression comp;
	ZSTD_DStream *zs;
	z_stream z;
	bool z_live;
};

int kt_unpack_new(enum kt_compression c, struct kt_unpack **out)
{
	struct kt_unpack *u = calloc(1, sizeof(*u));

	if (!u)
		return -ENOMEM;
	u->comp = c;
	if (c == KT_COMP_ZSTD) {
		u->zs = ZSTD_createDStream();
		if (!u->zs || ZSTD_isError(ZSTD_initDStream(u->zs))) {
			kt_unpack_free(u);
			return -ENOMEM;
		}
	} else if (c == KT_COMP_ZLIB) {
		if (inflateInit(&u->z) != Z_OK) {
			free(u);
			return -ENOMEM;
		}
		u->z_live = true;
	}
	*out = u;
	return 0;
}

void kt_unpack_free(struct kt_unpack *u)
{
	if (!u)
		return;
	ZSTD_freeDStream(u->zs);
	if (u->z_live)
		inflateEnd(&u->z);
	free(u);
}

static int zstd_step(struct kt_unpack *u, const void **in, size_t *in_len, void *out,
		     size_t *out_len)
{
	ZSTD_inBuffer ib = { *in, *in_len, 0 };
	ZSTD_outBuffer ob = { out, *out_len, 0 };
	size_t ret = ZSTD_decompressStream(u->zs, &ob, &ib);

	if (ZSTD_isError(ret))
		return -EBADMSG;
	*in = (const char *)*in + ib.pos;
	*in_len -= ib.pos;
	*out_len = ob.pos;
	return ret == 0;
}

static int zlib_step(struct kt_unpack *u, const void **in, size_t *in_len, void *out,
		     size_t *out_len)
{
	int ret;

	u->z.next_in = (Bytef *)(uintptr_t)*in;
	u->z.avail_in = (uInt)*in_len;
	u->z.next_out = out;
	u->z.avail_out = (uInt)*out_len;
	ret = inflate(&u->z, Z_NO_FLUSH);
	if (ret != Z_OK && ret != Z_STREAM_END && ret != Z_BUF_ERROR)
		return -EBADMSG;
	*in = u->z.next_in;
	*in_len = u->z.avail_in;
	*out_len -= u->z.avail_out;
	return ret == Z_STREAM_END;
}

int kt_unpack_step(struct kt_unpack *u, const void **in, size_t *in_len, void *out,
		   size_t *out_len)
{
	size_t n;

	switch (u->comp) {
	case KT_COMP_ZSTD:
		return zstd_step(u, in, in_len, out, out_len);
	case KT_COMP_ZLIB:
		if (*in_len > UINT32_MAX || *out_len > UINT32_MAX)
			return -EINVAL;
		return zlib_step(u, in, in_len, out, out_len);
	case KT_COMP_NONE:
		n = *in_len < *out_len ? *in_len : *out_len;
		memcpy(out, *in, n);
		*in = (const char *)*in + n;
		*in_len -= n;
		*out_len = n;
		return 0;
	}
	return -EINVAL;
}
