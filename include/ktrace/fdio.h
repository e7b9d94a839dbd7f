/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_FDIO_H
#define KTRACE_FDIO_H

#include <stddef.h>

/*
 * Writes all len bytes to fd, through short writes and EINTR: 0 or negative errno (-EIO for a
 * write of 0 bytes). On a socket it sends with MSG_NOSIGNAL, so that a peer that hung up (record
 * -N's listener) gives -EPIPE instead of a SIGPIPE that would kill ktrace before it restores
 * tracefs.
 */
int fd_write_all(int fd, const void *buf, size_t len);

#endif
