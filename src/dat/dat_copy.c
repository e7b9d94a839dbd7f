// SPDX-License-Identifier: GPL-2.0-only
/*
 * The metadata of one trace.dat handed to the writer for another: each block is read as the
 * file has it (v6 in place, v7 from its section, decompressed) and walked into the writer's
 * blobs, so that the bytes are laid out (and compressed) by the writer alone.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ktrace/dat.h"
#include "ktrace/dat_bytes.h"
#include "ktrace/dat_chunk.h"
#include "ktrace/dat_copy.h"
#include "ktrace/dat_format.h"
#include "ktrace/dat_writer.h"

struct copy_block {
	void *data;
	uint64_t size;
	struct dat_bytes b;
};

static int load_block(struct dat_file *df, int id, struct copy_block *blk, struct strbuf *err)
{
	struct dat_bytes opt = { NULL, 0, 0, dat_file_big_endian(df) };
	uint64_t offset;
	uint32_t len;
	int ret;

	blk->data = NULL;
	blk->size = 0;
	if (dat_file_version(df) < 7) {
		ret = dat_file_load_v6_block(df, id, &blk->data, &blk->size, err);
	} else {
		opt.p = dat_file_option(df, id, 0, &len);
		opt.len = len;
		if (!opt.p || dat_bytes_num(&opt, 8, &offset))
			ret = 0;	/* none in the file: written empty */
		else
			ret = dat_file_load_section(df, offset, &blk->data, &blk->size, err);
	}
	blk->b = (struct dat_bytes){ blk->data, blk->data ? blk->size : 0, 0,
				     dat_file_big_endian(df) };
	return ret;
}

/* <size of `bytes` bytes><data>; an empty block gives an empty blob. */
static int take_sized(struct dat_bytes *b, int bytes, struct dat_blob *out)
{
	const uint8_t *p;
	uint64_t n;

	out->data = "";
	out->size = 0;
	if (!b->len)
		return 0;
	if (dat_bytes_num(b, bytes, &n) || dat_bytes_run(b, n, &p))
		return -EBADMSG;
	out->data = p;
	out->size = n;
	return 0;
}

static int take_tag(struct dat_bytes *b, const char *tag)
{
	const char *s;

	if (!b->len)
		return 0;
	if (dat_bytes_str(b, &s) || strcmp(s, tag))
		return -EBADMSG;
	return 0;
}

/* <4 count>{<8 size><format>}: the blobs point into the block. */
static int take_formats(struct dat_bytes *b, struct dat_blob **out, int *nr)
{
	uint64_t count, i;
	int ret = 0;

	*out = NULL;
	*nr = 0;
	if (!b->len)
		return 0;
	if (dat_bytes_num(b, 4, &count) || count > b->len)
		return -EBADMSG;
	*out = calloc(count + 1, sizeof(**out));
	if (!*out)
		return -ENOMEM;
	for (i = 0; !ret && i < count; i++)
		ret = take_sized(b, 8, &(*out)[i]);
	*nr = (int)count;
	return ret;
}

static int copy_headers(struct dat_writer *w, struct copy_block *blk, struct strbuf *err)
{
	struct dat_blob page, event;
	int ret;

	ret = take_tag(&blk->b, "header_page");
	if (!ret)
		ret = take_sized(&blk->b, 8, &page);
	if (!ret)
		ret = take_tag(&blk->b, "header_event");
	if (!ret)
		ret = take_sized(&blk->b, 8, &event);
	if (ret)
		return ret;
	return dat_writer_headers(w, &page, &event, err) ? -EIO : 0;
}

static int copy_ftrace(struct dat_writer *w, struct copy_block *blk, struct strbuf *err)
{
	struct dat_blob *formats;
	int nr, ret;

	ret = take_formats(&blk->b, &formats, &nr);
	if (!ret)
		ret = dat_writer_ftrace_formats(w, formats, nr, err) ? -EIO : 0;
	free(formats);
	return ret;
}

static int copy_events(struct dat_writer *w, struct copy_block *blk, struct strbuf *err)
{
	struct dat_event_system *systems = NULL;
	uint64_t count = 0, i;
	int ret = 0;

	if (blk->b.len && (dat_bytes_num(&blk->b, 4, &count) || count > blk->b.len))
		return -EBADMSG;
	systems = calloc(count + 1, sizeof(*systems));
	if (!systems)
		return -ENOMEM;
	for (i = 0; !ret && i < count; i++) {
		struct dat_blob *formats = NULL;

		ret = dat_bytes_str(&blk->b, &systems[i].name) ? -EBADMSG : 0;
		if (!ret)
			ret = take_formats(&blk->b, &formats, &systems[i].nr_formats);
		systems[i].formats = formats;
	}
	if (!ret)
		ret = dat_writer_event_formats(w, systems, (int)count, err) ? -EIO : 0;
	for (i = 0; i < count; i++)
		free((void *)systems[i].formats);
	free(systems);
	return ret;
}

static int copy_one(struct dat_writer *w, int id, struct copy_block *blk, struct strbuf *err)
{
	struct dat_blob blob;
	int ret;

	switch (id) {
	case DAT_OPT_HEADER_INFO:
		return copy_headers(w, blk, err);
	case DAT_OPT_FTRACE_EVENTS:
		return copy_ftrace(w, blk, err);
	case DAT_OPT_EVENT_FORMATS:
		return copy_events(w, blk, err);
	case DAT_OPT_KALLSYMS:
		ret = take_sized(&blk->b, 4, &blob);
		return ret ? ret : dat_writer_kallsyms(w, &blob, err) ? -EIO : 0;
	case DAT_OPT_PRINTK:
		ret = take_sized(&blk->b, 4, &blob);
		return ret ? ret : dat_writer_printk(w, &blob, err) ? -EIO : 0;
	default:
		ret = take_sized(&blk->b, 8, &blob);
		return ret ? ret : dat_writer_cmdlines(w, &blob, err) ? -EIO : 0;
	}
}

int dat_copy_metadata(struct dat_file *df, struct dat_writer *w, struct strbuf *err)
{
	static const char *const names[] = {
		"headers", "ftrace formats", "event formats", "kallsyms", "printk formats",
		"cmdlines",
	};
	struct copy_block blk;
	size_t before;
	int id, ret = 0;

	if (dat_file_big_endian(df) != DAT_HOST_BIG_ENDIAN) {
		strbuf_addf(err, "%s: a file of the other byte order cannot be copied",
			    dat_file_path(df));
		return -EPROTONOSUPPORT;
	}
	for (id = DAT_OPT_HEADER_INFO; !ret && id <= DAT_OPT_CMDLINES; id++) {
		ret = load_block(df, id, &blk, err);
		if (ret)
			break;
		before = err->len;
		ret = copy_one(w, id, &blk, err);
		if (ret && err->len == before)
			strbuf_addf(err, "%s: the %s block is damaged", dat_file_path(df),
				    names[id - DAT_OPT_HEADER_INFO]);
		free(blk.data);
	}
	return ret;
}
