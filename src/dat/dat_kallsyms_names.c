// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kernel symbols that print formats name. libtraceevent gives a word of a format's
 * arguments that is neither a field nor a number (vmemmap_base in mm_page_alloc's
 * "pfn_to_page(REC->pfn)") the address of the first symbol of that name in its own function
 * list, which no resolver is asked about; with deferred kallsyms that list holds only what
 * is registered here: every symbol of such a name, in the table's order, which is the order
 * libtraceevent's sorted array would walk them in.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>

#include "dat_internal.h"

struct names {
	const char **v;
	size_t nr, alloc;
};

static int add(struct names *n, const char *name)
{
	const char **v;

	if (n->nr == n->alloc) {
		n->alloc = n->alloc ? n->alloc * 2 : 16;
		v = realloc(n->v, n->alloc * sizeof(*v));
		if (!v)
			return -ENOMEM;
		n->v = v;
	}
	n->v[n->nr++] = name;
	return 0;
}

/* The sub-trees of arg that libtraceevent evaluates; returns how many (at most 3). */
static int children(const struct tep_print_arg *arg, const struct tep_print_arg *c[3])
{
	switch (arg->type) {
	case TEP_PRINT_FLAGS:
		c[0] = arg->flags.field;
		return 1;
	case TEP_PRINT_SYMBOL:
		c[0] = arg->symbol.field;
		return 1;
	case TEP_PRINT_HEX:
	case TEP_PRINT_HEX_STR:
		c[0] = arg->hex.field;
		c[1] = arg->hex.size;
		return 2;
	case TEP_PRINT_INT_ARRAY:
		c[0] = arg->int_array.field;
		c[1] = arg->int_array.count;
		c[2] = arg->int_array.el_size;
		return 3;
	case TEP_PRINT_TYPE:
		c[0] = arg->typecast.item;
		return 1;
	case TEP_PRINT_DYNAMIC_ARRAY:
		c[0] = arg->dynarray.index;
		return 1;
	case TEP_PRINT_OP:
		c[0] = arg->op.left;
		c[1] = arg->op.right;
		return 2;
	case TEP_PRINT_FUNC:
		c[0] = arg->func.args;
		return 1;
	default:
		return 0;
	}
}

/* The words of an argument tree that libtraceevent would look up as symbols. */
static int collect(const struct tep_print_arg *arg, struct names *n)
{
	const struct tep_print_arg *c[3];
	int ret = 0, i, nr;

	for (; arg && !ret; arg = arg->next) {
		/* a number, or 0 after the lookup: digits never reach the list */
		if (arg->type == TEP_PRINT_ATOM && arg->atom.atom &&
		    !isdigit((unsigned char)arg->atom.atom[0]))
			ret = add(n, arg->atom.atom);
		nr = children(arg, c);
		for (i = 0; i < nr && !ret; i++)
			ret = collect(c[i], n);
	}
	return ret;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int dat_kallsyms_register_named(struct tep_handle *tep, const struct dat_symtab *t)
{
	struct names n = { 0 };
	const char *name;
	struct tep_event *ev;
	size_t i;
	int ret = 0, e;

	for (e = 0; e < tep_get_events_count(tep) && !ret; e++) {
		ev = tep_get_event(tep, e);
		if (ev)
			ret = collect(ev->print_fmt.args, &n);
	}
	if (!ret && n.nr) {
		qsort(n.v, n.nr, sizeof(*n.v), cmp_name);
		/* registered last first: libtraceevent's list then starts with the table's first */
		for (i = t->nr; i-- > 0 && !ret;) {
			name = dat_sym_name(t, &t->syms[i]);
			if (bsearch(&name, n.v, n.nr, sizeof(*n.v), cmp_name) &&
			    tep_register_function(tep, (char *)name, t->syms[i].addr,
						  (char *)dat_sym_mod(t, &t->syms[i])))
				ret = -ENOMEM;
		}
	}
	free(n.v);
	return ret;
}
