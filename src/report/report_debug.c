// SPDX-License-Identifier: GPL-2.0-only
/*
 * report --boundary, --debug and --ts-check: what trace-cmd 3.1.6 prints to look at the ring
 * buffer's pages and at the order of timestamps. The page facts come from the cursor
 * (struct cursor_page_info, in each record's priv when the stream was opened for them).
 */
#include <stdio.h>

#include <event-parse.h>
#include <traceevent/kbuffer.h>

#include "ktrace/cursor.h"
#include "report_print.h"

static const struct cursor_page_info *page_info(const struct tep_record *r)
{
	return r->priv;
}

void report_debug_boundary(struct strbuf *line, const struct tep_record *r, uint32_t page_size,
			   bool debug)
{
	const struct cursor_page_info *pi = page_info(r);
	unsigned long long offset;

	if (!pi || !pi->at_start)
		return;
	strbuf_addf(line, "CPU:%d [SUBBUFFER START]", r->cpu);
	if (debug) {
		offset = (pi->page_offset + pi->in_page) & ~(unsigned long long)(page_size - 1);
		strbuf_addf(line, " [%llu:0x%llx]", (unsigned long long)pi->page_ts, offset);
	}
	strbuf_addch(line, '\n');
}

void report_debug_record(struct strbuf *line, const struct tep_record *r, uint32_t page_size)
{
	const struct cursor_page_info *pi = page_info(r);
	int i;

	if (!pi)
		return;
	strbuf_addf(line, " [%d:0x%llx:%d]", (int)pi->delta,
		    (unsigned long long)((pi->page_offset + pi->in_page) & (page_size - 1)), r->size);
	for (i = 0; i < pi->nr_after; i++) {
		const struct cursor_raw_entry *e = &pi->after[i];

		if (e->type == KBUFFER_TYPE_PADDING)
			strbuf_addstr(line, "\n PADDING: ");
		else if (e->type == KBUFFER_TYPE_TIME_EXTEND)
			strbuf_addstr(line, "\n TIME EXTEND: ");
		else
			strbuf_addstr(line, "\n TIME STAMP: ");
		strbuf_addf(line, "%s:%lld length:%d",
			    e->type == KBUFFER_TYPE_TIME_STAMP ? "timestamp" : "delta",
			    (long long)e->delta, e->length);
	}
}

void report_ts_check(unsigned long long *last, const struct tep_record *r, bool quiet)
{
	if (*last > r->ts && !quiet)
		fprintf(stderr, "  WARNING: Record on cpu %d went backwards: %lld to %lld "
			"delta: -%lld\n\n", r->cpu, (long long)*last, (long long)r->ts,
			(long long)(*last - r->ts));
	*last = r->ts;
}
