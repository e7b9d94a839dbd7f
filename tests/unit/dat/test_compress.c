// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ktrace/compress.h"

/* Something compressible but not trivial, like a ring-buffer page. */
static void fill(unsigned char *buf, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		buf[i] = (unsigned char)((i * 7) ^ (i >> 5));
}

static void round_trip(enum kt_compression c, size_t len)
{
	size_t bound = kt_compress_bound(c, len);
	unsigned char *in = malloc(len + 1);
	unsigned char *packed = malloc(bound + 1);
	unsigned char *out = malloc(len + 1);
	size_t packed_len = bound;

	assert_non_null(in);
	assert_non_null(packed);
	assert_non_null(out);
	fill(in, len);
	assert_int_equal(kt_compress(c, in, len, packed, &packed_len), 0);
	assert_true(packed_len <= bound);
	assert_int_equal(kt_decompress(c, packed, packed_len, out, len), 0);
	assert_memory_equal(in, out, len);
	/* A wrong expected size is corrupt data, not a short read. */
	if (c != KT_COMP_NONE && len > 1)
		assert_int_equal(kt_decompress(c, packed, packed_len, out, len - 1), -EBADMSG);
	/* Garbage must be refused, not crash. */
	if (c != KT_COMP_NONE) {
		memset(packed, 0xa5, packed_len);
		assert_int_equal(kt_decompress(c, packed, packed_len, out, len), -EBADMSG);
	}
	free(in);
	free(packed);
	free(out);
}

static void test_none(void **state)
{
	(void)state;
	round_trip(KT_COMP_NONE, 4096);
}

static void test_zlib(void **state)
{
	(void)state;
	round_trip(KT_COMP_ZLIB, 4096);
	round_trip(KT_COMP_ZLIB, 10 * 4096);
}

static void test_zstd(void **state)
{
	(void)state;
	round_trip(KT_COMP_ZSTD, 4096);
	round_trip(KT_COMP_ZSTD, 10 * 4096);
}

static void test_codec_reuse(void **state)
{
	unsigned char in[8192], packed[16384], out[8192];
	struct kt_codec *codec;
	size_t len;
	int i;

	(void)state;
	fill(in, sizeof(in));
	assert_int_equal(kt_codec_new(KT_COMP_ZSTD, &codec), 0);
	for (i = 0; i < 3; i++) {
		len = sizeof(packed);
		assert_int_equal(kt_codec_compress(codec, in, sizeof(in), packed, &len), 0);
		assert_int_equal(kt_codec_decompress(codec, packed, len, out, sizeof(out)), 0);
		assert_memory_equal(in, out, sizeof(in));
	}
	kt_codec_free(codec);
}

/* kt_unpack: fed and drained in small uneven pieces, the same bytes as kt_decompress() */
static void unpack_pieces(enum kt_compression c, size_t len)
{
	size_t bound = kt_compress_bound(c, len), packed_len = bound, got = 0, in_len, n, out_len;
	unsigned char *in = malloc(len), *packed = malloc(bound), *out = malloc(len + 64);
	struct kt_unpack *u;
	const void *src;
	int ret = 0;

	assert_non_null(in);
	assert_non_null(packed);
	assert_non_null(out);
	fill(in, len);
	assert_int_equal(kt_compress(c, in, len, packed, &packed_len), 0);
	assert_int_equal(kt_unpack_new(c, &u), 0);
	for (n = 0; n < packed_len && ret != 1; n += in_len) {
		in_len = packed_len - n < 1000 ? packed_len - n : 1000;
		src = packed + n;
		do {
			out_len = 777;
			ret = kt_unpack_step(u, &src, &in_len, out + got, &out_len);
			assert_true(ret >= 0);
			got += out_len;
			assert_true(got <= len);
		} while (ret != 1 && (in_len || out_len == 777));
		in_len = (size_t)((const unsigned char *)src - (packed + n));
	}
	assert_int_equal(ret, 1);
	assert_int_equal(got, len);
	assert_memory_equal(in, out, len);
	kt_unpack_free(u);
	/* a damaged stream is an error, not a short result */
	assert_int_equal(kt_unpack_new(c, &u), 0);
	memset(packed + packed_len / 2, 0xa5, packed_len - packed_len / 2);
	src = packed;
	in_len = packed_len;
	got = 0;
	do {
		out_len = len + 64 - got;
		ret = kt_unpack_step(u, &src, &in_len, out + got, &out_len);
		got += out_len;
	} while (ret == 0 && in_len && got < len + 64);
	assert_true(ret < 0 || got != len || memcmp(in, out, len));
	kt_unpack_free(u);
	free(in);
	free(packed);
	free(out);
}

