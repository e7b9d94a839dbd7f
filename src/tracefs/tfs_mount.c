// SPDX-License-Identifier: GPL-2.0-only
/*
 * Where tracefs is. The usual place is /sys/kernel/tracing; in a container it is often elsewhere
 * (a privileged pod gets the host's at /host/sys/kernel/tracing), so the user may name it with
 * `ktrace --tracefs PATH` or KTRACE_TRACEFS, and otherwise a tracefs mounted anywhere is found
 * in /proc/self/mountinfo before ktrace mounts one at the usual place. Every tracefs path of
 * ktrace and of libtracefs then goes through tracefs_tracing_dir().
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <tracefs.h>

#include "ktrace/command.h"
#include "ktrace/strbuf.h"

#define TRACEFS_DIR "/sys/kernel/tracing"
#define TRACEFS_MAGIC_NR 0x74726163	/* "trac" */
#define DEBUGFS_MAGIC_NR 0x64626720	/* debugfs/tracing on kernels before 4.1 */

static bool has_trace_file(const char *dir)
{
	struct strbuf path = STRBUF_INIT;
	struct stat st;
	bool ok;

	strbuf_addf(&path, "%s/trace", dir);
	ok = !stat(path.buf, &st);
	strbuf_release(&path);
	return ok;
}

/* A tracefs (or debugfs's tracing directory) with a trace file: 0, or -errno */
static int check_tracefs(const char *dir)
{
	struct statfs fs;

	if (statfs(dir, &fs))
		return -errno;
	if ((unsigned long)fs.f_type != TRACEFS_MAGIC_NR &&
	    (unsigned long)fs.f_type != DEBUGFS_MAGIC_NR)
		return -ENOTDIR;
	return has_trace_file(dir) ? 0 : -ENOENT;
}

/* The mount point of the first tracefs in /proc/self/mountinfo, into out; false if none */
static bool find_mounted(struct strbuf *out)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char *line = NULL, *sep, mnt[4096];
	size_t len = 0;
	bool found = false;

	while (f && !found && getline(&line, &len, f) > 0) {
		/* ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS [TAGS...] - FSTYPE SOURCE SUPER */
		sep = strstr(line, " - ");
		if (!sep || strncmp(sep + 3, "tracefs ", 8))
			continue;
		if (sscanf(line, "%*s %*s %*s %*s %4095s", mnt) != 1 || !has_trace_file(mnt))
			continue;
		strbuf_addstr(out, mnt);	/* mountinfo escapes spaces as \040: left as is */
		found = true;
	}
	free(line);
	if (f)
		fclose(f);
	return found;
}

int kt_tracefs_locate(const char *dir, struct strbuf *err)
{
	struct strbuf found = STRBUF_INIT;
	const char *from = "--tracefs";
	int ret;

	if (!dir) {
		dir = getenv("KTRACE_TRACEFS");
		from = "KTRACE_TRACEFS";
	}
	if (dir && *dir) {
		ret = check_tracefs(dir);
		if (ret)
			strbuf_addf(err, "%s %s: %s", from, dir, ret == -ENOTDIR ?
				    "is not a tracefs mount" : ret == -ENOENT ?
				    "has no trace file" : strerror(-ret));
		else if (tracefs_set_tracing_dir((char *)dir))
			ret = -errno ? -errno : -ENOMEM;
		return ret;
	}
	if (has_trace_file(TRACEFS_DIR))
		return 0;
	if (find_mounted(&found)) {
		ret = tracefs_set_tracing_dir(found.buf) ? -ENOMEM : 0;
		strbuf_release(&found);
		return ret;
	}
	strbuf_release(&found);
	if (mount("nodev", TRACEFS_DIR, "tracefs", 0, NULL) && errno != EBUSY) {
		ret = -errno;
		strbuf_addf(err, "no tracefs is mounted and mounting one on %s failed: %s "
			    "(name one with --tracefs PATH or KTRACE_TRACEFS)", TRACEFS_DIR,
			    strerror(errno));
		return ret;
	}
	if (!has_trace_file(TRACEFS_DIR)) {
		strbuf_addf(err, "%s has no trace file after mounting tracefs there", TRACEFS_DIR);
		return -ENOENT;
	}
	return 0;
}
