/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_DUMP_DUMP_H
#define KTRACE_DUMP_DUMP_H

/*
 * `ktrace dump`: the layout of a trace.dat file, printed line for line as trace-cmd 3.1.6
 * dump prints it. cmd_dump.c holds the flow, dump_options.c the options, dump_meta.c the
 * metadata blocks.
 */
#include <stdbool.h>
#include <stdint.h>

#include "ktrace/dat_bytes.h"
#include "ktrace/strbuf.h"

struct dat_file;

/* What to show; the same bits as trace-cmd's --summary, --options... */
enum dump_items {
	DUMP_SUMMARY = 1 << 0,
	DUMP_HEAD_PAGE = 1 << 1,
	DUMP_HEAD_EVENT = 1 << 2,
	DUMP_FTRACE_FORMAT = 1 << 3,
	DUMP_EVENT_SYSTEMS = 1 << 4,
	DUMP_EVENT_FORMAT = 1 << 5,
	DUMP_KALLSYMS = 1 << 6,
	DUMP_TRACE_PRINTK = 1 << 7,
	DUMP_CMDLINES = 1 << 8,
	DUMP_OPTIONS = 1 << 9,
	DUMP_FLYRECORD = 1 << 10,
	DUMP_CLOCK = 1 << 11,
	DUMP_SECTIONS = 1 << 12,
	DUMP_STRINGS = 1 << 13,
	DUMP_MODULES = 1 << 14,		/* trace-cmd 3.4's --modules */
};

struct dump {
	struct dat_file *df;
	unsigned int verbosity;
	bool has_clock;		/* a TRACECLOCK option was seen */
	struct strbuf err;
};

/* Prints when one of `items` is asked for (0: always). */
void dump_print(const struct dump *d, unsigned int items, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Text of `size` bytes, each 1023-byte piece up to its first NUL, then a newline. */
void dump_text(const struct dump *d, unsigned int items, const void *text, uint64_t size);

/* A bounded little reader over a payload, in the file's byte order. */
/* One metadata block (DAT_OPT_HEADER_INFO..DAT_OPT_CMDLINES); 0 or -EBADMSG. */
int dump_meta_block(struct dump *d, int id, const void *data, uint64_t size);
/* The options, in file order; returns how many trace-cmd counts, or negative errno. */
int dump_options(struct dump *d);

#endif
