// SPDX-License-Identifier: GPL-2.0-only
/* `ktrace dump`: the metadata blocks, summarized or shown in full. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ktrace/dat.h"
#include "ktrace/dat_format.h"
#include "dump.h"

#define PIECE 1023

void dump_print(const struct dump *d, unsigned int items, const char *fmt, ...)
{
	va_list ap;

	if (items && !(items & d->verbosity))
		return;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
}

void dump_text(const struct dump *d, unsigned int items, const void *text, uint64_t size)
{
	const char *p = text;
	uint64_t n;

	if (items && !(items & d->verbosity))
		return;
	while (size) {
		n = size < PIECE + 1 ? size : PIECE;
		fwrite(p, 1, strnlen(p, n), stdout);
		p += n;
		size -= n;
	}
	putchar('\n');
}

/* A size of `bytes` bytes then that much text. */
static int sized_text(struct dump *d, struct dat_bytes *b, int bytes, const char *title,
		      unsigned int items)
{
	const uint8_t *p;
	uint64_t size;

	if (dat_bytes_num(b, bytes, &size) || dat_bytes_run(b, size, &p))
		return -EBADMSG;
	dump_print(d, DUMP_SUMMARY | items, "\t[%s, %llu bytes]\n", title,
		   (unsigned long long)size);
	dump_text(d, items, p, size);
	return 0;
}

static int tagged_text(struct dump *d, struct dat_bytes *b, const char *tag, const char *title,
		       unsigned int items)
{
	const uint8_t *p;

	if (dat_bytes_run(b, strlen(tag) + 1, &p) || memcmp(p, tag, strlen(tag)) != 0)
		return -EBADMSG;
	return sized_text(d, b, 8, title, items);
}

static int ftrace_formats(struct dump *d, struct dat_bytes *b)
{
	const uint8_t *p;
	uint64_t count, size, i;

	if (dat_bytes_num(b, 4, &count))
		return -EBADMSG;
	dump_print(d, DUMP_SUMMARY | DUMP_FTRACE_FORMAT, "\t[Ftrace format, %d events]\n",
		   (int)count);
	for (i = 0; i < count; i++) {
		if (dat_bytes_num(b, 8, &size) || dat_bytes_run(b, size, &p))
			return -EBADMSG;
		dump_text(d, DUMP_FTRACE_FORMAT, p, size);
	}
	return 0;
}

static int event_formats(struct dump *d, struct dat_bytes *b)
{
	uint64_t systems, events, size, i, j;
	const uint8_t *p;
	const char *name;

	if (dat_bytes_num(b, 4, &systems))
		return -EBADMSG;
	dump_print(d, DUMP_SUMMARY | DUMP_EVENT_FORMAT | DUMP_EVENT_SYSTEMS,
		   "\t[Events format, %d systems]\n", (int)systems);
	for (i = 0; i < systems; i++) {
		if (dat_bytes_str(b, &name) || dat_bytes_num(b, 4, &events))
			return -EBADMSG;
		dump_print(d, DUMP_EVENT_SYSTEMS, "\t\t%s %d [system, events]\n", name,
			   (int)events);
		for (j = 0; j < events; j++) {
			if (dat_bytes_num(b, 8, &size) || dat_bytes_run(b, size, &p))
				return -EBADMSG;
			dump_text(d, DUMP_EVENT_FORMAT, p, size);
		}
	}
	return 0;
}

int dump_meta_block(struct dump *d, int id, const void *data, uint64_t size)
{
	struct dat_bytes b = { data, size, 0, false };
	int ret;

	b.big_endian = dat_file_big_endian(d->df);
	switch (id) {
	case DAT_OPT_HEADER_INFO:
		ret = tagged_text(d, &b, "header_page", "Header page", DUMP_HEAD_PAGE);
		if (!ret)
			ret = tagged_text(d, &b, "header_event", "Header event", DUMP_HEAD_EVENT);
		return ret;
	case DAT_OPT_FTRACE_EVENTS:
		return ftrace_formats(d, &b);
	case DAT_OPT_EVENT_FORMATS:
		return event_formats(d, &b);
	case DAT_OPT_KALLSYMS:
		return sized_text(d, &b, 4, "Kallsyms", DUMP_KALLSYMS);
	case DAT_OPT_PRINTK:
		return sized_text(d, &b, 4, "Trace printk", DUMP_TRACE_PRINTK);
	case DAT_OPT_CMDLINES:
		return sized_text(d, &b, 8, "Saved command lines", DUMP_CMDLINES);
	case DAT_OPT_MODULES_FILE:
		/* trace-cmd 3.4 prints the whole /proc/modules it saved, even in the summary */
		dump_print(d, DUMP_SUMMARY | DUMP_MODULES, "\t[Saved modules]\n");
		dump_print(d, DUMP_SUMMARY | DUMP_MODULES, "%.*s",
			   size > INT_MAX ? INT_MAX : (int)size, (const char *)data);
		dump_print(d, DUMP_SUMMARY | DUMP_MODULES, "\n[%llu bytes]\n",
			   (unsigned long long)size);
		return 0;
	}
	return 0;
}
