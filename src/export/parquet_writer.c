// SPDX-License-Identifier: GPL-2.0-only
/*
 * The Parquet writer's file: "PAR1", row groups of column chunks (a dictionary page, then data
 * pages v1 of page_rows rows each, zstd-compressed), the FileMetaData in thrift's compact
 * protocol, its length and "PAR1" again (parquet_writer.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <zstd.h>

#include "ktrace/grow.h"
#include "ktrace/version.h"
#include "parquet_column.h"
#include "parquet_thrift.h"
#include "parquet_writer.h"

const struct pq_limits pq_default_limits = {
	.group_rows = 1 << 20,
	.group_bytes = 64 << 20,
	.page_rows = 1 << 16,
	.dict_bytes = 1 << 20,
	.zstd_level = 1,
};

struct pq_group {
	int64_t nr_rows;
	int64_t bytes;		/* uncompressed, as RowGroup.total_byte_size */
};

struct pq_writer {
	FILE *out;
	uint64_t offset;	/* bytes written */
	struct pq_limits limits;
	struct pq_column *cols;
	int nr_cols;
	int error;		/* sticky: the first failure */
	uint64_t nr_rows;	/* in the file, the buffered group included */
	size_t group_rows;
	struct pq_group *groups;
	size_t nr_groups, groups_alloc;

	/* scratch, reused for every page */
	struct strbuf page;
	struct strbuf packed;
	uint32_t *levels;
	ZSTD_CCtx *zctx;
	void *zbuf;
	size_t zbuf_size;
	struct pq_thrift thrift;
};

static int write_out(struct pq_writer *w, const void *data, size_t len)
{
	if (len && fwrite(data, 1, len, w->out) != len)
		return errno ? -errno : -EIO;
	w->offset += len;
	return 0;
}

int pq_writer_new(FILE *out, const char *const *names, int nr, const struct pq_limits *limits,
		  struct pq_writer **wp)
{
	struct pq_writer *w = calloc(1, sizeof(*w));
	int i, ret = 0;

	if (!w)
		return -ENOMEM;
	w->out = out;
	w->limits = limits ? *limits : pq_default_limits;
	w->cols = calloc(nr ? (size_t)nr : 1, sizeof(*w->cols));
	w->levels = malloc(w->limits.page_rows * sizeof(*w->levels));
	w->zctx = ZSTD_createCCtx();
	if (!w->cols || !w->levels || !w->zctx)
		ret = -ENOMEM;
	for (i = 0; i < nr && !ret; i++, w->nr_cols++)
		ret = pq_column_init(&w->cols[i], names[i]);
	if (!ret)
		ret = write_out(w, "PAR1", 4);
	if (ret) {
		pq_writer_free(w);
		return ret;
	}
	*wp = w;
	return 0;
}

void pq_writer_free(struct pq_writer *w)
{
	int i;

	if (!w)
		return;
	for (i = 0; i < w->nr_cols; i++)
		pq_column_release(&w->cols[i]);
	free(w->cols);
	free(w->groups);
	free(w->levels);
	free(w->zbuf);
	ZSTD_freeCCtx(w->zctx);
	strbuf_release(&w->page);
	strbuf_release(&w->packed);
	pq_thrift_release(&w->thrift);
	free(w);
}

enum pq_kind pq_writer_kind(const struct pq_writer *w, int col)
{
	return w->cols[col].kind;
}

void pq_writer_set_kind(struct pq_writer *w, int col, enum pq_kind kind)
{
	w->cols[col].kind = kind;
}

uint64_t pq_writer_rows(const struct pq_writer *w)
{
	return w->nr_rows;
}

static void sticky(struct pq_writer *w, int ret)
{
	if (ret && !w->error)
		w->error = ret;
}

void pq_put_null(struct pq_writer *w, int col)
{
	sticky(w, pq_column_null(&w->cols[col]));
}

void pq_put_int64(struct pq_writer *w, int col, int64_t v)
{
	sticky(w, pq_column_int64(&w->cols[col], v));
}

void pq_put_double(struct pq_writer *w, int col, double v)
{
	sticky(w, pq_column_double(&w->cols[col], v));
}

void pq_put_bytes(struct pq_writer *w, int col, const void *data, size_t len)
{
	sticky(w, pq_column_bytes_value(&w->cols[col], data, len, w->limits.dict_bytes));
}

/* ------------------------------------------------------------------ pages */

