// SPDX-License-Identifier: GPL-2.0-only
/* Whole writes to files and sockets (fdio.h). */
#include <errno.h>
#include <stdbool.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ktrace/fdio.h"

int fd_write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	bool sock = true;

	while (len) {
		ssize_t n = sock ? send(fd, p, len, MSG_NOSIGNAL) : write(fd, p, len);

		if (n < 0 && errno == ENOTSOCK && sock) {
			sock = false;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}
