// SPDX-License-Identifier: GPL-2.0-only
/* Copied from the project kit /work/shared/peer-bench (not trace-cmd code). */
/*
 * tcshim.c - LD_PRELOAD shim that lets the stock trace-cmd (3.1.6) record
 * events on a host where the function tracer is locked down.
 *
 * On this host, writes to /proc/sys/kernel/ftrace_enabled fail with EPERM and
 * opening set_ftrace_pid / set_ftrace_filter / set_ftrace_notrace /
 * set_graph_function / set_graph_notrace fails with EPERM.  trace-cmd record
 * touches all of them even when only events are requested, and aborts.
 *
 * For open/open64/openat/openat64 (and their _FORTIFY_SOURCE variants
 * __open_2 & co.) and fopen/fopen64 of exactly those files, this shim hands
 * back:
 *   - a descriptor on /dev/null when the file is opened write-only, so
 *     writes "succeed" and are discarded;
 *   - a descriptor on an anonymous memory file (memfd) holding the
 *     file's "neutral" content when the file is opened for reading or
 *     read/write: "1\n" for ftrace_enabled, and for the set_* files the
 *     text the kernel shows when nothing is set ("no pid",
 *     "#### all functions enabled ####", "#### no functions disabled ####").
 *     (An empty file would work too, but trace-cmd then prints a spurious
 *     "set_ftrace_filter: No such file or directory" while resetting.)
 * Every other path is passed through untouched.
 *
 * Matched paths (absolute only):
 *   /proc/sys/kernel/ftrace_enabled
 *   /sys/kernel/tracing/<f>
 *   /sys/kernel/tracing/instances/<name>/<f>
 *   /sys/kernel/debug/tracing/<f>   (legacy mount point, same handling)
 * where <f> is one of set_ftrace_pid, set_ftrace_filter,
 * set_ftrace_notrace, set_graph_function, set_graph_notrace.
 *
 * Set TCSHIM_DEBUG=1 to log each redirection to stderr.
 *
 * Unless TCSHIM_INHERIT=1, the shim removes itself from LD_PRELOAD when it
 * loads (the token equal to $TCSHIM_SELF, or any token ending in
 * "/tcshim.so"), so the command that trace-cmd record execs (the traced
 * workload) runs without it.  trace-cmd's recorder processes are fork()ed,
 * not exec()ed, so they keep the shim.
 *
 * Build: gcc -O2 -Wall -shared -fPIC -o tcshim.so tcshim.c -ldl
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#ifndef O_TMPFILE
#define O_TMPFILE 0
#endif

/*
 * Blocked tracefs files and what a read of them returns: the text the
 * kernel itself shows when the file is in its reset state, so readers
 * (trace-cmd saves and later restores these files) see a "nothing set"
 * value instead of an empty file.
 */
static const struct {
	const char *name;
	const char *content;
} ftrace_files[] = {
	{ "set_ftrace_pid",	"no pid\n" },
	{ "set_ftrace_filter",	"#### all functions enabled ####\n" },
	{ "set_ftrace_notrace",	"#### no functions disabled ####\n" },
	{ "set_graph_function",	"#### all functions enabled ####\n" },
	{ "set_graph_notrace",	"#### no functions disabled ####\n" },
	{ NULL, NULL },
};

static const char *ftrace_file_content(const char *name)
{
	for (int i = 0; ftrace_files[i].name; i++)
		if (strcmp(name, ftrace_files[i].name) == 0)
			return ftrace_files[i].content;
	return NULL;
}

/* Returns the neutral content for a blocked path, or NULL if not blocked. */
static const char *blocked_content(const char *path)
{
	static const char *const roots[] = {
		"/sys/kernel/tracing/",
		"/sys/kernel/debug/tracing/",
		NULL,
	};
	const char *c;

	if (!path || path[0] != '/')
		return NULL;
	if (strcmp(path, "/proc/sys/kernel/ftrace_enabled") == 0)
		return "1\n";
	for (int i = 0; roots[i]; i++) {
		size_t n = strlen(roots[i]);
		const char *rest;

		if (strncmp(path, roots[i], n) != 0)
			continue;
		rest = path + n;
		if ((c = ftrace_file_content(rest)))
			return c;
		if (strncmp(rest, "instances/", 10) == 0) {
			const char *slash = strchr(rest + 10, '/');
			if (slash && slash != rest + 10)
				return ftrace_file_content(slash + 1);
		}
	}
	return NULL;
}

