/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * -f filters and -R triggers checked as they are parsed, before tracefs sees them: what the
 * kernel surely refuses with a bare EINVAL gets a message with the column instead.
 */
#ifndef KTRACE_RECORD_PLAN_FILTER_CHECK_H
#define KTRACE_RECORD_PLAN_FILTER_CHECK_H

#include "ktrace/strbuf.h"

/* 0, or -EINVAL with "WHY (column N)" in *why; N counts from 1 in TEXT. */
int plan_filter_text_check(const char *text, struct strbuf *why);
int plan_trigger_text_check(const char *text, struct strbuf *why);

/* The same, the message printed as "ktrace CMD: FLAG 'TEXT': WHY (column N)". */
int plan_check_filter_arg(const char *cmd, const char *text);
int plan_check_trigger_arg(const char *cmd, const char *text);

/* -l, -n and -g of one instance: no blank pattern, no control byte. */
struct plan_instance;
int plan_check_function_globs(const char *cmd, const struct plan_instance *inst);

#endif
