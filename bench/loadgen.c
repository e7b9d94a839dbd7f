// SPDX-License-Identifier: GPL-2.0-only
/*
 * loadgen: threads making a cheap syscall (getppid) at a controlled total rate for a fixed time,
 * so that a syscall tracepoint produces a known number of events.
 *
 *   loadgen [-t THREADS] [-r CALLS_PER_S, 0 = as fast as possible] [-d SECONDS] [-o]
 *
 * -o makes each call an openat() of /etc/hostname plus its close() instead of getppid(), for
 * syscall events that carry a string (the file name).
 * Prints one line of key=value pairs; calls= is exact (the ground truth for event counts).
 * A rate-limited thread compares its count with rate * elapsed (vDSO clock, no syscall), makes
 * the calls that are due in one burst, then sleeps until the next ~200 us worth is due: the
 * rate is exact on average while the sleeps stay few (each sleep is a syscall too, which is
 * why the benchmarks filter raw_syscalls on the getppid id).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define BURST_MAX	4096
#define QUANTUM_S	200e-6

struct worker {
	pthread_t thread;
	double rate;		/* calls/s of this thread; 0 = unlimited */
	double duration;
	const struct timespec *start;
	pthread_barrier_t *go;
	bool open_files;
	uint64_t calls;
} __attribute__((aligned(64)));

static double since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) * 1e-9;
}

static void sleep_until(const struct timespec *t0, double rel)
{
	struct timespec t = *t0;
	long ns = (long)(rel * 1e9);

	t.tv_sec += ns / 1000000000L;
	t.tv_nsec += ns % 1000000000L;
	if (t.tv_nsec >= 1000000000L) {
		t.tv_sec++;
		t.tv_nsec -= 1000000000L;
	}
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL))
		;
}

static void one_call(const struct worker *w)
{
	if (w->open_files) {
		long fd = syscall(SYS_openat, AT_FDCWD, "/etc/hostname", O_RDONLY);

		if (fd >= 0)
			syscall(SYS_close, fd);
	} else {
		syscall(SYS_getppid);
	}
}

static uint64_t run_unlimited(struct worker *w)
{
	uint64_t n = 0;

	do {
		for (int i = 0; i < 256; i++)
			one_call(w);
		n += 256;
	} while (since(w->start) < w->duration);
	return n;
}

static uint64_t run_limited(struct worker *w)
{
	uint64_t total = (uint64_t)(w->rate * w->duration + 0.5);
	double per_wake = w->rate * QUANTUM_S < 1 ? 1 : w->rate * QUANTUM_S;
	uint64_t n = 0;

	for (;;) {
		double t = since(w->start);
		uint64_t due = (uint64_t)(w->rate * t);

		if (t >= w->duration)
			return n;
		if (due > total)
			due = total;
		if (n < due) {
			uint64_t todo = due - n > BURST_MAX ? BURST_MAX : due - n;

			for (uint64_t i = 0; i < todo; i++)
				one_call(w);
			n += todo;
			continue;
		}
		t = ((double)n + per_wake) / w->rate;
		sleep_until(w->start, t > w->duration ? w->duration : t);
	}
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;

	/* Exact wake-ups keep the bursts short. */
	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	pthread_barrier_wait(w->go);
	w->calls = w->rate > 0 ? run_limited(w) : run_unlimited(w);
	return NULL;
}

int main(int argc, char **argv)
{
	int threads = 1, opt;
	double rate = 0, duration = 5;
	bool open_files = false;
	struct timespec start;
	pthread_barrier_t go;
	struct worker *ws;
	uint64_t total = 0;
	double elapsed;

	while ((opt = getopt(argc, argv, "t:r:d:o")) != -1) {
		switch (opt) {
		case 't': threads = atoi(optarg); break;
		case 'r': rate = atof(optarg); break;
		case 'd': duration = atof(optarg); break;
		case 'o': open_files = true; break;
		default:
			fprintf(stderr, "usage: loadgen [-t THREADS] [-r CALLS_PER_S] [-d SECONDS] [-o]\n");
			return 2;
		}
	}
	if (threads < 1 || rate < 0 || duration <= 0)
		return 2;
	ws = calloc((size_t)threads, sizeof(*ws));
	if (!ws)
		return 1;
	pthread_barrier_init(&go, NULL, (unsigned int)threads + 1);
	for (int i = 0; i < threads; i++) {
		ws[i] = (struct worker){ .rate = rate / threads, .duration = duration,
					 .start = &start, .go = &go, .open_files = open_files };
		if (pthread_create(&ws[i].thread, NULL, worker_main, &ws[i]))
			return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &start);
	pthread_barrier_wait(&go);
	for (int i = 0; i < threads; i++) {
		pthread_join(ws[i].thread, NULL);
		total += ws[i].calls;
	}
	elapsed = since(&start);
	printf("loadgen threads=%d target_rate=%.0f elapsed=%.6f calls=%llu rate=%.0f\n",
	       threads, rate, elapsed, (unsigned long long)total, (double)total / elapsed);
	free(ws);
	return 0;
}
