// SPDX-License-Identifier: GPL-2.0-only
/*
 * Per-thread state of the Perfetto export, in a hash table keyed by thread id: a trace names
 * thousands of tasks at most, and every event looks its task up, so lookups must be cheap.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "perfetto.h"

static size_t slot_of(int tid, size_t cap)
{
	/* Knuth's multiplicative hash: pids are dense, the low bits alone would cluster */
	return ((uint32_t)tid * 2654435761u) & (cap - 1);
}

static struct pf_thread *probe(struct pf_thread *slots, size_t cap, int tid)
{
	size_t i = slot_of(tid, cap);

	while (slots[i].used && slots[i].tid != tid)
		i = (i + 1) & (cap - 1);
	return &slots[i];
}

static int grow(struct pf_threads *t)
{
	size_t cap = t->cap ? t->cap * 2 : 256, i;
	struct pf_thread *slots = calloc(cap, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (i = 0; i < t->cap; i++)
		if (t->slots[i].used)
			*probe(slots, cap, t->slots[i].tid) = t->slots[i];
	free(t->slots);
	t->slots = slots;
	t->cap = cap;
	return 0;
}

struct pf_thread *pf_thread_get(struct pf_threads *t, int tid)
{
	struct pf_thread *th;

	/* keep the table at most half full so that probe sequences stay short */
	if ((t->nr + 1) * 2 > t->cap && grow(t))
		return NULL;
	th = probe(t->slots, t->cap, tid);
	if (!th->used) {
		th->used = true;
		th->tid = tid;
		t->nr++;
	}
	return th;
}

void pf_thread_set_comm(struct pf_thread *th, const char *comm, size_t max)
{
	size_t len = strnlen(comm, max < PF_COMM_LEN ? max : PF_COMM_LEN);

	memcpy(th->comm, comm, len);
	th->comm[len] = '\0';
}

int pf_thread_push_depth(struct pf_thread *th, int depth)
{
	if (th->nr_depths == th->alloc_depths) {
		int alloc = th->alloc_depths ? th->alloc_depths * 2 : 16;
		int *grown = realloc(th->depths, (size_t)alloc * sizeof(*grown));

		if (!grown)
			return -ENOMEM;
		th->depths = grown;
		th->alloc_depths = alloc;
	}
	th->depths[th->nr_depths++] = depth;
	return 0;
}

void pf_threads_release(struct pf_threads *t)
{
	size_t i;

	for (i = 0; i < t->cap; i++)
		free(t->slots[i].depths);
	free(t->slots);
	memset(t, 0, sizeof(*t));
}
