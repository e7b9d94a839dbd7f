// SPDX-License-Identifier: GPL-2.0-only
/* The held-then-released command of a trace session (session_child.h). */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

#include "session_child.h"

void session_child_init(struct trace_session_child *c)
{
	memset(c, 0, sizeof(*c));
	c->go_fd = c->err_fd = c->stdout_fd = -1;
}

static int user_groups(struct trace_session_child *c);

int session_child_set_user(struct trace_session_child *c, const char *user)
{
	struct passwd *pw;

	errno = 0;
	pw = getpwnam(user);
	if (!pw)
		return errno ? -errno : -ENOENT;
	c->user_name = strdup(pw->pw_name);
	c->user_home = strdup(pw->pw_dir);
	if (!c->user_name || !c->user_home)
		return -ENOMEM;
	c->uid = pw->pw_uid;
	c->gid = pw->pw_gid;
	return user_groups(c);
}

/* The user's groups, as initgroups() would set them, looked up now (not in the child). */
static int user_groups(struct trace_session_child *c)
{
	int n = 0;

	getgrouplist(c->user_name, c->gid, NULL, &n);
	c->groups = calloc((size_t)n + 1, sizeof(*c->groups));
	if (!c->groups)
		return -ENOMEM;
	c->nr_groups = n + 1;
	if (getgrouplist(c->user_name, c->gid, c->groups, &c->nr_groups) < 0)
		return -EINVAL;
	return 0;
}

static int env_push(char **envp, int *n, const char *name, const char *value)
{
	if (asprintf(&envp[*n], "%s=%s", name, value) < 0) {
		envp[*n] = NULL;
		return -ENOMEM;
	}
	(*n)++;
	return 0;
}

/* Our environment with the login's HOME, USER and LOGNAME, as trace-cmd's change_user sets. */
static int user_environment(struct trace_session_child *c)
{
	static const char *const names[] = { "HOME=", "USER=", "LOGNAME=" };
	int n = 0, i, j, ret;

	for (i = 0; environ[i]; i++)
		;
	c->envp = calloc((size_t)i + 4, sizeof(*c->envp));
	if (!c->envp)
		return -ENOMEM;
	for (i = 0; environ[i]; i++) {
		for (j = 0; j < 3 && strncmp(environ[i], names[j], strlen(names[j])); j++)
			;
		if (j == 3)
			c->envp[n++] = strdup(environ[i]);
		if (j == 3 && !c->envp[n - 1])
			return -ENOMEM;
	}
	ret = env_push(c->envp, &n, "HOME", c->user_home);
	if (!ret)
		ret = env_push(c->envp, &n, "USER", c->user_name);
	if (!ret)
		ret = env_push(c->envp, &n, "LOGNAME", c->user_name);
	return ret;
}

/* As trace-cmd's change_user: groups, gid, uid (the environment goes with the exec). */
static int become_user(const struct trace_session_child *c)
{
	if (setgroups((size_t)c->nr_groups, c->groups) || setgid(c->gid) || setuid(c->uid))
		return -errno;
	return 0;
}

static void child_main(const struct trace_session_child *c, int go_rd, int err_wr,
		       char *const *argv, const sigset_t *mask)
{
	char go;
	int err = 0;

	sigprocmask(SIG_SETMASK, mask, NULL);
	/* EOF instead of the byte: the session gave up before starting; do not run the command. */
	if (read(go_rd, &go, 1) != 1)
		_exit(127);
	close(go_rd);
	if (c->stdout_fd >= 0 && dup2(c->stdout_fd, STDOUT_FILENO) < 0)
		err = -errno;
	if (!err && c->user_name)
		err = become_user(c);
	/* --proc-map: stopped at exec, then at every exit of it and its children (reap_traced) */
	if (!err && c->exit_maps && ptrace(PTRACE_TRACEME, 0, NULL, NULL))
		err = -errno;
	if (!err)
		execvpe(argv[0], argv, c->envp ? c->envp : environ);
	err = err ? -err : errno;
	if (write(err_wr, &err, sizeof(err)) < 0)
		_exit(127);
	_exit(127);
}

