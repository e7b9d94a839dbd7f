// SPDX-License-Identifier: GPL-2.0-only
/*
 * A piece's events of one CPU laid out as ring-buffer pages, as the kernel lays them out: a
 * header (timestamp, commit), then each event's header (type_len, time delta) and data. A
 * delta that does not fit 27 bits gets a TIME_EXTEND first; a page that starts after lost
 * events carries the flags (and the count when known) that readers print.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ktrace/dat_chunk.h"
#include "ktrace/dat_stage.h"
#include "ktrace/rb_page.h"
#include "split.h"

struct split_pages {
	struct split_pages_config cfg;
	struct dat_cpu_source cs;	/* the temp file and what is in it */
	struct dat_stage stage;		/* whole pages into cs, in chunks when compressed */
	uint8_t *page;
	uint32_t used;			/* bytes of the page in use, header included */
	bool open;
	uint64_t last_ts;
	long long missed;		/* of the open page */
	struct kt_codec *codec;		/* NULL: raw pages */
};

int split_pages_new(const struct split_pages_config *cfg, struct split_pages **out,
		    struct strbuf *err)
{
	struct split_pages *sp = calloc(1, sizeof(*sp));
	char *tmpl = NULL;
	int ret = -ENOMEM;

	if (!sp)
		goto fail;
	sp->cfg = *cfg;
	sp->cs.fd = -1;
	sp->page = malloc(cfg->page_size);
	if (!sp->page)
		goto fail;
	if (cfg->comp != KT_COMP_NONE) {
		ret = kt_codec_new(cfg->comp, &sp->codec);
		if (ret)
			goto fail;
	}
	ret = dat_stage_init(&sp->stage, sp->codec, cfg->page_size);
	sp->stage.cs = &sp->cs;
	if (ret)
		goto fail;
	ret = -ENOMEM;
	if (asprintf(&tmpl, "%s/.ktrace-split.XXXXXX", cfg->dir) < 0) {
		tmpl = NULL;
		goto fail;
	}
	sp->cs.fd = mkstemp(tmpl);
	if (sp->cs.fd < 0) {
		ret = -errno;
		strbuf_addf(err, "creating a temp file in %s: %s", cfg->dir, strerror(errno));
		goto fail_quiet;
	}
	unlink(tmpl);	/* nothing to clean up, however this ends */
	free(tmpl);
	*out = sp;
	return 0;
fail:
	strbuf_addf(err, "preparing the pages: %s", strerror(-ret));
fail_quiet:
	free(tmpl);
	split_pages_free(sp);
	return ret;
}

void split_pages_free(struct split_pages *sp)
{
	if (!sp)
		return;
	if (sp->cs.fd >= 0)
		close(sp->cs.fd);
	dat_stage_release(&sp->stage);
	kt_codec_free(sp->codec);
	free(sp->page);
	free(sp);
}

int split_pages_reset(struct split_pages *sp, struct strbuf *err)
{
	if (ftruncate(sp->cs.fd, 0) || lseek(sp->cs.fd, 0, SEEK_SET) < 0) {
		strbuf_addf(err, "emptying a temp file: %s", strerror(errno));
		return -errno;
	}
	sp->open = false;
	sp->cs.size = sp->cs.raw_size = 0;
	sp->cs.nr_chunks = 0;
	dat_stage_drop(&sp->stage);
	return 0;
}

static int out_err(struct strbuf *err, int ret)
{
	strbuf_addf(err, "writing a temp file: %s", strerror(-ret));
	return ret;
}

static void put_long(const struct split_pages *sp, uint8_t *p, uint64_t v)
{
	if (sp->cfg.long_size == 8)
		memcpy(p, &v, 8);
	else {
		uint32_t v32 = (uint32_t)v;

		memcpy(p, &v32, 4);
	}
}

