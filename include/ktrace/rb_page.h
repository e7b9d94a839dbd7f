/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_RB_PAGE_H
#define KTRACE_RB_PAGE_H

/*
 * The kernel's ring-buffer page as it is stored in a trace.dat file: an 8-byte timestamp, a
 * commit word (a long) holding the data size and the lost-event flags, then the records. Each
 * record starts with a 32-bit word of a 5-bit type_len and a 27-bit time delta, laid out in the
 * byte order of the machine that recorded it.
 *
 * The walk reads a valid page as libtraceevent's kbuffer reads it, quirks included (a record
 * whose length word is below 4, a TIME_STAMP keeping the top five bits of the running
 * timestamp, lost events told only when the page's first record sits at its very start), so
 * that what report prints stays trace-cmd's byte for byte; it is kept in line and takes no
 * function pointer per record, which is most of what kbuffer costs a reader passing records
 * over. Where kbuffer would read past the page of a damaged one, the walk stops instead.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "ktrace/dat_chunk.h"

#define RB_PAGE_COMMIT_SIZE_MASK	((1u << 27) - 1)
#define RB_PAGE_MISSED			(1ull << 31)	/* events were lost before this page */
#define RB_PAGE_MISSED_STORED		(1ull << 30)	/* ... and their count follows the data */

#define RB_TYPE_LEN_BITS		5
#define RB_TYPE_LEN_MASK		((1u << RB_TYPE_LEN_BITS) - 1)
#define RB_TYPE_LEN_DATA_MAX		28	/* type_len 1..28: data of 4 * type_len bytes */
#define RB_TYPE_PADDING			29
#define RB_TYPE_TIME_EXTEND		30
#define RB_TYPE_TIME_STAMP		31
#define RB_DELTA_BITS			27
#define RB_DELTA_MAX			((1ull << RB_DELTA_BITS) - 1)
#define RB_TIME_STAMP_KEPT		(0xf8ull << 56)	/* what a TIME_STAMP does not overwrite */

struct rb_page_walk {
	const uint8_t *data;	/* the first record: right after the page header */
	uint32_t size;		/* bytes of records, from the commit word */
	uint32_t avail;		/* bytes that may be read from data: the page's end */
	uint32_t curr;		/* the current record's header, as an offset from data */
	uint32_t index;		/* its payload */
	uint32_t next;		/* the record after it */
	uint64_t ts;		/* the current record's timestamp */
	long long lost;		/* told with the page: -1 when lost but not counted */
	bool swap;		/* the page's byte order is not this machine's */
	bool big_endian;	/* the page's: where type_len sits in a header word */
	bool bad;		/* a record would be read past the page: the walk stops */
};

/* The timestamp and the commit word (a long of the recording machine) before the records. */
static inline uint32_t rb_page_header_size(int long_size)
{
	return 8 + (uint32_t)long_size;
}

static inline uint32_t rb_page_u32(const struct rb_page_walk *w, const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return w->swap ? __builtin_bswap32(v) : v;
}

static inline uint64_t rb_page_u64(const struct rb_page_walk *w, const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return w->swap ? __builtin_bswap64(v) : v;
}

/*
 * One record header: its kind, and where its payload and the next record start. A record
 * that would be read past the page sets bad, which ends the walk whatever kind is returned.
 */