static int compress(struct pq_writer *w, const struct strbuf *body, const void **data,
		    size_t *len)
{
	size_t bound, n;

	if (!w->limits.zstd_level) {
		*data = body->buf;
		*len = body->len;
		return 0;
	}
	bound = ZSTD_compressBound(body->len);
	if (bound > w->zbuf_size) {
		free(w->zbuf);
		w->zbuf = malloc(bound);
		w->zbuf_size = w->zbuf ? bound : 0;
		if (!w->zbuf)
			return -ENOMEM;
	}
	n = ZSTD_compressCCtx(w->zctx, w->zbuf, w->zbuf_size, body->buf, body->len,
			      w->limits.zstd_level);
	if (ZSTD_isError(n))
		return -EIO;
	*data = w->zbuf;
	*len = n;
	return 0;
}

/* A page: its PageHeader, then its body compressed; sizes added to the chunk's */
static int write_page(struct pq_writer *w, int type, uint32_t nr_values, int encoding,
		      struct pq_chunk *ch)
{
	struct pq_thrift *t = &w->thrift;
	const void *data;
	size_t len;
	int ret;

	if (w->page.len > INT32_MAX)
		return -EFBIG;
	ret = compress(w, &w->page, &data, &len);
	if (ret)
		return ret;
	pq_thrift_reset(t);
	pq_thrift_begin(t);
	pq_thrift_i32(t, 1, type);
	pq_thrift_i32(t, 2, (int32_t)w->page.len);
	pq_thrift_i32(t, 3, (int32_t)len);
	pq_thrift_struct(t, type == PQ_PAGE_DATA ? 5 : 7);
	pq_thrift_i32(t, 1, (int32_t)nr_values);
	pq_thrift_i32(t, 2, encoding);
	if (type == PQ_PAGE_DATA) {
		pq_thrift_i32(t, 3, PQ_ENC_RLE);	/* definition levels */
		pq_thrift_i32(t, 4, PQ_ENC_RLE);	/* repetition levels: none */
	}
	pq_thrift_end(t);
	pq_thrift_end(t);
	if (t->error)
		return t->error;
	ch->uncompressed += (int64_t)(t->sb.len + w->page.len);
	ch->compressed += (int64_t)(t->sb.len + len);
	ret = write_out(w, t->sb.buf, t->sb.len);
	return ret ? ret : write_out(w, data, len);
}

static void put_le32(struct strbuf *sb, size_t at, uint32_t v)
{
	uint8_t *p = (uint8_t *)sb->buf + at;

	p[0] = v & 0xff;
	p[1] = (v >> 8) & 0xff;
	p[2] = (v >> 16) & 0xff;
	p[3] = v >> 24;
}

/* The bytes of the PLAIN byte-array values [*pos, ...) of k values; *pos moves past them */
static size_t plain_span(const struct pq_column *c, size_t *pos, size_t k)
{
	const uint8_t *p = (const uint8_t *)c->plain.buf;
	size_t start = *pos, at = start;
	uint32_t len;

	while (k--) {
		len = p[at] | p[at + 1] << 8 | p[at + 2] << 16 | (uint32_t)p[at + 3] << 24;
		at += 4 + len;
	}
	*pos = at;
	return at - start;
}

/* The data page of rows [r0, r1): definition levels, then the values from *vpos (values) and
 * *bpos (bytes of PLAIN byte arrays) on */
static int data_page(struct pq_writer *w, struct pq_column *c, bool dict, size_t r0, size_t r1,
		     size_t *vpos, size_t *bpos, struct pq_chunk *ch)
{
	size_t i, k = 0, span;
	int ret, bw;
	uint8_t b;

	strbuf_reset(&w->page);
	for (i = r0; i < r1; i++) {
		w->levels[i - r0] = c->defs[i];
		k += c->defs[i];
	}
	if (strbuf_add(&w->page, "\0\0\0\0", 4))
		return -ENOMEM;
	ret = pq_rle_encode(&w->page, w->levels, r1 - r0, 1);
	if (ret)
		return ret;
	put_le32(&w->page, 0, (uint32_t)(w->page.len - 4));
	if (dict) {
		bw = pq_bit_width(c->nr_entries > 1 ? (uint32_t)c->nr_entries - 1 : 1);
		b = (uint8_t)bw;
		if (strbuf_add(&w->page, &b, 1))
			return -ENOMEM;
		ret = pq_rle_encode(&w->page, c->idx + *vpos, k, bw);
	} else if (c->kind == PQ_KIND_TEXT || c->kind == PQ_KIND_BLOB) {
		span = *bpos;
		ret = strbuf_add(&w->page, c->plain.buf + span, plain_span(c, bpos, k));
	} else {
		ret = strbuf_add(&w->page, c->plain.buf + *vpos * 8, k * 8);
	}
	*vpos += k;
	if (ret)
		return ret;
	return write_page(w, PQ_PAGE_DATA, (uint32_t)(r1 - r0),
			  dict ? PQ_ENC_RLE_DICTIONARY : PQ_ENC_PLAIN, ch);
}

