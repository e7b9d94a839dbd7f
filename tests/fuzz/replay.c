// SPDX-License-Identifier: GPL-2.0-only
/*
 * Replays fuzz inputs through a fuzz target without libFuzzer, so that every crash once found
 * stays a plain test (unit suite, ASan and valgrind runs included).
 * usage: replay FILE|DIR...   (a directory: every regular file in it, sorted)
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ktrace/strbuf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay_file(const char *path, int out_fd)
{
	struct strbuf sb = STRBUF_INIT;
	char chunk[65536];
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd < 0) {
		dprintf(out_fd, "replay: %s: %s\n", path, strerror(errno));
		return -1;
	}
	while ((n = read(fd, chunk, sizeof(chunk))) > 0)
		strbuf_add(&sb, chunk, (size_t)n);
	close(fd);
	LLVMFuzzerTestOneInput((const uint8_t *)sb.buf, sb.len);
	dprintf(out_fd, "replayed %s (%zu bytes)\n", path, sb.len);
	strbuf_release(&sb);
	return 0;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int replay_dir(const char *dir, int out_fd)
{
	struct dirent **list;
	char path[4096];
	struct stat st;
	int i, n, ret = 0;

	n = scandir(dir, &list, NULL, NULL);
	if (n < 0) {
		dprintf(out_fd, "replay: %s: %s\n", dir, strerror(errno));
		return -1;
	}
	qsort(list, (size_t)n, sizeof(*list), cmp_names);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, list[i]->d_name);
		if (list[i]->d_name[0] != '.' && !stat(path, &st) && S_ISREG(st.st_mode))
			ret |= replay_file(path, out_fd);
		free(list[i]);
	}
	free(list);
	return ret;
}

int main(int argc, char **argv)
{
	/* targets print reports: keep them out of the test log, keep our own lines */
	int out_fd = dup(STDOUT_FILENO);
	int null_fd = open("/dev/null", O_WRONLY);
	struct stat st;
	int i, ret = 0;

	if (out_fd < 0 || null_fd < 0 || dup2(null_fd, STDOUT_FILENO) < 0)
		return 1;
	close(null_fd);
	for (i = 1; i < argc; i++) {
		if (stat(argv[i], &st)) {
			dprintf(out_fd, "replay: %s: %s\n", argv[i], strerror(errno));
			ret = 1;
		} else if (S_ISDIR(st.st_mode)) {
			ret |= replay_dir(argv[i], out_fd) ? 1 : 0;
		} else {
			ret |= replay_file(argv[i], out_fd) ? 1 : 0;
		}
	}
	return ret;
}