int session_child_spawn(struct trace_session_child *c, char *const *argv, const sigset_t *mask)
{
	int go[2], err[2], ret;

	if (c->user_name && !c->envp) {
		ret = user_environment(c);
		if (ret)
			return ret;
	}
	if (pipe2(go, O_CLOEXEC))
		return -errno;
	if (pipe2(err, O_CLOEXEC)) {
		close(go[0]);
		close(go[1]);
		return -errno;
	}
	c->pid = fork();
	if (c->pid < 0) {
		c->pid = 0;
		close(go[0]);
		close(go[1]);
		close(err[0]);
		close(err[1]);
		return -errno;
	}
	if (c->pid == 0) {
		close(go[1]);
		close(err[0]);
		child_main(c, go[0], err[1], argv, mask);
	}
	close(go[0]);
	close(err[1]);
	c->go_fd = go[1];
	c->err_fd = err[0];
	return 0;
}

int session_child_release(struct trace_session_child *c)
{
	int err = 0;
	ssize_t n;

	if (write(c->go_fd, "g", 1) != 1)
		return -errno;
	c->released = true;
	close(c->go_fd);
	c->go_fd = -1;
	do {
		n = read(c->err_fd, &err, sizeof(err));
	} while (n < 0 && errno == EINTR);
	close(c->err_fd);
	c->err_fd = -1;
	return n == (ssize_t)sizeof(err) ? -err : 0;
}

#define TRACED_EVENTS (PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK | PTRACE_O_TRACECLONE | \
		       PTRACE_O_TRACEEXIT)

/*
 * The command under ptrace (--proc-map): every stop of it or of a process it started is
 * answered here, as SIGCHLD brings each one. At an exit stop the process still has its
 * memory: its maps are read then, the command's, and its children's with -c (as trace-cmd
 * reads those it follows). Other stops go on, with the signal that caused them
 * except the tracing's own (the exec's SIGTRAP, a new child's SIGSTOP).
 */
static void reap_traced(struct trace_session_child *c)
{
	int status, sig;
	pid_t pid;

	while ((pid = waitpid(-1, &status, __WALL | WNOHANG)) > 0) {
		if (!WIFSTOPPED(status)) {
			if (pid == c->pid) {
				c->status = status;
				c->exited = true;
			}
			continue;
		}
		sig = WSTOPSIG(status);
		if (status >> 16 == PTRACE_EVENT_EXIT && (pid == c->pid || c->exit_maps_children))
			session_procmap_read(c->exit_maps, pid);
		if (status >> 16 || sig == SIGTRAP || sig == SIGSTOP)
			sig = 0;
		ptrace(PTRACE_SETOPTIONS, pid, NULL, (void *)(long)TRACED_EVENTS);
		ptrace(PTRACE_CONT, pid, NULL, (void *)(long)sig);
	}
}

bool session_child_reap(struct trace_session_child *c)
{
	if (!c->pid || c->exited)
		return true;
	if (c->exit_maps && c->released)
		reap_traced(c);
	else if (waitpid(c->pid, &c->status, WNOHANG) == c->pid)
		c->exited = true;
	return c->exited;
}

void session_child_forward(struct trace_session_child *c, int sig)
{
	if (c->pid > 0 && !c->exited)
		kill(c->pid, sig);
}

void session_child_cleanup(struct trace_session_child *c)
{
	if (c->go_fd >= 0)
		close(c->go_fd);	/* an unreleased child reads EOF and exits */
	if (c->err_fd >= 0)
		close(c->err_fd);
	c->go_fd = c->err_fd = -1;
	free(c->user_name);
	free(c->user_home);
	c->user_name = c->user_home = NULL;
	free(c->groups);
	c->groups = NULL;
	for (int i = 0; c->envp && c->envp[i]; i++)
		free(c->envp[i]);
	free(c->envp);
	c->envp = NULL;
	if (c->pid > 0 && !c->exited && !c->released) {
		while (waitpid(c->pid, &c->status, 0) < 0 && errno == EINTR)
			;
		c->exited = true;
	}
}
