// SPDX-License-Identifier: GPL-2.0-only
/*
 * ktrace/rb_page.h against libtraceevent's kbuffer, the reader whose output report must match:
 * pages of every record kind (short and long data, padding, TIME_EXTEND, TIME_STAMP with its
 * kept top bits, a length word below 4), both long sizes and both byte orders, lost-event
 * flags with and without a count; each record's timestamp, offsets, size and missed count
 * must be kbuffer's. Then what kbuffer would read past the page: refused.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <traceevent/kbuffer.h>

#include "ktrace/rb_page.h"

#define PAGE_MAX	16384

struct page_maker {
	uint8_t page[PAGE_MAX];
	uint32_t page_size;
	uint8_t *exact;		/* the page copied into page_size bytes: ASan sees a read past it */
	uint32_t used;		/* bytes of records */
	int long_size;
	bool big_endian;
	uint64_t seed;
};

static uint32_t rnd(struct page_maker *m, uint32_t n)
{
	m->seed = m->seed * 6364136223846793005ull + 1442695040888963407ull;
	return (uint32_t)(m->seed >> 33) % n;
}

static void put_u32(const struct page_maker *m, uint8_t *p, uint32_t v)
{
	if (m->big_endian != DAT_HOST_BIG_ENDIAN)
		v = __builtin_bswap32(v);
	memcpy(p, &v, 4);
}

static void put_u64(const struct page_maker *m, uint8_t *p, uint64_t v)
{
	if (m->big_endian != DAT_HOST_BIG_ENDIAN)
		v = __builtin_bswap64(v);
	memcpy(p, &v, 8);
}

static void put_long(const struct page_maker *m, uint8_t *p, uint64_t v)
{
	if (m->long_size == 8)
		put_u64(m, p, v);
	else
		put_u32(m, p, (uint32_t)v);
}

static uint8_t *records(struct page_maker *m)
{
	return m->page + 8 + m->long_size;
}

/* A record header word in the page's byte order's bit layout. */
static void put_header(struct page_maker *m, uint32_t type_len, uint32_t delta, uint32_t word2,
		       bool has_word2)
{
	uint8_t *p = records(m) + m->used;
	uint32_t word = m->big_endian ? type_len << RB_DELTA_BITS | (delta & RB_DELTA_MAX) :
					type_len | (uint32_t)((delta & RB_DELTA_MAX) << 5);

	put_u32(m, p, word);
	m->used += 4;
	if (has_word2) {
		put_u32(m, p + 4, word2);
		m->used += 4;
	}
}

/* Fills the page with random records, leaving room for the lost count. */
static void make_page(struct page_maker *m, uint64_t commit_flags)
{
	uint32_t room = m->page_size - 8 - (uint32_t)m->long_size - 8 - 64;
	uint64_t commit;

	memset(m->page, 0, sizeof(m->page));
	m->used = 0;
	put_u64(m, m->page, 0xf800000000000000ull | rnd(m, 1u << 30));
	while (m->used < room - 300) {
		uint32_t kind = rnd(m, 10), delta = rnd(m, 1u << 27), len;

		switch (kind) {
		case 0:		/* a long data record: length word counts itself */
			len = 4 + rnd(m, 200);
			put_header(m, 0, delta, len, true);
			m->used += (len - 4 + 3) & ~3u;
			break;
		case 1:		/* a length word below 4: kbuffer reads a record of no bytes */
			put_header(m, 0, delta, 1 + rnd(m, 3), true);
			break;
		case 2:
			put_header(m, RB_TYPE_TIME_EXTEND, delta, rnd(m, 1u << 20), true);
			break;
		case 3:
			put_header(m, RB_TYPE_TIME_STAMP, delta, rnd(m, 1u << 30), true);
			break;
		case 4:		/* padding inside the page (a discarded record): its length
				 * word counts from itself */
			len = 4 + 4 * rnd(m, 8);
			put_header(m, RB_TYPE_PADDING, 1, len, true);
			m->used += len - 4;
			break;
		default:	/* a short data record */
			len = 1 + rnd(m, RB_TYPE_LEN_DATA_MAX);
			put_header(m, len, delta, 0, false);
			m->used += len * 4;
			break;
		}
	}
	commit = m->used | commit_flags;
	put_long(m, m->page + 8, commit);
	if (commit_flags & RB_PAGE_MISSED_STORED)
		put_long(m, records(m) + m->used, 12345);
}

