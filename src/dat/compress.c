// SPDX-License-Identifier: GPL-2.0-only
/*
 * The compressions of trace.dat v7. zlib chunks are plain zlib streams (compress2/uncompress);
 * zstd chunks are single zstd frames, written without the content size as trace-cmd does so
 * that both readers accept our files and we accept theirs.
 *
 * zstd runs at level 1, not its default 3: on trace pages and kallsyms it is about twice as
 * fast for files within a few percent of the size (kallsyms even pack smaller), and compressing
 * is most of what a recorder spends per event. listen keeps zstd's default, as trace-cmd does
 * (kt_codec_like_trace_cmd()).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>
#include <zstd_errors.h>

#include "ktrace/compress.h"

#define ZSTD_LEVEL	1

struct kt_codec {
	enum kt_compression comp;
	int zstd_level;
	ZSTD_CCtx *cctx;	/* created on first compression */
	ZSTD_DCtx *dctx;	/* created on first decompression */
	void *obuf;		/* kt_codec_compress_parts(): compressed bytes on their way out */
	z_stream z;		/* kt_codec_feed*() with zlib */
	bool z_live;
};

static const char *const comp_names[] = {
	[KT_COMP_NONE] = "none",
	[KT_COMP_ZLIB] = "zlib",
	[KT_COMP_ZSTD] = "zstd",
};

const char *kt_compression_name(enum kt_compression c)
{
	if ((unsigned int)c >= sizeof(comp_names) / sizeof(comp_names[0]))
		return "unknown";
	return comp_names[c];
}

const char *kt_compression_version(enum kt_compression c)
{
	switch (c) {
	case KT_COMP_ZLIB:
		return zlibVersion();
	case KT_COMP_ZSTD:
		return ZSTD_versionString();
	default:
		return "";
	}
}

int kt_compression_from_name(const char *name, enum kt_compression *out)
{
	size_t i;

	for (i = 0; i < sizeof(comp_names) / sizeof(comp_names[0]); i++) {
		if (strcmp(name, comp_names[i]) == 0) {
			*out = (enum kt_compression)i;
			return 0;
		}
	}
	return -EINVAL;
}

size_t kt_compress_bound(enum kt_compression c, size_t len)
{
	switch (c) {
	case KT_COMP_ZLIB:
		return compressBound(len);
	case KT_COMP_ZSTD:
		return ZSTD_compressBound(len);
	default:
		return len;
	}
}

int kt_codec_new(enum kt_compression c, struct kt_codec **out)
{
	struct kt_codec *codec;

	if ((unsigned int)c > KT_COMP_ZSTD)
		return -EINVAL;
	codec = calloc(1, sizeof(*codec));
	if (!codec)
		return -ENOMEM;
	codec->comp = c;
	codec->zstd_level = ZSTD_LEVEL;
	*out = codec;
	return 0;
}

void kt_codec_like_trace_cmd(struct kt_codec *codec)
{
	codec->zstd_level = ZSTD_CLEVEL_DEFAULT;
}

void kt_codec_free(struct kt_codec *codec)
{
	if (!codec)
		return;
	ZSTD_freeCCtx(codec->cctx);
	ZSTD_freeDCtx(codec->dctx);
	if (codec->z_live)
		deflateEnd(&codec->z);
	free(codec->obuf);
	free(codec);
}

enum kt_compression kt_codec_compression(const struct kt_codec *codec)
{
	return codec->comp;
}

static int zlib_compress(const void *in, size_t in_len, void *out, size_t *out_len)
{
	uLongf olen = *out_len;
	int ret;

	if (in_len > UINT32_MAX || *out_len > UINT32_MAX)
		return -EOVERFLOW;
	ret = compress2(out, &olen, in, in_len, Z_BEST_COMPRESSION);
	if (ret == Z_BUF_ERROR)
		return -ENOSPC;
	if (ret == Z_MEM_ERROR)
		return -ENOMEM;
	if (ret != Z_OK)
		return -EINVAL;
	*out_len = olen;
	return 0;
}

static int zlib_decompress(const void *in, size_t in_len, void *out, size_t out_len)
{
	uLongf olen = out_len;
	uLong ilen = in_len;
	int ret;

	if (in_len > UINT32_MAX || out_len > UINT32_MAX)
		return -EOVERFLOW;
	ret = uncompress2(out, &olen, in, &ilen);
	if (ret == Z_MEM_ERROR)
		return -ENOMEM;
	if (ret != Z_OK || olen != out_len)
		return -EBADMSG;
	return 0;
}

static int zstd_cctx(struct kt_codec *codec)
{
	if (codec->cctx)
		return 0;
	codec->cctx = ZSTD_createCCtx();
	if (!codec->cctx)
		return -ENOMEM;
	if (ZSTD_isError(ZSTD_CCtx_setParameter(codec->cctx, ZSTD_c_contentSizeFlag, 0)) ||
	    ZSTD_isError(ZSTD_CCtx_setParameter(codec->cctx, ZSTD_c_compressionLevel,
						    codec->zstd_level)))
		return -EINVAL;
	return 0;
}

