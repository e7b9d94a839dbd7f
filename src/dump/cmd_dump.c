// SPDX-License-Identifier: GPL-2.0-only
/*
 * `ktrace dump`: shows how a trace.dat file is laid out (header, options, sections, buffers)
 * with the same text as trace-cmd 3.1.6 dump, so that the two can be compared line for line.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ktrace/command.h"
#include "ktrace/dat.h"
#include "ktrace/dat_format.h"
#include "ktrace/options.h"
#include "dump.h"

enum {
	OPT_ALL = 256, OPT_SUMMARY, OPT_HEAD_PAGE, OPT_HEAD_EVENT, OPT_FTRACE, OPT_SYSTEMS,
	OPT_EVENTS, OPT_KALLSYMS, OPT_PRINTK, OPT_CMD_LINES, OPT_OPTIONS, OPT_FLYRECORD,
	OPT_CLOCK, OPT_STRINGS, OPT_SECTIONS, OPT_MODULES, OPT_VERBOSE,
};

struct dump_args {
	const char *input;
	bool validate;
	unsigned int verbosity;	/* the DUMP_* items to print */
};

/* --NAME: print the ITEMS */
#define DUMP_ITEM(ID, NAME, ITEMS, HELP) \
	KT_BITS(ID, NAME, struct dump_args, verbosity, ITEMS, HELP)

static const struct kt_option dump_options_table[] = {
	KT_STRING('i', NULL, "FILE", struct dump_args, input,
		  "read FILE (default trace.dat; also a bare FILE)"),
	KT_BOOL('v', "validate", struct dump_args, validate,
		"check the file and say whether it is valid"),
	DUMP_ITEM(OPT_SUMMARY, "summary", DUMP_SUMMARY, "a summary of the metadata (the default)"),
	DUMP_ITEM(OPT_ALL, "all", ~0u, "everything below"),
	DUMP_ITEM(OPT_HEAD_PAGE, "head-page", DUMP_HEAD_PAGE, "the ring-buffer page header format"),
	DUMP_ITEM(OPT_HEAD_EVENT, "head-event", DUMP_HEAD_EVENT, "the event header format"),
	DUMP_ITEM(OPT_FTRACE, "ftrace-events", DUMP_FTRACE_FORMAT, "the ftrace event formats"),
	DUMP_ITEM(OPT_SYSTEMS, "systems", DUMP_EVENT_SYSTEMS,
		  "the event systems and their event counts"),
	DUMP_ITEM(OPT_EVENTS, "events", DUMP_EVENT_FORMAT, "the event formats"),
	DUMP_ITEM(OPT_KALLSYMS, "kallsyms", DUMP_KALLSYMS, "the kernel symbols"),
	DUMP_ITEM(OPT_PRINTK, "printk", DUMP_TRACE_PRINTK, "the trace_printk formats"),
	DUMP_ITEM(OPT_CMD_LINES, "cmd-lines", DUMP_CMDLINES, "the saved task names"),
	DUMP_ITEM(OPT_OPTIONS, "options", DUMP_OPTIONS, "every option"),
	DUMP_ITEM(OPT_FLYRECORD, "flyrecord", DUMP_FLYRECORD, "where each CPU's data lies"),
	DUMP_ITEM(OPT_CLOCK, "clock", DUMP_CLOCK, "the trace clock"),
	DUMP_ITEM(OPT_STRINGS, "strings", DUMP_STRINGS, "the strings of the metadata (v7)"),
	DUMP_ITEM(OPT_SECTIONS, "sections", DUMP_SECTIONS, "every section (v7)"),
	DUMP_ITEM(OPT_MODULES, "modules", DUMP_MODULES,
		  "the kernel modules a trace-cmd 3.4 recording saved (v7)"),
	KT_NOOP(OPT_VERBOSE, "verbose", KT_ARG_OPTIONAL, "LEVEL", "accepted for compatibility"),
	{ 0 }
};

static const struct kt_command_help dump_help = {
	.name = "dump",
	.usage = "[OPTIONS] [-i FILE | FILE]",
	.summary = "Show the layout of a trace.dat file, as trace-cmd dump does.",
	.options = dump_options_table,
};

static void dump_initial(struct dump *d, const char *name)
{
	const struct dat_meta_summary *meta = dat_file_meta(d->df);

	dump_print(d, DUMP_SUMMARY, "\n Tracing meta data in file %s:\n", name);
	dump_print(d, DUMP_SUMMARY, "\t[Initial format]\n");
	dump_print(d, DUMP_SUMMARY, "\t\t%d\t[Version]\n", dat_file_version(d->df));
	dump_print(d, DUMP_SUMMARY, "\t\t%d\t[%s endian]\n", dat_file_big_endian(d->df),
		   dat_file_big_endian(d->df) ? "Big" : "Little");
	dump_print(d, DUMP_SUMMARY, "\t\t%d\t[Bytes in a long]\n", meta->header_long_size);
	dump_print(d, DUMP_SUMMARY, "\t\t%u\t[Page size, bytes]\n", dat_file_page_size(d->df));
	if (dat_file_version(d->df) < 7)
		return;
	dump_print(d, DUMP_SUMMARY, "\t\t%s\t[Compression algorithm]\n",
		   kt_compression_name(dat_file_compression(d->df)));
	dump_print(d, DUMP_SUMMARY, "\t\t%s\t[Compression version]\n",
		   dat_file_compression_version(d->df));
}

