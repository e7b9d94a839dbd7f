// SPDX-License-Identifier: GPL-2.0-only
/*
 * The compact kallsyms table (dat_symtab.c) against libtraceevent's own function list: every
 * lookup by address (a symbol's start, inside it, before the first, after the last, equal
 * addresses), the order and the modules as tep_print_funcs() lists them; on hand-made text
 * and on corpus files (whose kallsyms hold modules, out of address order), through the
 * resolver of a file opened with deferred kallsyms.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <traceevent/event-parse.h>

#include "dat_internal.h"
#include "corpus_util.h"

static const char *corpus;

static int add_sym(void *arg, const struct dat_ksym *k)
{
	return dat_symtab_add(arg, k);
}

static struct dat_symtab *table_of(const char *text)
{
	const char *p = text, *nl;
	struct dat_symtab *t;

	assert_int_equal(dat_symtab_new(strlen(text), &t), 0);
	for (; *p; p = *nl ? nl + 1 : nl) {
		nl = strchrnul(p, '\n');
		if (nl > p && dat_kallsyms_line(p, (size_t)(nl - p), add_sym, t))
			break;
	}
	dat_symtab_finish(t);
	return t;
}

static void print_funcs(void *tep)
{
	tep_print_funcs(tep);
}

static void print_table(void *arg)
{
	const struct dat_symtab *t = arg;
	size_t i;

	for (i = 0; i < t->nr; i++) {
		printf("%016llx %s", (unsigned long long)t->syms[i].addr,
		       dat_sym_name(t, &t->syms[i]));
		if (dat_sym_mod(t, &t->syms[i]))
			printf(" [%s]\n", dat_sym_mod(t, &t->syms[i]));
		else
			printf("\n");
	}
}

/* The listing, in order, modules included: the table is the sorted list libtraceevent keeps */
static void same_listing(struct tep_handle *ref, struct dat_symtab *t)
{
	char *want = stdout_of(print_funcs, ref), *got = stdout_of(print_table, t);

	assert_non_null(want);
	assert_non_null(got);
	assert_string_equal(got, want);
	free(want);
	free(got);
}

/* One address: the same name and start from the table (and from tep, when given) as ref */
static void same_lookup(struct tep_handle *ref, struct tep_handle *tep,
			const struct dat_symtab *t, uint64_t addr)
{
	const char *want = tep_find_function(ref, addr);
	const struct dat_sym *s = dat_symtab_find(t, addr);

	if (!want) {
		if (s)
			fail_msg("%#llx: libtraceevent finds nothing, the table %s",
				 (unsigned long long)addr, dat_sym_name(t, s));
		assert_null(tep ? tep_find_function(tep, addr) : NULL);
		return;
	}
	if (!s)
		fail_msg("%#llx: libtraceevent finds %s, the table nothing",
			 (unsigned long long)addr, want);
	assert_string_equal(dat_sym_name(t, s), want);
	assert_int_equal(s->addr, tep_find_function_address(ref, addr));
	if (tep) {
		assert_string_equal(tep_find_function(tep, addr), want);
		assert_int_equal(tep_find_function_address(tep, addr), s->addr);
	}
}

/* Every symbol's start, the byte before and after it, the middle of its span, the ends. */
static void same_lookups(struct tep_handle *ref, struct tep_handle *tep, struct dat_symtab *t)
{
	uint64_t a, next;
	size_t i;

	assert_true(t->nr > 0);
	for (i = 0; i < t->nr; i++) {
		a = t->syms[i].addr;
		next = i + 1 < t->nr ? t->syms[i + 1].addr : a + 0x1000;
		same_lookup(ref, tep, t, a);
		same_lookup(ref, tep, t, a - 1);
		same_lookup(ref, tep, t, a + 1);
		same_lookup(ref, tep, t, a + (next - a) / 2);
	}
	same_lookup(ref, tep, t, 0);
	same_lookup(ref, tep, t, ~0ull);
	same_lookup(ref, tep, t, t->syms[t->nr - 1].addr + 0x10);
}

static void same_as_libtraceevent(const char *text)
{
	struct tep_handle *ref = tep_alloc();
	struct dat_symtab *t = table_of(text);

	/* -1 on a broken line, the symbols before it kept: compared as they are */
	tep_parse_kallsyms(ref, text);
	same_lookups(ref, NULL, t);
	same_listing(ref, t);
	dat_symtab_free(t);
	tep_free(ref);
}

