/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_LOG_LEVEL_H
#define KTRACE_LOG_LEVEL_H

/*
 * trace-cmd 3.4's --verbose[=LEVEL] (and -V[LEVEL]): the levels of libtraceevent's enum
 * tep_loglevel, 0 (none) to 6 (all).
 */
enum kt_log_level {
	KT_LOG_NONE, KT_LOG_CRITICAL, KT_LOG_ERROR, KT_LOG_WARNING, KT_LOG_INFO, KT_LOG_DEBUG,
	KT_LOG_ALL,
};

/* The message listing what LEVEL may be, for a flag's error line. */
#define KT_LOG_LEVEL_CHOICES "none, crit, err, warn, info, debug, all or 0 to 6"

/*
 * As trace-cmd reads LEVEL: NULL is info; a number (above 6 is 6); or a word that starts
 * with a level's name ("warning" is warn, "critical" is crit). -1 for anything else.
 */
int kt_log_level_parse(const char *arg);

#endif
