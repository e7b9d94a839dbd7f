// SPDX-License-Identifier: GPL-2.0-only
/*
 * The smaller sources of `ktrace hist`: function_graph durations by function, counts of an
 * event's field values, and the per-thread table the pairing sources share.
 */
#include <errno.h>
#include <search.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

#include "hist.h"

/* ------------------------------------------------------------------ per-pid table */

static int start_cmp(const void *a, const void *b)
{
	int x = ((const struct hist_start *)a)->pid, y = ((const struct hist_start *)b)->pid;

	return x < y ? -1 : x > y;
}

struct hist_start *hist_pending_get(struct hist_pending *p, int pid)
{
	struct hist_start key = { .pid = pid }, *st, **slot;

	slot = tfind(&key, &p->root, start_cmp);
	if (slot)
		return *slot;
	st = calloc(1, sizeof(*st));
	if (!st)
		return NULL;
	st->pid = pid;
	slot = tsearch(st, &p->root, start_cmp);
	if (!slot) {
		free(st);
		return NULL;
	}
	return st;
}

void hist_pending_release(struct hist_pending *p)
{
	tdestroy(p->root, free);
	p->root = NULL;
}

/* ------------------------------------------------------------------ function_graph */

struct hist_funcgraph {
	struct hist_source src;
	struct tep_handle *tep;
	int id;
	struct tep_format_field *func, *calltime, *rettime;
};

static int funcgraph_event(struct hist_source *src, struct tep_record *rec)
{
	struct hist_funcgraph *f = (struct hist_funcgraph *)src;
	unsigned long long addr, call, ret;
	const char *name;
	char buf[32];

	if (tep_data_type(f->tep, rec) != f->id ||
	    tep_read_number_field(f->func, rec->data, &addr) ||
	    tep_read_number_field(f->calltime, rec->data, &call) ||
	    tep_read_number_field(f->rettime, rec->data, &ret) || ret < call)
		return 0;
	name = tep_find_function(f->tep, addr);
	if (!name) {
		snprintf(buf, sizeof(buf), "0x%llx", addr);
		name = buf;
	}
	return hist_set_add(&f->src.set, name, ret - call);
}

static void source_free(struct hist_source *src)
{
	hist_set_release(&src->set);
	free(src);
}

int hist_funcgraph_new(const struct hist_source_conf *c, struct hist_source **out,
		       struct strbuf *err)
{
	struct tep_event *e = tep_find_event_by_name(c->tep, "ftrace", "funcgraph_exit");
	struct hist_funcgraph *f;

	if (!e || !tep_find_field(e, "func") || !tep_find_field(e, "calltime") ||
	    !tep_find_field(e, "rettime")) {
		strbuf_addstr(err, "the file has no funcgraph_exit event with calltime and rettime "
			      "(record with -p function_graph)");
		return -EINVAL;
	}
	f = calloc(1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	f->tep = c->tep;
	f->id = e->id;
	f->func = tep_find_field(e, "func");
	f->calltime = tep_find_field(e, "calltime");
	f->rettime = tep_find_field(e, "rettime");
	f->src.event = funcgraph_event;
	f->src.free = source_free;
	*out = &f->src;
	return 0;
}

/* ------------------------------------------------------------------ field value counts */

struct hist_event {
	struct hist_source src;
	struct tep_handle *tep;
	int id;
	struct tep_format_field *key;
	struct trace_seq seq;
};

/* The value as report -R prints it: numbers in decimal (hex for pointers), text as text. */
static int count_event(struct hist_source *src, struct tep_record *rec)
{
	struct hist_event *h = (struct hist_event *)src;

	if (tep_data_type(h->tep, rec) != h->id)
		return 0;
	trace_seq_reset(&h->seq);
	tep_print_field_content(&h->seq, rec->data, rec->size, h->key);
	trace_seq_terminate(&h->seq);
	if (h->seq.state != TRACE_SEQ__GOOD)
		return -ENOMEM;
	return hist_set_add(&h->src.set, h->seq.buffer, 0);
}

static void event_free(struct hist_source *src)
{
	struct hist_event *h = (struct hist_event *)src;

	trace_seq_destroy(&h->seq);
	source_free(src);
}

static struct tep_event *find_event(struct tep_handle *tep, const char *spec)
{
	const char *colon = strchr(spec, ':');
	char sys[64];

	if (!colon)
		return tep_find_event_by_name(tep, NULL, spec);
	snprintf(sys, sizeof(sys), "%.*s", (int)(colon - spec), spec);
	return tep_find_event_by_name(tep, sys, colon + 1);
}

int hist_event_new(const struct hist_source_conf *c, struct hist_source **out,
		   struct strbuf *err)
{
	struct tep_event *e = find_event(c->tep, c->event);
	struct tep_format_field *key;
	struct hist_event *h;

	if (!e) {
		strbuf_addf(err, "event '%s': not in the file (see 'ktrace report -E')", c->event);
		return -EINVAL;
	}
	key = tep_find_any_field(e, c->key);
	if (!key) {
		strbuf_addf(err, "--key %s: %s:%s has no such field (see 'ktrace report "
			    "--event %s')", c->key, e->system, e->name, e->name);
		return -EINVAL;
	}
	h = calloc(1, sizeof(*h));
	if (!h)
		return -ENOMEM;
	h->tep = c->tep;
	h->id = e->id;
	h->key = key;
	trace_seq_init(&h->seq);
	h->src.event = count_event;
	h->src.free = event_free;
	*out = &h->src;
	return 0;
}
