// SPDX-License-Identifier: GPL-2.0-only
/* TIME_SHIFT arithmetic (guest to host timestamps), on hand-made option payloads. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "dat_internal.h"

struct payload {
	uint8_t b[512];
	size_t len;
};

static void put(struct payload *p, uint64_t v, int bytes)
{
	int i;

	for (i = 0; i < bytes; i++)
		p->b[p->len++] = (uint8_t)(v >> (8 * i));
}

/* trace id, flags, one CPU with samples (time, offset, scaling) and optional fractions */
static struct dat_tsync *load(struct dat_file *df, uint32_t flags, int n, const uint64_t *t,
			      const int64_t *o, const int64_t *s, const int64_t *frac)
{
	struct strbuf err = STRBUF_INIT;
	struct payload p = { .len = 0 };
	int i;

	put(&p, 0x1234, 8);
	put(&p, flags, 4);
	put(&p, 1, 4);
	put(&p, (uint64_t)n, 4);
	for (i = 0; i < n; i++)
		put(&p, t[i], 8);
	for (i = 0; i < n; i++)
		put(&p, (uint64_t)o[i], 8);
	for (i = 0; i < n; i++)
		put(&p, (uint64_t)s[i], 8);
	for (i = 0; frac && i < n; i++)
		put(&p, (uint64_t)frac[i], 8);
	dat_tsync_free(df->tsync);
	df->tsync = NULL;
	assert_int_equal(dat_tsync_load(df, p.b, (uint32_t)p.len, 0, &err), 0);
	strbuf_release(&err);
	return df->tsync;
}

static void test_tsync(void **state)
{
	struct dat_file df = { .name = "x.dat" };
	const uint64_t t2[] = { 1000, 2000 }, t3[] = { 3000, 1000, 1000 };
	const int64_t o2[] = { -100, 300 }, s2[] = { 1, 1 }, s3[] = { 1, 1, 1 };
	const int64_t o3[] = { 50, 10, 10 }, f2[] = { 1, 1 }, sc2[] = { 4, 4 };
	struct dat_tsync *t;

	(void)state;
	t = load(&df, 0, 1, t2, o2, s2, NULL);
	assert_int_equal(dat_tsync_apply(t, 0, 5000), 4900);
	assert_int_equal(dat_tsync_apply(t, 1, 5000), 5000);	/* no samples for cpu 1 */
	t = load(&df, 0, 2, t2, o2, s2, NULL);
	assert_int_equal(dat_tsync_apply(t, 0, 1500), 1400);
	/* interpolated: -100 + ((1500 - 1000) * 400 + 500) / 1000 = 100 */
	t = load(&df, 1, 2, t2, o2, s2, NULL);
	assert_int_equal(dat_tsync_apply(t, 0, 1500), 1600);
	/* scaling 4 with 1 fraction bit doubles the time before the offset */
	t = load(&df, 0, 2, t2, o2, sc2, f2);
	assert_int_equal(dat_tsync_apply(t, 0, 1500), 2900);
	/* samples are sorted by time and a repeated time is dropped: (1000,10), (3000,50) */
	t = load(&df, 0, 3, t3, o3, s3, NULL);
	assert_int_equal(dat_tsync_apply(t, 0, 2000), 2010);
	dat_tsync_free(df.tsync);
}

static void test_tsync_damaged(void **state)
{
	struct dat_file df = { .name = "x.dat" };
	struct strbuf err = STRBUF_INIT;
	struct payload p = { .len = 0 };

	(void)state;
	put(&p, 0, 8);
	put(&p, 0, 4);
	put(&p, 1, 4);
	put(&p, 1000000, 4);	/* a million samples in a few bytes */
	put(&p, 0, 8);
	assert_true(dat_tsync_load(&df, p.b, (uint32_t)p.len, 77, &err) < 0);
	assert_non_null(strstr(strbuf_str(&err), "x.dat: option TIME_SHIFT at offset"));
	assert_null(df.tsync);
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tsync),
		cmocka_unit_test(test_tsync_damaged),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
