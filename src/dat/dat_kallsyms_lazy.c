// SPDX-License-Identifier: GPL-2.0-only
/*
 * Deferred kallsyms (opts.defer_kallsyms). They are about 5 MB of text and, in
 * libtraceevent's function list, 10 MB at its peak: most of a report's memory, and all of
 * it wasted on files whose events print no kernel symbol. Here they go, when first needed,
 * into a compact table of our own (dat_symtab.c) that answers libtraceevent's lookups by
 * address through a function resolver on the file's handle. Lookups by name do not reach a
 * resolver: libtraceevent resolves symbols such as vmemmap_base in print formats by walking
 * its own list, so dat_file_load_kallsyms() registers there the symbols that the formats
 * name (dat_kallsyms_names.c), before anything may print them.
 * The section is read and decompressed in 64 KB pieces: its text is never held whole next to
 * the table.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>

#include "dat_internal.h"
#include "ktrace/dat_chunk.h"
#include "ktrace/dat_format.h"

#define PIECE	(64u << 10)

/* Lines of the text as its pieces arrive, read as dat_load_kallsyms() would. */
struct ksym_feed {
	struct dat_file *df;
	struct dat_symtab *tab;	/* added to; made when the text's length is known */
	uint8_t len_field[4];	/* the text's length, the first 4 bytes of the payload */
	uint32_t len_have;
	uint64_t payload;	/* payload bytes (length field included) */
	uint64_t left;		/* text bytes still to take */
	struct strbuf carry;	/* a line cut by the end of a piece */
	bool done;		/* a NUL, the end of the text or a failed line was met */
	bool nomem;		/* the table could not grow */
};

static int to_table(void *arg, const struct dat_ksym *k)
{
	struct ksym_feed *f = arg;

	f->nomem = dat_symtab_add(f->tab, k) != 0;
	return f->nomem;
}

static void line(struct ksym_feed *f, const char *p, size_t len)
{
	if (len && dat_kallsyms_line(p, len, to_table, f))
		f->done = true;	/* as dat_load_kallsyms(): the symbols so far stay */
}

static void take_text(struct ksym_feed *f, const char *p, size_t len)
{
	const char *end, *nl, *nul;

	len = len < f->left ? len : (size_t)f->left;
	f->left -= len;
	nul = memchr(p, '\0', len);
	end = nul ? nul : p + len;
	if (f->carry.len) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (strbuf_add(&f->carry, p, (size_t)((nl ? nl : end) - p)))
			f->done = true;
		if (nl && !f->done) {
			line(f, f->carry.buf, f->carry.len);
			strbuf_reset(&f->carry);
		}
		p = nl ? nl + 1 : end;
	}
	while (!f->done && p < end && (nl = memchr(p, '\n', (size_t)(end - p)))) {
		line(f, p, (size_t)(nl - p));
		p = nl + 1;
	}
	if (!f->done && p < end && strbuf_add(&f->carry, p, (size_t)(end - p)))
		f->done = true;
	if (!f->done && (nul || !f->left)) {
		line(f, f->carry.buf, f->carry.len);
		f->done = true;
	}
}

/* One piece of the payload: the length field first, then text. */
static int take(struct ksym_feed *f, const uint8_t *p, size_t len, struct strbuf *err)
{
	const struct dat_section *sec = &f->df->ksym_sec;

	while (len && f->len_have < 4) {
		f->len_field[f->len_have++] = *p++;
		len--;
		if (f->len_have < 4)
			continue;
		f->left = dat_get32(f->df, f->len_field);
		if (f->left > f->payload - 4)
			return dat_err(err, f->df, "section KALLSYMS", sec->offset, -EBADMSG,
				       "%llu bytes needed, only %llu left",
				       (unsigned long long)f->left,
				       (unsigned long long)(f->payload - 4));
		f->df->meta.kallsyms_size = (uint32_t)f->left;
		if (dat_symtab_new(f->left, &f->tab))
			return -ENOMEM;
		if (!f->left)
			f->done = true;
	}
	if (len && !f->done)
		take_text(f, (const char *)p, len);
	return 0;
}

/* The compressed block's header: "csize, rsize"; *at and *end bound the packed bytes. */
static int packed_bounds(struct dat_file *df, uint64_t *at, uint64_t *end, uint64_t *rsize,
			 struct strbuf *err)
{
	const struct dat_section *sec = &df->ksym_sec;
	uint8_t h[8];
	uint32_t csize, raw;
	int ret;

	if (!df->codec || sec->size < 8)
		return dat_err(err, df, "section KALLSYMS", sec->offset, -EBADMSG,
			       "no compression header in a compressed section");
	ret = dat_pread(df, h, 8, *at, "section KALLSYMS", err);
	if (ret)
		return ret;
	dat_chunk_header_get(h, &csize, &raw, df->big_endian);
	*rsize = raw;
	if (csize > sec->size - 8)
		return dat_err(err, df, "section KALLSYMS", sec->offset, -EBADMSG,
			       "compressed size %u exceeds the section size %llu", csize,
			       (unsigned long long)sec->size);
	*at += 8;
	*end = *at + csize;
	return 0;
}

