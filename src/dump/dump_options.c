// SPDX-License-Identifier: GPL-2.0-only
/* `ktrace dump`: the options, each printed from its raw payload as trace-cmd dump does. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ktrace/dat.h"
#include "ktrace/dat_format.h"
#include "dump.h"

static struct dat_bytes payload(const struct dump *d, const void *data, uint32_t size)
{
	struct dat_bytes b = { data, size, 0, dat_file_big_endian(d->df) };

	return b;
}

static void text_option(struct dump *d, const char *name, const void *data, uint32_t size)
{
	dump_print(d, DUMP_OPTIONS, "\t\t[Option %s, %d bytes]\n", name, (int)size);
	if (size)
		dump_text(d, DUMP_OPTIONS, data, size);
}

static const struct dat_section *section_at(const struct dat_file *df, uint64_t offset)
{
	int i;

	for (i = 0; i < dat_file_nr_sections(df); i++)
		if (dat_file_section(df, i)->offset == offset)
			return dat_file_section(df, i);
	return NULL;
}

static void print_section(const struct dump *d, unsigned int items, const struct dat_section *s)
{
	dump_print(d, items, "\t[Section %d @ %llu: \"%s\", flags 0x%X, %llu bytes]\n", s->id,
		   (unsigned long long)s->offset, s->desc ? s->desc : "Unknown", s->flags,
		   (unsigned long long)s->size);
}

static void section_line(const struct dump *d, unsigned int items, uint64_t offset)
{
	const struct dat_section *s = section_at(d->df, offset);

	if (s)
		print_section(d, items, s);
}

static int buffer_cpus(struct dump *d, struct dat_bytes *b, const char *name, const char *clock)
{
	uint64_t page_size, cpus, id, offset, size, total = 0, i;

	if (dat_bytes_num(b, 4, &page_size) || dat_bytes_num(b, 4, &cpus))
		return -EBADMSG;
	dump_print(d, DUMP_OPTIONS | DUMP_FLYRECORD, "%d [Page size, bytes]\n", (int)page_size);
	dump_print(d, DUMP_OPTIONS | DUMP_FLYRECORD, "%d [CPUs]:\n", (int)cpus);
	for (i = 0; i < cpus; i++) {
		if (dat_bytes_num(b, 4, &id) || dat_bytes_num(b, 8, &offset) ||
		    dat_bytes_num(b, 8, &size))
			return -EBADMSG;
		total += size;
		dump_print(d, DUMP_OPTIONS | DUMP_FLYRECORD,
			   "   %d %llu\t%llu\t[id, data offset and size]\n", (int)id,
			   (unsigned long long)offset, (unsigned long long)size);
	}
	dump_print(d, DUMP_SUMMARY, "\t[buffer \"%s\", \"%s\" clock, %d page size, %d cpus, "
		   "%llu bytes flyrecord data]\n", name, clock, (int)page_size, (int)cpus,
		   (unsigned long long)total);
	return 0;
}

static int buffer_option(struct dump *d, int id, const void *data, uint32_t size)
{
	struct dat_bytes b = payload(d, data, size);
	const char *name, *clock;
	uint64_t offset;

	if (size < 8 || dat_bytes_num(&b, 8, &offset) || dat_bytes_str(&b, &name))
		return -EBADMSG;
	if (dat_file_version(d->df) >= 7)
		section_line(d, DUMP_FLYRECORD, offset);
	dump_print(d, DUMP_OPTIONS | DUMP_FLYRECORD, "\t\t[Option BUFFER, %d bytes]\n", (int)size);
	dump_print(d, DUMP_OPTIONS | DUMP_FLYRECORD, "%llu [offset]\n", (unsigned long long)offset);
	dump_print(d, DUMP_OPTIONS | DUMP_FLYRECORD, "\"%s\" [name]\n", name);
	if (dat_file_version(d->df) < 7)
		return 0;
	if (dat_bytes_str(&b, &clock))
		return -EBADMSG;
	dump_print(d, DUMP_OPTIONS | DUMP_FLYRECORD, "\"%s\" [clock]\n", clock);
	if (id == DAT_OPT_BUFFER)
		return buffer_cpus(d, &b, name, clock);
	dump_print(d, DUMP_SUMMARY, "\t[buffer \"%s\", \"%s\" clock, latency data]\n", name, clock);
	return 0;
}

static void number_option(struct dump *d, const char *name, const void *data, uint32_t size,
			  bool hex)
{
	struct dat_bytes b = payload(d, data, size);
	uint64_t v = 0;

	dump_print(d, DUMP_OPTIONS, "\t\t[Option %s, %d bytes]\n", name, (int)size);
	if (size <= 8)
		dat_bytes_num(&b, (int)size, &v);
	if (hex)
		dump_print(d, DUMP_OPTIONS, "0x%llX\n", (unsigned long long)v);
	else
		dump_print(d, DUMP_OPTIONS, "%d\n", (int)v);
}

static void tsc2nsec_option(struct dump *d, const void *data, uint32_t size)
{
	struct dat_bytes b = payload(d, data, size);
	uint64_t mult = 0, shift = 0, offset = 0;

	dump_print(d, DUMP_OPTIONS, "\n\t\t[Option TSC2NSEC, %d bytes]\n", (int)size);
	dat_bytes_num(&b, 4, &mult);
	dat_bytes_num(&b, 4, &shift);
	dat_bytes_num(&b, 8, &offset);
	dump_print(d, DUMP_OPTIONS, "%d %d %llu [multiplier, shift, offset]\n", (int)mult,
		   (int)shift, (unsigned long long)offset);
}

static void guest_option(struct dump *d, const void *data, uint32_t size)
{
	struct dat_bytes b = payload(d, data, size);
	uint64_t trace_id, cpus, cpu, pid, i;
	const char *name;

	dump_print(d, DUMP_OPTIONS, "\t\t[Option GUEST, %d bytes]\n", (int)size);
	if (dat_bytes_str(&b, &name))
		return;
	dump_print(d, DUMP_OPTIONS, "%s [Guest name]\n", name);
	if (dat_bytes_num(&b, 8, &trace_id))
		return;
	dump_print(d, DUMP_OPTIONS, "0x%llX [trace id]\n", (unsigned long long)trace_id);
	if (dat_bytes_num(&b, 4, &cpus))
		return;
	dump_print(d, DUMP_OPTIONS, "%d [Guest CPUs]\n", (int)cpus);
	for (i = 0; i < cpus; i++) {
		if (dat_bytes_num(&b, 4, &cpu) || dat_bytes_num(&b, 4, &pid))
			return;
		dump_print(d, DUMP_OPTIONS, "  %d %d [guest cpu, host pid]\n", (int)cpu, (int)pid);
	}
}

#define NO_FRACTIONS UINT64_MAX

static uint64_t num_at(const struct dump *d, const void *data, uint32_t size, uint64_t pos)
{
	struct dat_bytes b = payload(d, data, size);
	uint64_t v = 0;

	b.pos = pos;
	dat_bytes_num(&b, 8, &v);
	return v;
}

/*
 * Each CPU's block is its count, then its times, offsets and scalings; the fractions of every
 * sample follow all the blocks (older files have none: fraction 0). trace-cmd prints the counts
 * as it reads them and the samples only once the whole option was read, or "Broken" instead.
 */
