// SPDX-License-Identifier: GPL-2.0-only
/*
 * The statistics of `ktrace mem`, kept as trace-cmd 3.1.6's trace-mem.c keeps them, because
 * its table has no other specification: a site is the function name pointer libtraceevent
 * returns for a call site (two symbols of one name are two sites), the sites sit in 4096
 * buckets chosen by trace-cmd's string hash, newest first in a bucket, and the table lists
 * them bucket by bucket, then sorted (stably: glibc's qsort is a merge sort) by the bytes
 * still wasted, highest first. Counters are unsigned long and printed with %ld, so a site
 * whose frees outweigh its allocations (the allocation came before the trace) prints
 * negative numbers, as trace-cmd's does.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"

#define SITE_BITS	12
#define NR_SITE_BUCKETS	(1 << SITE_BITS)
/* which bucket a pointer is in changes nothing printed: more of them, shorter chains */
#define PTR_BITS	16
#define NR_PTR_BUCKETS	(1 << PTR_BITS)

struct site {
	struct site *next;
	const char *func;
	unsigned long total_alloc, total_req;
	unsigned long cur_alloc, cur_req;
	unsigned long max_alloc, max_req;
	unsigned long waste, max_waste;
};

struct live_ptr {
	struct live_ptr *next;
	struct site *site;
	unsigned long long ptr;
	unsigned long alloc, req;
};

struct mem_stats {
	struct site *sites[NR_SITE_BUCKETS];
	struct live_ptr *ptrs[NR_PTR_BUCKETS];
	size_t nr_sites;
};

/* trace-cmd's trace_hash(): Paul Hsieh's integer mix */
static unsigned int mix(unsigned int val)
{
	unsigned int h = 12546869;
	unsigned int tmp;

	h += val & 0xffff;
	tmp = (val >> 16) ^ h;
	h = (h << 16) ^ tmp;
	h += h >> 11;
	h ^= h << 3;
	h += h >> 5;
	h ^= h << 4;
	h += h >> 17;
	h ^= h << 25;
	h += h >> 6;
	return h;
}

/* The bytes folded into the four bytes of an int (in memory order), then mixed. */
static unsigned int fold(const void *p, size_t size)
{
	const unsigned char *b = p;
	unsigned char key[4] = { 0 };
	unsigned int val;
	size_t i;

	for (i = 0; i < size; i++)
		key[i & 3] ^= b[i];
	memcpy(&val, key, sizeof(val));
	return mix(val);
}

/* trace-cmd would crash on a call site outside every symbol; ktrace names it "(null)" */
static const char *site_name(const char *func)
{
	return func ? func : "(null)";
}

static struct site **site_bucket(struct mem_stats *s, const char *func)
{
	const char *name = site_name(func);

	return &s->sites[fold(name, strlen(name)) & (NR_SITE_BUCKETS - 1)];
}

static struct live_ptr **ptr_bucket(struct mem_stats *s, unsigned long long ptr)
{
	return &s->ptrs[fold(&ptr, sizeof(ptr)) & (NR_PTR_BUCKETS - 1)];
}

static struct live_ptr *find_ptr(struct mem_stats *s, unsigned long long ptr)
{
	struct live_ptr *p;

	for (p = *ptr_bucket(s, ptr); p; p = p->next)
		if (p->ptr == ptr)
			return p;
	return NULL;
}

static struct site *get_site(struct mem_stats *s, const char *func)
{
	struct site **head = site_bucket(s, func);
	struct site *site;

	for (site = *head; site; site = site->next)
		if (site->func == func)
			return site;
	site = calloc(1, sizeof(*site));
	if (!site)
		return NULL;
	site->func = func;
	site->next = *head;
	*head = site;
	s->nr_sites++;
	return site;
}

struct mem_stats *mem_stats_new(void)
{
	return calloc(1, sizeof(struct mem_stats));
}

