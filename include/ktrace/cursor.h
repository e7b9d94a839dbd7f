/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_CURSOR_H
#define KTRACE_CURSOR_H

/*
 * A cursor walks the events of one CPU of one buffer, page by page, with libtraceevent's
 * kbuffer. It fills one struct tep_record in place: no allocation per event.
 */
#include <stdbool.h>
#include <stdint.h>

#include "ktrace/strbuf.h"

struct dat_file;
struct tep_record;
struct cpu_cursor;

/* The padding and time entries kept after a record, at most (a page seldom holds more). */
#define CURSOR_AFTER_MAX	8

/*
 * Where a record sits in its ring-buffer page, for report --boundary and --debug. With
 * cpu_cursor_keep_page_info(), each record's priv points at one (valid as the record is).
 */
struct cursor_page_info {
	uint64_t page_ts;	/* the page header's timestamp, as recorded */
	uint64_t page_offset;	/* trace-cmd's offset of the page (see cpu_cursor_keep_page_info) */
	uint32_t in_page;	/* the record's header, from the page's start */
	uint32_t delta;		/* the time delta in the record's header */
	bool at_start;		/* the record is the page's first entry */
	int nr_after;		/* padding and time entries between it and the next event */
	struct cursor_raw_entry {
		int type;	/* KBUFFER_TYPE_PADDING, _TIME_EXTEND or _TIME_STAMP */
		int length;
		unsigned long long delta;	/* the timestamp, for a TIME_STAMP */
	} after[CURSOR_AFTER_MAX];
};

int cpu_cursor_open(struct dat_file *df, int buffer, int cpu_index, struct cpu_cursor **out,
		    struct strbuf *err);
/*
 * Moves to the next event: 1 with cpu_cursor_record() filled, 0 at the end, negative errno
 * on a damaged page. The record (and its data) stays valid until the next call.
 */
int cpu_cursor_next(struct cpu_cursor *c, struct strbuf *err);
struct tep_record *cpu_cursor_record(struct cpu_cursor *c);
/*
 * Fills a struct cursor_page_info for every record from now on. `page_base` is added to the
 * pages' offsets: 0 for a file's pages, which are at their file offsets; for compressed data,
 * whose offsets count in the CPU's uncompressed data, trace-cmd's virtual layout of it.
 */
void cpu_cursor_keep_page_info(struct cpu_cursor *c, uint64_t page_base);
/*
 * From the next call on, cpu_cursor_next() passes over the records of each event id whose
 * skip[id] is true (id < nr) without filling the record: for a reader whose filter refuses
 * them anyway. skip stays the caller's, and must outlive its use; NULL stops skipping.
 */
void cpu_cursor_skip_events(struct cpu_cursor *c, const bool *skip, int nr);
/* The CPU number as recorded. */
int cpu_cursor_cpu(const struct cpu_cursor *c);
void cpu_cursor_close(struct cpu_cursor *c);
/*
 * The time of the CPU's first page (its header's timestamp, converted as the events are), as
 * trace-cmd takes it for a file's first timestamp: 1 with *ts set, 0 without a page, or
 * negative errno (message in err).
 */
int cpu_cursor_first_page_ts(struct dat_file *df, int buffer, int cpu_index, uint64_t *ts,
			     struct strbuf *err);

#endif
