// SPDX-License-Identifier: GPL-2.0-only
/*
 * What options mean for reading: timestamp shifts (DATE, OFFSET, TSC2NSEC), the trace clock,
 * the CPU count and the buffers (BUFFER, BUFFER_TEXT). Applied in file order, as trace-cmd
 * report does, so that the same file gives the same timestamps.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>

#include "dat_internal.h"
#include "ktrace/dat_format.h"

/* A bounded, NUL-terminated copy of a text option. */
static void opt_text(const struct dat_opt *opt, char *buf, size_t bufsz)
{
	size_t n = opt->size < bufsz - 1 ? opt->size : bufsz - 1;

	memcpy(buf, opt->data, n);
	buf[n] = '\0';
}

bool dat_clock_counts_ns(const char *clock)
{
	static const char *const ns[] = { "local", "global", "uptime", "perf", "tai",
					  "tsc2nsec" };
	size_t i;

	if (strncmp(clock, "mono", 4) == 0)
		return true;
	for (i = 0; i < sizeof(ns) / sizeof(ns[0]); i++)
		if (strcmp(clock, ns[i]) == 0)
			return true;
	return false;
}

/* The clock in use is the bracketed word of the trace_clock file: "local [global] counter". */
void dat_parse_trace_clock(struct dat_file *df, const char *text, size_t len)
{
	const char *p = text, *end = text + len, *open, *close;
	size_t n;

	for (;;) {
		while (p < end && *p == ' ')
			p++;
		if (p >= end || !*p)
			return;
		if (*p == '[')
			break;
		while (p < end && *p && *p != ' ')
			p++;
	}
	open = p;
	while (open < end && *open == '[')
		open++;
	close = open;
	while (close < end && *close && *close != ']' && *close != '[' && *close != ' ' &&
	       *close != '\n' && *close != '\t')
		close++;
	n = (size_t)(close - open);
	if (!n)
		return;
	free(df->trace_clock);
	df->trace_clock = strndup(open, n);
	if (!df->trace_clock)
		return;
	if (df->opts.raw_ts)
		df->in_usecs = false;
	if (df->tsc_mult)
		return;
	if (!dat_clock_counts_ns(df->trace_clock))
		df->in_usecs = false;
}

static int parse_cpus(struct dat_file *df, const struct dat_opt *opt, struct dat_in *in,
		      struct dat_buffer *b, struct strbuf *err)
{
	uint32_t n, id, i, j;
	int ret;

	ret = dat_in_u32(in, &b->page_size, err);
	if (!ret)
		ret = dat_in_u32(in, &n, err);
	if (ret)
		return ret;
	if (b->page_size < DAT_MIN_PAGE_SIZE || b->page_size > DAT_MAX_PAGE_SIZE ||
	    (b->page_size & (b->page_size - 1)))
		return dat_err(err, df, "option BUFFER", opt->offset, -EBADMSG,
			       "page size %u is not a power of two in [%u, %u]", b->page_size,
			       DAT_MIN_PAGE_SIZE, DAT_MAX_PAGE_SIZE);
	if (n > DAT_MAX_CPUS || (uint64_t)n * 20 > in->end - in->pos)
		return dat_err(err, df, "option BUFFER", opt->offset, -EBADMSG,
			       "cpu count %u exceeds the %llu bytes left in the option (and at "
			       "most %d CPUs are allowed)", n,
			       (unsigned long long)(in->end - in->pos), DAT_MAX_CPUS);
	b->cpus = calloc(n ? n : 1, sizeof(*b->cpus));
	if (!b->cpus)
		return dat_err(err, df, "option BUFFER", opt->offset, -ENOMEM, "out of memory");
	for (i = 0; i < n; i++) {
		struct dat_cpu *c = &b->cpus[i];

		ret = dat_in_u32(in, &id, err);
		if (!ret)
			ret = dat_in_u64(in, &c->offset, err);
		if (!ret)
			ret = dat_in_u64(in, &c->size, err);
		if (ret)
			return ret;
		if (id >= DAT_MAX_CPUS)
			return dat_err(err, df, "option BUFFER", opt->offset, -EBADMSG,
				       "cpu id %u exceeds %d", id, DAT_MAX_CPUS);
		if (c->size && (c->offset > df->file_size || c->size > df->file_size - c->offset))
			return dat_err(err, df, "option BUFFER", opt->offset, -EBADMSG,
				       "cpu %u data at %llu, %llu bytes, runs past the end of the "
				       "file (%llu bytes): file truncated?", id,
				       (unsigned long long)c->offset, (unsigned long long)c->size,
				       (unsigned long long)df->file_size);
		c->cpu = (int)id;
		for (j = 0; j < i; j++)
			if (b->cpus[j].cpu == c->cpu)
				return dat_err(err, df, "option BUFFER", opt->offset, -EBADMSG,
					       "cpu %u is described twice", id);
		b->nr_cpus = (int)i + 1;
	}
	return 0;
}

