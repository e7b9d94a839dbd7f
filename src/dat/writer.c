// SPDX-License-Identifier: GPL-2.0-only
/*
 * trace.dat writer: the file header, the metadata sections, options and the strings section.
 * v7 metadata goes into sections that are compressed whole (one block each, as trace-cmd writes
 * them); v6 has the same payloads back to back without section headers.
 *
 * Numbers are written in the file's byte order, which the header states: the host's for a new
 * file, the metadata's for one a listener completes (writer_append.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ktrace/dat_chunk.h"
#include "ktrace/dat_format.h"
#include "ktrace/fdio.h"
#include "writer_internal.h"

int dat_w_patch(struct dat_writer *w, uint64_t off, const void *data, size_t len)
{
	int ret = fd_pwrite_all(w->fd, data, len, off);

	if (ret)
		w->failed = true;
	return ret;
}

int dat_w_write(struct dat_writer *w, const void *data, size_t len)
{
	int ret = dat_w_patch(w, w->off, data, len);

	if (!ret)
		w->off += len;
	return ret;
}

void dat_w_encode(const struct dat_writer *w, void *p, int bytes, uint64_t v)
{
	uint8_t *b = p;
	int i;

	for (i = 0; i < bytes; i++)
		b[w->big ? bytes - 1 - i : i] = (uint8_t)(v >> (8 * i));
}

static int put(struct dat_writer *w, int bytes, uint64_t v)
{
	uint8_t b[8];

	dat_w_encode(w, b, bytes, v);
	return dat_w_write(w, b, (size_t)bytes);
}

int dat_w_put16(struct dat_writer *w, uint16_t v)
{
	return put(w, 2, v);
}

int dat_w_put32(struct dat_writer *w, uint32_t v)
{
	return put(w, 4, v);
}

int dat_w_put64(struct dat_writer *w, uint64_t v)
{
	return put(w, 8, v);
}

int dat_w_patch32(struct dat_writer *w, uint64_t off, uint32_t v)
{
	uint8_t b[4];

	dat_w_encode(w, b, 4, v);
	return dat_w_patch(w, off, b, sizeof(b));
}

int dat_w_patch64(struct dat_writer *w, uint64_t off, uint64_t v)
{
	uint8_t b[8];

	dat_w_encode(w, b, 8, v);
	return dat_w_patch(w, off, b, sizeof(b));
}

/* v7 strings are referenced by their offset in the (single) strings section. */
int dat_w_string(struct dat_writer *w, const char *s, uint32_t *id)
{
	*id = (uint32_t)w->strings.len;
	return strbuf_add(&w->strings, s, strlen(s) + 1);
}

int dat_w_section_start(struct dat_writer *w, uint16_t id, uint16_t flags, const char *desc,
			uint64_t *size_at)
{
	uint32_t desc_id;
	int ret;

	ret = dat_w_string(w, desc, &desc_id);
	return ret ? ret : dat_w_section_header(w, id, flags, desc_id, size_at);
}

int dat_w_section_header(struct dat_writer *w, uint16_t id, uint16_t flags, uint32_t desc_id,
			 uint64_t *size_at)
{
	int ret;

	ret = dat_w_put16(w, id);
	if (!ret)
		ret = dat_w_put16(w, flags);
	if (!ret)
		ret = dat_w_put32(w, desc_id);
	*size_at = w->off;
	if (!ret)
		ret = dat_w_put64(w, 0);
	return ret;
}

int dat_w_section_end(struct dat_writer *w, uint64_t size_at)
{
	return dat_w_patch64(w, size_at, w->off - size_at - 8);
}

int dat_w_option_add(struct dat_writer *w, uint16_t id, const void *data, uint32_t size)
{
	struct dat_wopt *opts, *o;

	opts = realloc(w->opts, sizeof(*opts) * (size_t)(w->nr_opts + 1));
	if (!opts)
		return -ENOMEM;
	w->opts = opts;
	o = &opts[w->nr_opts];
	memset(o, 0, sizeof(*o));
	o->id = id;
	o->size = size;
	if (size) {
		o->data = malloc(size);
		if (!o->data)
			return -ENOMEM;
		memcpy(o->data, data, size);
	}
	return w->nr_opts++;
}

