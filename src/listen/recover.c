// SPDX-License-Identifier: GPL-2.0-only
/*
 * What a listener killed mid-stream (SIGKILL, a crash, the machine going down) leaves in its
 * output directory, turned back into a file a user can read. A session's ".part" file holds
 * the metadata and each CPU's pages have their own file beside it (session.c); here they
 * become BASE.HOST:PORT.incomplete.dat, assembled as for a complete session with every whole
 * page received, and marked incomplete inside (DAT_OPT_KTRACE_INCOMPLETE) so that `ktrace
 * report` says so. A ".part" file another live listener has locked is left alone. One killed
 * while it assembled the final file has a journal (assembly.c): that assembly is completed
 * instead, into the file the session would have written.
 */
#define _FILE_OFFSET_BITS 64
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ktrace/compress.h"
#include "ktrace/dat_chunk.h"
#include "listen.h"

#define MAX_SUFFIX		1000

static const char incomplete_note[] =
	"ktrace listen was stopped mid-recording; recovered at its next start with the pages "
	"received until then";

/* One line on stderr, where the user starting the listener sees it, and one in the log. */
static void say(struct listen_log *log, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void say(struct listen_log *log, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	fprintf(stderr, "ktrace listen: %s\n", strbuf_str(&sb));
	if (log->fp && log->fp != stderr)
		listen_logf(log, "%s", strbuf_str(&sb));
	strbuf_release(&sb);
}

static int ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), t = strlen(tail);

	return n > t && !strcmp(s + n - t, tail);
}

static void cpu_name(struct strbuf *sb, const char *part, uint32_t cpu)
{
	strbuf_reset(sb);
	strbuf_addf(sb, "%s" LISTEN_CPU_SUFFIX "%u", part, cpu);
}

struct leftover {
	int dir;
	const char *part;
	int fd;
	uint64_t size;
	struct dat_metadata m;
	struct dat_append_cpu *blobs;
	uint32_t nr;
	uint64_t pages;
};

/*
 * chan_store.c's layout with compression: whole chunks, then raw bytes shorter than a chunk;
 * or, once a recovery closed it, whole chunks and a shorter last one. A torn chunk (the
 * listener killed while writing it) ends short of its size and the file: it ends the walk.
 * The first chunk must decompress, so that raw pages (written before compression started)
 * that happen to look like a header are not taken for one. Returns the chunks' end; *n their
 * count, *raw the bytes they hold.
 */
static uint64_t walk_chunks(int fd, uint64_t size, const struct dat_metadata *m,
			    enum kt_compression c, uint32_t *n, uint64_t *raw)
{
	size_t chunk = (size_t)m->page_size * DAT_CHUNK_PAGES, cap = kt_compress_bound(c, chunk);
	uint8_t hdr[DAT_CHUNK_HEADER_SIZE], *in = malloc(cap), *out = malloc(chunk);
	uint64_t pos = 0;
	uint32_t clen, len;

	*n = 0;
	*raw = 0;
	while (in && out && size - pos >= sizeof(hdr) &&
	       pread(fd, hdr, sizeof(hdr), (off_t)pos) == (ssize_t)sizeof(hdr)) {
		dat_chunk_header_get(hdr, &clen, &len, m->big_endian);
		if (clen > cap || clen > size - pos - sizeof(hdr))
			break;
		if (len != chunk && !(len && len < chunk && len % m->page_size == 0 &&
				      pos + sizeof(hdr) + clen == size))
			break;
		if (!pos && (pread(fd, in, clen, sizeof(hdr)) != (ssize_t)clen ||
			     kt_decompress(c, in, clen, out, len)))
			break;
		pos += sizeof(hdr) + clen;
		*raw += len;
		(*n)++;
	}
	free(in);
	free(out);
	return pos;
}

/* The raw tail's whole pages become a last chunk, as chan_finish() makes it. */
static int close_chunks(int fd, uint64_t start, uint64_t tail, const struct dat_metadata *m,
			enum kt_compression c, struct dat_append_cpu *b)
{
	size_t clen = kt_compress_bound(c, (size_t)tail), n = DAT_CHUNK_HEADER_SIZE + clen;
	uint8_t *raw = malloc(tail ? tail : 1), *out = malloc(n);
	int ret = raw && out ? 0 : -ENOMEM;

