// SPDX-License-Identifier: GPL-2.0-only
/*
 * One CPU's events. Pages come from the dat page stream; ktrace/rb_page.h walks their records
 * (kbuffer only the pre-2.6.31 page format's, and what report --debug prints of a record). Each
 * page header is checked before it is walked, and each event against the page's end, so that
 * a damaged file gives an error instead of a read out of bounds.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>
#include <traceevent/kbuffer.h>

#include "ktrace/cursor.h"
#include "ktrace/dat.h"
#include "ktrace/rb_page.h"

struct cpu_cursor {
	struct dat_file *df;
	struct dat_page_stream *ps;
	struct kbuffer *kbuf;
	struct tep_record rec;
	const uint8_t *page;
	uint64_t page_offset;
	uint32_t page_size;
	int long_size;
	int cpu;
	bool big_endian;
	bool check_pages;	/* old (2.6.30-) page format is left to kbuffer alone */
	bool loaded;		/* a page is being walked */
	struct rb_page_walk walk;	/* the loaded page, when check_pages */
	uint32_t first_at;	/* where its first data record starts, in the page */
	bool keep_info;		/* fill info for every record (report --debug) */
	struct tep_handle *tep;
	const bool *skip;	/* event ids passed over unread: no filter can take them */
	int nr_skip;
	int type_offset;	/* common_type, where tep_data_type() finds it: the first */
	int type_size;		/* event's; 0 when it is not there */
	uint64_t page_base;
	struct cursor_page_info info;
};

static int cursor_err(struct cpu_cursor *c, struct strbuf *err, int ret, const char *msg,
		      uint64_t detail)
{
	if (err) {
		strbuf_reset(err);
		strbuf_addf(err, "%s: cpu %d page at offset %llu: %s %llu", dat_file_path(c->df),
			    c->cpu, (unsigned long long)c->page_offset, msg,
			    (unsigned long long)detail);
	}
	return ret;
}

static void find_type_field(struct cpu_cursor *c)
{
	struct tep_event *first = tep_get_first_event(c->tep);
	struct tep_format_field *f = first ? tep_find_common_field(first, "common_type") : NULL;

	if (f && f->offset >= 0 && (f->size == 1 || f->size == 2 || f->size == 4)) {
		c->type_offset = f->offset;
		c->type_size = f->size;
	}
}

int cpu_cursor_open(struct dat_file *df, int buffer, int cpu_index, struct cpu_cursor **out,
		    struct strbuf *err)
{
	const struct dat_buffer *b = dat_file_buffer(df, buffer);
	struct tep_handle *tep = dat_file_tep(df);
	struct cpu_cursor *c;
	int ret;

	if (!tep || tep_get_header_timestamp_size(tep) != 8) {
		if (err) {
			strbuf_reset(err);
			strbuf_addf(err, "%s: section HEADER_INFO at offset %llu: the page header "
				    "has no 8-byte timestamp", dat_file_path(df),
				    (unsigned long long)dat_file_meta(df)->header_page_offset);
		}
		return -EBADMSG;
	}
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->df = df;
	c->tep = tep;
	c->page_size = b ? b->page_size : dat_file_page_size(df);
	c->long_size = dat_file_long_size(df);
	c->big_endian = dat_file_big_endian(df);
	c->check_pages = !tep_is_old_format(tep);
	c->cpu = b && cpu_index >= 0 && cpu_index < b->nr_cpus ? b->cpus[cpu_index].cpu : -1;
	c->kbuf = kbuffer_alloc(c->long_size == 8 ? KBUFFER_LSIZE_8 : KBUFFER_LSIZE_4,
				c->big_endian ? KBUFFER_ENDIAN_BIG : KBUFFER_ENDIAN_LITTLE);
	if (!c->kbuf) {
		free(c);
		return -ENOMEM;
	}
	if (!c->check_pages)
		kbuffer_set_old_format(c->kbuf);
	ret = dat_page_stream_open(df, buffer, cpu_index, &c->ps, err);
	if (ret) {
		cpu_cursor_close(c);
		return ret;
	}
	find_type_field(c);
	c->rec.cpu = c->cpu;
	c->rec.ref_count = 1;
	c->rec.locked = 1;
	*out = c;
	return 0;
}

