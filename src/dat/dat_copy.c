// SPDX-License-Identifier: GPL-2.0-only
/*
 * A trace.dat rewritten in another version or compression, or cut into pieces (split), through
 * the one writer (dat_copy.h). The metadata payloads
 * and the options travel as they are; what depends on the layout (the offsets of sections and
 * buffers, v6's CPU count field, v7's CPUCOUNT option) the writer makes anew, as trace-cmd's
 * tracecmd_copy() does. Pages go through the reader's page stream into a staging file per CPU,
 * in the writer's compression, because the writer takes CPU data as files.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ktrace/dat_chunk.h"
#include "ktrace/dat_copy.h"
#include "ktrace/dat_format.h"
#include "ktrace/dat_stage.h"
#include "ktrace/fdio.h"

/* An empty payload of each metadata option: its count or size fields at zero. */
static const uint8_t no_payload[8];
static const size_t no_payload_size[] = {
	[DAT_OPT_FTRACE_EVENTS - DAT_OPT_HEADER_INFO] = 4,
	[DAT_OPT_EVENT_FORMATS - DAT_OPT_HEADER_INFO] = 4,
	[DAT_OPT_KALLSYMS - DAT_OPT_HEADER_INFO] = 4,
	[DAT_OPT_PRINTK - DAT_OPT_HEADER_INFO] = 4,
	[DAT_OPT_CMDLINES - DAT_OPT_HEADER_INFO] = 8,
};

static int load_payload(struct dat_file *df, int id, void **data, uint64_t *size,
			struct strbuf *err)
{
	const void *opt;
	uint64_t offset;
	uint32_t len;

	*data = NULL;
	*size = 0;
	if (dat_file_version(df) < 7)
		return dat_file_load_v6_block(df, id, data, size, err);
	opt = dat_file_option(df, id, 0, &len);
	if (!opt)
		return 0;
	if (len < 8) {
		strbuf_addf(err, "%s: option %d of %u bytes holds no section offset",
			    dat_file_path(df), id, len);
		return -EBADMSG;
	}
	memcpy(&offset, opt, 8);
	return dat_file_load_section(df, offset, data, size, err);
}

/* The writer writes numbers in the host's order: a file of the other cannot pass through. */
static int check_byte_order(struct dat_file *df, struct strbuf *err)
{
	if (dat_file_big_endian(df) == DAT_HOST_BIG_ENDIAN)
		return 0;
	strbuf_addf(err, "%s: a %s-endian file is not rewritten on this machine",
		    dat_file_path(df), dat_file_big_endian(df) ? "big" : "little");
	return -EOPNOTSUPP;
}

int dat_copy_metadata(struct dat_file *df, struct dat_writer *w, struct strbuf *err)
{
	/* trace-cmd 3.4's file sections; LAST_BOOT_INFO is an option, copied with the options */
	static const int file_sections[] = { DAT_OPT_BTF_FILE, DAT_OPT_MODULES_FILE };
	struct dat_blob blob;
	uint64_t size;
	size_t i;
	void *data;
	int id, ret = check_byte_order(df, err);

	if (ret)
		return ret;

	for (id = DAT_OPT_HEADER_INFO; !ret && dat_opt_is_reader_section(id); id++) {
		ret = load_payload(df, id, &data, &size, err);
		if (ret)
			break;
		blob.data = data;
		blob.size = size;
		if (!size && id == DAT_OPT_HEADER_INFO) {
			strbuf_addf(err, "%s: no header_page and header_event formats",
				    dat_file_path(df));
			ret = -EBADMSG;
		} else if (!size) {
			blob.data = no_payload;
			blob.size = no_payload_size[id - DAT_OPT_HEADER_INFO];
		}
		if (!ret)
			ret = dat_writer_metadata_payload(w, (uint16_t)id, &blob, err);
		free(data);
	}
	for (i = 0; !ret && i < sizeof(file_sections) / sizeof(file_sections[0]); i++) {
		id = file_sections[i];
		if (dat_file_version(df) < 7 || !dat_file_option(df, id, 0, NULL))
			continue;
		ret = load_payload(df, id, &data, &size, err);
		blob.data = data;
		blob.size = size;
		if (!ret)
			ret = dat_writer_metadata_payload(w, (uint16_t)id, &blob, err);
		free(data);
	}
	return ret;
}

