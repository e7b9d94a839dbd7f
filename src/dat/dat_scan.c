// SPDX-License-Identifier: GPL-2.0-only
/*
 * Checks a trace.dat that stops where its CPU data would start (the metadata a `record -N`
 * client sends) and finds what appending the CPU data needs: version, endianness, page size,
 * compression, the trace clock, and in v7 where the options chain ends. The bytes may come
 * from the network: every length is checked against those present, by the bounded reader of
 * dat_io.c.
 */
#include <errno.h>
#include <string.h>

#include "dat_internal.h"
#include "ktrace/dat_append.h"
#include "ktrace/dat_format.h"

/* Bounds far above anything a kernel has, so that a liar cannot make us loop for long. */
#define MAX_EVENT_FILES		100000
#define MAX_SYSTEMS		10000
#define MAX_OPTION_SECTIONS	256

struct rd {
	struct dat_file df;	/* what the bounded reader needs: fd, size, byte order */
	struct dat_in in;
	uint64_t at;		/* where the field being read starts, for messages */
	struct strbuf *err;
};

static int fail(struct rd *r, const char *what)
{
	strbuf_addf(r->err, "%s at offset %llu", what, (unsigned long long)r->at);
	return -EBADMSG;
}

/* The reader's own errors carry no message (err NULL): ours names the field. */
static int failed(struct rd *r, int ret, const char *what)
{
	return ret == -EBADMSG || ret == -ENODATA ? fail(r, what) : ret;
}

static int rd_bytes(struct rd *r, void *buf, size_t len, const char *what)
{
	const uint8_t *p;
	int ret;

	r->at = r->in.pos;
	ret = dat_in_blob(&r->in, len, &p, NULL);
	if (ret)
		return failed(r, ret, what);
	memcpy(buf, p, len);
	return 0;
}

static int rd_skip(struct rd *r, uint64_t len, const char *what)
{
	r->at = r->in.pos;
	return failed(r, dat_in_skip(&r->in, len, NULL), what);
}

static int rd_num(struct rd *r, int bytes, uint64_t *v, const char *what)
{
	uint16_t v16;
	uint32_t v32;
	int ret;

	r->at = r->in.pos;
	if (bytes == 2)
		ret = dat_in_u16(&r->in, &v16, NULL);
	else if (bytes == 4)
		ret = dat_in_u32(&r->in, &v32, NULL);
	else
		ret = dat_in_u64(&r->in, v, NULL);
	if (ret)
		return failed(r, ret, what);
	if (bytes == 2)
		*v = v16;
	else if (bytes == 4)
		*v = v32;
	return 0;
}

/* A NUL-terminated string of at most cap bytes (NUL included). */
static int rd_str(struct rd *r, char *out, size_t cap, const char *what)
{
	const char *s;
	int ret;

	r->at = r->in.pos;
	ret = dat_in_str(&r->in, cap, &s, NULL);
	if (ret)
		return failed(r, ret, what);
	memcpy(out, s, strlen(s) + 1);
	return 0;
}

static int rd_sized_blob(struct rd *r, int size_bytes, const char *what)
{
	uint64_t len;
	int ret = rd_num(r, size_bytes, &len, what);

	return ret ? ret : rd_skip(r, len, what);
}

static int rd_tag(struct rd *r, const char *tag, size_t len)
{
	char buf[16];
	int ret = rd_bytes(r, buf, len, tag);

	if (!ret && memcmp(buf, tag, len))
		ret = fail(r, tag);
	return ret;
}

