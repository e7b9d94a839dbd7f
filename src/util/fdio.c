// SPDX-License-Identifier: GPL-2.0-only
/* Whole writes to files and sockets, and copies between them (fdio.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/stat.h>
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

/* The one loop of the positioned transfers: `write` chooses pwrite or pread. */
static int fd_ptransfer_all(int fd, void *buf, size_t len, uint64_t off, bool write)
{
	char *p = buf;

	while (len) {
		ssize_t n = write ? pwrite(fd, p, len, (off_t)off) : pread(fd, p, len, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		/* a read that ends early is a short file: -EIO as for a write that writes nothing */
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		p += n;
		off += (uint64_t)n;
		len -= (size_t)n;
	}
	return 0;
}

int fd_pwrite_all(int fd, const void *buf, size_t len, uint64_t off)
{
	return fd_ptransfer_all(fd, (void *)buf, len, off, true);
}

int fd_pread_all(int fd, void *buf, size_t len, uint64_t off)
{
	return fd_ptransfer_all(fd, buf, len, off, false);
}

bool fd_same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	return !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

int fd_copy_all(int in, int out)
{
	char buf[65536];

	for (;;) {
		ssize_t n = read(in, buf, sizeof(buf));
		int ret;

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : 0;
		ret = fd_write_all(out, buf, (size_t)n);
		if (ret)
			return ret;
	}
}

int fd_open_temp(const char *dir)
{
	char *path = NULL;
	int fd;

	fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd >= 0 || (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL))
		return fd < 0 ? -errno : fd;
	if (asprintf(&path, "%s/.ktrace-tmp-XXXXXX", dir) < 0)
		return -ENOMEM;
	fd = mkostemp(path, O_CLOEXEC);
	if (fd >= 0)
		unlink(path);
	else
		fd = -errno;
	free(path);
	return fd;
}
