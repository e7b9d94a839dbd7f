// SPDX-License-Identifier: GPL-2.0-only
/*
 * tcshim: an LD_PRELOAD library that lets the stock trace-cmd 3.1.6 record on a kernel where
 * the function tracer is locked down (EPERM on /proc/sys/kernel/ftrace_enabled and on the
 * set_ftrace_* / set_graph_* files). trace-cmd writes those files even when it records only
 * events, and gives up when it cannot. For exactly those paths the shim hands out a harmless
 * descriptor:
 *   - opened write-only: /dev/null (the write succeeds and changes nothing);
 *   - opened for reading: a memfd holding what the kernel shows in its reset state.
 * Every other open goes to libc untouched. So trace-cmd records events exactly as it would on
 * a kernel where function tracing is allowed but unused; only the function-tracer settings
 * are dropped, and the benchmarks trace events only.
 *
 * trace-cmd and libtracefs import open64, __open64_2 and fopen64 (glibc fortify); the plain
 * names are wrapped too. The shim drops itself from LD_PRELOAD so that a traced command does
 * not inherit it; trace-cmd's recorders are forked, not exec'ed, and keep it.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

struct fake_file {
	const char *name;	/* last path component; ftrace_enabled is matched by full path */
	const char *content;
};

static const struct fake_file fakes[] = {
	{ "ftrace_enabled", "1\n" },
	{ "set_ftrace_pid", "no pid\n" },
	{ "set_ftrace_filter", "#### all functions enabled ####\n" },
	{ "set_ftrace_notrace", "#### no functions disabled ####\n" },
	{ "set_graph_function", "#### all functions enabled ####\n" },
	{ "set_graph_notrace", "#### no functions disabled ####\n" },
};

static const struct fake_file *lookup(const char *path)
{
	const char *base;

	if (!path)
		return NULL;
	if (!strcmp(path, "/proc/sys/kernel/ftrace_enabled"))
		return &fakes[0];
	if (strncmp(path, "/sys/kernel/tracing/", 20) &&
	    strncmp(path, "/sys/kernel/debug/tracing/", 26))
		return NULL;
	base = strrchr(path, '/') + 1;
	for (size_t i = 1; i < sizeof(fakes) / sizeof(fakes[0]); i++)
		if (!strcmp(base, fakes[i].name))
			return &fakes[i];
	return NULL;
}

static int fake_fd(const struct fake_file *f, int flags)
{
	int fd;

	if ((flags & O_ACCMODE) == O_WRONLY)
		return open("/dev/null", O_WRONLY | (flags & O_CLOEXEC));
	fd = memfd_create(f->name, (flags & O_CLOEXEC) ? MFD_CLOEXEC : 0);
	if (fd < 0)
		return fd;
	if (write(fd, f->content, strlen(f->content)) < 0 || lseek(fd, 0, SEEK_SET) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

static int real_openat(int dirfd, const char *path, int flags, mode_t mode)
{
	static int (*fn)(int, const char *, int, ...);

	if (!fn)
		fn = (int (*)(int, const char *, int, ...))dlsym(RTLD_NEXT, "openat");
	return fn(dirfd, path, flags, mode);
}

static int shim_open(int dirfd, const char *path, int flags, mode_t mode)
{
	const struct fake_file *f = lookup(path);

	return f ? fake_fd(f, flags) : real_openat(dirfd, path, flags, mode);
}

/* The mode argument exists only when the flags create a file. */
#define MODE_ARG(flags, mode)							\
	do {									\
		va_list ap;							\
		va_start(ap, flags);						\
		mode = (flags & (O_CREAT | __O_TMPFILE)) ? (mode_t)va_arg(ap, int) : 0; \
		va_end(ap);							\
	} while (0)

int open(const char *path, int flags, ...)
{
	mode_t mode;

	MODE_ARG(flags, mode);
	return shim_open(AT_FDCWD, path, flags, mode);
}

int open64(const char *path, int flags, ...)
{
	mode_t mode;

	MODE_ARG(flags, mode);
	return shim_open(AT_FDCWD, path, flags, mode);
}

int openat(int dirfd, const char *path, int flags, ...)
{
	mode_t mode;

	MODE_ARG(flags, mode);
	return shim_open(dirfd, path, flags, mode);
}

int __open_2(const char *path, int flags)
{
	return shim_open(AT_FDCWD, path, flags, 0);
}

int __open64_2(const char *path, int flags)
{
	return shim_open(AT_FDCWD, path, flags, 0);
}

static FILE *shim_fopen(const char *path, const char *how)
{
	static FILE *(*fn)(const char *, const char *);
	const struct fake_file *f = lookup(path);
	int fd;

	if (!f) {
		if (!fn)
			fn = (FILE *(*)(const char *, const char *))dlsym(RTLD_NEXT, "fopen64");
		return fn(path, how);
	}
	fd = fake_fd(f, how[0] == 'r' && !strchr(how, '+') ? O_RDONLY :
		     how[0] == 'r' ? O_RDWR : O_WRONLY);
	return fd < 0 ? NULL : fdopen(fd, how);
}

FILE *fopen(const char *path, const char *how)
{
	return shim_fopen(path, how);
}

FILE *fopen64(const char *path, const char *how)
{
	return shim_fopen(path, how);
}

/* Remove this library from LD_PRELOAD so that the traced command runs without it. */
__attribute__((constructor)) static void shim_init(void)
{
	const char *self = getenv("TCSHIM_SELF");
	const char *pre = getenv("LD_PRELOAD");
	char *copy, *tok, *save = NULL;
	size_t len;

	if (!self || !pre)
		return;
	len = strlen(pre) + 1;
	copy = malloc(len);
	if (!copy)
		return;
	copy[0] = '\0';
	for (tok = strtok_r(strdupa(pre), ": ", &save); tok; tok = strtok_r(NULL, ": ", &save)) {
		if (!strcmp(tok, self))
			continue;
		if (copy[0])
			strcat(copy, ":");
		strcat(copy, tok);
	}
	if (copy[0])
		setenv("LD_PRELOAD", copy, 1);
	else
		unsetenv("LD_PRELOAD");
	free(copy);
}
