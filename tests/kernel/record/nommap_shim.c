// SPDX-License-Identifier: GPL-2.0-only
/*
 * LD_PRELOAD shim for the record_read_paths test: mmap() of a trace_pipe_raw fails with ENODEV,
 * as on a kernel older than 6.10, so that the fallback to splice and the refusal of
 * KTRACE_RECORD_READ=mmap are tested on any kernel. Everything else goes to libc's mmap.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	void *(*real)(void *, size_t, int, int, int, off_t) =
		(void *(*)(void *, size_t, int, int, int, off_t))dlsym(RTLD_NEXT, "mmap");
	char link[64], target[4096];
	ssize_t n;

	if (fd >= 0) {
		snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
		n = readlink(link, target, sizeof(target) - 1);
		if (n > 0) {
			target[n] = '\0';
			if (strstr(target, "/trace_pipe_raw")) {
				errno = ENODEV;
				return MAP_FAILED;
			}
		}
	}
	return real(addr, len, prot, flags, fd, off);
}
