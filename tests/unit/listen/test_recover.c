// SPDX-License-Identifier: GPL-2.0-only
/*
 * Recovery of what a listener killed mid-stream leaves in its output directory (recover.c),
 * with CPU files filled through chan_store as a session fills them; and of a final assembly
 * killed at each of its points (assembly.c): resumed, it writes the uninterrupted file.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/file.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <dirent.h>

#include "ktrace/dat.h"
#include "ktrace/dat_format.h"
#include "ktrace/dat_writer.h"
#include "../dat_pages.h"
#include "listen.h"

#define PS TEST_PAGE_SIZE

/* Pages seed.. into a listener's CPU file, through chan_store as a session stores them. */
static void store_pages(struct chan *c, struct server_ctx *srv, int nr, int seed, size_t torn)
{
	char page[PS];
	int i;

	for (i = 0; i < nr; i++) {
		test_page_fill(page, seed + i);
		assert_int_equal(chan_store(c, srv, page, PS), 0);
	}
	memset(page, 0x5a, sizeof(page));
	assert_int_equal(chan_store(c, srv, page, torn), 0);
}

static struct chan cpu_file(struct server_ctx *srv, const char *name)
{
	struct chan c = { .path = strdup(name) };

	c.tmp = chan_file_open(srv->dir_fd, c.path);
	assert_true(c.tmp >= 0);
	return c;
}

/*
 * What a listener killed mid-stream leaves: the metadata in a ".part", CPU 0 compressed as it
 * arrived (23 pages: 2 chunks, a raw tail and a torn page), CPU 1 raw (the metadata came after
 * its pages). Recovered into .incomplete.2.dat (the .incomplete.dat name is taken), with every
 * whole page, marked incomplete; a ".part" another listener holds is left alone; one whose
 * metadata was cut short (no event can be read) is removed with its CPU file.
 */
static void test_listener_recovery(void **state)
{
	struct dat_writer_config cfg = { .version = 7, .compression = KT_COMP_ZSTD,
					 .page_size = PS };
	char dir[] = "/tmp/ktrace-recover-XXXXXX", path[128];
	struct server_ctx srv = { .dir_fd = open(mkdtemp(dir), O_RDONLY | O_DIRECTORY) };
	struct listen_log log = { NULL };
	struct strbuf err = STRBUF_INIT;
	struct chan c0, c1;
	struct dat_writer *w;
	struct dat_file *df;
	struct stat st;
	int fd, busy, idx = -1;

	(void)state;
	fd = openat(srv.dir_fd, ".t.h:1.dat.part", O_CREAT | O_RDWR, 0644);
	assert_int_equal(dat_writer_open(fd, &cfg, &w, &err), 0);
	test_write_metadata(w, 2);
	assert_int_equal(dat_writer_metadata_end(w, &err), 0);
	dat_writer_free(w);
	close(fd);
	c0 = cpu_file(&srv, ".t.h:1.dat.part.cpu0");
	assert_int_equal(chan_compress_start(&c0, &srv, KT_COMP_ZSTD, PS, 0), 0);
	store_pages(&c0, &srv, 23, 0, 100);
	c1 = cpu_file(&srv, ".t.h:1.dat.part.cpu1");
	store_pages(&c1, &srv, 5, 50, 10);
	close(c0.tmp);
	close(c1.tmp);
	free(c0.path);
	free(c1.path);
	fd = openat(srv.dir_fd, "t.h:1.incomplete.dat", O_CREAT | O_RDWR, 0644);
	close(fd);
	busy = openat(srv.dir_fd, ".u.h:2.dat.part", O_CREAT | O_RDWR, 0644);
	assert_int_equal(flock(busy, LOCK_EX), 0);
	fd = openat(srv.dir_fd, ".v.h:3.dat.part", O_CREAT | O_RDWR, 0644);
	assert_int_equal(write(fd, "\027\010\104tra", 7), 7);
	close(fd);
	close(openat(srv.dir_fd, ".v.h:3.dat.part.cpu0", O_CREAT | O_RDWR, 0600));

	listen_recover_dir(srv.dir_fd, &log);

	assert_int_equal(fstatat(srv.dir_fd, "t.h:1.incomplete.dat", &st, 0), 0);
	assert_int_equal(st.st_size, 0);
	snprintf(path, sizeof(path), "%s/t.h:1.incomplete.2.dat", dir);
	if (dat_file_open(path, &df, &err))
		fail_msg("%s", strbuf_str(&err));
	assert_non_null(strstr(dat_file_incomplete(df), "stopped mid-recording"));
	idx = test_cpu_index(dat_file_buffer(df, 0), 0);
	assert_true(idx >= 0);
	test_expect_pages(df, 0, idx, 23, 0);
	idx = test_cpu_index(dat_file_buffer(df, 0), 1);
	assert_true(idx >= 0);
	test_expect_pages(df, 0, idx, 5, 50);
	dat_file_close(df);
	assert_int_equal(faccessat(srv.dir_fd, ".t.h:1.dat.part", F_OK, 0), -1);
	assert_int_equal(faccessat(srv.dir_fd, ".t.h:1.dat.part.cpu0", F_OK, 0), -1);
	assert_int_equal(faccessat(srv.dir_fd, ".t.h:1.dat.part.cpu1", F_OK, 0), -1);
	assert_int_equal(faccessat(srv.dir_fd, ".u.h:2.dat.part", F_OK, 0), 0);
	assert_int_equal(faccessat(srv.dir_fd, ".v.h:3.dat.part", F_OK, 0), -1);
	assert_int_equal(faccessat(srv.dir_fd, ".v.h:3.dat.part.cpu0", F_OK, 0), -1);
	assert_int_equal(listen_recover_one(srv.dir_fd, ".u.h:2.dat.part", &log), -EBUSY);
	close(busy);
	unlinkat(srv.dir_fd, ".u.h:2.dat.part", 0);
	unlinkat(srv.dir_fd, "t.h:1.incomplete.dat", 0);
	unlinkat(srv.dir_fd, "t.h:1.incomplete.2.dat", 0);
	close(srv.dir_fd);
	assert_int_equal(rmdir(dir), 0);
	server_ctx_release_codecs(&srv);
	strbuf_release(&err);
}

