// SPDX-License-Identifier: GPL-2.0-only
/*
 * Groups of values and how they are printed: count, min, p50, p90, p99, max and a log2
 * histogram per group, as text bars or as JSON. Every value is kept (not only its bucket) so
 * that the percentiles are exact, which a user comparing two runs needs more than the memory.
 */
#include <errno.h>
#include <search.h>
#include <stdlib.h>
#include <string.h>

#include "hist.h"

#define HIST_BAR_WIDTH 40

static int group_cmp_name(const void *a, const void *b)
{
	return strcmp(((const struct hist_group *)a)->name, ((const struct hist_group *)b)->name);
}

static struct hist_group *group_get(struct hist_set *s, const char *name)
{
	struct hist_group key = { .name = (char *)name }, *g, **slot;

	slot = tfind(&key, &s->root, group_cmp_name);
	if (slot)
		return *slot;
	g = calloc(1, sizeof(*g));
	if (!g || !(g->name = strdup(name)))
		goto fail;
	/* the array lists the groups for printing, the tree finds them by name */
	if (s->nr_groups == s->alloc_groups) {
		size_t alloc = s->alloc_groups ? 2 * s->alloc_groups : 16;
		struct hist_group **groups = realloc(s->groups, alloc * sizeof(*groups));

		if (!groups)
			goto fail;
		s->groups = groups;
		s->alloc_groups = alloc;
	}
	slot = tsearch(g, &s->root, group_cmp_name);
	if (!slot)
		goto fail;
	s->groups[s->nr_groups++] = g;
	return g;
fail:
	if (g)
		free(g->name);
	free(g);
	return NULL;
}

int hist_set_add(struct hist_set *s, const char *name, uint64_t value)
{
	struct hist_group *g = group_get(s, name);

	if (!g)
		return -ENOMEM;
	if (g->nr == g->alloc) {
		size_t alloc = g->alloc ? 2 * g->alloc : 16;
		uint64_t *v = realloc(g->values, alloc * sizeof(*v));

		if (!v)
			return -ENOMEM;
		g->values = v;
		g->alloc = alloc;
	}
	g->values[g->nr++] = value;
	return 0;
}

static int value_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The busiest group first: that is what one looks for. */
static int group_cmp_count(const void *a, const void *b)
{
	const struct hist_group *x = *(const struct hist_group **)a;
	const struct hist_group *y = *(const struct hist_group **)b;

	if (x->nr != y->nr)
		return x->nr < y->nr ? 1 : -1;
	return strcmp(x->name, y->name);
}

void hist_set_finish(struct hist_set *s)
{
	size_t i;

	for (i = 0; i < s->nr_groups; i++)
		qsort(s->groups[i]->values, s->groups[i]->nr, sizeof(uint64_t), value_cmp);
	if (s->nr_groups)
		qsort(s->groups, s->nr_groups, sizeof(*s->groups), group_cmp_count);
}

static void group_free(void *p)
{
	struct hist_group *g = p;

	free(g->name);
	free(g->values);
	free(g);
}

void hist_set_release(struct hist_set *s)
{
	tdestroy(s->root, group_free);
	free(s->groups);
	memset(s, 0, sizeof(*s));
}

uint64_t hist_group_percentile(const struct hist_group *g, unsigned int pct)
{
	size_t rank = (g->nr * pct + 99) / 100;

	if (!g->nr)
		return 0;
	return g->values[rank ? rank - 1 : 0];
}

/* bucket 0 holds 0, bucket k > 0 holds [2^(k-1), 2^k) */
static int bucket_of(uint64_t v)
{
	return v ? 64 - __builtin_clzll(v) : 0;
}

static uint64_t bucket_low(int b)
{
	return b ? 1ULL << (b - 1) : 0;
}

/* 1024 -> "1K", as bpftrace labels its log2 buckets */
static void put_pow2(char *buf, size_t len, int b, bool end)
{
	static const char sfx[] = " KMGTPE";
	int shift = end ? b : b - 1;
	int k = shift > 0 ? shift / 10 : 0;

	if (!end && !b) {
		snprintf(buf, len, "0");
		return;
	}
	if (shift >= 64)
		snprintf(buf, len, "inf");
	else if (k)
		snprintf(buf, len, "%llu%c", 1ULL << (shift - 10 * k), sfx[k]);
	else
		snprintf(buf, len, "%llu", 1ULL << shift);
}

static void count_buckets(const struct hist_group *g, size_t counts[65], int *lo, int *hi)
{
	size_t i;

	memset(counts, 0, 65 * sizeof(*counts));
	for (i = 0; i < g->nr; i++)
		counts[bucket_of(g->values[i])]++;
	*lo = bucket_of(g->values[0]);
	*hi = bucket_of(g->values[g->nr - 1]);
}

/* nanoseconds as microseconds with their 3 decimals, other units as they are */
static void put_value(FILE *out, const struct hist_print *p, uint64_t v)
{
	if (!strcmp(p->unit, "ns"))
		fprintf(out, "%llu.%03lluus", (unsigned long long)(v / 1000),
			(unsigned long long)(v % 1000));
	else
		fprintf(out, "%llu", (unsigned long long)v);
}

