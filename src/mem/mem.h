/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_MEM_H
#define KTRACE_MEM_H

/*
 * `ktrace mem`: trace-cmd's kmalloc/kfree statistics of a trace.dat file, per allocating
 * function (call site), printed byte for byte as trace-cmd 3.1.6 prints them.
 *
 *   cmd_mem.c     options, the file, the kmem events and their fields
 *   mem_stats.c   the call sites and live pointers, trace-cmd's order, the table
 */
#include <stdio.h>

struct mem_stats;

/* NULL on ENOMEM. */
struct mem_stats *mem_stats_new(void);
void mem_stats_free(struct mem_stats *s);
/*
 * An allocation of `req` bytes (`alloc` given) at ptr by the function `func` (the name
 * libtraceevent returns, one pointer per symbol: a site is that pointer). 0 or -ENOMEM.
 */
int mem_stats_alloc(struct mem_stats *s, const char *func, unsigned long long ptr,
		    unsigned int req, int alloc);
/* ptr freed: its site's current bytes drop (a pointer never seen allocated is ignored). */
void mem_stats_release(struct mem_stats *s, unsigned long long ptr);
/* The table, sorted by waste as trace-cmd sorts it. 0 or -ENOMEM. */
int mem_stats_print(struct mem_stats *s, FILE *out);

#endif
