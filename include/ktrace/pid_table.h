/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_PID_TABLE_H
#define KTRACE_PID_TABLE_H

/*
 * Per-task state keyed by pid, for those that look a task up on every event (report -w, the
 * Perfetto export): open addressing with linear probing, at most half full. Each entry is a
 * struct of the user's that starts with a struct pid_slot.
 */
#include <stdbool.h>
#include <stddef.h>

struct pid_slot {
	int pid;
	bool used;
};

struct pid_table {
	void *slots;		/* cap entries of `size` bytes */
	size_t size;		/* of one entry */
	size_t first_cap;	/* the first allocation's entries: a power of two */
	size_t cap, nr;
};

/* An empty table of entries of `size` bytes; nothing is allocated before the first get. */
void pid_table_init(struct pid_table *t, size_t size, size_t first_cap);
/* The entry of pid, created (zeroed) when new; NULL when out of memory. Valid until the next get */
void *pid_table_get(struct pid_table *t, int pid);
/* The entry of pid, NULL when there is none. */
void *pid_table_find(const struct pid_table *t, int pid);
/* Removes the entry (from get or find); the others stay where lookups find them. */
void pid_table_remove(struct pid_table *t, void *entry);
/* Entry i of the slots (i < cap), in table order, NULL where unused: for walks over all. */
void *pid_table_slot(const struct pid_table *t, size_t i);
void pid_table_release(struct pid_table *t);

#endif
