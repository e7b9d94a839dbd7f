/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_DAT_H
#define KTRACE_DAT_H

/*
 * Reading trace.dat files, v6 and v7. This layer knows the file format and loads the metadata
 * into a libtraceevent handle; it knows nothing about printing.
 *
 * Errors are negative errno values; the failing function writes one line into `err` naming
 * the file, the section or option, and the offset at fault.
 */
#include <stdbool.h>
#include <stdint.h>

#include "ktrace/compress.h"
#include "ktrace/strbuf.h"

struct tep_handle;
struct dat_file;

struct dat_cpu {
	int cpu;		/* CPU number as recorded */
	uint64_t offset;	/* file offset of the CPU's data in the buffer section */
	uint64_t size;		/* uncompressed size of the CPU's data (whole pages) */
};

struct dat_buffer {
	const char *name;	/* "" for the top instance */
	const char *clock;	/* trace clock of this buffer, e.g. "local" */
	uint32_t page_size;
	int nr_cpus;
	struct dat_cpu *cpus;
	bool latency;		/* a latency (text) buffer rather than flyrecord pages */
	uint64_t section_offset; /* v7: where the buffer's section starts; v6: 0 */
	bool compressed;	/* v7: data stored in compressed chunks */
};

int dat_file_open(const char *path, struct dat_file **out, struct strbuf *err);
void dat_file_close(struct dat_file *df);

const char *dat_file_path(const struct dat_file *df);
int dat_file_version(const struct dat_file *df);
enum kt_compression dat_file_compression(const struct dat_file *df);
const char *dat_file_compression_version(const struct dat_file *df);
bool dat_file_big_endian(const struct dat_file *df);
int dat_file_long_size(const struct dat_file *df);
uint32_t dat_file_page_size(const struct dat_file *df);
int dat_file_nr_cpus(const struct dat_file *df);

/* The libtraceevent handle holding every format, kallsyms, printk formats and cmdlines. */
struct tep_handle *dat_file_tep(struct dat_file *df);

/* Buffer 0 is the top instance (when recorded), then the -B instances in file order. */
int dat_file_nr_buffers(const struct dat_file *df);
const struct dat_buffer *dat_file_buffer(const struct dat_file *df, int index);

/*
 * The payload of the nth option with this id (see dat_format.h), or NULL. Options from every
 * options section are kept in file order.
 */
const void *dat_file_option(const struct dat_file *df, int id, int nth, uint32_t *size);

/* v6 latency text, or NULL when the file has none. */
const char *dat_file_latency_text(const struct dat_file *df, uint64_t *size);

/*
 * A stream of one CPU's ring-buffer pages, each page_size bytes, decompressed chunk by chunk so
 * that memory stays bounded whatever the file size.
 */
struct dat_page_stream;

int dat_page_stream_open(struct dat_file *df, int buffer, int cpu_index,
			 struct dat_page_stream **out, struct strbuf *err);
/* 1 with *page set (valid until the next call), 0 at the end, negative errno on error. */
int dat_page_stream_next(struct dat_page_stream *ps, const void **page, struct strbuf *err);
void dat_page_stream_close(struct dat_page_stream *ps);

#endif
