// SPDX-License-Identifier: GPL-2.0-only
/*
 * v7 sections: a 16-byte header (id, flags, description string id, size), then the payload,
 * compressed as one block ("csize, rsize, data") when flag 0x1 is set, except for the buffer
 * sections whose per-CPU data is compressed in chunks (dat_stream.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dat_internal.h"
#include "ktrace/dat_chunk.h"
#include "ktrace/dat_format.h"

const char *dat_string(const struct dat_file *df, uint32_t id)
{
	if (!df->strings || id >= df->strings_size)
		return NULL;
	return df->strings + id;
}

int dat_section_header(struct dat_file *df, uint64_t off, struct dat_section *sec,
		       struct strbuf *err)
{
	uint8_t h[DAT_SECTION_HEADER_SIZE];
	int ret = dat_pread(df, h, sizeof(h), off, "section header", err);

	if (ret)
		return ret;
	memset(sec, 0, sizeof(*sec));
	sec->id = dat_get16(df, h);
	sec->flags = dat_get16(df, h + 2);
	sec->desc_id = dat_get32(df, h + 4);
	sec->size = dat_get64(df, h + 8);
	sec->offset = off;
	sec->desc = dat_string(df, sec->desc_id);
	if (sec->size > df->file_size - off - DAT_SECTION_HEADER_SIZE)
		return dat_err(err, df, "section header", off, -EBADMSG,
			       "section %u size %llu runs past the end of the file (%llu bytes)",
			       sec->id, (unsigned long long)sec->size,
			       (unsigned long long)df->file_size);
	return 0;
}

static int load_compressed(struct dat_file *df, const struct dat_section *sec, uint8_t **data,
			   uint64_t *size, struct strbuf *err)
{
	uint64_t at = sec->offset + DAT_SECTION_HEADER_SIZE;
	uint8_t h[8], *packed, *out;
	uint32_t csize, rsize;
	int ret;

	if (!df->codec)
		return dat_err(err, df, "section", sec->offset, -EBADMSG,
			       "section %u is flagged compressed in a file without compression",
			       sec->id);
	if (sec->size < 8)
		return dat_err(err, df, "section", sec->offset, -EBADMSG,
			       "compressed section %u of only %llu bytes", sec->id,
			       (unsigned long long)sec->size);
	ret = dat_pread(df, h, 8, at, "section", err);
	if (ret)
		return ret;
	dat_chunk_header_get(h, &csize, &rsize, df->big_endian);
	if (csize > sec->size - 8)
		return dat_err(err, df, "section", sec->offset, -EBADMSG,
			       "compressed size %u exceeds the section size %llu", csize,
			       (unsigned long long)sec->size);
	if (rsize > DAT_MAX_SECTION)
		return dat_err(err, df, "section", sec->offset, -EFBIG,
			       "uncompressed size %u exceeds the limit of %llu bytes", rsize,
			       DAT_MAX_SECTION);
	packed = malloc(csize ? csize : 1);
	out = malloc((size_t)rsize + 1);
	if (!packed || !out) {
		free(packed);
		free(out);
		return dat_err(err, df, "section", sec->offset, -ENOMEM, "out of memory");
	}
	ret = dat_pread(df, packed, csize, at + 8, "section", err);
	if (!ret && kt_codec_decompress(df->codec, packed, csize, out, rsize))
		ret = dat_err(err, df, "section", sec->offset, -EBADMSG,
			      "%s data of section %u does not decompress to %u bytes",
			      kt_compression_name(df->comp), sec->id, rsize);
	free(packed);
	if (ret) {
		free(out);
		return ret;
	}
	out[rsize] = '\0';
	*data = out;
	*size = rsize;
	return 0;
}

int dat_section_load(struct dat_file *df, const struct dat_section *sec, uint8_t **data,
		     uint64_t *size, struct strbuf *err)
{
	uint8_t *buf;
	int ret;

	if (sec->flags & DAT_SECTION_FLAG_COMPRESSED)
		return load_compressed(df, sec, data, size, err);
	if (sec->size > DAT_MAX_SECTION)
		return dat_err(err, df, "section", sec->offset, -EFBIG,
			       "section %u size %llu exceeds the limit of %llu bytes", sec->id,
			       (unsigned long long)sec->size, DAT_MAX_SECTION);
	buf = malloc(sec->size + 1);
	if (!buf)
		return dat_err(err, df, "section", sec->offset, -ENOMEM, "out of memory");
	ret = dat_pread(df, buf, sec->size, sec->offset + DAT_SECTION_HEADER_SIZE, "section", err);
	if (ret) {
		free(buf);
		return ret;
	}
	buf[sec->size] = '\0';
	*data = buf;
	*size = sec->size;
	return 0;
}

static int add_strings(struct dat_file *df, const struct dat_section *sec, struct strbuf *err)
{
	uint64_t size;
	uint8_t *data;
	char *all;
	int ret = dat_section_load(df, sec, &data, &size, err);

	if (ret)
		return ret;
	if (df->strings_size + size > DAT_MAX_SECTION) {
		free(data);
		return dat_err(err, df, "STRINGS section", sec->offset, -EFBIG,
			       "strings exceed %llu bytes", DAT_MAX_SECTION);
	}
	all = realloc(df->strings, df->strings_size + size + 1);
	if (!all) {
		free(data);
		return dat_err(err, df, "STRINGS section", sec->offset, -ENOMEM, "out of memory");
	}
	memcpy(all + df->strings_size, data, size);
	df->strings = all;
	df->strings_size += size;
	/* a final NUL, so that the last string is terminated even in a damaged file */
	all[df->strings_size] = '\0';
	free(data);
	return 0;
}

