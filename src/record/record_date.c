// SPDX-License-Identifier: GPL-2.0-only
/*
 * The DATE option of record --date. A marker is written to a scratch instance using the same
 * trace clock, between two CLOCK_REALTIME reads; its timestamp in the instance's text output
 * (microsecond resolution, the unit of the option) against the middle of the two reads gives
 * the offset. The try with the closest reads wins.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "metadata.h"
#include "ktrace/plan.h"
#include "ktrace/tfs.h"
#include "record_date.h"

#define TRIES		10
#define PROBE		"ktrace-date-probe"

static unsigned long long ns_of(const struct timespec *t)
{
	return (unsigned long long)t->tv_sec * 1000000000ULL + (unsigned long long)t->tv_nsec;
}

/* The probe's "SECONDS.MICROS:" timestamp in the instance's trace text, in microseconds. */
static int probe_timestamp(const char *instance, unsigned long long *us)
{
	struct strbuf text = STRBUF_INIT;
	unsigned long long sec, usec;
	const char *p, *start;
	int ret;

	ret = tfs_inst_read(instance, "trace", &text);
	p = ret ? NULL : strstr(strbuf_str(&text), ": " PROBE);
	ret = -ENOENT;
	if (p) {
		/* Skip back over "tracing_mark_write" to the timestamp that ends with ':'. */
		while (p > text.buf && p[-1] != ':')
			p--;
		start = p - 1;
		while (start > text.buf && start[-1] != ' ')
			start--;
		if (sscanf(start, "%llu.%6llu:", &sec, &usec) == 2) {
			*us = sec * 1000000ULL + usec;
			ret = 0;
		}
	}
	strbuf_release(&text);
	return ret;
}

static int measure(const char *instance, unsigned long long *best_offset)
{
	unsigned long long best_span = ~0ULL, ts_us;
	struct strbuf path = STRBUF_INIT;
	struct timespec t0, t1;
	int fd = -1, i, ret;

	ret = tfs_path(&path, instance, "trace_marker");
	if (!ret && (fd = open(path.buf, O_WRONLY | O_CLOEXEC)) < 0)
		ret = -errno;
	strbuf_release(&path);
	if (ret)
		return ret;
	ret = -ENOENT;
	for (i = 0; i < TRIES; i++) {
		tfs_inst_write(instance, "trace", "");
		clock_gettime(CLOCK_REALTIME, &t0);
		if (write(fd, PROBE, strlen(PROBE)) < 0)
			break;
		clock_gettime(CLOCK_REALTIME, &t1);
		if (probe_timestamp(instance, &ts_us) || ns_of(&t1) - ns_of(&t0) >= best_span)
			continue;
		best_span = ns_of(&t1) - ns_of(&t0);
		*best_offset = (ns_of(&t0) + best_span / 2) / 1000 - ts_us;
		ret = 0;
	}
	close(fd);
	return ret;
}

int record_date_offset(const char *clock, char **out)
{
	struct strbuf name = STRBUF_INIT, dir = STRBUF_INIT;
	unsigned long long offset = 0;
	int ret;

	ret = strbuf_addf(&name, "ktrace-date-%d", (int)getpid());
	if (!ret)
		ret = tfs_path(&dir, name.buf, NULL);
	if (!ret && mkdir(dir.buf, 0755))
		ret = -errno;
	else if (!ret) {
		ret = clock ? tfs_inst_write(name.buf, "trace_clock", clock) : 0;
		if (!ret)
			ret = measure(name.buf, &offset);
		rmdir(dir.buf);
	}
	if (!ret && asprintf(out, "0x%llx", offset) < 0)
		ret = -ENOMEM;
	strbuf_release(&name);
	strbuf_release(&dir);
	return ret;
}
