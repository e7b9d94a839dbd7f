/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_RECORD_CHILD_H
#define KTRACE_RECORD_CHILD_H

/*
 * The command that record runs. It is forked first and held before exec until the pid filters
 * and the recorders are in place, so that its first event is recorded and nothing before it.
 * An exec failure comes back through a close-on-exec pipe as an errno.
 */
#include <signal.h>
#include <stdbool.h>
#include <sys/types.h>

struct record_child {
	pid_t pid;		/* 0: no command */
	int go_fd;		/* parent's end: a byte releases the child */
	int err_fd;		/* parent's end: errno of a failed exec, EOF on success */
	bool released;
	bool exited;
	int status;		/* waitpid status once exited */
};

void record_child_init(struct record_child *c);
/* Forks the held child; `mask` is the signal mask the command should start with. */
int record_child_spawn(struct record_child *c, char *const *argv, const sigset_t *mask);
/* Lets it exec; 0 once exec succeeded, or the exec's negative errno. */
int record_child_release(struct record_child *c);
/* Non-blocking reap; true once the child exited (or there is none). */
bool record_child_reap(struct record_child *c);
void record_child_forward(struct record_child *c, int sig);
/* Closes the pipes; a child never released is killed and reaped. */
void record_child_cleanup(struct record_child *c);

#endif
