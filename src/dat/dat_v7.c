// SPDX-License-Identifier: GPL-2.0-only
/*
 * The v7 layout: after the compression header, the offset of the first options section; the
 * options point at the metadata sections and describe the buffers.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dat_internal.h"
#include "ktrace/dat_chunk.h"
#include "ktrace/dat_format.h"

struct meta_kind {
	int id;
	const char *what;
	int (*parse)(struct dat_in *in, struct strbuf *err);
};

static const struct meta_kind meta_kinds[] = {
	{ DAT_OPT_HEADER_INFO, "section HEADER_INFO", dat_meta_header_info },
	{ DAT_OPT_FTRACE_EVENTS, "section FTRACE_EVENTS", dat_meta_ftrace },
	{ DAT_OPT_EVENT_FORMATS, "section EVENT_FORMATS", dat_meta_events },
	{ DAT_OPT_KALLSYMS, "section KALLSYMS", dat_meta_kallsyms },
	{ DAT_OPT_PRINTK, "section PRINTK", dat_meta_printk },
	{ DAT_OPT_CMDLINES, "section CMDLINES", dat_meta_cmdlines },
};

/* The last option of this id wins, as a later one updates trace-cmd's section table. */
static const struct dat_opt *last_option(const struct dat_file *df, int id)
{
	int i;

	for (i = df->nr_opts - 1; i >= 0; i--)
		if (df->opts_list[i].id == id)
			return &df->opts_list[i];
	return NULL;
}

static int read_meta(struct dat_file *df, const struct meta_kind *k, struct strbuf *err)
{
	const struct dat_opt *opt = last_option(df, k->id);
	struct dat_section sec;
	uint64_t size, off;
	struct dat_in in;
	uint8_t *data;
	bool z;
	int ret;

	if (!opt || opt->size < 8) {
		if (k->id != DAT_OPT_HEADER_INFO)
			return 0;
		return dat_err(err, df, "options", df->options_start, -EBADMSG,
			       "no HEADER_INFO option: the ring-buffer format is unknown");
	}
	off = dat_get64(df, opt->data);
	ret = dat_section_header(df, off, &sec, err);
	if (ret)
		return ret;
	if (sec.id != k->id)
		return dat_err(err, df, k->what, off, -EBADMSG,
			       "section id %u where the option announced %d", sec.id, k->id);
	if (k->id == DAT_OPT_KALLSYMS && df->opts.defer_kallsyms && df->tep)
		return dat_defer_kallsyms(df, &sec, err);
	ret = dat_section_load(df, &sec, &data, &size, err);
	if (ret)
		return ret;
	z = sec.flags & DAT_SECTION_FLAG_COMPRESSED;
	dat_in_mem(&in, df, k->what, data, size, z ? off : off + 16, z);
	ret = k->parse(&in, err);
	free(data);
	return ret;
}

/* Appends one compressed chunk of latency text ("zsize, size, data") at *at. */
static int latency_chunk(struct dat_file *df, uint64_t *at, uint64_t end, struct strbuf *sb,
			 struct strbuf *err)
{
	uint32_t zsize, size;
	uint8_t h[8], *z;
	int ret;

	if (end - *at < 8)
		return dat_err(err, df, "latency section", *at, -EBADMSG, "chunk header cut off");
	ret = dat_pread(df, h, 8, *at, "latency section", err);
	if (ret)
		return ret;
	dat_chunk_header_get(h, &zsize, &size, df->big_endian);
	if (zsize > end - *at - 8 || size > DAT_MAX_CHUNK || sb->len + size > DAT_MAX_SECTION)
		return dat_err(err, df, "latency section", *at, -EBADMSG,
			       "chunk of %u bytes (%u uncompressed) does not fit", zsize, size);
	z = malloc(zsize ? zsize : 1);
	if (!z || strbuf_grow(sb, size)) {
		free(z);
		return dat_err(err, df, "latency section", *at, -ENOMEM, "out of memory");
	}
	ret = dat_pread(df, z, zsize, *at + 8, "latency section", err);
	if (!ret && kt_codec_decompress(df->codec, z, zsize, sb->buf + sb->len, size))
		ret = dat_err(err, df, "latency section", *at, -EBADMSG,
			      "chunk does not decompress to %u bytes", size);
	free(z);
	if (ret)
		return ret;
	sb->len += size;
	sb->buf[sb->len] = '\0';
	*at += 8 + zsize;
	return 0;
}

