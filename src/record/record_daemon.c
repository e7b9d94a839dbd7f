// SPDX-License-Identifier: GPL-2.0-only
/*
 * record --daemonize (record_daemon.h). The parent waits on a pipe rather than a signal (as
 * trace-cmd's SIGRTMIN): a byte is "recording", EOF without one is the child gone, whose
 * status the parent then takes as its own. Until it detaches the child shares the shell's
 * session, so a Ctrl-C before recording starts still stops both.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "record_daemon.h"

static void wait_for_daemon(pid_t child, int started_fd)
{
	int status = 0;
	ssize_t n;
	char c;

	do {
		n = read(started_fd, &c, 1);
	} while (n < 0 && errno == EINTR);
	if (n == 1)
		_exit(0);
	while (waitpid(child, &status, 0) < 0 && errno == EINTR)
		;
	_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
}

int record_daemon_fork(struct record_daemon *d)
{
	int pipefd[2], null_fd;
	pid_t pid;

	d->started_fd = -1;
	d->pidfile = false;
	if (pipe2(pipefd, O_CLOEXEC))
		return -errno;
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(pipefd[0]);
		close(pipefd[1]);
		return -errno;
	}
	if (pid > 0) {
		close(pipefd[1]);
		wait_for_daemon(pid, pipefd[0]);
	}
	close(pipefd[0]);
	d->started_fd = pipefd[1];
	/* stdout and stderr stay, for the summary and the errors; stdin would fight the shell */
	null_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (null_fd < 0 || dup2(null_fd, STDIN_FILENO) < 0)
		return -errno;
	close(null_fd);
	return 0;
}

void record_daemon_detach(struct record_daemon *d)
{
	FILE *f;

	if (d->started_fd < 0)
		return;
	setsid();
	f = fopen(RECORD_DAEMON_PIDFILE, "we");
	if (f) {
		fprintf(f, "%d\n", (int)getpid());
		d->pidfile = !fclose(f);
	} else {
		fprintf(stderr, "ktrace record: --daemonize: cannot write %s: %m\n",
			RECORD_DAEMON_PIDFILE);
	}
	printf("Send SIGINT/SIGTERM to pid %d to stop recording\n", (int)getpid());
	fflush(stdout);
	if (write(d->started_fd, "s", 1) < 0)
		perror("ktrace record: --daemonize");
	close(d->started_fd);
	d->started_fd = -1;
}

void record_daemon_end(struct record_daemon *d)
{
	if (d->pidfile)
		unlink(RECORD_DAEMON_PIDFILE);
	d->pidfile = false;
	if (d->started_fd >= 0)
		close(d->started_fd);
	d->started_fd = -1;
}