/*
 * A session at its end, as session.c leaves it before assembling: the metadata in
 * ".a.h:1.dat.part", CPU 0 compressed as it arrived (23 pages and a torn one) when v7
 * compresses, CPU 1 raw (47 pages: a v7 file compresses them while appending), CPU 2 empty.
 */
#define ASM_PART	".a.h:1.dat.part"
#define ASM_CPUS	3

static void make_session(struct server_ctx *srv, const struct dat_writer_config *cfg,
			 const char *note, struct assembly *a)
{
	struct strbuf err = STRBUF_INIT;
	struct chan c[ASM_CPUS];
	struct dat_writer *w;
	struct stat st;
	char name[64];
	int fd, i;

	fd = openat(srv->dir_fd, ASM_PART, O_CREAT | O_TRUNC | O_RDWR, 0644);
	assert_int_equal(dat_writer_open(fd, cfg, &w, &err), 0);
	test_write_metadata(w, ASM_CPUS);
	assert_int_equal(dat_writer_metadata_end(w, &err), 0);
	dat_writer_free(w);
	assert_int_equal(fstat(fd, &st), 0);
	assert_int_equal(assembly_init(a, srv->dir_fd, ASM_PART, fd, ASM_CPUS), 0);
	a->meta_size = (uint64_t)st.st_size;
	a->note = note;
	if (dat_metadata_scan(fd, a->meta_size, &a->m, &err))
		fail_msg("%s", strbuf_str(&err));
	for (i = 0; i < ASM_CPUS; i++) {
		snprintf(name, sizeof(name), ASM_PART ".cpu%d", i);
		c[i] = cpu_file(srv, name);
	}
	if (cfg->compression != KT_COMP_NONE)
		assert_int_equal(chan_compress_start(&c[0], srv, cfg->compression, PS, 0), 0);
	store_pages(&c[0], srv, 23, 0, 100);
	store_pages(&c[1], srv, 47, 100, 0);
	for (i = 0; i < ASM_CPUS; i++) {
		assert_true(chan_finish(&c[i], srv, PS, &a->cpus[i]) >= 0);
		free(c[i].path);
	}
	strbuf_release(&err);
}

static void drop_session(struct assembly *a)
{
	int i;

	for (i = 0; i < ASM_CPUS; i++)
		close(a->cpus[i].fd);
	close(a->out);
	assembly_release(a);
}

