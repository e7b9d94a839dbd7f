// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ktrace/command.h"

#define TRACEFS_DIR "/sys/kernel/tracing"

int kt_tracefs_ensure_mounted(void)
{
	struct stat st;

	if (stat(TRACEFS_DIR "/trace", &st) == 0)
		return 0;
	if (mount("nodev", TRACEFS_DIR, "tracefs", 0, NULL) && errno != EBUSY)
		return -errno;
	if (stat(TRACEFS_DIR "/trace", &st))
		return -errno;
	return 0;
}