static int push_section(struct dat_file *df, const struct dat_section *sec, struct strbuf *err)
{
	struct dat_section *s;

	if (df->nr_sections % 16 == 0) {
		s = realloc(df->sections, (df->nr_sections + 16) * sizeof(*s));
		if (!s)
			return dat_err(err, df, "section", sec->offset, -ENOMEM, "out of memory");
		df->sections = s;
	}
	df->sections[df->nr_sections++] = *sec;
	return 0;
}

/* Reads the compression header of a compressed metadata section, as dump shows it. */
static void peek_sizes(struct dat_file *df, struct dat_section *sec)
{
	uint8_t h[8];

	if (!(sec->flags & DAT_SECTION_FLAG_COMPRESSED) || sec->id == DAT_OPT_BUFFER ||
	    sec->id == DAT_OPT_BUFFER_TEXT || sec->size < 8)
		return;
	if (dat_pread(df, h, 8, sec->offset + DAT_SECTION_HEADER_SIZE, "section", NULL))
		return;
	dat_chunk_header_get(h, &sec->csize, &sec->rsize, df->big_endian);
}

/*
 * Sections follow one another from the end of the file header to the end of the file. The
 * strings come first, as every section header names itself with one of them.
 */
int dat_sections_walk(struct dat_file *df, uint64_t start, struct strbuf *err)
{
	struct dat_section sec;
	uint64_t off;
	int i, ret;

	for (off = start; off + DAT_SECTION_HEADER_SIZE <= df->file_size;
	     off = sec.offset + DAT_SECTION_HEADER_SIZE + sec.size) {
		ret = dat_section_header(df, off, &sec, err);
		if (ret)
			return ret;
		if (df->nr_sections >= DAT_MAX_SECTIONS)
			return dat_err(err, df, "section header", off, -EFBIG,
				       "more than %d sections", DAT_MAX_SECTIONS);
		if (sec.id == DAT_OPT_STRINGS) {
			ret = add_strings(df, &sec, err);
			if (ret)
				return ret;
		}
		peek_sizes(df, &sec);
		ret = push_section(df, &sec, err);
		if (ret)
			return ret;
	}
	for (i = 0; i < df->nr_sections; i++)
		df->sections[i].desc = dat_string(df, df->sections[i].desc_id);
	return 0;
}
