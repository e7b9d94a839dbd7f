/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_RB_PAGE_H
#define KTRACE_RB_PAGE_H

/*
 * The kernel's ring-buffer page as it is stored in a trace.dat file: an 8-byte timestamp, a
 * commit word (a long) holding the data size and the lost-event flags, then the records. Each
 * record starts with a 32-bit word of a 5-bit type_len and a 27-bit time delta, laid out in the
 * byte order of the machine that recorded it.
 *
 * The walk reads a page as libtraceevent's kbuffer reads it, quirks included (a record whose
 * length word is below 4, a TIME_STAMP keeping the top five bits of the running timestamp,
 * lost events told only when the page's first record sits at its very start), so that what
 * report prints stays trace-cmd's byte for byte; it is kept in line and takes no function
 * pointer per record, which is most of what kbuffer costs a reader passing records over.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "ktrace/dat_chunk.h"

#define RB_PAGE_COMMIT_SIZE_MASK	((1u << 27) - 1)
#define RB_PAGE_MISSED			(1ull << 31)	/* events were lost before this page */
#define RB_PAGE_MISSED_STORED		(1ull << 30)	/* ... and their count follows the data */

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
	bool bad;		/* a record's length runs past the page */
};

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

/* One record header: its kind, and where its payload and the next record start. */
static inline uint32_t rb_page_decode(struct rb_page_walk *w)
{
	const uint8_t *p = w->data + w->curr;
	uint32_t word = rb_page_u32(w, p);
	bool big = DAT_HOST_BIG_ENDIAN != w->swap;
	uint32_t type_len = big ? word >> RB_DELTA_BITS : word & 0x1f;
	uint64_t delta = big ? word & RB_DELTA_MAX : word >> 5;
	uint64_t length = 0, at = (uint64_t)w->curr + 4;

	/* every kind but a short data record has a second word */
	if ((type_len == 0 || type_len > RB_TYPE_LEN_DATA_MAX) && at + 4 > w->avail) {
		w->bad = true;
		return RB_TYPE_PADDING;
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
		/* the length word counts itself; below 4 it is read as kbuffer reads it */
		int32_t len = (int32_t)(rb_page_u32(w, p + 4) - 4);

		len = (len + 3) & ~3;
		at += 4;
		if (len < 0 || at + (uint64_t)len > w->avail)
			w->bad = true;
		length = len < 0 ? 0 : (uint64_t)len;
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
	/* a padding's length may be anything: past the commit it only ends the page */
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
 * Starts on a page of page_size bytes whose commit size has been checked to fit it; stops
 * on its first data record.
 */
static inline void rb_page_walk_load(struct rb_page_walk *w, const uint8_t *page,
				     uint32_t page_size, int long_size, bool big_endian)
{
	uint32_t header = 8 + (uint32_t)long_size;
	uint64_t commit;

	w->swap = big_endian != DAT_HOST_BIG_ENDIAN;
	w->ts = rb_page_u64(w, page);
	commit = long_size == 8 ? rb_page_u64(w, page + 8) : rb_page_u32(w, page + 8);
	w->data = page + header;
	w->size = (uint32_t)commit & RB_PAGE_COMMIT_SIZE_MASK;
	w->avail = page_size - header;
	w->lost = 0;
	if (commit & RB_PAGE_MISSED) {
		const uint8_t *count = w->data + w->size;

		w->lost = -1;
		if (commit & RB_PAGE_MISSED_STORED)
			w->lost = (long long)(long_size == 8 ? rb_page_u64(w, count) :
					      rb_page_u32(w, count));
	}
	w->curr = w->index = w->next = 0;
	w->bad = false;
	rb_page_walk_next(w);
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
