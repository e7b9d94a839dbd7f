// SPDX-License-Identifier: GPL-2.0-only
/* Blocked stop signals read from a signalfd (session_signals.h). */
#include <errno.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "session_signals.h"

int session_signals_block(int *sig_fd, sigset_t *old_mask, bool save_signal)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGCHLD);
	if (save_signal)
		sigaddset(&set, SIGUSR1);
	if (sigprocmask(SIG_BLOCK, &set, old_mask))
		return -errno;
	*sig_fd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	return *sig_fd < 0 ? -errno : 0;
}

void session_signals_unblock(int *sig_fd, const sigset_t *old_mask)
{
	struct signalfd_siginfo si;

	if (*sig_fd >= 0) {
		while (read(*sig_fd, &si, sizeof(si)) == (ssize_t)sizeof(si))
			;
		close(*sig_fd);
	}
	*sig_fd = -1;
	sigprocmask(SIG_SETMASK, old_mask, NULL);
}
