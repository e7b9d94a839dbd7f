/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_TEST_DAT_PAGES_H
#define KTRACE_TEST_DAT_PAGES_H

/*
 * Synthetic .dat pieces that the writer, appender and listener tests share: pages that say by
 * their bytes which seed made them, the metadata every such file starts with, and the checks
 * that read the pages back. Include after <cmocka.h> and the ktrace/dat*.h headers.
 */

#include <stdint.h>
#include <string.h>

#include "ktrace/dat.h"
#include "ktrace/dat_format.h"
#include "ktrace/dat_writer.h"
#include "ring_headers.h"

#define TEST_PAGE_SIZE 4096

/* A page with a valid header (timestamp, commit 0), then filler that depends on seed. */
static inline void test_page_fill(char *page, int seed)
{
	uint64_t ts = 1000 + (uint64_t)seed, commit = 0;
	int i;

	memset(page, 0, TEST_PAGE_SIZE);
	memcpy(page, &ts, 8);
	memcpy(page + 8, &commit, 8);
	for (i = 16; i < 64; i++)
		page[i] = (char)(seed * 7 + i);
}

/* Everything before the CPU data: the six metadata parts and the options, for cpus CPUs. */
static inline void test_write_metadata(struct dat_writer *w, int cpus)
{
	static const char header_page[] = RING_HEADER_PAGE;
	static const char header_event[] = RING_HEADER_EVENT;
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
	assert_int_equal(dat_writer_cpu_count(w, cpus), 0);
	strbuf_release(&err);
}

/* The index of CPU cpu in buffer b, or -1. */
static inline int test_cpu_index(const struct dat_buffer *b, int cpu)
{
	int i;

	for (i = 0; i < b->nr_cpus; i++)
		if (b->cpus[i].cpu == cpu)
			return i;
	return -1;
}

/* The stream of buffer's CPU at cpu_index holds exactly the nr pages made from seed on. */
static inline void test_expect_pages(struct dat_file *df, int buffer, int cpu_index, int nr,
				     int seed)
{
	struct dat_page_stream *ps;
	struct strbuf err = STRBUF_INIT;
	char want[TEST_PAGE_SIZE];
	const void *page;
	int i;

	assert_int_equal(dat_page_stream_open(df, buffer, cpu_index, &ps, &err), 0);
	for (i = 0; i < nr; i++) {
		assert_int_equal(dat_page_stream_next(ps, &page, &err), 1);
		test_page_fill(want, seed + i);
		assert_memory_equal(page, want, TEST_PAGE_SIZE);
	}
	assert_int_equal(dat_page_stream_next(ps, &page, &err), 0);
	dat_page_stream_close(ps);
	strbuf_release(&err);
}

#endif