static int scan_init(struct rd *r, struct dat_metadata *m)
{
	char magic[DAT_MAGIC_LEN], version[8];
	uint8_t b[2];
	uint64_t page;
	int ret;

	ret = rd_bytes(r, magic, sizeof(magic), "file magic");
	if (!ret && memcmp(magic, DAT_MAGIC, DAT_MAGIC_LEN))
		ret = fail(r, "file magic");
	if (!ret)
		ret = rd_str(r, version, sizeof(version), "file version");
	if (ret)
		return ret;
	if (strcmp(version, "6") && strcmp(version, "7"))
		return fail(r, "file version (only 6 and 7 are known)");
	m->version = version[0] - '0';
	ret = rd_bytes(r, b, 2, "endianness and long size");
	if (ret)
		return ret;
	if (b[0] > 1 || (b[1] != 4 && b[1] != 8))
		return fail(r, "endianness and long size");
	m->big_endian = b[0];
	r->df.big_endian = b[0];
	ret = rd_num(r, 4, &page, "page size");
	if (ret)
		return ret;
	if (page < 1024 || page > (1U << 20) || (page & (page - 1)))
		return fail(r, "page size");
	m->page_size = (uint32_t)page;
	return 0;
}

/* "[local] global counter" -> "local" */
static void pick_clock(struct dat_metadata *m, const char *text, size_t len)
{
	const char *open = memchr(text, '[', len), *close;
	size_t n;

	if (!open)
		return;
	close = memchr(open, ']', len - (size_t)(open - text));
	n = close ? (size_t)(close - open - 1) : 0;
	if (!n || n >= sizeof(m->clock))
		return;
	memcpy(m->clock, open + 1, n);
	m->clock[n] = '\0';
}

static int read_clock_option(struct rd *r, struct dat_metadata *m, uint64_t size)
{
	char text[512];
	size_t n = size < sizeof(text) ? (size_t)size : sizeof(text);
	int ret = rd_bytes(r, text, n, "TRACECLOCK option");

	if (ret)
		return ret;
	pick_clock(m, text, n);
	return rd_skip(r, size - n, "TRACECLOCK option");
}

static int scan_v6_options(struct rd *r, struct dat_metadata *m)
{
	uint64_t id, size;
	int ret;

	ret = rd_tag(r, "options  ", 10);
	for (;;) {
		if (!ret)
			ret = rd_num(r, 2, &id, "option id");
		if (ret || id == DAT_OPT_DONE)
			return ret;
		ret = rd_num(r, 4, &size, "option size");
		if (ret)
			return ret;
		if (id == DAT_OPT_TRACECLOCK)
			ret = read_clock_option(r, m, size);
		else
			ret = rd_skip(r, size, "option data");
	}
}

static int scan_v6_events(struct rd *r)
{
	uint64_t count, systems, i, j;
	char name[256];
	int ret;

	ret = rd_num(r, 4, &count, "ftrace event count");
	if (!ret && count > MAX_EVENT_FILES)
		ret = fail(r, "ftrace event count");
	for (i = 0; !ret && i < count; i++)
		ret = rd_sized_blob(r, 8, "ftrace event format");
	if (!ret)
		ret = rd_num(r, 4, &systems, "event system count");
	if (!ret && systems > MAX_SYSTEMS)
		ret = fail(r, "event system count");
	for (i = 0; !ret && i < systems; i++) {
		ret = rd_str(r, name, sizeof(name), "event system name");
		if (!ret)
			ret = rd_num(r, 4, &count, "event count");
		if (!ret && count > MAX_EVENT_FILES)
			ret = fail(r, "event count");
		for (j = 0; !ret && j < count; j++)
			ret = rd_sized_blob(r, 8, "event format");
	}
	return ret;
}

static int scan_v6(struct rd *r, struct dat_metadata *m)
{
	uint64_t cpus = 0;
	int ret;

	ret = rd_tag(r, "header_page", 12);
	if (!ret)
		ret = rd_sized_blob(r, 8, "header_page");
	if (!ret)
		ret = rd_tag(r, "header_event", 13);
	if (!ret)
		ret = rd_sized_blob(r, 8, "header_event");
	if (!ret)
		ret = scan_v6_events(r);
	if (!ret)
		ret = rd_sized_blob(r, 4, "kallsyms");
	if (!ret)
		ret = rd_sized_blob(r, 4, "printk formats");
	m->headers_end = r->in.pos;
	if (ret || r->in.pos == r->in.end) {
		m->headers_only = !ret;
		return ret;
	}
	ret = rd_sized_blob(r, 8, "saved command lines");
	if (!ret)
		ret = rd_num(r, 4, &cpus, "CPU count");
	m->cpus = (uint32_t)cpus;
	if (!ret)
		ret = scan_v6_options(r, m);
	return ret;
}

