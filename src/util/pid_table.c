// SPDX-License-Identifier: GPL-2.0-only
/* A hash table keyed by pid (pid_table.h). */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ktrace/pid_table.h"

static struct pid_slot *at(void *slots, size_t size, size_t i)
{
	return (struct pid_slot *)((char *)slots + i * size);
}

static size_t home_of(int pid, size_t cap)
{
	/* Knuth's multiplicative hash: pids are dense, the low bits alone would cluster */
	return ((uint32_t)pid * 2654435761u) & (cap - 1);
}

static size_t probe(void *slots, size_t size, size_t cap, int pid)
{
	size_t i = home_of(pid, cap);

	while (at(slots, size, i)->used && at(slots, size, i)->pid != pid)
		i = (i + 1) & (cap - 1);
	return i;
}

static int grow(struct pid_table *t)
{
	size_t cap = t->cap ? t->cap * 2 : t->first_cap, i;
	void *slots = calloc(cap, t->size);

	if (!slots)
		return -ENOMEM;
	for (i = 0; i < t->cap; i++) {
		struct pid_slot *old = at(t->slots, t->size, i);
		size_t j;

		if (!old->used)
			continue;
		j = probe(slots, t->size, cap, old->pid);
		memcpy(at(slots, t->size, j), old, t->size);
	}
	free(t->slots);
	t->slots = slots;
	t->cap = cap;
	return 0;
}

void pid_table_init(struct pid_table *t, size_t size, size_t first_cap)
{
	memset(t, 0, sizeof(*t));
	t->size = size;
	t->first_cap = first_cap;
}

void *pid_table_get(struct pid_table *t, int pid)
{
	struct pid_slot *s;

	if ((t->nr + 1) * 2 > t->cap && grow(t))
		return NULL;
	s = at(t->slots, t->size, probe(t->slots, t->size, t->cap, pid));
	if (!s->used) {
		s->used = true;
		s->pid = pid;
		t->nr++;
	}
	return s;
}

void *pid_table_find(const struct pid_table *t, int pid)
{
	struct pid_slot *s;

	if (!t->cap)
		return NULL;
	s = at(t->slots, t->size, probe(t->slots, t->size, t->cap, pid));
	return s->used ? s : NULL;
}

/* Backward-shift deletion: later entries of the probe chain move up into the hole. */
void pid_table_remove(struct pid_table *t, void *entry)
{
	size_t mask = t->cap - 1, i = (size_t)((char *)entry - (char *)t->slots) / t->size, j = i;
	size_t home;

	memset(entry, 0, t->size);
	t->nr--;
	for (;;) {
		struct pid_slot *s;

		j = (j + 1) & mask;
		s = at(t->slots, t->size, j);
		if (!s->used)
			return;
		home = home_of(s->pid, t->cap);
		/* j's entry may move to i when i lies between its home and j (cyclically) */
		if ((j > i && (home <= i || home > j)) || (j < i && home <= i && home > j)) {
			memcpy(at(t->slots, t->size, i), s, t->size);
			memset(s, 0, t->size);
			i = j;
		}
	}
}

void *pid_table_slot(const struct pid_table *t, size_t i)
{
	struct pid_slot *s = at(t->slots, t->size, i);

	return s->used ? s : NULL;
}

void pid_table_release(struct pid_table *t)
{
	free(t->slots);
	pid_table_init(t, t->size, t->first_cap);
}