static uint64_t minmax_bits(const struct pq_column *c, bool max)
{
	uint64_t bits;
	double d = max ? c->dmax : c->dmin;

	if (c->kind == PQ_KIND_INT64)
		return (uint64_t)(max ? c->imax : c->imin);
	memcpy(&bits, &d, sizeof(bits));
	return bits;
}

static int write_chunk(struct pq_writer *w, struct pq_column *c)
{
	struct pq_chunk ch = { .dict_offset = -1 };
	size_t r, vpos = 0, bpos = 0, step = w->limits.page_rows;
	bool dict = pq_column_uses_dict(c) && c->nr_entries;
	int ret = 0;

	if (c->nr_chunks == c->chunks_alloc &&
	    array_grow(&c->chunks, &c->chunks_alloc, c->nr_chunks + 1, sizeof(*c->chunks)))
		return -ENOMEM;
	ch.nr_values = (int64_t)c->nr_rows;
	ch.nr_nulls = c->nr_nulls;
	if (dict) {
		ch.dict_offset = (int64_t)w->offset;
		strbuf_reset(&w->page);
		if (strbuf_add(&w->page, c->dict.buf, c->dict.len))
			return -ENOMEM;
		ret = write_page(w, PQ_PAGE_DICTIONARY, (uint32_t)c->nr_entries, PQ_ENC_PLAIN, &ch);
	}
	ch.data_offset = (int64_t)w->offset;
	for (r = 0; r < c->nr_rows && !ret; r += step)
		ret = data_page(w, c, dict, r, r + step < c->nr_rows ? r + step : c->nr_rows, &vpos,
				&bpos, &ch);
	if (ret)
		return ret;
	ch.has_minmax = c->has_minmax &&
			(c->kind == PQ_KIND_INT64 || c->kind == PQ_KIND_DOUBLE);
	if (ch.has_minmax) {
		ch.min_bits = minmax_bits(c, false);
		ch.max_bits = minmax_bits(c, true);
	}
	c->chunks[c->nr_chunks++] = ch;
	return 0;
}

static int write_group(struct pq_writer *w)
{
	struct pq_group g = { .nr_rows = (int64_t)w->group_rows };
	int i, ret;

	if (!w->group_rows)
		return 0;
	if (w->nr_groups == w->groups_alloc &&
	    array_grow(&w->groups, &w->groups_alloc, w->nr_groups + 1, sizeof(*w->groups)))
		return -ENOMEM;
	for (i = 0; i < w->nr_cols; i++) {
		ret = write_chunk(w, &w->cols[i]);
		if (ret)
			return ret;
		g.bytes += w->cols[i].chunks[w->cols[i].nr_chunks - 1].uncompressed;
		pq_column_reset(&w->cols[i]);
	}
	w->groups[w->nr_groups++] = g;
	w->group_rows = 0;
	return 0;
}

static size_t group_bytes(const struct pq_writer *w)
{
	size_t n = 0;
	int i;

	for (i = 0; i < w->nr_cols; i++)
		n += pq_column_bytes(&w->cols[i]);
	return n;
}

int pq_writer_end_row(struct pq_writer *w)
{
	if (w->error)
		return w->error;
	w->nr_rows++;
	w->group_rows++;
	if (w->group_rows >= w->limits.group_rows ||
	    (!(w->group_rows & 1023) && group_bytes(w) >= w->limits.group_bytes))
		w->error = write_group(w);
	return w->error;
}

/* ------------------------------------------------------------------ the footer */

static int physical_type(const struct pq_column *c)
{
	switch (c->kind) {
	case PQ_KIND_DOUBLE: return PQ_TYPE_DOUBLE;
	case PQ_KIND_TEXT:
	case PQ_KIND_BLOB: return PQ_TYPE_BYTE_ARRAY;
	default: return PQ_TYPE_INT64;
	}
}

static void schema_element(struct pq_thrift *t, const struct pq_column *c)
{
	pq_thrift_begin(t);
	pq_thrift_i32(t, 1, physical_type(c));
	pq_thrift_i32(t, 3, 1);			/* OPTIONAL */
	pq_thrift_string(t, 4, c->name);
	if (c->kind == PQ_KIND_TEXT && !c->not_utf8) {
		pq_thrift_i32(t, 6, 0);		/* ConvertedType UTF8 */
		pq_thrift_struct(t, 10);	/* LogicalType */
		pq_thrift_struct(t, 1);		/* STRING */
		pq_thrift_end(t);
		pq_thrift_end(t);
	}
	pq_thrift_end(t);
}

static void le64(uint8_t out[8], uint64_t v)
{
	int i;

	for (i = 0; i < 8; i++)
		out[i] = (uint8_t)(v >> (8 * i));
}