int dat_writer_add_option(struct dat_writer *w, uint16_t id, const void *data, uint32_t size)
{
	int ret = dat_w_option_add(w, id, data, size);

	return ret < 0 ? ret : 0;
}

int dat_writer_cpu_count(struct dat_writer *w, int cpus)
{
	uint32_t n = (uint32_t)cpus;

	w->cpus = cpus;
	if (w->version < 7)
		return 0;
	return dat_writer_add_option(w, DAT_OPT_CPUCOUNT, &n, sizeof(n));
}

int dat_w_option_list(struct dat_writer *w)
{
	int ret = 0;

	for (; !ret && w->nr_written_opts < w->nr_opts; w->nr_written_opts++) {
		struct dat_wopt *o = &w->opts[w->nr_written_opts];

		ret = dat_w_put16(w, o->id);
		if (!ret)
			ret = dat_w_put32(w, o->size);
		o->data_offset = w->off;
		if (!ret && o->size)
			ret = dat_w_write(w, o->data, o->size);
	}
	return ret;
}

int dat_w_options_section(struct dat_writer *w)
{
	uint64_t start = w->off, size_at;
	int ret;

	/* Link the previous options section (or the file header) to this one. */
	ret = dat_w_patch64(w, w->next_link, start);
	if (!ret)
		ret = dat_w_section_start(w, DAT_SECTION_OPTIONS, 0, "options", &size_at);
	if (!ret)
		ret = dat_w_option_list(w);
	if (!ret)
		ret = dat_w_put16(w, DAT_OPT_DONE);
	if (!ret)
		ret = dat_w_put32(w, 8);
	w->next_link = w->off;
	if (!ret)
		ret = dat_w_put64(w, 0);
	if (!ret)
		ret = dat_w_section_end(w, size_at);
	return ret;
}

int dat_w_options_v6(struct dat_writer *w)
{
	int ret = dat_w_write(w, "options  ", 10);

	if (!ret)
		ret = dat_w_option_list(w);
	if (!ret)
		ret = dat_w_put16(w, DAT_OPT_DONE);
	return ret;
}

static int write_file_header(struct dat_writer *w)
{
	char version[4];
	uint8_t endian_and_long[2];
	int ret;

#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	endian_and_long[0] = 1;
#else
	endian_and_long[0] = 0;
#endif
	endian_and_long[1] = (uint8_t)w->long_size;
	snprintf(version, sizeof(version), "%d", w->version);
	ret = dat_w_write(w, DAT_MAGIC_UNFINISHED, DAT_MAGIC_LEN);
	if (!ret)
		ret = dat_w_write(w, version, strlen(version) + 1);
	if (!ret)
		ret = dat_w_write(w, endian_and_long, 2);
	if (!ret)
		ret = dat_w_put32(w, w->page_size);
	if (ret || w->version < 7)
		return ret;
	ret = dat_w_write(w, kt_compression_name(w->comp), strlen(kt_compression_name(w->comp)) + 1);
	if (!ret)
		ret = dat_w_write(w, kt_compression_version(w->comp),
				  strlen(kt_compression_version(w->comp)) + 1);
	w->next_link = w->off;
	if (!ret)
		ret = dat_w_put64(w, 0);
	return ret;
}

int dat_writer_mark_unfinished(int fd)
{
	struct dat_writer w = { .fd = fd };

	return dat_w_patch(&w, 0, DAT_MAGIC_UNFINISHED, DAT_MAGIC_LEN);
}

int dat_writer_open(int fd, const struct dat_writer_config *cfg, struct dat_writer **out,
		    struct strbuf *err)
{
	struct dat_writer *w;
	int ret;

