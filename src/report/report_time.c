// SPDX-License-Identifier: GPL-2.0-only
/*
 * Timestamps as trace-cmd 3.1.6 prints them. The reader converts raw ring-buffer counts
 * (dat_file_ts); this file only chooses the unit and writes the text, by hand: snprintf() per
 * event is a measurable part of a report over millions of events.
 */
#include "ktrace/dat.h"
#include "ktrace/report.h"
#include "report_print.h"

int report_time_format(char *buf, unsigned long long ts, enum report_time_unit unit, bool colon)
{
	unsigned long long div = 1000000000ULL;
	int frac = 9, len = 0;

	if (unit == REPORT_TIME_RAW) {
		len = (int)(report_put_uint(buf, ts, 12, ' ') - buf);
		if (colon)
			buf[len++] = ':';
		buf[len] = '\0';
		return len;
	}
	if (unit == REPORT_TIME_USECS) {
		/* trace-cmd rounds to the nearest microsecond before splitting */
		ts = (ts + 500) / 1000;
		div = 1000000ULL;
		frac = 6;
	}
	if (colon)
		buf[len++] = ' ';
	len = (int)(report_put_uint(buf + len, ts / div, 5, ' ') - buf);
	buf[len++] = '.';
	len = (int)(report_put_uint(buf + len, ts % div, frac, '0') - buf);
	if (colon)
		buf[len++] = ':';
	buf[len] = '\0';
	return len;
}

void report_clock_init(struct report_clock *c, const struct dat_file *df,
		       const struct report_opts *o)
{
	c->use_trace_clock = dat_file_use_trace_clock(df);
	if (!dat_file_in_usecs(df))
		c->unit = REPORT_TIME_RAW;
	else
		c->unit = o->nsec ? REPORT_TIME_NSECS : REPORT_TIME_USECS;
}
