// SPDX-License-Identifier: GPL-2.0-only
/*
 * Test workload for report --profile: prints its pid, sleeps N times for MS milliseconds
 * (nanosleep: state S), then spins until it has used BUSY_MS of CPU, and prints the CPU time
 * the whole process used (user + system), which the profile's running time must match.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static long long ns_of(const struct timespec *ts)
{
	return ts->tv_sec * 1000000000LL + ts->tv_nsec;
}

static long long thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ns_of(&ts);
}

int main(int argc, char **argv)
{
	struct timespec nap;
	struct rusage ru;
	long long busy, start;
	long i, n, ms;
	volatile unsigned long spin = 0;

	if (argc < 4) {
		fprintf(stderr, "usage: %s N MS BUSY_MS\n", argv[0]);
		return 2;
	}
	n = strtol(argv[1], NULL, 10);
	ms = strtol(argv[2], NULL, 10);
	busy = strtoll(argv[3], NULL, 10) * 1000000LL;
	printf("pid=%d\n", (int)getpid());
	fflush(stdout);
	nap.tv_sec = ms / 1000;
	nap.tv_nsec = (ms % 1000) * 1000000L;
	for (i = 0; i < n; i++)
		nanosleep(&nap, NULL);
	start = thread_cpu_ns();
	while (thread_cpu_ns() - start < busy)
		spin++;
	getrusage(RUSAGE_SELF, &ru);
	printf("cpu_ns=%lld\n", (long long)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000LL +
	       (long long)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000LL);
	return 0;
}