/* The whole assembly as a session runs it; stop_at >= 0: SIGSTOP at that point. */
static void assemble(struct assembly *a, long stop_at)
{
	struct listen_log log = { NULL };
	struct strbuf err = STRBUF_INIT, name = STRBUF_INIT;

	a->log = &log;
	a->stop_at = stop_at;
	a->step = 3 * PS;
	assert_int_equal(assembly_begin(a), 0);
	if (assembly_run(a, &err) < 0)
		fail_msg("%s", strbuf_str(&err));
	strbuf_addstr(&name, a->note ? "a.h:1.partial.dat" : "a.h:1.dat");
	assert_int_equal(assembly_publish(a, &name), 0);
	strbuf_release(&name);
	strbuf_release(&err);
}

static char *slurp(int dir, const char *name, size_t *len)
{
	struct stat st;
	char *buf;
	int fd = openat(dir, name, O_RDONLY);

	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &st), 0);
	*len = (size_t)st.st_size;
	buf = malloc(*len);
	assert_non_null(buf);
	assert_int_equal(pread(fd, buf, *len, 0), (ssize_t)*len);
	close(fd);
	return buf;
}

/* A recovery killed too, at its first point after the one it starts at (the hook's env). */
static void recovery_killed(int dir, struct listen_log *log)
{
	int status;
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (!pid) {
		setenv("KTRACE_LISTEN_ASSEMBLY_STOP", "1", 1);
		setenv("KTRACE_LISTEN_ASSEMBLY_STEP", "12288", 1);
		listen_recover_dir(dir, log);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, WUNTRACED), pid);
	if (WIFSTOPPED(status)) {
		kill(pid, SIGKILL);
		assert_int_equal(waitpid(pid, &status, 0), pid);
	}
}

/* Only name is left in dir. */
static void only_left(const char *dir, const char *name)
{
	struct dirent *e;
	DIR *d = opendir(dir);

	assert_non_null(d);
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			assert_string_equal(e->d_name, name);
	closedir(d);
}

/*
 * For v7 zstd (chunks made as data arrived, and raw pages compressed while appending), v7
 * uncompressed and v6, the first and last with an incomplete note (a .partial.dat): the
 * assembly is killed (SIGKILL while stopped by the hook) at each of its points in a child,
 * then the recovery is killed too, at its first point after where it resumed; the next
 * recovery writes, under the session's name, the file an uninterrupted assembly writes, byte
 * for byte, and leaves nothing else.
 */
static void test_assembly_killed_anywhere(void **state)
{
	static const char *const notes[] = { "the client vanished mid-recording", NULL, "x" };
	static const struct dat_writer_config cfgs[] = {
		{ .version = 7, .compression = KT_COMP_ZSTD, .page_size = PS },
		{ .version = 7, .compression = KT_COMP_NONE, .page_size = PS },
		{ .version = 6, .compression = KT_COMP_NONE, .page_size = PS },
	};
	char dir[] = "/tmp/ktrace-assembly-XXXXXX";
	struct server_ctx srv = { .dir_fd = open(mkdtemp(dir), O_RDONLY | O_DIRECTORY) };
	struct listen_log log = { NULL };
	struct assembly a;
	size_t ref_len, len, c;
	const char *out;
	char *ref, *got;
	long k;
	int status;
	pid_t pid;

	(void)state;
	for (c = 0; c < sizeof(cfgs) / sizeof(cfgs[0]); c++) {
		out = notes[c] ? "a.h:1.partial.dat" : "a.h:1.dat";
		make_session(&srv, &cfgs[c], notes[c], &a);
		assemble(&a, -1);
		drop_session(&a);
		ref = slurp(srv.dir_fd, out, &ref_len);
		only_left(dir, out);
		unlinkat(srv.dir_fd, out, 0);
		for (k = 0;; k++) {
			make_session(&srv, &cfgs[c], notes[c], &a);
			pid = fork();
			assert_true(pid >= 0);
			if (!pid) {
				assemble(&a, k);
				_exit(0);
			}
			assert_int_equal(waitpid(pid, &status, WUNTRACED), pid);
			if (WIFSTOPPED(status)) {
				kill(pid, SIGKILL);
				assert_int_equal(waitpid(pid, &status, 0), pid);
			}
			drop_session(&a);
			if (WIFEXITED(status)) {
				/* past the last point: assembled whole, in 3-page steps */
				assert_int_equal(WEXITSTATUS(status), 0);
				break;
			}
			assert_true(WIFSIGNALED(status));
			recovery_killed(srv.dir_fd, &log);
			listen_recover_dir(srv.dir_fd, &log);
			got = slurp(srv.dir_fd, out, &len);
			assert_int_equal(len, ref_len);
			if (memcmp(got, ref, len))
				fail_msg("config %zu, killed at point %ld: the file differs", c, k);
			free(got);
			only_left(dir, out);
			unlinkat(srv.dir_fd, out, 0);
		}
		/* journal, 23 + 47 pages in 3-page steps (or 10-page chunks), before the rename */
		assert_true(k >= 8);
		got = slurp(srv.dir_fd, out, &len);
		assert_int_equal(len, ref_len);
		assert_memory_equal(got, ref, len);
		free(got);
		free(ref);
		unlinkat(srv.dir_fd, out, 0);
	}
	close(srv.dir_fd);
	assert_int_equal(rmdir(dir), 0);
	server_ctx_release_codecs(&srv);
}