	if (cfg->version != 6 && cfg->version != 7) {
		if (err)
			strbuf_addf(err, "file version %d is not supported (6 or 7)", cfg->version);
		return -EINVAL;
	}
	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	w->fd = fd;
	w->version = cfg->version;
	w->comp = cfg->version >= 7 ? cfg->compression : KT_COMP_NONE;
	w->page_size = cfg->page_size;
	w->long_size = cfg->long_size ? cfg->long_size : (int)sizeof(long);
	w->big = DAT_HOST_BIG_ENDIAN;
	ret = w->comp != KT_COMP_NONE ? kt_codec_new(w->comp, &w->codec) : 0;
	if (!ret)
		ret = write_file_header(w);
	if (ret) {
		if (err)
			strbuf_addf(err, "writing the file header: %s", strerror(-ret));
		dat_writer_free(w);
		return ret;
	}
	*out = w;
	return 0;
}

void dat_writer_free(struct dat_writer *w)
{
	int i;

	if (!w)
		return;
	for (i = 0; i < w->nr_opts; i++)
		free(w->opts[i].data);
	free(w->opts);
	strbuf_release(&w->strings);
	kt_codec_free(w->codec);
	free(w);
}

static int emit_write(void *arg, const void *data, size_t len)
{
	return dat_w_write(arg, data, len);
}

/*
 * A section payload, the parts end to end, compressed as one block:
 * <4 compressed size><4 raw size><data>. The data is written as it comes out of the compressor
 * and its size patched in after.
 */
static int write_compressed(struct dat_writer *w, const struct kt_part *parts, int nr)
{
	uint8_t hdr[DAT_CHUNK_HEADER_SIZE] = { 0 };
	uint64_t raw = 0, clen = 0, at = w->off;
	int i, ret;

	for (i = 0; i < nr; i++)
		raw += parts[i].len;
	if (raw > UINT32_MAX)
		return -EFBIG;
	ret = dat_w_write(w, hdr, sizeof(hdr));
	if (!ret)
		ret = kt_codec_compress_parts(w->codec, parts, nr, emit_write, w, &clen);
	if (!ret && clen > UINT32_MAX)
		ret = -EFBIG;
	dat_chunk_header_put(hdr, (uint32_t)clen, (uint32_t)raw, w->big);
	if (!ret)
		ret = dat_w_patch(w, at, hdr, sizeof(hdr));
	return ret;
}

static int write_parts(struct dat_writer *w, const struct kt_part *parts, int nr)
{
	int i, ret = 0;

	for (i = 0; !ret && i < nr; i++)
		ret = dat_w_write(w, parts[i].data, parts[i].len);
	return ret;
}

/*
 * Writes one metadata payload, the parts end to end: in v7 as a section whose offset an option
 * of the same id records, in v6 as is.
 */
static int write_meta(struct dat_writer *w, uint16_t id, const char *desc,
		      const struct kt_part *parts, int nr, struct strbuf *err)
{
	uint64_t start = w->off, size_at;
	int ret;

	if (w->version < 7) {
		ret = write_parts(w, parts, nr);
	} else {
		ret = dat_w_option_add(w, id, &start, sizeof(start));
		ret = ret < 0 ? ret : 0;
		if (!ret)
			ret = dat_w_section_start(w, id, w->codec ? DAT_SECTION_FLAG_COMPRESSED : 0,
						  desc, &size_at);
		if (!ret)
			ret = w->codec ? write_compressed(w, parts, nr) : write_parts(w, parts, nr);
		if (!ret)
			ret = dat_w_section_end(w, size_at);
	}
	if (ret && err)
		strbuf_addf(err, "writing the %s: %s", desc, strerror(-ret));
	return ret;
}

