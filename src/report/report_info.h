/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_REPORT_INFO_H
#define KTRACE_REPORT_INFO_H

/*
 * Private to src/report: the one-shot listings that replace report's event output
 * (report_info.c, report_formats.c).
 */
#include <stdio.h>

#include "ktrace/report.h"

/* --stat: the "cpus=N" line is printed by the caller. */
int report_print_stat(struct dat_file *df, FILE *out, struct strbuf *err);
void report_print_uname(struct dat_file *df, FILE *out);
void report_print_version(struct dat_file *df, FILE *out);
/* --cpus, --first-event, --last-event */
int report_print_cpus(struct dat_file *df, const struct report_opts *o,
		      const struct report_clock *clock, FILE *out, struct strbuf *err);
/* -E: every event as system:name, sorted by system then name */
void report_print_event_list(struct tep_handle *tep, FILE *out);

/*
 * --events (regex NULL) and --event REGEX: the event formats of the file, as the kernel wrote
 * them (report_formats.c says which). 0 or negative errno with a message in err.
 */
int report_print_formats(struct dat_file *df, const char *regex, FILE *out, struct strbuf *err);

#endif