	if (!ret && tail && pread(fd, raw, tail, (off_t)start) != (ssize_t)tail)
		ret = -EIO;
	if (!ret && tail)
		ret = kt_compress(c, raw, (size_t)tail, out + DAT_CHUNK_HEADER_SIZE, &clen);
	/* The raw bytes go before the chunk comes: killed in between, no half chunk is left. */
	if (!ret && ftruncate(fd, (off_t)start))
		ret = -errno;
	if (!ret && tail) {
		dat_chunk_header_put(out, (uint32_t)clen, (uint32_t)tail, m->big_endian);
		n = DAT_CHUNK_HEADER_SIZE + clen;
		if (pwrite(fd, out, n, (off_t)start) != (ssize_t)n)
			ret = -EIO;
		b->nr_chunks++;
		start += n;
	}
	free(raw);
	free(out);
	b->size = start;
	return ret;
}

/* One CPU's file for dat_append_cpu_data(): raw whole pages, or chunks. */
static int cpu_data(struct leftover *l, int fd, struct dat_append_cpu *b)
{
	enum kt_compression c = KT_COMP_NONE;
	struct stat st;
	uint64_t end, tail, raw;

	b->fd = fd;
	b->keep = 1;
	if (fstat(fd, &st))
		return -errno;
	if (l->m.version >= 7 && !kt_compression_from_name(l->m.compression, &c) &&
	    c != KT_COMP_NONE) {
		end = walk_chunks(fd, (uint64_t)st.st_size, &l->m, c, &b->nr_chunks, &raw);
		tail = (uint64_t)st.st_size - end;
		/* Raw pages only (the metadata came last), or chunks then a short raw tail. */
		if (b->nr_chunks && tail < (uint64_t)l->m.page_size * DAT_CHUNK_PAGES) {
			tail -= tail % l->m.page_size;
			l->pages += (raw + tail) / l->m.page_size;
			b->compressed = 1;
			return close_chunks(fd, end, tail, &l->m, c, b);
		}
		b->nr_chunks = 0;
	}
	b->size = (uint64_t)st.st_size - (uint64_t)st.st_size % l->m.page_size;
	l->pages += b->size / l->m.page_size;
	return 0;
}

/* The metadata's CPU count, or for a v1 client (which sends none) the CPU files there are. */
static uint32_t count_cpus(const struct leftover *l)
{
	struct strbuf sb = STRBUF_INIT;
	uint32_t n = 0;

	if (l->m.cpus)
		return l->m.cpus;
	for (;; n++) {
		cpu_name(&sb, l->part, n);
		if (faccessat(l->dir, strbuf_str(&sb), F_OK, AT_SYMLINK_NOFOLLOW))
			break;
	}
	strbuf_release(&sb);
	return n;
}

static int open_blobs(struct leftover *l)
{
	struct strbuf sb = STRBUF_INIT;
	uint32_t i;
	int fd, ret = 0;

	l->nr = count_cpus(l);
	l->blobs = calloc(l->nr ? l->nr : 1, sizeof(*l->blobs));
	if (!l->blobs)
		return -ENOMEM;
	for (i = 0; i < l->nr; i++)
		l->blobs[i].fd = -1;
	for (i = 0; !ret && i < l->nr; i++) {
		cpu_name(&sb, l->part, i);
		fd = openat(l->dir, strbuf_str(&sb), O_RDWR | O_CLOEXEC | O_NOFOLLOW);
		/* A CPU whose file was never made (killed during setup) had nothing to give. */
		if (fd >= 0)
			ret = cpu_data(l, fd, &l->blobs[i]);
		else if (errno != ENOENT)
			ret = -errno;
	}
	strbuf_release(&sb);
	return ret;
}

/* Removes the CPU files of part, and their half-built compressed copies. */
static void remove_cpu_files(int dir, const char *part, uint32_t nr)
{
	struct strbuf sb = STRBUF_INIT;
	uint32_t i;

	for (i = 0; i < nr; i++) {
		cpu_name(&sb, part, i);
		unlinkat(dir, strbuf_str(&sb), 0);
		strbuf_addstr(&sb, ".z");
		unlinkat(dir, strbuf_str(&sb), 0);
	}
	strbuf_release(&sb);
}

/* ".BASE.HOST:PORT.dat.part" + ext, without the leading dot when visible */
static void sibling(struct strbuf *sb, const char *part, int visible, const char *ext)
{
	size_t skip = visible ? 1 : 0;

	strbuf_reset(sb);
	strbuf_add(sb, part + skip, strlen(part) - skip - strlen(LISTEN_PART_SUFFIX));
	strbuf_addstr(sb, ext);
}

