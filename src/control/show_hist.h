/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_RECORD_SHOW_HIST_H
#define KTRACE_RECORD_SHOW_HIST_H

#include <stdbool.h>

/*
 * Prints EVENT's histogram ("sys:event"), or with EVENT NULL, every event of the instance
 * (NULL: the top one) that has a hist trigger; `clear` then zeroes EVENT's histograms (the
 * triggers stay). 0 or negative errno, after one message.
 */
int show_hist(const char *instance, const char *event, bool clear);

/* Prints EVENT's trigger file and a newline, as trace-cmd 3.4's show --trigger does. */
int show_trigger(const char *instance, const char *event);

#endif
