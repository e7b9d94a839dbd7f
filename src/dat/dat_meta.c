// SPDX-License-Identifier: GPL-2.0-only
/*
 * The metadata blocks, laid out the same way in v6 (one after the other in the file) and v7
 * (one per section): header_page/header_event, ftrace formats, event systems, kallsyms,
 * printk formats and saved cmdlines. Each is read through a bounded dat_in and handed to
 * libtraceevent, unless the file was opened for its layout only.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>

#include "dat_internal.h"
#include "ktrace/dat_format.h"

static int expect_tag(struct dat_in *in, const char *tag, struct strbuf *err)
{
	size_t len = strlen(tag) + 1;
	const uint8_t *p;
	int ret = dat_in_blob(in, len, &p, err);

	if (ret)
		return ret;
	if (memcmp(p, tag, len) != 0) {
		in->pos -= len;
		return dat_in_err(err, in, -EBADMSG, "\"%s\" expected", tag);
	}
	return 0;
}

int dat_meta_header_info(struct dat_in *in, struct strbuf *err)
{
	struct dat_file *df = in->df;
	const uint8_t *p;
	uint64_t size;
	int ret;

	ret = expect_tag(in, "header_page", err);
	if (!ret)
		ret = dat_in_u64(in, &size, err);
	/* a position in decompressed data is no file offset: the section's start is */
	df->meta.header_page_offset = in->base + (in->in_compressed ? 0 : in->pos);
	if (!ret)
		ret = dat_in_blob(in, size, &p, err);
	if (ret)
		return ret;
	df->meta.header_page_size = size;
	if (df->tep) {
		int kernel_long;

		/* libtraceevent only reads the buffer despite its non-const prototype */
		tep_parse_header_page(df->tep, (char *)p, size, df->long_size);
		/* The commit field's size is the kernel's long, which the pages use. */
		kernel_long = tep_get_header_page_size(df->tep);

		if (kernel_long == 4 || kernel_long == 8)
			df->long_size = kernel_long;
	}
	ret = expect_tag(in, "header_event", err);
	if (!ret)
		ret = dat_in_u64(in, &size, err);
	if (!ret)
		ret = dat_in_blob(in, size, &p, err);
	if (!ret)
		df->meta.header_event_size = size;
	return ret;
}

static int parse_format(struct dat_in *in, const char *system, struct strbuf *err)
{
	struct tep_event *event = NULL;
	const uint8_t *p;
	uint64_t size;
	int ret;

	ret = dat_in_u64(in, &size, err);
	if (!ret)
		ret = dat_in_blob(in, size, &p, err);
	if (ret)
		return ret;
	if (!in->df->tep)
		return 0;
	/* an event kept as PRINT_FAILED is printed as "[FAILED TO PARSE]", as trace-cmd does */
	if ((in->df->page_size && !dat_format_fits((const char *)p, size, in->df->page_size)) ||
	    dat_format_parse(in->df->tep, (const char *)p, size, system, &event) >=
	    DAT_FORMAT_REFUSED)
		in->df->parse_failures++;
	return 0;
}

int dat_meta_ftrace(struct dat_in *in, struct strbuf *err)
{
	uint32_t count, i;
	int ret;

	ret = dat_in_u32(in, &count, err);
	if (ret)
		return ret;
	in->df->meta.nr_ftrace_events = count;
	for (i = 0; i < count && !ret; i++)
		ret = parse_format(in, "ftrace", err);
	return ret;
}

int dat_meta_events(struct dat_in *in, struct strbuf *err)
{
	uint32_t systems, count, i, j;
	const char *name;
	char *system;
	int ret;

	ret = dat_in_u32(in, &systems, err);
	if (ret)
		return ret;
	in->df->meta.nr_systems = systems;
	for (i = 0; i < systems && !ret; i++) {
		ret = dat_in_str(in, DAT_MAX_STRING, &name, err);
		if (ret)
			break;
		/* in file mode the name lives in scratch space that the next read reuses */
		system = strdup(name);
		if (!system)
			return dat_in_err(err, in, -ENOMEM, "out of memory");
		ret = dat_in_u32(in, &count, err);
		for (j = 0; j < count && !ret; j++)
			ret = parse_format(in, system, err);
		free(system);
	}
	return ret;
}

