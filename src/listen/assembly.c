// SPDX-License-Identifier: GPL-2.0-only
/*
 * The final assembly of a session's file, crash-safe. The CPU data is appended to the ".part"
 * file (the metadata) in place and each CPU's file is emptied as it is copied, so that the
 * disk holds the trace about once and writes it once more. Beside them a journal,
 * ".BASE.HOST:PORT.dat.part.journal", says what the assembly was given (the metadata's scan,
 * each CPU's size and chunks, the incomplete note) and how far each CPU has been moved. The
 * order of writes keeps, at every instant, everything a resumed assembly needs:
 *   1. the journal is written whole under another name, flushed, renamed into place, and the
 *      directory flushed: before it exists nothing is changed (recover.c then recovers the
 *      files as from a listener stopped mid-recording);
 *   2. every step bytes of a CPU: the output is flushed, the CPU's mark in the journal (one
 *      64-byte slot, never across a disk sector) written and flushed, and only then is the
 *      moved range punched out of the CPU's file;
 *   3. once the output is whole and flushed: the CPU files are removed, the ".part" file takes
 *      its final name, then the journal goes.
 * A listener killed at any point leaves the ".part" file and its journal (or, after step 3's
 * rename, a journal alone, which is removed): the next one resumes from the marks and writes
 * the file the completed assembly would have written, byte for byte, under the same name.
 */
#define _FILE_OFFSET_BITS 64
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "listen.h"

#define JOURNAL_MAGIC		"KTLJRN1"
#define JOURNAL_SLOT		64
#define JOURNAL_MAX_CPUS	8192
#define DEFAULT_STEP		(64ULL << 20)

/* Written once, at offset 0, in the host's byte order (the journal never leaves the machine). */
struct journal_head {
	char magic[8];
	uint32_t head_size;	/* sizeof(struct journal_head): a layout check */
	uint32_t nr;
	uint64_t part_dev, part_ino;	/* the ".part" file it belongs to */
	uint64_t meta_size;
	struct dat_metadata m;
	uint32_t has_note;
	char note[ASSEMBLY_NOTE_MAX];
};

/* One per CPU, at head_slots() + JOURNAL_SLOT * cpu; rewritten at every mark. */
struct journal_slot {
	uint64_t size;
	uint32_t compressed;
	uint32_t nr_chunks;
	struct dat_append_mark mark;
};

_Static_assert(sizeof(struct journal_slot) <= JOURNAL_SLOT, "a slot fits its 64 bytes");

static off_t slot_at(uint32_t cpu)
{
	off_t head = (off_t)((sizeof(struct journal_head) + JOURNAL_SLOT - 1) / JOURNAL_SLOT *
			     JOURNAL_SLOT);

	return head + (off_t)JOURNAL_SLOT * cpu;
}

static void sibling(struct strbuf *sb, const char *part, const char *ext)
{
	strbuf_reset(sb);
	strbuf_addstr(sb, part);
	strbuf_addstr(sb, ext);
}

static int write_at(int fd, const void *buf, size_t n, off_t off)
{
	ssize_t w = pwrite(fd, buf, n, off);

	return w == (ssize_t)n ? 0 : w < 0 ? -errno : -EIO;
}

/* The whole 64 bytes: a journal's size tells that its last slot was written. */
static int write_slot(struct assembly *a, uint32_t cpu)
{
	union {
		struct journal_slot sl;
		char bytes[JOURNAL_SLOT];
	} u = { .bytes = { 0 } };

	u.sl = (struct journal_slot){
		.size = a->cpus[cpu].size,
		.compressed = (uint32_t)a->cpus[cpu].compressed,
		.nr_chunks = a->cpus[cpu].nr_chunks,
		.mark = a->marks[cpu],
	};
	return write_at(a->jfd, u.bytes, sizeof(u.bytes), slot_at(cpu));
}

