// SPDX-License-Identifier: GPL-2.0-only
/*
 * The protobuf encoder: each case is the byte string the protocol buffers encoding guide gives
 * (or that follows from it by hand) for one field.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "pb.h"

static void expect(struct pb *pb, const unsigned char *want, size_t len)
{
	assert_int_equal(pb->error, 0);
	assert_int_equal(pb->sb.len, len);
	assert_memory_equal(pb->sb.buf, want, len);
	pb_release(pb);
}

static void test_varint_fields(void **state)
{
	/* the guide's examples: field 1 = 150 is 08 96 01 */
	static const unsigned char f150[] = { 0x08, 0x96, 0x01 };
	static const unsigned char zero[] = { 0x08, 0x00 };
	static const unsigned char max[] = { 0x10, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
					     0xff, 0x01 };
	/* an int32 -1 takes ten bytes: the value is sign-extended to 64 bits */
	static const unsigned char minus1[] = { 0x18, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
						0xff, 0xff, 0x01 };
	/* field numbers above 15 need a two-byte key: 327 << 3 = 0xa38 */
	static const unsigned char big_field[] = { 0xb8, 0x14, 0x07 };
	struct pb pb = PB_INIT;

	(void)state;
	pb_uint(&pb, 1, 150);
	expect(&pb, f150, sizeof(f150));
	pb_uint(&pb, 1, 0);
	expect(&pb, zero, sizeof(zero));
	pb_uint(&pb, 2, UINT64_MAX);
	expect(&pb, max, sizeof(max));
	pb_int(&pb, 3, -1);
	expect(&pb, minus1, sizeof(minus1));
	pb_uint(&pb, 327, 7);
	expect(&pb, big_field, sizeof(big_field));
}

static void test_strings(void **state)
{
	/* the guide's example: field 2 = "testing" is 12 07 74 65 73 74 69 6e 67 */
	static const unsigned char testing[] = { 0x12, 0x07, 't', 'e', 's', 't', 'i', 'n', 'g' };
	static const unsigned char empty[] = { 0x1a, 0x00 };
	struct pb pb = PB_INIT;

	(void)state;
	pb_str(&pb, 2, "testing");
	expect(&pb, testing, sizeof(testing));
	pb_bytes(&pb, 3, "", 0);
	expect(&pb, empty, sizeof(empty));
}

static void test_nested_length_is_padded(void **state)
{
	/*
	 * field 3 { field 1 = 150 } with its length in four bytes: 3 as 83 80 80 00. The inner
	 * message, nested again, gives the outer one 3 + 1 + 4 = 8 bytes.
	 */
	static const unsigned char one[] = { 0x1a, 0x83, 0x80, 0x80, 0x00, 0x08, 0x96, 0x01 };
	static const unsigned char two[] = { 0x0a, 0x88, 0x80, 0x80, 0x00,
					     0x1a, 0x83, 0x80, 0x80, 0x00, 0x08, 0x96, 0x01 };
	struct pb pb = PB_INIT;
	size_t outer, inner;

	(void)state;
	inner = pb_open(&pb, 3);
	pb_uint(&pb, 1, 150);
	pb_close(&pb, inner);
	expect(&pb, one, sizeof(one));

	outer = pb_open(&pb, 1);
	inner = pb_open(&pb, 3);
	pb_uint(&pb, 1, 150);
	pb_close(&pb, inner);
	pb_close(&pb, outer);
	expect(&pb, two, sizeof(two));
}

static void test_nested_length_two_groups(void **state)
{
	/* 301 = 2 * 128 + 45: groups 0xad, 0x82, then the padding groups 0x80, 0x00 */
	struct pb pb = PB_INIT;
	char data[298];
	size_t m;

	(void)state;
	memset(data, 'x', sizeof(data));
	m = pb_open(&pb, 1);
	pb_bytes(&pb, 2, data, 296);	/* key + length 2 bytes (296 > 127) + 296 = 299 */
	pb_uint(&pb, 3, 0);		/* 2 more: 301 */
	pb_close(&pb, m);
	assert_int_equal(pb.error, 0);
	assert_int_equal(pb.sb.len, 5 + 301);
	assert_int_equal((unsigned char)pb.sb.buf[1], 0xad);
	assert_int_equal((unsigned char)pb.sb.buf[2], 0x82);
	assert_int_equal((unsigned char)pb.sb.buf[3], 0x80);
	assert_int_equal((unsigned char)pb.sb.buf[4], 0x00);
	pb_release(&pb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_varint_fields),
		cmocka_unit_test(test_strings),
		cmocka_unit_test(test_nested_length_is_padded),
		cmocka_unit_test(test_nested_length_two_groups),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
