// SPDX-License-Identifier: GPL-2.0-only
/*
 * mem_stats, the table of `ktrace mem`, on crafted allocations: the columns of one site (current,
 * total and peak bytes, waste), a free of a pointer never allocated, a pointer allocated twice
 * without a free, two symbols of one name (two sites: a site is libtraceevent's name pointer),
 * rows sorted by waste, highest first, and trace-cmd's %ld of a negative size.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "mem.h"

#define HEADER "                Function            \t" \
	"Waste\tAlloc\treq\t\tTotAlloc     TotReq\t\tMaxAlloc     MaxReq\tMaxWaste\n" \
	"                --------            \t" \
	"-----\t-----\t---\t\t--------     ------\t\t--------     ------\t--------\n"

/* One row as trace-cmd prints it. */
static void row(char *buf, size_t size, const char *func, long waste, long cur_alloc,
		long cur_req, long tot_alloc, long tot_req, long max_alloc, long max_req,
		long max_waste)
{
	snprintf(buf, size, "%32s\t%ld\t%ld\t%ld\t\t%8ld   %8ld\t\t%8ld   %8ld\t%ld\n", func,
		 waste, cur_alloc, cur_req, tot_alloc, tot_req, max_alloc, max_req, max_waste);
}

static char *table(struct mem_stats *s)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	assert_int_equal(mem_stats_print(s, f), 0);
	fclose(f);
	return text;
}

static void test_one_site(void **state)
{
	struct mem_stats *s = mem_stats_new();
	char want[512], line[256];
	char *got;

	(void)state;
	assert_int_equal(mem_stats_alloc(s, "f", 0x1000, 100, 128), 0);
	assert_int_equal(mem_stats_alloc(s, "f", 0x2000, 30, 32), 0);
	mem_stats_release(s, 0x1000);
	mem_stats_release(s, 0x1000);	/* freed already: nothing */
	mem_stats_release(s, 0x9000);	/* never allocated: nothing */
	assert_int_equal(mem_stats_alloc(s, "f", 0x3000, 10, 16), 0);
	/* now: 0x2000 (30/32) and 0x3000 (10/16); peak 160/130 with the first two */
	row(line, sizeof(line), "f", 8, 48, 40, 176, 140, 160, 130, 30);
	snprintf(want, sizeof(want), "%s%s", HEADER, line);
	got = table(s);
	assert_string_equal(got, want);
	free(got);
	mem_stats_free(s);
}

static void test_pointer_reused(void **state)
{
	struct mem_stats *s = mem_stats_new();
	char want[512], line[256];
	char *got;

	(void)state;
	/* allocated twice without a free between: the free gives back the later allocation */
	assert_int_equal(mem_stats_alloc(s, "g", 0x1000, 10, 16), 0);
	assert_int_equal(mem_stats_alloc(s, "g", 0x1000, 20, 32), 0);
	mem_stats_release(s, 0x1000);
	row(line, sizeof(line), "g", 6, 16, 10, 48, 30, 48, 30, 18);
	snprintf(want, sizeof(want), "%s%s", HEADER, line);
	got = table(s);
	assert_string_equal(got, want);
	free(got);
	mem_stats_free(s);
}

static void test_sorted_by_waste(void **state)
{
	static const char one[] = "dup", two[] = "dup";
	struct mem_stats *s = mem_stats_new();
	char want[2048], a[256], b[256], c[256];
	char *got;

	(void)state;
	assert_int_equal(mem_stats_alloc(s, "small", 0x1, 8, 16), 0);
	assert_int_equal(mem_stats_alloc(s, "big", 0x2, 8, 64), 0);
	/* two symbols named alike: two rows, in the order of their (equal) bucket, newest first */
	assert_int_equal(mem_stats_alloc(s, one, 0x3, 1, 1), 0);
	assert_int_equal(mem_stats_alloc(s, two, 0x4, 1, 1), 0);
	row(a, sizeof(a), "big", 56, 64, 8, 64, 8, 64, 8, 56);
	row(b, sizeof(b), "small", 8, 16, 8, 16, 8, 16, 8, 8);
	row(c, sizeof(c), "dup", 0, 1, 1, 1, 1, 1, 1, 0);
	snprintf(want, sizeof(want), "%s%s%s%s%s", HEADER, a, b, c, c);
	got = table(s);
	assert_string_equal(got, want);
	free(got);
	mem_stats_free(s);
}

static void test_negative_size(void **state)
{
	struct mem_stats *s = mem_stats_new();
	char want[512], line[256];
	char *got;

	(void)state;
	/* bytes_alloc read as an int, added to unsigned long and printed with %ld */
	assert_int_equal(mem_stats_alloc(s, "h", 0x1, 0, -8), 0);
	row(line, sizeof(line), "h", -8, -8, 0, -8, 0, -8, 0, -8);
	snprintf(want, sizeof(want), "%s%s", HEADER, line);
	got = table(s);
	assert_string_equal(got, want);
	free(got);
	mem_stats_free(s);
}

static void test_empty(void **state)
{
	struct mem_stats *s = mem_stats_new();
	char *got;

	(void)state;
	got = table(s);
	assert_string_equal(got, HEADER);
	free(got);
	mem_stats_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_site),
		cmocka_unit_test(test_pointer_reused),
		cmocka_unit_test(test_sorted_by_waste),
		cmocka_unit_test(test_negative_size),
		cmocka_unit_test(test_empty),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