static int add_sized(struct strbuf *sb, const struct dat_blob *b, int size_bytes)
{
	uint64_t s64 = b ? b->size : 0;
	uint32_t s32 = (uint32_t)s64;
	int ret;

	if (size_bytes == 4 && s64 > UINT32_MAX)
		return -EFBIG;
	ret = size_bytes == 8 ? strbuf_add(sb, &s64, 8) : strbuf_add(sb, &s32, 4);
	if (!ret && b && b->size)
		ret = strbuf_add(sb, b->data, b->size);
	return ret;
}

static int finish_meta(struct dat_writer *w, uint16_t id, const char *desc, struct strbuf *sb,
		       int ret, struct strbuf *err)
{
	struct kt_part part = { sb->buf ? sb->buf : "", sb->len };

	if (!ret)
		ret = write_meta(w, id, desc, &part, 1, err);
	else if (err)
		strbuf_addf(err, "preparing the %s: %s", desc, strerror(-ret));
	strbuf_release(sb);
	return ret;
}

/* A payload that is one file's text after its size: the text is not copied (kallsyms: 5 MB). */
static int write_sized(struct dat_writer *w, uint16_t id, const char *desc,
		       const struct dat_blob *b, int size_bytes, struct strbuf *err)
{
	uint64_t s64 = b ? b->size : 0;
	uint32_t s32 = (uint32_t)s64;
	struct kt_part parts[2] = {
		{ size_bytes == 8 ? (const void *)&s64 : (const void *)&s32, (size_t)size_bytes },
		{ b && b->size ? b->data : "", (size_t)s64 },
	};

	if (size_bytes == 4 && s64 > UINT32_MAX) {
		if (err)
			strbuf_addf(err, "preparing the %s: %s", desc, strerror(EFBIG));
		return -EFBIG;
	}
	return write_meta(w, id, desc, parts, 2, err);
}

int dat_writer_headers(struct dat_writer *w, const struct dat_blob *header_page,
		       const struct dat_blob *header_event, struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	ret = strbuf_add(&sb, "header_page", 12);
	if (!ret)
		ret = add_sized(&sb, header_page, 8);
	if (!ret)
		ret = strbuf_add(&sb, "header_event", 13);
	if (!ret)
		ret = add_sized(&sb, header_event, 8);
	return finish_meta(w, DAT_OPT_HEADER_INFO, "headers", &sb, ret, err);
}

static int add_formats(struct strbuf *sb, const struct dat_blob *formats, int nr)
{
	uint32_t n = (uint32_t)nr;
	int ret, i;

	ret = strbuf_add(sb, &n, 4);
	for (i = 0; !ret && i < nr; i++)
		ret = add_sized(sb, &formats[i], 8);
	return ret;
}

int dat_writer_ftrace_formats(struct dat_writer *w, const struct dat_blob *formats, int nr,
			      struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT;
	int ret = add_formats(&sb, formats, nr);

	return finish_meta(w, DAT_OPT_FTRACE_EVENTS, "ftrace events", &sb, ret, err);
}

int dat_writer_event_formats(struct dat_writer *w, const struct dat_event_system *systems, int nr,
			     struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT;
	uint32_t n = (uint32_t)nr;
	int ret, i;

	ret = strbuf_add(&sb, &n, 4);
	for (i = 0; !ret && i < nr; i++) {
		ret = strbuf_add(&sb, systems[i].name, strlen(systems[i].name) + 1);
		if (!ret)
			ret = add_formats(&sb, systems[i].formats, systems[i].nr_formats);
	}
	return finish_meta(w, DAT_OPT_EVENT_FORMATS, "events format", &sb, ret, err);
}

int dat_writer_kallsyms(struct dat_writer *w, const struct dat_blob *kallsyms, struct strbuf *err)
{
	return write_sized(w, DAT_OPT_KALLSYMS, "kallsyms", kallsyms, 4, err);
}

int dat_writer_printk(struct dat_writer *w, const struct dat_blob *printk, struct strbuf *err)
{
	return write_sized(w, DAT_OPT_PRINTK, "printk", printk, 4, err);
}

