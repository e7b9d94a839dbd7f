/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_SESSION_H
#define KTRACE_SESSION_H

/*
 * One trace session: the flow that record, stream and start share between parsing their options
 * and their own loop body. In order:
 *
 *   trace_session_begin   blocks the stop signals (SIGINT, SIGTERM, SIGHUP, SIGCHLD), so that a
 *                         signal from here on goes through stop and undo;
 *   trace_session_apply   forks the command held before exec, then applies the plan with the
 *                         command's pid in the pid filters (-F) before any tracer starts;
 *   (the command's own setup: recorders, readers, a network session)
 *   trace_session_exclude keeps ktrace's own threads out when there is no pid filter;
 *   trace_session_go      tracing on, then releases the command;
 *   trace_session_wait    until a stop signal (forwarded to the command), the command's exit, the
 *                         exit of every -P process, or a wake-up on a watched fd (the command
 *                         is then sent SIGTERM); the caller's tick runs in between;
 *   trace_session_stop    tracing off;
 *   trace_session_end     puts tracefs back (or keeps it), reaps the command, unblocks signals.
 *
 * Writing set_ftrace_pid before current_tracer matters: a function_graph tracer started first
 * traces ktrace itself until the filter lands, and on 6.1 kernels marks the threads it caught
 * (TRACE_GRAPH_BIT), which the command then inherits at fork.
 */
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <sys/types.h>

#include "ktrace/strbuf.h"

struct plan;
struct tfs_undo;

/* Why trace_session_wait returned. */
enum session_end {
	SESSION_END_SIGNAL = 1,	/* a stop signal (trace_session.stop_signal says which) */
	SESSION_END_COMMAND,	/* the command exited */
	SESSION_END_PIDS,	/* every -P process exited (no command) */
	SESSION_END_WATCHED,	/* one of the caller's fds woke (e.g. the listener hung up) */
	SESSION_END_SAVE,	/* SIGUSR1 with save_signal: the flight recorder saves, then waits */
};

/* record --proc-map: one PROCMAPS option text per process (session_procmap.c) */
struct session_procmaps {
	char **entries;		/* "<pid> <count> <exe>\n<start> <end> <path>\n...", NUL-ended */
	pid_t *pids;
	int nr;
};

/* Reads PID's exe and named mappings into m (replacing an earlier read of PID); -errno. */
int session_procmap_read(struct session_procmaps *m, pid_t pid);
void session_procmaps_release(struct session_procmaps *m);

struct trace_session_child {
	pid_t pid;		/* 0: no command */
	int go_fd;		/* parent's end: a byte releases the child */
	int err_fd;		/* parent's end: errno of a failed exec, EOF on success */
	bool released;
	bool exited;
	int status;		/* waitpid status once exited */
	int stdout_fd;		/* --stderr: the command's stdout (ours went to stderr), or -1 */
	/* --user: who the command runs as (user_name NULL: as we are), HOME, USER, LOGNAME */
	char *user_name;
	char *user_home;
	uid_t uid;
	gid_t gid;
	/* made before the fork (the child of a threaded recorder may not allocate): */
	gid_t *groups;		/* the user's groups (getgrouplist) */
	int nr_groups;
	char **envp;		/* our environment with the user's HOME, USER, LOGNAME */
	/* --proc-map: the command runs under ptrace, each of its processes read as it exits */
	struct session_procmaps *exit_maps;
	bool exit_maps_children;	/* -c: its children's maps too */
};

struct trace_session {
	const struct plan *plan;
	const char *cmd;		/* "record", "stream", ...: names the command in messages */
	struct tfs_undo *undo;	/* what the plan changed, NULL before apply */
	struct trace_session_child child;
	int sig_fd;			/* the blocked signals, -1 before begin */
	int saved_stdout;		/* --stderr: our stdout before begin, -1 without */
	sigset_t old_mask;
	int stop_signal;		/* the signal that ended the session, 0 if none */
	bool save_signal;		/* set before begin: SIGUSR1 asks for a save */
	pid_t save_from;		/* SESSION_END_SAVE: the sender of SIGUSR1 */
	bool save_queued;		/* it was sent with sigqueue (ktrace save: it waits for a reply) */
	struct session_procmaps procmaps;	/* --proc-map: what was read, for the file */
};

/* What trace_session_wait watches besides signals, the command and -P processes. */
struct session_wait {
	int tick_ms;			/* the longest wait before tick runs */
	struct pollfd *watch;		/* any event on one of these ends the wait */
	int nr_watch;
	bool watch_keeps_command;	/* a watched wake-up is a trigger, not a reason to stop */
	/* runs after every wake-up that does not end the wait; timeout: no fd woke */
	void (*tick)(void *ctx, bool timeout);
	void *ctx;
};

void trace_session_init(struct trace_session *s, const struct plan *plan, const char *cmd);
int trace_session_begin(struct trace_session *s);
/* Forks the held command (if the plan has one) and applies the plan; a message in err. */
int trace_session_apply(struct trace_session *s, struct strbuf *err);
/* Adds tids (ktrace's recorders, itself) to the notrace pid lists unless a pid filter is set. */
void trace_session_exclude(struct trace_session *s, const pid_t *tids, int nr);
/* Tracing on in every instance of the plan, then the command runs; a message in err. */
int trace_session_go(struct trace_session *s, struct strbuf *err);
/* True when a stop signal is pending (consumed; stop_signal is set). */
bool trace_session_signalled(struct trace_session *s);
enum session_end trace_session_wait(struct trace_session *s, const struct session_wait *w);
void trace_session_stop(struct trace_session *s);
/*
 * keep: leave the settings as applied (start, record -k); else restore them. A setting that
 * cannot be put back (a reader still holds the buffer: EBUSY) is named in err; -errno.
 */
int trace_session_end(struct trace_session *s, bool keep, struct strbuf *err);

#endif
