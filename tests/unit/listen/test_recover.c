// SPDX-License-Identifier: GPL-2.0-only
/*
 * Recovery of what a listener killed mid-stream leaves in its output directory (recover.c),
 * with CPU files filled through chan_store as a session fills them.
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
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "ktrace/dat.h"
#include "ktrace/dat_format.h"
#include "ktrace/dat_writer.h"
#include "../ring_headers.h"
#include "listen.h"

#define PS 4096

static const char header_page[] = RING_HEADER_PAGE;
static const char header_event[] = RING_HEADER_EVENT;

/* A page with a valid empty-ish header: timestamp, commit = bytes used, then filler. */
static void make_page(char *page, int seed)
{
	uint64_t ts = 1000 + (uint64_t)seed, commit = 0;
	int i;

	memset(page, 0, PS);
	memcpy(page, &ts, 8);
	memcpy(page + 8, &commit, 8);
	for (i = 16; i < 64; i++)
		page[i] = (char)(seed * 7 + i);
}

/* Everything before the CPU data: the six metadata parts and the options. */
static void write_metadata(struct dat_writer *w)
{
	struct dat_blob hp = { header_page, sizeof(header_page) - 1 };
	struct dat_blob he = { header_event, sizeof(header_event) - 1 };
	struct dat_blob empty = { "", 0 };
	struct strbuf err = STRBUF_INIT;

	assert_int_equal(dat_writer_headers(w, &hp, &he, &err), 0);
	assert_int_equal(dat_writer_ftrace_formats(w, NULL, 0, &err), 0);
	assert_int_equal(dat_writer_event_formats(w, NULL, 0, &err), 0);
	assert_int_equal(dat_writer_kallsyms(w, &empty, &err), 0);
	assert_int_equal(dat_writer_printk(w, &empty, &err), 0);
	assert_int_equal(dat_writer_cmdlines(w, &empty, &err), 0);
	assert_int_equal(dat_writer_add_option(w, DAT_OPT_UNAME, "Linux test", 11), 0);
	assert_int_equal(dat_writer_add_option(w, DAT_OPT_TRACECLOCK, "[local] global\n", 16), 0);
	assert_int_equal(dat_writer_cpu_count(w, 2), 0);
	strbuf_release(&err);
}

static void expect_pages(struct dat_file *df, int buffer, int cpu_index, int nr, int seed)
{
	struct dat_page_stream *ps;
	struct strbuf err = STRBUF_INIT;
	char want[PS];
	const void *page;
	int i;

	assert_int_equal(dat_page_stream_open(df, buffer, cpu_index, &ps, &err), 0);
	for (i = 0; i < nr; i++) {
		assert_int_equal(dat_page_stream_next(ps, &page, &err), 1);
		make_page(want, seed + i);
		assert_memory_equal(page, want, PS);
	}
	assert_int_equal(dat_page_stream_next(ps, &page, &err), 0);
	dat_page_stream_close(ps);
	strbuf_release(&err);
}

static const struct dat_cpu *find_cpu(const struct dat_buffer *b, int cpu, int *index)
{
	int i;

	for (i = 0; i < b->nr_cpus; i++) {
		if (b->cpus[i].cpu == cpu) {
			*index = i;
			return &b->cpus[i];
		}
	}
	return NULL;
}

/* Pages seed.. into a listener's CPU file, through chan_store as a session stores them. */
static void store_pages(struct chan *c, struct server_ctx *srv, int nr, int seed, size_t torn)
{
	char page[PS];
	int i;

	for (i = 0; i < nr; i++) {
		make_page(page, seed + i);
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
	write_metadata(w);
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
	assert_non_null(find_cpu(dat_file_buffer(df, 0), 0, &idx));
	expect_pages(df, 0, idx, 23, 0);
	assert_non_null(find_cpu(dat_file_buffer(df, 0), 1, &idx));
	expect_pages(df, 0, idx, 5, 50);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_listener_recovery),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
