// SPDX-License-Identifier: GPL-2.0-only
/*
 * trace.dat writer: the text of a latency tracer (irqsoff, wakeup...) in place of CPU data, as
 * trace-cmd stores it. v6: "latency  " and the text up to the end of the file. v7: a
 * BUFFER_TEXT section named "buffer latency", its text compressed in chunks of ten pages like
 * flyrecord data (a chunk count, then <compressed size><raw size><bytes> per chunk).
 *
 * The v7 section comes last, after the options and strings sections: trace-cmd reads an
 * uncompressed latency section up to the end of the file rather than up to its size.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ktrace/dat_chunk.h"
#include "ktrace/dat_format.h"
#include "writer_internal.h"

static int write_chunks(struct dat_writer *w, const struct dat_blob *text)
{
	size_t chunk = (size_t)DAT_CHUNK_PAGES * w->page_size, done, n, zlen;
	size_t bound = dat_chunk_bound(w->comp, chunk);
	const char *p = text->data;
	uint32_t count = 0;
	uint64_t count_at = w->off;
	char *z = malloc(bound);
	int ret;

	if (!z)
		return -ENOMEM;
	ret = dat_w_put32(w, 0);
	for (done = 0; !ret && done < text->size; done += n) {
		n = text->size - done < chunk ? text->size - done : chunk;
		ret = dat_chunk_pack(w->codec, p + done, n, DAT_HOST_BIG_ENDIAN, z, bound, &zlen);
		if (!ret)
			ret = dat_w_write(w, z, zlen);
		count++;
	}
	if (!ret)
		ret = dat_w_patch(w, count_at, &count, sizeof(count));
	free(z);
	return ret;
}

/* The BUFFER_TEXT option: <8 bytes section offset><name>\0<clock>\0; the offset is patched. */
static int text_option(struct dat_writer *w, const char *clock)
{
	struct strbuf sb = STRBUF_INIT;
	uint64_t zero = 0;
	int ret;

	ret = strbuf_add(&sb, &zero, 8);
	if (!ret)
		ret = strbuf_add(&sb, "", 1);
	if (!ret)
		ret = strbuf_add(&sb, clock, strlen(clock) + 1);
	if (!ret)
		ret = dat_w_option_add(w, DAT_OPT_BUFFER_TEXT, sb.buf, (uint32_t)sb.len);
	strbuf_release(&sb);
	return ret;
}

static int write_latency_v7(struct dat_writer *w, const char *clock, const struct dat_blob *text)
{
	uint64_t start, size_at;
	uint32_t desc;
	int index, ret;

	index = text_option(w, clock);
	if (index < 0)
		return index;
	ret = dat_w_string(w, "buffer latency", &desc);
	if (!ret)
		ret = dat_w_options_section(w);
	if (!ret)
		ret = dat_w_strings_section(w);
	start = w->off;
	if (!ret)
		ret = dat_w_patch(w, w->opts[index].data_offset, &start, sizeof(start));
	if (!ret)
		ret = dat_w_section_header(w, DAT_OPT_BUFFER_TEXT,
					   w->codec ? DAT_SECTION_FLAG_COMPRESSED : 0, desc,
					   &size_at);
	if (!ret && w->codec)
		ret = write_chunks(w, text);
	else if (!ret)
		ret = dat_w_write(w, text->data, text->size);
	if (!ret)
		ret = dat_w_section_end(w, size_at);
	w->sections_done = true;
	return ret;
}

int dat_writer_latency(struct dat_writer *w, const char *clock, const struct dat_blob *text,
		       struct strbuf *err)
{
	int ret;

	if (w->version < 7) {
		ret = dat_w_put32(w, (uint32_t)w->cpus);
		if (!ret)
			ret = dat_w_options_v6(w);
		if (!ret)
			ret = dat_w_write(w, "latency  ", 10);
		if (!ret)
			ret = dat_w_write(w, text->data, text->size);
	} else {
		ret = write_latency_v7(w, clock ? clock : "local", text);
	}
	if (ret && err)
		strbuf_addf(err, "writing the latency text: %s", strerror(-ret));
	return ret;
}
