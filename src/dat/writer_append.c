// SPDX-License-Identifier: GPL-2.0-only
/*
 * CPU data appended to a trace.dat that stops where its CPU data starts (dat_append.h), laid
 * out as `trace-cmd listen` lays it out so that both tools read the result the same way:
 *   v6: "flyrecord\0", per CPU {offset, size}, the clock as "[name]", page-aligned CPU data.
 *   v7: a buffer section (CPU data, page aligned, compressed in chunks of 10 pages), an
 *       options section holding its BUFFER option chained after the metadata's options, and
 *       a strings section with the names of the sections added here.
 * The writer continues the file in the metadata's byte order and compression. Unlike a
 * recording's, the sections end where the data does, not at the next page, and a v6 table
 * has the offset of a CPU without data too. With a journal (dat_append.h) an interrupted
 * append is resumed where it stood and writes the same bytes, so that a listener can empty
 * the CPU files as it goes and still survive being killed.
 */
#define _FILE_OFFSET_BITS 64
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ktrace/dat_append.h"
#include "ktrace/dat_chunk.h"
#include "ktrace/dat_format.h"
#include "writer_internal.h"

#define COPY_CHUNK		(1U << 20)

/*
 * The CPUs' data on its way into the output. With a journal, a CPU's file is released only
 * once the output holds what was moved durably and the journal says so (record()): killed at
 * any instant, what a CPU's file no longer holds is in the output, and its mark says up to
 * where. The output is flushed every `step` bytes moved, whichever CPUs they came from, and
 * once at the end: a machine of many CPUs with little data each costs one flush, not two a CPU.
 */
struct moves {
	struct dat_writer *w;
	const struct dat_append_cpu *cpus;
	unsigned int nr;
	const struct dat_append_journal *j;	/* NULL: none */
	struct dat_append_mark *marks;		/* j's, else our own */
	uint64_t *released;			/* per CPU: bytes of its file released */
	uint64_t unsynced;			/* bytes moved since the last flush */
};

/* Frees the copied part of a CPU's file; failure only costs disk space. */
static void release(struct moves *mv, unsigned int cpu)
{
	const struct dat_append_cpu *c = &mv->cpus[cpu];
	uint64_t from = mv->released[cpu], to = mv->marks[cpu].moved;

	if (!c->keep && to > from)
		(void)fallocate(c->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)from,
				(off_t)(to - from));
	mv->released[cpu] = to;
}

/* Output on disk, then each mark that moved, then the CPU files' moved ranges released. */
static int flush_moves(struct moves *mv)
{
	unsigned int i;
	int ret;

	if (fdatasync(mv->w->fd))
		return -errno;
	for (i = 0; i < mv->nr; i++) {
		if (mv->marks[i].moved == mv->released[i])
			continue;
		ret = mv->j->record(mv->j->ctx, i, &mv->marks[i]);
		if (ret)
			return ret;
		release(mv, i);
	}
	mv->unsynced = 0;
	return 0;
}

/* n more bytes of CPU cpu are in the output, which ends at w->off. */
static int moved(struct moves *mv, unsigned int cpu, uint64_t n)
{
	mv->marks[cpu].moved += n;
	mv->marks[cpu].end = mv->w->off;
	if (!mv->j) {
		release(mv, cpu);
		return 0;
	}
	mv->unsynced += n;
	return mv->unsynced < mv->j->step ? 0 : flush_moves(mv);
}

static int read_cpu(const struct dat_append_cpu *c, uint64_t off, void *buf, size_t len,
		    struct strbuf *err)
{
	ssize_t n = pread(c->fd, buf, len, (off_t)off);

	if (n == (ssize_t)len)
		return 0;
	strbuf_addf(err, "reading received CPU data at offset %llu: %s",
		    (unsigned long long)off, n < 0 ? strerror(errno) : "short read");
	return n < 0 ? -errno : -EIO;
}

static int copy_raw(struct moves *mv, unsigned int cpu, struct strbuf *err)
{
	const struct dat_append_cpu *c = &mv->cpus[cpu];
	uint64_t off = mv->marks[cpu].moved;
	size_t piece = mv->j && mv->j->step < COPY_CHUNK ? (size_t)mv->j->step : COPY_CHUNK;
	char *buf = malloc(piece);
	int ret = buf ? 0 : -ENOMEM;

	while (!ret && off < c->size) {
		size_t n = c->size - off < piece ? (size_t)(c->size - off) : piece;

		ret = read_cpu(c, off, buf, n, err);
		if (!ret)
			ret = dat_w_write(mv->w, buf, n);
		off += n;
		if (!ret)
			ret = moved(mv, cpu, n);
	}
	free(buf);
	return ret;
}

/*
 * Raw pages as trace-cmd's chunks: the count, then the chunks. The count is filled in before
 * the last bytes count as moved, so that a CPU marked done is whole in the output.
 */