static void same_as_kbuffer(struct page_maker *m)
{
	struct kbuffer *kb = kbuffer_alloc(m->long_size == 8 ? KBUFFER_LSIZE_8 : KBUFFER_LSIZE_4,
					   m->big_endian ? KBUFFER_ENDIAN_BIG :
							   KBUFFER_ENDIAN_LITTLE);
	struct rb_page_walk w;
	unsigned long long kts;
	const uint8_t *kdata, *data;
	int n = 0;

	assert_non_null(kb);
	assert_int_equal(kbuffer_load_subbuffer(kb, m->page), 0);
	assert_true(rb_page_walk_load(&w, m->page, m->page_size, m->long_size, m->big_endian));
	assert_int_equal(w.ts, kbuffer_timestamp(kb));
	for (;;) {
		kdata = kbuffer_read_event(kb, &kts);
		data = rb_page_walk_record(&w);
		assert_false(w.bad);
		assert_ptr_equal(data, kdata);
		if (!data)
			break;
		assert_int_equal(w.ts, kts);
		assert_int_equal(8 + m->long_size + (int)w.curr, kbuffer_curr_offset(kb));
		assert_int_equal((int)(w.next - w.index), kbuffer_event_size(kb));
		assert_int_equal((int)(w.next - w.curr), kbuffer_curr_size(kb));
		assert_int_equal((int)rb_page_walk_missed(&w), kbuffer_missed_events(kb));
		kbuffer_next_event(kb, NULL);
		rb_page_walk_next(&w);
		n++;
	}
	assert_true(n > 10);
	kbuffer_free(kb);
}

static void test_random_pages_read_as_kbuffer_reads_them(void **state)
{
	static const uint64_t flags[] = { 0, RB_PAGE_MISSED, RB_PAGE_MISSED | RB_PAGE_MISSED_STORED };
	struct page_maker m = { .seed = 1 };
	int round;

	(void)state;
	for (round = 0; round < 400; round++) {
		m.long_size = round & 1 ? 8 : 4;
		m.big_endian = round & 2;
		/* 4 KB pages, and the 16 KB of buffer_subbuf_size_kb */
		m.page_size = round % 5 ? 4096 : 16384;
		make_page(&m, flags[(round >> 2) % 3]);
		same_as_kbuffer(&m);
	}
}

static void load(struct rb_page_walk *w, struct page_maker *m)
{
	put_long(m, m->page + 8, m->used);
	free(m->exact);
	m->exact = malloc(m->page_size);
	assert_non_null(m->exact);
	memcpy(m->exact, m->page, m->page_size);
	assert_true(rb_page_walk_load(w, m->exact, m->page_size, m->long_size, m->big_endian));
}

/* A record that would be read past the page's end stops the walk, marked bad. */
static void test_overruns_are_refused(void **state)
{
	struct page_maker m = { .long_size = 8, .page_size = 4096 };
	uint32_t avail = m.page_size - 16;
	struct rb_page_walk w;

	(void)state;
	/* a long record whose length runs past the page */
	put_header(&m, 0, 0, m.page_size, true);
	load(&w, &m);
	assert_true(w.bad);
	assert_null(rb_page_walk_record(&w));
	/* a length word of 0: a record of -4 bytes */
	m.used = 0;
	put_header(&m, 0, 0, 0, true);
	load(&w, &m);
	assert_true(w.bad);
	/* a TIME_EXTEND in the page's last four bytes: its second word is past the end */
	memset(m.page, 0, sizeof(m.page));
	m.used = 0;
	while (m.used + 12 < avail - 4) {
		put_header(&m, 1, 0, 0, false);
		m.used += 4;
	}
	put_header(&m, 2, 0, 0, false);
	m.used += 8;
	assert_int_equal(m.used, avail - 4);
	put_header(&m, RB_TYPE_TIME_EXTEND, 0, 0, false);
	load(&w, &m);
	while (rb_page_walk_next(&w))
		;
	assert_true(w.bad);
	/* padding whose length runs past the commit only ends the page */
	memset(m.page, 0, sizeof(m.page));
	m.used = 0;
	put_header(&m, 4, 0, 0, false);
	m.used += 16;
	put_header(&m, RB_TYPE_PADDING, 1, 0xfffffff0u, true);
	put_header(&m, 4, 0, 0, false);
	m.used += 16;
	load(&w, &m);
	assert_non_null(rb_page_walk_record(&w));
	assert_false(rb_page_walk_next(&w));
	assert_false(w.bad);
	assert_null(rb_page_walk_record(&w));
	/* a padding of an odd length leaves the next header's word partly past the page */
	memset(m.page, 0, sizeof(m.page));
	m.used = 0;
	put_header(&m, 4, 0, 0, false);
	m.used += 16;
	/* its length counts from its own second word, at 24: the next header at avail - 2 */
	put_header(&m, RB_TYPE_PADDING, 1, avail - 2 - 24, true);
	m.used = avail;
	load(&w, &m);
	assert_false(rb_page_walk_next(&w));
	assert_true(w.bad);
	/* a length word just above 2^31: as an int, a negative record; no overflow on the way */
	memset(m.page, 0, sizeof(m.page));
	m.used = 0;
	put_header(&m, 0, 0, 0x80000001u, true);
	load(&w, &m);
	assert_true(w.bad);
	/* a commit larger than the page, or a stored lost count past it: nothing is walked */
	put_long(&m, m.page + 8, avail + 4);
	assert_false(rb_page_walk_load(&w, m.page, m.page_size, 8, false));
	put_long(&m, m.page + 8, avail | RB_PAGE_MISSED | RB_PAGE_MISSED_STORED);
	assert_false(rb_page_walk_load(&w, m.page, m.page_size, 8, false));
	assert_null(rb_page_walk_record(&w));
	free(m.exact);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random_pages_read_as_kbuffer_reads_them),
		cmocka_unit_test(test_overruns_are_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
