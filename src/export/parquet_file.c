// SPDX-License-Identifier: GPL-2.0-only
/*
 * The files of `export --parquet`: their names (a table, or a table's partition value), the
 * refusal to replace one without --force, and the temporary name each is written under until
 * it is whole (parquet_file.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "parquet_file.h"

int pq_make_dir(const char *path, struct strbuf *err)
{
	struct stat st;

	if (!mkdir(path, 0777))
		return 0;
	if (errno == EEXIST && !stat(path, &st) && S_ISDIR(st.st_mode))
		return 0;
	if (errno == EEXIST)
		errno = ENOTDIR;
	strbuf_addf(err, "%s: %s", path, strerror(errno));
	return -errno;
}

/* Refuses a file that exists unless --force; a directory there is never replaced */
static int check_target(const char *path, bool force, struct strbuf *err)
{
	struct stat st;

	if (lstat(path, &st))
		return 0;
	if (S_ISDIR(st.st_mode)) {
		strbuf_addf(err, "%s: is a directory", path);
		return -EISDIR;
	}
	if (!force) {
		strbuf_addf(err, "%s: exists (--force replaces it)", path);
		return -EEXIST;
	}
	return 0;
}

/* A partition value as a file name: '/' and a leading '.' would make it a path */
static void add_file_name(struct strbuf *sb, const char *value)
{
	const char *p;

	for (p = value; *p; p++)
		strbuf_addch(sb, *p == '/' || (p == value && *p == '.') ? '_' : *p);
	if (!*value)
		strbuf_addch(sb, '_');
}

int pq_file_target(struct pq_file *f, const struct pq_export_opts *o, const char *table,
		   const char *value, struct strbuf *err)
{
	struct strbuf *path = &f->path;
	int ret;

	strbuf_reset(path);
	strbuf_addf(path, "%s/%s", o->dir, table);
	if (value) {
		ret = pq_make_dir(path->buf, err);
		if (ret)
			return ret;
		strbuf_addch(path, '/');
		add_file_name(path, value);
	}
	if (strbuf_addstr(path, ".parquet"))
		return -ENOMEM;
	return check_target(path->buf, o->force, err);
}

int pq_file_open(struct pq_file *f, struct strbuf *err)
{
	int fd;

	strbuf_reset(&f->tmp);
	if (strbuf_addf(&f->tmp, "%s.XXXXXX", f->path.buf))
		return -ENOMEM;
	fd = mkstemp(f->tmp.buf);
	if (fd < 0) {
		strbuf_addf(err, "%s: %s", f->tmp.buf, strerror(errno));
		strbuf_reset(&f->tmp);
		return -errno;
	}
	f->out = fdopen(fd, "wb");
	if (!f->out) {
		close(fd);
		return -errno;
	}
	setvbuf(f->out, NULL, _IOFBF, 1 << 20);
	fchmod(fd, 0644);
	return 0;
}

static int sync_dir(const char *path)
{
	char *dir = strdup(path), *slash;
	int fd, ret = 0;

	if (!dir)
		return -ENOMEM;
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	fd = open(slash ? dir : ".", O_RDONLY | O_DIRECTORY);
	if (fd < 0 || fsync(fd))
		ret = -errno;
	if (fd >= 0)
		close(fd);
	free(dir);
	return ret;
}

int pq_file_close(struct pq_file *f, int ret, struct strbuf *err)
{
	if (!ret && f->out && (fflush(f->out) || fsync(fileno(f->out))))
		ret = -errno;
	if (f->out && fclose(f->out) && !ret)
		ret = -errno;
	f->out = NULL;
	if (!ret && f->tmp.len && rename(f->tmp.buf, f->path.buf))
		ret = -errno;
	if (!ret && f->tmp.len)
		ret = sync_dir(f->path.buf);
	if (ret && f->tmp.len)
		unlink(f->tmp.buf);
	if (ret && !err->len)
		strbuf_addf(err, "%s: %s", f->path.buf, strerror(-ret));
	strbuf_release(&f->tmp);
	strbuf_release(&f->path);
	return ret;
}
