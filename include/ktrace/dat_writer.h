/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_DAT_WRITER_H
#define KTRACE_DAT_WRITER_H

/*
 * Writing trace.dat files, v6 and v7 (trace-cmd's Documentation/trace-cmd/trace-cmd.dat.v7.5.txt).
 * The writer knows the file layout only: callers hand it the metadata as bytes and the CPU data
 * as file descriptors (temp files the recorders filled), so that it never reads tracefs.
 *
 * Calls come in file order:
 *   dat_writer_open
 *   dat_writer_headers, dat_writer_ftrace_formats, dat_writer_event_formats,
 *   dat_writer_kallsyms, dat_writer_printk, dat_writer_cmdlines   (all six, in this order)
 *   dat_writer_add_option ... (any number, any time before dat_writer_buffers)
 *   dat_writer_buffers (once, every buffer, the top instance first when recorded)
 *     or dat_writer_latency (once: a latency tracer's text instead of CPU data)
 *   dat_writer_finish, dat_writer_free
 * or, for a file whose CPU data someone else appends (record -N sends this much to a listener,
 * which adds the data as `trace-cmd listen` does), after the options:
 *   dat_writer_metadata_end, dat_writer_free
 * Errors are negative errno; `err` (may be NULL) receives one line naming what failed.
 */
#include <stdint.h>
#include <stddef.h>

#include "ktrace/compress.h"
#include "ktrace/strbuf.h"

struct dat_writer;

struct dat_writer_config {
	int version;			/* 6 or 7 */
	enum kt_compression compression; /* v7 only; v6 files are never compressed */
	uint32_t page_size;		/* page size written in the file header */
	int long_size;			/* "bytes in a long" of the header; 0: the host's */
};

/* One format file (events/SYSTEM/EVENT/format) as read from tracefs. */
struct dat_blob {
	const void *data;
	size_t size;
};

struct dat_event_system {
	const char *name;
	const struct dat_blob *formats;
	int nr_formats;
};

/*
 * One CPU's data, as the recorder left it in `fd` from offset 0. When the file is compressed
 * the recorder already compressed it: `fd` holds `nr_chunks` chunks, each
 * <4 bytes compressed size><4 bytes raw size><compressed bytes>, in host byte order, and
 * `raw_size` is the sum of the raw sizes; `size` is always the byte count in `fd`.
 */
struct dat_cpu_source {
	int cpu;
	int fd;
	uint64_t size;
	uint64_t raw_size;
	uint32_t nr_chunks;
};

struct dat_buffer_source {
	const char *name;		/* "" for the top instance */
	const char *clock;		/* the selected trace clock, e.g. "local" */
	uint32_t page_size;		/* ring-buffer sub-buffer size of this instance */
	const struct dat_cpu_source *cpus;
	int nr_cpus;
};

/*
 * Marks the file at fd, created for a recording that will be written at its end, as an
 * unfinished recording, so that one killed before that is reported as such.
 */
int dat_writer_mark_unfinished(int fd);
int dat_writer_open(int fd, const struct dat_writer_config *cfg, struct dat_writer **out,
		    struct strbuf *err);
void dat_writer_free(struct dat_writer *w);

int dat_writer_headers(struct dat_writer *w, const struct dat_blob *header_page,
		       const struct dat_blob *header_event, struct strbuf *err);
int dat_writer_ftrace_formats(struct dat_writer *w, const struct dat_blob *formats, int nr,
			      struct strbuf *err);
int dat_writer_event_formats(struct dat_writer *w, const struct dat_event_system *systems, int nr,
			     struct strbuf *err);
int dat_writer_kallsyms(struct dat_writer *w, const struct dat_blob *kallsyms, struct strbuf *err);
int dat_writer_printk(struct dat_writer *w, const struct dat_blob *printk, struct strbuf *err);
int dat_writer_cmdlines(struct dat_writer *w, const struct dat_blob *cmdlines, struct strbuf *err);
/*
 * One of those six as another file holds it (dat_file_load_section, dat_file_load_v6_block):
 * the payload of option `id` (DAT_OPT_HEADER_INFO..DAT_OPT_CMDLINES), in the host's byte order,
 * written as is in place of the call of that id above. Also trace-cmd 3.4's BTF_FILE and
 * MODULES_FILE sections (a file's content), which a v6 file leaves out.
 */
int dat_writer_metadata_payload(struct dat_writer *w, uint16_t id, const struct dat_blob *payload,
				struct strbuf *err);

/* Queues an option (dat_format.h ids); v7 writes CPUCOUNT as an option, v6 as a field. */
int dat_writer_add_option(struct dat_writer *w, uint16_t id, const void *data, uint32_t size);
int dat_writer_cpu_count(struct dat_writer *w, int cpus);

/*
 * Writes every buffer's CPU data (copied from the sources' fds with copy_file_range, so that the
 * pages never pass through user memory). v6 needs every buffer before its options section, hence
 * one call. Without a top instance ("" first), v6 gets an empty top flyrecord as trace-cmd does.
 */
int dat_writer_buffers(struct dat_writer *w, const struct dat_buffer_source *bufs, int nr,
		       struct strbuf *err);
/*
 * A latency tracer's `trace` text as the file's data (trace-cmd's "latency" file): v6 after
 * "latency  ", v7 in a BUFFER_TEXT section (compressed in chunks when the file is) whose
 * option names `clock`. Replaces dat_writer_buffers; dat_writer_finish follows.
 */
int dat_writer_latency(struct dat_writer *w, const char *clock, const struct dat_blob *text,
		       struct strbuf *err);
/*
 * Ends the file where its CPU data would start: v6 the CPU count and the options, v7 the options
 * section whose "next" link the listener fills. No strings section: as with trace-cmd, the
 * listener writes the one the finished file has.
 */
int dat_writer_metadata_end(struct dat_writer *w, struct strbuf *err);
/* Writes the pending options and (v7) the strings section. */
int dat_writer_finish(struct dat_writer *w, struct strbuf *err);

#endif