struct dat_buffer *dat_buffer_add(struct dat_file *df, const char *name)
{
	struct dat_buffer *b;
	int i;

	/* A second description of the same buffer replaces the first, as in trace-cmd. */
	for (i = 0; i < df->nr_buffers; i++) {
		b = &df->buffers[i];
		if (strcmp(b->name, name) == 0) {
			free(b->cpus);
			free((char *)b->name);
			free((char *)b->clock);
			memset(b, 0, sizeof(*b));
			return b;
		}
	}
	if (df->nr_buffers >= DAT_MAX_BUFFERS)
		return NULL;
	b = realloc(df->buffers, (df->nr_buffers + 1) * sizeof(*b));
	if (!b)
		return NULL;
	df->buffers = b;
	b = &df->buffers[df->nr_buffers++];
	memset(b, 0, sizeof(*b));
	return b;
}

static int apply_buffer(struct dat_file *df, const struct dat_opt *opt, struct strbuf *err)
{
	const char *name, *clock = "";
	struct dat_buffer *b;
	struct dat_in in;
	uint64_t off;
	int ret;

	dat_in_mem(&in, df, "option BUFFER", opt->data, opt->size, opt->offset, false);
	ret = dat_in_u64(&in, &off, err);
	if (!ret)
		ret = dat_in_str(&in, DAT_MAX_STRING, &name, err);
	if (!ret && df->version >= 7)
		ret = dat_in_str(&in, DAT_MAX_STRING, &clock, err);
	if (ret)
		return ret;
	b = dat_buffer_add(df, name);
	if (!b)
		return dat_err(err, df, "option BUFFER", opt->offset, -ENOMEM,
			       "too many buffers or out of memory");
	b->name = strdup(name);
	b->clock = strdup(clock);
	if (!b->name || !b->clock)
		return dat_err(err, df, "option BUFFER", opt->offset, -ENOMEM, "out of memory");
	b->option_offset = off;
	b->section_offset = df->version >= 7 ? off : 0;
	b->page_size = df->page_size;
	if (off >= df->file_size)
		return dat_err(err, df, "option BUFFER", opt->offset, -EBADMSG,
			       "buffer \"%s\" data offset %llu is past the end of the file", name,
			       (unsigned long long)off);
	if (opt->id == DAT_OPT_BUFFER_TEXT) {
		b->latency = true;
		return 0;
	}
	if (df->version < 7)
		return 0;
	return parse_cpus(df, opt, &in, b, err);
}

static void apply_tsc2nsec(struct dat_file *df, const struct dat_opt *opt)
{
	if (opt->size < 16 || df->opts.raw_ts || dat_get32(df, opt->data + 4) >= 32)
		return;
	df->tsc_mult = dat_get32(df, opt->data);
	df->tsc_shift = dat_get32(df, opt->data + 4);
	df->tsc_offset = dat_get64(df, opt->data + 8);
	df->in_usecs = true;
}

int dat_option_apply(struct dat_file *df, const struct dat_opt *opt, struct strbuf *err)
{
	char text[128];

	switch (opt->id) {
	case DAT_OPT_DATE:
		if (df->opts.ignore_date || df->opts.raw_ts)
			break;
		opt_text(opt, text, sizeof(text));
		/* microseconds between the trace clock and the time of day */
		df->ts_offset += strtoll(text, NULL, 0) * 1000;
		break;
	case DAT_OPT_OFFSET:
		if (df->opts.raw_ts)
			break;
		opt_text(opt, text, sizeof(text));
		df->ts_offset += strtoll(text, NULL, 0);
		break;
	case DAT_OPT_TSC2NSEC:
		apply_tsc2nsec(df, opt);
		break;
	case DAT_OPT_TIME_SHIFT:
		return dat_tsync_load(df, opt->data, opt->size, opt->offset, err);
	case DAT_OPT_TRACECLOCK:
		dat_parse_trace_clock(df, (const char *)opt->data, opt->size);
		if (!df->opts.ts2secs_hz)
			df->use_trace_clock = true;
		break;
	case DAT_OPT_CPUCOUNT:
		if (opt->size >= 4)
			df->nr_cpus = (int)(dat_get32(df, opt->data) & 0x7fffffff);
		if (df->nr_cpus > DAT_MAX_CPUS)
			return dat_err(err, df, "option CPUCOUNT", opt->offset, -EBADMSG,
				       "cpu count %d exceeds %d", df->nr_cpus, DAT_MAX_CPUS);
		if (df->tep)
			tep_set_cpus(df->tep, df->nr_cpus);
		break;
	case DAT_OPT_BUFFER:
	case DAT_OPT_BUFFER_TEXT:
		return apply_buffer(df, opt, err);
	default:
		break;
	}
	return 0;
}