static int copy_compressed(struct moves *mv, unsigned int cpu, struct strbuf *err)
{
	struct dat_writer *w = mv->w;
	const struct dat_append_cpu *c = &mv->cpus[cpu];
	struct dat_append_mark *mark = &mv->marks[cpu];
	size_t chunk = (size_t)w->page_size * DAT_CHUNK_PAGES;
	size_t cap = dat_chunk_bound(w->comp, chunk);
	uint64_t off = mark->moved;
	char *in = malloc(chunk), *out = malloc(cap);
	int ret = in && out ? 0 : -ENOMEM;

	while (!ret && off < c->size) {
		size_t n = c->size - off < chunk ? (size_t)(c->size - off) : chunk, clen;

		ret = read_cpu(c, off, in, n, err);
		if (!ret)
			ret = dat_chunk_pack(w->codec, in, n, w->big, out, cap, &clen);
		if (!ret)
			ret = dat_w_write(w, out, clen);
		off += n;
		mark->chunks++;
		if (!ret && off == c->size)
			ret = dat_w_patch32(w, mark->offset, mark->chunks);
		if (!ret)
			ret = moved(mv, cpu, n);
	}
	free(in);
	free(out);
	return ret;
}

/*
 * One CPU's data at w->off, or the rest of it after what its mark says is in the output
 * already. Returns where its data starts (after a chunk count) in *start.
 */
static int move_cpu(struct moves *mv, unsigned int cpu, uint64_t *start, struct strbuf *err)
{
	struct dat_writer *w = mv->w;
	const struct dat_append_cpu *c = &mv->cpus[cpu];
	struct dat_append_mark *mark = &mv->marks[cpu];
	int ret = 0;

	if (mark->moved && (mark->offset != w->off || mark->moved > c->size ||
			    mark->end < mark->offset)) {
		strbuf_addf(err, "CPU %u: the assembly journal disagrees with the layout "
			    "(data at %llu, expected %llu)", cpu,
			    (unsigned long long)mark->offset, (unsigned long long)w->off);
		return -EINVAL;
	}
	if (!mark->moved)
		*mark = (struct dat_append_mark){ .offset = w->off, .end = w->off };
	mv->released[cpu] = mark->moved;
	*start = mark->offset + (w->codec ? 4 : 0);
	/* Chunks made as the data arrived need only their count; else it is filled in last. */
	if (w->codec && !mark->moved)
		ret = dat_w_put32(w, c->compressed ? c->nr_chunks : 0);
	if (mark->moved)
		w->off = mark->end;
	if (ret)
		return ret;
	return w->codec && !c->compressed ? copy_compressed(mv, cpu, err) :
		copy_raw(mv, cpu, err);
}

/*
 * Each CPU's data page aligned; place[i] says where it went and its size (without the chunk
 * count). w->off ends where the last data does.
 */
static int write_cpu_data(struct dat_writer *w, const struct dat_append_cpu *cpus,
			  unsigned int nr, const struct dat_append_journal *j,
			  struct dat_w_cpu_place *place, struct strbuf *err)
{
	uint64_t end = w->off, ps = w->page_size, start = 0;
	struct moves mv = { .w = w, .cpus = cpus, .nr = nr, .j = j };
	unsigned int i;
	int ret = 0;

	mv.released = calloc(nr ? nr : 1, sizeof(*mv.released));
	mv.marks = j ? j->marks : calloc(nr ? nr : 1, sizeof(*mv.marks));
	if (!mv.released || !mv.marks)
		ret = -ENOMEM;
	for (i = 0; i < nr && !ret; i++) {
		w->off = (w->off + ps - 1) / ps * ps;
		place[i].cpu = i;
		place[i].offset = w->off;
		place[i].size = 0;
		if (!cpus[i].size)
			continue;
		ret = move_cpu(&mv, i, &start, err);
		place[i].size = w->off - start;
		end = w->off;
	}
	if (!ret && j)
		ret = flush_moves(&mv);
	w->off = end;
	free(mv.released);
	if (!j)
		free(mv.marks);
	return ret;
}

static const char *clock_name(const struct dat_metadata *m)
{
	return m->clock[0] ? m->clock : "local";
}

static int append_v6(struct dat_writer *w, const struct dat_metadata *m,
		     const struct dat_append_cpu *cpus, unsigned int nr,
		     const struct dat_append_journal *j, struct dat_w_cpu_place *place,
		     struct strbuf *err)
{
	char clock[80];
	uint64_t table;
	unsigned int i;
	int ret = 0;