/* A size-prefixed text block, copied so that it ends with a NUL for libtraceevent. */
static int text_block(struct dat_in *in, int size_bytes, char **text, uint64_t *len,
		      struct strbuf *err)
{
	const uint8_t *p;
	uint32_t size32;
	uint64_t size;
	int ret;

	if (size_bytes == 4) {
		ret = dat_in_u32(in, &size32, err);
		size = size32;
	} else {
		ret = dat_in_u64(in, &size, err);
	}
	if (!ret)
		ret = dat_in_blob(in, size, &p, err);
	if (ret)
		return ret;
	*len = size;
	*text = NULL;
	if (!in->df->tep)
		return 0;
	*text = malloc(size + 1);
	if (!*text)
		return dat_in_err(err, in, -ENOMEM, "out of memory for %llu bytes",
				  (unsigned long long)size);
	memcpy(*text, p, size);
	(*text)[size] = '\0';
	return 0;
}

/* Parsed where it was read: a copy of a few MB would double the peak memory of opening. */
int dat_meta_kallsyms(struct dat_in *in, struct strbuf *err)
{
	struct dat_section sec = { .id = DAT_OPT_KALLSYMS };
	const uint8_t *text;
	uint32_t len;
	int ret = dat_in_u32(in, &len, err);

	if (!ret && !in->mem && len && in->df->tep && in->df->opts.defer_kallsyms) {
		/* v6: the block stays in the file; read later as a section of its length field */
		sec.offset = in->pos - 4 - DAT_SECTION_HEADER_SIZE;
		sec.size = 4ull + len;
		ret = dat_in_skip(in, len, err);
		in->df->meta.kallsyms_size = len;
		return ret ? ret : dat_defer_kallsyms(in->df, &sec, err);
	}
	if (!ret)
		ret = dat_in_blob(in, len, &text, err);
	if (ret)
		return ret;
	in->df->meta.kallsyms_size = len;
	if (in->df->tep && len)
		dat_load_kallsyms(in->df->tep, (const char *)text, len);
	return 0;
}

/*
 * tep_parse_printk_formats() splits each line at its first ':' (after any leading ones) and
 * copies from one byte past it: a line without a ':', or ending with it, makes it read past
 * the line, and past the buffer on the last line. Then tep_register_print_string() looks two
 * bytes before the end of the format for a "\n": shorter than that, it reads before the
 * copy. Lines with fewer than 5 bytes after the ':' (a space, quotes and one character)
 * are dropped; the others reach it unchanged.
 */
static void drop_bad_printk_lines(char *text)
{
	char *src = text, *dst = text, *nl, *colon, *p;
	size_t len;

	while (*src) {
		nl = strchr(src, '\n');
		len = nl ? (size_t)(nl - src) : strlen(src);
		for (p = src; p < src + len && *p == ':'; p++)
			;
		colon = memchr(p, ':', (size_t)(src + len - p));
		if (len && colon && colon + 5 < src + len) {
			/* the newline too: dst never passes src, so the text never grows */
			memmove(dst, src, len + (nl ? 1 : 0));
			dst += len + (nl ? 1 : 0);
		}
		src += len + (nl ? 1 : 0);
	}
	*dst = '\0';
}

int dat_meta_printk(struct dat_in *in, struct strbuf *err)
{
	uint64_t len;
	char *text;
	int ret = text_block(in, 4, &text, &len, err);

	if (ret)
		return ret;
	in->df->meta.printk_size = (uint32_t)len;
	if (text && len) {
		drop_bad_printk_lines(text);
		tep_parse_printk_formats(in->df->tep, text);
	}
	free(text);
	return 0;
}

int dat_meta_cmdlines(struct dat_in *in, struct strbuf *err)
{
	uint64_t len;
	char *text;
	int ret = text_block(in, 8, &text, &len, err);

	if (ret)
		return ret;
	in->df->meta.cmdlines_size = len;
	if (text)
		tep_parse_saved_cmdlines(in->df->tep, text);
	free(text);
	return 0;
}
