// SPDX-License-Identifier: GPL-2.0-only
/*
 * read() of trace_pipe_raw (not splice) returns partly filled pages too, which is what a live
 * view needs: an event shows up without waiting for its page to fill.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>
#include <kbuffer.h>
#include <tracefs.h>

#include "stream_cpu.h"

struct stream_page {
	struct stream_page *next;
	char data[];
};

struct stream_cpu {
	int cpu;
	int page_size;
	struct tracefs_cpu *tcpu;
	struct kbuffer *kbuf;		/* positioned in head's page */
	struct kbuffer *scan;		/* walks a new page to learn its last timestamp */
	struct stream_page *head, *tail;
	bool loaded;			/* kbuf holds head's page */
	void *data;			/* current record in kbuf, NULL when none */
	struct tep_record record;
	unsigned long long last_ts;
};

int stream_cpu_open(struct tep_handle *tep, struct tracefs_instance *instance, int cpu,
		    struct stream_cpu **out)
{
	struct stream_cpu *sc = calloc(1, sizeof(*sc));

	if (!sc)
		return -ENOMEM;
	sc->cpu = cpu;
	sc->tcpu = tracefs_cpu_open(instance, cpu, true);
	sc->kbuf = tep_kbuffer(tep);
	sc->scan = tep_kbuffer(tep);
	if (!sc->tcpu || !sc->kbuf || !sc->scan) {
		int ret = errno ? -errno : -ENOMEM;

		stream_cpu_close(sc);
		return ret;
	}
	sc->page_size = tracefs_cpu_read_size(sc->tcpu);
	*out = sc;
	return 0;
}

static void drop_head(struct stream_cpu *sc)
{
	struct stream_page *p = sc->head;

	sc->head = p->next;
	if (!sc->head)
		sc->tail = NULL;
	free(p);
	sc->loaded = false;
	sc->data = NULL;
}

void stream_cpu_close(struct stream_cpu *sc)
{
	if (!sc)
		return;
	while (sc->head)
		drop_head(sc);
	if (sc->tcpu)
		tracefs_cpu_close(sc->tcpu);
	if (sc->kbuf)
		kbuffer_free(sc->kbuf);
	if (sc->scan)
		kbuffer_free(sc->scan);
	free(sc);
}

/* Queues the page when it holds an event; the newest timestamp goes to sc->last_ts. */
static bool queue_page(struct stream_cpu *sc, struct stream_page *p)
{
	unsigned long long ts;
	bool any = false;
	void *d;

	if (kbuffer_load_subbuffer(sc->scan, p->data) < 0)
		return false;
	for (d = kbuffer_read_event(sc->scan, &ts); d; d = kbuffer_next_event(sc->scan, &ts)) {
		sc->last_ts = ts;
		any = true;
	}
	if (!any)
		return false;
	p->next = NULL;
	if (sc->tail)
		sc->tail->next = p;
	else
		sc->head = p;
	sc->tail = p;
	return true;
}

int stream_cpu_fill(struct stream_cpu *sc, int max_pages, unsigned long long *last_ts)
{
	int n = 0;

	while (n < max_pages) {
		struct stream_page *p = malloc(sizeof(*p) + (size_t)sc->page_size);
		int r;

		if (!p)
			return -ENOMEM;
		r = tracefs_cpu_read(sc->tcpu, p->data, true);
		if (r <= 0) {
			int err = errno;

			free(p);
			if (r < 0 && err != EAGAIN && err != EINTR)
				return -err;
			break;
		}
		if (queue_page(sc, p))
			n++;
		else
			free(p);
	}
	*last_ts = sc->last_ts;
	return n;
}

static void set_record(struct stream_cpu *sc, unsigned long long ts, bool first)
{
	struct tep_record *r = &sc->record;

	memset(r, 0, sizeof(*r));
	r->ts = ts;
	r->cpu = sc->cpu;
	r->data = sc->data;
	r->size = kbuffer_event_size(sc->kbuf);
	r->missed_events = first ? kbuffer_missed_events(sc->kbuf) : 0;
}

struct tep_record *stream_cpu_peek(struct stream_cpu *sc)
{
	unsigned long long ts;

	while (!sc->data && sc->head) {
		if (!sc->loaded) {
			if (kbuffer_load_subbuffer(sc->kbuf, sc->head->data) < 0) {
				drop_head(sc);
				continue;
			}
			sc->loaded = true;
			sc->data = kbuffer_read_event(sc->kbuf, &ts);
			if (sc->data)
				set_record(sc, ts, true);
		}
		if (!sc->data)
			drop_head(sc);
	}
	return sc->data ? &sc->record : NULL;
}

void stream_cpu_advance(struct stream_cpu *sc)
{
	unsigned long long ts;

	if (!sc->data)
		return;
	sc->data = kbuffer_next_event(sc->kbuf, &ts);
	if (sc->data)
		set_record(sc, ts, false);
	else
		drop_head(sc);
}