/* The test hook (listen.h): stops the process at point `stop_at`, for a test to kill it there. */
static void stop_point(struct assembly *a, const char *what)
{
	if (a->stop_at < 0 || a->point++ != (unsigned long)a->stop_at)
		return;
	listen_logf(a->log, "%s: assembly stopped at point %ld (%s) for a test", a->part,
		    a->stop_at, what);
	raise(SIGSTOP);
}

void assembly_hook_from_env(struct assembly *a)
{
	const char *stop = getenv("KTRACE_LISTEN_ASSEMBLY_STOP");
	const char *step = getenv("KTRACE_LISTEN_ASSEMBLY_STEP");

	a->stop_at = stop && *stop ? strtol(stop, NULL, 10) : -1;
	if (step && *step && strtoull(step, NULL, 10))
		a->step = strtoull(step, NULL, 10);
}

int assembly_init(struct assembly *a, int dir, const char *part, int out, uint32_t nr)
{
	*a = (struct assembly){ .dir = dir, .part = part, .out = out, .nr = nr, .jfd = -1,
				.stop_at = -1, .step = DEFAULT_STEP };
	a->cpus = calloc(nr ? nr : 1, sizeof(*a->cpus));
	a->marks = calloc(nr ? nr : 1, sizeof(*a->marks));
	return a->cpus && a->marks ? 0 : -ENOMEM;
}

int assembly_begin(struct assembly *a)
{
	struct strbuf name = STRBUF_INIT, tmp = STRBUF_INIT;
	struct journal_head h;
	struct stat st;
	uint32_t i;
	int ret = 0;

	if (a->note && strlen(a->note) >= sizeof(h.note))
		return -ENAMETOOLONG;
	if (a->nr > JOURNAL_MAX_CPUS)
		return -E2BIG;
	if (fstat(a->out, &st))
		return -errno;
	memset(&h, 0, sizeof(h));
	memcpy(h.magic, JOURNAL_MAGIC, sizeof(h.magic));
	h.head_size = sizeof(h);
	h.nr = a->nr;
	h.part_dev = (uint64_t)st.st_dev;
	h.part_ino = (uint64_t)st.st_ino;
	h.meta_size = a->meta_size;
	h.m = a->m;
	h.has_note = !!a->note;
	if (a->note)
		strcpy(h.note, a->note);
	sibling(&name, a->part, LISTEN_JOURNAL_SUFFIX);
	sibling(&tmp, a->part, LISTEN_JOURNAL_SUFFIX ".new");
	a->jfd = openat(a->dir, strbuf_str(&tmp), O_CREAT | O_TRUNC | O_RDWR | O_CLOEXEC |
			O_NOFOLLOW, 0644);
	if (a->jfd < 0)
		ret = -errno;
	if (!ret)
		ret = write_at(a->jfd, &h, sizeof(h), 0);
	for (i = 0; !ret && i < a->nr; i++)
		ret = write_slot(a, i);
	if (!ret && fdatasync(a->jfd))
		ret = -errno;
	if (!ret && renameat(a->dir, strbuf_str(&tmp), a->dir, strbuf_str(&name)))
		ret = -errno;
	/* The journal's name must be on disk before any CPU data is punched out. */
	if (!ret && fsync(a->dir))
		ret = -errno;
	if (ret)
		unlinkat(a->dir, strbuf_str(&tmp), 0);
	strbuf_release(&name);
	strbuf_release(&tmp);
	return ret;
}

/* -ESTALE: the journal of an earlier file of that name (its removal was missed). */
static int read_head(struct assembly *a, int out, struct journal_head *h)
{
	struct stat st, part;
	ssize_t n = pread(a->jfd, h, sizeof(*h), 0);

	if (n != (ssize_t)sizeof(*h) || memcmp(h->magic, JOURNAL_MAGIC, sizeof(h->magic)) ||
	    h->head_size != sizeof(*h) || h->nr > JOURNAL_MAX_CPUS ||
	    h->note[sizeof(h->note) - 1] || fstat(a->jfd, &st) ||
	    (uint64_t)st.st_size < (uint64_t)slot_at(h->nr))
		return -EBADMSG;
	if (fstat(out, &part))
		return -errno;
	if (h->part_dev != (uint64_t)part.st_dev || h->part_ino != (uint64_t)part.st_ino)
		return -ESTALE;
	return 0;
}

