// SPDX-License-Identifier: GPL-2.0-only
/*
 * The v6 layout: the metadata blocks one after the other, the CPU count, an optional
 * "options  " block, then "latency  " text or "flyrecord" offset/size pairs followed by the
 * trace_clock text. -B instances point with their BUFFER option at their own "flyrecord" pairs.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>

#include "dat_internal.h"
#include "ktrace/dat_format.h"

#define KIND_LEN 10

static int read_meta_blocks(struct dat_file *df, struct dat_in *in, struct strbuf *err)
{
	static const struct {
		const char *what;
		int (*parse)(struct dat_in *in, struct strbuf *err);
	} blocks[] = {
		{ "header info", dat_meta_header_info },
		{ "ftrace formats", dat_meta_ftrace },
		{ "event formats", dat_meta_events },
		{ "kallsyms", dat_meta_kallsyms },
		{ "printk formats", dat_meta_printk },
		{ "saved cmdlines", dat_meta_cmdlines },
	};
	size_t i;
	int ret;

	for (i = 0; i < sizeof(blocks) / sizeof(blocks[0]); i++) {
		in->what = blocks[i].what;
		df->v6_block_start[i] = in->pos;
		ret = blocks[i].parse(in, err);
		if (ret)
			return ret;
		df->v6_block_end[i] = in->pos;
	}
	return 0;
}

static int read_cpu_pairs(struct dat_file *df, struct dat_in *in, struct dat_buffer *b,
			  struct strbuf *err)
{
	int i, ret;

	b->cpus = calloc(df->nr_cpus ? df->nr_cpus : 1, sizeof(*b->cpus));
	if (!b->cpus)
		return dat_in_err(err, in, -ENOMEM, "out of memory");
	b->page_size = df->page_size;
	for (i = 0; i < df->nr_cpus; i++) {
		struct dat_cpu *c = &b->cpus[i];

		c->cpu = i;
		ret = dat_in_u64(in, &c->offset, err);
		if (!ret)
			ret = dat_in_u64(in, &c->size, err);
		if (ret)
			return ret;
		if (c->size && (c->offset > df->file_size || c->size > df->file_size - c->offset))
			return dat_in_err(err, in, -EBADMSG,
					  "cpu %d data at %llu, %llu bytes, runs past the end of "
					  "the file (%llu bytes): file truncated?", i,
					  (unsigned long long)c->offset,
					  (unsigned long long)c->size,
					  (unsigned long long)df->file_size);
		b->nr_cpus = i + 1;
	}
	return 0;
}

static bool has_option(const struct dat_file *df, int id)
{
	int i;

	for (i = 0; i < df->nr_opts; i++)
		if (df->opts_list[i].id == id)
			return true;
	return false;
}

static int read_clock(struct dat_file *df, struct dat_in *in, struct strbuf *err)
{
	const uint8_t *p;
	uint64_t size;
	int ret;

	in->what = "trace clock";
	ret = dat_in_u64(in, &size, err);
	if (!ret && size > DAT_MAX_STRING)
		ret = dat_in_err(err, in, -EBADMSG, "trace clock of %llu bytes",
				 (unsigned long long)size);
	if (!ret)
		ret = dat_in_blob(in, size, &p, err);
	if (ret) {
		/* trace-cmd falls back to the local clock when this text is damaged */
		if (df->use_trace_clock)
			dat_parse_trace_clock(df, "[local]", 7);
		return 0;
	}
	df->v6_clock = strndup((const char *)p, size);
	if (!df->v6_clock)
		return dat_in_err(err, in, -ENOMEM, "out of memory");
	df->meta.v6_clock = df->v6_clock;
	if (df->use_trace_clock)
		dat_parse_trace_clock(df, df->v6_clock, strlen(df->v6_clock));
	return 0;
}

/* The text runs to the end of the file; it is the top buffer's data, as v7's BUFFER_TEXT. */
static int read_latency(struct dat_file *df, struct dat_in *in, struct strbuf *err)
{
	uint64_t len = df->file_size - in->pos;
	struct dat_buffer *top;
	const uint8_t *p;
	int ret;

	df->meta.latency = true;
	top = dat_buffer_add(df, "");
	if (!top || !(top->name = strdup("")) ||
	    !(top->clock = strdup(df->trace_clock ? df->trace_clock : "")))
		return dat_in_err(err, in, -ENOMEM, "out of memory");
	top->latency = true;
	if (len > DAT_MAX_SECTION)
		return dat_in_err(err, in, -EFBIG, "latency text of %llu bytes",
				  (unsigned long long)len);
	ret = dat_in_blob(in, len, &p, err);
	if (ret)
		return ret;
	df->latency = malloc(len + 1);
	if (!df->latency)
		return dat_in_err(err, in, -ENOMEM, "out of memory");
	memcpy(df->latency, p, len);
	df->latency[len] = '\0';
	df->latency_size = len;
	return 0;
}

