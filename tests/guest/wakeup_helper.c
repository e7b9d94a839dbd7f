// SPDX-License-Identifier: GPL-2.0-only
/*
 * Workload of the guest's wakeup tracer cases (busybox has no chrt): `wakeup_helper POLICY N`
 * forks a child that runs under POLICY (fifo: SCHED_FIFO priority 50; dl: SCHED_DEADLINE with a
 * 2 ms runtime every 20 ms; other: SCHED_OTHER at nice -10, as the wakeup tracer follows only a
 * task of a higher priority than the one it wakes up on) and blocks N times on a pipe; the parent, an
 * ordinary task, wakes it N times, 5 ms apart. wakeup_rt and wakeup_dl measure the latency of
 * exactly such a wake-up. Prints the child's pid.
 */
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* glibc 2.36 has no sched_setattr(); this is the kernel's struct sched_attr (version 1). */
struct sched_attr_v1 {
	uint32_t size;
	uint32_t sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime;
	uint64_t sched_deadline;
	uint64_t sched_period;
};

static int set_policy(const char *policy)
{
	struct sched_attr_v1 attr = { .size = sizeof(attr) };

	if (!strcmp(policy, "other")) {
		if (setpriority(PRIO_PROCESS, 0, -10)) {
			perror("wakeup_helper: setpriority");
			return -1;
		}
		return 0;
	}
	if (!strcmp(policy, "fifo")) {
		attr.sched_policy = SCHED_FIFO;
		attr.sched_priority = 50;
	} else if (!strcmp(policy, "dl")) {
		attr.sched_policy = 6; /* SCHED_DEADLINE */
		attr.sched_runtime = 2 * 1000 * 1000;
		attr.sched_deadline = 20 * 1000 * 1000;
		attr.sched_period = 20 * 1000 * 1000;
	} else {
		fprintf(stderr, "wakeup_helper: unknown policy %s\n", policy);
		return -1;
	}
	if (syscall(SYS_sched_setattr, 0, &attr, 0)) {
		perror("wakeup_helper: sched_setattr");
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct timespec gap = { 0, 5 * 1000 * 1000 };
	int fds[2], status;
	long i, n;
	pid_t child;
	char c = 'w';

	if (argc != 3 || (n = strtol(argv[2], NULL, 10)) <= 0) {
		fprintf(stderr, "usage: %s fifo|dl|other N\n", argv[0]);
		return 2;
	}
	if (pipe(fds)) {
		perror("wakeup_helper: pipe");
		return 1;
	}
	child = fork();
	if (child < 0) {
		perror("wakeup_helper: fork");
		return 1;
	}
	if (child == 0) {
		close(fds[1]);
		if (set_policy(argv[1]))
			_exit(1);
		for (i = 0; i < n; i++)
			if (read(fds[0], &c, 1) != 1)
				_exit(1);
		_exit(0);
	}
	close(fds[0]);
	printf("%d\n", (int)child);
	fflush(stdout);
	for (i = 0; i < n; i++) {
		nanosleep(&gap, NULL);
		if (write(fds[1], &c, 1) != 1) {
			perror("wakeup_helper: write");
			break;
		}
	}
	close(fds[1]);
	if (waitpid(child, &status, 0) != child || !WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "wakeup_helper: the %s child failed\n", argv[1]);
		return 1;
	}
	return 0;
}
