// SPDX-License-Identifier: GPL-2.0-only
/*
 * Thrift's compact protocol, as much as Parquet's metadata needs (parquet_thrift.h), written
 * from the Thrift compact protocol specification.
 */
#include <errno.h>
#include <string.h>

#include "parquet_thrift.h"

void pq_thrift_reset(struct pq_thrift *t)
{
	strbuf_reset(&t->sb);
	t->error = 0;
	t->depth = 0;
}

void pq_thrift_release(struct pq_thrift *t)
{
	strbuf_release(&t->sb);
}

static void put(struct pq_thrift *t, const void *data, size_t len)
{
	if (!t->error && strbuf_add(&t->sb, data, len))
		t->error = -ENOMEM;
}

void pq_thrift_varint(struct strbuf *sb, uint64_t v, int *error)
{
	uint8_t buf[10];
	size_t n = 0;

	do {
		buf[n] = v & 0x7f;
		v >>= 7;
		if (v)
			buf[n] |= 0x80;
		n++;
	} while (v);
	if (!*error && strbuf_add(sb, buf, n))
		*error = -ENOMEM;
}

static uint64_t zigzag(int64_t v)
{
	return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

static void header(struct pq_thrift *t, int field, enum pq_thrift_type type)
{
	int delta = field - t->last[t->depth];
	uint8_t b;

	if (t->depth == 0 && !t->error) {
		t->error = -EINVAL;	/* a field outside every struct */
		return;
	}
	if (delta > 0 && delta <= 15) {
		b = (uint8_t)(delta << 4 | type);
		put(t, &b, 1);
	} else {
		b = type;
		put(t, &b, 1);
		pq_thrift_varint(&t->sb, zigzag(field), &t->error);
	}
	t->last[t->depth] = (int16_t)field;
}

void pq_thrift_begin(struct pq_thrift *t)
{
	if (t->depth + 1 >= PQ_THRIFT_DEPTH) {
		if (!t->error)
			t->error = -E2BIG;
		return;
	}
	t->last[++t->depth] = 0;
}

void pq_thrift_struct(struct pq_thrift *t, int field)
{
	header(t, field, PQ_T_STRUCT);
	pq_thrift_begin(t);
}

void pq_thrift_end(struct pq_thrift *t)
{
	uint8_t stop = 0;

	put(t, &stop, 1);
	if (t->depth > 0)
		t->depth--;
}

void pq_thrift_i32(struct pq_thrift *t, int field, int32_t v)
{
	header(t, field, PQ_T_I32);
	pq_thrift_varint(&t->sb, zigzag(v), &t->error);
}

void pq_thrift_i64(struct pq_thrift *t, int field, int64_t v)
{
	header(t, field, PQ_T_I64);
	pq_thrift_varint(&t->sb, zigzag(v), &t->error);
}

void pq_thrift_bool(struct pq_thrift *t, int field, int v)
{
	header(t, field, v ? PQ_T_TRUE : PQ_T_FALSE);
}

void pq_thrift_binary(struct pq_thrift *t, int field, const void *data, size_t len)
{
	header(t, field, PQ_T_BINARY);
	pq_thrift_varint(&t->sb, len, &t->error);
	put(t, data, len);
}

void pq_thrift_string(struct pq_thrift *t, int field, const char *s)
{
	pq_thrift_binary(t, field, s, strlen(s));
}

void pq_thrift_list(struct pq_thrift *t, int field, enum pq_thrift_type elem, size_t n)
{
	uint8_t b;

	header(t, field, PQ_T_LIST);
	if (n < 15) {
		b = (uint8_t)(n << 4 | elem);
		put(t, &b, 1);
	} else {
		b = (uint8_t)(0xf0 | elem);
		put(t, &b, 1);
		pq_thrift_varint(&t->sb, n, &t->error);
	}
}

void pq_thrift_elem_i32(struct pq_thrift *t, int32_t v)
{
	pq_thrift_varint(&t->sb, zigzag(v), &t->error);
}

void pq_thrift_elem_string(struct pq_thrift *t, const char *s)
{
	size_t len = strlen(s);

	pq_thrift_varint(&t->sb, len, &t->error);
	put(t, s, len);
}
