// SPDX-License-Identifier: GPL-2.0-only
/*
 * Options: v6 keeps them in one "options  " block ended by id 0; v7 in OPTIONS sections chained
 * by the offset in each DONE option. They are stored in file order; their effect on
 * timestamps and buffers is applied in that order too, as trace-cmd does.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dat_internal.h"
#include "ktrace/dat_format.h"

static const char *const option_names[DAT_OPT_MAX] = {
	[DAT_OPT_DONE] = "DONE",		[DAT_OPT_DATE] = "DATE",
	[DAT_OPT_CPUSTAT] = "CPUSTAT",		[DAT_OPT_BUFFER] = "BUFFER",
	[DAT_OPT_TRACECLOCK] = "TRACECLOCK",	[DAT_OPT_UNAME] = "UNAME",
	[DAT_OPT_HOOK] = "HOOK",		[DAT_OPT_OFFSET] = "OFFSET",
	[DAT_OPT_CPUCOUNT] = "CPUCOUNT",	[DAT_OPT_VERSION] = "VERSION",
	[DAT_OPT_PROCMAPS] = "PROCMAPS",	[DAT_OPT_TRACEID] = "TRACEID",
	[DAT_OPT_TIME_SHIFT] = "TIME_SHIFT",	[DAT_OPT_GUEST] = "GUEST",
	[DAT_OPT_TSC2NSEC] = "TSC2NSEC",	[DAT_OPT_STRINGS] = "STRINGS",
	[DAT_OPT_HEADER_INFO] = "HEADER_INFO",	[DAT_OPT_FTRACE_EVENTS] = "FTRACE_EVENTS",
	[DAT_OPT_EVENT_FORMATS] = "EVENT_FORMATS", [DAT_OPT_KALLSYMS] = "KALLSYMS",
	[DAT_OPT_PRINTK] = "PRINTK",		[DAT_OPT_CMDLINES] = "CMDLINES",
	[DAT_OPT_BUFFER_TEXT] = "BUFFER_TEXT",	[DAT_OPT_BTF_FILE] = "BTF_FILE",
	[DAT_OPT_LAST_BOOT_INFO] = "LAST_BOOT_INFO", [DAT_OPT_MODULES_FILE] = "MODULES_FILE",
};

static const char *opt_what(int id)
{
	if (id >= 0 && id < DAT_OPT_MAX)
		return option_names[id];
	return "unknown option";
}

static int keep_blob(struct dat_file *df, uint8_t *blob, struct strbuf *err)
{
	uint8_t **b;

	if (df->nr_blobs % 16 == 0) {
		b = realloc(df->blobs, (df->nr_blobs + 16) * sizeof(*b));
		if (!b) {
			free(blob);
			return dat_err(err, df, "options", 0, -ENOMEM, "out of memory");
		}
		df->blobs = b;
	}
	df->blobs[df->nr_blobs++] = blob;
	return 0;
}

static int push_opt(struct dat_file *df, const struct dat_opt *opt, struct strbuf *err)
{
	struct dat_opt *o;

	if (df->nr_opts >= DAT_MAX_OPTIONS)
		return dat_err(err, df, "options", opt->offset, -EFBIG, "more than %d options",
			       DAT_MAX_OPTIONS);
	if (df->nr_opts % 32 == 0) {
		o = realloc(df->opts_list, (df->nr_opts + 32) * sizeof(*o));
		if (!o)
			return dat_err(err, df, "options", opt->offset, -ENOMEM, "out of memory");
		df->opts_list = o;
	}
	df->opts_list[df->nr_opts++] = *opt;
	return 0;
}

static int push_opt_section(struct dat_file *df, const struct dat_section *sec,
			    struct strbuf *err)
{
	struct dat_section *s;
	int i;

	for (i = 0; i < df->nr_opt_sections; i++)
		if (df->opt_sections[i].offset == sec->offset)
			return dat_err(err, df, "options section", sec->offset, -ELOOP,
				       "the chain of options sections loops back here");
	if (df->nr_opt_sections >= DAT_MAX_OPTION_SECTIONS)
		return dat_err(err, df, "options section", sec->offset, -EFBIG,
			       "more than %d options sections", DAT_MAX_OPTION_SECTIONS);
	s = realloc(df->opt_sections, (df->nr_opt_sections + 1) * sizeof(*s));
	if (!s)
		return dat_err(err, df, "options section", sec->offset, -ENOMEM, "out of memory");
	df->opt_sections = s;
	df->opt_sections[df->nr_opt_sections++] = *sec;
	return 0;
}

/* Parses the options of one v7 section; *next gets the DONE option's offset (0: last). */
static int options_block(struct dat_file *df, struct dat_in *in, int section, uint64_t *next,
			 struct strbuf *err)
{
	struct dat_opt opt;
	const uint8_t *p;
	uint32_t size;
	uint16_t id;
	int ret;

