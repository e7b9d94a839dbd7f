// SPDX-License-Identifier: GPL-2.0-only
/*
 * One column of the Parquet writer: a row group's definition levels and values as they come,
 * the dictionary of a byte-array column (given up for PLAIN when it grows past its limit: a
 * column of distinct values, as events.fields, gains nothing from one), and the statistics of
 * an integer or double column. The buffers are kept from one row group to the next.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ktrace/grow.h"
#include "parquet_column.h"

int pq_column_init(struct pq_column *c, const char *name)
{
	memset(c, 0, sizeof(*c));
	c->name = strdup(name);
	return c->name ? 0 : -ENOMEM;
}

void pq_column_release(struct pq_column *c)
{
	free(c->name);
	free(c->defs);
	free(c->idx);
	free(c->entries);
	free(c->slots);
	free(c->chunks);
	strbuf_release(&c->plain);
	strbuf_release(&c->dict);
}

void pq_column_reset(struct pq_column *c)
{
	c->nr_rows = 0;
	c->nr_idx = 0;
	c->nr_entries = 0;
	c->nr_nulls = 0;
	c->has_minmax = false;
	c->plain_now = c->no_dict;
	strbuf_reset(&c->plain);
	strbuf_reset(&c->dict);
	if (c->slots)
		memset(c->slots, 0, c->nr_slots * sizeof(*c->slots));
}

bool pq_column_uses_dict(const struct pq_column *c)
{
	return (c->kind == PQ_KIND_TEXT || c->kind == PQ_KIND_BLOB) && !c->plain_now;
}

size_t pq_column_bytes(const struct pq_column *c)
{
	return c->nr_rows + c->plain.len + c->dict.len + c->nr_idx * sizeof(*c->idx);
}

static int add_def(struct pq_column *c, uint8_t def)
{
	if (c->nr_rows == c->defs_alloc &&
	    array_grow(&c->defs, &c->defs_alloc, c->nr_rows + 1, sizeof(*c->defs)))
		return -ENOMEM;
	c->defs[c->nr_rows++] = def;
	return 0;
}

int pq_column_null(struct pq_column *c)
{
	c->nr_nulls++;
	return add_def(c, 0);
}

static int add_fixed(struct pq_column *c, uint64_t bits)
{
	uint8_t le[8];
	int i;

	for (i = 0; i < 8; i++)
		le[i] = (uint8_t)(bits >> (8 * i));
	if (strbuf_add(&c->plain, le, sizeof(le)))
		return -ENOMEM;
	return add_def(c, 1);
}

int pq_column_int64(struct pq_column *c, int64_t v)
{
	if (!c->has_minmax) {
		c->imin = c->imax = v;
		c->has_minmax = true;
	} else if (v < c->imin) {
		c->imin = v;
	} else if (v > c->imax) {
		c->imax = v;
	}
	return add_fixed(c, (uint64_t)v);
}

int pq_column_double(struct pq_column *c, double v)
{
	uint64_t bits;

	if (v == v) {	/* a NaN orders nowhere: statistics leave it out */
		if (!c->has_minmax) {
			c->dmin = c->dmax = v;
			c->has_minmax = true;
		} else if (v < c->dmin) {
			c->dmin = v;
		} else if (v > c->dmax) {
			c->dmax = v;
		}
	}
	memcpy(&bits, &v, sizeof(bits));
	return add_fixed(c, bits);
}

static int add_plain_bytes(struct strbuf *sb, const void *data, size_t len)
{
	uint8_t le[4] = { len & 0xff, (len >> 8) & 0xff, (len >> 16) & 0xff, (len >> 24) & 0xff };

	if (strbuf_add(sb, le, sizeof(le)) || strbuf_add(sb, data, len))
		return -ENOMEM;
	return 0;
}