/* The options of one section, which r->in ends: a size that lies ends them there. */
static int scan_v7_options(struct rd *r, struct dat_metadata *m, uint64_t *next)
{
	uint64_t opt, len, cpus = 0;
	int ret;

	while (r->in.pos < r->in.end) {
		ret = rd_num(r, 2, &opt, "option id");
		if (!ret)
			ret = rd_num(r, 4, &len, "option size");
		if (!ret && len > r->in.end - r->in.pos)
			ret = fail(r, "option size");
		if (ret)
			return ret;
		if (opt == DAT_OPT_DONE) {
			if (len != 8)
				return fail(r, "DONE option size");
			m->options_next_at = r->in.pos;
			return rd_num(r, 8, next, "next options offset");
		}
		if (opt == DAT_OPT_TRACECLOCK)
			ret = read_clock_option(r, m, len);
		else if (opt == DAT_OPT_CPUCOUNT && len == 4)
			ret = rd_num(r, 4, &cpus, "CPUCOUNT option");
		else
			ret = rd_skip(r, len, "option data");
		if (ret)
			return ret;
		if (opt == DAT_OPT_CPUCOUNT && len == 4)
			m->cpus = (uint32_t)cpus;
	}
	return fail(r, "options section without DONE");
}

static int scan_v7_section(struct rd *r, struct dat_metadata *m, uint64_t *next)
{
	uint64_t id, flags, desc, size, file_end = r->in.end;
	int ret;

	ret = rd_num(r, 2, &id, "section id");
	if (!ret)
		ret = rd_num(r, 2, &flags, "section flags");
	if (!ret)
		ret = rd_num(r, 4, &desc, "section description");
	if (!ret)
		ret = rd_num(r, 8, &size, "section size");
	if (ret)
		return ret;
	if (id != DAT_SECTION_OPTIONS || (flags & DAT_SECTION_FLAG_COMPRESSED))
		return fail(r, "options section (not an uncompressed options section)");
	if (size > r->in.end - r->in.pos)
		return fail(r, "options section size");
	r->in.end = r->in.pos + size;
	ret = scan_v7_options(r, m, next);
	r->in.end = file_end;
	return ret;
}

static int scan_v7(struct rd *r, struct dat_metadata *m)
{
	char version[32];
	uint64_t next;
	int ret, i;

	ret = rd_str(r, m->compression, sizeof(m->compression), "compression name");
	if (!ret)
		ret = rd_str(r, version, sizeof(version), "compression version");
	if (!ret)
		ret = rd_num(r, 8, &next, "first options offset");
	for (i = 0; !ret && next; i++) {
		if (i == MAX_OPTION_SECTIONS || next < r->in.pos || next >= r->in.end)
			return fail(r, "options offset");
		r->in.pos = next;
		ret = scan_v7_section(r, m, &next);
	}
	if (!ret && !m->options_next_at)
		ret = fail(r, "options section (none)");
	return ret;
}

int dat_metadata_scan(int fd, uint64_t size, struct dat_metadata *m, struct strbuf *err)
{
	struct rd r = { .df = { .fd = fd, .file_size = size, .name = "metadata" }, .err = err };
	int ret;

	memset(m, 0, sizeof(*m));
	dat_in_file(&r.in, &r.df, "metadata", 0, size);
	ret = scan_init(&r, m);
	if (!ret)
		ret = m->version == 6 ? scan_v6(&r, m) : scan_v7(&r, m);
	if (!ret && m->version == 6 && r.in.pos != size)
		ret = fail(&r, "end of metadata (bytes follow the options)");
	dat_in_release(&r.in);
	return ret;
}