/* The text of a BUFFER_TEXT section: raw, or compressed in chunks like flyrecord data. */
static int latency_text(struct dat_file *df, const struct dat_section *sec, struct strbuf *err)
{
	uint64_t at = sec->offset + 16, end = at + sec->size;
	struct strbuf sb = STRBUF_INIT;
	uint32_t count, i;
	uint8_t b[4];
	int ret = 0;

	if (df->latency)
		return 0;
	if (!(sec->flags & DAT_SECTION_FLAG_COMPRESSED)) {
		uint8_t *data;

		ret = dat_section_load(df, sec, &data, &df->latency_size, err);
		if (!ret)
			df->latency = data;
		return ret;
	}
	ret = sec->size < 4 ? dat_err(err, df, "latency section", at, -EBADMSG, "no chunk count")
			    : dat_pread(df, b, 4, at, "latency section", err);
	if (ret)
		return ret;
	count = dat_get32(df, b);
	at += 4;
	for (i = 0; i < count && !ret; i++)
		ret = latency_chunk(df, &at, end, &sb, err);
	if (ret || strbuf_grow(&sb, 0)) {
		strbuf_release(&sb);
		return ret ? ret : -ENOMEM;
	}
	df->latency_size = sb.len;
	df->latency = (uint8_t *)strbuf_detach(&sb, NULL);
	return 0;
}

static int buffer_section(struct dat_file *df, struct dat_buffer *b, struct strbuf *err)
{
	int want = b->latency ? DAT_OPT_BUFFER_TEXT : DAT_OPT_BUFFER;
	struct dat_section sec;
	uint64_t end;
	int i, ret;

	ret = dat_section_header(df, b->section_offset, &sec, err);
	if (ret)
		return ret;
	if (sec.id != want)
		return dat_err(err, df, "buffer section", sec.offset, -EBADMSG,
			       "section id %u where buffer \"%s\" should start (id %d)", sec.id,
			       b->name, want);
	b->compressed = sec.flags & DAT_SECTION_FLAG_COMPRESSED;
	b->section_flags = sec.flags;
	b->section_size = sec.size;
	b->section_desc = sec.desc;
	if (b->compressed && !df->codec)
		return dat_err(err, df, "buffer section", sec.offset, -EBADMSG,
			       "compressed buffer in a file without compression");
	if (b->latency)
		return latency_text(df, &sec, err);
	end = sec.offset + 16 + sec.size;
	for (i = 0; i < b->nr_cpus; i++) {
		const struct dat_cpu *c = &b->cpus[i];

		if (c->size && (c->offset < sec.offset + 16 || c->offset + c->size > end))
			return dat_err(err, df, "option BUFFER", b->option_offset, -EBADMSG,
				       "cpu %d data (%llu, %llu bytes) lies outside its section "
				       "[%llu, %llu)", c->cpu, (unsigned long long)c->offset,
				       (unsigned long long)c->size,
				       (unsigned long long)(sec.offset + 16),
				       (unsigned long long)end);
	}
	return 0;
}

/*
 * The "cpus=" count trace-cmd prints: the larger of the CPUCOUNT option (already in df->nr_cpus)
 * and the top buffer's highest CPU + 1. A missing or empty top buffer leaves CPUCOUNT's count.
 */
static int top_cpus(const struct dat_file *df)
{
	const struct dat_buffer *b;
	int i, j, max = df->nr_cpus - 1;

	for (i = 0; i < df->nr_buffers; i++) {
		b = &df->buffers[i];
		if (b->name[0] || b->latency)
			continue;
		for (j = 0; j < b->nr_cpus; j++)
			if (b->cpus[j].cpu > max)
				max = b->cpus[j].cpu;
		break;
	}
	return max + 1;
}

static const char *top_clock(const struct dat_file *df)
{
	int i;

	for (i = 0; i < df->nr_buffers; i++)
		if (!df->buffers[i].name[0])
			return df->buffers[i].clock;
	return NULL;
}

int dat_read_v7(struct dat_file *df, uint64_t off, struct strbuf *err)
{
	uint8_t b[8];
	size_t i;
	int ret;

	ret = dat_pread(df, b, 8, off, "file header", err);
	if (ret)
		return ret;
	df->options_start = dat_get64(df, b);
	if (df->options_start < off + 8 || df->options_start >= df->file_size)
		return dat_err(err, df, "file header", off, -EBADMSG,
			       "first options section offset %llu outside the file (%llu bytes)",
			       (unsigned long long)df->options_start,
			       (unsigned long long)df->file_size);
	ret = dat_sections_walk(df, off + 8, err);
	if (!ret)
		ret = dat_options_v7(df, err);
	for (i = 0; !ret && i < (size_t)df->nr_opts; i++)
		ret = dat_option_apply(df, &df->opts_list[i], err);
	for (i = 0; !ret && i < sizeof(meta_kinds) / sizeof(meta_kinds[0]); i++)
		ret = read_meta(df, &meta_kinds[i], err);
	for (i = 0; !ret && i < (size_t)df->nr_buffers; i++)
		ret = buffer_section(df, &df->buffers[i], err);
	if (ret)
		return ret;
	df->nr_cpus = top_cpus(df);
	if (!df->trace_clock && top_clock(df)) {
		df->trace_clock = strdup(top_clock(df));
		if (!df->trace_clock)
			return dat_err(err, df, "options", df->options_start, -ENOMEM,
				       "out of memory");
	}
	return 0;
}
