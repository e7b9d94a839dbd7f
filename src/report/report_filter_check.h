/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ktrace's own reading of a -F filter, before libtraceevent sees it: libtraceevent 1.7.1's
 * parser dereferences missing operands, frees twice on some syntax errors and divides by
 * zero, so only strings it takes safely may reach it.
 */
#ifndef KTRACE_REPORT_FILTER_CHECK_H
#define KTRACE_REPORT_FILTER_CHECK_H

#include <event-parse.h>

#include "ktrace/strbuf.h"

/*
 * 0 when tep_filter_add_filter_str() takes EXPR without crashing and its records can be
 * matched safely; else -EBADMSG with the reason and the column (1-based, in EXPR) in *err.
 * Notes that do not stop the filter (a field no event of the filter has) go to *notes, one
 * line each. EXPR is named by the flag FLAG ("-F") in both.
 */
int report_filter_check(struct tep_handle *tep, const char *flag, const char *expr,
			struct strbuf *err, struct strbuf *notes);

/*
 * The condition, EXPR from offset START, for one event: 0, or -EBADMSG with the reason and
 * its column in *err. UNKNOWN, when not NULL, hears of each name that is not a field; NEVER,
 * when not NULL, gets a line for each part that can match no record.
 */
int report_filter_expr_check(const char *expr, size_t start, struct tep_event *event,
			     struct strbuf *err,
			     void (*unknown)(void *arg, const char *name, size_t col), void *arg,
			     struct strbuf *never);

#endif
