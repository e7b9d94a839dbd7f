// SPDX-License-Identifier: GPL-2.0-only
/* The armed flight recorder's lock file (flight_lock.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ktrace/flight_lock.h"
#include "ktrace/tfs.h"

#define LOCK_PREFIX "flight"
#define LOCK_SUFFIX ".lock"

static void lock_path(struct strbuf *sb, const char *instance)
{
	strbuf_addf(sb, "%s/%s%s%s%s", KT_UNDO_JOURNAL_DIR, LOCK_PREFIX, instance ? "-" : "",
		    instance ? instance : "", LOCK_SUFFIX);
}

/* The file's first line; 0 when it has none. */
static pid_t read_holder(int fd, struct strbuf *last)
{
	char buf[4200];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
	char *nl;

	if (n <= 0)
		return 0;
	buf[n] = '\0';
	nl = strchr(buf, '\n');
	if (last && nl && nl[1])
		strbuf_add(last, nl + 1, strcspn(nl + 1, "\n"));
	return (pid_t)strtol(buf, NULL, 10);
}

/* A minimal system (an initramfs) may have no /run yet. */
static int make_dir(void)
{
	char parent[] = KT_UNDO_JOURNAL_DIR;

	if (!mkdir(KT_UNDO_JOURNAL_DIR, 0755) || errno == EEXIST)
		return 0;
	*strrchr(parent, '/') = '\0';
	if (errno != ENOENT || !parent[0] || (mkdir(parent, 0755) && errno != EEXIST))
		return -errno;
	return mkdir(KT_UNDO_JOURNAL_DIR, 0755) && errno != EEXIST ? -errno : 0;
}

int flight_lock_take(const char *instance, int *fd, pid_t *holder)
{
	struct strbuf path = STRBUF_INIT;
	int ret = 0;

	*holder = 0;
	ret = make_dir();
	if (ret)
		return ret;
	lock_path(&path, instance);
	*fd = open(strbuf_str(&path), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (*fd < 0)
		ret = -errno;
	if (!ret && flock(*fd, LOCK_EX | LOCK_NB)) {
		ret = errno == EWOULDBLOCK ? -EBUSY : -errno;
		*holder = read_holder(*fd, NULL);
		close(*fd);
		*fd = -1;
	}
	if (!ret)
		ret = flight_lock_note(*fd, NULL);
	strbuf_release(&path);
	return ret;
}

int flight_lock_note(int fd, const char *last)
{
	struct strbuf sb = STRBUF_INIT;
	int ret = 0;

	strbuf_addf(&sb, "%d\n%s%s", (int)getpid(), last ? last : "", last ? "\n" : "");
	if (ftruncate(fd, 0) || pwrite(fd, sb.buf, sb.len, 0) != (ssize_t)sb.len)
		ret = -errno;
	strbuf_release(&sb);
	return ret;
}

void flight_lock_drop(const char *instance, int fd)
{
	struct strbuf path = STRBUF_INIT;

	if (fd < 0)
		return;
	lock_path(&path, instance);
	/* removed while still held: a recorder arming now opens a new file, not this one */
	unlink(strbuf_str(&path));
	close(fd);
	strbuf_release(&path);
}

/* The holder of the lock file name in the journal dir, 0 when nobody holds it. */
static pid_t probe(const char *name, struct strbuf *last)
{
	struct strbuf path = STRBUF_INIT;
	pid_t pid = 0;
	int fd;

	strbuf_addf(&path, "%s/%s", KT_UNDO_JOURNAL_DIR, name);
	fd = open(strbuf_str(&path), O_RDONLY | O_CLOEXEC);
	if (fd >= 0 && flock(fd, LOCK_SH | LOCK_NB) && errno == EWOULDBLOCK)
		pid = read_holder(fd, last);
	if (fd >= 0)
		close(fd);
	strbuf_release(&path);
	return pid;
}

/* "flight-NAME.lock" -> NAME, "flight.lock" -> ""; false for another file. */
static bool lock_instance(const char *name, struct strbuf *inst)
{
	size_t len = strlen(name), pre = strlen(LOCK_PREFIX), suf = strlen(LOCK_SUFFIX);

	if (len < pre + suf || strncmp(name, LOCK_PREFIX, pre) ||
	    strcmp(name + len - suf, LOCK_SUFFIX))
		return false;
	if (len == pre + suf)
		return true;
	if (name[pre] != '-' || len == pre + suf + 1)
		return false;
	strbuf_add(inst, name + pre + 1, len - pre - suf - 1);
	return true;
}

static int find_any(pid_t *pid, struct strbuf *inst, struct strbuf *last)
{
	DIR *d = opendir(KT_UNDO_JOURNAL_DIR);
	struct dirent *de;
	int found = 0;

	if (!d)
		return errno == ENOENT ? -ENOENT : -errno;
	while ((de = readdir(d))) {
		struct strbuf name = STRBUF_INIT, l = STRBUF_INIT;
		pid_t p;

		if (!lock_instance(de->d_name, &name) || !(p = probe(de->d_name, &l))) {
			strbuf_release(&name);
			strbuf_release(&l);
			continue;
		}
		if (!found++) {
			*pid = p;
			strbuf_add(inst, name.buf ? name.buf : "", name.len);
			if (last)
				strbuf_add(last, l.buf ? l.buf : "", l.len);
		}
		strbuf_release(&name);
		strbuf_release(&l);
	}
	closedir(d);
	return found == 1 ? 0 : found ? -EEXIST : -ENOENT;
}

int flight_lock_find(const char *instance, bool any, pid_t *pid, struct strbuf *inst,
		     struct strbuf *last)
{
	struct strbuf path = STRBUF_INIT;
	const char *name;

	if (any && !instance)
		return find_any(pid, inst, last);
	lock_path(&path, instance);
	name = strrchr(strbuf_str(&path), '/') + 1;
	*pid = probe(name, last);
	strbuf_release(&path);
	if (instance)
		strbuf_addstr(inst, instance);
	return *pid ? 0 : -ENOENT;
}

int flight_lock_remove_stale(FILE *log)
{
	DIR *d = opendir(KT_UNDO_JOURNAL_DIR);
	struct dirent *de;
	int n = 0;

	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while ((de = readdir(d))) {
		struct strbuf inst = STRBUF_INIT, path = STRBUF_INIT;

		if (lock_instance(de->d_name, &inst) && !probe(de->d_name, NULL)) {
			strbuf_addf(&path, "%s/%s", KT_UNDO_JOURNAL_DIR, de->d_name);
			if (!unlink(strbuf_str(&path))) {
				n++;
				if (log)
					fprintf(log, "removed %s (a flight recorder that was "
						"killed)\n", strbuf_str(&path));
			}
		}
		strbuf_release(&inst);
		strbuf_release(&path);
	}
	closedir(d);
	return n;
}
