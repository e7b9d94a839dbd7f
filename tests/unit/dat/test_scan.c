// SPDX-License-Identifier: GPL-2.0-only
/*
 * dat_metadata_scan(): a trace.dat that stops where its CPU data starts, as the writer's
 * dat_writer_metadata_end() leaves it, is read whole; cut short anywhere, or with a size or
 * offset that lies, it is refused with a message naming the field and its offset, and never
 * read beyond the bytes it was given (the file goes on past them).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#include "ktrace/dat_append.h"
#include "ktrace/dat_format.h"
#include "ktrace/dat_writer.h"
#include "../ring_headers.h"

#define PS 4096

static const char header_page[] = RING_HEADER_PAGE;
static const char header_event[] = RING_HEADER_EVENT;

/* A metadata-only file in a memfd, then as many bytes of junk that must never be read. */
static int metadata_file(int version, enum kt_compression comp, uint64_t *size)
{
	struct dat_writer_config cfg = { .version = version, .compression = comp, .page_size = PS };
	struct dat_blob hp = { header_page, sizeof(header_page) - 1 };
	struct dat_blob he = { header_event, sizeof(header_event) - 1 };
	struct dat_blob fmt = { "name: x\nID: 1\nformat:\n", 23 };
	struct dat_event_system sys = { .name = "sched", .formats = &fmt, .nr_formats = 1 };
	struct dat_blob text = { "ffffffff81000000 T _stext\n", 26 };
	struct strbuf err = STRBUF_INIT;
	struct dat_writer *w;
	char junk[256];
	int fd = memfd_create("test_dat_scan", 0);

	assert_true(fd >= 0);
	assert_int_equal(dat_writer_open(fd, &cfg, &w, &err), 0);
	assert_int_equal(dat_writer_headers(w, &hp, &he, &err), 0);
	assert_int_equal(dat_writer_ftrace_formats(w, &fmt, 1, &err), 0);
	assert_int_equal(dat_writer_event_formats(w, &sys, 1, &err), 0);
	assert_int_equal(dat_writer_kallsyms(w, &text, &err), 0);
	assert_int_equal(dat_writer_printk(w, &text, &err), 0);
	assert_int_equal(dat_writer_cmdlines(w, &text, &err), 0);
	assert_int_equal(dat_writer_add_option(w, DAT_OPT_TRACECLOCK, "x86-tsc [mono] boot\n", 21),
			 0);
	assert_int_equal(dat_writer_cpu_count(w, 3), 0);
	assert_int_equal(dat_writer_metadata_end(w, &err), 0);
	dat_writer_free(w);
	strbuf_release(&err);
	*size = (uint64_t)lseek(fd, 0, SEEK_END);
	memset(junk, 0x7f, sizeof(junk));
	assert_int_equal(write(fd, junk, sizeof(junk)), (ssize_t)sizeof(junk));
	return fd;
}

static void expect_refused(int fd, uint64_t size, const char *what)
{
	struct strbuf err = STRBUF_INIT;
	struct dat_metadata m;
	int ret = dat_metadata_scan(fd, size, &m, &err);

	if (!ret)
		fail_msg("%llu bytes accepted", (unsigned long long)size);
	assert_true(ret < 0);
	if (!strstr(strbuf_str(&err), " at offset "))
		fail_msg("%llu bytes: no offset in '%s'", (unsigned long long)size,
			 strbuf_str(&err));
	if (what && !strstr(strbuf_str(&err), what))
		fail_msg("'%s' does not name %s", strbuf_str(&err), what);
	strbuf_release(&err);
}

static void scan_whole_and_cut(int version, enum kt_compression comp)
{
	struct strbuf err = STRBUF_INIT;
	struct dat_metadata m;
	uint64_t size, cut;
	int fd = metadata_file(version, comp, &size);

	if (dat_metadata_scan(fd, size, &m, &err))
		fail_msg("v%d: %s", version, strbuf_str(&err));
	assert_int_equal(m.version, version);
	assert_int_equal(m.page_size, PS);
	assert_int_equal(m.cpus, 3);
	assert_string_equal(m.clock, "mono");
	assert_int_equal(m.headers_only, 0);
	if (version == 7) {
		assert_string_equal(m.compression, kt_compression_name(comp));
		assert_true(m.options_next_at > 0 && m.options_next_at + 8 == size);
	}
	/* A v6 file may end after the printk formats (a v1 client's); nowhere else. */
	for (cut = 0; cut < size; cut++) {
		if (version == 6 && cut == m.headers_end)
			continue;
		expect_refused(fd, cut, NULL);
	}
	if (version == 6) {
		uint64_t end = m.headers_end;

		assert_int_equal(dat_metadata_scan(fd, end, &m, &err), 0);
		assert_int_equal(m.headers_only, 1);
	}
	close(fd);
	strbuf_release(&err);
}

