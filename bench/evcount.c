// SPDX-License-Identifier: GPL-2.0-only
/*
 * evcount: count the events of a trace.dat file without formatting them, with ktrace's own
 * reader (dat + cursor), for the benchmarks.
 *
 *   evcount [-e SYSTEM:EVENT]... FILE.dat
 *
 * Prints: events=N (every record of every buffer), matched=N (records of the -e events, only
 * with -e), missed=N (the "events dropped" counts the pages carry) and missed_marks=N (places
 * where events were dropped, count known or not).
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
	int opt, ret = 0;

	while ((opt = getopt(argc, argv, "e:")) != -1) {
		if (opt != 'e' || c.nr_ids == MAX_MATCH)
			return 2;
		names[c.nr_ids++] = optarg;
	}
	if (optind != argc - 1) {
		fprintf(stderr, "usage: evcount [-e SYSTEM:EVENT]... FILE.dat\n");
		return 2;
	}
	if (dat_file_open(argv[optind], &df, &err)) {
		fprintf(stderr, "evcount: %s\n", strbuf_str(&err));
		return 1;
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