void mem_stats_free(struct mem_stats *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < NR_SITE_BUCKETS; i++)
		while (s->sites[i]) {
			struct site *next = s->sites[i]->next;

			free(s->sites[i]);
			s->sites[i] = next;
		}
	for (i = 0; i < NR_PTR_BUCKETS; i++)
		while (s->ptrs[i]) {
			struct live_ptr *next = s->ptrs[i]->next;

			free(s->ptrs[i]);
			s->ptrs[i] = next;
		}
	free(s);
}

int mem_stats_alloc(struct mem_stats *s, const char *func, unsigned long long ptr,
		    unsigned int req, int alloc)
{
	struct site *site = get_site(s, func);
	struct live_ptr *p;

	if (!site)
		return -ENOMEM;
	/* an int added to unsigned long: a negative size wraps, as in trace-cmd */
	site->total_alloc += alloc;
	site->total_req += req;
	site->cur_alloc += alloc;
	site->cur_req += req;
	if (site->cur_alloc > site->max_alloc)
		site->max_alloc = site->cur_alloc;
	if (site->cur_req > site->max_req)
		site->max_req = site->cur_req;

	/* a pointer allocated again without a free in between: the later allocation holds it */
	p = find_ptr(s, ptr);
	if (!p) {
		struct live_ptr **head = ptr_bucket(s, ptr);

		p = calloc(1, sizeof(*p));
		if (!p)
			return -ENOMEM;
		p->ptr = ptr;
		p->next = *head;
		*head = p;
	}
	p->alloc = alloc;
	p->req = req;
	p->site = site;
	return 0;
}

void mem_stats_release(struct mem_stats *s, unsigned long long ptr)
{
	struct live_ptr **link = ptr_bucket(s, ptr), *p;

	while ((p = *link) && p->ptr != ptr)
		link = &p->next;
	if (!p)
		return;
	p->site->cur_alloc -= p->alloc;
	p->site->cur_req -= p->req;
	*link = p->next;
	free(p);
}

/* A stable merge sort by waste, highest first (unsigned, as trace-cmd compares). */
static void sort_by_waste(struct site **v, struct site **tmp, size_t n)
{
	size_t mid = n / 2, i = 0, j = mid, k = 0;

	if (n < 2)
		return;
	sort_by_waste(v, tmp, mid);
	sort_by_waste(v + mid, tmp, n - mid);
	while (i < mid && j < n)
		tmp[k++] = v[j]->waste > v[i]->waste ? v[j++] : v[i++];
	while (i < mid)
		tmp[k++] = v[i++];
	while (j < n)
		tmp[k++] = v[j++];
	memcpy(v, tmp, n * sizeof(*v));
}

int mem_stats_print(struct mem_stats *s, FILE *out)
{
	struct site **v = calloc(s->nr_sites + 1, sizeof(*v));
	struct site **tmp = calloc(s->nr_sites + 1, sizeof(*tmp));
	struct site *site;
	size_t i, n = 0;

	if (!v || !tmp) {
		free(v);
		free(tmp);
		return -ENOMEM;
	}
	for (i = 0; i < NR_SITE_BUCKETS; i++)
		for (site = s->sites[i]; site; site = site->next) {
			site->waste = site->cur_alloc - site->cur_req;
			site->max_waste = site->max_alloc - site->max_req;
			v[n++] = site;
		}
	sort_by_waste(v, tmp, n);
	fprintf(out, "                Function            \t"
		     "Waste\tAlloc\treq\t\tTotAlloc     TotReq\t\tMaxAlloc     MaxReq\t"
		     "MaxWaste\n"
		     "                --------            \t"
		     "-----\t-----\t---\t\t--------     ------\t\t--------     ------\t"
		     "--------\n");
	for (i = 0; i < n; i++) {
		site = v[i];
		fprintf(out, "%32s\t%ld\t%ld\t%ld\t\t%8ld   %8ld\t\t%8ld   %8ld\t%ld\n",
			site_name(site->func), (long)site->waste, (long)site->cur_alloc,
			(long)site->cur_req, (long)site->total_alloc, (long)site->total_req,
			(long)site->max_alloc, (long)site->max_req, (long)site->max_waste);
	}
	free(v);
	free(tmp);
	return 0;
}
