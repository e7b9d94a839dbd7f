/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_SESSION_CHILD_H
#define KTRACE_SESSION_CHILD_H

/*
 * The command a trace session runs (record, stream). It is forked before the plan is applied and
 * held before exec until the pid filters, the tracer and the recorders are in place, so that its
 * pid can be written to the pid filters before the tracer starts, its first event is recorded,
 * and nothing before it.
 * An exec failure comes back through a close-on-exec pipe as an errno.
 */
#include <signal.h>
#include <stdbool.h>

#include "ktrace/session.h"

void session_child_init(struct trace_session_child *c);
/* --user USER: the command will run as USER; 0, -ENOENT (no such user) or -errno. */
int session_child_set_user(struct trace_session_child *c, const char *user);
/* Forks the held child; `mask` is the signal mask the command should start with. */
int session_child_spawn(struct trace_session_child *c, char *const *argv, const sigset_t *mask);
/* Lets it exec; 0 once exec succeeded, or the exec's negative errno. */
int session_child_release(struct trace_session_child *c);
/* Non-blocking reap; true once the child exited (or there is none). */
bool session_child_reap(struct trace_session_child *c);
void session_child_forward(struct trace_session_child *c, int sig);
/* Closes the pipes; a child never released is killed and reaped. */
void session_child_cleanup(struct trace_session_child *c);

#endif
