/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_CURSOR_H
#define KTRACE_CURSOR_H

/*
 * A cursor walks the events of one CPU of one buffer, page by page, with libtraceevent's
 * kbuffer. It fills one struct tep_record in place: no allocation per event.
 */
#include <stdint.h>

#include "ktrace/strbuf.h"

struct dat_file;
struct tep_record;
struct cpu_cursor;

int cpu_cursor_open(struct dat_file *df, int buffer, int cpu_index, struct cpu_cursor **out,
		    struct strbuf *err);
/*
 * Moves to the next event: 1 with cpu_cursor_record() filled, 0 at the end, negative errno
 * on a damaged page. The record (and its data) stays valid until the next call.
 */
int cpu_cursor_next(struct cpu_cursor *c, struct strbuf *err);
struct tep_record *cpu_cursor_record(struct cpu_cursor *c);
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
