/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_RECORD_DATE_H
#define KTRACE_RECORD_DATE_H

/*
 * record --date: the offset from a trace clock to the wall clock, in microseconds, written as
 * "0x..." in the DATE option (trace-cmd's format). Measured in a scratch instance, so that the
 * buffers being recorded never see the probe marker.
 */

/* 0 with *out malloc'd, or negative errno (the caller warns and records without a date). */
int record_date_offset(const char *clock, char **out);

#endif