	for (;;) {
		opt.offset = dat_in_offset(in);
		ret = dat_in_u16(in, &id, err);
		if (!ret)
			ret = dat_in_u32(in, &size, err);
		if (!ret) {
			in->what = opt_what(id);
			ret = dat_in_blob(in, size, &p, err);
			in->what = "options section";
		}
		if (ret)
			return ret;
		opt.id = id;
		opt.size = size;
		opt.data = p;
		opt.section = section;
		ret = push_opt(df, &opt, err);
		if (ret)
			return ret;
		if (id == DAT_OPT_DONE) {
			*next = size >= 8 ? dat_get64(df, p) : 0;
			return 0;
		}
	}
}

int dat_options_v7(struct dat_file *df, struct strbuf *err)
{
	uint64_t off = df->options_start, next, size;
	struct dat_section sec;
	struct dat_in in;
	uint8_t *data;
	int ret;

	while (off) {
		ret = dat_section_header(df, off, &sec, err);
		if (ret)
			return ret;
		if (sec.id != DAT_SECTION_OPTIONS)
			return dat_err(err, df, "options section", off, -EBADMSG,
				       "section id %u where an options section (0) was expected",
				       sec.id);
		ret = push_opt_section(df, &sec, err);
		if (!ret)
			ret = dat_section_load(df, &sec, &data, &size, err);
		if (!ret)
			ret = keep_blob(df, data, err);
		if (ret)
			return ret;
		dat_in_mem(&in, df, "options section", data, size,
			   sec.offset + 16 + ((sec.flags & DAT_SECTION_FLAG_COMPRESSED) ? 8 : 0),
			   sec.flags & DAT_SECTION_FLAG_COMPRESSED);
		if (sec.flags & DAT_SECTION_FLAG_COMPRESSED)
			in.base = sec.offset;
		next = 0;
		ret = options_block(df, &in, df->nr_opt_sections - 1, &next, err);
		if (ret)
			return ret;
		df->opt_sections[df->nr_opt_sections - 1].next_options = next;
		off = next;
	}
	return 0;
}

int dat_options_v6(struct dat_file *df, uint64_t off, uint64_t *end, struct strbuf *err)
{
	struct dat_in in;
	struct dat_opt opt;
	const uint8_t *p;
	uint8_t *copy;
	uint32_t size;
	uint16_t id;
	int ret;

	dat_in_file(&in, df, "options", off, df->file_size);
	for (;;) {
		opt.offset = dat_in_offset(&in);
		ret = dat_in_u16(&in, &id, err);
		if (ret || id == DAT_OPT_DONE)
			break;
		ret = dat_in_u32(&in, &size, err);
		if (ret)
			break;
		in.what = opt_what(id);
		ret = dat_in_blob(&in, size, &p, err);
		in.what = "options";
		if (ret)
			break;
		copy = malloc(size + 1);
		if (!copy) {
			ret = dat_err(err, df, "options", opt.offset, -ENOMEM, "out of memory");
			break;
		}
		memcpy(copy, p, size);
		copy[size] = '\0';
		ret = keep_blob(df, copy, err);
		if (ret)
			break;
		opt.id = id;
		opt.size = size;
		opt.data = copy;
		opt.offset += 6;
		opt.section = -1;
		ret = push_opt(df, &opt, err);
		if (ret)
			break;
	}
	*end = in.pos;
	dat_in_release(&in);
	return ret;
}
