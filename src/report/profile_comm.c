// SPDX-License-Identifier: GPL-2.0-only
/*
 * report --profile --by-comm: the tasks of one name as one row. A build runs hundreds of short
 * `cc1` processes; what matters is the time all of them spent, not each pid's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "profile.h"

static int cmp_comm_pid(const void *a, const void *b)
{
	const struct profile_task *x = *(struct profile_task * const *)a;
	const struct profile_task *y = *(struct profile_task * const *)b;
	int c = strcmp(x->comm, y->comm);

	if (c)
		return c;
	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

static void sum_merge(struct profile_sum *into, const struct profile_sum *from)
{
	into->total += from->total;
	into->count += from->count;
	if (from->max > into->max)
		into->max = from->max;
}

static struct profile_stack *same_stack(struct profile_task *t, const struct profile_stack *s)
{
	size_t i;

	for (i = 0; i < t->nr_stacks; i++)
		if (t->stacks[i].nr == s->nr &&
		    !memcmp(t->stacks[i].ips, s->ips, s->nr * sizeof(*s->ips)))
			return &t->stacks[i];
	return NULL;
}

/* Moves from's stacks into into: one stack seen by both adds up. */
static int stacks_merge(struct profile_task *into, struct profile_task *from)
{
	struct profile_stack *grown, *same;
	size_t i;

	if (!from->nr_stacks)
		return 0;
	grown = realloc(into->stacks, (into->nr_stacks + from->nr_stacks) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	into->stacks = grown;
	for (i = 0; i < from->nr_stacks; i++) {
		same = same_stack(into, &from->stacks[i]);
		if (same) {
			sum_merge(&same->sum, &from->stacks[i].sum);
			free(from->stacks[i].ips);
		} else {
			into->stacks[into->nr_stacks++] = from->stacks[i];
		}
	}
	free(from->stacks);
	from->stacks = NULL;
	from->nr_stacks = 0;
	return 0;
}

static int task_merge(struct profile_task *into, struct profile_task *from)
{
	int b;

	for (b = 0; b < PROFILE_NR_BUCKETS; b++)
		sum_merge(&into->sum[b], &from->sum[b]);
	into->nr_merged++;
	return stacks_merge(into, from);
}

int profile_by_comm(struct profile *p, const struct report_opts *o)
{
	size_t i, rows = 0;
	int ret = 0;

	/* --pid/--comm pick tasks before they are merged: a row is the chosen tasks only */
	for (i = 0; i < p->nr_tasks; i++)
		if (profile_task_shown(p->tasks[i], o))
			p->tasks[rows++] = p->tasks[i];
	p->nr_tasks = rows;
	if (rows)
		qsort(p->tasks, rows, sizeof(*p->tasks), cmp_comm_pid);
	rows = 0;
	for (i = 0; i < p->nr_tasks && !ret; i++) {
		struct profile_task *t = p->tasks[i];

		if (rows && !strcmp(p->tasks[rows - 1]->comm, t->comm)) {
			ret = task_merge(p->tasks[rows - 1], t);
			continue;
		}
		t->nr_merged = 1;
		p->tasks[rows++] = t;
	}
	/* the tasks merged away stay in p->root, which profile_release() frees */
	p->nr_tasks = rows;
	p->by_comm = true;
	return ret ? ret : profile_sort(p);
}