static int zstd_compress(struct kt_codec *codec, const void *in, size_t in_len, void *out,
			 size_t *out_len)
{
	size_t ret = (size_t)zstd_cctx(codec);

	if (ret)
		return (int)ret;
	ret = ZSTD_compress2(codec->cctx, out, *out_len, in, in_len);
	if (ZSTD_isError(ret))
		return ZSTD_getErrorCode(ret) == ZSTD_error_dstSize_tooSmall ? -ENOSPC : -EINVAL;
	*out_len = ret;
	return 0;
}

static int zstd_decompress(struct kt_codec *codec, const void *in, size_t in_len, void *out,
			   size_t out_len)
{
	size_t ret;

	if (!codec->dctx) {
		codec->dctx = ZSTD_createDCtx();
		if (!codec->dctx)
			return -ENOMEM;
	}
	ret = ZSTD_decompressDCtx(codec->dctx, out, out_len, in, in_len);
	if (ZSTD_isError(ret) || ret != out_len)
		return -EBADMSG;
	return 0;
}

int kt_codec_compress(struct kt_codec *codec, const void *in, size_t in_len, void *out,
		      size_t *out_len)
{
	switch (codec->comp) {
	case KT_COMP_NONE:
		if (*out_len < in_len)
			return -ENOSPC;
		memcpy(out, in, in_len);
		*out_len = in_len;
		return 0;
	case KT_COMP_ZLIB:
		return zlib_compress(in, in_len, out, out_len);
	case KT_COMP_ZSTD:
		return zstd_compress(codec, in, in_len, out, out_len);
	}
	return -EINVAL;
}

/* One zstd frame, as ZSTD_compress2() would make it of the parts put end to end. */
static int zstd_parts(struct kt_codec *codec, const struct kt_part *parts, int nr,
		      kt_emit_fn emit, void *arg, uint64_t *out_len)
{
	size_t cap = ZSTD_CStreamOutSize(), left, total = 0;
	int i, ret = zstd_cctx(codec);

	if (!ret && !codec->obuf)
		codec->obuf = malloc(cap);
	if (!ret && !codec->obuf)
		ret = -ENOMEM;
	for (i = 0; !ret && i < nr; i++)
		total += parts[i].len;
	/* the frame's parameters then fit its size, as in one call; no size is written */
	if (!ret && (ZSTD_isError(ZSTD_CCtx_reset(codec->cctx, ZSTD_reset_session_only)) ||
		     ZSTD_isError(ZSTD_CCtx_setPledgedSrcSize(codec->cctx, total))))
		ret = -EINVAL;
	*out_len = 0;
	for (i = 0; !ret && i <= nr; i++) {
		ZSTD_inBuffer in = { i < nr ? parts[i].data : "", i < nr ? parts[i].len : 0, 0 };
		ZSTD_EndDirective mode = i < nr ? ZSTD_e_continue : ZSTD_e_end;

		do {
			ZSTD_outBuffer out = { codec->obuf, cap, 0 };

			left = ZSTD_compressStream2(codec->cctx, &out, &in, mode);
			if (ZSTD_isError(left))
				ret = -EINVAL;
			else if (out.pos)
				ret = emit(arg, codec->obuf, out.pos);
			*out_len += out.pos;
		} while (!ret && (mode == ZSTD_e_end ? left : in.pos < in.size));
	}
	if (ret)
		ZSTD_CCtx_reset(codec->cctx, ZSTD_reset_session_only);
	return ret;
}

/* zlib and none: the parts end to end, compressed in one call. */
static int whole_parts(struct kt_codec *codec, const struct kt_part *parts, int nr,
		       kt_emit_fn emit, void *arg, uint64_t *out_len)
{
	size_t len = 0, clen, at = 0;
	char *in, *out;
	int i, ret;

	for (i = 0; i < nr; i++)
		len += parts[i].len;
	clen = kt_compress_bound(codec->comp, len);
	in = malloc(len ? len : 1);
	out = malloc(clen ? clen : 1);
	ret = in && out ? 0 : -ENOMEM;
	for (i = 0; !ret && i < nr; i++) {
		memcpy(in + at, parts[i].data, parts[i].len);
		at += parts[i].len;
	}
	if (!ret)
		ret = kt_codec_compress(codec, in, len, out, &clen);
	if (!ret && clen)
		ret = emit(arg, out, clen);
	*out_len = ret ? 0 : clen;
	free(in);
	free(out);
	return ret;
}

int kt_codec_compress_parts(struct kt_codec *codec, const struct kt_part *parts, int nr,
			    kt_emit_fn emit, void *arg, uint64_t *out_len)
{
	if (codec->comp == KT_COMP_ZSTD)
		return zstd_parts(codec, parts, nr, emit, arg, out_len);
	return whole_parts(codec, parts, nr, emit, arg, out_len);
}

