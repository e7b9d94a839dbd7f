// SPDX-License-Identifier: GPL-2.0-only
/*
 * The Parquet writer's pieces against bytes worked out by hand from the specifications: thrift's
 * compact protocol (field headers short and long, zigzag varints, bool in the header, nested
 * structs, lists), the RLE / bit-packing hybrid (the spec's own example), and a whole file of
 * one column, uncompressed, up to its page.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "parquet_thrift.h"
#include "parquet_writer.h"

static void assert_bytes(const void *got, size_t got_len, const uint8_t *want, size_t want_len)
{
	assert_int_equal(got_len, want_len);
	assert_memory_equal(got, want, want_len);
}

static void test_thrift_struct(void **state)
{
	static const uint8_t want[] = {
		0x15, 0x02,			/* 1: i32 1 */
		0x38, 0x02, 'a', 'b',		/* 4: binary "ab" (delta 3) */
		0x06, 0x28, 0x01,		/* 20: i64 -1, long form (delta 16) */
		0x11,				/* 21: bool true, in the header */
		0x1c, 0x00,			/* 22: struct {} */
		0x19, 0x25, 0x02, 0x03,		/* 23: list<i32> { 1, -2 } */
		0x12,				/* 24: bool false */
		0x00,
	};
	struct pq_thrift t = PQ_THRIFT_INIT;

	(void)state;
	pq_thrift_begin(&t);
	pq_thrift_i32(&t, 1, 1);
	pq_thrift_string(&t, 4, "ab");
	pq_thrift_i64(&t, 20, -1);
	pq_thrift_bool(&t, 21, 1);
	pq_thrift_struct(&t, 22);
	pq_thrift_end(&t);
	pq_thrift_list(&t, 23, PQ_T_I32, 2);
	pq_thrift_elem_i32(&t, 1);
	pq_thrift_elem_i32(&t, -2);
	pq_thrift_bool(&t, 24, 0);
	pq_thrift_end(&t);
	assert_int_equal(t.error, 0);
	assert_bytes(t.sb.buf, t.sb.len, want, sizeof(want));
	pq_thrift_release(&t);
}

static void test_thrift_long_list_and_varint(void **state)
{
	struct pq_thrift t = PQ_THRIFT_INIT;
	int i;

	(void)state;
	pq_thrift_begin(&t);
	pq_thrift_list(&t, 1, PQ_T_I32, 20);	/* 15 or more: size after the header */
	for (i = 0; i < 20; i++)
		pq_thrift_elem_i32(&t, 0);
	pq_thrift_i64(&t, 2, 300);		/* zigzag 600 = 0xd8 0x04 */
	pq_thrift_end(&t);
	assert_int_equal(t.error, 0);
	assert_int_equal(t.sb.len, 2 + 1 + 20 + 3 + 1);
	assert_int_equal((uint8_t)t.sb.buf[0], 0x19);
	assert_int_equal((uint8_t)t.sb.buf[1], 0xf5);
	assert_int_equal((uint8_t)t.sb.buf[2], 20);
	assert_int_equal((uint8_t)t.sb.buf[23], 0x16);
	assert_int_equal((uint8_t)t.sb.buf[24], 0xd8);
	assert_int_equal((uint8_t)t.sb.buf[25], 0x04);
	pq_thrift_release(&t);
}

static void rle(const uint32_t *v, size_t n, int bw, const uint8_t *want, size_t want_len)
{
	struct strbuf sb = STRBUF_INIT;

	assert_int_equal(pq_rle_encode(&sb, v, n, bw), 0);
	assert_bytes(sb.buf, sb.len, want, want_len);
	strbuf_release(&sb);
}

