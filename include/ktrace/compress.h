/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_COMPRESS_H
#define KTRACE_COMPRESS_H

#include <stddef.h>
#include <stdint.h>

/* The compressions ktrace reads and writes; the names are those written in the file header. */
enum kt_compression {
	KT_COMP_NONE,
	KT_COMP_ZLIB,
	KT_COMP_ZSTD,
};

/* "none", "zlib", "zstd" */
const char *kt_compression_name(enum kt_compression c);
/* Library version written next to the name in the file header, e.g. "1.5.4". */
const char *kt_compression_version(enum kt_compression c);
/* 0, or -EINVAL for a name this build does not know. */
int kt_compression_from_name(const char *name, enum kt_compression *out);
/* Worst-case compressed size of `len` bytes. */
size_t kt_compress_bound(enum kt_compression c, size_t len);
/*
 * Compresses `in` into `out` (capacity *out_len); sets *out_len to the compressed size.
 * 0 or negative errno.
 */
int kt_compress(enum kt_compression c, const void *in, size_t in_len, void *out, size_t *out_len);
/*
 * Decompresses `in` into exactly `out_len` bytes of `out`; -EBADMSG when the data is corrupt
 * or does not decompress to exactly out_len bytes.
 */
int kt_decompress(enum kt_compression c, const void *in, size_t in_len, void *out, size_t out_len);

/*
 * A reusable (de)compression context: zstd allocates sizeable state per call otherwise, and the
 * reader decompresses one chunk per few pages. One context per thread.
 */
struct kt_codec;

int kt_codec_new(enum kt_compression c, struct kt_codec **out);
void kt_codec_free(struct kt_codec *codec);
/*
 * Compress as trace-cmd does (zstd's default level, not ktrace's faster one): listen stores
 * what a client sends so that its file is the one trace-cmd listen makes of the same stream.
 * Call before the first compression.
 */
void kt_codec_like_trace_cmd(struct kt_codec *codec);
enum kt_compression kt_codec_compression(const struct kt_codec *codec);
/* Same contracts as kt_compress() / kt_decompress(). */
int kt_codec_compress(struct kt_codec *codec, const void *in, size_t in_len, void *out,
		      size_t *out_len);
int kt_codec_decompress(struct kt_codec *codec, const void *in, size_t in_len, void *out,
			size_t out_len);

/* A piece of the input of kt_codec_compress_parts(). */
struct kt_part {
	const void *data;
	size_t len;
};
typedef int (*kt_emit_fn)(void *arg, const void *data, size_t len);
/*
 * Compresses the parts, in order, as one block (what kt_codec_compress() makes of them put end
 * to end) and hands the result to emit() piece by piece, so that a large input (kallsyms) needs
 * neither a copy nor an output buffer of its size. *out_len: the compressed size. 0 or
 * negative errno, emit()'s included.
 */
int kt_codec_compress_parts(struct kt_codec *codec, const struct kt_part *parts, int nr,
			    kt_emit_fn emit, void *arg, uint64_t *out_len);

/*
 * One block fed piece by piece as the pieces arrive (the recorder's pages, each valid only
 * until it takes the next): begin, any number of feeds, end. The result, handed to emit() as
 * it comes, decompresses like a kt_codec_compress() block of the pieces put end to end. A
 * failed feed leaves the block unusable; begin starts the next one afresh.
 */
int kt_codec_feed_begin(struct kt_codec *codec);
int kt_codec_feed(struct kt_codec *codec, const void *data, size_t len, kt_emit_fn emit,
		  void *arg);
int kt_codec_feed_end(struct kt_codec *codec, kt_emit_fn emit, void *arg);

/*
 * Streaming decompression of one block (compress_stream.c). kt_unpack_step() decompresses
 * from *in (advancing *in and *in_len past what it used) into out, at most *out_len bytes,
 * and sets *out_len to what it wrote: 1 once the stream has ended, 0 while it wants more
 * input or room, -EBADMSG on corrupt data. KT_COMP_NONE copies and never ends.
 */
struct kt_unpack;
int kt_unpack_new(enum kt_compression c, struct kt_unpack **out);
int kt_unpack_step(struct kt_unpack *u, const void **in, size_t *in_len, void *out,
		   size_t *out_len);
void kt_unpack_free(struct kt_unpack *u);

#endif
