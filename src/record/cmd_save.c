// SPDX-License-Identifier: GPL-2.0-only
/*
 * ktrace save: asks the armed flight recorder (record --flight-recorder) for a save, from any
 * shell. It finds the recorder by its lock file (flight_lock.h), sends SIGUSR1 with sigqueue
 * and waits for the recorder's SIGUSR2, whose value is the save's number (or -errno), then
 * prints the file the recorder wrote.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "ktrace/command.h"
#include "ktrace/flight_lock.h"
#include "ktrace/options.h"
#include "ktrace/tfs.h"

struct save_args {
	const char *instance;	/* -B */
	int timeout;		/* -t SECONDS */
	bool quiet;		/* -q */
};

static const struct kt_option save_options[] = {
	KT_STRING('B', NULL, "INSTANCE", struct save_args, instance,
		  "the flight recorder armed on INSTANCE (default: the only one armed)"),
	KT_INT('t', "timeout", "SECONDS", struct save_args, timeout, 0, 86400,
	       "wait at most SECONDS for the save (60; 0: do not wait)"),
	KT_BOOL('q', NULL, struct save_args, quiet, "print nothing on success"),
	{ 0 },
};

static const struct kt_command_help save_help = {
	.name = "save",
	.usage = "[-B INSTANCE] [-t SECONDS] [-q]",
	.summary = "Tell the armed flight recorder (record --flight-recorder) to save what its "
		   "buffers hold now into NAME-TIMESTAMP.dat, and print that file.",
	.options = save_options,
};

static int find(const struct save_args *a, pid_t *pid, struct strbuf *inst)
{
	int ret = flight_lock_find(a->instance, !a->instance, pid, inst, NULL);

	if (ret == -ENOENT)
		fprintf(stderr, "ktrace save: no flight recorder is armed%s%s (start one with "
			"'ktrace record --flight-recorder -e EVENT')\n",
			a->instance ? " on instance " : "", a->instance ? a->instance : "");
	else if (ret == -EEXIST)
		fprintf(stderr, "ktrace save: several flight recorders are armed: name one with "
			"-B INSTANCE (see %s/flight*.lock)\n", KT_UNDO_JOURNAL_DIR);
	else if (ret)
		fprintf(stderr, "ktrace save: cannot read %s: %s\n", KT_UNDO_JOURNAL_DIR,
			strerror(-ret));
	return ret;
}

/* The recorder's answer: the number of its save, or -errno; -ETIMEDOUT without one. */
static int wait_reply(pid_t pid, int seconds)
{
	struct timespec end, now, left;
	sigset_t set;
	siginfo_t si;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR2);
	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += seconds;
	for (;;) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		left.tv_sec = end.tv_sec - now.tv_sec;
		left.tv_nsec = end.tv_nsec - now.tv_nsec;
		if (left.tv_nsec < 0) {
			left.tv_sec--;
			left.tv_nsec += 1000000000L;
		}
		if (left.tv_sec < 0)
			return -ETIMEDOUT;
		if (sigtimedwait(&set, &si, &left) < 0) {
			if (errno == EINTR)
				continue;
			return errno == EAGAIN ? -ETIMEDOUT : -errno;
		}
		if (si.si_pid == pid && si.si_code == SI_QUEUE)
			return si.si_value.sival_int;
	}
}

static int report_reply(const struct save_args *a, pid_t pid, const char *inst, int reply)
{
	struct strbuf last = STRBUF_INIT, name = STRBUF_INIT;
	pid_t again;

	if (reply == -ETIMEDOUT) {
		fprintf(stderr, "ktrace save: the flight recorder (pid %d) did not answer in "
			"%d s\n", (int)pid, a->timeout);
		return 1;
	}
	if (reply == -EAGAIN) {
		fprintf(stderr, "ktrace save: the flight recorder (pid %d) skipped it: too soon "
			"after its last save (its --save-interval)\n", (int)pid);
		return 1;
	}
	if (reply < 0) {
		fprintf(stderr, "ktrace save: the flight recorder (pid %d) could not save: %s\n",
			(int)pid, strerror(-reply));
		return 1;
	}
	flight_lock_find(*inst ? inst : NULL, false, &again, &name, &last);
	if (!a->quiet)
		printf("%s\n", last.len ? strbuf_str(&last) : "(saved)");
	strbuf_release(&last);
	strbuf_release(&name);
	return 0;
}

int cmd_save(int argc, char **argv)
{
	struct save_args a = { .timeout = 60 };
	struct strbuf inst = STRBUF_INIT;
	union sigval v = { .sival_int = 0 };
	sigset_t set, old;
	pid_t pid = 0;
	int ret = kt_parse_options(&save_help, argc, argv, &a, NULL);

	if (ret)
		return ret;
	if (find(&a, &pid, &inst)) {
		strbuf_release(&inst);
		return 1;
	}
	/* blocked before asking: the answer may come before sigtimedwait */
	sigemptyset(&set);
	sigaddset(&set, SIGUSR2);
	sigprocmask(SIG_BLOCK, &set, &old);
	if (sigqueue(pid, SIGUSR1, v)) {
		fprintf(stderr, "ktrace save: cannot signal the flight recorder (pid %d): %s\n",
			(int)pid, strerror(errno));
		ret = 1;
	} else if (a.timeout) {
		ret = report_reply(&a, pid, strbuf_str(&inst), wait_reply(pid, a.timeout));
	} else if (!a.quiet) {
		printf("asked the flight recorder (pid %d) to save\n", (int)pid);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	strbuf_release(&inst);
	return ret;
}
