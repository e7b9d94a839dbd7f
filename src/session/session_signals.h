/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_SESSION_SIGNALS_H
#define KTRACE_SESSION_SIGNALS_H

/*
 * The signals that end a recording (SIGINT, SIGTERM, SIGHUP) and SIGCHLD, blocked and read from
 * a signalfd, so that every way a trace session ends goes through the same stop and undo code.
 */
#include <signal.h>
#include <stdbool.h>

/*
 * Blocks them (and SIGUSR1 with save_signal: the flight recorder's save request) and opens
 * *sig_fd (non-blocking); 0 or negative errno.
 */
int session_signals_block(int *sig_fd, sigset_t *old_mask, bool save_signal);
/*
 * Consumes what is still pending (it did its job: the recording stopped) and restores the old
 * mask; unblocking a pending SIGINT would otherwise kill the process before it finishes.
 */
void session_signals_unblock(int *sig_fd, const sigset_t *old_mask);

#endif
