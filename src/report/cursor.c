// SPDX-License-Identifier: GPL-2.0-only
/*
 * One CPU's events. Pages come from the dat page stream; kbuffer decodes them. Each page
 * header is checked before kbuffer sees it, and each event against the page's end, so that
 * a damaged file gives an error instead of a read out of bounds.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>
#include <traceevent/kbuffer.h>

#include "ktrace/cursor.h"
#include "ktrace/dat.h"

/* The page header's commit word: size of the data in its low bits, flags above. */
#define COMMIT_SIZE_MASK	((1u << 27) - 1)
#define COMMIT_MISSED_STORED	(1ull << 30)

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
	bool loaded;		/* a page is in kbuf */
	bool keep_info;		/* fill info for every record (report --debug) */
	struct tep_handle *tep;
	const bool *skip;	/* event ids passed over unread: no filter can take them */
	int nr_skip;
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
	c->rec.cpu = c->cpu;
	c->rec.ref_count = 1;
	c->rec.locked = 1;
	*out = c;
	return 0;
}

static uint64_t read_long(const struct cpu_cursor *c, const uint8_t *p)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < c->long_size; i++) {
		int shift = c->big_endian ? (c->long_size - 1 - i) * 8 : i * 8;

		v |= (uint64_t)p[i] << shift;
	}
	return v;
}

/* The commit size must leave the data, and the stored missed count, inside the page. */
static int check_page(struct cpu_cursor *c, struct strbuf *err)
{
	uint32_t header = 8 + (uint32_t)c->long_size;
	uint64_t commit = read_long(c, c->page + 8);
	uint64_t size = commit & COMMIT_SIZE_MASK;
	uint64_t need = size + ((commit & COMMIT_MISSED_STORED) ? (uint64_t)c->long_size : 0);

	if (need > c->page_size - header)
		return cursor_err(c, err, -EBADMSG, "commit size exceeds the page:", size);
	return 0;
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
		ret = check_page(c, err);
		if (ret)
			return ret;
	}
	/* kbuffer only reads the page, whatever its prototype says */
	if (kbuffer_load_subbuffer(c->kbuf, (void *)page) < 0)
		return cursor_err(c, err, -EBADMSG, "unreadable page header, size",
				  c->page_size);
	c->loaded = true;
	return 1;
}

/* What report --debug prints of the current record, read as trace-cmd reads it. */
static void fill_page_info(struct cpu_cursor *c)
{
	struct cursor_page_info *pi = &c->info;
	int at = kbuffer_curr_offset(c->kbuf);
	struct kbuffer_raw_info raw = { .next = (void *)(c->page + at) };
	struct kbuffer_raw_info *r;

	pi->page_ts = kbuffer_subbuf_timestamp(c->kbuf, (void *)c->page);
	pi->page_offset = c->page_base + c->page_offset;
	pi->in_page = (uint32_t)at;
	pi->delta = kbuffer_ptr_delta(c->kbuf, (void *)(c->page + at));
	pi->at_start = at == kbuffer_start_of_data(c->kbuf);
	pi->nr_after = 0;
	/* the record itself, then what follows it up to the next event */
	r = kbuffer_raw_get(c->kbuf, (void *)c->page, &raw);
	while (r && (r = kbuffer_raw_get(c->kbuf, (void *)c->page, r)) &&
	       r->type >= KBUFFER_TYPE_PADDING && pi->nr_after < CURSOR_AFTER_MAX) {
		pi->after[pi->nr_after].type = r->type;
		pi->after[pi->nr_after].length = r->length;
		pi->after[pi->nr_after].delta = r->delta;
		pi->nr_after++;
	}
	c->rec.priv = pi;
}

/* Whether the record at data, of c->rec.size bytes, is one of the events passed over. */
static bool skipped(struct cpu_cursor *c, const uint8_t *data)
{
	int id;

	if (!c->skip)
		return false;
	c->rec.data = (void *)data;
	id = tep_data_type(c->tep, &c->rec);
	return id >= 0 && id < c->nr_skip && c->skip[id];
}

int cpu_cursor_next(struct cpu_cursor *c, struct strbuf *err)
{
	unsigned long long ts;
	const uint8_t *data;
	int ret;

	if (c->loaded)
		kbuffer_next_event(c->kbuf, NULL);
	for (;;) {
		data = c->loaded ? kbuffer_read_event(c->kbuf, &ts) : NULL;
		if (!data) {
			c->loaded = false;
			ret = load_next_page(c, err);
			if (ret <= 0)
				return ret;
			continue;
		}
		c->rec.size = kbuffer_event_size(c->kbuf);
		if (data < c->page || c->rec.size < 0 ||
		    (uint64_t)(data - c->page) + (uint64_t)c->rec.size > c->page_size)
			return cursor_err(c, err, -EBADMSG, "event overruns the page at byte",
					  (uint64_t)(data - c->page));
		if (!skipped(c, data))
			break;
		kbuffer_next_event(c->kbuf, NULL);
	}
	c->rec.ts = dat_file_cpu_ts(c->df, c->cpu, ts);
	c->rec.data = (void *)data;
	c->rec.offset = c->page_offset + (uint64_t)kbuffer_curr_offset(c->kbuf);
	c->rec.missed_events = kbuffer_missed_events(c->kbuf);
	c->rec.record_size = kbuffer_curr_size(c->kbuf);
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
		*ts = dat_file_cpu_ts(df, c->cpu, kbuffer_timestamp(c->kbuf));
	cpu_cursor_close(c);
	return ret;
}