static void test_handmade(void **state)
{
	(void)state;
	/* equal addresses first, in the middle and last; modules out of order; skipped types */
	same_as_libtraceevent("ffffffff81000000 T _stext\nffffffff81000000 T _text\n"
			      "ffffffff81000000 t startup_64\nffffffff81000100 T one\n"
			      "ffffffff81000200 T dup_a\nffffffff81000200 t dup_b\n"
			      "ffffffff81000200 W dup_c\nffffffff81000200 T dup_d\n"
			      "ffffffff81000300 A absolute\nffffffff81000400 t $a\n"
			      "ffffffff81000500 D data_sym\nffffffff81000600 T last\n"
			      "ffffffff81000600 T last_alias\n"
			      "ffffffffc0002000 t m1_b\t[mod1]\nffffffffc0001000 t m1_a\t[mod1]\n"
			      "ffffffffc0003000 T m1_c\t[mod1]\nffffffffc0000100 t m2_a\t[mod2]\n"
			      "ffffffffc0000100 t m2_alias\t[mod2]\nffffffffc0004000 t m1_d\t[mod1]\n");
	/* in order, ties and all: no sort, the ties reversed in place */
	same_as_libtraceevent("0000000000001000 T a\n0000000000001000 T b\n0000000000002000 T c\n"
			      "0000000000003000 T d\n0000000000003000 T e\n0000000000003000 T f\n");
	/* one symbol: only its own address matches */
	same_as_libtraceevent("ffffffff81000000 T only\n");
	/* unusual lines go through the scanf() path; a broken one stops the text there */
	same_as_libtraceevent("0xffffffff81000020 T hexprefix\n  ffffffff81000030 T indented\n"
			      "ffffffff81000060 t spaced  [notmod]\nffffffff81000070 t tabbed\t[ odd]\n"
			      "ffffffff81000080 t tabmod\t[mod2] trailing\n"
			      "broken line here\nffffffff81000090 T after\n");
}

static struct dat_file *open_file(const char *name, bool defer)
{
	struct dat_open_opts opts = { .defer_kallsyms = defer };
	struct strbuf err = STRBUF_INIT;
	struct dat_file *df = NULL;
	char *path = corpus_path(corpus, name);

	if (dat_file_open_opts(path, &opts, &df, &err))
		fail_msg("%s: %s", name, strbuf_str(&err));
	free(path);
	strbuf_release(&err);
	return df;
}

/* A file's kallsyms, deferred into the table, answer as the eagerly loaded list does */
static void same_file(const char *name)
{
	struct dat_file *eager = open_file(name, false), *lazy = open_file(name, true);
	struct tep_handle *ref = dat_file_tep(eager), *tep = dat_file_tep(lazy);

	/* the first lookup reads the section through the resolver */
	assert_null(lazy->ksyms);
	tep_find_function(tep, 0);
	assert_non_null(lazy->ksyms);
	assert_int_equal(dat_file_kallsyms_error(lazy, NULL), 0);
	same_lookups(ref, tep, lazy->ksyms);
	same_listing(ref, lazy->ksyms);
	dat_file_close(lazy);
	dat_file_close(eager);
}

static void test_corpus(void **state)
{
	(void)state;
	same_file("kprobe.dat");	/* v7, with 4490 module symbols */
	same_file("sched_v6.dat");	/* v6: the block read as a section */
}

/* Names in print formats resolve through libtraceevent's list: those symbols are in it. */
static void test_named_symbols(void **state)
{
	struct dat_file *eager = open_file("kmem.dat", false), *lazy = open_file("kmem.dat", true);
	const struct dat_sym *s;
	char *listed, want[128];

	(void)state;
	dat_file_load_kallsyms(lazy);
	assert_int_equal(dat_file_kallsyms_error(lazy, NULL), 0);
	/* mm_page_alloc prints pfn_to_page(REC->pfn): vmemmap_base + pfn */
	listed = stdout_of(print_funcs, dat_file_tep(lazy));
	assert_non_null(listed);
	for (s = lazy->ksyms->syms; strcmp(dat_sym_name(lazy->ksyms, s), "vmemmap_base"); s++)
		assert_true(s < lazy->ksyms->syms + lazy->ksyms->nr - 1);
	snprintf(want, sizeof(want), "%016llx vmemmap_base\n", (unsigned long long)s->addr);
	assert_non_null(strstr(listed, want));
	/* and only the few names formats use, not the ~100,000 symbols */
	assert_true(strlen(listed) < 40 * sizeof(want));
	assert_int_equal(tep_find_function_address(dat_file_tep(eager), s->addr), s->addr);
	free(listed);
	dat_file_close(lazy);
	dat_file_close(eager);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_handmade),
		cmocka_unit_test(test_corpus),
		cmocka_unit_test(test_named_symbols),
	};

	if (argc < 2) {
		fprintf(stderr, "usage: %s CORPUS_DIR\n", argv[0]);
		return 2;
	}
	corpus = argv[1];
	return cmocka_run_group_tests(tests, NULL, NULL);
}
