// SPDX-License-Identifier: GPL-2.0-only
/* trace-cmd's verbosity levels, read as trace-cmd reads them (log_level.h). */
#include <stdlib.h>
#include <string.h>

#include "ktrace/log_level.h"

int kt_log_level_parse(const char *arg)
{
	/* trace-cmd's own short names, matched as the start of the word */
	static const char *const names[] = { "none", "crit", "err", "warn", "info", "debug", "all" };
	size_t i;

	if (!arg)
		return KT_LOG_INFO;
	if (arg[0] >= '0' && arg[0] <= '9') {
		long v = strtol(arg, NULL, 10);

		return v > KT_LOG_ALL ? KT_LOG_ALL : (int)v;
	}
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strncmp(arg, names[i], strlen(names[i])))
			return (int)i;
	return -1;
}