static void print_text_group(const struct hist_group *g, const struct hist_print *p, FILE *out)
{
	static const unsigned int pcts[] = { 50, 90, 99 };
	size_t counts[65], max = 0;
	char low[32], high[32];
	int b, lo, hi;
	size_t i;

	fprintf(out, "%s: count %zu  min ", g->name, g->nr);
	put_value(out, p, g->values[0]);
	for (i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++) {
		fprintf(out, "  p%u ", pcts[i]);
		put_value(out, p, hist_group_percentile(g, pcts[i]));
	}
	fprintf(out, "  max ");
	put_value(out, p, g->values[g->nr - 1]);
	fprintf(out, "\n");
	count_buckets(g, counts, &lo, &hi);
	for (b = lo; b <= hi; b++)
		max = counts[b] > max ? counts[b] : max;
	for (b = lo; b <= hi; b++) {
		int bar = (int)((counts[b] * HIST_BAR_WIDTH + max - 1) / max);

		put_pow2(low, sizeof(low), b, false);
		put_pow2(high, sizeof(high), b, true);
		fprintf(out, "  [%s, %s) %*s%8zu |%-*.*s|\n", low, high,
			(int)(12 - strlen(low) - strlen(high)), "", counts[b], HIST_BAR_WIDTH,
			bar, "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@");
	}
}

static void print_text_counts(const struct hist_set *s, FILE *out)
{
	size_t i, max = s->nr_groups ? s->groups[0]->nr : 0;

	for (i = 0; i < s->nr_groups; i++) {
		const struct hist_group *g = s->groups[i];
		int bar = (int)((g->nr * HIST_BAR_WIDTH + max - 1) / max);

		fprintf(out, "%-24s %10zu |%-*.*s|\n", g->name, g->nr, HIST_BAR_WIDTH, bar,
			"@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@");
	}
}

static void print_text(const struct hist_set *s, const struct hist_print *p, FILE *out)
{
	size_t i;

	if (p->file)
		fprintf(out, "# file %s\n", p->file);
	if (p->counts_only) {
		fprintf(out, "# %s: events by %s, %zu values\n", p->what, p->group_by,
			s->nr_groups);
		print_text_counts(s, out);
		return;
	}
	if (strcmp(p->group_by, "all"))
		fprintf(out, "# %s by %s (%zu groups), log2 buckets in %s\n", p->what,
			p->group_by, s->nr_groups, p->unit);
	else
		fprintf(out, "# %s, log2 buckets in %s\n", p->what, p->unit);
	for (i = 0; i < s->nr_groups; i++) {
		fprintf(out, "\n");
		print_text_group(s->groups[i], p, out);
	}
}

static void put_json_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

static void print_json_group(const struct hist_group *g, const struct hist_print *p, FILE *out)
{
	size_t counts[65];
	int b, lo, hi;
	const char *sep = "";

	fprintf(out, "{\"name\":");
	put_json_string(out, g->name);
	fprintf(out, ",\"count\":%zu", g->nr);
	if (p->counts_only) {
		fprintf(out, "}");
		return;
	}
	fprintf(out, ",\"min\":%llu,\"p50\":%llu,\"p90\":%llu,\"p99\":%llu,\"max\":%llu,"
		"\"buckets\":[", (unsigned long long)g->values[0],
		(unsigned long long)hist_group_percentile(g, 50),
		(unsigned long long)hist_group_percentile(g, 90),
		(unsigned long long)hist_group_percentile(g, 99),
		(unsigned long long)g->values[g->nr - 1]);
	count_buckets(g, counts, &lo, &hi);
	for (b = lo; b <= hi; b++, sep = ",")
		fprintf(out, "%s{\"low\":%llu,\"count\":%zu}", sep,
			(unsigned long long)bucket_low(b), counts[b]);
	fprintf(out, "]}");
}

static void print_json(const struct hist_set *s, const struct hist_print *p, FILE *out)
{
	size_t i;

	fprintf(out, "{");
	if (p->file) {
		fprintf(out, "\"file\":");
		put_json_string(out, p->file);
		fprintf(out, ",");
	}
	fprintf(out, "\"hist\":");
	put_json_string(out, p->what);
	fprintf(out, ",\"by\":");
	put_json_string(out, p->group_by);
	fprintf(out, ",\"unit\":");
	put_json_string(out, p->counts_only ? "events" : p->unit);
	fprintf(out, ",\"groups\":[");
	for (i = 0; i < s->nr_groups; i++) {
		fprintf(out, "%s\n", i ? "," : "");
		print_json_group(s->groups[i], p, out);
	}
	fprintf(out, "\n]}\n");
}

int hist_set_print(const struct hist_set *s, const struct hist_print *p, FILE *out)
{
	if (p->format == HIST_FORMAT_JSON)
		print_json(s, p, out);
	else
		print_text(s, p, out);
	return ferror(out) ? -EIO : 0;
}