/* Eight bytes a step (the values are JSON objects and names): a multiply-xorshift mix */
static uint32_t hash_bytes(const void *data, size_t len)
{
	const uint8_t *p = data;
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ len, w;

	for (; len >= 8; p += 8, len -= 8) {
		memcpy(&w, p, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdULL;
		h ^= h >> 32;
	}
	if (len) {
		w = 0;
		memcpy(&w, p, len);
		h = (h ^ w) * 0xc4ceb9fe1a85ec53ULL;
	}
	h ^= h >> 29;
	h *= 0xff51afd7ed558ccdULL;
	return (uint32_t)(h ^ (h >> 32));
}

static uint32_t entry_len(const struct pq_column *c, uint32_t e)
{
	const uint8_t *p = (const uint8_t *)c->dict.buf + c->entries[e];

	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static bool entry_is(const struct pq_column *c, uint32_t e, const void *data, size_t len)
{
	return entry_len(c, e) == len && !memcmp(c->dict.buf + c->entries[e] + 4, data, len);
}

static int rehash(struct pq_column *c)
{
	size_t n = c->nr_slots ? c->nr_slots * 2 : 1024, e, s;
	uint32_t *slots = calloc(n, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (e = 0; e < c->nr_entries; e++) {
		s = hash_bytes(c->dict.buf + c->entries[e] + 4, entry_len(c, e)) & (n - 1);
		while (slots[s])
			s = (s + 1) & (n - 1);
		slots[s] = (uint32_t)e + 1;
	}
	free(c->slots);
	c->slots = slots;
	c->nr_slots = n;
	return 0;
}

/* The chunk's values so far, written out PLAIN from their dictionary entries */
static int give_up_dict(struct pq_column *c)
{
	size_t i;
	uint32_t e;

	for (i = 0; i < c->nr_idx; i++) {
		e = c->idx[i];
		if (strbuf_add(&c->plain, c->dict.buf + c->entries[e], 4 + entry_len(c, e)))
			return -ENOMEM;
	}
	c->plain_now = true;
	c->no_dict = true;
	c->nr_idx = 0;
	return 0;
}

static int dict_value(struct pq_column *c, const void *data, size_t len)
{
	size_t s;
	uint32_t e;

	if (2 * (c->nr_entries + 1) > c->nr_slots && rehash(c))
		return -ENOMEM;
	s = hash_bytes(data, len) & (c->nr_slots - 1);
	while (c->slots[s] && !entry_is(c, c->slots[s] - 1, data, len))
		s = (s + 1) & (c->nr_slots - 1);
	if (c->slots[s]) {
		e = c->slots[s] - 1;
	} else {
		if (c->nr_entries == c->entries_alloc &&
		    array_grow(&c->entries, &c->entries_alloc, c->nr_entries + 1,
			       sizeof(*c->entries)))
			return -ENOMEM;
		e = (uint32_t)c->nr_entries;
		c->entries[c->nr_entries++] = (uint32_t)c->dict.len;
		if (add_plain_bytes(&c->dict, data, len))
			return -ENOMEM;
		c->slots[s] = e + 1;
	}
	if (c->nr_idx == c->idx_alloc &&
	    array_grow(&c->idx, &c->idx_alloc, c->nr_idx + 1, sizeof(*c->idx)))
		return -ENOMEM;
	c->idx[c->nr_idx++] = e;
	return 0;
}

static bool is_utf8(const uint8_t *p, size_t len)
{
	size_t i = 0, n, k;
	uint32_t cp;

	while (i < len) {
		/* ASCII eight bytes at a time: most of a trace's text */
		while (i + 8 <= len && !((p[i] | p[i + 1] | p[i + 2] | p[i + 3] | p[i + 4] |
					 p[i + 5] | p[i + 6] | p[i + 7]) & 0x80))
			i += 8;
		if (i >= len)
			break;
		if (p[i] < 0x80) {
			i++;
			continue;
		}
		if ((p[i] & 0xe0) == 0xc0)
			n = 1, cp = p[i] & 0x1f;
		else if ((p[i] & 0xf0) == 0xe0)
			n = 2, cp = p[i] & 0x0f;
		else if ((p[i] & 0xf8) == 0xf0)
			n = 3, cp = p[i] & 0x07;
		else
			return false;
		for (k = 1; k <= n; k++) {
			if (i + k >= len || (p[i + k] & 0xc0) != 0x80)
				return false;
			cp = cp << 6 | (p[i + k] & 0x3f);
		}
		/* overlong forms, surrogates and beyond U+10FFFF are not UTF-8 */
		if ((n == 1 && cp < 0x80) || (n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000) ||
		    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
			return false;
		i += n + 1;
	}
	return true;
}

int pq_column_bytes_value(struct pq_column *c, const void *data, size_t len, size_t dict_limit)
{
	int ret;

	if (len > UINT32_MAX)
		return -EFBIG;
	if (c->kind == PQ_KIND_TEXT && !c->not_utf8 && !is_utf8(data, len))
		c->not_utf8 = true;
	if (!c->plain_now) {
		ret = dict_value(c, data, len);
		if (!ret && c->dict.len > dict_limit)
			ret = give_up_dict(c);
	} else {
		ret = add_plain_bytes(&c->plain, data, len);
	}
	return ret ? ret : add_def(c, 1);
}