static void test_rle_hybrid(void **state)
{
	static const uint32_t ones[10] = { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 };
	static const uint32_t spec[8] = { 0, 1, 2, 3, 4, 5, 6, 7 };
	static const uint32_t few[3] = { 1, 0, 1 };
	static const uint32_t mixed[11] = { 5, 5, 5, 5, 5, 5, 5, 5, 5, 1, 2 };
	static const uint32_t wide[8] = { 300, 300, 300, 300, 300, 300, 300, 300 };
	static const uint8_t want_ones[] = { 0x14, 0x01 };
	/* the specification's example: 0..7 in 3 bits */
	static const uint8_t want_spec[] = { 0x03, 0x88, 0xc6, 0xfa };
	static const uint8_t want_few[] = { 0x03, 0x05 };
	static const uint8_t want_mixed[] = { 0x12, 0x05, 0x03, 0x11, 0x00, 0x00 };
	static const uint8_t want_wide[] = { 0x10, 0x2c, 0x01 };

	(void)state;
	rle(ones, 10, 1, want_ones, sizeof(want_ones));
	rle(spec, 8, 3, want_spec, sizeof(want_spec));
	rle(few, 3, 1, want_few, sizeof(want_few));
	rle(mixed, 11, 3, want_mixed, sizeof(want_mixed));
	rle(wide, 8, 9, want_wide, sizeof(want_wide));
	assert_int_equal(pq_bit_width(0), 0);
	assert_int_equal(pq_bit_width(1), 1);
	assert_int_equal(pq_bit_width(255), 8);
	assert_int_equal(pq_bit_width(256), 9);
}

/* One INT64 column "x", rows 1 and NULL, pages uncompressed */
static void test_tiny_file(void **state)
{
	static const uint8_t want_page[] = {
		'P', 'A', 'R', '1',
		/* PageHeader: DATA_PAGE, 14 bytes both ways, DataPageHeader{2 values, PLAIN,
		 * RLE, RLE} */
		0x15, 0x00, 0x15, 0x1c, 0x15, 0x1c, 0x2c, 0x15, 0x04, 0x15, 0x00, 0x15, 0x06,
		0x15, 0x06, 0x00, 0x00,
		/* definition levels 1, 0: their length, one bit-packed group */
		0x02, 0x00, 0x00, 0x00, 0x03, 0x01,
		/* the one value */
		0x01, 0, 0, 0, 0, 0, 0, 0,
	};
	struct pq_limits lim = pq_default_limits;
	const char *names[] = { "x" };
	struct pq_writer *w = NULL;
	uint8_t buf[1024];
	FILE *f = tmpfile();
	size_t n, footer;
	uint32_t len;

	(void)state;
	assert_non_null(f);
	lim.zstd_level = 0;
	assert_int_equal(pq_writer_new(f, names, 1, &lim, &w), 0);
	pq_writer_set_kind(w, 0, PQ_KIND_INT64);
	pq_put_int64(w, 0, 1);
	assert_int_equal(pq_writer_end_row(w), 0);
	pq_put_null(w, 0);
	assert_int_equal(pq_writer_end_row(w), 0);
	assert_int_equal(pq_writer_finish(w), 0);
	assert_int_equal(pq_writer_rows(w), 2);
	pq_writer_free(w);
	rewind(f);
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	assert_true(n > sizeof(want_page) + 8);
	assert_memory_equal(buf, want_page, sizeof(want_page));
	assert_memory_equal(buf + n - 4, "PAR1", 4);
	len = buf[n - 8] | buf[n - 7] << 8 | buf[n - 6] << 16 | (uint32_t)buf[n - 5] << 24;
	footer = n - 8 - len;
	assert_int_equal(footer, sizeof(want_page));
	/* FileMetaData: version 1, then the schema list of 2 structs: the root, "x" */
	assert_int_equal(buf[footer], 0x15);
	assert_int_equal(buf[footer + 1], 0x02);
	assert_int_equal(buf[footer + 2], 0x19);
	assert_int_equal(buf[footer + 3], 0x2c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_thrift_struct),
		cmocka_unit_test(test_thrift_long_list_and_varint),
		cmocka_unit_test(test_rle_hybrid),
		cmocka_unit_test(test_tiny_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
