/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_MERGE_H
#define KTRACE_MERGE_H

/*
 * Merging the per-CPU (and per-instance) event streams of a trace.dat file by timestamp, with a
 * binary heap. This layer knows timestamps and ring-buffer pages, not formats.
 */
#include <stdbool.h>
#include <stdint.h>

#include "ktrace/strbuf.h"

struct dat_file;
struct tep_record;
struct merge;

struct merge_options {
	/* CPUs to read; NULL reads every CPU. Indexed by CPU number, nr_cpu_filter entries. */
	const bool *cpu_filter;
	int nr_cpu_filter;
	/* Buffers (instances) to read; NULL reads every buffer. Indexed by buffer index. */
	const bool *buffer_filter;
	int nr_buffer_filter;
	/* every record's priv points at its struct cursor_page_info (report --debug) */
	bool page_info;
};

struct merged_event {
	struct tep_record *record;	/* cpu, ts, data, size, missed_events filled */
	int buffer;			/* index for dat_file_buffer() */
};

int merge_open(struct dat_file *df, const struct merge_options *opts, struct merge **out,
	       struct strbuf *err);
/*
 * 1 with *ev set (the record stays valid until the next call), 0 at the end of every stream,
 * negative errno on a read error (message in err; the events before it were delivered).
 */
int merge_next(struct merge *m, struct merged_event *ev, struct strbuf *err);
/*
 * Every cursor passes over the records of the event ids whose skip[id] is true from its next
 * record on (cpu_cursor_skip_events()): the records already read still come out.
 */
void merge_skip_events(struct merge *m, const bool *skip, int nr);
void merge_close(struct merge *m);

#endif
