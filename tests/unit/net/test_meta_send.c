// SPDX-License-Identifier: GPL-2.0-only
/*
 * record -N's metadata as the listener takes it: the writer stops where the CPU data would start
 * (dat_writer_metadata_end), the listener's scan accepts that, its assembler appends per-CPU
 * pages, and ktrace's reader gets the pages back. v6, v7 uncompressed and v7 zstd.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#include "ktrace/dat.h"
#include "ktrace/dat_format.h"
#include "ktrace/dat_writer.h"
#include "listen.h"

#define PS 4096

static const char header_page[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n";

static int memfd(void)
{
	int fd = memfd_create("test_meta_send", 0);

	assert_true(fd >= 0);
	return fd;
}

static uint64_t write_meta(int fd, int version, enum kt_compression comp)
{
	struct dat_writer_config cfg = { .version = version, .compression = comp, .page_size = PS };
	struct dat_blob hp = { header_page, sizeof(header_page) - 1 };
	struct dat_blob empty = { "", 0 };
	struct strbuf err = STRBUF_INIT;
	struct dat_writer *w;

	assert_int_equal(dat_writer_open(fd, &cfg, &w, &err), 0);
	assert_int_equal(dat_writer_headers(w, &hp, &hp, &err), 0);
	assert_int_equal(dat_writer_ftrace_formats(w, NULL, 0, &err), 0);
	assert_int_equal(dat_writer_event_formats(w, NULL, 0, &err), 0);
	assert_int_equal(dat_writer_kallsyms(w, &empty, &err), 0);
	assert_int_equal(dat_writer_printk(w, &empty, &err), 0);
	assert_int_equal(dat_writer_cmdlines(w, &empty, &err), 0);
	assert_int_equal(dat_writer_add_option(w, DAT_OPT_TRACECLOCK, "[mono] local\n", 14), 0);
	assert_int_equal(dat_writer_cpu_count(w, 2), 0);
	assert_int_equal(dat_writer_metadata_end(w, &err), 0);
	dat_writer_free(w);
	strbuf_release(&err);
	return (uint64_t)lseek(fd, 0, SEEK_END);
}

static void make_page(char *page, int seed)
{
	uint64_t ts = 1000 + (uint64_t)seed;

	memset(page, 0, PS);
	memcpy(page, &ts, 8);
	memset(page + 16, seed, 32);
}

static void cpu_blob(struct cpu_blob *b, int nr, int seed)
{
	char page[PS];
	int i;

	memset(b, 0, sizeof(*b));
	b->fd = memfd();
	for (i = 0; i < nr; i++) {
		make_page(page, seed + i);
		assert_int_equal(write(b->fd, page, PS), PS);
	}
	b->size = (uint64_t)nr * PS;
}

static void expect_pages(struct dat_file *df, int cpu, int nr, int seed)
{
	struct strbuf err = STRBUF_INIT;
	struct dat_page_stream *ps;
	const void *page;
	char want[PS];
	int i;

	assert_int_equal(dat_page_stream_open(df, 0, cpu, &ps, &err), 0);
	for (i = 0; i < nr; i++) {
		assert_int_equal(dat_page_stream_next(ps, &page, &err), 1);
		make_page(want, seed + i);
		assert_memory_equal(page, want, PS);
	}
	assert_int_equal(dat_page_stream_next(ps, &page, &err), 0);
	dat_page_stream_close(ps);
	strbuf_release(&err);
}

static void round_trip(int version, enum kt_compression comp)
{
	struct strbuf err = STRBUF_INIT;
	struct cpu_blob cpus[2];
	struct dat_meta m;
	struct dat_file *df;
	char path[64];
	int fd = memfd();
	uint64_t size = write_meta(fd, version, comp);

	if (dat_meta_scan(fd, size, &m, &err))
		fail_msg("v%d: the listener refuses the metadata: %s", version, strbuf_str(&err));
	assert_int_equal(m.version, version);
	assert_int_equal(m.cpus, 2);
	assert_int_equal(m.page_size, PS);
	assert_string_equal(m.clock, "mono");
	cpu_blob(&cpus[0], 3, 1);
	cpu_blob(&cpus[1], 1, 50);
	assert_true(dat_assemble(fd, size, &m, cpus, 2, &err) > 0);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (dat_file_open(path, &df, &err))
		fail_msg("v%d: %s", version, strbuf_str(&err));
	assert_int_equal(dat_file_version(df), version);
	assert_int_equal(dat_file_compression(df), comp);
	assert_int_equal(dat_file_nr_buffers(df), 1);
	assert_string_equal(dat_file_buffer(df, 0)->clock, "mono");
	expect_pages(df, 0, 3, 1);
	expect_pages(df, 1, 1, 50);
	dat_file_close(df);
	close(cpus[0].fd);
	close(cpus[1].fd);
	close(fd);
	strbuf_release(&err);
}

static void test_v6(void **state)
{
	(void)state;
	round_trip(6, KT_COMP_NONE);
}

static void test_v7_none(void **state)
{
	(void)state;
	round_trip(7, KT_COMP_NONE);
}

static void test_v7_zstd(void **state)
{
	(void)state;
	round_trip(7, KT_COMP_ZSTD);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_v6),
		cmocka_unit_test(test_v7_none),
		cmocka_unit_test(test_v7_zstd),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
