// SPDX-License-Identifier: GPL-2.0-only
/*
 * Parquet's RLE / bit-packing hybrid, the encoding of definition levels and of dictionary
 * indices: a run of 8 or more equal values is one RLE run (header len << 1, then the value in
 * whole bytes), anything else goes in bit-packed groups of 8 values (header groups << 1 | 1,
 * then the values LSB first, bit_width bits each). Only the last group may be padded, which a
 * reader knows from the page's value count.
 */
#include <errno.h>

#include "parquet_thrift.h"
#include "parquet_writer.h"

#define MIN_RUN 8

static size_t run_at(const uint32_t *v, size_t n, size_t i)
{
	size_t j = i + 1;

	while (j < n && v[j] == v[i])
		j++;
	return j - i;
}

static void put_rle(struct strbuf *out, uint32_t value, size_t len, int bit_width, int *error)
{
	int i;

	pq_thrift_varint(out, (uint64_t)len << 1, error);
	for (i = 0; i < (bit_width + 7) / 8; i++)
		if (!*error && strbuf_addch(out, (value >> (8 * i)) & 0xff))
			*error = -ENOMEM;
}

/* values [i, end) padded with zeros to whole groups of 8 */
static void put_packed(struct strbuf *out, const uint32_t *v, size_t i, size_t end,
		       int bit_width, int *error)
{
	size_t groups = (end - i + 7) / 8, k;
	uint64_t acc = 0;
	int bits = 0;

	pq_thrift_varint(out, (uint64_t)groups << 1 | 1, error);
	for (k = 0; k < groups * 8; k++) {
		acc |= (uint64_t)(i + k < end ? v[i + k] : 0) << bits;
		bits += bit_width;
		while (bits >= 8) {
			if (!*error && strbuf_addch(out, acc & 0xff))
				*error = -ENOMEM;
			acc >>= 8;
			bits -= 8;
		}
	}
	/* groups of 8 values are whole bytes: nothing is left in acc */
}

int pq_rle_encode(struct strbuf *out, const uint32_t *v, size_t n, int bit_width)
{
	int error = 0;
	size_t i = 0, j, run;

	while (i < n && !error) {
		run = run_at(v, n, i);
		if (run >= MIN_RUN) {
			put_rle(out, v[i], run, bit_width, &error);
			i += run;
			continue;
		}
		/* bit-pack whole groups until a long run starts at a group's boundary */
		j = i;
		while (j < n) {
			j += 8;
			if (j >= n || run_at(v, n, j) >= MIN_RUN)
				break;
		}
		if (j > n)
			j = n;
		put_packed(out, v, i, j, bit_width, &error);
		i = j;
	}
	return error;
}

int pq_bit_width(uint32_t max)
{
	int w = 0;

	while (max) {
		w++;
		max >>= 1;
	}
	return w;
}
