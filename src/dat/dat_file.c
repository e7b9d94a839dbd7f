// SPDX-License-Identifier: GPL-2.0-only
/*
 * Opening a trace.dat file: the initial header (magic, version, endianness, long size, page
 * size and, from v7, the compression), then the v6 or v7 layout.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <traceevent/event-parse.h>

#include "dat_internal.h"
#include "ktrace/dat_format.h"

static bool host_big_endian(void)
{
	const uint16_t one = 1;

	return *(const uint8_t *)&one == 0;
}

static int read_compression(struct dat_file *df, struct dat_in *in, struct strbuf *err)
{
	uint64_t at = dat_in_offset(in);
	const char *s;
	int ret;

	ret = dat_in_str(in, DAT_MAX_STRING, &s, err);
	if (!ret && !(df->comp_name = strdup(s)))
		ret = -ENOMEM;
	if (!ret)
		ret = dat_in_str(in, DAT_MAX_STRING, &s, err);
	if (!ret && !(df->comp_version = strdup(s)))
		ret = -ENOMEM;
	if (ret)
		return ret == -ENOMEM ? dat_err(err, df, "compression header", at, ret,
						"out of memory") : ret;
	if (kt_compression_from_name(df->comp_name, &df->comp))
		return dat_err(err, df, "compression header", at, -EPROTONOSUPPORT,
			       "unknown compression \"%.64s\"", df->comp_name);
	if (df->comp != KT_COMP_NONE && kt_codec_new(df->comp, &df->codec))
		return dat_err(err, df, "compression header", at, -ENOMEM, "out of memory");
	return 0;
}

/* See DAT_MAGIC_UNFINISHED; the per-CPU data lived in unlinked files, gone with the writer. */
static int unfinished(const struct dat_file *df, struct strbuf *err)
{
	if (err) {
		strbuf_reset(err);
		strbuf_addf(err, "%s: incomplete recording (ktrace record was interrupted before it "
			    "finished writing; its events were lost, record again)", df->name);
	}
	return -EBADMSG;
}

static int read_initial(struct dat_file *df, struct dat_in *in, struct strbuf *err)
{
	const uint8_t *p;
	const char *ver;
	int ret;

	ret = dat_in_blob(in, DAT_MAGIC_LEN, &p, err);
	if (!ret && memcmp(p, DAT_MAGIC_UNFINISHED, DAT_MAGIC_LEN) == 0)
		return unfinished(df, err);
	if (ret || memcmp(p, DAT_MAGIC, DAT_MAGIC_LEN) != 0)
		return dat_err(err, df, "file header", 0, -EBADMSG,
			       "not a trace-cmd data file (wrong magic)");
	ret = dat_in_str(in, 16, &ver, err);
	if (ret)
		return ret;
	if (strcmp(ver, "6") != 0 && strcmp(ver, "7") != 0)
		return dat_err(err, df, "file header", DAT_MAGIC_LEN, -EPROTONOSUPPORT,
			       "unsupported file version \"%.16s\"", ver);
	df->version = ver[0] - '0';
	ret = dat_in_blob(in, 2, &p, err);
	if (ret)
		return ret;
	if (p[0] > 1)
		return dat_err(err, df, "file header", in->pos - 2, -EBADMSG,
			       "endianness flag %u is neither 0 nor 1", p[0]);
	if (p[1] != 4 && p[1] != 8)
		return dat_err(err, df, "file header", in->pos - 1, -EBADMSG,
			       "long size %u is neither 4 nor 8", p[1]);
	df->big_endian = p[0];
	df->long_size = p[1];
	df->meta.header_long_size = p[1];
	ret = dat_in_u32(in, &df->page_size, err);
	if (ret)
		return ret;
	if (df->page_size < DAT_MIN_PAGE_SIZE || df->page_size > DAT_MAX_PAGE_SIZE ||
	    (df->page_size & (df->page_size - 1)))
		return dat_err(err, df, "file header", in->pos - 4, -EBADMSG,
			       "page size %u is not a power of two in [%u, %u]", df->page_size,
			       DAT_MIN_PAGE_SIZE, DAT_MAX_PAGE_SIZE);
	if (df->version >= 7)
		return read_compression(df, in, err);
	return 0;
}

