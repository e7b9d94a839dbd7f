// SPDX-License-Identifier: GPL-2.0-only
/*
 * Kernel symbols as one sorted array of 16-byte entries over one block of names: about 5 MB
 * for the ~120,000 symbols of a kernel, where libtraceevent's function list (a node and
 * strdup()s per symbol, then a sorted copy of it) takes 10 MB at its peak. A lookup by
 * address answers what libtraceevent's own lookup answers, so that the table can stand in
 * for it behind tep_set_function_resolver(): the same order among equal addresses, the same
 * binary search, the same misses before the first symbol and after the last.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ktrace/grow.h"
#include "dat_internal.h"

/* Reserved ahead from the text's length, up to this much; beyond, it grows as it comes. */
#define RESERVE_MAX	(32u << 20)
/* The shortest usual line of a 64-bit kernel: 16 digits, " t ", a name, a newline. */
#define MIN_LINE	21

int dat_symtab_new(size_t text_len, struct dat_symtab **out)
{
	struct dat_symtab *t = calloc(1, sizeof(*t));
	size_t reserve = text_len < RESERVE_MAX ? text_len : RESERVE_MAX;

	if (!t)
		return -ENOMEM;
	t->last_mod = DAT_SYM_NO_MOD;
	/* pages never written cost no memory: reserving spares the copies of growing */
	if (strbuf_grow(&t->names, reserve) ||
	    array_grow(&t->syms, &t->alloc, reserve / MIN_LINE + 16, sizeof(*t->syms))) {
		dat_symtab_free(t);
		return -ENOMEM;
	}
	*out = t;
	return 0;
}

void dat_symtab_free(struct dat_symtab *t)
{
	if (!t)
		return;
	free(t->syms);
	strbuf_release(&t->names);
	free(t);
}

/* Offset of s (with its NUL) in the names; UINT32_MAX when the block would pass 4 GB. */
static uint32_t add_name(struct dat_symtab *t, const char *s)
{
	size_t at = t->names.len;

	if (at >= DAT_SYM_NO_MOD || strbuf_add(&t->names, s, strlen(s) + 1))
		return DAT_SYM_NO_MOD;
	return (uint32_t)at;
}

/* kallsyms list a module's symbols together: its name is kept once per run of them */
static uint32_t add_mod(struct dat_symtab *t, const char *mod)
{
	if (t->last_mod == DAT_SYM_NO_MOD || strcmp(t->names.buf + t->last_mod, mod))
		t->last_mod = add_name(t, mod);
	return t->last_mod;
}

int dat_symtab_add(struct dat_symtab *t, const struct dat_ksym *k)
{
	struct dat_sym *s;

	if (array_grow(&t->syms, &t->alloc, t->nr + 1, sizeof(*t->syms)))
		return -ENOMEM;
	s = &t->syms[t->nr];
	s->addr = k->addr;
	s->name = add_name(t, k->name);
	s->mod = k->mod ? add_mod(t, k->mod) : DAT_SYM_NO_MOD;
	if (s->name == DAT_SYM_NO_MOD || (k->mod && s->mod == DAT_SYM_NO_MOD))
		return -ENOMEM;
	t->nr++;
	return 0;
}

/*
 * libtraceevent sorts its list, which holds the symbols last registered first, with glibc's
 * qsort(), a stable merge sort: equal addresses stay last registered first. Names are added
 * in registration order, so a later symbol has a greater name offset.
 */
static int sym_cmp(const void *a, const void *b)
{
	const struct dat_sym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->name > y->name ? -1 : x->name < y->name;
}

/* Reverses each run of equal addresses; false when the addresses are not in order. */
static bool reverse_ties(struct dat_symtab *t)
{
	size_t i, j, k;
	struct dat_sym tmp;

	for (i = 1; i < t->nr; i++)
		if (t->syms[i].addr < t->syms[i - 1].addr)
			return false;
	for (i = 0; i < t->nr; i = j) {
		for (j = i + 1; j < t->nr && t->syms[j].addr == t->syms[i].addr; j++)
			;
		for (k = 0; k < (j - i) / 2; k++) {
			tmp = t->syms[i + k];
			t->syms[i + k] = t->syms[j - 1 - k];
			t->syms[j - 1 - k] = tmp;
		}
	}
	return true;
}

void dat_symtab_finish(struct dat_symtab *t)
{
	struct dat_sym *syms;
	char *names;

	/* the kernel's symbols come in order (modules' may not): no sort, no sort buffer */
	if (!reverse_ties(t))
		qsort(t->syms, t->nr, sizeof(*t->syms), sym_cmp);
	/* what was reserved and not used goes back */
	syms = t->nr ? realloc(t->syms, t->nr * sizeof(*syms)) : NULL;
	if (syms) {
		t->syms = syms;
		t->alloc = t->nr;
	}
	names = t->names.len ? realloc(t->names.buf, t->names.len + 1) : NULL;
	if (names) {
		t->names.buf = names;
		t->names.alloc = t->names.len + 1;
	}
}

/*
 * As libtraceevent's bsearch() over its sorted array: an address matches a symbol when it is
 * the symbol's or lies between it and the next one; the last symbol matches only its own
 * address (the array ends with a zero address). glibc's bsearch() probes the middle of
 * [lo, hi) as below, which decides which of equal addresses an exact lookup finds.
 */
const struct dat_sym *dat_symtab_find(const struct dat_symtab *t, uint64_t addr)
{
	size_t lo = 0, hi = t->nr, mid;
	const struct dat_sym *s;
	uint64_t next;

	while (lo < hi) {
		mid = (lo + hi) / 2;
		s = &t->syms[mid];
		next = mid + 1 < t->nr ? s[1].addr : 0;
		if (addr == s->addr || (addr > s->addr && addr < next))
			return s;
		if (addr < s->addr)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}
