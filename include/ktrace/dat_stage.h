/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_DAT_STAGE_H
#define KTRACE_DAT_STAGE_H

/*
 * One CPU's pages staged in a file for the writer, which takes CPU data as files (convert's
 * copy, split's pieces): whole pages as they are, or, with a codec, in chunks of
 * DAT_CHUNK_PAGES pages as the recorder writes them. What is in the file is counted in a
 * struct dat_cpu_source, ready for dat_writer_buffers().
 */
#include <stddef.h>
#include <stdint.h>

#include "ktrace/compress.h"
#include "ktrace/dat_writer.h"
#include "ktrace/strbuf.h"

struct dat_stage {
	struct kt_codec *codec;		/* NULL: raw pages; the caller's, never freed here */
	uint32_t page_size;
	uint8_t *raw;			/* the pages not yet in the file */
	uint8_t *z;			/* their chunk */
	size_t raw_len, chunk_cap, bound;
	struct dat_cpu_source *cs;	/* the file (cs->fd) and its counts */
};

/* Buffers for pages of page_size; st->cs is set by the caller before the first page. 0 or
 * -ENOMEM. */
int dat_stage_init(struct dat_stage *st, struct kt_codec *codec, uint32_t page_size);
/* Adds one page (page_size bytes); a full chunk goes out to cs->fd. 0 or negative errno. */
int dat_stage_page(struct dat_stage *st, const void *page);
/* The pages gathered so far out to cs->fd: as they are, or as one chunk. */
int dat_stage_flush(struct dat_stage *st);
/* The pages not yet flushed are dropped (a piece started again). */
void dat_stage_drop(struct dat_stage *st);
void dat_stage_release(struct dat_stage *st);

/*
 * The first `size` bytes of in_fd, whole ring-buffer pages of page_size, compressed with comp
 * in chunks of DAT_CHUNK_PAGES pages (as trace-cmd does) into an unnamed file in tmp_dir: what
 * dat_writer_buffers takes as cs for a compressed file (restore). cs->cpu names the CPU in err;
 * cs->fd (the staging file, the caller closes it when >= 0), size, raw_size and nr_chunks are
 * set. 0, or negative errno with one line in err.
 */
int dat_stage_raw_pages(int in_fd, uint64_t size, uint32_t page_size, enum kt_compression comp,
			const char *tmp_dir, struct dat_cpu_source *cs, struct strbuf *err);

#endif
