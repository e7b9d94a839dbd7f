// SPDX-License-Identifier: GPL-2.0-only
/*
 * Test workload for ktrace record: prints its pid, then makes exactly N getppid() system calls
 * and writes N numbered lines "ktrace-mark I" to trace_marker, alternating, so that a recording
 * must hold N sys_enter_getppid events of this pid and the N marks in order.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	const char *marker = "/sys/kernel/tracing/trace_marker";
	char line[64];
	long i, n;
	int fd;

	if (argc < 2 || (n = strtol(argv[1], NULL, 10)) < 0) {
		fprintf(stderr, "usage: %s N [trace_marker path]\n", argv[0]);
		return 2;
	}
	if (argc > 2)
		marker = argv[2];
	fd = open(marker, O_WRONLY);
	if (fd < 0) {
		perror(marker);
		return 1;
	}
	printf("pid=%d\n", (int)getpid());
	fflush(stdout);
	for (i = 1; i <= n; i++) {
		int len = snprintf(line, sizeof(line), "ktrace-mark %ld\n", i);

		/* The raw syscall: no libc caching may hide a call. */
		syscall(SYS_getppid);
		if (write(fd, line, (size_t)len) != len) {
			perror("trace_marker");
			return 1;
		}
	}
	close(fd);
	return 0;
}
