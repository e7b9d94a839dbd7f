/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_RECORD_SHOW_HIST_H
#define KTRACE_RECORD_SHOW_HIST_H

/*
 * Prints EVENT's histogram ("sys:event"), or with EVENT NULL, every event of the instance
 * (NULL: the top one) that has a hist trigger. 0 or negative errno, after one message.
 */
int show_hist(const char *instance, const char *event);

#endif
