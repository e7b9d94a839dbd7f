// SPDX-License-Identifier: GPL-2.0-only
/*
 * Turns metadata + per-CPU data into a complete trace.dat, laid out as `trace-cmd listen`
 * lays it out so that both tools read the result the same way:
 *   v6: "flyrecord\0", per CPU {offset, size}, the clock as "[name]", page-aligned CPU data.
 *   v7: a buffer section (CPU data, page aligned, compressed in chunks of 10 pages), an
 *       options section holding its BUFFER option chained after the client's options, and a
 *       strings section with the names of the sections added here.
 * The per-CPU temporary files are emptied as they are copied, so the disk holds the trace
 * about once rather than twice.
 */
#define _FILE_OFFSET_BITS 64
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ktrace/compress.h"
#include "ktrace/dat_format.h"
#include "ktrace/fdio.h"
#include "listen.h"

#define PAGES_PER_CHUNK		10
#define COPY_CHUNK		(1U << 20)

/* Section names as trace-cmd writes them; offsets are into the strings section we add. */
static const char added_strings[] = "buffer flyrecord \0options\0strings";
#define STR_BUFFER	0
#define STR_OPTIONS	18
#define STR_STRINGS	26

struct wr {
	int fd;
	uint64_t pos;
	uint64_t end;
	int big;
	struct strbuf *err;
};

static int wr_at(struct wr *w, uint64_t pos, const void *buf, size_t len)
{
	int ret = fd_pwrite_all(w->fd, buf, len, pos);

	if (ret) {
		strbuf_addf(w->err, "writing the output at offset %llu: %s",
			    (unsigned long long)pos, strerror(-ret));
		return ret;
	}
	if (pos + len > w->end)
		w->end = pos + len;
	return 0;
}

static int wr(struct wr *w, const void *buf, size_t len)
{
	int ret = wr_at(w, w->pos, buf, len);

	if (!ret)
		w->pos += len;
	return ret;
}

static void encode_num(const struct wr *w, uint8_t *b, int bytes, uint64_t v)
{
	int i;

	for (i = 0; i < bytes; i++)
		b[w->big ? bytes - 1 - i : i] = (uint8_t)(v >> (8 * i));
}

static int wr_num(struct wr *w, int bytes, uint64_t v)
{
	uint8_t b[8];

	encode_num(w, b, bytes, v);
	return wr(w, b, (size_t)bytes);
}

static int wr_num_at(struct wr *w, uint64_t pos, int bytes, uint64_t v)
{
	uint8_t b[8];

	encode_num(w, b, bytes, v);
	return wr_at(w, pos, b, (size_t)bytes);
}

static uint64_t align_up(uint64_t v, uint32_t page)
{
	return (v + page - 1) & ~(uint64_t)(page - 1);
}

/* Frees the copied part of a temporary file; failure only costs disk space. */
static void release_blob_range(const struct cpu_blob *b, uint64_t off, uint64_t len)
{
	if (!b->keep)
		(void)fallocate(b->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)off,
				(off_t)len);
}

static int read_blob(const struct cpu_blob *b, uint64_t off, void *buf, size_t len,
		     struct strbuf *err)
{
	ssize_t n = pread(b->fd, buf, len, (off_t)off);

	if (n == (ssize_t)len)
		return 0;
	strbuf_addf(err, "reading received CPU data at offset %llu: %s",
		    (unsigned long long)off, n < 0 ? strerror(errno) : "short read");
	return n < 0 ? -errno : -EIO;
}

static int copy_raw(struct wr *w, const struct cpu_blob *b, uint64_t *written)
{
	uint64_t off = 0;
	char *buf = malloc(COPY_CHUNK);
	int ret = buf ? 0 : -ENOMEM;

	while (!ret && off < b->size) {
		size_t n = b->size - off < COPY_CHUNK ? (size_t)(b->size - off) : COPY_CHUNK;

		ret = read_blob(b, off, buf, n, w->err);
		if (!ret)
			ret = wr(w, buf, n);
		release_blob_range(b, off, n);
		off += n;
	}
	free(buf);
	*written = b->size;
	return ret;
}

/* trace-cmd's chunked form: count, then per chunk {compressed size, size, bytes}. */
static int copy_compressed(struct wr *w, struct kt_codec *codec, enum kt_compression c,
			   const struct cpu_blob *b, uint32_t page, uint64_t *written)
{
	size_t chunk = (size_t)page * PAGES_PER_CHUNK, cap = kt_compress_bound(c, chunk);
	uint64_t count_at = w->pos, off = 0, total = 0;
	char *in = malloc(chunk), *out = malloc(cap);
	uint32_t chunks = 0;
	int ret = in && out ? wr_num(w, 4, 0) : -ENOMEM;

	while (!ret && off < b->size) {
		size_t n = b->size - off < chunk ? (size_t)(b->size - off) : chunk, clen = cap;

		ret = read_blob(b, off, in, n, w->err);
		if (!ret)
			ret = kt_codec_compress(codec, in, n, out, &clen);
		if (!ret)
			ret = wr_num(w, 4, clen);
		if (!ret)
			ret = wr_num(w, 4, n);
		if (!ret)
			ret = wr(w, out, clen);
		release_blob_range(b, off, n);
		off += n;
		total += clen + 8;
		chunks++;
	}
	if (!ret)
		ret = wr_num_at(w, count_at, 4, chunks);
	free(in);
	free(out);
	*written = total;
	return ret;
}

