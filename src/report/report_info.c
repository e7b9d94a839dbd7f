// SPDX-License-Identifier: GPL-2.0-only
/*
 * The report options that print something about the file instead of its events: --stat,
 * --uname, --version, --cpus/--first-event/--last-event and -E. Texts as in trace-cmd 3.1.6.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "ktrace/dat.h"
#include "ktrace/dat_format.h"
#include "ktrace/merge.h"
#include "ktrace/report.h"
#include "report_info.h"
#include "report_print.h"

/* Every CPUSTAT option, each ending with a newline instead of its NUL, as trace-cmd joins them. */
static void print_cpustats(struct dat_file *df, FILE *out)
{
	uint32_t size;
	const char *p;
	int i;

	if (!dat_file_option(df, DAT_OPT_CPUSTAT, 0, &size)) {
		fputs(" No stats in this file\n", out);
		return;
	}
	for (i = 0; (p = dat_file_option(df, DAT_OPT_CPUSTAT, i, &size)); i++) {
		if (!size)
			continue;
		fwrite(p, 1, strnlen(p, size - 1), out);
		fputc('\n', out);
	}
	fputc('\n', out);
}

/* The uncompressed bytes of a compressed CPU stream: trace-cmd reports that size. */
static int stream_bytes(struct dat_file *df, int cpu_index, uint64_t *bytes, struct strbuf *err)
{
	struct dat_page_stream *ps;
	const void *page;
	int ret;

	*bytes = 0;
	ret = dat_page_stream_open(df, 0, cpu_index, &ps, err);
	if (ret)
		return ret;
	while ((ret = dat_page_stream_next(ps, &page, err)) > 0)
		*bytes += dat_file_buffer(df, 0)->page_size;
	dat_page_stream_close(ps);
	return ret;
}

static int find_cpu(const struct dat_buffer *b, int cpu)
{
	int i;

	for (i = 0; i < b->nr_cpus; i++)
		if (b->cpus[i].cpu == cpu)
			return i;
	return -1;
}

/*
 * trace-cmd indexes the CPUs by number (a CPU without data shows offset 0, size 0), and it
 * places decompressed data one CPU after the other from the first page: those are the
 * offsets it prints for a compressed file.
 */
static int print_cpu_offsets(struct dat_file *df, FILE *out, struct strbuf *err)
{
	const struct dat_buffer *top = dat_file_buffer(df, 0);
	uint64_t page = top->page_size ? top->page_size : dat_file_page_size(df);
	uint64_t next = page, off, size;
	int cpu, i, nr = 0, ret;

	for (i = 0; i < top->nr_cpus; i++)
		if (top->cpus[i].cpu + 1 > nr)
			nr = top->cpus[i].cpu + 1;
	for (cpu = 0; cpu < nr; cpu++) {
		i = find_cpu(top, cpu);
		off = i < 0 ? 0 : top->cpus[i].offset;
		size = i < 0 ? 0 : top->cpus[i].size;
		if (i >= 0 && size && top->compressed) {
			ret = stream_bytes(df, i, &size, err);
			if (ret)
				return ret;
			off = next;
			next = (next + size + page - 1) & ~(page - 1);
		}
		fprintf(out, "CPU%d data recorded at offset=0x%llx\n", cpu, (unsigned long long)off);
		fprintf(out, "    %lld bytes in size\n", (long long)size);
	}
	return 0;
}

int report_print_stat(struct dat_file *df, FILE *out, struct strbuf *err)
{
	fputs("\nKernel buffer statistics:\n"
	      "  Note: \"entries\" are the entries left in the kernel ring buffer and are not\n"
	      "        recorded in the trace data. They should all be zero.\n\n", out);
	print_cpustats(df, out);
	if (!dat_file_nr_buffers(df) || dat_file_buffer(df, 0)->latency)
		return 0;
	return print_cpu_offsets(df, out, err);
}

static void print_text_option(struct dat_file *df, int id, const char *missing, FILE *out)
{
	uint32_t size;
	const char *p = dat_file_option(df, id, 0, &size);

	if (p && size) {
		fwrite(p, 1, strnlen(p, size), out);
		fputc('\n', out);
	} else {
		fputs(missing, out);
	}
}

void report_print_uname(struct dat_file *df, FILE *out)
{
	print_text_option(df, DAT_OPT_UNAME, " uname was not recorded in this file\n", out);
}

void report_print_version(struct dat_file *df, FILE *out)
{
	print_text_option(df, DAT_OPT_VERSION, " version was not recorded in this file\n", out);
}

/* First and last record of one CPU of the top buffer; 0 when it has none. */
static int cpu_first_last(struct dat_file *df, int cpu, bool want_last, unsigned long long *first,
			  unsigned long long *last, struct strbuf *err)
{
	bool *cpus = calloc(cpu + 1, sizeof(*cpus));
	bool *bufs = calloc(dat_file_nr_buffers(df), sizeof(*bufs));
	struct merge_options mo = {
		.cpu_filter = cpus, .nr_cpu_filter = cpu + 1,
		.buffer_filter = bufs, .nr_buffer_filter = dat_file_nr_buffers(df),
	};
	struct merged_event ev;
	struct merge *m = NULL;
	int ret = -ENOMEM, n = 0;

	if (!cpus || !bufs)
		goto out;
	cpus[cpu] = true;
	bufs[0] = true;
	ret = merge_open(df, &mo, &m, err);
	if (ret)
		goto out;
	while ((ret = merge_next(m, &ev, err)) > 0) {
		if (!n++)
			*first = ev.record->ts;
		*last = ev.record->ts;
		if (!want_last)
			break;
	}
	if (ret >= 0)
		ret = n > 0;
out:
	merge_close(m);
	free(cpus);
	free(bufs);
	return ret;
}

int report_print_cpus(struct dat_file *df, const struct report_opts *o,
		      const struct report_clock *clock, FILE *out, struct strbuf *err)
{
	const struct dat_buffer *top = dat_file_nr_buffers(df) ? dat_file_buffer(df, 0) : NULL;
	unsigned long long first = 0, last = 0;
	char tbuf[48];
	int cpu, ret;

	fprintf(out, "List of CPUs in %s with data:\n", dat_file_path(df));
	for (cpu = 0; top && cpu < dat_file_nr_cpus(df); cpu++) {
		if (find_cpu(top, cpu) < 0)
			continue;
		ret = cpu_first_last(df, cpu, o->show_last, &first, &last, err);
		if (ret < 0)
			return ret;
		if (!ret)
			continue;
		fprintf(out, "  %d", cpu);
		if (o->show_first) {
			report_time_format(tbuf, first, clock->unit, false);
			fprintf(out, "\tFirst event:%s", tbuf);
		}
		if (o->show_last) {
			report_time_format(tbuf, last, clock->unit, false);
			fprintf(out, "\tLast event:%s", tbuf);
		}
		fputc('\n', out);
	}
	return 0;
}

void report_print_event_list(struct tep_handle *tep, FILE *out)
{
	struct tep_event **events = tep_list_events(tep, TEP_EVENT_SORT_SYSTEM);
	int i;

	for (i = 0; events && events[i]; i++) {
		if (events[i]->system)
			fprintf(out, "%s:", events[i]->system);
		fprintf(out, "%s\n", events[i]->name);
	}
}