/* "BASE.HOST:PORT.incomplete.dat", else .incomplete.2.dat...: never over an existing file. */
static int publish(struct leftover *l, const char *from, struct strbuf *name)
{
	char ext[48];
	int i, ret = -EEXIST;

	for (i = 1; ret == -EEXIST && i <= MAX_SUFFIX; i++) {
		if (i > 1)
			snprintf(ext, sizeof(ext), LISTEN_INCOMPLETE_SUFFIX ".%d.dat", i);
		else
			snprintf(ext, sizeof(ext), LISTEN_INCOMPLETE_SUFFIX ".dat");
		sibling(name, l->part, 1, ext);
		/* link() never replaces a file, as rename() would. */
		ret = linkat(l->dir, from, l->dir, strbuf_str(name), 0) ? -errno : 0;
	}
	return ret;
}

static int copy_meta(int from, int to, uint64_t size)
{
	loff_t in = 0, out = 0;
	ssize_t n;

	while ((uint64_t)in < size) {
		n = copy_file_range(from, &in, to, &out, (size_t)(size - (uint64_t)in), 0);
		if (n <= 0)
			return n ? -errno : -EIO;
	}
	return 0;
}

/*
 * Built in a new file, ".BASE.HOST:PORT.dat.recovering", from files it leaves as they were:
 * a recovery killed half way is done again at the next start.
 */
static int assemble_copy(struct leftover *l, const char *tmp, struct strbuf *err)
{
	int fd = openat(l->dir, tmp, O_CREAT | O_TRUNC | O_RDWR | O_CLOEXEC | O_NOFOLLOW, 0644);
	int64_t size;
	int ret = fd < 0 ? -errno : copy_meta(l->fd, fd, l->size);

	if (ret) {
		strbuf_addf(err, "writing %s: %s", tmp, strerror(-ret));
	} else {
		size = dat_append_cpu_data(fd, l->size, &l->m, l->blobs, l->nr, incomplete_note,
					   err);
		ret = size < 0 ? (int)size : 0;
		l->size = size < 0 ? l->size : (uint64_t)size;
	}
	if (!ret && fsync(fd)) {
		ret = -errno;
		strbuf_addf(err, "writing %s: %s", tmp, strerror(errno));
	}
	if (fd >= 0)
		close(fd);
	return ret;
}

static int recover(struct leftover *l, struct strbuf *name, struct strbuf *err)
{
	struct strbuf tmp = STRBUF_INIT;
	int ret = open_blobs(l);

	if (ret) {
		strbuf_addf(err, "reading its CPU data: %s", strerror(-ret));
		return ret;
	}
	sibling(&tmp, l->part, 0, LISTEN_RECOVERING_SUFFIX);
	ret = assemble_copy(l, strbuf_str(&tmp), err);
	if (!ret && (ret = publish(l, strbuf_str(&tmp), name)))
		strbuf_addf(err, "naming it: %s", strerror(-ret));
	unlinkat(l->dir, strbuf_str(&tmp), 0);
	strbuf_release(&tmp);
	return ret;
}

/* Locks name for ourselves: 0, -EBUSY when a live listener holds it, -ENOENT when gone. */
static int lock_leftover(int dir, const char *name, int *fd)
{
	struct stat a, b;

	*fd = openat(dir, name, O_RDWR | O_CLOEXEC | O_NOFOLLOW);
	if (*fd < 0)
		return -errno;
	if (flock(*fd, LOCK_EX | LOCK_NB)) {
		close(*fd);
		return errno == EWOULDBLOCK ? -EBUSY : -errno;
	}
	/* Another listener may have recovered it and a new session taken the name meanwhile. */
	if (fstat(*fd, &a) || fstatat(dir, name, &b, AT_SYMLINK_NOFOLLOW) ||
	    a.st_ino != b.st_ino || a.st_dev != b.st_dev) {
		close(*fd);
		return -ENOENT;
	}
	return 0;
}

static void release(struct leftover *l)
{
	uint32_t i;

	for (i = 0; l->blobs && i < l->nr; i++)
		if (l->blobs[i].fd >= 0)
			close(l->blobs[i].fd);
	free(l->blobs);
	close(l->fd);
}