static void dump_strings(struct dump *d)
{
	const char *all = dat_file_strings(d->df, NULL);
	const struct dat_section *s;
	uint64_t base = 0, size, pos;
	const char *str;
	int i;

	for (i = 0; i < dat_file_nr_sections(d->df); i++) {
		s = dat_file_section(d->df, i);
		if (s->id != DAT_OPT_STRINGS)
			continue;
		size = (s->flags & DAT_SECTION_FLAG_COMPRESSED) ? s->rsize : s->size;
		dump_print(d, DUMP_STRINGS, "\t[String @ offset]\n");
		for (pos = 0; pos < size; pos += strlen(str) + 1) {
			str = all + base + pos;
			dump_print(d, DUMP_STRINGS, "\t\t\"%s\" @ %llu\n", str,
				   (unsigned long long)(base + pos));
		}
		base += size;
	}
}

static void dump_section_list(struct dump *d)
{
	static const char head[] = "\t[Section %2d @ %-16llu\t\"%s\", flags 0x%X, ";
	const struct dat_section *s;
	unsigned long long off;
	const char *desc;
	int i;

	for (i = 0; i < dat_file_nr_sections(d->df); i++) {
		s = dat_file_section(d->df, i);
		desc = s->desc ? s->desc : "Unknown";
		off = s->offset;
		if (s->id >= DAT_OPT_MAX)
			dump_print(d, DUMP_SECTIONS, "Unknown section id %d: %s", s->id, desc);
		dump_print(d, DUMP_SECTIONS, head, s->id, off, desc, s->flags);
		if (!(s->flags & DAT_SECTION_FLAG_COMPRESSED))
			dump_print(d, DUMP_SECTIONS, "%llu bytes]\n", (unsigned long long)s->size);
		else if (s->id == DAT_OPT_BUFFER || s->id == DAT_OPT_BUFFER_TEXT)
			dump_print(d, DUMP_SECTIONS, "%llu compressed bytes]\n",
				   (unsigned long long)s->size);
		else
			dump_print(d, DUMP_SECTIONS, "%d compressed, %d uncompressed]\n",
				   (int)s->csize, (int)s->rsize);
	}
}

static const unsigned int section_items[] = {
	[DAT_OPT_HEADER_INFO - DAT_OPT_HEADER_INFO] = DUMP_HEAD_PAGE | DUMP_HEAD_EVENT,
	[DAT_OPT_FTRACE_EVENTS - DAT_OPT_HEADER_INFO] = DUMP_FTRACE_FORMAT,
	[DAT_OPT_EVENT_FORMATS - DAT_OPT_HEADER_INFO] = DUMP_EVENT_SYSTEMS | DUMP_EVENT_FORMAT,
	[DAT_OPT_KALLSYMS - DAT_OPT_HEADER_INFO] = DUMP_KALLSYMS,
	[DAT_OPT_PRINTK - DAT_OPT_HEADER_INFO] = DUMP_TRACE_PRINTK,
	[DAT_OPT_CMDLINES - DAT_OPT_HEADER_INFO] = DUMP_CMDLINES,
	[DAT_OPT_MODULES_FILE - DAT_OPT_HEADER_INFO] = DUMP_MODULES,
};

/* The options that point at a section dump_meta_block() prints */
static bool printed_section(int id)
{
	return dat_opt_is_reader_section(id) || id == DAT_OPT_MODULES_FILE;
}

/* One metadata section; trace-cmd visits them from the last option back to the first. */
static int dump_one_section(struct dump *d, int id, uint64_t offset)
{
	const struct dat_section *s = NULL;
	uint64_t size;
	void *data;
	int i, ret;

	for (i = 0; i < dat_file_nr_sections(d->df); i++)
		if (dat_file_section(d->df, i)->offset == offset)
			s = dat_file_section(d->df, i);
	if (s)
		dump_print(d, section_items[id - DAT_OPT_HEADER_INFO],
			   "\t[Section %d @ %llu: \"%s\", flags 0x%X, %llu bytes]\n", s->id,
			   (unsigned long long)s->offset, s->desc ? s->desc : "Unknown", s->flags,
			   (unsigned long long)s->size);
	ret = dat_file_load_section(d->df, offset, &data, &size, &d->err);
	if (ret)
		return ret;
	ret = dump_meta_block(d, id, data, size);
	free(data);
	if (ret) {
		strbuf_reset(&d->err);
		strbuf_addf(&d->err, "%s: section at offset %llu: damaged content",
			    dat_file_path(d->df), (unsigned long long)offset);
	}
	return ret;
}

