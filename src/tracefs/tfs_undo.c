// SPDX-License-Identifier: GPL-2.0-only
/*
 * The undo list: every tracefs file the plan changes is saved here first, with the text that
 * puts it back. Restoring walks the list newest first using only open/write/rmdir on paths
 * prepared when saving, so that it is safe from a signal-driven exit. Each entry is also
 * appended to a journal file, so that a ktrace killed with SIGKILL can be undone later.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ktrace/tfs.h"

enum undo_kind {
	UNDO_WRITE = 'W',	/* write value with O_TRUNC */
	UNDO_APPEND = 'A',	/* write value appended (e.g. "!trigger") */
	UNDO_RMDIR = 'D',	/* remove an instance ktrace created */
};

struct undo_entry {
	char kind;
	bool done;
	char *path;
	char *value;
	size_t len;
};

struct tfs_undo {
	struct undo_entry *entries;
	int nr;
	int alloc;
	int journal_fd;
	char journal_path[64];
	int failed;			/* the entry whose restore failed first, or -1 */
};

int tfs_undo_new(struct tfs_undo **out)
{
	struct tfs_undo *undo = calloc(1, sizeof(*undo));

	*out = undo;
	if (!undo)
		return -ENOMEM;
	undo->journal_fd = -1;
	undo->failed = -1;
	/* A journal is a convenience: without /run, undo still works in this process. */
	if (mkdir(KT_UNDO_JOURNAL_DIR, 0700) && errno != EEXIST)
		return 0;
	snprintf(undo->journal_path, sizeof(undo->journal_path), "%s/undo-%d",
		 KT_UNDO_JOURNAL_DIR, (int)getpid());
	undo->journal_fd = open(undo->journal_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (undo->journal_fd < 0)
		undo->journal_path[0] = '\0';
	return 0;
}

static void journal_append(struct tfs_undo *undo, const struct undo_entry *e)
{
	struct strbuf sb = STRBUF_INIT;

	if (undo->journal_fd < 0)
		return;
	if (!strbuf_addf(&sb, "%c %zu %zu\n%s", e->kind, strlen(e->path), e->len, e->path) &&
	    !strbuf_add(&sb, e->value, e->len) && !strbuf_addch(&sb, '\n') &&
	    write(undo->journal_fd, sb.buf, sb.len) != (ssize_t)sb.len) {
		/* A short journal would replay half an undo: stop journaling instead. */
		close(undo->journal_fd);
		undo->journal_fd = -1;
		unlink(undo->journal_path);
		undo->journal_path[0] = '\0';
	}
	strbuf_release(&sb);
}

static int add_entry(struct tfs_undo *undo, char kind, const char *path, const char *value,
		     size_t len)
{
	struct undo_entry *e;

	if (undo->nr == undo->alloc) {
		int n = undo->alloc ? undo->alloc * 2 : 32;

		e = realloc(undo->entries, n * sizeof(*e));
		if (!e)
			return -ENOMEM;
		undo->entries = e;
		undo->alloc = n;
	}
	e = &undo->entries[undo->nr];
	memset(e, 0, sizeof(*e));
	e->kind = kind;
	e->path = strdup(path);
	e->value = malloc(len + 1);
	if (!e->path || !e->value) {
		free(e->path);
		free(e->value);
		return -ENOMEM;
	}
	memcpy(e->value, value, len);
	e->value[len] = '\0';
	e->len = len;
	undo->nr++;
	journal_append(undo, e);
	return 0;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t ls = strlen(s), lx = strlen(suffix);

	return ls >= lx && !strcmp(s + ls - lx, suffix);
}

/* Turns what a file reads into what must be written to get that state back. */
static int restore_text(const char *path, struct strbuf *sb)
{
	struct strbuf sel = STRBUF_INIT;
	const char *exp;
	int ret = 0;

	if (ends_with(path, "/filter") && !strncmp(strbuf_str(sb), "none", 4)) {
		strbuf_reset(sb);
		return strbuf_addstr(sb, "0");
	}
	if (ends_with(path, "/trace_clock")) {
		ret = tfs_selected(strbuf_str(sb), &sel);
		strbuf_reset(sb);
		if (!ret)
			ret = strbuf_addstr(sb, sel.buf);
		strbuf_release(&sel);
		return ret;
	}
	/* "7 (expanded: 1408)": the buffer is not allocated yet; 1408 is its configured size. */
	exp = strstr(strbuf_str(sb), "(expanded: ");
	if (ends_with(path, "buffer_size_kb") && exp) {
		long kb = strtol(exp + 11, NULL, 10);

		strbuf_reset(sb);
		return strbuf_addf(sb, "%ld", kb);
	}
	/* The function tracer's pid files read "no pid" when empty, which they do not take back. */
	if (ends_with(path, "_pid") && !strncmp(strbuf_str(sb), "no pid", 6)) {
		strbuf_reset(sb);
		return 0;
	}
	/* Function filter files list "#### all functions enabled ####" when empty. */
	if (sb->len && sb->buf[0] == '#')
		strbuf_reset(sb);
	return 0;
}

static bool already_saved(const struct tfs_undo *undo, const char *path)
{
	int i;

	for (i = 0; i < undo->nr; i++)
		if (undo->entries[i].kind == UNDO_WRITE && !strcmp(undo->entries[i].path, path))
			return true;
	return false;
}

int tfs_undo_save_file(struct tfs_undo *undo, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	if (already_saved(undo, path))
		return 0;
	ret = tfs_read(path, &sb);
	if (!ret)
		ret = restore_text(path, &sb);
	if (!ret)
		ret = add_entry(undo, UNDO_WRITE, path, strbuf_str(&sb), sb.len);
	strbuf_release(&sb);
	return ret;
}

int tfs_undo_save_rmdir(struct tfs_undo *undo, const char *path)
{
	return add_entry(undo, UNDO_RMDIR, path, "", 0);
}

int tfs_undo_save_append(struct tfs_undo *undo, const char *path, const char *value)
{
	return add_entry(undo, UNDO_APPEND, path, value, strlen(value));
}

static int restore_entry(const struct undo_entry *e)
{
	switch (e->kind) {
	case UNDO_WRITE:
		return tfs_write(e->path, e->value, e->len, true);
	case UNDO_APPEND:
		return tfs_write(e->path, e->value, e->len, false);
	case UNDO_RMDIR:
		return rmdir(e->path) && errno != ENOENT ? -errno : 0;
	}
	return -EINVAL;
}

static void journal_close(struct tfs_undo *undo)
{
	if (undo->journal_fd >= 0)
		close(undo->journal_fd);
	undo->journal_fd = -1;
	if (undo->journal_path[0])
		unlink(undo->journal_path);
	undo->journal_path[0] = '\0';
}

int tfs_undo_restore(struct tfs_undo *undo)
{
	int i, ret, first_err = 0;

	if (!undo)
		return 0;
	undo->failed = -1;
	for (i = undo->nr - 1; i >= 0; i--) {
		struct undo_entry *e = &undo->entries[i];

		if (e->done)
			continue;
		e->done = true;
		ret = restore_entry(e);
		if (ret && !first_err) {
			first_err = ret;
			undo->failed = i;
		}
	}
	journal_close(undo);
	return first_err;
}

const char *tfs_undo_failed_path(const struct tfs_undo *undo)
{
	return undo && undo->failed >= 0 && undo->failed < undo->nr ?
	       undo->entries[undo->failed].path : NULL;
}

void tfs_undo_keep(struct tfs_undo *undo)
{
	int i;

	if (!undo)
		return;
	for (i = 0; i < undo->nr; i++)
		undo->entries[i].done = true;
	journal_close(undo);
}

static void free_entries(struct tfs_undo *undo)
{
	int i;

	for (i = 0; i < undo->nr; i++) {
		free(undo->entries[i].path);
		free(undo->entries[i].value);
	}
	free(undo->entries);
	undo->entries = NULL;
	undo->nr = 0;
}

void tfs_undo_free(struct tfs_undo *undo)
{
	if (!undo)
		return;
	free_entries(undo);
	/* Freeing without restoring keeps the journal: the changes are still in the kernel. */
	if (undo->journal_fd >= 0)
		close(undo->journal_fd);
	free(undo);
}

static int load_entry(struct tfs_undo *undo, char kind, const char *path, size_t plen,
		      const char *value, size_t vlen)
{
	char *p = strndup(path, plen);
	int ret;

	if (!p)
		return -ENOMEM;
	ret = add_entry(undo, kind, p, value, vlen);
	free(p);
	return ret;
}

/* Parses one journal into entries of a temporary undo list (no journal of its own). */
static int journal_load(const char *path, struct tfs_undo *undo)
{
	struct strbuf sb = STRBUF_INIT;
	size_t pos = 0;
	int ret;

	ret = tfs_read(path, &sb);
	while (!ret && pos < sb.len) {
		size_t plen, vlen;
		char kind, *nl;

		nl = memchr(sb.buf + pos, '\n', sb.len - pos);
		if (!nl || sscanf(sb.buf + pos, "%c %zu %zu", &kind, &plen, &vlen) != 3)
			break;
		pos = (size_t)(nl - sb.buf) + 1;
		if (pos + plen + vlen + 1 > sb.len)
			break;
		ret = load_entry(undo, kind, sb.buf + pos, plen, sb.buf + pos + plen, vlen);
		pos += plen + vlen + 1;
	}
	strbuf_release(&sb);
	return ret;
}

/* A reset to defaults still removes the instances a killed ktrace had created. */
static void only_rmdir(struct tfs_undo *undo)
{
	int i;

	for (i = 0; i < undo->nr; i++)
		undo->entries[i].done = undo->entries[i].kind != UNDO_RMDIR;
}

static int replay_one(const char *dir, const char *name, FILE *log, bool apply)
{
	struct tfs_undo undo = { .journal_fd = -1 };
	struct strbuf path = STRBUF_INIT;
	int pid, ret;

	if (sscanf(name, "undo-%d", &pid) != 1 || pid <= 0)
		return 0;
	/* A live owner will undo its own changes. */
	if (pid == getpid() || !kill(pid, 0) || errno == EPERM)
		return 0;
	ret = strbuf_addf(&path, "%s/%s", dir, name);
	if (!ret)
		ret = journal_load(path.buf, &undo);
	if (!ret && !apply)
		only_rmdir(&undo);
	if (!ret) {
		/* A setting that cannot be put back is reported; the others still are. */
		int err = tfs_undo_restore(&undo);

		if (log)
			fprintf(log, "restored %d setting(s) left by ktrace pid %d%s\n", undo.nr, pid,
				err ? " (some failed)" : "");
		unlink(path.buf);
	}
	free_entries(&undo);
	strbuf_release(&path);
	return ret ? ret : 1;
}

int tfs_undo_replay_stale(FILE *log, bool apply)
{
	DIR *d = opendir(KT_UNDO_JOURNAL_DIR);
	struct dirent *de;
	int n = 0, ret;

	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while ((de = readdir(d))) {
		ret = replay_one(KT_UNDO_JOURNAL_DIR, de->d_name, log, apply);
		if (ret < 0) {
			closedir(d);
			return ret;
		}
		n += ret;
	}
	closedir(d);
	return n;
}
