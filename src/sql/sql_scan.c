// SPDX-License-Identifier: GPL-2.0-only
/*
 * One walk of a file's records for one scan of a table, in report's order (the merge of every
 * buffer's CPUs by timestamp, ties to the earlier buffer, then the lower CPU), narrowed by what
 * the query's WHERE says of ts and cpu:
 *
 *   - a cpu range opens cursors on those CPUs only: the other CPUs' pages are never read;
 *   - ts below the range is skipped, and the walk ends at the first record past its end: the
 *     ring buffer writes each CPU's records in time order, so the merge gives them in order.
 *
 * SQLite checks every constraint again on the rows it gets, so a scan may give more rows than
 * the range, never fewer. Report's filters (-F, --cpu, --pid, --comm, -I, -S: the trace's
 * filter) leave out records before any table sees them, as report leaves them out.
 */
#include <errno.h>
#include <stdlib.h>

#include <traceevent/event-parse.h>

#include "ktrace/dat.h"
#include "ktrace/merge.h"
#include "ktrace/report.h"
#include "../report/report_stream.h"
#include "sql.h"

struct sql_scan {
	struct merge *merge;
	bool *cpus;		/* the CPUs to read, by CPU number; NULL: every CPU */
	struct sql_range range;
	bool done;
	struct report_filter *filter;	/* NULL: every record */
	int *slot_base;		/* with a filter: report's first CPU slot of each buffer */
};

/* The highest CPU number of any buffer, + 1. */
static int cpu_slots(struct dat_file *df)
{
	int b, i, n = 0;

	for (b = 0; b < dat_file_nr_buffers(df); b++) {
		const struct dat_buffer *buf = dat_file_buffer(df, b);

		for (i = 0; i < buf->nr_cpus; i++)
			if (buf->cpus[i].cpu + 1 > n)
				n = buf->cpus[i].cpu + 1;
	}
	return n;
}

/* --cpu counts the CPUs of every buffer in one row, as report numbers them */
static int slot_bases(struct sql_scan *s, struct dat_file *df)
{
	int b, base = 0, nr = dat_file_nr_buffers(df);

	s->slot_base = calloc(nr ? (size_t)nr : 1, sizeof(*s->slot_base));
	if (!s->slot_base)
		return -ENOMEM;
	for (b = 0; b < nr; b++) {
		s->slot_base[b] = base;
		base += report_buffer_slots(df, b);
	}
	return 0;
}

int sql_scan_open(const struct sql_trace *t, const struct sql_range *range,
		  struct sql_scan **out, struct strbuf *err)
{
	struct merge_options mo = { 0 };
	struct sql_scan *s = calloc(1, sizeof(*s));
	struct dat_file *df = t->df;
	int i, ret;

	if (!s)
		return -ENOMEM;
	s->range = *range;
	s->filter = t->filter;
	if (s->filter && slot_bases(s, df)) {
		free(s);
		return -ENOMEM;
	}
	if (range->ts_min > range->ts_max || range->cpu_min > range->cpu_max) {
		s->done = true;
		*out = s;
		return 0;
	}
	if (range->cpu_min > INT64_MIN || range->cpu_max < INT64_MAX) {
		mo.nr_cpu_filter = cpu_slots(df);
		s->cpus = calloc(mo.nr_cpu_filter ? (size_t)mo.nr_cpu_filter : 1, sizeof(*s->cpus));
		if (!s->cpus) {
			free(s->slot_base);
			free(s);
			return -ENOMEM;
		}
		for (i = 0; i < mo.nr_cpu_filter; i++)
			s->cpus[i] = i >= range->cpu_min && i <= range->cpu_max;
		mo.cpu_filter = s->cpus;
	}
	ret = merge_open(df, &mo, &s->merge, err);
	if (ret) {
		free(s->cpus);
		free(s->slot_base);
		free(s);
		return ret;
	}
	*out = s;
	return 0;
}

static bool keep(struct sql_scan *s, const struct merged_event *ev)
{
	struct report_event rev = {
		.record = ev->record, .buffer = ev->buffer,
		.cpu_slot = s->slot_base[ev->buffer] + ev->record->cpu,
	};

	return report_filter_keep(s->filter, &rev);
}

int sql_scan_next(struct sql_scan *s, struct tep_record **record, int *buffer,
		  struct strbuf *err)
{
	struct merged_event ev;
	int ret;

	while (!s->done) {
		ret = merge_next(s->merge, &ev, err);
		if (ret <= 0) {
			s->done = true;
			return ret;
		}
		if ((int64_t)ev.record->ts > s->range.ts_max) {
			s->done = true;
			break;
		}
		if ((int64_t)ev.record->ts < s->range.ts_min || (s->filter && !keep(s, &ev)))
			continue;
		*record = ev.record;
		*buffer = ev.buffer;
		return 1;
	}
	return 0;
}

void sql_scan_close(struct sql_scan *s)
{
	if (!s)
		return;
	merge_close(s->merge);
	free(s->cpus);
	free(s->slot_base);
	free(s);
}