/* Ends the open page: its commit (and the lost-event count), then out to the file. */
static int close_page(struct split_pages *sp, struct strbuf *err)
{
	uint64_t commit = sp->used - rb_page_header_size(sp->cfg.long_size);
	int ret;

	if (!sp->open)
		return 0;
	if (sp->missed) {
		commit |= RB_PAGE_MISSED;
		if (sp->missed > 0) {
			commit |= RB_PAGE_MISSED_STORED;
			put_long(sp, sp->page + sp->used, (uint64_t)sp->missed);
		}
	}
	put_long(sp, sp->page + 8, commit);
	sp->open = false;
	ret = dat_stage_page(&sp->stage, sp->page);
	return ret ? out_err(err, ret) : 0;
}

static uint32_t event_bytes(const struct split_event *ev)
{
	uint32_t data = (ev->size + 3) & ~3U;

	return 4 + (ev->size && data <= RB_TYPE_LEN_DATA_MAX * 4 ? 0 : 4) + data;
}

static uint32_t needed(const struct split_pages *sp, const struct split_event *ev)
{
	uint32_t n = event_bytes(ev);

	if (ev->ts - sp->last_ts > RB_DELTA_MAX)
		n += 8;
	if (sp->missed > 0)
		n += (uint32_t)sp->cfg.long_size;	/* room for the count */
	return n;
}

bool split_pages_needs_page(const struct split_pages *sp, const struct split_event *ev)
{
	return !sp->open || ev->missed || ev->ts < sp->last_ts ||
	       sp->used + needed(sp, ev) > sp->cfg.page_size;
}

static void put32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

/* An event header word: the bit fields are laid out in the byte order of the file's host. */
static uint32_t event_word(uint32_t type_len, uint64_t delta)
{
	if (DAT_HOST_BIG_ENDIAN)
		return type_len << RB_DELTA_BITS | (uint32_t)(delta & RB_DELTA_MAX);
	return type_len | (uint32_t)((delta & RB_DELTA_MAX) << 5);
}

int split_pages_add(struct split_pages *sp, const struct split_event *ev, bool *new_page,
		    struct strbuf *err)
{
	uint64_t delta;
	uint32_t data;
	uint8_t *p;
	bool fresh = split_pages_needs_page(sp, ev);
	int ret;

	if (fresh) {
		ret = close_page(sp, err);
		if (ret)
			return ret;
		memset(sp->page, 0, sp->cfg.page_size);
		memcpy(sp->page, &ev->ts, 8);
		sp->used = rb_page_header_size(sp->cfg.long_size);
		sp->last_ts = ev->ts;
		sp->missed = ev->missed;
		sp->open = true;
		if (sp->used + needed(sp, ev) > sp->cfg.page_size) {
			strbuf_addf(err, "an event of %u bytes does not fit a page of %u",
				    ev->size, sp->cfg.page_size);
			return -EFBIG;
		}
	}
	if (new_page)
		*new_page = fresh;
	p = sp->page + sp->used;
	delta = ev->ts - sp->last_ts;
	if (delta > RB_DELTA_MAX) {
		put32(p, event_word(RB_TYPE_TIME_EXTEND, delta));
		put32(p + 4, (uint32_t)(delta >> RB_DELTA_BITS));
		p += 8;
		delta = 0;
	}
	data = (ev->size + 3) & ~3U;
	if (ev->size && data <= RB_TYPE_LEN_DATA_MAX * 4) {
		put32(p, event_word(data / 4, delta));
		p += 4;
	} else {
		put32(p, event_word(0, delta));
		put32(p + 4, ev->size + 4);
		p += 8;
	}
	memcpy(p, ev->data, ev->size);
	p += data;
	sp->used = (uint32_t)(p - sp->page);
	sp->last_ts = ev->ts;
	return 0;
}

int split_pages_flush(struct split_pages *sp, struct strbuf *err)
{
	int ret = close_page(sp, err);

	if (ret)
		return ret;
	ret = dat_stage_flush(&sp->stage);
	return ret ? out_err(err, ret) : 0;
}

const struct dat_cpu_source *split_pages_source(const struct split_pages *sp)
{
	return &sp->cs;
}
