// SPDX-License-Identifier: GPL-2.0-only
/* What an open trace.dat file tells its readers. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "dat_internal.h"
#include "ktrace/dat_format.h"

const char *dat_file_path(const struct dat_file *df)
{
	return df->path;
}

int dat_file_version(const struct dat_file *df)
{
	return df->version;
}

enum kt_compression dat_file_compression(const struct dat_file *df)
{
	return df->comp;
}

bool dat_file_big_endian(const struct dat_file *df)
{
	return df->big_endian;
}

int dat_file_long_size(const struct dat_file *df)
{
	return df->long_size;
}

uint32_t dat_file_page_size(const struct dat_file *df)
{
	return df->page_size;
}

int dat_file_nr_cpus(const struct dat_file *df)
{
	return df->nr_cpus;
}

struct tep_handle *dat_file_tep(struct dat_file *df)
{
	return df->tep;
}

int dat_file_nr_buffers(const struct dat_file *df)
{
	return df->nr_buffers;
}

int dat_file_nr_options(const struct dat_file *df)
{
	return df->nr_opts;
}

int dat_file_nr_option_sections(const struct dat_file *df)
{
	return df->nr_opt_sections;
}

int dat_file_nr_sections(const struct dat_file *df)
{
	return df->nr_sections;
}

const struct dat_meta_summary *dat_file_meta(const struct dat_file *df)
{
	return &df->meta;
}

const char *dat_file_trace_clock(const struct dat_file *df)
{
	return df->trace_clock;
}

bool dat_file_in_usecs(const struct dat_file *df)
{
	return df->in_usecs;
}

bool dat_file_use_trace_clock(const struct dat_file *df)
{
	return df->use_trace_clock;
}

bool dat_file_raw_ts(const struct dat_file *df)
{
	return df->opts.raw_ts;
}

int dat_file_parse_failures(const struct dat_file *df)
{
	return df->parse_failures;
}

const char *dat_file_compression_version(const struct dat_file *df)
{
	return df->comp_version ? df->comp_version : "";
}

const struct dat_buffer *dat_file_buffer(const struct dat_file *df, int index)
{
	if (index < 0 || index >= df->nr_buffers)
		return NULL;
	return &df->buffers[index];
}

const struct dat_section *dat_file_option_section(const struct dat_file *df, int index)
{
	if (index < 0 || index >= df->nr_opt_sections)
		return NULL;
	return &df->opt_sections[index];
}

const struct dat_section *dat_file_section(const struct dat_file *df, int index)
{
	if (index < 0 || index >= df->nr_sections)
		return NULL;
	return &df->sections[index];
}

const void *dat_file_option_at(const struct dat_file *df, int index, int *id, uint32_t *size,
			       int *section)
{
	const struct dat_opt *o;

	if (index < 0 || index >= df->nr_opts)
		return NULL;
	o = &df->opts_list[index];
	if (id)
		*id = o->id;
	if (size)
		*size = o->size;
	if (section)
		*section = o->section;
	return o->data;
}

const void *dat_file_option(const struct dat_file *df, int id, int nth, uint32_t *size)
{
	int i;

	for (i = 0; i < df->nr_opts; i++) {
		if (df->opts_list[i].id != id || nth-- > 0)
			continue;
		if (size)
			*size = df->opts_list[i].size;
		return df->opts_list[i].data;
	}
	return NULL;
}

const char *dat_file_latency_text(const struct dat_file *df, uint64_t *size)
{
	if (!df->latency)
		return NULL;
	if (size)
		*size = df->latency_size;
	return (const char *)df->latency;
}

/* The kernel's mul_u64_u32_shr, as trace-cmd applies TSC2NSEC. */
static uint64_t mul_shr(uint64_t a, uint64_t mul, unsigned int shift)
{
	uint64_t lo = (uint32_t)a, hi = a >> 32, ret;

	ret = (lo * mul) >> shift;
	if (hi)
		ret += (hi * mul) << (32 - shift);
	return ret;
}

uint64_t dat_file_cpu_ts(const struct dat_file *df, int cpu, uint64_t ts)
{
	if (df->opts.raw_ts)
		return ts;
	if (df->tsync)
		ts = dat_tsync_apply(df->tsync, cpu, ts);
	if (df->opts.ts2secs_hz)
		ts = (uint64_t)((double)ts * (1000000000.0 / (double)df->opts.ts2secs_hz));
	else if (df->tsc_mult)
		ts = mul_shr(ts, df->tsc_mult, df->tsc_shift);
	return ts + (uint64_t)df->ts_offset;
}

const char *dat_file_strings(const struct dat_file *df, uint64_t *size)
{
	if (size)
		*size = df->strings ? df->strings_size : 0;
	return df->strings ? df->strings : "";
}

void dat_file_add_ts_offset(struct dat_file *df, int64_t offset)
{
	df->ts_offset += offset;
}

uint64_t dat_file_ts(const struct dat_file *df, uint64_t ts)
{
	return dat_file_cpu_ts(df, -1, ts);
}

const char *dat_file_incomplete(const struct dat_file *df)
{
	uint32_t size, i;
	const char *p = dat_file_option(df, DAT_OPT_KTRACE_INCOMPLETE, 0, &size);

	if (!p)
		return NULL;
	/* The text goes to a terminal: a damaged or hostile one is not repeated. */
	for (i = 0; i < size && p[i]; i++)
		if (!isprint((unsigned char)p[i]))
			break;
	return i < size && !p[i] && i ? p : "the file does not say why";
}
