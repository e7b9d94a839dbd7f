// SPDX-License-Identifier: GPL-2.0-only
/*
 * Bounded reading of a trace.dat file: every count, size and offset comes from the file and
 * is checked against what is left before it is used.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dat_internal.h"

static int dat_verr(struct strbuf *err, const struct dat_file *df, const char *what,
		    const char *where, uint64_t off, int ret, const char *fmt, va_list ap)
{
	if (!err)
		return ret;
	strbuf_reset(err);
	strbuf_addf(err, "%s: %s at offset %llu%s: ", df->name, what, (unsigned long long)off,
		    where);
	strbuf_vaddf(err, fmt, ap);
	return ret;
}

int dat_err(struct strbuf *err, const struct dat_file *df, const char *what, uint64_t off,
	    int ret, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	dat_verr(err, df, what, "", off, ret, fmt, ap);
	va_end(ap);
	return ret;
}

int dat_in_err(struct strbuf *err, const struct dat_in *in, int ret, const char *fmt, ...)
{
	char where[64] = "";
	uint64_t off = dat_in_offset(in);
	va_list ap;

	/* Inside decompressed data a file offset means nothing: name the section and the
	 * position in its uncompressed payload instead. */
	if (in->in_compressed) {
		snprintf(where, sizeof(where), " (+%llu uncompressed)",
			 (unsigned long long)in->pos);
		off = in->base;
	}
	va_start(ap, fmt);
	dat_verr(err, in->df, in->what, where, off, ret, fmt, ap);
	va_end(ap);
	return ret;
}

uint16_t dat_get16(const struct dat_file *df, const void *p)
{
	const uint8_t *b = p;

	if (df->big_endian)
		return (uint16_t)(b[0] << 8 | b[1]);
	return (uint16_t)(b[1] << 8 | b[0]);
}

uint32_t dat_get32(const struct dat_file *df, const void *p)
{
	const uint8_t *b = p;

	if (df->big_endian)
		return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
	return (uint32_t)b[3] << 24 | (uint32_t)b[2] << 16 | (uint32_t)b[1] << 8 | b[0];
}

uint64_t dat_get64(const struct dat_file *df, const void *p)
{
	const uint8_t *b = p;
	uint64_t hi, lo;

	if (df->big_endian) {
		hi = dat_get32(df, b);
		lo = dat_get32(df, b + 4);
	} else {
		lo = dat_get32(df, b);
		hi = dat_get32(df, b + 4);
	}
	return hi << 32 | lo;
}

int dat_pread(struct dat_file *df, void *buf, size_t len, uint64_t off, const char *what,
	      struct strbuf *err)
{
	size_t done = 0;
	ssize_t r;

	if (off > df->file_size || len > df->file_size - off)
		return dat_err(err, df, what, off, -ENODATA,
			       "%zu bytes needed but the file ends at %llu", len,
			       (unsigned long long)df->file_size);
	while (done < len) {
		r = pread(df->fd, (char *)buf + done, len - done, (off_t)(off + done));
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return dat_err(err, df, what, off + done, -errno, "read failed: %s",
				       strerror(errno));
		if (r == 0)
			return dat_err(err, df, what, off + done, -ENODATA,
				       "file shorter than expected");
		done += (size_t)r;
	}
	return 0;
}

void dat_in_mem(struct dat_in *in, struct dat_file *df, const char *what, const void *mem,
		uint64_t len, uint64_t base, bool compressed)
{
	memset(in, 0, sizeof(*in));
	in->df = df;
	in->what = what;
	in->mem = mem;
	in->base = base;
	in->end = len;
	in->in_compressed = compressed;
}

void dat_in_file(struct dat_in *in, struct dat_file *df, const char *what, uint64_t off,
		 uint64_t end)
{
	memset(in, 0, sizeof(*in));
	in->df = df;
	in->what = what;
	in->pos = off;
	in->end = end < df->file_size ? end : df->file_size;
}

void dat_in_release(struct dat_in *in)
{
	strbuf_release(&in->scratch);
}

uint64_t dat_in_offset(const struct dat_in *in)
{
	return in->mem ? in->base + in->pos : in->pos;
}

static int in_need(struct dat_in *in, uint64_t len, struct strbuf *err)
{
	if (in->pos > in->end || len > in->end - in->pos)
		return dat_in_err(err, in, -EBADMSG, "%llu bytes needed, only %llu left",
				  (unsigned long long)len,
				  (unsigned long long)(in->end - in->pos));
	return 0;
}

int dat_in_blob(struct dat_in *in, uint64_t len, const uint8_t **p, struct strbuf *err)
{
	int ret = in_need(in, len, err);

	if (ret)
		return ret;
	if (in->mem) {
		*p = in->mem + in->pos;
	} else {
		/* metadata read from the file is copied: a lying size must not exhaust memory */
		if (len > DAT_MAX_SECTION)
			return dat_in_err(err, in, -EFBIG, "%llu bytes exceed the limit of %llu",
					  (unsigned long long)len, DAT_MAX_SECTION);
		strbuf_reset(&in->scratch);
		if (strbuf_grow(&in->scratch, len))
			return dat_in_err(err, in, -ENOMEM, "out of memory for %llu bytes",
					  (unsigned long long)len);
		ret = dat_pread(in->df, in->scratch.buf, len, in->pos, in->what, err);
		if (ret)
			return ret;
		in->scratch.len = len;
		in->scratch.buf[len] = '\0';
		*p = (const uint8_t *)in->scratch.buf;
	}
	in->pos += len;
	return 0;
}

int dat_in_skip(struct dat_in *in, uint64_t len, struct strbuf *err)
{
	int ret = in_need(in, len, err);

	if (!ret)
		in->pos += len;
	return ret;
}

int dat_in_u16(struct dat_in *in, uint16_t *v, struct strbuf *err)
{
	const uint8_t *p;
	int ret = dat_in_blob(in, 2, &p, err);

	if (!ret)
		*v = dat_get16(in->df, p);
	return ret;
}

int dat_in_u32(struct dat_in *in, uint32_t *v, struct strbuf *err)
{
	const uint8_t *p;
	int ret = dat_in_blob(in, 4, &p, err);

	if (!ret)
		*v = dat_get32(in->df, p);
	return ret;
}

int dat_in_u64(struct dat_in *in, uint64_t *v, struct strbuf *err)
{
	const uint8_t *p;
	int ret = dat_in_blob(in, 8, &p, err);

	if (!ret)
		*v = dat_get64(in->df, p);
	return ret;
}

int dat_in_str(struct dat_in *in, size_t max, const char **s, struct strbuf *err)
{
	uint64_t left = in->end > in->pos ? in->end - in->pos : 0;
	uint64_t want = left < max ? left : max;
	const uint8_t *p, *nul;
	uint64_t start = in->pos;
	int ret;

	ret = dat_in_blob(in, want, &p, err);
	if (ret)
		return ret;
	nul = memchr(p, '\0', want);
	if (!nul) {
		in->pos = start;
		return dat_in_err(err, in, -EBADMSG, "string not terminated within %llu bytes",
				  (unsigned long long)want);
	}
	in->pos = start + (uint64_t)(nul - p) + 1;
	*s = (const char *)p;
	return 0;
}