/* The current record's header, as an offset in the page. */
static int page_curr_offset(const struct cpu_cursor *c)
{
	if (c->check_pages)
		return (int)(rb_page_header_size(c->long_size) + c->walk.curr);
	return kbuffer_curr_offset(c->kbuf);
}

static int load_next_page(struct cpu_cursor *c, struct strbuf *err)
{
	const void *page;
	int ret = dat_page_stream_next(c->ps, &page, err);

	if (ret <= 0)
		return ret;
	c->page = page;
	c->page_offset = dat_page_stream_offset(c->ps);
	if (c->check_pages) {
		/* the commit size must leave the data, and the stored missed count, in the page */
		if (!rb_page_walk_load(&c->walk, c->page, c->page_size, c->long_size,
				       c->big_endian))
			return cursor_err(c, err, -EBADMSG, "commit size exceeds the page:",
					  c->walk.size);
		c->first_at = (uint32_t)page_curr_offset(c);
	} else if (kbuffer_load_subbuffer(c->kbuf, (void *)page) < 0) {
		/* kbuffer only reads the page, whatever its prototype says */
		return cursor_err(c, err, -EBADMSG, "unreadable page header, size",
				  c->page_size);
	}
	c->loaded = true;
	return 1;
}

/* The loaded page's current record, its timestamp and size; NULL past its last. */
static const uint8_t *page_record(struct cpu_cursor *c, unsigned long long *ts, int *size)
{
	const uint8_t *data;

	if (!c->check_pages) {
		data = kbuffer_read_event(c->kbuf, ts);
		*size = kbuffer_event_size(c->kbuf);
		return data;
	}
	*ts = c->walk.ts;
	*size = (int)(c->walk.next - c->walk.index);
	return rb_page_walk_record(&c->walk);
}

static void page_advance(struct cpu_cursor *c)
{
	if (c->check_pages)
		rb_page_walk_next(&c->walk);
	else
		kbuffer_next_event(c->kbuf, NULL);
}

/* kbuffer_raw_get reads up to two words at a record; both must be in the page. */
static bool raw_fits(const struct cpu_cursor *c, const struct kbuffer_raw_info *r)
{
	const uint8_t *next = r->next;

	return next >= c->page && next + 8 <= c->page + c->page_size;
}

/* What report --debug prints of the current record, read as trace-cmd reads it. */
static void fill_page_info(struct cpu_cursor *c)
{
	struct cursor_page_info *pi = &c->info;
	int at = page_curr_offset(c);
	struct kbuffer_raw_info raw = { .next = (void *)(c->page + at) };
	struct kbuffer_raw_info *r;

	pi->page_ts = kbuffer_subbuf_timestamp(c->kbuf, (void *)c->page);
	pi->page_offset = c->page_base + c->page_offset;
	pi->in_page = (uint32_t)at;
	pi->delta = kbuffer_ptr_delta(c->kbuf, (void *)(c->page + at));
	pi->at_start = c->check_pages ? (uint32_t)at == c->first_at :
				      at == kbuffer_start_of_data(c->kbuf);
	pi->nr_after = 0;
	/* the record itself, then what follows it up to the next event */
	r = raw_fits(c, &raw) ? kbuffer_raw_get(c->kbuf, (void *)c->page, &raw) : NULL;
	while (r && raw_fits(c, r) && (r = kbuffer_raw_get(c->kbuf, (void *)c->page, r)) &&
	       r->type >= KBUFFER_TYPE_PADDING && pi->nr_after < CURSOR_AFTER_MAX) {
		pi->after[pi->nr_after].type = r->type;
		pi->after[pi->nr_after].length = r->length;
		pi->after[pi->nr_after].delta = r->delta;
		pi->nr_after++;
	}
	c->rec.priv = pi;
}

