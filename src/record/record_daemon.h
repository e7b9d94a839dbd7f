/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_RECORD_DAEMON_H
#define KTRACE_RECORD_DAEMON_H

/*
 * record --daemonize (trace-cmd's flag): record goes to the background once recording has
 * started. The shell's command returns then (status 0), or with record's own status if record
 * ends before starting; the recording runs on, in its own session, with stdin from /dev/null,
 * until SIGINT or SIGTERM (its pid in RECORD_DAEMON_PIDFILE while it runs).
 */
#include <stdbool.h>

#define RECORD_DAEMON_PIDFILE "/var/run/ktrace-record.pid"

struct record_daemon {
	int started_fd;		/* the daemon's end: a byte tells the waiting parent; -1 */
	bool pidfile;		/* the pid file is ours, to remove */
};

/*
 * Forks before anything is touched. In the parent it never returns: it exits once the child
 * has started recording (0) or has ended (the child's status). In the child, 0 or -errno.
 */
int record_daemon_fork(struct record_daemon *d);
/* In the daemon, once recording has started: its own session, the pid file, the parent freed. */
void record_daemon_detach(struct record_daemon *d);
/* Removes the pid file (the daemon's end). */
void record_daemon_end(struct record_daemon *d);

#endif