/*
 * A journal whose ".part" file is not the one it was made for (a new file took the name) is
 * not followed: the ".part" is recovered as one left mid-recording, the journal removed.
 */
static void test_stale_journal(void **state)
{
	static const struct dat_writer_config cfg = { .version = 6, .page_size = PS };
	char dir[] = "/tmp/ktrace-assembly-XXXXXX";
	struct server_ctx srv = { .dir_fd = open(mkdtemp(dir), O_RDONLY | O_DIRECTORY) };
	struct listen_log log = { NULL };
	struct assembly a;
	size_t len;
	char *meta;
	int fd;

	(void)state;
	make_session(&srv, &cfg, NULL, &a);
	assert_int_equal(assembly_begin(&a), 0);
	meta = slurp(srv.dir_fd, ASM_PART, &len);
	drop_session(&a);
	fd = openat(srv.dir_fd, ASM_PART ".new", O_CREAT | O_RDWR, 0644);
	assert_int_equal(write(fd, meta, len), (ssize_t)len);
	close(fd);
	assert_int_equal(renameat(srv.dir_fd, ASM_PART ".new", srv.dir_fd, ASM_PART), 0);
	free(meta);

	listen_recover_dir(srv.dir_fd, &log);

	only_left(dir, "a.h:1.incomplete.dat");
	unlinkat(srv.dir_fd, "a.h:1.incomplete.dat", 0);
	close(srv.dir_fd);
	assert_int_equal(rmdir(dir), 0);
	server_ctx_release_codecs(&srv);
}

/*
 * A client port the kernel hands out again gives a session the name of an earlier one: the
 * earlier file stays as it was, and the new one is "a.h:1.2.dat", then "a.h:1.3.dat".
 */
static void test_publish_never_replaces(void **state)
{
	static const struct dat_writer_config cfg = { .version = 6, .page_size = PS };
	char dir[] = "/tmp/ktrace-assembly-XXXXXX";
	struct server_ctx srv = { .dir_fd = open(mkdtemp(dir), O_RDONLY | O_DIRECTORY) };
	struct assembly a;
	size_t len;
	char *old;
	int fd, round;

	(void)state;
	fd = openat(srv.dir_fd, "a.h:1.dat", O_CREAT | O_WRONLY, 0644);
	assert_int_equal(write(fd, "earlier", 7), 7);
	close(fd);
	for (round = 2; round <= 3; round++) {
		char want[32];

		make_session(&srv, &cfg, NULL, &a);
		assemble(&a, -1);
		drop_session(&a);
		snprintf(want, sizeof(want), "a.h:1.%d.dat", round);
		assert_int_equal(faccessat(srv.dir_fd, want, F_OK, 0), 0);
	}
	old = slurp(srv.dir_fd, "a.h:1.dat", &len);
	assert_int_equal(len, 7);
	assert_memory_equal(old, "earlier", 7);
	free(old);
	unlinkat(srv.dir_fd, "a.h:1.dat", 0);
	unlinkat(srv.dir_fd, "a.h:1.2.dat", 0);
	unlinkat(srv.dir_fd, "a.h:1.3.dat", 0);
	close(srv.dir_fd);
	assert_int_equal(rmdir(dir), 0);
	server_ctx_release_codecs(&srv);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_publish_never_replaces),
		cmocka_unit_test(test_listener_recovery),
		cmocka_unit_test(test_assembly_killed_anywhere),
		cmocka_unit_test(test_stale_journal),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