static void timeshift_samples(struct dump *d, const void *data, uint32_t size, uint64_t cpus,
			      uint64_t first_block, uint64_t fractions)
{
	uint64_t block = first_block, frac = fractions, count, i, j;

	for (j = 0; j < cpus; j++) {
		count = num_at(d, data, size, block) & 0xffffffff;
		for (i = 0; i < count; i++) {
			uint64_t at = block + 4 + 8 * i;

			dump_print(d, DUMP_OPTIONS,
				   "\t%lld %lld %llu %llu[offset * scaling >> fraction @ time]\n",
				   (long long)num_at(d, data, size, at + 8 * count),
				   (long long)num_at(d, data, size, at + 16 * count),
				   (unsigned long long)(fractions == NO_FRACTIONS ? 0 :
							num_at(d, data, size, frac)),
				   (unsigned long long)num_at(d, data, size, at));
			frac += 8;
		}
		block += 4 + 24 * count;
	}
}

static void timeshift_option(struct dump *d, const void *data, uint32_t size)
{
	struct dat_bytes b = payload(d, data, size);
	uint64_t trace_id, flags, cpus, count, first_block, fractions, total = 0, j;
	const uint8_t *run;

	dump_print(d, DUMP_OPTIONS, "\t\t[Option TimeShift, %d bytes]\n", (int)size);
	if (dat_bytes_num(&b, 8, &trace_id) || dat_bytes_num(&b, 4, &flags) ||
	    dat_bytes_num(&b, 4, &cpus))
		return;
	dump_print(d, DUMP_OPTIONS, "0x%llX [peer's trace id]\n", (unsigned long long)trace_id);
	dump_print(d, DUMP_OPTIONS, "0x%llX [peer's protocol flags]\n", (unsigned long long)flags);
	dump_print(d, DUMP_OPTIONS, "0x%llX [peer's CPU count]\n", (unsigned long long)cpus);
	first_block = b.pos;
	for (j = 0; j < cpus; j++) {
		if (dat_bytes_num(&b, 4, &count))
			goto broken;
		dump_print(d, DUMP_OPTIONS, "%lld [samples count for CPU %d]\n",
			   (long long)count, (int)j);
		if (dat_bytes_run(&b, 24 * count, &run))
			goto broken;
		total += count;
	}
	fractions = b.pos < b.len ? b.pos : NO_FRACTIONS;
	if (fractions != NO_FRACTIONS && dat_bytes_run(&b, 8 * total, &run))
		goto broken;
	timeshift_samples(d, data, size, cpus, first_block, fractions);
	return;
broken:
	dump_print(d, DUMP_OPTIONS, "Broken time shift option\n");
}

