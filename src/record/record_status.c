// SPDX-License-Identifier: GPL-2.0-only
/* Status line and end-of-run summary of ktrace record (record_status.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "record_session.h"
#include "record_status.h"

static double now_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

static const char *human(double bytes, char *buf, size_t size)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	int u = 0;

	while (bytes >= 1024 && u < 4) {
		bytes /= 1024;
		u++;
	}
	snprintf(buf, size, u ? "%.1f %s" : "%.0f %s", bytes, units[u]);
	return buf;
}

void record_status_begin(struct record_status *st, bool quiet)
{
	memset(st, 0, sizeof(*st));
	st->quiet = quiet;
	st->line = !quiet && isatty(STDERR_FILENO);
	clock_gettime(CLOCK_MONOTONIC, &st->t0);
}

static uint64_t lost_of(const struct record_cpu *c, const struct cpu_counters *now)
{
	return (now->overrun - c->start.overrun) + (now->dropped - c->start.dropped);
}

void record_status_tick(struct record_status *st, const struct record_session *s)
{
	uint64_t bytes = 0, events = 0;
	char line[512], b1[32];
	size_t len;
	double t, dt;
	int i, cpu;

	if (!st->line)
		return;
	t = now_since(&st->t0);
	len = 0;
	line[0] = '\0';
	for (i = 0; i < s->nr_bufs; i++) {
		for (cpu = 0; cpu < s->nr_cpus; cpu++) {
			const struct record_cpu *c = &s->bufs[i].cpus[cpu];
			struct recorder_stats rs;
			struct cpu_counters now = { 0 };

			if (!c->rec)
				continue;
			recorder_get_stats(c->rec, &rs);
			record_read_counters(s->bufs[i].dir, cpu, &now);
			bytes += rs.raw_bytes;
			events += now.read_events - c->start.read_events;
			if (i == 0 && len < sizeof(line) - 32)
				len += (size_t)snprintf(line + len, sizeof(line) - len, " %llu",
							(unsigned long long)lost_of(c, &now));
		}
	}
	dt = t - st->last_t > 0 ? t - st->last_t : 1;
	fprintf(stderr, "\r\033[K%6.1fs  %s/s  %.0f events/s  lost per CPU:%s", t,
		human((double)(bytes - st->last_bytes) / dt, b1, sizeof(b1)),
		(double)(events - st->last_events) / dt, line);
	fflush(stderr);
	st->drawn = true;
	st->last_t = t;
	st->last_bytes = bytes;
	st->last_events = events;
}

void record_status_end(struct record_status *st)
{
	st->seconds = now_since(&st->t0);
	if (st->drawn)
		fprintf(stderr, "\r\033[K");
}

/* ktrace's own threads (recorders included), not the traced command. */
static double self_cpu(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru))
		return 0;
	return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
	       (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

/*
 * Events are lost when the recorder falls behind by more than the buffer: a buffer larger by
 * the share that was lost, and at least twice the size (the next power of two), absorbs such a
 * lag. Sizing it to the whole trace would ask for gigabytes on a long recording.
 */
static void lost_advice(const struct record_buffer *b, const struct record_cpu *c, uint64_t events,
			uint64_t lost, double seconds)
{
	uint64_t kb = b->buffer_kb ? b->buffer_kb : 1024, sugg = 1024;
	uint64_t want = kb * 2 + kb * lost / (events ? events : 1);

	while (sugg < want)
		sugg *= 2;
	fprintf(stderr,
		"ktrace record: CPU%d%s%s lost %llu events (%.0f KiB/s into a %u KiB buffer); "
		"try -b %llu, or fewer events with -e/-f\n",
		c->cpu, b->name ? " of instance " : "", b->name ? b->name : "",
		(unsigned long long)lost,
		seconds > 0 ? (double)c->st.raw_bytes / 1024 / seconds : 0.0, (unsigned int)kb,
		(unsigned long long)sugg);
}

static void nothing_recorded(const struct record_hints *hints)
{
	fprintf(stderr, "ktrace record: no events were recorded: ");
	if (hints->pid_filter)
		fprintf(stderr, "the pid filter (-F/-P) kept only processes that produced none "
				"of the enabled events\n");
	else if (hints->event_filter)
		fprintf(stderr, "the event filter (-f) matched no event\n");
	else
		fprintf(stderr, "the enabled events did not fire while recording (or tracing "
				"was switched off by someone else)\n");
}

void record_status_summary(const struct record_status *st, const struct record_session *s,
			const struct record_hints *hints, const char *output)
{
	uint64_t total_events = 0, total_raw = 0;
	char b1[32], b2[32], size[48];
	struct stat sbuf;
	int i, cpu;

	for (i = 0; i < s->nr_bufs; i++) {
		const struct record_buffer *b = &s->bufs[i];

		if (!st->quiet)
			fprintf(stderr, "%s%s  CPU      events        bytes      in file   lost\n",
				b->name ? "instance " : "", b->name ? b->name : "");
		for (cpu = 0; cpu < s->nr_cpus; cpu++) {
			const struct record_cpu *c = &b->cpus[cpu];
			uint64_t ev = c->end.read_events - c->start.read_events;
			uint64_t lost = lost_of(c, &c->end);

			total_events += ev;
			total_raw += c->st.raw_bytes;
			if (!st->quiet)
				fprintf(stderr, "  %3d %11llu %12s %12s %6llu\n", cpu,
					(unsigned long long)ev,
					human((double)c->st.raw_bytes, b1, sizeof(b1)),
					human((double)c->st.file_bytes, b2, sizeof(b2)),
					(unsigned long long)lost);
			if (lost)
				lost_advice(b, c, ev, lost, st->seconds);
		}
	}
	/* record -N: output is HOST:PORT, and no file here has a size. */
	size[0] = '\0';
	if (!stat(output, &sbuf))
		snprintf(size, sizeof(size), " (%s)", human((double)sbuf.st_size, b2, sizeof(b2)));
	if (!st->quiet)
		fprintf(stderr, "%llu events, %s of ring buffer in %.2f s -> %s%s; "
			"ktrace used %.2f s of CPU\n",
			(unsigned long long)total_events, human((double)total_raw, b1, sizeof(b1)),
			st->seconds, output, size, self_cpu());
	if (!total_events)
		nothing_recorded(hints);
}
