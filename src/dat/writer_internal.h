/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_DAT_WRITER_INTERNAL_H
#define KTRACE_DAT_WRITER_INTERNAL_H

/*
 * Shared between writer.c (header, metadata, options, strings), writer_buffers.c (CPU data),
 * writer_latency.c (a latency tracer's text) and writer_append.c (CPU data appended to a
 * metadata-only file, as a listener does).
 */
#include <stdbool.h>
#include <stdint.h>

#include "ktrace/dat_writer.h"

struct dat_wopt {
	uint16_t id;
	uint32_t size;
	void *data;
	uint64_t data_offset;	/* where the payload landed once written, 0 before */
};

struct dat_writer {
	int fd;
	int version;
	enum kt_compression comp;
	struct kt_codec *codec;	/* NULL when sections are stored uncompressed */
	uint32_t page_size;
	int long_size;
	bool big;		/* numbers in big-endian order: a new file's are the host's */
	uint64_t off;		/* end of what was written so far */
	uint64_t next_link;	/* v7: where the offset of the next options section goes */
	struct dat_wopt *opts;
	int nr_opts;
	int nr_written_opts;	/* options before this index are already in the file */
	struct strbuf strings;	/* v7 section descriptions, written last */
	int cpus;
	bool failed;
	bool sections_done;	/* v7 latency: options and strings already written */
};

int dat_w_write(struct dat_writer *w, const void *data, size_t len);
int dat_w_patch(struct dat_writer *w, uint64_t off, const void *data, size_t len);
int dat_w_put16(struct dat_writer *w, uint16_t v);
int dat_w_put32(struct dat_writer *w, uint32_t v);
int dat_w_put64(struct dat_writer *w, uint64_t v);
/* v in the file's byte order, in `bytes` bytes at p */
void dat_w_encode(const struct dat_writer *w, void *p, int bytes, uint64_t v);
int dat_w_patch32(struct dat_writer *w, uint64_t off, uint32_t v);
int dat_w_patch64(struct dat_writer *w, uint64_t off, uint64_t v);
/* v7: writes a section header with a zero size; *size_at says where to patch the size. */
int dat_w_section_start(struct dat_writer *w, uint16_t id, uint16_t flags, const char *desc,
			uint64_t *size_at);
/* The same with a description already in the strings (dat_w_string). */
int dat_w_section_header(struct dat_writer *w, uint16_t id, uint16_t flags, uint32_t desc_id,
			 uint64_t *size_at);
int dat_w_string(struct dat_writer *w, const char *s, uint32_t *id);
/* v7: the strings section (the section descriptions); written once. */
int dat_w_strings_section(struct dat_writer *w);
int dat_w_section_end(struct dat_writer *w, uint64_t size_at);
/* v7: writes every option not yet in the file as one options section. */
int dat_w_options_section(struct dat_writer *w);
/* v6: "options  ", every option, DONE; written once, right before the first flyrecord. */
int dat_w_options_v6(struct dat_writer *w);
/* Every option not yet in the file, each as <id><size><data>; no DONE. */
int dat_w_option_list(struct dat_writer *w);
/* Appends an option and returns its index, or negative errno. */
int dat_w_option_add(struct dat_writer *w, uint16_t id, const void *data, uint32_t size);

/* Where one CPU's data landed in a v7 buffer section; size 0: the CPU has none. */
struct dat_w_cpu_place {
	uint32_t cpu;
	uint64_t offset;
	uint64_t size;
};
/* v7: queues the BUFFER option of a buffer section that starts at `start`. */
int dat_w_buffer_option(struct dat_writer *w, const char *name, const char *clock,
			uint32_t page_size, uint64_t start, const struct dat_w_cpu_place *cpus,
			int nr);

#endif