/* The options the writer makes from the layout it writes: copying them would point elsewhere. */
static bool layout_option(int id)
{
	switch (id) {
	case DAT_OPT_DONE:
	case DAT_OPT_BUFFER:
	case DAT_OPT_BUFFER_TEXT:
	case DAT_OPT_CPUCOUNT:
	case DAT_OPT_STRINGS:
		return true;
	default:
		return dat_opt_is_reader_section(id) || dat_opt_is_file_section(id);
	}
}

static int copy_options(struct dat_file *df, struct dat_writer *w, struct strbuf *err)
{
	const void *data;
	uint32_t size;
	int i, id, ret = 0;

	for (i = 0; !ret && i < dat_file_nr_options(df); i++) {
		data = dat_file_option_at(df, i, &id, &size, NULL);
		if (!layout_option(id))
			ret = dat_writer_add_option(w, (uint16_t)id, data, size);
	}
	if (ret)
		strbuf_addf(err, "copying the options: %s", strerror(-ret));
	return ret;
}

/*
 * The CPU count the file declares (v6's field, v7's CPUCOUNT), raised to cover every CPU a
 * buffer holds: v6 lays out one flyrecord slot per CPU up to it.
 */
static int cpu_count(struct dat_file *df)
{
	const struct dat_buffer *b;
	const void *opt;
	uint32_t size, n = 0;
	int i, j, cpus;

	if (dat_file_version(df) < 7)
		n = dat_file_meta(df)->v6_cpus;
	else if ((opt = dat_file_option(df, DAT_OPT_CPUCOUNT, 0, &size)) && size == 4)
		memcpy(&n, opt, 4);
	cpus = (int)n;
	for (i = 0; i < dat_file_nr_buffers(df); i++) {
		b = dat_file_buffer(df, i);
		for (j = 0; j < b->nr_cpus; j++)
			if (b->cpus[j].cpu >= cpus)
				cpus = b->cpus[j].cpu + 1;
	}
	return cpus;
}

static int stage_cpu(struct dat_file *df, int buffer, int index, struct dat_stage *st,
		     const char *tmp_dir, struct strbuf *err)
{
	const struct dat_buffer *b = dat_file_buffer(df, buffer);
	struct dat_page_stream *ps;
	const void *page;
	int ret;

	st->cs->cpu = b->cpus[index].cpu;
	st->cs->fd = fd_open_temp(tmp_dir);
	if (st->cs->fd < 0) {
		ret = st->cs->fd;
		strbuf_addf(err, "a staging file in %s: %s", tmp_dir, strerror(-ret));
		return ret;
	}
	ret = dat_page_stream_open(df, buffer, index, &ps, err);
	if (ret)
		return ret;
	while ((ret = dat_page_stream_next(ps, &page, err)) > 0) {
		ret = dat_stage_page(st, page);
		if (ret)
			break;
	}
	if (!ret)
		ret = dat_stage_flush(st);
	dat_page_stream_close(ps);
	if (ret && !err->len)
		strbuf_addf(err, "staging cpu %d of buffer \"%s\": %s", st->cs->cpu, b->name,
			    strerror(-ret));
	return ret;
}

static int stage_buffer(struct dat_file *df, int buffer, struct kt_codec *codec,
			struct dat_buffer_source *src, const char *tmp_dir, struct strbuf *err)
{
	const struct dat_buffer *b = dat_file_buffer(df, buffer);
	struct dat_cpu_source *cpus;
	struct dat_stage st;
	int i, ret = 0;

	src->name = b->name;
	src->clock = b->clock && b->clock[0] ? b->clock : "local";
	src->page_size = b->page_size;
	cpus = calloc((size_t)b->nr_cpus + 1, sizeof(*cpus));
	if (!cpus)
		return -ENOMEM;
	src->cpus = cpus;
	for (i = 0; i < b->nr_cpus; i++)
		cpus[i].fd = -1;
	src->nr_cpus = b->nr_cpus;
	ret = dat_stage_init(&st, codec, b->page_size);
	for (i = 0; !ret && i < b->nr_cpus; i++) {
		st.cs = &cpus[i];
		ret = stage_cpu(df, buffer, i, &st, tmp_dir, err);
	}
	dat_stage_release(&st);
	return ret;
}