static int section_header(struct wr *w, uint16_t id, uint16_t flags, uint32_t desc,
			  uint64_t *size_at)
{
	int ret = wr_num(w, 2, id);

	if (!ret)
		ret = wr_num(w, 2, flags);
	if (!ret)
		ret = wr_num(w, 4, desc);
	*size_at = w->pos;
	return ret ? ret : wr_num(w, 8, 0);
}

static int close_section(struct wr *w, uint64_t size_at)
{
	return wr_num_at(w, size_at, 8, w->end - size_at - 8);
}

struct cpu_place {
	uint64_t offset;
	uint64_t size;
};

static int write_cpu_data(struct wr *w, const struct dat_meta *m, struct kt_codec *codec,
			  const struct cpu_blob *cpus, unsigned int nr, struct cpu_place *place)
{
	enum kt_compression c = codec ? kt_codec_compression(codec) : KT_COMP_NONE;
	unsigned int i;
	int ret = 0;

	for (i = 0; i < nr && !ret; i++) {
		w->pos = align_up(w->pos, m->page_size);
		place[i].offset = w->pos;
		place[i].size = 0;
		if (!cpus[i].size)
			continue;
		if (codec && cpus[i].compressed) {
			/* Chunks made as the data arrived: only their count is missing. */
			ret = wr_num(w, 4, cpus[i].nr_chunks);
			if (!ret)
				ret = copy_raw(w, &cpus[i], &place[i].size);
		} else if (codec) {
			ret = copy_compressed(w, codec, c, &cpus[i], m->page_size, &place[i].size);
		} else {
			ret = copy_raw(w, &cpus[i], &place[i].size);
		}
	}
	return ret;
}

static const char *clock_name(const struct dat_meta *m)
{
	return m->clock[0] ? m->clock : "local";
}

/* Says the file is incomplete and why; nothing when note is NULL. */
static int note_option(struct wr *w, const char *note)
{
	size_t len = note ? strlen(note) + 1 : 0;
	int ret;

	if (!note)
		return 0;
	ret = wr_num(w, 2, DAT_OPT_KTRACE_INCOMPLETE);
	if (!ret)
		ret = wr_num(w, 4, len);
	return ret ? ret : wr(w, note, len);
}

/* A v1 client sends only the headers; add what `trace-cmd listen` adds for it. */
static int v6_complete_headers(struct wr *w, unsigned int nr, const char *note)
{
	int ret = wr_num(w, 8, 0);		/* no saved command lines */

	if (!ret)
		ret = wr_num(w, 4, nr);
	if (!ret)
		ret = wr(w, "options  \0", 10);
	if (!ret)
		ret = note_option(w, note);
	return ret ? ret : wr_num(w, 2, DAT_OPT_DONE);
}

/* The client's options end the metadata with DONE (checked by dat_meta_scan): note goes before. */
static int v6_add_note(struct wr *w, const char *note)
{
	int ret;

	if (!note)
		return 0;
	w->pos -= 2;
	ret = note_option(w, note);
	return ret ? ret : wr_num(w, 2, DAT_OPT_DONE);
}

static int assemble_v6(struct wr *w, const struct dat_meta *m, const struct cpu_blob *cpus,
		       unsigned int nr, struct cpu_place *place, const char *note)
{
	char clock[80];
	uint64_t table;
	unsigned int i;
	int ret = m->headers_only ? v6_complete_headers(w, nr, note) : v6_add_note(w, note);

	if (!ret)
		ret = wr(w, "flyrecord\0", 10);
	table = w->pos;
	w->pos += 16ULL * nr;
	snprintf(clock, sizeof(clock), "[%s]", clock_name(m));
	if (!ret)
		ret = wr_num_at(w, w->pos, 8, strlen(clock));
	w->pos += 8;
	if (!ret)
		ret = wr(w, clock, strlen(clock));
	if (!ret)
		ret = write_cpu_data(w, m, NULL, cpus, nr, place);
	for (i = 0; i < nr && !ret; i++) {
		ret = wr_num_at(w, table + 16ULL * i, 8, place[i].offset);
		if (!ret)
			ret = wr_num_at(w, table + 16ULL * i + 8, 8, place[i].size);
	}
	return ret;
}