int dat_writer_cmdlines(struct dat_writer *w, const struct dat_blob *cmdlines, struct strbuf *err)
{
	return write_sized(w, DAT_OPT_CMDLINES, "command lines", cmdlines, 8, err);
}

int dat_writer_metadata_payload(struct dat_writer *w, uint16_t id, const struct dat_blob *payload,
				struct strbuf *err)
{
	static const char *const desc[] = {
		[DAT_OPT_HEADER_INFO - DAT_OPT_HEADER_INFO] = "headers",
		[DAT_OPT_FTRACE_EVENTS - DAT_OPT_HEADER_INFO] = "ftrace events",
		[DAT_OPT_EVENT_FORMATS - DAT_OPT_HEADER_INFO] = "events format",
		[DAT_OPT_KALLSYMS - DAT_OPT_HEADER_INFO] = "kallsyms",
		[DAT_OPT_PRINTK - DAT_OPT_HEADER_INFO] = "printk",
		[DAT_OPT_CMDLINES - DAT_OPT_HEADER_INFO] = "command lines",
	};
	struct kt_part part = { payload->size ? payload->data : "", payload->size };

	if (dat_opt_is_file_section(id)) {
		/* trace-cmd 3.4 writes them into v7 sections only: a v6 file has no place */
		if (w->version < 7)
			return 0;
		return write_meta(w, id, id == DAT_OPT_BTF_FILE ? "BTF" : "modules", &part, 1, err);
	}
	if (!dat_opt_is_reader_section(id)) {
		if (err)
			strbuf_addf(err, "option %u is not a metadata section", id);
		return -EINVAL;
	}
	return write_meta(w, id, desc[id - DAT_OPT_HEADER_INFO], &part, 1, err);
}

int dat_w_strings_section(struct dat_writer *w)
{
	struct strbuf copy = STRBUF_INIT;
	struct kt_part part;
	uint64_t size_at;
	int ret;

	/* The section's own description is one of its strings. */
	ret = dat_w_section_start(w, DAT_OPT_STRINGS, w->codec ? DAT_SECTION_FLAG_COMPRESSED : 0,
				  "strings", &size_at);
	if (!ret)
		ret = strbuf_add(&copy, w->strings.buf, w->strings.len);
	part.data = copy.buf ? copy.buf : "";
	part.len = copy.len;
	if (!ret)
		ret = w->codec ? write_compressed(w, &part, 1) : dat_w_write(w, copy.buf, copy.len);
	if (!ret)
		ret = dat_w_section_end(w, size_at);
	strbuf_release(&copy);
	return ret;
}

int dat_writer_metadata_end(struct dat_writer *w, struct strbuf *err)
{
	int ret;

	if (w->version < 7) {
		ret = dat_w_put32(w, (uint32_t)w->cpus);
		if (!ret)
			ret = dat_w_options_v6(w);
	} else {
		ret = dat_w_options_section(w);
	}
	/* the metadata a listener receives is complete: it must not read as unfinished */
	if (!ret)
		ret = dat_w_patch(w, 0, DAT_MAGIC, DAT_MAGIC_LEN);
	if (ret && err)
		strbuf_addf(err, "writing the options: %s", strerror(-ret));
	return ret;
}

int dat_writer_finish(struct dat_writer *w, struct strbuf *err)
{
	int ret = 0;

	if (w->version >= 7 && !w->sections_done) {
		if (w->nr_written_opts < w->nr_opts)
			ret = dat_w_options_section(w);
		if (!ret)
			ret = dat_w_strings_section(w);
	}
	if (!ret && ftruncate(w->fd, (off_t)w->off))
		ret = -errno;
	/* last: until now a reader sees an unfinished recording */
	if (!ret)
		ret = dat_w_patch(w, 0, DAT_MAGIC, DAT_MAGIC_LEN);
	if (ret && err)
		strbuf_addf(err, "finishing the file: %s", strerror(-ret));
	return ret;
}