static void free_buffers(struct dat_buffer_source *bufs, int nr)
{
	int i, j;

	for (i = 0; bufs && i < nr; i++) {
		for (j = 0; j < bufs[i].nr_cpus; j++)
			if (bufs[i].cpus[j].fd >= 0)
				close(bufs[i].cpus[j].fd);
		free((void *)bufs[i].cpus);
	}
	free(bufs);
}

static int copy_buffers(struct dat_file *df, struct dat_writer *w,
			const struct dat_writer_config *cfg, const char *tmp_dir,
			struct strbuf *err)
{
	int i, nr = dat_file_nr_buffers(df), ret = 0;
	struct dat_buffer_source *bufs;
	struct kt_codec *codec = NULL;

	bufs = calloc((size_t)nr + 1, sizeof(*bufs));
	if (!bufs)
		return -ENOMEM;
	if (cfg->version >= 7 && cfg->compression != KT_COMP_NONE) {
		ret = kt_codec_new(cfg->compression, &codec);
		if (!ret)
			kt_codec_like_trace_cmd(codec);
	}
	for (i = 0; !ret && i < nr; i++)
		ret = stage_buffer(df, i, codec, &bufs[i], tmp_dir, err);
	if (!ret)
		ret = dat_writer_buffers(w, bufs, nr, err);
	else if (!err->len)
		strbuf_addf(err, "staging the trace data: %s", strerror(-ret));
	kt_codec_free(codec);
	free_buffers(bufs, nr);
	return ret;
}

static int copy_latency(struct dat_file *df, struct dat_writer *w, struct strbuf *err)
{
	const struct dat_buffer *b = dat_file_buffer(df, 0);
	struct dat_blob text;
	uint64_t size;

	text.data = dat_file_latency_text(df, &size);
	text.size = size;
	if (!text.data)
		text.data = "";
	return dat_writer_latency(w, b->clock && b->clock[0] ? b->clock : NULL, &text, err);
}

static bool is_latency(struct dat_file *df)
{
	return dat_file_nr_buffers(df) > 0 && dat_file_buffer(df, 0)->latency;
}

/* The additions of dat_file_copy_with(): file sections as metadata, the others as options */
static int add_extra(struct dat_writer *w, const struct dat_extra *extra, int nr,
		     struct strbuf *err)
{
	struct dat_blob blob;
	int i, ret = 0;

	for (i = 0; !ret && i < nr; i++) {
		blob.data = extra[i].data;
		blob.size = extra[i].size;
		if (dat_opt_is_file_section(extra[i].id))
			ret = dat_writer_metadata_payload(w, extra[i].id, &blob, err);
		else
			ret = dat_writer_add_option(w, extra[i].id, extra[i].data,
						    (uint32_t)extra[i].size);
	}
	return ret;
}

int dat_file_copy(struct dat_file *df, int out_fd, const struct dat_writer_config *cfg,
		  const char *tmp_dir, struct strbuf *err)
{
	return dat_file_copy_with(df, out_fd, cfg, tmp_dir, NULL, 0, err);
}

int dat_file_copy_with(struct dat_file *df, int out_fd, const struct dat_writer_config *cfg,
		       const char *tmp_dir, const struct dat_extra *extra, int nr_extra,
		       struct strbuf *err)
{
	struct dat_writer_config wc = *cfg;
	struct dat_writer *w;
	int ret;

	ret = check_byte_order(df, err);
	if (ret)
		return ret;
	if (!wc.page_size)
		wc.page_size = dat_file_page_size(df);
	if (!wc.long_size)
		wc.long_size = dat_file_meta(df)->header_long_size;
	ret = dat_writer_open(out_fd, &wc, &w, err);
	if (ret)
		return ret;
	ret = dat_copy_metadata(df, w, err);
	if (!ret)
		ret = copy_options(df, w, err);
	if (!ret)
		ret = add_extra(w, extra, nr_extra, err);
	if (!ret)
		ret = dat_writer_cpu_count(w, cpu_count(df));
	if (!ret)
		ret = is_latency(df) ? copy_latency(df, w, err) : copy_buffers(df, w, cfg, tmp_dir,
									      err);
	if (!ret)
		ret = dat_writer_finish(w, err);
	else if (!err->len)
		strbuf_addf(err, "%s: %s", dat_file_path(df), strerror(-ret));
	dat_writer_free(w);
	return ret;
}
