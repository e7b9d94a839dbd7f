/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_EXPORT_PARQUET_WRITER_H
#define KTRACE_EXPORT_PARQUET_WRITER_H

/*
 * A streaming Parquet writer, written from the Parquet specification (apache/parquet-format):
 * a flat schema of OPTIONAL columns, rows put one value per column at a time, buffered for one
 * row group and then written as column chunks of data pages (v1: definition levels RLE, values
 * PLAIN or RLE_DICTIONARY, the page zstd-compressed), the footer's FileMetaData in thrift's
 * compact protocol at the end. Memory is one row group's buffers (reused from group to group)
 * and a few numbers per column chunk for the footer: it does not grow with the rows.
 *
 *   parquet_thrift.c   the compact protocol (parquet_thrift.h)
 *   parquet_rle.c      the RLE / bit-packing hybrid
 *   parquet_column.c   one column's buffers: levels, values, the dictionary, statistics
 *   parquet_writer.c   row groups, pages, the footer
 *   parquet_export.c   `ktrace export --parquet`: the sql layer's tables into files
 *
 * A column's kind is set before its first value (pq_writer_set_kind): a column that only ever
 * gets NULLs is written as INT64. A TEXT column is annotated STRING (UTF-8) when every value in
 * the file is valid UTF-8, and left plain BYTE_ARRAY otherwise, so that no engine refuses to
 * read a comm with odd bytes and the bytes stay as they were.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ktrace/strbuf.h"

enum pq_kind {
	PQ_KIND_NONE,		/* no value yet */
	PQ_KIND_INT64,
	PQ_KIND_DOUBLE,
	PQ_KIND_TEXT,
	PQ_KIND_BLOB,
};

/* Parquet's physical types and encodings (parquet.thrift) that the writer uses */
enum {
	PQ_TYPE_INT64 = 2,
	PQ_TYPE_DOUBLE = 5,
	PQ_TYPE_BYTE_ARRAY = 6,
	PQ_ENC_PLAIN = 0,
	PQ_ENC_RLE = 3,
	PQ_ENC_RLE_DICTIONARY = 8,
	PQ_PAGE_DATA = 0,
	PQ_PAGE_DICTIONARY = 2,
	PQ_CODEC_UNCOMPRESSED = 0,
	PQ_CODEC_ZSTD = 6,
};

struct pq_limits {
	size_t group_rows;	/* a row group ends at this many rows */
	size_t group_bytes;	/* or when its buffers hold about this many bytes */
	size_t page_rows;	/* rows per data page */
	size_t dict_bytes;	/* a column chunk's dictionary gives up (PLAIN) beyond this */
	int zstd_level;		/* 0: pages uncompressed */
};

/* 1 M rows or 64 MB per group, 64 K rows per page, zstd level 1 */
extern const struct pq_limits pq_default_limits;

struct pq_writer;

/* A writer of the columns names[0..nr) to out; limits NULL: the defaults. 0 or -errno. */
int pq_writer_new(FILE *out, const char *const *names, int nr, const struct pq_limits *limits,
		  struct pq_writer **w);
enum pq_kind pq_writer_kind(const struct pq_writer *w, int col);
void pq_writer_set_kind(struct pq_writer *w, int col, enum pq_kind kind);

/* One value of the current row: a column of kind INT64 takes ints, DOUBLE doubles, TEXT and
 * BLOB bytes. Errors are sticky and returned by pq_writer_end_row / pq_writer_finish. */
void pq_put_null(struct pq_writer *w, int col);
void pq_put_int64(struct pq_writer *w, int col, int64_t v);
void pq_put_double(struct pq_writer *w, int col, double v);
void pq_put_bytes(struct pq_writer *w, int col, const void *data, size_t len);

/* Ends the row (every column had one value); writes a row group when it is full. 0 or -errno
 * (-EIO and errno's value for a failed write). */
int pq_writer_end_row(struct pq_writer *w);
/* Writes the last row group and the footer; 0 or -errno. The FILE stays open. */
int pq_writer_finish(struct pq_writer *w);
uint64_t pq_writer_rows(const struct pq_writer *w);
void pq_writer_free(struct pq_writer *w);

/* ------------------------------------------------------------------ inside the writer */

int pq_rle_encode(struct strbuf *out, const uint32_t *v, size_t n, int bit_width);
int pq_bit_width(uint32_t max);

#endif
