// SPDX-License-Identifier: GPL-2.0-only
/*
 * datgen: a large trace.dat made from a small one, deterministically, for the benchmarks that
 * need millions of events without a recording (bench/sql): the top buffer's pages of IN, every
 * CPU's, repeated until the file holds at least EVENTS records, each copy later than the one
 * before by the span of IN (the page timestamps and the absolute TIME_STAMP records moved),
 * written by ktrace's own writer with IN's metadata (formats, kallsyms, cmdlines) as it is.
 *
 *   datgen IN.dat OUT.dat EVENTS
 *
 * Prints events=N (records written) and copies=N. v7, uncompressed, little-endian hosts only.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ktrace/dat.h"
#include "ktrace/dat_copy.h"
#include "ktrace/dat_writer.h"
#include "ktrace/fdio.h"

#define TS_BITS 27
#define COMMIT_MASK ((1ULL << 27) - 1)

struct cpu_pages {
	uint8_t *pages;
	size_t nr;
};

/*
 * Walks one page: its records counted (data records only), its last timestamp in *last, and,
 * with shift, the absolute TIME_STAMP records moved by shift.
 */
static uint64_t walk_page(uint8_t *page, uint32_t page_size, uint64_t shift, uint64_t *last)
{
	uint64_t ts, commit, n = 0;
	uint8_t *p, *end;

	memcpy(&ts, page, 8);
	memcpy(&commit, page + 8, 8);
	p = page + 16;
	end = p + (commit & COMMIT_MASK);
	if (end > page + page_size)
		end = page + page_size;
	while (p + 4 <= end) {
		uint32_t hdr, a0 = 0, type, delta;

		memcpy(&hdr, p, 4);
		type = hdr & 31;
		delta = hdr >> 5;
		if (p + 8 <= end)
			memcpy(&a0, p + 4, 4);
		if (type == 29) {		/* padding */
			if (!delta)
				break;
			p += 4 + a0;
			continue;
		}
		if (type == 30) {		/* time extend */
			ts += ((uint64_t)a0 << TS_BITS) + delta;
			p += 8;
			continue;
		}
		if (type == 31) {		/* absolute time stamp */
			uint64_t abs = ((uint64_t)a0 << TS_BITS) | delta;

			if (shift) {
				abs += shift;
				hdr = 31 | (uint32_t)((abs & ((1U << TS_BITS) - 1)) << 5);
				a0 = (uint32_t)(abs >> TS_BITS);
				memcpy(p, &hdr, 4);
				memcpy(p + 4, &a0, 4);
				abs -= shift;
			}
			ts = abs;
			p += 8;
			continue;
		}
		ts += delta;
		n++;
		p += type ? 4 + type * 4 : 4 + a0;
	}
	*last = ts;
	return n;
}

static int load_cpu(struct dat_file *df, int index, uint32_t page_size, struct cpu_pages *cp,
		    struct strbuf *err)
{
	struct dat_page_stream *ps;
	const void *page;
	int ret = dat_page_stream_open(df, 0, index, &ps, err);

	while (!ret && (ret = dat_page_stream_next(ps, &page, err)) > 0) {
		uint8_t *grown = realloc(cp->pages, (cp->nr + 1) * page_size);

		if (!grown) {
			ret = -ENOMEM;
			break;
		}
		cp->pages = grown;
		memcpy(cp->pages + cp->nr++ * page_size, page, page_size);
		ret = 0;
	}
	if (ps)
		dat_page_stream_close(ps);
	return ret;
}

int main(int argc, char **argv)
{
	struct dat_writer_config cfg = { .version = 7, .compression = KT_COMP_NONE, .long_size = 8 };
	struct strbuf err = STRBUF_INIT;
	const struct dat_buffer *b;
	struct dat_file *df = NULL;
	struct dat_writer *w = NULL;
	struct dat_cpu_source *cs;
	struct dat_buffer_source src;
	struct cpu_pages *cpus;
	uint64_t want, per_copy = 0, first = UINT64_MAX, last = 0, span, copies, k, t, l;
	uint8_t *page;
	size_t i;
	int c, out, ret;

	if (argc != 4) {
		fprintf(stderr, "usage: datgen IN.dat OUT.dat EVENTS\n");
		return 2;
	}
	want = strtoull(argv[3], NULL, 10);
	ret = dat_file_open(argv[1], &df, &err);
	if (ret)
		goto fail;
	b = dat_file_buffer(df, 0);
	cpus = calloc((size_t)b->nr_cpus, sizeof(*cpus));
	cs = calloc((size_t)b->nr_cpus, sizeof(*cs));
	for (c = 0; c < b->nr_cpus && !ret; c++) {
		ret = load_cpu(df, c, b->page_size, &cpus[c], &err);
		for (i = 0; !ret && i < cpus[c].nr; i++) {
			page = cpus[c].pages + i * b->page_size;
			memcpy(&t, page, 8);
			per_copy += walk_page(page, b->page_size, 0, &l);
			if (t < first)
				first = t;
			if (l > last)
				last = l;
		}
	}
	if (ret)
		goto fail;
	if (!per_copy) {
		fprintf(stderr, "datgen: %s has no records\n", argv[1]);
		return 1;
	}
	span = last - first + 1000;
	copies = (want + per_copy - 1) / per_copy;
	for (c = 0; c < b->nr_cpus && !ret; c++) {
		cs[c].cpu = b->cpus[c].cpu;
		cs[c].fd = fd_open_temp("/tmp");
		for (k = 0; k < copies && !ret; k++) {
			for (i = 0; i < cpus[c].nr && !ret; i++) {
				page = cpus[c].pages + i * b->page_size;
				memcpy(&t, page, 8);
				t += span;
				memcpy(page, &t, 8);
				/* the copy k pages: k spans later; the first copy is IN's own */
				if (k)
					walk_page(page, b->page_size, span, &l);
				else {
					t -= span;
					memcpy(page, &t, 8);
				}
				ret = fd_write_all(cs[c].fd, page, b->page_size);
			}
		}
		cs[c].size = cs[c].raw_size = copies * cpus[c].nr * b->page_size;
	}
	src = (struct dat_buffer_source){ .name = "", .clock = b->clock && *b->clock ? b->clock :
		"local", .page_size = b->page_size, .cpus = cs, .nr_cpus = b->nr_cpus };
	cfg.page_size = dat_file_page_size(df);
	out = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (out < 0 || ret) {
		perror(argv[2]);
		return 1;
	}
	ret = dat_writer_open(out, &cfg, &w, &err);
	if (!ret)
		ret = dat_copy_metadata(df, w, &err);
	if (!ret)
		ret = dat_writer_cpu_count(w, b->nr_cpus);
	if (!ret)
		ret = dat_writer_buffers(w, &src, 1, &err);
	if (!ret)
		ret = dat_writer_finish(w, &err);
	if (ret)
		goto fail;
	printf("events=%llu\ncopies=%llu\n", (unsigned long long)(copies * per_copy),
	       (unsigned long long)copies);
	return close(out) ? 1 : 0;
fail:
	fprintf(stderr, "datgen: %s\n", err.len ? strbuf_str(&err) : strerror(-ret));
	return 1;
}
