// SPDX-License-Identifier: GPL-2.0-only
/*
 * evcount: count the events of a trace.dat file without formatting them, with ktrace's own
 * reader (dat + cursor), for the benchmarks.
 *
 *   evcount [-e SYSTEM:EVENT]... FILE.dat
 *   evcount -p REPEAT FILE.dat
 *
 * Prints: events=N (every record of every buffer), matched=N (records of the -e events, only
 * with -e), missed=N (the "events dropped" counts the pages carry) and missed_marks=N (places
 * where events were dropped, count known or not).
 * With -p it reads the ring-buffer pages instead of the events and prints pages=N (of every CPU
 * of the top buffer, each CPU's pages REPEAT times over) and hash=H, a hash of the
 * decompressed pages CPU by CPU: what bench/listen expects a listener to have received from
 * `net_replay --repeat REPEAT`, compared with what `evcount -p 1` finds in the received file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event-parse.h>

#include "ktrace/cursor.h"
#include "ktrace/dat.h"

#define MAX_MATCH 16

struct counts {
	unsigned long long events, matched, missed, marks;
	int ids[MAX_MATCH];
	int nr_ids;
};

static int count_cpu(struct dat_file *df, int buf, int cpu, struct counts *c, struct strbuf *err)
{
	struct tep_handle *tep = dat_file_tep(df);
	struct cpu_cursor *cur;
	int ret = cpu_cursor_open(df, buf, cpu, &cur, err);

	if (ret)
		return ret;
	while ((ret = cpu_cursor_next(cur, err)) > 0) {
		struct tep_record *r = cpu_cursor_record(cur);

		c->events++;
		if (r->missed_events) {
			c->marks++;
			if (r->missed_events > 0)
				c->missed += (unsigned long long)r->missed_events;
		}
		if (c->nr_ids) {
			int id = tep_data_type(tep, r);

			for (int i = 0; i < c->nr_ids; i++)
				if (c->ids[i] == id) {
					c->matched++;
					break;
				}
		}
	}
	cpu_cursor_close(cur);
	return ret;
}

/* FNV-1a over the pages of each CPU in turn, each CPU's stream `repeat` times. */
static int hash_pages(struct dat_file *df, int repeat, struct strbuf *err)
{
	const struct dat_buffer *buf = dat_file_buffer(df, 0);
	uint32_t size = dat_file_page_size(df);
	unsigned long long pages = 0, h = 0xcbf29ce484222325ULL;
	struct dat_page_stream *ps;
	const unsigned char *page;
	int ret = 0;

	for (int i = 0; !ret && buf && i < buf->nr_cpus; i++) {
		for (int r = 0; !ret && r < repeat; r++) {
			ret = dat_page_stream_open(df, 0, i, &ps, err);
			if (ret)
				break;
			while ((ret = dat_page_stream_next(ps, (const void **)&page, err)) > 0) {
				pages++;
				for (uint32_t k = 0; k < size; k++)
					h = (h ^ page[k]) * 0x100000001b3ULL;
			}
			dat_page_stream_close(ps);
		}
	}
	if (ret < 0)
		return ret;
	printf("pages=%llu hash=%016llx\n", pages, h);
	return 0;
}

static int find_id(struct dat_file *df, const char *name)
{
	char sys[128];
	const char *colon = strchr(name, ':');
	struct tep_event *ev;

	if (!colon || (size_t)(colon - name) >= sizeof(sys))
		return -1;
	memcpy(sys, name, (size_t)(colon - name));
	sys[colon - name] = '\0';
	ev = tep_find_event_by_name(dat_file_tep(df), sys, colon + 1);
	return ev ? ev->id : -1;
}

int main(int argc, char **argv)
{
	const char *names[MAX_MATCH];
	struct strbuf err = STRBUF_INIT;
	struct counts c = { 0 };
	struct dat_file *df;
	int opt, ret = 0, repeat = 0;

	while ((opt = getopt(argc, argv, "e:p:")) != -1) {
		if (opt == 'p') {
			repeat = atoi(optarg);
			if (repeat < 1)
				return 2;
			continue;
		}
		if (opt != 'e' || c.nr_ids == MAX_MATCH)
			return 2;
		names[c.nr_ids++] = optarg;
	}
	if (optind != argc - 1) {
		fprintf(stderr, "usage: evcount [-e SYSTEM:EVENT]... FILE.dat | -p REPEAT FILE.dat\n");
		return 2;
	}
	if (dat_file_open(argv[optind], &df, &err)) {
		fprintf(stderr, "evcount: %s\n", strbuf_str(&err));
		return 1;
	}
	if (repeat) {
		ret = hash_pages(df, repeat, &err);
		dat_file_close(df);
		if (ret < 0)
			fprintf(stderr, "evcount: %s\n", strbuf_str(&err));
		strbuf_release(&err);
		return ret < 0;
	}
	for (int i = 0; i < c.nr_ids; i++)
		c.ids[i] = find_id(df, names[i]);
	for (int b = 0; !ret && b < dat_file_nr_buffers(df); b++) {
		const struct dat_buffer *buf = dat_file_buffer(df, b);

		for (int i = 0; !ret && !buf->latency && i < buf->nr_cpus; i++)
			ret = count_cpu(df, b, i, &c, &err);
	}
	dat_file_close(df);
	if (ret < 0) {
		fprintf(stderr, "evcount: %s\n", strbuf_str(&err));
		return 1;
	}
	printf("events=%llu", c.events);
	if (c.nr_ids)
		printf(" matched=%llu", c.matched);
	printf(" missed=%llu missed_marks=%llu\n", c.missed, c.marks);
	strbuf_release(&err);
	return 0;
}