static void statistics(struct pq_thrift *t, const struct pq_chunk *ch)
{
	uint8_t min[8], max[8];

	pq_thrift_struct(t, 12);
	if (ch->has_minmax) {
		le64(min, ch->min_bits);
		le64(max, ch->max_bits);
		pq_thrift_binary(t, 1, max, 8);
		pq_thrift_binary(t, 2, min, 8);
	}
	pq_thrift_i64(t, 3, ch->nr_nulls);
	if (ch->has_minmax) {
		pq_thrift_binary(t, 5, max, 8);
		pq_thrift_binary(t, 6, min, 8);
	}
	pq_thrift_end(t);
}

static void column_chunk(struct pq_thrift *t, const struct pq_column *c, const struct pq_chunk *ch,
			 int codec)
{
	bool dict = ch->dict_offset >= 0;

	pq_thrift_begin(t);
	pq_thrift_i64(t, 2, dict ? ch->dict_offset : ch->data_offset);
	pq_thrift_struct(t, 3);
	pq_thrift_i32(t, 1, physical_type(c));
	pq_thrift_list(t, 2, PQ_T_I32, dict ? 3 : 2);
	pq_thrift_elem_i32(t, PQ_ENC_PLAIN);
	pq_thrift_elem_i32(t, PQ_ENC_RLE);
	if (dict)
		pq_thrift_elem_i32(t, PQ_ENC_RLE_DICTIONARY);
	pq_thrift_list(t, 3, PQ_T_BINARY, 1);
	pq_thrift_elem_string(t, c->name);
	pq_thrift_i32(t, 4, codec);
	pq_thrift_i64(t, 5, ch->nr_values);
	pq_thrift_i64(t, 6, ch->uncompressed);
	pq_thrift_i64(t, 7, ch->compressed);
	pq_thrift_i64(t, 9, ch->data_offset);
	if (dict)
		pq_thrift_i64(t, 11, ch->dict_offset);
	statistics(t, ch);
	pq_thrift_end(t);
	pq_thrift_end(t);
}

static void file_metadata(struct pq_writer *w, struct pq_thrift *t)
{
	size_t g;
	int i;

	pq_thrift_begin(t);
	pq_thrift_i32(t, 1, 1);
	pq_thrift_list(t, 2, PQ_T_STRUCT, (size_t)w->nr_cols + 1);
	pq_thrift_begin(t);
	pq_thrift_string(t, 4, "schema");
	pq_thrift_i32(t, 5, w->nr_cols);
	pq_thrift_end(t);
	for (i = 0; i < w->nr_cols; i++)
		schema_element(t, &w->cols[i]);
	pq_thrift_i64(t, 3, (int64_t)w->nr_rows);
	pq_thrift_list(t, 4, PQ_T_STRUCT, w->nr_groups);
	for (g = 0; g < w->nr_groups; g++) {
		pq_thrift_begin(t);
		pq_thrift_list(t, 1, PQ_T_STRUCT, (size_t)w->nr_cols);
		for (i = 0; i < w->nr_cols; i++)
			column_chunk(t, &w->cols[i], &w->cols[i].chunks[g],
				     w->limits.zstd_level ? PQ_CODEC_ZSTD : PQ_CODEC_UNCOMPRESSED);
		pq_thrift_i64(t, 2, w->groups[g].bytes);
		pq_thrift_i64(t, 3, w->groups[g].nr_rows);
		pq_thrift_end(t);
	}
	pq_thrift_string(t, 6, "ktrace version " KTRACE_VERSION);
	pq_thrift_list(t, 7, PQ_T_STRUCT, (size_t)w->nr_cols);
	for (i = 0; i < w->nr_cols; i++) {
		pq_thrift_begin(t);
		pq_thrift_struct(t, 1);		/* TypeDefinedOrder */
		pq_thrift_end(t);
		pq_thrift_end(t);
	}
	pq_thrift_end(t);
}

int pq_writer_finish(struct pq_writer *w)
{
	struct pq_thrift *t = &w->thrift;
	uint8_t len[4];
	int ret;

	if (w->error)
		return w->error;
	ret = write_group(w);
	if (ret)
		return w->error = ret;
	pq_thrift_reset(t);
	file_metadata(w, t);
	if (t->error)
		return w->error = t->error;
	len[0] = t->sb.len & 0xff;
	len[1] = (t->sb.len >> 8) & 0xff;
	len[2] = (t->sb.len >> 16) & 0xff;
	len[3] = (uint8_t)(t->sb.len >> 24);
	ret = write_out(w, t->sb.buf, t->sb.len);
	if (!ret)
		ret = write_out(w, len, 4);
	if (!ret)
		ret = write_out(w, "PAR1", 4);
	return w->error = ret;
}