static inline uint32_t rb_page_decode(struct rb_page_walk *w)
{
	const uint8_t *p = w->data + w->curr;
	uint64_t length = 0, at = (uint64_t)w->curr + 4;
	uint32_t word, type_len;
	uint64_t delta;

	/* a padding's length need not be a multiple of 4: the next header may not fit */
	if (at > w->avail) {
		w->bad = true;
		return 0;
	}
	word = rb_page_u32(w, p);
	type_len = w->big_endian ? word >> RB_DELTA_BITS : word & RB_TYPE_LEN_MASK;
	delta = w->big_endian ? word & RB_DELTA_MAX : word >> RB_TYPE_LEN_BITS;
	/* every kind but a short data record has a second word */
	if ((type_len == 0 || type_len > RB_TYPE_LEN_DATA_MAX) && at + 4 > w->avail) {
		w->bad = true;
		return 0;
	}
	switch (type_len) {
	case RB_TYPE_PADDING:
		length = rb_page_u32(w, p + 4);
		break;
	case RB_TYPE_TIME_STAMP:
		delta = ((uint64_t)rb_page_u32(w, p + 4) << RB_DELTA_BITS | delta) |
			(w->ts & RB_TIME_STAMP_KEPT);
		w->ts = 0;
		at += 4;
		break;
	case RB_TYPE_TIME_EXTEND:
		delta |= (uint64_t)rb_page_u32(w, p + 4) << RB_DELTA_BITS;
		at += 4;
		break;
	case 0: {
		/*
		 * The length word counts itself, and kbuffer rounds (word - 4) up to 4 as an
		 * int: a word of 1 to 3 is a record of no bytes, 0 (or above 2^31) a negative
		 * one, refused. The same sum in unsigned arithmetic, which cannot overflow.
		 */
		uint32_t len = (rb_page_u32(w, p + 4) - 1) & ~3u;

		at += 4;
		if ((len & 0x80000000u) || at + len > w->avail)
			w->bad = true;
		length = w->bad ? 0 : len;
		break;
	}
	default:
		length = (uint64_t)type_len * 4;
		if (at + length > w->avail)
			w->bad = true;
		break;
	}
	w->ts += delta;
	w->index = (uint32_t)at;
	/*
	 * A padding's length may be anything in a damaged page: past the commit it ends the
	 * page (kbuffer would follow a wrapped length backwards; no kernel writes one).
	 */
	if (type_len == RB_TYPE_PADDING && at + length > w->size)
		length = w->size > at ? w->size - at : 0;
	w->next = (uint32_t)(at + length);
	return type_len;
}

/* On to the next data record; false at the end of the page or at a record that overruns it. */
static inline bool rb_page_walk_next(struct rb_page_walk *w)
{
	uint32_t type_len;

	do {
		w->curr = w->next;
		if (w->next >= w->size || w->bad)
			return false;
		type_len = rb_page_decode(w);
	} while (type_len > RB_TYPE_LEN_DATA_MAX && !w->bad);
	return !w->bad;
}

/*
 * Starts on a page of page_size bytes and stops on its first data record. False, with
 * nothing read past the header, when the commit size (and the lost count stored after the
 * records) does not fit the page.
 */
static inline bool rb_page_walk_load(struct rb_page_walk *w, const uint8_t *page,
				     uint32_t page_size, int long_size, bool big_endian)
{
	uint32_t header = rb_page_header_size(long_size);
	uint64_t commit, need;

	w->swap = big_endian != DAT_HOST_BIG_ENDIAN;
	w->big_endian = big_endian;
	w->curr = w->index = w->next = w->size = 0;
	w->bad = page_size < header;
	if (w->bad)
		return false;
	w->ts = rb_page_u64(w, page);
	commit = long_size == 8 ? rb_page_u64(w, page + 8) : rb_page_u32(w, page + 8);
	w->data = page + header;
	w->size = (uint32_t)commit & RB_PAGE_COMMIT_SIZE_MASK;
	w->avail = page_size - header;
	w->lost = 0;
	need = (uint64_t)w->size + (commit & RB_PAGE_MISSED_STORED ? (uint64_t)long_size : 0);
	w->bad = need > w->avail;
	if (w->bad)
		return false;
	if (commit & RB_PAGE_MISSED) {
		const uint8_t *count = w->data + w->size;

		w->lost = -1;
		if (commit & RB_PAGE_MISSED_STORED)
			w->lost = (long long)(long_size == 8 ? rb_page_u64(w, count) :
					      rb_page_u32(w, count));
	}
	rb_page_walk_next(w);
	return true;
}

/* The current data record, or NULL past the end. */
static inline const uint8_t *rb_page_walk_record(const struct rb_page_walk *w)
{
	return w->curr < w->size && !w->bad ? w->data + w->index : NULL;
}

/* Lost events are told with a page's first record only when nothing precedes it. */
static inline long long rb_page_walk_missed(const struct rb_page_walk *w)
{
	return w->curr ? 0 : w->lost;
}

#endif
