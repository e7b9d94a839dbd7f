/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_TEST_CORPUS_UTIL_H
#define KTRACE_TEST_CORPUS_UTIL_H

/* Helpers shared by the dat unit tests: corpus paths and whole-file reads. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* argv[1] of the test: the corpus folder (meson passes corpus_dir). */
static inline char *corpus_path(const char *dir, const char *name)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *p = malloc(n);

	if (p)
		snprintf(p, n, "%s/%s", dir, name);
	return p;
}

/* Calls fn(path, arg) for every .dat file in dir; returns how many, or -1 if dir cannot be read. */
static inline int corpus_each_dat(const char *dir, void (*fn)(const char *path, void *arg),
				  void *arg)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int files = 0;
	size_t len;
	char *path;

	if (!d)
		return -1;
	while ((de = readdir(d))) {
		len = strlen(de->d_name);
		if (len < 5 || strcmp(de->d_name + len - 4, ".dat"))
			continue;
		path = corpus_path(dir, de->d_name);
		if (path)
			fn(path, arg);
		free(path);
		files++;
	}
	closedir(d);
	return files;
}

static inline unsigned char *read_whole(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL;
	long size;

	*len = 0;
	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
		buf = malloc(size ? size : 1);
		if (buf && fread(buf, 1, size, f) != (size_t)size) {
			free(buf);
			buf = NULL;
		}
		*len = (size_t)size;
	}
	fclose(f);
	return buf;
}

/* What fn(arg) prints on stdout, as a NUL-terminated string (through a temporary file). */
static inline char *stdout_of(void (*fn)(void *arg), void *arg)
{
	char path[] = "/tmp/ktrace-stdout-XXXXXX";
	int fd = mkstemp(path), saved;
	unsigned char *text;
	size_t len;

	if (fd < 0)
		return NULL;
	fflush(stdout);
	saved = dup(1);
	dup2(fd, 1);
	fn(arg);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	close(fd);
	text = read_whole(path, &len);
	unlink(path);
	text = realloc(text, len + 1);
	if (text)
		text[len] = '\0';
	return (char *)text;
}

#endif