/* A CPU still to move needs its file; one moved whole may be gone already (step 3). */
static int open_cpu(struct assembly *a, uint32_t i, struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT;
	struct stat st;
	int ret = 0;

	strbuf_addf(&sb, "%s" LISTEN_CPU_SUFFIX "%u", a->part, i);
	a->cpus[i].fd = -1;
	if (a->marks[i].moved < a->cpus[i].size) {
		a->cpus[i].fd = openat(a->dir, strbuf_str(&sb), O_RDWR | O_CLOEXEC | O_NOFOLLOW);
		if (a->cpus[i].fd < 0 || fstat(a->cpus[i].fd, &st))
			ret = -errno;
		else if ((uint64_t)st.st_size < a->cpus[i].size)
			ret = -EIO;
		if (ret)
			strbuf_addf(err, "%s: %s", strbuf_str(&sb),
				    ret == -EIO ? "shorter than the journal says" :
				    strerror(-ret));
	}
	strbuf_release(&sb);
	return ret;
}

int assembly_resume_open(struct assembly *a, int dir, const char *part, int out,
			 struct strbuf *err)
{
	struct strbuf name = STRBUF_INIT;
	struct journal_head h;
	struct journal_slot sl;
	uint32_t i;
	int jfd, ret;

	*a = (struct assembly){ .jfd = -1, .part = part, .dir = dir, .stop_at = -1 };
	sibling(&name, part, LISTEN_JOURNAL_SUFFIX ".new");
	unlinkat(dir, strbuf_str(&name), 0);	/* step 1 not done: nothing was changed */
	sibling(&name, part, LISTEN_JOURNAL_SUFFIX);
	jfd = openat(dir, strbuf_str(&name), O_RDWR | O_CLOEXEC | O_NOFOLLOW);
	if (jfd < 0) {
		strbuf_release(&name);
		return -errno;
	}
	a->jfd = jfd;
	ret = read_head(a, out, &h);
	if (ret == -ESTALE) {
		unlinkat(dir, strbuf_str(&name), 0);
		strbuf_release(&name);
		close(jfd);
		a->jfd = -1;
		return -ENOENT;
	}
	strbuf_release(&name);
	if (!ret) {
		ret = assembly_init(a, dir, part, out, h.nr);
		a->jfd = jfd;
		a->owns_fds = 1;
	}
	if (ret) {
		strbuf_addf(err, "its assembly journal: %s", ret == -EBADMSG ? "unreadable" :
			    strerror(-ret));
		return ret;
	}
	a->meta_size = h.meta_size;
	a->m = h.m;
	if (h.has_note) {
		memcpy(a->note_buf, h.note, sizeof(a->note_buf));
		a->note = a->note_buf;
	}
	for (i = 0; i < a->nr; i++)
		a->cpus[i].fd = -1;
	for (i = 0; !ret && i < a->nr; i++) {
		if (pread(jfd, &sl, sizeof(sl), slot_at(i)) != (ssize_t)sizeof(sl)) {
			strbuf_addf(err, "its assembly journal: CPU %u unreadable", i);
			ret = -EBADMSG;
			break;
		}
		a->cpus[i].size = sl.size;
		a->cpus[i].compressed = (int)sl.compressed;
		a->cpus[i].nr_chunks = sl.nr_chunks;
		a->marks[i] = sl.mark;
		ret = open_cpu(a, i, err);
	}
	return ret;
}