	if (m->headers_only) {
		/* A v1 client sends only the headers: add what `trace-cmd listen` adds. */
		ret = dat_w_put64(w, 0);	/* no saved command lines */
		if (!ret)
			ret = dat_w_put32(w, nr);
		if (!ret)
			ret = dat_w_options_v6(w);
	} else if (w->nr_opts) {
		/* The metadata's options end with DONE (dat_metadata_scan): ours go before it. */
		w->off -= 2;
		ret = dat_w_option_list(w);
		if (!ret)
			ret = dat_w_put16(w, DAT_OPT_DONE);
	}
	if (!ret)
		ret = dat_w_write(w, "flyrecord", 10);
	table = w->off;
	w->off += 16ULL * nr;	/* filled in below */
	snprintf(clock, sizeof(clock), "[%s]", clock_name(m));
	if (!ret)
		ret = dat_w_put64(w, strlen(clock));
	if (!ret)
		ret = dat_w_write(w, clock, strlen(clock));
	if (!ret)
		ret = write_cpu_data(w, cpus, nr, j, place, err);
	for (i = 0; i < nr && !ret; i++) {
		ret = dat_w_patch64(w, table + 16ULL * i, place[i].offset);
		if (!ret)
			ret = dat_w_patch64(w, table + 16ULL * i + 8, place[i].size);
	}
	return ret;
}

static int append_v7(struct dat_writer *w, const struct dat_metadata *m,
		     const struct dat_append_cpu *cpus, unsigned int nr,
		     const struct dat_append_journal *j, struct dat_w_cpu_place *place,
		     const char *note, struct strbuf *err)
{
	uint64_t start = w->off, size_at;
	int ret;

	ret = dat_w_section_start(w, DAT_OPT_BUFFER, w->codec ? DAT_SECTION_FLAG_COMPRESSED : 0,
				  "buffer flyrecord ", &size_at);
	if (!ret)
		ret = write_cpu_data(w, cpus, nr, j, place, err);
	if (!ret)
		ret = dat_w_section_end(w, size_at);
	if (!ret)
		ret = dat_w_buffer_option(w, "", clock_name(m), m->page_size, start, place,
					  (int)nr);
	if (!ret && note)
		ret = dat_w_option_add(w, DAT_OPT_KTRACE_INCOMPLETE, note,
				       (uint32_t)strlen(note) + 1);
	ret = ret < 0 ? ret : 0;
	if (!ret)
		ret = dat_w_options_section(w);
	return ret ? ret : dat_w_strings_section(w);
}

/* A writer that goes on from the metadata's end, in its byte order and compression. */
static int reopen(int fd, uint64_t meta_size, const struct dat_metadata *m,
		  struct dat_writer **out, struct strbuf *err)
{
	struct dat_writer *w = calloc(1, sizeof(*w));
	int ret = 0;

	if (!w)
		return -ENOMEM;
	w->fd = fd;
	w->version = m->version;
	w->big = m->big_endian;
	w->page_size = m->page_size;
	w->off = meta_size;
	w->next_link = m->options_next_at;
	w->comp = KT_COMP_NONE;
	if (m->version >= 7 && kt_compression_from_name(m->compression, &w->comp)) {
		strbuf_addf(err, "metadata: unknown compression '%s'", m->compression);
		ret = -EINVAL;
	}
	if (!ret && w->comp != KT_COMP_NONE) {
		ret = kt_codec_new(w->comp, &w->codec);
		/* the file trace-cmd listen makes of the same stream */
		if (!ret)
			kt_codec_like_trace_cmd(w->codec);
	}
	if (ret) {
		dat_writer_free(w);
		return ret;
	}
	*out = w;
	return 0;
}

int64_t dat_append_cpu_data(int fd, uint64_t meta_size, const struct dat_metadata *m,
			    const struct dat_append_cpu *cpus, unsigned int nr,
			    const char *incomplete, struct strbuf *err)
{
	return dat_append_cpu_data_journaled(fd, meta_size, m, cpus, nr, incomplete, NULL, err);
}

int64_t dat_append_cpu_data_journaled(int fd, uint64_t meta_size, const struct dat_metadata *m,
				      const struct dat_append_cpu *cpus, unsigned int nr,
				      const char *incomplete, const struct dat_append_journal *j,
				      struct strbuf *err)
{
	struct dat_w_cpu_place *place = calloc(nr ? nr : 1, sizeof(*place));
	struct dat_writer *w = NULL;
	int64_t size;
	int ret = place ? reopen(fd, meta_size, m, &w, err) : -ENOMEM;

	if (!ret && m->version == 6 && incomplete)
		ret = dat_w_option_add(w, DAT_OPT_KTRACE_INCOMPLETE, incomplete,
				       (uint32_t)strlen(incomplete) + 1);
	ret = ret < 0 ? ret : 0;
	if (!ret && m->version == 6)
		ret = append_v6(w, m, cpus, nr, j, place, err);
	else if (!ret)
		ret = append_v7(w, m, cpus, nr, j, place, incomplete, err);
	if (ret && !err->len)
		strbuf_addf(err, "writing the output at offset %llu: %s",
			    (unsigned long long)(w ? w->off : meta_size), strerror(-ret));
	size = ret ? ret : (int64_t)w->off;
	dat_writer_free(w);
	free(place);
	return size;
}