static void test_unpack(void **state)
{
	(void)state;
	unpack_pieces(KT_COMP_ZSTD, 300000);
	unpack_pieces(KT_COMP_ZLIB, 300000);
	unpack_pieces(KT_COMP_ZSTD, 1);
}

struct sink {
	unsigned char *buf;
	size_t len, cap;
	int calls;
};

static int sink_emit(void *arg, const void *data, size_t len)
{
	struct sink *s = arg;

	assert_true(s->len + len <= s->cap);
	memcpy(s->buf + s->len, data, len);
	s->len += len;
	s->calls++;
	return 0;
}

/*
 * The parts end to end make one block that kt_decompress() (one frame, as trace-cmd reads it)
 * and the streaming reader take whole; a codec that also compresses chunks keeps doing so.
 */
static void parts_round_trip(enum kt_compression c, size_t len)
{
	size_t bound = kt_compress_bound(c, len + 4) + 64;
	unsigned char *in = malloc(len + 4), *out = malloc(len + 5);
	unsigned char chunk[4096], back[4096], z[8192];
	struct sink s = { malloc(bound), 0, bound, 0 };
	uint32_t size = (uint32_t)len;
	struct kt_part parts[2] = { { &size, 4 }, { in + 4, len } };
	struct kt_codec *codec;
	uint64_t clen = 0;
	size_t zlen = sizeof(z);

	assert_non_null(in);
	assert_non_null(out);
	assert_non_null(s.buf);
	fill(in + 4, len);
	memcpy(in, &size, 4);
	assert_int_equal(kt_codec_new(c, &codec), 0);
	assert_int_equal(kt_codec_compress_parts(codec, parts, 2, sink_emit, &s, &clen), 0);
	assert_int_equal(clen, s.len);
	assert_int_equal(kt_decompress(c, s.buf, s.len, out, len + 4), 0);
	assert_memory_equal(in, out, len + 4);
	if (c == KT_COMP_ZSTD && len > (1 << 20))
		assert_true(s.calls > 1);	/* handed out in pieces, not in one buffer */
	/* the same codec, then used for chunks (a stream left open would corrupt these) */
	fill(chunk, sizeof(chunk));
	assert_int_equal(kt_codec_compress(codec, chunk, sizeof(chunk), z, &zlen), 0);
	assert_int_equal(kt_decompress(c, z, zlen, back, sizeof(chunk)), 0);
	assert_memory_equal(chunk, back, sizeof(chunk));
	/* nothing at all is a valid block too */
	s.len = 0;
	assert_int_equal(kt_codec_compress_parts(codec, parts, 0, sink_emit, &s, &clen), 0);
	assert_int_equal(clen, s.len);
	assert_int_equal(kt_decompress(c, s.buf, s.len, out, 0), 0);
	kt_codec_free(codec);
	free(in);
	free(out);
	free(s.buf);
}

static void test_parts(void **state)
{
	(void)state;
	parts_round_trip(KT_COMP_ZSTD, 5 << 20);
	parts_round_trip(KT_COMP_ZSTD, 100);
	parts_round_trip(KT_COMP_ZLIB, 300000);
}

static void test_names(void **state)
{
	enum kt_compression c;

	(void)state;
	assert_int_equal(kt_compression_from_name("zstd", &c), 0);
	assert_int_equal(c, KT_COMP_ZSTD);
	assert_int_equal(kt_compression_from_name("zlib", &c), 0);
	assert_int_equal(c, KT_COMP_ZLIB);
	assert_int_equal(kt_compression_from_name("none", &c), 0);
	assert_int_equal(c, KT_COMP_NONE);
	assert_int_equal(kt_compression_from_name("lz4", &c), -EINVAL);
	assert_string_equal(kt_compression_name(KT_COMP_ZSTD), "zstd");
	assert_true(strlen(kt_compression_version(KT_COMP_ZSTD)) > 0);
	assert_true(strlen(kt_compression_version(KT_COMP_ZLIB)) > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_none),
		cmocka_unit_test(test_zlib),
		cmocka_unit_test(test_zstd),
		cmocka_unit_test(test_codec_reuse),
		cmocka_unit_test(test_unpack),
		cmocka_unit_test(test_parts),
		cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
