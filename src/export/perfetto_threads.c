// SPDX-License-Identifier: GPL-2.0-only
/*
 * Per-thread state of the Perfetto export, in px->threads (a pid_table keyed by thread id: every
 * event looks its task up, so lookups must be cheap).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "perfetto.h"

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

void pf_threads_release(struct pid_table *t)
{
	size_t i;

	for (i = 0; i < t->cap; i++) {
		struct pf_thread *th = pid_table_slot(t, i);

		if (th)
			free(th->depths);
	}
	pid_table_release(t);
}