/* The record's event id, read in place as tep_data_type() reads it; -1 if not in the record. */
static int record_type(const struct cpu_cursor *c, const uint8_t *data)
{
	const uint8_t *p = data + c->type_offset;
	uint32_t id = 0;
	int i;

	if (!c->type_size || c->rec.size < c->type_size ||
	    c->type_offset > c->rec.size - c->type_size)
		return -1;
	for (i = 0; i < c->type_size; i++)
		id |= (uint32_t)p[i] << (c->big_endian ? (c->type_size - 1 - i) * 8 : i * 8);
	return id > INT32_MAX ? -1 : (int)id;
}

/* The walk refuses records that run past the page itself (walk.bad); kbuffer does not. */
static bool old_record_overruns(const struct cpu_cursor *c, const uint8_t *data)
{
	uint64_t end = (uint64_t)(data - c->page) + (uint64_t)c->rec.size;

	return !c->check_pages && (data < c->page || c->rec.size < 0 || end > c->page_size);
}

/* Whether the record at data, of c->rec.size bytes, is one of the events passed over. */
static bool skipped(struct cpu_cursor *c, const uint8_t *data)
{
	int id;

	if (!c->skip)
		return false;
	id = record_type(c, data);
	return id >= 0 && id < c->nr_skip && c->skip[id];
}

int cpu_cursor_next(struct cpu_cursor *c, struct strbuf *err)
{
	unsigned long long ts;
	const uint8_t *data;
	int ret;

	if (c->loaded)
		page_advance(c);
	for (;;) {
		data = c->loaded ? page_record(c, &ts, &c->rec.size) : NULL;
		if (!data) {
			if (c->loaded && c->check_pages && c->walk.bad)
				return cursor_err(c, err, -EBADMSG,
						  "event overruns the page at byte",
						  (uint64_t)page_curr_offset(c));
			c->loaded = false;
			ret = load_next_page(c, err);
			if (ret <= 0)
				return ret;
			continue;
		}
		if (old_record_overruns(c, data))
			return cursor_err(c, err, -EBADMSG, "event overruns the page at byte",
					  (uint64_t)(data - c->page));
		if (!skipped(c, data))
			break;
		page_advance(c);
	}
	c->rec.ts = dat_file_cpu_ts(c->df, c->cpu, ts);
	c->rec.data = (void *)data;
	c->rec.offset = c->page_offset + (uint64_t)page_curr_offset(c);
	if (c->check_pages) {
		c->rec.missed_events = (int)rb_page_walk_missed(&c->walk);
		c->rec.record_size = (int)(c->walk.next - c->walk.curr);
	} else {
		c->rec.missed_events = kbuffer_missed_events(c->kbuf);
		c->rec.record_size = kbuffer_curr_size(c->kbuf);
	}
	if (c->keep_info)
		fill_page_info(c);
	return 1;
}

void cpu_cursor_keep_page_info(struct cpu_cursor *c, uint64_t page_base)
{
	c->keep_info = true;
	c->page_base = page_base;
}

void cpu_cursor_skip_events(struct cpu_cursor *c, const bool *skip, int nr)
{
	c->skip = skip;
	c->nr_skip = nr;
}

struct tep_record *cpu_cursor_record(struct cpu_cursor *c)
{
	return &c->rec;
}

int cpu_cursor_cpu(const struct cpu_cursor *c)
{
	return c->cpu;
}

void cpu_cursor_close(struct cpu_cursor *c)
{
	if (!c)
		return;
	dat_page_stream_close(c->ps);
	kbuffer_free(c->kbuf);
	free(c);
}

int cpu_cursor_first_page_ts(struct dat_file *df, int buffer, int cpu_index, uint64_t *ts,
			     struct strbuf *err)
{
	struct cpu_cursor *c;
	int ret = cpu_cursor_open(df, buffer, cpu_index, &c, err);

	if (ret)
		return ret;
	/* what kbuffer_timestamp() says right after the page is loaded, as in trace-cmd */
	ret = load_next_page(c, err);
	if (ret > 0)
		*ts = dat_file_cpu_ts(df, c->cpu, c->check_pages ? c->walk.ts :
				      kbuffer_timestamp(c->kbuf));
	cpu_cursor_close(c);
	return ret;
}
