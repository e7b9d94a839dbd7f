/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_DAT_APPEND_H
#define KTRACE_DAT_APPEND_H

/*
 * A trace.dat that stops where its CPU data would start (what dat_writer_metadata_end() leaves
 * and a `record -N` client sends): checking it, and appending the CPU data to it.
 */
#include <stdint.h>

#include "ktrace/strbuf.h"

/* What appending the CPU data needs to know of such a file. */
struct dat_metadata {
	int version;			/* 6 or 7 */
	int big_endian;
	uint32_t page_size;
	uint32_t cpus;			/* the CPU count the metadata declares, 0 if none */
	char compression[32];		/* v7: "none", "zstd", "zlib" */
	uint64_t options_next_at;	/* v7: offset of the last options section's "next" field */
	char clock[64];			/* the selected trace clock, "" if none was sent */
	int headers_only;		/* v6 from a v1 client: no cmdlines, CPU count, options */
	uint64_t headers_end;		/* v6: where the printk formats end */
};

/*
 * Walks the first `size` bytes of fd and checks that they end where the CPU data would start.
 * Every count, size and offset is checked against those bytes, never read past them. 0, or
 * negative errno with a message in err (not NULL) naming the field and its offset.
 */
int dat_metadata_scan(int fd, uint64_t size, struct dat_metadata *m, struct strbuf *err);

/* One CPU's data to append, in a file of its own from offset 0. */
struct dat_append_cpu {
	int fd;
	uint64_t size;		/* bytes in fd */
	int compressed;		/* fd holds nr_chunks whole chunks (dat_chunk.h), else raw pages */
	uint32_t nr_chunks;
	int keep;		/* left as it is; else emptied as it is copied, so that the disk
				 * holds the trace about once rather than twice */
};

/*
 * Appends the CPU data of cpus[0..nr) (CPU i at index i) to the metadata in fd (its first
 * meta_size bytes, scanned into m), laid out as `trace-cmd listen` lays it out: v6 a
 * flyrecord; v7 a buffer section (compressed in chunks of 10 pages as the metadata says), an
 * options section with its BUFFER option chained after the metadata's, and a strings
 * section. incomplete (or NULL) goes into a DAT_OPT_KTRACE_INCOMPLETE option. Returns the
 * final file size or negative errno (message in err, not NULL).
 */
int64_t dat_append_cpu_data(int fd, uint64_t meta_size, const struct dat_metadata *m,
			    const struct dat_append_cpu *cpus, unsigned int nr,
			    const char *incomplete, struct strbuf *err);

/* How much of one CPU's file an assembly has moved into the output. */
struct dat_append_mark {
	uint64_t moved;		/* bytes of the CPU's file in the output; 0: not started */
	uint64_t offset;	/* where the CPU's data (its chunk count first) starts */
	uint64_t end;		/* where the output of what was moved ends */
	uint32_t chunks;	/* chunks made of it so far, when compressed while appending */
};

/*
 * Makes an assembly that empties its CPU files resumable. marks[i] says where CPU i stands
 * (all zero: from the start) and is kept up to date; after each `step` bytes of a CPU (and at
 * its end) the output is flushed to disk, then record() is called (it must make the mark
 * durable; non-zero stops the assembly), and only then is that part of the CPU's file
 * released. A later call with the same arguments and the recorded marks writes the same file.
 */
struct dat_append_journal {
	struct dat_append_mark *marks;
	uint64_t step;
	int (*record)(void *ctx, unsigned int cpu, const struct dat_append_mark *mark);
	void *ctx;
};

/* dat_append_cpu_data() with a journal (NULL: none). */
int64_t dat_append_cpu_data_journaled(int fd, uint64_t meta_size, const struct dat_metadata *m,
				      const struct dat_append_cpu *cpus, unsigned int nr,
				      const char *incomplete, const struct dat_append_journal *j,
				      struct strbuf *err);

#endif
