/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_EXPORT_PARQUET_COLUMN_H
#define KTRACE_EXPORT_PARQUET_COLUMN_H

/* Inside the Parquet writer: one column's row group buffers and the file's chunk metadata. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ktrace/strbuf.h"
#include "parquet_writer.h"

/* What the footer needs of one column chunk */
struct pq_chunk {
	int64_t nr_values;
	int64_t nr_nulls;
	int64_t uncompressed;	/* page headers and pages */
	int64_t compressed;
	int64_t data_offset;
	int64_t dict_offset;	/* -1: no dictionary page */
	bool has_minmax;
	uint64_t min_bits, max_bits;	/* int64 or double, as Parquet's PLAIN bytes */
};

struct pq_column {
	char *name;
	enum pq_kind kind;
	bool not_utf8;		/* a TEXT value was not UTF-8: the column is plain BYTE_ARRAY */
	bool no_dict;		/* a chunk's dictionary overflowed: later chunks go PLAIN at once */

	/* the row group being buffered */
	uint8_t *defs;		/* 1: a value, 0: NULL, one per row */
	size_t nr_rows, defs_alloc;
	struct strbuf plain;	/* the PLAIN values (without the dictionary's) */
	uint32_t *idx;		/* with the dictionary: an entry per value */
	size_t nr_idx, idx_alloc;
	struct strbuf dict;	/* the dictionary's entries, PLAIN */
	uint32_t *entries;	/* the offset of each entry in dict */
	size_t nr_entries, entries_alloc;
	uint32_t *slots;	/* open addressing: entry + 1, 0 free */
	size_t nr_slots;
	bool plain_now;		/* this chunk gave up its dictionary */
	int64_t nr_nulls;
	bool has_minmax;
	int64_t imin, imax;
	double dmin, dmax;

	/* the file so far */
	struct pq_chunk *chunks;
	size_t nr_chunks, chunks_alloc;
};

int pq_column_init(struct pq_column *c, const char *name);
void pq_column_release(struct pq_column *c);
/* Forget the row group (buffers kept for the next one) */
void pq_column_reset(struct pq_column *c);
bool pq_column_uses_dict(const struct pq_column *c);
size_t pq_column_bytes(const struct pq_column *c);

int pq_column_null(struct pq_column *c);
int pq_column_int64(struct pq_column *c, int64_t v);
int pq_column_double(struct pq_column *c, double v);
int pq_column_bytes_value(struct pq_column *c, const void *data, size_t len, size_t dict_limit);

#endif