static int setup_tep(struct dat_file *df, struct strbuf *err)
{
	if (df->opts.no_tep)
		return 0;
	df->tep = tep_alloc();
	if (!df->tep)
		return dat_err(err, df, "file header", 0, -ENOMEM, "out of memory");
	tep_set_file_bigendian(df->tep, df->big_endian ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(df->tep, host_big_endian() ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_long_size(df->tep, df->long_size);
	tep_set_page_size(df->tep, (int)df->page_size);
	if (df->opts.prepare_tep && df->opts.prepare_tep(df->tep, df->version, df->opts.prepare_arg))
		return dat_err(err, df, "file header", 0, -EINVAL,
			       "setting up the event parser failed");
	return 0;
}

/* Buffer 0 is the top instance when there is one: the order trace-cmd report merges them. */
static void top_buffer_first(struct dat_file *df)
{
	struct dat_buffer top;
	int i;

	for (i = 1; i < df->nr_buffers; i++) {
		if (df->buffers[i].name[0] == '\0') {
			top = df->buffers[i];
			memmove(&df->buffers[1], &df->buffers[0], i * sizeof(top));
			df->buffers[0] = top;
			return;
		}
	}
}

static int open_fd(struct dat_file *df, const char *path, struct strbuf *err)
{
	struct stat st;

	df->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (df->fd < 0)
		return dat_err(err, df, "file", 0, -errno, "cannot open: %s", strerror(errno));
	if (fstat(df->fd, &st) < 0)
		return dat_err(err, df, "file", 0, -errno, "cannot stat: %s", strerror(errno));
	if (!S_ISREG(st.st_mode))
		return dat_err(err, df, "file", 0, -EINVAL, "not a regular file");
	df->file_size = (uint64_t)st.st_size;
	return 0;
}

int dat_file_open_opts(const char *path, const struct dat_open_opts *opts,
		       struct dat_file **out, struct strbuf *err)
{
	struct dat_file *df = calloc(1, sizeof(*df));
	struct dat_in in;
	int ret;

	if (!df || !(df->path = strdup(path))) {
		free(df);
		if (err) {
			strbuf_reset(err);
			strbuf_addf(err, "%s: out of memory", path);
		}
		return -ENOMEM;
	}
	df->name = df->path;
	df->fd = -1;
	if (opts)
		df->opts = *opts;
	df->in_usecs = true;
	df->ts_offset = df->opts.ts_offset;
	ret = open_fd(df, path, err);
	if (ret)
		goto fail;
	dat_in_file(&in, df, "file header", 0, df->file_size);
	ret = read_initial(df, &in, err);
	if (!ret)
		ret = setup_tep(df, err);
	if (!ret && df->version >= 7)
		ret = dat_read_v7(df, in.pos, err);
	else if (!ret)
		ret = dat_read_v6(df, in.pos, err);
	dat_in_release(&in);
	if (ret)
		goto fail;
	top_buffer_first(df);
	*out = df;
	return 0;
fail:
	dat_file_close(df);
	return ret;
}

int dat_file_open(const char *path, struct dat_file **out, struct strbuf *err)
{
	/* its readers (hist, sql, export, mem, split) read every page in order */
	struct dat_open_opts opts = { .decompress_ahead = true };

	return dat_file_open_opts(path, &opts, out, err);
}

void dat_file_close(struct dat_file *df)
{
	int i;

	if (!df)
		return;
	/* the streams are closed by now: nothing is queued */
	dat_ahead_stop(df->ahead);
	if (df->fd >= 0)
		close(df->fd);
	for (i = 0; i < df->nr_buffers; i++) {
		free(df->buffers[i].cpus);
		free((char *)df->buffers[i].name);
		free((char *)df->buffers[i].clock);
	}
	free(df->buffers);
	for (i = 0; i < df->nr_blobs; i++)
		free(df->blobs[i]);
	free(df->blobs);
	free(df->opts_list);
	free(df->opt_sections);
	free(df->sections);
	free(df->strings);
	free(df->v6_clock);
	free(df->latency);
	free(df->trace_clock);
	free(df->comp_name);
	free(df->comp_version);
	kt_codec_free(df->codec);
	dat_tsync_free(df->tsync);
	if (df->tep && df->opts.release_tep)
		df->opts.release_tep(df->tep, df->opts.prepare_arg);
	if (df->tep)
		tep_free(df->tep);
	dat_kallsyms_free(df);
	free(df->path);
	free(df);
}

int dat_file_load_section(struct dat_file *df, uint64_t offset, void **data, uint64_t *size,
			  struct strbuf *err)
{
	struct dat_section sec;
	uint8_t *buf;
	int ret = dat_section_header(df, offset, &sec, err);

	if (!ret)
		ret = dat_section_load(df, &sec, &buf, size, err);
	if (!ret)
		*data = buf;
	return ret;
}

int dat_file_load_v6_block(struct dat_file *df, int id, void **data, uint64_t *size,
			   struct strbuf *err)
{
	int i = id - DAT_OPT_HEADER_INFO;
	uint64_t len;
	uint8_t *buf;
	int ret;

	if (df->version >= 7 || i < 0 || i >= 6)
		return dat_err(err, df, "file", 0, -EINVAL, "no v6 block for option %d", id);
	len = df->v6_block_end[i] - df->v6_block_start[i];
	buf = malloc(len + 1);
	if (!buf)
		return dat_err(err, df, "file", df->v6_block_start[i], -ENOMEM, "out of memory");
	ret = dat_pread(df, buf, len, df->v6_block_start[i], "metadata", err);
	if (ret) {
		free(buf);
		return ret;
	}
	buf[len] = '\0';
	*data = buf;
	*size = len;
	return 0;
}