/* Decompresses (or copies) [at, end) piece by piece into take(); *total: bytes produced. */
static int pump(struct ksym_feed *f, struct kt_unpack *u, uint64_t at, uint64_t end,
		uint8_t *in, uint8_t *out, uint64_t *total, struct strbuf *err)
{
	const void *src;
	size_t n, srclen, olen;
	int ret = 0, step = 0;

	while (at < end && !f->done && step != 1) {
		n = end - at < PIECE ? (size_t)(end - at) : PIECE;
		ret = dat_pread(f->df, in, n, at, "section KALLSYMS", err);
		if (ret)
			return ret;
		at += n;
		src = in;
		srclen = n;
		do {
			olen = PIECE;
			step = kt_unpack_step(u, &src, &srclen, out, &olen);
			if (step < 0)
				return step;
			*total += olen;
			if (*total > f->payload)
				return -EBADMSG;
			ret = take(f, out, olen, err);
		} while (!ret && !f->done && step != 1 && (srclen || olen == PIECE));
		if (ret)
			return ret;
	}
	return step == 1 ? 1 : 0;
}

static int stream_section(struct dat_file *df, struct ksym_feed *f, struct strbuf *err)
{
	const struct dat_section *sec = &df->ksym_sec;
	bool z = sec->flags & DAT_SECTION_FLAG_COMPRESSED;
	uint64_t at = sec->offset + DAT_SECTION_HEADER_SIZE, end = at + sec->size, total = 0;
	uint8_t *in = malloc(PIECE), *out = malloc(PIECE);
	struct kt_unpack *u = NULL;
	int ret = in && out ? 0 : -ENOMEM;

	f->payload = sec->size;
	if (!ret && z)
		ret = packed_bounds(df, &at, &end, &f->payload, err);
	if (!ret && f->payload > DAT_MAX_SECTION)
		ret = dat_err(err, df, "section KALLSYMS", sec->offset, -EFBIG,
			      "uncompressed size %llu exceeds the limit of %llu bytes",
			      (unsigned long long)f->payload, DAT_MAX_SECTION);
	if (!ret)
		ret = kt_unpack_new(z ? df->comp : KT_COMP_NONE, &u);
	if (!ret)
		ret = pump(f, u, at, end, in, out, &total, err);
	if (ret >= 0 && f->nomem)
		ret = -ENOMEM;
	else if (ret >= 0 && !f->done &&
		 (f->len_have < 4 || (z && (ret != 1 || total != f->payload))))
		ret = -EBADMSG;
	if (ret == -EBADMSG && !err->len)
		dat_err(err, df, "section KALLSYMS", sec->offset, ret,
			"%s data of section %u does not decompress to %llu bytes",
			kt_compression_name(z ? df->comp : KT_COMP_NONE), sec->id,
			(unsigned long long)f->payload);
	else if (ret == -ENOMEM && !err->len)
		dat_err(err, df, "section KALLSYMS", sec->offset, ret, "out of memory");
	kt_unpack_free(u);
	free(in);
	free(out);
	return ret < 0 ? ret : 0;
}

/* The table of the section, made once; what was read before an error stays in it. */
static struct dat_symtab *ksyms(struct dat_file *df)
{
	struct ksym_feed f = { .df = df };

	if (df->ksyms || df->ksym_ret)
		return df->ksyms;
	df->ksym_ret = stream_section(df, &f, &df->ksym_err);
	strbuf_release(&f.carry);
	if (f.tab)
		dat_symtab_finish(f.tab);
	df->ksyms = f.tab;
	return df->ksyms;
}

/* libtraceevent's tep_func_resolver_t: the function holding *addrp, its start in *addrp */
static char *resolve(void *priv, unsigned long long *addrp, char **modp)
{
	struct dat_symtab *t = ksyms(priv);
	const struct dat_sym *s = t ? dat_symtab_find(t, *addrp) : NULL;

	if (!s)
		return NULL;
	*addrp = s->addr;
	*modp = (char *)dat_sym_mod(t, s);
	return (char *)dat_sym_name(t, s);
}

int dat_defer_kallsyms(struct dat_file *df, const struct dat_section *sec, struct strbuf *err)
{
	if (tep_set_function_resolver(df->tep, resolve, df))
		return dat_err(err, df, "section KALLSYMS", sec->offset, -ENOMEM,
			       "out of memory");
	df->ksym_sec = *sec;
	df->ksym_pending = true;
	return 0;
}

void dat_file_load_kallsyms(struct dat_file *df)
{
	struct dat_symtab *t;

	if (!df->ksym_pending)
		return;
	df->ksym_pending = false;
	t = ksyms(df);
	if (t && dat_kallsyms_register_named(df->tep, t) && !df->ksym_ret)
		df->ksym_ret = dat_err(&df->ksym_err, df, "section KALLSYMS", df->ksym_sec.offset,
				       -ENOMEM, "out of memory");
}

void dat_kallsyms_free(struct dat_file *df)
{
	dat_symtab_free(df->ksyms);
	strbuf_release(&df->ksym_err);
}

int dat_file_kallsyms_error(const struct dat_file *df, struct strbuf *err)
{
	if (df->ksym_ret && err) {
		strbuf_reset(err);
		strbuf_addstr(err, strbuf_str(&df->ksym_err));
	}
	return df->ksym_ret;
}
