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
#include "record_date.h"

#define TRIES		10
#define PROBE		"ktrace-date-probe"

static int write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, text, strlen(text));
	close(fd);
	return n < 0 ? -errno : 0;
}

static unsigned long long ns_of(const struct timespec *t)
{
	return (unsigned long long)t->tv_sec * 1000000000ULL + (unsigned long long)t->tv_nsec;
}

/* The probe's "SECONDS.MICROS:" timestamp in the instance's trace text, in microseconds. */
static int probe_timestamp(const char *dir, unsigned long long *us)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	unsigned long long sec, usec;
	const char *p, *start;
	int ret;

	strbuf_addf(&path, "%s/trace", dir);
	ret = strbuf_read_file(&text, strbuf_str(&path));
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
	strbuf_release(&path);
	strbuf_release(&text);
	return ret;
}

static int measure(const char *dir, unsigned long long *best_offset)
{
	unsigned long long best_span = ~0ULL, ts_us;
	struct timespec t0, t1;
	char path[4200];
	int fd, i, ret = -ENOENT;

	snprintf(path, sizeof(path), "%s/trace_marker", dir);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	snprintf(path, sizeof(path), "%s/trace", dir);
	for (i = 0; i < TRIES; i++) {
		write_file(path, "");
		clock_gettime(CLOCK_REALTIME, &t0);
		if (write(fd, PROBE, strlen(PROBE)) < 0)
			break;
		clock_gettime(CLOCK_REALTIME, &t1);
		if (probe_timestamp(dir, &ts_us) || ns_of(&t1) - ns_of(&t0) >= best_span)
			continue;
		best_span = ns_of(&t1) - ns_of(&t0);
		*best_offset = (ns_of(&t0) + best_span / 2) / 1000 - ts_us;
		ret = 0;
	}
	close(fd);
	return ret;
}

int record_date_offset(const char *trace_dir, const char *clock, char **out)
{
	unsigned long long offset = 0;
	char dir[4096], clock_file[4200];
	int ret;

	snprintf(dir, sizeof(dir), "%s/instances/ktrace-date-%d", trace_dir, (int)getpid());
	snprintf(clock_file, sizeof(clock_file), "%s/trace_clock", dir);
	if (mkdir(dir, 0755))
		return -errno;
	ret = clock ? write_file(clock_file, clock) : 0;
	if (!ret)
		ret = measure(dir, &offset);
	rmdir(dir);
	if (!ret && asprintf(out, "0x%llx", offset) < 0)
		ret = -ENOMEM;
	return ret;
}