static void dbg(const char *what, const char *path, int flags)
{
	static int on = -1;

	if (on < 0) {
		const char *e = getenv("TCSHIM_DEBUG");
		on = e && *e && strcmp(e, "0") != 0;
	}
	if (on) {
		char buf[512];
		int n = snprintf(buf, sizeof(buf), "tcshim[%d]: %s %s flags=0%o\n",
				 (int)getpid(), what, path, flags);
		if (n > 0)
			(void)!write(2, buf, (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1);
	}
}

/*
 * Make a replacement descriptor for a blocked path.  Never calls the
 * interposed open functions (uses the raw syscall-backed memfd_create and
 * the real openat via dlsym) to avoid recursion.
 */
typedef int (*openat_fn)(int, const char *, int, ...);

static openat_fn real_openat_fn(void)
{
	static openat_fn fn;

	if (!fn)
		fn = (openat_fn)dlsym(RTLD_NEXT, "openat");
	return fn;
}

static int fake_fd(const char *path, int flags, const char *content)
{
	int acc = flags & O_ACCMODE;
	int cloexec = flags & O_CLOEXEC;
	int fd;

	if (acc == O_WRONLY) {
		dbg("write->/dev/null", path, flags);
		return real_openat_fn()(AT_FDCWD, "/dev/null", O_WRONLY | cloexec);
	}
	dbg(acc == O_RDWR ? "rdwr->memfd" : "read->memfd", path, flags);
	fd = memfd_create("tcshim", cloexec ? MFD_CLOEXEC : 0);
	if (fd < 0)
		return -1;
	if (!(flags & O_TRUNC) && content[0]) {
		size_t len = strlen(content);
		if (write(fd, content, len) != (ssize_t)len) {
			int e = errno;
			close(fd);
			errno = e;
			return -1;
		}
		if (!(flags & O_APPEND))
			lseek(fd, 0, SEEK_SET);
	}
	return fd;
}

static int needs_mode(int flags)
{
	return (flags & O_CREAT) || (O_TMPFILE && (flags & O_TMPFILE) == O_TMPFILE);
}

#define GET_MODE(flags, mode)				\
	do {						\
		mode = 0;				\
		if (needs_mode(flags)) {		\
			va_list ap;			\
			va_start(ap, flags);		\
			mode = va_arg(ap, int);		\
			va_end(ap);			\
		}					\
	} while (0)

/* Drop ourselves from LD_PRELOAD so exec()ed children run unshimmed. */
__attribute__((constructor))
static void tcshim_strip_preload(void)
{
	const char *inherit = getenv("TCSHIM_INHERIT");
	const char *self = getenv("TCSHIM_SELF");
	const char *pre = getenv("LD_PRELOAD");
	char *copy, *out, *tok, *save = NULL;
	size_t outlen = 0;

	if (inherit && *inherit && strcmp(inherit, "0") != 0)
		return;
	if (!pre)
		return;
	copy = strdup(pre);
	out = calloc(1, strlen(pre) + 1);
	if (!copy || !out)
		goto done;
	for (tok = strtok_r(copy, " :", &save); tok; tok = strtok_r(NULL, " :", &save)) {
		size_t l = strlen(tok);

		if (self && *self && strcmp(tok, self) == 0)
			continue;
		if (l >= 10 && strcmp(tok + l - 10, "/tcshim.so") == 0)
			continue;
		if (outlen)
			out[outlen++] = ':';
		memcpy(out + outlen, tok, l);
		outlen += l;
		out[outlen] = 0;
	}
	if (outlen)
		setenv("LD_PRELOAD", out, 1);
	else
		unsetenv("LD_PRELOAD");
done:
	free(copy);
	free(out);
}

/* ---- open family ---- */

int open(const char *path, int flags, ...)
{
	static int (*real)(const char *, int, ...);
	const char *c = blocked_content(path);
	int mode;

	if (c)
		return fake_fd(path, flags, c);
	GET_MODE(flags, mode);
	if (!real)
		real = dlsym(RTLD_NEXT, "open");
	return real(path, flags, mode);
}

int open64(const char *path, int flags, ...)
{
	static int (*real)(const char *, int, ...);
	const char *c = blocked_content(path);
	int mode;

	if (c)
		return fake_fd(path, flags, c);
	GET_MODE(flags, mode);
	if (!real)
		real = dlsym(RTLD_NEXT, "open64");
	return real(path, flags, mode);
}

int openat(int dirfd, const char *path, int flags, ...)
{
	const char *c = blocked_content(path);
	int mode;

	if (c)
		return fake_fd(path, flags, c);
	GET_MODE(flags, mode);
	return real_openat_fn()(dirfd, path, flags, mode);
}

int openat64(int dirfd, const char *path, int flags, ...)
{
	static int (*real)(int, const char *, int, ...);
	const char *c = blocked_content(path);
	int mode;

	if (c)
		return fake_fd(path, flags, c);
	GET_MODE(flags, mode);
	if (!real)
		real = dlsym(RTLD_NEXT, "openat64");
	return real(dirfd, path, flags, mode);
}

/* _FORTIFY_SOURCE entry points (trace-cmd and libtracefs import __open64_2) */
int __open_2(const char *path, int flags)
{
	static int (*real)(const char *, int);
	const char *c = blocked_content(path);

	if (c)
		return fake_fd(path, flags, c);
	if (!real)
		real = dlsym(RTLD_NEXT, "__open_2");
	return real(path, flags);
}

int __open64_2(const char *path, int flags)
{
	static int (*real)(const char *, int);
	const char *c = blocked_content(path);

	if (c)
		return fake_fd(path, flags, c);
	if (!real)
		real = dlsym(RTLD_NEXT, "__open64_2");
	return real(path, flags);
}

int __openat_2(int dirfd, const char *path, int flags)
{
	static int (*real)(int, const char *, int);
	const char *c = blocked_content(path);

	if (c)
		return fake_fd(path, flags, c);
	if (!real)
		real = dlsym(RTLD_NEXT, "__openat_2");
	return real(dirfd, path, flags);
}

int __openat64_2(int dirfd, const char *path, int flags)
{
	static int (*real)(int, const char *, int);
	const char *c = blocked_content(path);

	if (c)
		return fake_fd(path, flags, c);
	if (!real)
		real = dlsym(RTLD_NEXT, "__openat64_2");
	return real(dirfd, path, flags);
}

/* ---- stdio ---- */

static int fopen_flags(const char *mode)
{
	int flags;

	switch (mode[0]) {
	case 'r': flags = 0; break;
	case 'w': flags = O_CREAT | O_TRUNC; break;
	case 'a': flags = O_CREAT | O_APPEND; break;
	default: return -1;
	}
	if (strchr(mode, '+'))
		flags |= O_RDWR;
	else if (mode[0] == 'r')
		flags |= O_RDONLY;
	else
		flags |= O_WRONLY;
	if (strchr(mode, 'e'))
		flags |= O_CLOEXEC;
	return flags;
}

static FILE *fake_fopen(const char *path, const char *mode, const char *c)
{
	int flags = fopen_flags(mode);
	int fd;
	FILE *f;

	if (flags < 0) {
		errno = EINVAL;
		return NULL;
	}
	fd = fake_fd(path, flags, c);
	if (fd < 0)
		return NULL;
	f = fdopen(fd, mode);
	if (!f) {
		int e = errno;
		close(fd);
		errno = e;
	}
	return f;
}

FILE *fopen(const char *path, const char *mode)
{
	static FILE *(*real)(const char *, const char *);
	const char *c = blocked_content(path);

	if (c)
		return fake_fopen(path, mode, c);
	if (!real)
		real = dlsym(RTLD_NEXT, "fopen");
	return real(path, mode);
}

FILE *fopen64(const char *path, const char *mode)
{
	static FILE *(*real)(const char *, const char *);
	const char *c = blocked_content(path);

	if (c)
		return fake_fopen(path, mode, c);
	if (!real)
		real = dlsym(RTLD_NEXT, "fopen64");
	return real(path, mode);
}
