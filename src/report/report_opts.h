/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_REPORT_OPTS_H
#define KTRACE_REPORT_OPTS_H

/*
 * Private to src/report: report's own command line (report_opts.c) and what cmd_report.c asks
 * of it. Other commands take the shared flags through struct report_cli (ktrace/report.h).
 */
#include "ktrace/report.h"

struct report_filter;

/*
 * Applies filter flag `id` to `o`: 0, 1 when `id` is not a filter flag, or -EINVAL after a
 * message naming "ktrace CMD" and the flag. `neg` is the parser's state (-v seen).
 */
int report_opts_filter(struct report_opts *o, int id, const char *arg, bool *neg, const char *cmd);
/* Fills `o` from argv; 0, 1 after -h (usage printed), or -EINVAL (message printed). */
int report_opts_parse(struct report_opts *o, int argc, char **argv);
void report_opts_release(struct report_opts *o);
/* Parses "0-2,5" into o->cpu_set; -EINVAL with a message in err. */
int report_parse_cpulist(struct report_opts *o, const char *list, struct strbuf *err);

/* Whether f holds event filters (-F, --pid, --comm): -T stops once they are built. */
bool report_filter_has_event_filters(const struct report_filter *f);

#endif