static int buffer_option(struct wr *w, const struct dat_meta *m, uint64_t data_offs,
			 const struct cpu_place *place, unsigned int nr)
{
	const char *clock = clock_name(m);
	unsigned int i, with_data = 0;
	uint32_t len;
	int ret;

	for (i = 0; i < nr; i++)
		with_data += place[i].size != 0;
	len = 8 + 1 + (uint32_t)strlen(clock) + 1 + 4 + 4 + 20 * with_data;
	ret = wr_num(w, 2, DAT_OPT_BUFFER);
	if (!ret)
		ret = wr_num(w, 4, len);
	if (!ret)
		ret = wr_num(w, 8, data_offs);
	if (!ret)
		ret = wr(w, "", 1);
	if (!ret)
		ret = wr(w, clock, strlen(clock) + 1);
	if (!ret)
		ret = wr_num(w, 4, m->page_size);
	if (!ret)
		ret = wr_num(w, 4, with_data);
	for (i = 0; i < nr && !ret; i++) {
		if (!place[i].size)
			continue;
		ret = wr_num(w, 4, i);
		if (!ret)
			ret = wr_num(w, 8, place[i].offset);
		if (!ret)
			ret = wr_num(w, 8, place[i].size);
	}
	return ret;
}

static int strings_section(struct wr *w, struct kt_codec *codec)
{
	size_t len = sizeof(added_strings), clen;
	uint64_t size_at;
	char *out;
	int ret = section_header(w, DAT_OPT_STRINGS, codec ? DAT_SECTION_FLAG_COMPRESSED : 0,
				 STR_STRINGS, &size_at);

	if (!ret && !codec)
		ret = wr(w, added_strings, len);
	if (!ret && codec) {
		clen = kt_compress_bound(kt_codec_compression(codec), len);
		out = malloc(clen);
		ret = out ? kt_codec_compress(codec, added_strings, len, out, &clen) : -ENOMEM;
		if (!ret)
			ret = wr_num(w, 4, clen);
		if (!ret)
			ret = wr_num(w, 4, len);
		if (!ret)
			ret = wr(w, out, clen);
		free(out);
	}
	return ret ? ret : close_section(w, size_at);
}

static int assemble_v7(struct wr *w, const struct dat_meta *m, struct kt_codec *codec,
		       const struct cpu_blob *cpus, unsigned int nr, struct cpu_place *place,
		       const char *note)
{
	uint64_t data_offs = w->pos, size_at, opts;
	int ret;

	ret = section_header(w, DAT_OPT_BUFFER, codec ? DAT_SECTION_FLAG_COMPRESSED : 0,
			     STR_BUFFER, &size_at);
	if (!ret)
		ret = write_cpu_data(w, m, codec, cpus, nr, place);
	if (!ret)
		ret = close_section(w, size_at);
	/* The next section starts where the data ends, not at the next page. */
	opts = w->pos = w->end;
	if (!ret)
		ret = section_header(w, DAT_SECTION_OPTIONS, 0, STR_OPTIONS, &size_at);
	if (!ret)
		ret = buffer_option(w, m, data_offs, place, nr);
	if (!ret)
		ret = note_option(w, note);
	if (!ret)
		ret = wr_num(w, 2, DAT_OPT_DONE);
	if (!ret)
		ret = wr_num(w, 4, 8);
	if (!ret)
		ret = wr_num(w, 8, 0);
	if (!ret)
		ret = close_section(w, size_at);
	if (!ret)
		ret = wr_num_at(w, m->options_next_at, 8, opts);
	return ret ? ret : strings_section(w, codec);
}

static int open_codec(const struct dat_meta *m, struct kt_codec **codec, struct strbuf *err)
{
	enum kt_compression c = KT_COMP_NONE;
	int ret;

	*codec = NULL;
	if (m->version < 7)
		return 0;
	if (kt_compression_from_name(m->compression, &c)) {
		strbuf_addf(err, "metadata: unknown compression '%s'", m->compression);
		return -EINVAL;
	}
	if (c == KT_COMP_NONE)
		return 0;
	ret = kt_codec_new(c, codec);
	if (!ret)
		kt_codec_like_trace_cmd(*codec);
	return ret;
}

int64_t dat_assemble(int out_fd, uint64_t meta_size, const struct dat_meta *m,
		     const struct cpu_blob *cpus, unsigned int nr_cpus, const char *incomplete,
		     struct strbuf *err)
{
	struct wr w = { .fd = out_fd, .pos = meta_size, .end = meta_size, .big = m->big_endian,
			.err = err };
	struct cpu_place *place = calloc(nr_cpus ? nr_cpus : 1, sizeof(*place));
	struct kt_codec *codec = NULL;
	int ret = place ? open_codec(m, &codec, err) : -ENOMEM;

	if (!ret && m->version == 6)
		ret = assemble_v6(&w, m, cpus, nr_cpus, place, incomplete);
	else if (!ret)
		ret = assemble_v7(&w, m, codec, cpus, nr_cpus, place, incomplete);
	kt_codec_free(codec);
	free(place);
	return ret ? ret : (int64_t)w.end;
}