/* A listener was killed during the final assembly: finish it from its journal. */
static int resume_assembly(int dir, const char *part, int fd, struct listen_log *log)
{
	struct strbuf err = STRBUF_INIT, name = STRBUF_INIT;
	struct assembly a;
	int64_t size = 0;
	int ret = assembly_resume_open(&a, dir, part, fd, &err);

	if (ret == -ENOENT && !err.len) {
		strbuf_release(&err);
		return ret;
	}
	a.log = log;
	assembly_hook_from_env(&a);
	if (!ret) {
		size = assembly_run(&a, &err);
		ret = size < 0 ? (int)size : 0;
	}
	sibling(&name, part, 1, a.note ? ".partial.dat" : ".dat");
	if (!ret && (ret = assembly_publish(&a, &name)))
		strbuf_addf(&err, "naming it: %s", strerror(-ret));
	if (ret)
		say(log, "could not complete %s, which a listener was assembling when it stopped: "
		    "%s; left as it is", part, err.len ? strbuf_str(&err) : strerror(-ret));
	else
		say(log, "completed %s, which a listener was assembling when it stopped, into %s "
		    "(%u CPUs, %lld bytes)", part, strbuf_str(&name), a.nr, (long long)size);
	assembly_release(&a);
	strbuf_release(&err);
	strbuf_release(&name);
	return ret;
}

int listen_recover_one(int dir_fd, const char *part, struct listen_log *log)
{
	struct leftover l = { .dir = dir_fd, .part = part };
	struct strbuf err = STRBUF_INIT, name = STRBUF_INIT;
	struct stat st;
	int ret = lock_leftover(dir_fd, part, &l.fd);

	if (ret)
		return ret == -ENOENT ? 0 : ret;
	ret = resume_assembly(dir_fd, part, l.fd, log);
	if (ret != -ENOENT) {
		close(l.fd);
		return ret;
	}
	ret = fstat(l.fd, &st) ? -errno : 0;
	l.size = (uint64_t)st.st_size;
	if (!ret && (ret = dat_metadata_scan(l.fd, l.size, &l.m, &err))) {
		/* Killed while the client was still sending its headers: no event can be read. */
		say(log, "removed %s, left by a listener stopped mid-recording: its metadata is "
		    "incomplete (%s), so none of its events can be read", part, strbuf_str(&err));
		remove_cpu_files(dir_fd, part, count_cpus(&l));
		unlinkat(dir_fd, part, 0);
		ret = 0;
	} else if (!ret && !(ret = recover(&l, &name, &err))) {
		say(log, "recovered %s, left by a listener stopped mid-recording, into %s "
		    "(%u CPUs, %llu pages, %llu bytes; marked incomplete)", part,
		    strbuf_str(&name), l.nr, (unsigned long long)l.pages,
		    (unsigned long long)l.size);
		remove_cpu_files(dir_fd, part, l.nr);
		unlinkat(dir_fd, part, 0);
	} else if (ret) {
		say(log, "could not recover %s, left by a listener stopped mid-recording: %s; "
		    "left as it is", part, err.len ? strbuf_str(&err) : strerror(-ret));
	}
	release(&l);
	strbuf_release(&err);
	strbuf_release(&name);
	return ret;
}

/* Killed while writing the final file: the CPU files were being emptied, nothing is left. */
static void remove_assembling(int dir, const char *name, struct listen_log *log)
{
	int fd;

	if (lock_leftover(dir, name, &fd))
		return;
	say(log, "removed %s: a listener was stopped while it wrote this file out, and its "
	    "events were lost with it", name);
	unlinkat(dir, name, 0);
	close(fd);
}

/*
 * A journal without its ".part" file: the assembly was done and the file renamed, only the
 * journal's removal was missed. A journal is made only while its ".part" file exists.
 */
static void remove_orphan_journal(int dir, const char *name)
{
	struct strbuf part = STRBUF_INIT;

	strbuf_add(&part, name, strlen(name) - strlen(LISTEN_JOURNAL_SUFFIX));
	if (faccessat(dir, strbuf_str(&part), F_OK, AT_SYMLINK_NOFOLLOW) && errno == ENOENT)
		unlinkat(dir, name, 0);
	strbuf_release(&part);
}

void listen_recover_dir(int dir_fd, struct listen_log *log)
{
	int fd = dup(dir_fd);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *e;

	if (!d) {
		if (fd >= 0)
			close(fd);
		say(log, "cannot look for files left by a stopped listener: %s", strerror(errno));
		return;
	}
	/* The dup shares dir_fd's position: a previous walk may have left it at the end. */
	rewinddir(d);
	while ((e = readdir(d))) {
		if (e->d_name[0] != '.')
			continue;
		if (ends_with(e->d_name, LISTEN_PART_SUFFIX))
			listen_recover_one(dir_fd, e->d_name, log);
		else if (ends_with(e->d_name, LISTEN_ASSEMBLING_SUFFIX))
			remove_assembling(dir_fd, e->d_name, log);
		else if (ends_with(e->d_name, LISTEN_PART_SUFFIX LISTEN_JOURNAL_SUFFIX))
			remove_orphan_journal(dir_fd, e->d_name);
	}
	closedir(d);
}
