// SPDX-License-Identifier: GPL-2.0-only
/*
 * runstat: run a command and report what it cost, for the benchmarks.
 *
 *   runstat [-o STATFILE] [-p PIDFILE] -- COMMAND [ARGS]
 *
 * Writes key=value lines (STATFILE, default stderr):
 *   wall_s user_s sys_s    CPU of the command and of every descendant it waited for (wait4),
 *                          so trace-cmd's forked per-CPU recorders and ktrace's threads alike
 *   maxrss_kb              largest single process (wait4)
 *   tree_rss_kb            peak of the summed RSS of the process tree, sampled every 10 ms
 *   write_bytes            bytes the tree dirtied for storage (/proc/self/io after reaping:
 *                          the kernel folds a reaped child's I/O counters into its parent)
 *   cancelled_bytes        of those, bytes truncated before writeback (deleted temp files)
 *   exit
 * The command gets SIGINT at its default disposition; runstat ignores SIGINT so that a
 * harness can signal the pid written to PIDFILE.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static long rss_kb(int pid)
{
	char path[64], line[256];
	long kb = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmRSS: %ld", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

/* RSS of pid and, through /proc/PID/task/TID/children, of all its descendants. */
static long tree_rss_kb(int pid, int depth)
{
	char path[64], *line = NULL;
	size_t cap = 0;
	long sum = rss_kb(pid);
	DIR *d;
	struct dirent *de;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	d = opendir(path);
	if (!d || depth > 8) {
		if (d)
			closedir(d);
		return sum;
	}
	while ((de = readdir(d))) {
		char cpath[320];
		FILE *f;

		if (de->d_name[0] == '.')
			continue;
		snprintf(cpath, sizeof(cpath), "/proc/%d/task/%s/children", pid, de->d_name);
		f = fopen(cpath, "r");
		if (!f)
			continue;
		if (getline(&line, &cap, f) > 0) {
			char *p = line, *end;

			for (long c = strtol(p, &end, 10); end != p; c = strtol(p, &end, 10)) {
				sum += tree_rss_kb((int)c, depth + 1);
				p = end;
			}
		}
		fclose(f);
	}
	closedir(d);
	free(line);
	return sum;
}

static void self_io(long long *written, long long *cancelled)
{
	char line[128];
	FILE *f = fopen("/proc/self/io", "r");

	*written = *cancelled = -1;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		sscanf(line, "write_bytes: %lld", written);
		sscanf(line, "cancelled_write_bytes: %lld", cancelled);
	}
	fclose(f);
}

static double tv(struct timeval t)
{
	return (double)t.tv_sec + (double)t.tv_usec * 1e-6;
}

static int start(char **argv, const char *pidfile)
{
	int pid = fork();

	if (pid == 0) {
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		execvp(argv[0], argv);
		perror(argv[0]);
		_exit(127);
	}
	if (pid > 0 && pidfile) {
		FILE *f = fopen(pidfile, "w");

		if (f) {
			fprintf(f, "%d\n", pid);
			fclose(f);
		}
	}
	return pid;
}

int main(int argc, char **argv)
{
	const char *statfile = NULL, *pidfile = NULL;
	long peak = 0;
	long long written, cancelled;
	struct rusage ru;
	int opt, status, pid;
	double t0;
	FILE *out;

	while ((opt = getopt(argc, argv, "+o:p:")) != -1) {
		if (opt == 'o')
			statfile = optarg;
		else if (opt == 'p')
			pidfile = optarg;
		else
			return 127;
	}
	if (optind < argc && !strcmp(argv[optind], "--"))
		optind++;
	if (optind >= argc)
		return 127;
	signal(SIGINT, SIG_IGN);
	t0 = now();
	pid = start(argv + optind, pidfile);
	if (pid < 0)
		return 127;
	for (;;) {
		int r = wait4(pid, &status, WNOHANG, &ru);
		long rss;

		if (r == pid)
			break;
		if (r < 0 && errno != EINTR)
			return 127;
		rss = tree_rss_kb(pid, 0);
		peak = rss > peak ? rss : peak;
		usleep(10000);
	}
	self_io(&written, &cancelled);
	out = statfile ? fopen(statfile, "w") : stderr;
	if (!out)
		out = stderr;
	fprintf(out, "wall_s=%.6f\nuser_s=%.6f\nsys_s=%.6f\nmaxrss_kb=%ld\ntree_rss_kb=%ld\n"
		"write_bytes=%lld\ncancelled_bytes=%lld\nexit=%d\n",
		now() - t0, tv(ru.ru_utime), tv(ru.ru_stime), ru.ru_maxrss,
		peak > ru.ru_maxrss ? peak : ru.ru_maxrss, written, cancelled,
		WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
	if (out != stderr)
		fclose(out);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
