// SPDX-License-Identifier: GPL-2.0-only
/*
 * ktrace mem: trace-cmd's `mem`, the kmalloc/kfree statistics of a trace.dat file. The kmem
 * allocations (kmalloc, kmalloc_node, kmem_cache_alloc, kmem_cache_alloc_node) add to their
 * call site's bytes and the frees (kfree, kmem_cache_free) take the pointer's bytes back, in
 * the order trace-cmd reads the top buffer (merged by time, the lower CPU first on a tie);
 * instances are not read. A file without those events prints the table's header alone.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "ktrace/command.h"
#include "ktrace/cursor.h"
#include "ktrace/dat.h"
#include "ktrace/merge.h"
#include "ktrace/options.h"
#include "ktrace/report.h"
#include "mem.h"

static const struct kt_option mem_options[] = {
	REPORT_INPUT_OPTION,
	{ 0 }
};

static const struct kt_command_help mem_help = {
	.name = "mem",
	.usage = "[-i FILE | FILE]",
	.summary = "kmalloc/kfree statistics per call site of a trace.dat file (trace-cmd mem).",
	.options = mem_options,
};

/* One kmem event: its id (-1: not in the file) and the fields read. */
struct kmem_event {
	const char *name;
	bool is_free;
	int id;
	struct tep_format_field *call_site, *bytes_req, *bytes_alloc, *ptr;
};

struct mem_run {
	struct tep_handle *tep;
	struct mem_stats *stats;
	struct kmem_event ev[6];
};

static const struct kmem_event kmem_events[6] = {
	{ .name = "kmalloc" }, { .name = "kmalloc_node" }, { .name = "kfree", .is_free = true },
	{ .name = "kmem_cache_alloc" }, { .name = "kmem_cache_alloc_node" },
	{ .name = "kmem_cache_free", .is_free = true },
};

static void find_events(struct mem_run *m)
{
	size_t i;

	memcpy(m->ev, kmem_events, sizeof(m->ev));
	for (i = 0; i < sizeof(m->ev) / sizeof(m->ev[0]); i++) {
		struct kmem_event *e = &m->ev[i];
		struct tep_event *te = tep_find_event_by_name(m->tep, "kmem", e->name);

		e->id = -1;
		if (!te)
			continue;
		e->ptr = tep_find_field(te, "ptr");
		e->call_site = tep_find_field(te, "call_site");
		e->bytes_req = tep_find_field(te, "bytes_req");
		e->bytes_alloc = tep_find_field(te, "bytes_alloc");
		/* a format without the fields read counts nothing (trace-cmd reads garbage) */
		if (e->ptr && (e->is_free || (e->call_site && e->bytes_req && e->bytes_alloc)))
			e->id = te->id;
	}
}

static unsigned long long num(struct tep_format_field *f, const struct tep_record *r)
{
	unsigned long long v = 0;

	tep_read_number_field(f, r->data, &v);
	return v;
}

static int on_record(struct mem_run *m, const struct tep_record *r)
{
	int type = tep_data_type(m->tep, (struct tep_record *)r);
	size_t i;

	for (i = 0; i < sizeof(m->ev) / sizeof(m->ev[0]); i++) {
		const struct kmem_event *e = &m->ev[i];

		if (e->id != type)
			continue;
		if (e->is_free) {
			mem_stats_release(m->stats, num(e->ptr, r));
			return 0;
		}
		return mem_stats_alloc(m->stats, tep_find_function(m->tep, num(e->call_site, r)),
				       num(e->ptr, r), (unsigned int)num(e->bytes_req, r),
				       (int)num(e->bytes_alloc, r));
	}
	return 0;
}

static int top_buffer(struct dat_file *df)
{
	int i, nr = dat_file_nr_buffers(df);

	for (i = 0; i < nr; i++)
		if (!dat_file_buffer(df, i)->name[0])
			return i;
	return -1;
}

/* Whether the buffer holds a record at all: 1, 0, or negative errno (message in err). */
static int has_records(struct dat_file *df, int buffer, struct strbuf *err)
{
	int cpu, found = 0;

	for (cpu = 0; buffer >= 0 && cpu < dat_file_buffer(df, buffer)->nr_cpus && !found;
	     cpu++) {
		struct cpu_cursor *c;
		int ret = cpu_cursor_open(df, buffer, cpu, &c, err);

		if (ret)
			return ret;
		found = cpu_cursor_next(c, err);
		cpu_cursor_close(c);
	}
	return found;
}

static int walk(struct mem_run *m, struct dat_file *df, int top, struct strbuf *err)
{
	bool *only = calloc(top + 1, sizeof(*only));
	struct merge_options mo = { .buffer_filter = only, .nr_buffer_filter = top + 1 };
	struct merged_event ev;
	struct merge *mg = NULL;
	int ret;

	if (!only)
		return -ENOMEM;
	only[top] = true;
	ret = merge_open(df, &mo, &mg, err);
	while (!ret && (ret = merge_next(mg, &ev, err)) > 0)
		ret = on_record(m, ev.record);
	merge_close(mg);
	free(only);
	return ret;
}

static int run_mem(void *priv, struct strbuf *err)
{
	const struct report_opts *o = priv;
	struct mem_run m = { 0 };
	struct dat_file *df;
	int top, ret = dat_file_open(o->input, &df, err);

	if (ret)
		return ret;
	top = top_buffer(df);
	if (top >= 0 && dat_file_buffer(df, top)->latency) {
		strbuf_addf(err, "trace-cmd mem does not work with latency traces");
		ret = -EMEDIUMTYPE;
		goto out;
	}
	ret = has_records(df, top, err);
	if (ret <= 0) {
		if (!ret)
			strbuf_addf(err, "No records found in file");
		ret = ret ? ret : -ENODATA;
		goto out;
	}
	m.tep = dat_file_tep(df);
	m.stats = mem_stats_new();
	if (!m.stats) {
		ret = -ENOMEM;
		goto out;
	}
	find_events(&m);
	ret = walk(&m, df, top, err);
	if (!ret)
		ret = mem_stats_print(m.stats, stdout);
	fflush(stdout);
out:
	mem_stats_free(m.stats);
	dat_file_close(df);
	return ret;
}

/* trace-cmd dies with errno 0 there: exit 255 */
static int fail_status(void *priv, int ret, const struct strbuf *err)
{
	(void)priv;
	(void)err;
	return ret == -ENODATA || ret == -EMEDIUMTYPE ? 255 : 1;
}

int cmd_mem(int argc, char **argv)
{
	struct report_opts o = { 0 };
	const struct report_cli cli = {
		.name = "mem", .help = &mem_help, .o = &o, .priv = &o, .run = run_mem,
		.fail_status = fail_status,
	};

	return report_cli_run(&cli, report_cli_parse(&cli, argc, argv));
}