static int dump_v7(struct dump *d)
{
	struct dat_bytes b = { NULL, 0, 0, dat_file_big_endian(d->df) };
	uint64_t offset;
	const void *data;
	uint32_t size;
	int i, id, ret, count;

	dump_strings(d);
	dump_section_list(d);
	count = dump_options(d);
	if (count < 0)
		return count;
	dump_print(d, DUMP_SUMMARY | DUMP_OPTIONS, "\t[%d options]\n", count);
	for (i = dat_file_nr_options(d->df) - 1; i >= 0; i--) {
		data = dat_file_option_at(d->df, i, &id, &size, NULL);
		if (!printed_section(id) || size < 8)
			continue;
		b.p = data;
		b.len = size;
		b.pos = 0;
		dat_bytes_num(&b, 8, &offset);
		ret = dump_one_section(d, id, offset);
		if (ret)
			return ret;
	}
	dump_print(d, DUMP_SUMMARY | DUMP_SECTIONS, "\t[%d sections]\n",
		   dat_file_nr_sections(d->df));
	return 0;
}

static int dump_v6_flyrecord(struct dump *d)
{
	const struct dat_meta_summary *meta = dat_file_meta(d->df);
	const struct dat_buffer *top = NULL;
	int i;

	for (i = 0; i < dat_file_nr_buffers(d->df); i++)
		if (!dat_file_buffer(d->df, i)->name[0])
			top = dat_file_buffer(d->df, i);
	dump_print(d, DUMP_SUMMARY | DUMP_FLYRECORD, "\t[Flyrecord tracing data]\n");
	for (i = 0; top && i < top->nr_cpus; i++)
		dump_print(d, DUMP_FLYRECORD, "\t %10.lld %10.lld\t[offset, size of cpu %d]\n",
			   (long long)top->cpus[i].offset, (long long)top->cpus[i].size, i);
	dump_print(d, DUMP_SUMMARY | DUMP_CLOCK, "\t[Tracing clock]\n");
	if (!d->has_clock)
		dump_print(d, DUMP_SUMMARY | DUMP_CLOCK,
			   "\t\t No tracing clock saved in the file\n");
	else
		dump_print(d, DUMP_SUMMARY | DUMP_CLOCK, "\t\t%s\n",
			   meta->v6_clock ? meta->v6_clock : "");
	return 0;
}

static int dump_v6(struct dump *d)
{
	const struct dat_meta_summary *meta = dat_file_meta(d->df);
	uint64_t size;
	void *data;
	int id, ret, count;

	for (id = DAT_OPT_HEADER_INFO; id <= DAT_OPT_CMDLINES; id++) {
		ret = dat_file_load_v6_block(d->df, id, &data, &size, &d->err);
		if (ret)
			return ret;
		ret = dump_meta_block(d, id, data, size);
		free(data);
		if (ret)
			return ret;
	}
	dump_print(d, DUMP_SUMMARY, "\t%d [CPUs with tracing data]\n", (int)meta->v6_cpus);
	if (meta->v6_has_options) {
		count = dump_options(d);
		if (count < 0)
			return count;
		dump_print(d, DUMP_SUMMARY | DUMP_OPTIONS, "\t[%d options]\n", count);
	}
	if (meta->latency) {
		dump_print(d, DUMP_SUMMARY, "\t[Latency tracing data]\n");
		return 0;
	}
	return dump_v6_flyrecord(d);
}

static int parse_args(struct dump_args *a, int argc, char **argv)
{
	int first, ret = kt_parse_options(&dump_help, argc, argv, a, &first);

	/* As in trace-cmd, options stop at the file name and what follows it is ignored. */
	if (!ret && first < argc) {
		if (a->input)
			return kt_usage_error("dump", "-i", "", "and a file name both given");
		a->input = argv[first];
	}
	return ret;
}

int cmd_dump(int argc, char **argv)
{
	struct dat_open_opts opts = { .no_tep = true };
	struct dump d = { .err = STRBUF_INIT };
	struct dump_args a = { 0 };
	const char *input;
	int ret;

	ret = parse_args(&a, argc, argv);
	if (ret)
		return ret;
	input = a.input ? a.input : "trace.dat";
	d.verbosity = a.verbosity;
	if (!d.verbosity && !a.validate)
		d.verbosity = DUMP_SUMMARY;
	ret = dat_file_open_opts(input, &opts, &d.df, &d.err);
	if (!ret) {
		dump_initial(&d, input);
		ret = dat_file_version(d.df) >= 7 ? dump_v7(&d) : dump_v6(&d);
	}
	fflush(stdout);
	if (ret) {
		fprintf(stderr, "ktrace dump: %s\n", strbuf_str(&d.err));
	} else if (a.validate) {
		printf("File %s is a valid trace-cmd file\n", input);
	}
	dat_file_close(d.df);
	strbuf_release(&d.err);
	return ret ? 1 : 0;
}