static void test_v6(void **state)
{
	scan_whole_and_cut(6, KT_COMP_NONE);
}

static void test_v7(void **state)
{
	scan_whole_and_cut(7, KT_COMP_NONE);
}

static void test_v7_zstd(void **state)
{
	scan_whole_and_cut(7, KT_COMP_ZSTD);
}

static void patch(int fd, uint64_t off, const void *v, size_t len)
{
	assert_int_equal(pwrite(fd, v, len, (off_t)off), (ssize_t)len);
}

/* magic, "6\0", endianness and long size, page size, "header_page\0": its size field */
#define V6_HEADER_PAGE_SIZE_AT	(10 + 2 + 2 + 4 + 12)

static void test_v6_lying_size(void **state)
{
	uint64_t size, huge = UINT64_MAX - 4;
	int fd = metadata_file(6, KT_COMP_NONE, &size);

	patch(fd, V6_HEADER_PAGE_SIZE_AT, &huge, 8);
	expect_refused(fd, size, "header_page at offset 38");
	close(fd);
}

static void test_v7_lying_offsets(void **state)
{
	struct strbuf err = STRBUF_INIT;
	struct dat_metadata m;
	uint64_t size, first_at, first, huge = UINT64_MAX - 100, back = 3, opts;
	int fd = metadata_file(7, KT_COMP_NONE, &size);
	char hdr[64];

	/* magic, "7\0", endianness, long size, page size, "none\0", its version, then the link */
	assert_int_equal(pread(fd, hdr, sizeof(hdr), 0), (ssize_t)sizeof(hdr));
	first_at = 18 + strlen(hdr + 18) + 1;
	first_at += strlen(hdr + first_at) + 1;
	assert_int_equal(pread(fd, &first, 8, (off_t)first_at), 8);
	assert_int_equal(dat_metadata_scan(fd, size, &m, &err), 0);
	opts = m.options_next_at;

	patch(fd, first_at, &huge, 8);
	expect_refused(fd, size, "options offset");
	patch(fd, first_at, &back, 8);
	expect_refused(fd, size, "options offset");
	patch(fd, first_at, &first, 8);

	/* The writer makes one options section, which ends the metadata: its size lies. */
	assert_int_equal(opts, size - 8);
	patch(fd, first + 8, &huge, 8);
	expect_refused(fd, size, "options section size");
	huge = 1;
	patch(fd, first + 8, &huge, 8);
	expect_refused(fd, size, "option id at offset");
	close(fd);
	strbuf_release(&err);
}

/* Flipped bytes anywhere: accepted or refused with a message, never a read past the end. */
static void test_flipped_bytes(void **state)
{
	struct strbuf err = STRBUF_INIT;
	struct dat_metadata m;
	int version, ret;
	uint64_t size, off;

	for (version = 6; version <= 7; version++) {
		int fd = metadata_file(version, version == 7 ? KT_COMP_ZSTD : KT_COMP_NONE, &size);

		for (off = 0; off < size; off++) {
			uint8_t b, x;

			assert_int_equal(pread(fd, &b, 1, (off_t)off), 1);
			x = (uint8_t)(b ^ 0xa5);
			patch(fd, off, &x, 1);
			strbuf_reset(&err);
			ret = dat_metadata_scan(fd, size, &m, &err);
			assert_true(ret == 0 || (ret < 0 && err.len));
			patch(fd, off, &b, 1);
		}
		close(fd);
	}
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_v6),
		cmocka_unit_test(test_v7),
		cmocka_unit_test(test_v7_zstd),
		cmocka_unit_test(test_v6_lying_size),
		cmocka_unit_test(test_v7_lying_offsets),
		cmocka_unit_test(test_flipped_bytes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
