// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reading and writing tracefs files by path. Writes go through plain open/write so that the
 * undo path can use them from a signal-driven exit (no allocation, no stdio).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <tracefs.h>

#include "ktrace/tfs.h"

int tfs_path(struct strbuf *out, const char *instance, const char *file)
{
	const char *dir = tracefs_tracing_dir();
	int ret;

	if (!dir)
		return -ENODEV;
	strbuf_reset(out);
	ret = strbuf_addstr(out, dir);
	if (!ret && instance)
		ret = strbuf_addf(out, "/instances/%s", instance);
	if (!ret && file)
		ret = strbuf_addf(out, "/%s", file);
	return ret;
}

int tfs_read(const char *path, struct strbuf *out)
{
	strbuf_reset(out);
	return strbuf_read_file(out, path);
}

int tfs_inst_read(const char *instance, const char *file, struct strbuf *out)
{
	struct strbuf path = STRBUF_INIT;
	int ret;

	ret = tfs_path(&path, instance, file);
	if (!ret)
		ret = tfs_read(path.buf, out);
	strbuf_release(&path);
	return ret;
}

int tfs_write(const char *path, const char *val, size_t len, bool truncate)
{
	int fd, ret = 0;

	fd = open(path, O_WRONLY | O_CLOEXEC | (truncate ? O_TRUNC : O_APPEND));
	if (fd < 0)
		return -errno;
	while (len) {
		ssize_t n = write(fd, val, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			ret = n < 0 ? -errno : -EIO;
			break;
		}
		val += n;
		len -= (size_t)n;
	}
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

int tfs_inst_write(const char *instance, const char *file, const char *val)
{
	struct strbuf path = STRBUF_INIT;
	int ret;

	ret = tfs_path(&path, instance, file);
	if (!ret)
		ret = tfs_write(path.buf, val, strlen(val), true);
	strbuf_release(&path);
	return ret;
}

int tfs_selected(const char *text, struct strbuf *out)
{
	const char *open_br = strchr(text, '['), *close_br;

	strbuf_reset(out);
	if (!open_br)
		return -ENOENT;
	close_br = strchr(open_br, ']');
	if (!close_br)
		return -ENOENT;
	return strbuf_add(out, open_br + 1, (size_t)(close_br - open_br - 1));
}

void tfs_chomp(struct strbuf *sb)
{
	while (sb->len && (sb->buf[sb->len - 1] == '\n' || sb->buf[sb->len - 1] == ' '))
		sb->buf[--sb->len] = '\0';
}

int tfs_words(const char *path, char ***out)
{
	struct strbuf sb = STRBUF_INIT;
	char *save = NULL, *w;
	int ret;

	*out = NULL;
	ret = tfs_read(path, &sb);
	for (w = ret ? NULL : strtok_r(sb.buf, " \t\n[]", &save); w && !ret;
	     w = strtok_r(NULL, " \t\n[]", &save))
		ret = strv_push(out, w);
	strbuf_release(&sb);
	if (ret) {
		strv_free(*out);
		*out = NULL;
	}
	return ret;
}

static bool is_dir(int dfd, const struct dirent *d)
{
	struct stat st;

	if (d->d_type != DT_UNKNOWN)
		return d->d_type == DT_DIR;
	return !fstatat(dfd, d->d_name, &st, 0) && S_ISDIR(st.st_mode);
}

/*
 * The subdirectories of `rel` (events, events/SYSTEM, instances) under `base` (a tracing
 * directory; NULL: the live tracefs's top instance) in readdir order, as libtracefs lists them; with `need_enable` only those that hold an
 * enable file (the systems of events/). The entry types come from readdir, not from a stat per
 * entry as in libtracefs: on eventfs a stat makes the kernel build the entry's inode, and the
 * catalog of every event was ~3000 of them per recording. A missing directory (no events) is
 * an empty vector.
 */
static int list_dirs(const char *base, const char *rel, bool need_enable, char ***out)
{
	struct strbuf path = STRBUF_INIT;
	struct dirent *d;
	DIR *dir = NULL;
	int ret;

	*out = calloc(1, sizeof(char *));
	if (!*out)
		ret = -ENOMEM;
	else if (base)
		ret = strbuf_addf(&path, "%s/%s", base, rel);
	else
		ret = tfs_path(&path, NULL, rel);
	if (!ret)
		dir = opendir(path.buf);
	while (!ret && dir && (d = readdir(dir))) {
		if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, "..") || !is_dir(dirfd(dir), d))
			continue;
		strbuf_reset(&path);
		if (need_enable && (strbuf_addf(&path, "%s/enable", d->d_name) ||
				    faccessat(dirfd(dir), path.buf, F_OK, 0)))
			continue;
		ret = strv_push(out, d->d_name);
	}
	if (dir)
		closedir(dir);
	strbuf_release(&path);
	if (ret) {
		strv_free(*out);
		*out = NULL;
	}
	return ret;
}

int tfs_dir_systems(const char *trace_dir, char ***out)
{
	return list_dirs(trace_dir, "events", true, out);
}

int tfs_dir_system_events(const char *trace_dir, const char *system, char ***out)
{
	struct strbuf rel = STRBUF_INIT;
	int ret = strbuf_addf(&rel, "events/%s", system);

	if (ret)
		*out = NULL;
	else
		ret = list_dirs(trace_dir, rel.buf, false, out);
	strbuf_release(&rel);
	return ret;
}

int tfs_systems(char ***out)
{
	return tfs_dir_systems(NULL, out);
}

int tfs_system_events(const char *system, char ***out)
{
	return tfs_dir_system_events(NULL, system, out);
}

int tfs_instances(char ***out)
{
	return list_dirs(NULL, "instances", false, out);
}

int tfs_for_each_event(void (*fn)(const char *sys, const char *event, void *arg), void *arg)
{
	char **systems = NULL, **events = NULL;
	int s, e, ret;

	ret = tfs_systems(&systems);
	for (s = 0; !ret && systems[s]; s++) {
		if (tfs_system_events(systems[s], &events))
			continue;
		for (e = 0; events[e]; e++)
			fn(systems[s], events[e], arg);
		strv_free(events);
	}
	strv_free(systems);
	return ret;
}

const char *tfs_cause(int err)
{
	if (err == -EPERM || err == -EACCES)
		return "EPERM; lockdown?";
	return strerror(-err);
}
