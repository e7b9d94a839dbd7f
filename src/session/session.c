// SPDX-License-Identifier: GPL-2.0-only
/* One trace session: signals, the held command, pid filters, tracing on/off, undo (session.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ktrace/plan.h"
#include "ktrace/session.h"
#include "ktrace/tfs.h"
#include "session_child.h"
#include "session_signals.h"

void trace_session_init(struct trace_session *s, const struct plan *plan, const char *cmd)
{
	memset(s, 0, sizeof(*s));
	s->plan = plan;
	s->cmd = cmd;
	s->sig_fd = -1;
	s->saved_stdout = -1;
	session_child_init(&s->child);
}

/* --stderr: what we print goes to stderr; the command keeps the stdout we were given */
static int stdout_to_stderr(struct trace_session *s)
{
	s->saved_stdout = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
	if (s->saved_stdout < 0)
		return -errno;
	fflush(stdout);
	if (dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
		close(s->saved_stdout);
		s->saved_stdout = -1;
		return -errno;
	}
	s->child.stdout_fd = s->saved_stdout;
	return 0;
}

static void stdout_back(struct trace_session *s)
{
	if (s->saved_stdout < 0)
		return;
	fflush(stdout);
	dup2(s->saved_stdout, STDOUT_FILENO);
	close(s->saved_stdout);
	s->saved_stdout = s->child.stdout_fd = -1;
}

int trace_session_begin(struct trace_session *s)
{
	int ret = s->plan->stdout_to_stderr ? stdout_to_stderr(s) : 0;

	return ret ? ret : session_signals_block(&s->sig_fd, &s->old_mask, s->save_signal);
}

int trace_session_apply(struct trace_session *s, struct strbuf *err)
{
	const struct plan *plan = s->plan;
	int ret;

	if (plan->user) {
		ret = session_child_set_user(&s->child, plan->user);
		if (ret) {
			strbuf_addf(err, "--user '%s': %s", plan->user,
				    ret == -ENOENT ? "no such user" : strerror(-ret));
			return ret;
		}
	}
	if (plan->command && plan->proc_map) {
		s->child.exit_maps = &s->procmaps;
		s->child.exit_maps_children = plan->follow_children;
	}
	/* as trace-cmd: a warning, and the recording goes on */
	if (plan->proc_map && !plan->command && !plan->nr_pids)
		fprintf(stderr, "ktrace %s: --proc-map is ignored: no COMMAND and no -P to read "
			"the maps of\n", s->cmd);
	if (plan->command) {
		ret = session_child_spawn(&s->child, plan->command, &s->old_mask);
		if (ret) {
			strbuf_addf(err, "cannot start '%s': %s", plan->command[0], strerror(-ret));
			return ret;
		}
	}
	/* plan_apply prints its own message (the tracefs file and the cause) */
	return plan_apply(plan, plan->filter_command ? s->child.pid : 0, &s->undo);
}

void trace_session_exclude(struct trace_session *s, const pid_t *tids, int nr)
{
	/*
	 * a pid filter keeps them out already; --no-filter keeps them in; kernels without the
	 * files just keep them
	 */
	if (s->plan->filter_command || s->plan->nr_pids || s->plan->no_filter || !s->undo)
		return;
	plan_set_event_notrace_pids(s->plan, s->undo, tids, nr);
	plan_set_ftrace_notrace_pids(s->plan, s->undo, tids, nr);
}

int trace_session_go(struct trace_session *s, struct strbuf *err)
{
	/* set and -K leave tracing_on as they found it */
	bool leave = (s->plan->caps & PLAN_ADDS) || s->plan->keep_tracing_on;
	int ret = leave ? 0 : plan_tracing_on(s->plan, s->undo, true);
	int i;

	/* --proc-map: a -P process is read as tracing starts (trace-cmd's moment) */
	for (i = 0; !ret && s->plan->proc_map && i < s->plan->nr_pids; i++)
		session_procmap_read(&s->procmaps, s->plan->pids[i]);
	if (ret || !s->plan->command)
		return ret;
	ret = session_child_release(&s->child);
	if (ret)
		strbuf_addf(err, "cannot run '%s': %s", s->plan->command[0], strerror(-ret));
	return ret;
}

