/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_FDIO_H
#define KTRACE_FDIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Writes all len bytes to fd, through short writes and EINTR: 0 or negative errno (-EIO for a
 * write of 0 bytes). On a socket it sends with MSG_NOSIGNAL, so that a peer that hung up (record
 * -N's listener) gives -EPIPE instead of a SIGPIPE that would kill ktrace before it restores
 * tracefs.
 */
int fd_write_all(int fd, const void *buf, size_t len);
/* Writes all len bytes at offset off, through short writes and EINTR: 0 or negative errno. */
int fd_pwrite_all(int fd, const void *buf, size_t len, uint64_t off);
/* Reads all len bytes at offset off, through short reads and EINTR: 0, -EIO when the file ends
 * first, or negative errno. */
int fd_pread_all(int fd, void *buf, size_t len, uint64_t off);
/* Do paths a and b name one file (device and inode)? False when either is missing. */
bool fd_same_file(const char *a, const char *b);
/*
 * Copies what `in` reads until its end to `out` (as fd_write_all), as it comes, so that a file
 * that waits for data (trace_pipe) shows what it has: 0 or negative errno. A caller that also
 * prints to `out` through stdio flushes it first.
 */
int fd_copy_all(int in, int out);
/*
 * An unnamed read-write file in the directory dir (O_TMPFILE, else a hidden name unlinked at
 * once), so that nothing is left behind when ktrace dies: the fd or negative errno.
 */
int fd_open_temp(const char *dir);

#endif
