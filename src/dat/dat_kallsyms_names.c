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

/* The words of an argument tree that libtraceevent would look up as symbols. */
static int collect(const struct tep_print_arg *arg, struct names *n)
{
	int ret = 0;

	for (; arg && !ret; arg = arg->next) {
		switch (arg->type) {
		case TEP_PRINT_ATOM:
			/* a number, or 0 after the lookup: digits never reach the list */
			if (arg->atom.atom && !isdigit((unsigned char)arg->atom.atom[0]))
				ret = add(n, arg->atom.atom);
			break;
		case TEP_PRINT_FLAGS:
			ret = collect(arg->flags.field, n);
			break;
		case TEP_PRINT_SYMBOL:
			ret = collect(arg->symbol.field, n);
			break;
		case TEP_PRINT_HEX:
		case TEP_PRINT_HEX_STR:
			ret = collect(arg->hex.field, n);
			if (!ret)
				ret = collect(arg->hex.size, n);
			break;
		case TEP_PRINT_INT_ARRAY:
			ret = collect(arg->int_array.field, n);
			if (!ret)
				ret = collect(arg->int_array.count, n);
			if (!ret)
				ret = collect(arg->int_array.el_size, n);
			break;
		case TEP_PRINT_TYPE:
			ret = collect(arg->typecast.item, n);
			break;
		case TEP_PRINT_DYNAMIC_ARRAY:
			ret = collect(arg->dynarray.index, n);
			break;
		case TEP_PRINT_OP:
			ret = collect(arg->op.left, n);
			if (!ret)
				ret = collect(arg->op.right, n);
			break;
		case TEP_PRINT_FUNC:
			ret = collect(arg->func.args, n);
			break;
		default:
			break;
		}
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