static int read_data_kind(struct dat_file *df, struct dat_in *in, struct strbuf *err)
{
	struct dat_buffer *top;
	const uint8_t *p;
	uint64_t end;
	int i, ret;

	in->what = "data kind";
	ret = dat_in_blob(in, KIND_LEN, &p, err);
	if (!ret && memcmp(p, "options", 7) == 0) {
		df->meta.v6_has_options = true;
		ret = dat_options_v6(df, in->pos, &end, err);
		in->pos = end;
		for (i = 0; !ret && i < df->nr_opts; i++)
			ret = dat_option_apply(df, &df->opts_list[i], err);
		if (!ret)
			ret = dat_in_blob(in, KIND_LEN, &p, err);
	}
	if (ret)
		return ret;
	if (memcmp(p, "latency", 7) == 0)
		return read_latency(df, in, err);
	if (memcmp(p, "flyrecord", 9) != 0) {
		in->pos -= KIND_LEN;
		return dat_in_err(err, in, -EBADMSG, "neither \"latency\" nor \"flyrecord\"");
	}
	top = dat_buffer_add(df, "");
	if (!top || !(top->name = strdup("")))
		return dat_in_err(err, in, -ENOMEM, "out of memory");
	in->what = "flyrecord";
	df->meta.v6_cpu_offsets_at = in->pos;
	ret = read_cpu_pairs(df, in, top, err);
	if (!ret && has_option(df, DAT_OPT_TRACECLOCK))
		ret = read_clock(df, in, err);
	if (!ret)
		top->clock = strdup(df->trace_clock ? df->trace_clock : "");
	if (!ret && !top->clock)
		ret = dat_in_err(err, in, -ENOMEM, "out of memory");
	return ret;
}

/* A -B instance: its BUFFER option points at "flyrecord" and its offset/size pairs. */
static int read_instance(struct dat_file *df, struct dat_buffer *b, struct strbuf *err)
{
	struct dat_in in;
	const uint8_t *p;
	int ret;

	dat_in_file(&in, df, "option BUFFER data", b->option_offset, df->file_size);
	ret = dat_in_blob(&in, KIND_LEN, &p, err);
	if (!ret && memcmp(p, "flyrecord", 9) != 0)
		ret = dat_err(err, df, "option BUFFER data", b->option_offset, -EBADMSG,
			      "buffer \"%s\" data does not start with \"flyrecord\"", b->name);
	if (!ret)
		ret = read_cpu_pairs(df, &in, b, err);
	if (!ret && !b->clock[0]) {
		free((char *)b->clock);
		b->clock = strdup(df->trace_clock ? df->trace_clock : "");
		if (!b->clock)
			ret = dat_in_err(err, &in, -ENOMEM, "out of memory");
	}
	dat_in_release(&in);
	return ret;
}

int dat_read_v6(struct dat_file *df, uint64_t off, struct strbuf *err)
{
	struct dat_in in;
	uint32_t cpus;
	int i, ret;

	dat_in_file(&in, df, "header info", off, df->file_size);
	ret = read_meta_blocks(df, &in, err);
	if (!ret) {
		in.what = "cpu count";
		ret = dat_in_u32(&in, &cpus, err);
	}
	if (!ret && cpus > DAT_MAX_CPUS)
		ret = dat_in_err(err, &in, -EBADMSG,
				 "cpu count %u exceeds %d", cpus, DAT_MAX_CPUS);
	if (!ret) {
		df->meta.v6_cpus = cpus;
		df->nr_cpus = (int)cpus;
		if (df->tep)
			tep_set_cpus(df->tep, df->nr_cpus);
		ret = read_data_kind(df, &in, err);
	}
	for (i = 0; !ret && i < df->nr_buffers; i++)
		if (df->buffers[i].name[0] && !df->buffers[i].latency)
			ret = read_instance(df, &df->buffers[i], err);
	dat_in_release(&in);
	return ret;
}