static int record(void *ctx, unsigned int cpu, const struct dat_append_mark *mark)
{
	struct assembly *a = ctx;
	char what[128];
	int ret;

	ret = write_slot(a, cpu);	/* mark is a->marks[cpu] */
	if (!ret && fdatasync(a->jfd))
		ret = -errno;
	if (!ret && a->stop_at >= 0) {
		snprintf(what, sizeof(what), "CPU %u: %llu of %llu bytes moved, not yet released",
			 cpu, (unsigned long long)mark->moved,
			 (unsigned long long)a->cpus[cpu].size);
		stop_point(a, what);
	}
	return ret;
}

int64_t assembly_run(struct assembly *a, struct strbuf *err)
{
	struct dat_append_journal j = { .marks = a->marks, .step = a->step, .record = record,
					.ctx = a };
	int64_t size;

	stop_point(a, "journal written, nothing appended");
	size = dat_append_cpu_data_journaled(a->out, a->meta_size, &a->m, a->cpus, a->nr,
					     a->note, &j, err);
	/* A resumed run ends where the first would have: nothing of it lies beyond. */
	if (size >= 0 && (ftruncate(a->out, (off_t)size) || fsync(a->out)))
		size = -errno;
	return size;
}

#define ASSEMBLY_MAX_SUFFIX 1000

/* rename() without replacing; link + unlink where the file system lacks RENAME_NOREPLACE. */
static int rename_noreplace(int dir, const char *from, const char *to)
{
	if (!renameat2(dir, from, dir, to, RENAME_NOREPLACE))
		return 0;
	if (errno != EINVAL && errno != ENOSYS)
		return -errno;
	if (linkat(dir, from, dir, to, 0))
		return -errno;
	return unlinkat(dir, from, 0) ? -errno : 0;
}

/* "X.dat", else "X.2.dat", "X.3.dat"...; `name` ends as the one taken. */
static int rename_to_free_name(int dir, const char *from, struct strbuf *name)
{
	struct strbuf want = STRBUF_INIT;
	size_t stem;
	int i, ret = -EEXIST;

	if (strbuf_addstr(&want, strbuf_str(name)))
		return -ENOMEM;
	stem = want.len > 4 && !strcmp(want.buf + want.len - 4, ".dat") ? want.len - 4 : want.len;
	for (i = 1; ret == -EEXIST && i <= ASSEMBLY_MAX_SUFFIX; i++) {
		strbuf_reset(name);
		strbuf_add(name, want.buf, stem);
		if (i > 1)
			strbuf_addf(name, ".%d", i);
		strbuf_addstr(name, want.buf + stem);
		ret = rename_noreplace(dir, from, strbuf_str(name));
	}
	strbuf_release(&want);
	return ret;
}

int assembly_publish(struct assembly *a, struct strbuf *name)
{
	struct strbuf sb = STRBUF_INIT;
	uint32_t i;
	int ret = 0;

	stop_point(a, "file whole, not yet renamed");
	for (i = 0; i < a->nr; i++) {
		sibling(&sb, a->part, "");
		strbuf_addf(&sb, LISTEN_CPU_SUFFIX "%u", i);
		unlinkat(a->dir, strbuf_str(&sb), 0);
		strbuf_addstr(&sb, ".z");
		unlinkat(a->dir, strbuf_str(&sb), 0);
	}
	ret = rename_to_free_name(a->dir, a->part, name);
	if (!ret)
		assembly_discard(a);
	strbuf_release(&sb);
	return ret;
}

void assembly_discard(struct assembly *a)
{
	struct strbuf sb = STRBUF_INIT;

	sibling(&sb, a->part, LISTEN_JOURNAL_SUFFIX);
	unlinkat(a->dir, strbuf_str(&sb), 0);
	strbuf_release(&sb);
}

void assembly_release(struct assembly *a)
{
	uint32_t i;

	for (i = 0; a->owns_fds && a->cpus && i < a->nr; i++)
		if (a->cpus[i].fd >= 0)
			close(a->cpus[i].fd);
	if (a->jfd >= 0)
		close(a->jfd);
	free(a->cpus);
	free(a->marks);
	a->cpus = NULL;
	a->marks = NULL;
	a->jfd = -1;
}
