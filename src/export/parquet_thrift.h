/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_EXPORT_PARQUET_THRIFT_H
#define KTRACE_EXPORT_PARQUET_THRIFT_H

/*
 * Thrift's compact protocol, the encoding of Parquet's metadata (its page headers and the
 * footer's FileMetaData), written for what Parquet needs: structs of integer, bool, binary,
 * struct and list fields. A field is a header byte (the delta from the previous field id in the
 * high nibble, the type in the low one; a long form when the delta is not 1..15), integers are
 * zigzag varints, binary is a varint length and the bytes, a struct ends with a 0 byte.
 *
 * Errors are sticky, as in pb.h: calls after a failure do nothing and t->error says why.
 */
#include <stddef.h>
#include <stdint.h>

#include "ktrace/strbuf.h"

/* The compact protocol's type ids */
enum pq_thrift_type {
	PQ_T_TRUE = 1,
	PQ_T_FALSE = 2,
	PQ_T_BYTE = 3,
	PQ_T_I16 = 4,
	PQ_T_I32 = 5,
	PQ_T_I64 = 6,
	PQ_T_DOUBLE = 7,
	PQ_T_BINARY = 8,
	PQ_T_LIST = 9,
	PQ_T_STRUCT = 12,
};

#define PQ_THRIFT_DEPTH 8

struct pq_thrift {
	struct strbuf sb;
	int error;			/* negative errno of the first failure */
	int depth;
	int16_t last[PQ_THRIFT_DEPTH];	/* the last field id of each open struct */
};

#define PQ_THRIFT_INIT { STRBUF_INIT, 0, 0, { 0 } }

void pq_thrift_reset(struct pq_thrift *t);
void pq_thrift_release(struct pq_thrift *t);

/* The outermost struct, a struct that is a field, a struct that is a list element */
void pq_thrift_begin(struct pq_thrift *t);
void pq_thrift_struct(struct pq_thrift *t, int field);
void pq_thrift_end(struct pq_thrift *t);

/* Fields: i16, i32 and i64 share the zigzag varint, only the type id differs */
void pq_thrift_i32(struct pq_thrift *t, int field, int32_t v);
void pq_thrift_i64(struct pq_thrift *t, int field, int64_t v);
void pq_thrift_bool(struct pq_thrift *t, int field, int v);
void pq_thrift_binary(struct pq_thrift *t, int field, const void *data, size_t len);
void pq_thrift_string(struct pq_thrift *t, int field, const char *s);

/* A list field of n elements of type elem, then n elements of these: */
void pq_thrift_list(struct pq_thrift *t, int field, enum pq_thrift_type elem, size_t n);
void pq_thrift_elem_i32(struct pq_thrift *t, int32_t v);
void pq_thrift_elem_string(struct pq_thrift *t, const char *s);
/* (struct elements: pq_thrift_begin / pq_thrift_end) */

/* The unsigned LEB128 varint the protocol (and Parquet's RLE headers) use */
void pq_thrift_varint(struct strbuf *sb, uint64_t v, int *error);

#endif
