/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_SPLIT_H
#define KTRACE_SPLIT_H

/*
 * `ktrace split`: the events of a trace.dat cut into pieces (split_cut.c), each piece's events
 * laid out again as ring-buffer pages per CPU (split_pages.c) and written as a file by the dat
 * writer (cmd_split.c).
 */
#include <stdbool.h>
#include <stdint.h>

#include "ktrace/compress.h"
#include "ktrace/strbuf.h"

struct dat_file;
struct dat_cpu_source;

/* One event as the reader gave it, copied so that it outlives the reader's next step. */
struct split_event {
	uint64_t ts;
	int cpu;			/* CPU number as recorded */
	long long missed;		/* events lost before it: 0, -1 (unknown), or a count */
	uint32_t size;
	uint8_t *data;
	uint32_t cap;
};

/* One CPU's pages of the piece being written: a temp file of whole pages or chunks. */
struct split_pages;

struct split_pages_config {
	uint32_t page_size;
	int long_size;			/* of the page header's commit field */
	enum kt_compression comp;	/* KT_COMP_NONE: raw pages */
	const char *dir;		/* where the temp file goes (the output's folder) */
};

int split_pages_new(const struct split_pages_config *cfg, struct split_pages **out,
		    struct strbuf *err);
/* Starts an empty piece: the temp file emptied. */
int split_pages_reset(struct split_pages *sp, struct strbuf *err);
/* Adds the event; a new page when it does not fit, when events were lost before it, or
 * when time goes backwards. *new_page (may be NULL) says whether it started one. */
int split_pages_add(struct split_pages *sp, const struct split_event *ev, bool *new_page,
		    struct strbuf *err);
/* Would adding ev start a new page? (-p counts pages before it adds one.) */
bool split_pages_needs_page(const struct split_pages *sp, const struct split_event *ev);
/* Writes the last page (and chunk). */
int split_pages_flush(struct split_pages *sp, struct strbuf *err);
/* After split_pages_flush(): the staged file (from offset 0) and its sizes, for the writer. */
const struct dat_cpu_source *split_pages_source(const struct split_pages *sp);
void split_pages_free(struct split_pages *sp);

/* How a piece ends: after a time span from its first event, a count of events or pages. */
enum split_unit {
	SPLIT_NONE,
	SPLIT_SECONDS,
	SPLIT_MSECS,
	SPLIT_USECS,
	SPLIT_EVENTS,
	SPLIT_PAGES,
};

struct split_rules {
	enum split_unit unit;
	uint64_t count;
	uint64_t end;			/* ns; 0: no end */
};

/*
 * A lane is a stream of events cut into pieces: every CPU of the top instance merged in time
 * order, or one CPU (-c, -C, -p). It keeps the event that ended a piece for the next one.
 */
struct split_lane;

int split_lane_open_merged(struct dat_file *df, struct split_lane **out, struct strbuf *err);
int split_lane_open_cpu(struct dat_file *df, int cpu_index, struct split_lane **out,
			struct strbuf *err);
void split_lane_close(struct split_lane *l);
/* Whether the lane has an event up to end (ns; 0: any) for another piece: 1, 0, -errno. */
int split_lane_more(struct split_lane *l, uint64_t end, struct strbuf *err);

/*
 * Moves the lane's next piece into pages[CPU number] (nr_pages entries): the events from
 * `start` (ns; 0: from the lane's next event) until the rules end the piece.
 */
int split_lane_cut(struct split_lane *l, const struct split_rules *r, uint64_t start,
		   struct split_pages **pages, int nr_pages, struct strbuf *err);

#endif
