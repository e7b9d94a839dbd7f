// SPDX-License-Identifier: GPL-2.0-only
/*
 * A known workload for the stream test: N times, on CPU i % nr_cpus, write "ktrace-live i" to
 * trace_marker and call getppid. Switching CPUs makes the stream merge two CPUs' pages.
 *   live_helper TRACEFS N
 */
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

static void run_on(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

int main(int argc, char **argv)
{
	char path[4096], line[64];
	long nr_cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int fd, i, n, len;

	if (argc != 3)
		return 2;
	snprintf(path, sizeof(path), "%s/trace_marker", argv[1]);
	n = atoi(argv[2]);
	fd = open(path, O_WRONLY);
	if (fd < 0) {
		perror(path);
		return 1;
	}
	for (i = 1; i <= n; i++) {
		run_on((int)(i % (nr_cpus > 0 ? nr_cpus : 1)));
		len = snprintf(line, sizeof(line), "ktrace-live %d", i);
		if (write(fd, line, (size_t)len) != len) {
			perror(path);
			return 1;
		}
		syscall(SYS_getppid);
	}
	close(fd);
	printf("%d\n", getpid());
	return 0;
}