static const char *const section_names[] = {
	[DAT_OPT_HEADER_INFO - DAT_OPT_HEADER_INFO] = "HEADERS",
	[DAT_OPT_FTRACE_EVENTS - DAT_OPT_HEADER_INFO] = "FTRACE EVENTS",
	[DAT_OPT_EVENT_FORMATS - DAT_OPT_HEADER_INFO] = "EVENT FORMATS",
	[DAT_OPT_KALLSYMS - DAT_OPT_HEADER_INFO] = "KALLSYMS",
	[DAT_OPT_PRINTK - DAT_OPT_HEADER_INFO] = "PRINTK",
	[DAT_OPT_CMDLINES - DAT_OPT_HEADER_INFO] = "CMDLINES",
	[DAT_OPT_MODULES_FILE - DAT_OPT_HEADER_INFO] = "MODULES_FILE",
};

static void section_option(struct dump *d, int id, const void *data, uint32_t size)
{
	struct dat_bytes b = payload(d, data, size);
	uint64_t offset = 0;

	dat_bytes_num(&b, 8, &offset);
	dump_print(d, DUMP_OPTIONS, "\t\t[Option %s, %d bytes] @ %llu\n",
		   section_names[id - DAT_OPT_HEADER_INFO], (int)size,
		   (unsigned long long)offset);
}

static void done_option(struct dump *d, const void *data, uint32_t size)
{
	struct dat_bytes b = payload(d, data, size);
	uint64_t next;

	dump_print(d, DUMP_OPTIONS, "\t\t[Option DONE, %d bytes]\n", (int)size);
	if (dat_file_version(d->df) < 7 || dat_bytes_num(&b, 8, &next))
		return;
	dump_print(d, DUMP_OPTIONS, "%llu\n", (unsigned long long)next);
	if (next)
		dump_print(d, DUMP_OPTIONS, "\n\n");
}

static int one_option(struct dump *d, int id, const void *data, uint32_t size)
{
	static const char *const text_names[DAT_OPT_MAX] = {
		[DAT_OPT_DATE] = "DATE", [DAT_OPT_CPUSTAT] = "CPUSTAT", [DAT_OPT_UNAME] = "UNAME",
		[DAT_OPT_HOOK] = "HOOK", [DAT_OPT_OFFSET] = "OFFSET", [DAT_OPT_VERSION] = "VERSION",
		[DAT_OPT_PROCMAPS] = "PROCMAPS", [DAT_OPT_LAST_BOOT_INFO] = "LAST_BOOT_INFO",
	};

	if (id > 0 && id < DAT_OPT_MAX && text_names[id]) {
		text_option(d, text_names[id], data, size);
		return 0;
	}
	switch (id) {
	case DAT_OPT_BUFFER:
	case DAT_OPT_BUFFER_TEXT:
		return buffer_option(d, id, data, size);
	case DAT_OPT_TRACECLOCK:
		dump_print(d, DUMP_OPTIONS, "\t\t[Option TRACECLOCK, %d bytes]\n", (int)size);
		dump_text(d, DUMP_OPTIONS | DUMP_CLOCK, data, size);
		d->has_clock = true;
		return 0;
	case DAT_OPT_CPUCOUNT:
		number_option(d, "CPUCOUNT", data, size, false);
		return 0;
	case DAT_OPT_TRACEID:
		number_option(d, "TRACEID", data, size, true);
		return 0;
	case DAT_OPT_TIME_SHIFT:
		timeshift_option(d, data, size);
		return 0;
	case DAT_OPT_GUEST:
		guest_option(d, data, size);
		return 0;
	case DAT_OPT_TSC2NSEC:
		tsc2nsec_option(d, data, size);
		return 0;
	case DAT_OPT_HEADER_INFO ... DAT_OPT_CMDLINES:
	case DAT_OPT_MODULES_FILE:
		section_option(d, id, data, size);
		return 0;
	case DAT_OPT_DONE:
		done_option(d, data, size);
		return 0;
	}
	dump_print(d, DUMP_OPTIONS, " %d %d\t[Unknown option, size - skipping]\n", id, (int)size);
	return 0;
}

int dump_options(struct dump *d)
{
	int i, id, section, last_section = -1, ret;
	const void *data;
	uint32_t size;

	for (i = 0; i < dat_file_nr_options(d->df); i++) {
		data = dat_file_option_at(d->df, i, &id, &size, &section);
		if (section >= 0 && section != last_section) {
			print_section(d, DUMP_OPTIONS, dat_file_option_section(d->df, section));
			last_section = section;
		}
		ret = one_option(d, id, data, size);
		if (ret)
			return ret;
	}
	return dat_file_nr_options(d->df);
}