/* Reads the pending signals; true when one of them ends the session. */
static bool read_signals(struct trace_session *s, enum session_end *why)
{
	struct signalfd_siginfo si;

	while (read(s->sig_fd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
		if (si.ssi_signo == SIGCHLD) {
			if (s->child.pid > 0 && session_child_reap(&s->child)) {
				*why = SESSION_END_COMMAND;
				return true;
			}
			continue;
		}
		if (si.ssi_signo == SIGUSR1 && s->save_signal) {
			s->save_from = (pid_t)si.ssi_pid;
			s->save_queued = si.ssi_code == SI_QUEUE;
			*why = SESSION_END_SAVE;
			return true;
		}
		s->stop_signal = (int)si.ssi_signo;
		session_child_forward(&s->child, s->stop_signal);
		*why = SESSION_END_SIGNAL;
		return true;
	}
	return false;
}

bool trace_session_signalled(struct trace_session *s)
{
	enum session_end why;

	return s->sig_fd >= 0 && read_signals(s, &why) && why == SESSION_END_SIGNAL;
}

#define SESSION_MAX_PIDS 64

/*
 * Without a command, -P PID runs until every such process has exited (as trace-cmd does). A
 * pidfd polls readable once its process exits, zombie or not.
 */
static int open_pidfds(const struct plan *plan, struct pollfd *pfds)
{
	int i, n = 0;

	if (plan->command)
		return 0;
	for (i = 0; i < plan->nr_pids && n < SESSION_MAX_PIDS; i++) {
		int fd = (int)syscall(SYS_pidfd_open, plan->pids[i], 0);

		if (fd >= 0) {
			pfds[n].fd = fd;
			pfds[n].events = POLLIN;
			n++;
		}
	}
	return n;
}

/* Closes the pidfds of exited processes; returns how many are still running. */
static int pids_alive(struct pollfd *pfds, int n)
{
	int i, alive = 0;

	for (i = 0; i < n; i++) {
		if (pfds[i].fd >= 0 && (pfds[i].revents & (POLLIN | POLLHUP))) {
			close(pfds[i].fd);
			pfds[i].fd = -1;
		}
		if (pfds[i].fd >= 0)
			alive++;
	}
	return alive;
}

static bool watched_woke(const struct session_wait *w)
{
	int i;

	for (i = 0; i < w->nr_watch; i++)
		if (w->watch[i].revents)
			return true;
	return false;
}

/* One poll round; true (with *why) when the session ends. */
static bool wait_round(struct trace_session *s, const struct session_wait *w, struct pollfd *pfds,
		       int nr_pids, enum session_end *why)
{
	struct pollfd *pids = pfds + 1 + w->nr_watch;
	int n, i;

	for (i = 0; i < w->nr_watch; i++)
		pfds[1 + i] = w->watch[i];
	n = poll(pfds, (nfds_t)(1 + w->nr_watch + nr_pids), w->tick_ms);
	for (i = 0; n > 0 && i < w->nr_watch; i++)
		w->watch[i].revents = pfds[1 + i].revents;
	if (n > 0 && (pfds[0].revents & POLLIN) && read_signals(s, why))
		return true;
	/* what the command was traced for is gone (the listener hung up): it stops too */
	if (n > 0 && watched_woke(w)) {
		if (!w->watch_keeps_command)
			session_child_forward(&s->child, SIGTERM);
		*why = SESSION_END_WATCHED;
		return true;
	}
	if (n > 0 && nr_pids && !pids_alive(pids, nr_pids)) {
		*why = SESSION_END_PIDS;
		return true;
	}
	/* a SIGCHLD read with other signals, or one that came before the wait */
	if (s->child.pid > 0 && session_child_reap(&s->child)) {
		*why = SESSION_END_COMMAND;
		return true;
	}
	if (w->tick)
		w->tick(w->ctx, n == 0);
	return false;
}

enum session_end trace_session_wait(struct trace_session *s, const struct session_wait *w)
{
	struct pollfd pfds[1 + 64 + SESSION_MAX_PIDS];
	enum session_end why = SESSION_END_COMMAND;
	int nr_pids, i;

	if (w->nr_watch > 64)
		return SESSION_END_WATCHED;
	if (s->child.pid > 0 && session_child_reap(&s->child))
		return SESSION_END_COMMAND;
	pfds[0].fd = s->sig_fd;
	pfds[0].events = POLLIN;
	nr_pids = open_pidfds(s->plan, pfds + 1 + w->nr_watch);
	while (!wait_round(s, w, pfds, nr_pids, &why))
		;
	for (i = 0; i < nr_pids; i++)
		if (pfds[1 + w->nr_watch + i].fd >= 0)
			close(pfds[1 + w->nr_watch + i].fd);
	return why;
}

void trace_session_stop(struct trace_session *s)
{
	if (s->undo && !s->plan->keep_tracing_on)
		plan_tracing_on(s->plan, s->undo, false);
}

/* No tracing off here: start keeps tracing on; undo restores tracing_on with the rest. */
int trace_session_end(struct trace_session *s, bool keep, struct strbuf *err)
{
	int ret = 0;

	if (s->undo) {
		if (keep)
			tfs_undo_keep(s->undo);
		else
			ret = tfs_undo_restore(s->undo);
		if (ret)
			strbuf_addf(err, "%scould not put %s back: %s", err->len ? "; " : "",
				    tfs_undo_failed_path(s->undo) ?: "tracefs", strerror(-ret));
		tfs_undo_free(s->undo);
		s->undo = NULL;
	}
	session_child_cleanup(&s->child);
	session_procmaps_release(&s->procmaps);
	stdout_back(s);
	if (s->sig_fd >= 0)
		session_signals_unblock(&s->sig_fd, &s->old_mask);
	return ret;
}