int kt_codec_decompress(struct kt_codec *codec, const void *in, size_t in_len, void *out,
			size_t out_len)
{
	switch (codec->comp) {
	case KT_COMP_NONE:
		if (in_len != out_len)
			return -EBADMSG;
		memcpy(out, in, in_len);
		return 0;
	case KT_COMP_ZLIB:
		return zlib_decompress(in, in_len, out, out_len);
	case KT_COMP_ZSTD:
		return zstd_decompress(codec, in, in_len, out, out_len);
	}
	return -EINVAL;
}

int kt_compress(enum kt_compression c, const void *in, size_t in_len, void *out, size_t *out_len)
{
	struct kt_codec *codec;
	int ret = kt_codec_new(c, &codec);

	if (ret)
		return ret;
	ret = kt_codec_compress(codec, in, in_len, out, out_len);
	kt_codec_free(codec);
	return ret;
}

int kt_decompress(enum kt_compression c, const void *in, size_t in_len, void *out, size_t out_len)
{
	struct kt_codec *codec;
	int ret = kt_codec_new(c, &codec);

	if (ret)
		return ret;
	ret = kt_codec_decompress(codec, in, in_len, out, out_len);
	kt_codec_free(codec);
	return ret;
}

/*
 * The feed: one block built from pieces that arrive one at a time. zstd's streaming mode
 * makes one frame of them without the content size (as kt_codec_compress() does); the frame's
 * parameters are those of an unknown size, since the last block of a recording is shorter.
 */
static int zstd_feed(struct kt_codec *codec, const void *data, size_t len, bool end,
		     kt_emit_fn emit, void *arg)
{
	size_t cap = ZSTD_CStreamOutSize(), left;
	ZSTD_inBuffer in = { data, len, 0 };
	int ret = 0;

	if (!codec->obuf)
		codec->obuf = malloc(cap);
	if (!codec->obuf)
		return -ENOMEM;
	do {
		ZSTD_outBuffer out = { codec->obuf, cap, 0 };

		left = ZSTD_compressStream2(codec->cctx, &out, &in,
					    end ? ZSTD_e_end : ZSTD_e_continue);
		if (ZSTD_isError(left))
			return -EINVAL;
		if (out.pos)
			ret = emit(arg, codec->obuf, out.pos);
	} while (!ret && (end ? left : in.pos < in.size));
	return ret;
}

static int zlib_feed(struct kt_codec *codec, const void *data, size_t len, bool end,
		     kt_emit_fn emit, void *arg)
{
	unsigned char out[16384];
	int zr, ret = 0;

	if (len > UINT32_MAX)
		return -EOVERFLOW;
	codec->z.next_in = (Bytef *)(uintptr_t)data;
	codec->z.avail_in = (uInt)len;
	do {
		codec->z.next_out = out;
		codec->z.avail_out = sizeof(out);
		zr = deflate(&codec->z, end ? Z_FINISH : Z_NO_FLUSH);
		if (zr == Z_STREAM_ERROR)
			return -EINVAL;
		if (codec->z.avail_out < sizeof(out))
			ret = emit(arg, out, sizeof(out) - codec->z.avail_out);
	} while (!ret && (end ? zr != Z_STREAM_END : codec->z.avail_in || !codec->z.avail_out));
	return ret;
}

int kt_codec_feed_begin(struct kt_codec *codec)
{
	int ret;

	switch (codec->comp) {
	case KT_COMP_ZSTD:
		ret = zstd_cctx(codec);
		if (!ret && ZSTD_isError(ZSTD_CCtx_reset(codec->cctx, ZSTD_reset_session_only)))
			ret = -EINVAL;
		return ret;
	case KT_COMP_ZLIB:
		if (codec->z_live)
			return deflateReset(&codec->z) == Z_OK ? 0 : -EINVAL;
		if (deflateInit(&codec->z, Z_BEST_COMPRESSION) != Z_OK)
			return -ENOMEM;
		codec->z_live = true;
		return 0;
	case KT_COMP_NONE:
		return 0;
	}
	return -EINVAL;
}

int kt_codec_feed(struct kt_codec *codec, const void *data, size_t len, kt_emit_fn emit,
		  void *arg)
{
	switch (codec->comp) {
	case KT_COMP_ZSTD:
		return zstd_feed(codec, data, len, false, emit, arg);
	case KT_COMP_ZLIB:
		return zlib_feed(codec, data, len, false, emit, arg);
	case KT_COMP_NONE:
		return len ? emit(arg, data, len) : 0;
	}
	return -EINVAL;
}

int kt_codec_feed_end(struct kt_codec *codec, kt_emit_fn emit, void *arg)
{
	switch (codec->comp) {
	case KT_COMP_ZSTD:
		return zstd_feed(codec, "", 0, true, emit, arg);
	case KT_COMP_ZLIB:
		return zlib_feed(codec, "", 0, true, emit, arg);
	case KT_COMP_NONE:
		return 0;
	}
	return -EINVAL;
}
