/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_REPORT_STREAM_H
#define KTRACE_REPORT_STREAM_H

/*
 * Private to src/report: what the printer and report_multi.c need of report_stream.c beyond
 * open/next/close (ktrace/report.h): the look-ahead of function_graph and the merge of files.
 */
#include <stdbool.h>
#include <stdint.h>

#include "ktrace/report.h"

/*
 * report_stream_open(), and with `page_info` every record's priv points at its struct
 * cursor_page_info (ktrace/cursor.h), for --boundary and --debug.
 */
int report_stream_open_pages(struct dat_file *df, bool page_info, struct report_stream **out,
			     struct strbuf *err);
/*
 * The timestamp and buffer of the event report_stream_next() gives next, which stays where it
 * is: 1, 0 at the end, negative errno (message in err). It ends the current event's life.
 */
int report_stream_head(struct report_stream *rs, uint64_t *ts, int *buffer, struct strbuf *err);
/*
 * How many CPU slots trace-cmd gives buffer `index` of df when it numbers the CPUs of all its
 * buffers (and files) in one row, as --cpu counts them.
 */
int report_buffer_slots(struct dat_file *df, int index);
/*
 * The next record of the current event's buffer (all of its CPUs, in merge order), without
 * consuming it; NULL at the end or on error (reported by the next report_stream_next()).
 * Call report_stream_pin() first: peeking may reuse the current record's memory otherwise.
 */
struct tep_record *report_stream_peek(struct report_stream *rs);
/* Drops the record report_stream_peek() returned, as if it had been printed. */
void report_stream_consume_peeked(struct report_stream *rs);
/* Every buffer's merge passes over the event ids of skip from now on (merge_skip_events()). */
void report_stream_skip_events(struct report_stream *rs, const bool *skip, int nr);
/* Copies the current record so that it survives a peek; returns the copy. */
struct tep_record *report_stream_pin(struct report_stream *rs);

#endif
