// SPDX-License-Identifier: GPL-2.0-only
/*
 * dat_format_is_safe(): the formats that crash libtraceevent are refused, and the ordinary
 * ones (divisions by constants, flags on real fields, '%' and '/' inside literals) are not.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include <traceevent/event-parse.h>

#include "dat_internal.h"

#define FIELDS "name: ev\nID: 1\nformat:\n" \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned int vec;\toffset:8;\tsize:4;\tsigned:0;\n" \
	"\tfield:char comm[16];\toffset:12;\tsize:16;\tsigned:0;\n" \
	"\tfield:u64 delta;\toffset:32;\tsize:8;\tsigned:0;\n\n"

static int safe(const char *print_fmt)
{
	char buf[2048];

	snprintf(buf, sizeof(buf), "%sprint fmt: %s\n", FIELDS, print_fmt);
	return dat_format_is_safe(buf, strlen(buf));
}

static void test_kept(void **state)
{
	(void)state;
	assert_true(safe("\"vec=%u\", REC->vec"));
	assert_true(safe("\"%llu.%03llu\", REC->delta / 1000, REC->delta % 1000"));
	assert_true(safe("\"%llu\", (REC->delta) / (0x10)"));
	assert_true(safe("\"%llu\", REC->delta / REC->vec"));
	assert_true(safe("\"%llu\", REC->delta / sizeof(u32)"));
	assert_true(safe("\"a/0 %% b\", REC->vec"));
	assert_true(safe("\"%c\", '/'"));
	assert_true(safe("\"%s\", __print_symbolic(REC->vec, { 0, \"HI\" })"));
	assert_true(safe("\"%s\", __print_flags(REC->comm[0], \"|\", { 1, \"A\" })"));
	assert_true(safe("\"%s\", __print_flags((REC)->vec, \"|\", { 1, \"A\" })"));
	assert_true(safe("\"%s\", __print_symbolic_u64(REC->common_type, { 0, \"X\" })"));
	/* no print fmt at all: nothing to check */
	assert_true(dat_format_is_safe("name: x\n", 8));
}

static void test_refused(void **state)
{
	(void)state;
	/* the fuzzer's "R/C->thread_count": folded as 0 / 0 while parsing */
	assert_false(safe("\"%u\", R/C->vec"));
	assert_false(safe("\"%llu\", REC->delta / 0"));
	assert_false(safe("\"%llu\", REC->delta % ( 0x0 )"));
	assert_false(safe("\"%llu\", REC->delta / NSEC_PER_USEC"));
	/* the fuzzer's "REC->1rv": the flag is set through a NULL field */
	assert_false(safe("\"%s\", __print_symbolic(REC->1rv, { 0, \"HI\" })"));
	assert_false(safe("\"%s\", __print_flags(REC->flags, \"|\", { 1, \"A\" })"));
	/* a field name that only ends like a declared one */
	assert_false(safe("\"%s\", __print_flags(REC->ec, \"|\", { 1, \"A\" })"));
}

/* a literal with its embedded NULs, without the terminating one */
#define SAFE_TEXT(lit) dat_format_is_safe(lit, sizeof(lit) - 1)

/* the fuzzer's "field:u r[" then a NUL: libtraceevent strcmp()s the missing size token */
static void test_bracket(void **state)
{
	(void)state;
	assert_false(SAFE_TEXT("name: t\nID: 5\nformat:\n\tfield:u r["));
	assert_false(SAFE_TEXT("name: t\nformat:\n\tfield:u r[ \t"));
	assert_false(SAFE_TEXT("name: t\nformat:\n\tfield:u r[\0 ];"));
	assert_false(SAFE_TEXT("name: t\nformat:\n\tfield:u r[\xc3];"));
	/* no ']' on the line: the library would refuse these itself (no token left) */
	assert_false(SAFE_TEXT("name: t\nformat:\n\tfield:u r[4"));
	assert_false(SAFE_TEXT("name: t\nformat:\n\tfield:u r[\n"));
	/* the print fmt's own brackets are not fields: parsed (or refused) by the library */
	assert_true(safe("\"%s\", REC->comm["));
}

/*
 * The fuzzer's "prev_comm[16\;": libtraceevent takes the tokens up to next_comm's ']' as the
 * size, so prev_state, declared in between, is no field of its, and __print_flags() on it
 * crashes as on any missing field.
 */
static void test_bracket_unclosed(void **state)
{
	(void)state;
	assert_false(SAFE_TEXT("name: t\nformat:\n\tfield:char a[16\\;\toffset:8;\n"
			       "\tfield:long s;\toffset:24;\n\tfield:char b[16];\toffset:32;\n\n"
			       "print fmt: \"%s\", __print_flags(REC->s, \"|\", { 1, \"S\" })"));
	assert_true(SAFE_TEXT("name: t\nformat:\n\tfield:char a[16 ];\toffset:8;\n"
			      "\tfield:long s;\toffset:24;\n\n"
			      "print fmt: \"%s\", __print_flags(REC->s, \"|\", { 1, \"S\" })"));
}

/* ftrace's bprint without its "fmt" field: libtraceevent prints it through that field */
#define BPRINT_HEAD "name: bprint\nID: 6\nformat:\n\tfield:unsigned long ip;\toffset:8;\n"
#define BPRINT_TAIL "\tfield:u32 buf[];\toffset:24;\n\n" \
	"print fmt: \"%ps: %s\", (void *)REC->ip, REC->fmt"

static void test_bprint_without_fmt(void **state)
{
	(void)state;
	assert_false(SAFE_TEXT(BPRINT_HEAD "\tfield:const char *f mt;\toffset:16;\n" BPRINT_TAIL));
	assert_true(SAFE_TEXT(BPRINT_HEAD "\tfield:const char * fmt;\toffset:16;\n" BPRINT_TAIL));
	/* another event may lack such a field */
	assert_true(SAFE_TEXT("name: bprint2\nID: 6\nformat:\n\tfield:unsigned long ip;\n\n"
			      "print fmt: \"%lx\", REC->ip"));
}

/*
 * The fuzzer's "__print_flags(REC-<x": the failed parse leaves libtraceevent's flag set, and
 * the next format naming a field it lacks, on another handle, crashed on it.
 */
static void test_failed_parse_reset(void **state)
{
	static const char failing[] = "name: a\nID: 1\nformat:\n"
		"\tfield:int x;\toffset:0;\tsize:4;\tsigned:1;\n\n"
		"print fmt: \"%s\", __print_flags(REC-<x, \"|\", { 1, \"A\" })\n";
	static const char no_fields[] = "name: b\nID: 2\nformat:\n\n\n"
		"print fmt: \"%d\", REC->nosuch\n";
	struct tep_handle *a = tep_alloc(), *b = tep_alloc();
	struct tep_event *event = NULL;

	(void)state;
	assert_true(dat_format_is_safe(failing, sizeof(failing) - 1));
	/* kept, as failed: what parse_format() in dat_meta.c resets after */
	assert_int_equal(tep_parse_format(a, &event, failing, sizeof(failing) - 1, "t"), 0);
	assert_non_null(event);
	assert_true(event->flags & TEP_EVENT_FL_FAILED);
	dat_format_parse_failed();
	tep_parse_event(b, no_fields, sizeof(no_fields) - 1, "t");
	tep_free(a);
	tep_free(b);
}

/* the fuzzer's "t?d:0;": the same half-built argument after a ternary's else operand */
static void test_ternary_else(void **state)
{
	(void)state;
	assert_false(safe("\"\",t?d:0;"));
	assert_false(safe("\"%d\", REC->vec ? 1 : (0);"));
	assert_false(safe("\"%d\", REC->vec ? 1 : REC->delta."));
	assert_false(safe("\"%s\", REC->vec ? \"a\" : \"b\"]"));
	assert_false(safe("\"%d\", a + (t ? d : 0 = 1)"));
	assert_true(safe("\"%s\", REC->vec ? \"on\" : \"off\""));
	assert_true(safe("\"%d %d\", REC->vec ? 1 : 0, REC->delta"));
	assert_true(safe("\"%d\", (REC->vec ? REC->delta : -1)"));
	assert_true(safe("\"%d\", REC->vec ? 1 : f(0)"));
	assert_true(safe("\"%d\", REC->vec ? 1 : REC->vec ? 2 : 3"));
	assert_true(safe("\"a ? b : c;\", REC->vec"));
	/*
	 * the fuzzer's sched_switch with ': "R"[, REC->prev_state ...': an indexed else operand,
	 * which libtraceevent leaves half built (closed or not, on a field or a literal)
	 */
	assert_false(safe("\"%d\", REC->vec ? 1 : REC->comm[0] + 1"));
	assert_false(safe("\"%d\", REC->vec ? 1 : REC->comm [0]"));
	assert_false(safe("\"%s\", REC->vec ? \"a\" : \"R\"[, REC->vec"));
	assert_false(safe("\"%d\", 1 ? 2 : (3)[0]"));
	assert_true(safe("\"%d\", REC->vec ? REC->comm[0] : 1"));
	/* the fuzzer's "REC->f?R:S->r": an else operand dereferencing anything but REC */
	assert_false(safe("\"%u\", REC->vec ? 1 : S->r"));
	assert_false(safe("\"%u\", REC->vec ? 1 : s -> r + 1"));
	assert_false(safe("\"%u\", REC->vec ? 1 : REC->vec->x"));
	/* the fuzzer's "0?a:t o;": libtraceevent reads "t o" as one atom, then the ';' */
	assert_false(safe("\"%u\", REC->vec & (0 ? a : t o;"));
	assert_true(safe("\"%u\", REC->vec ? 1 : t o)"));
	assert_true(safe("\"%u\", REC->vec ? 1 : REC->vec"));
	assert_true(safe("\"%u\", REC->vec ? 1 : REC -> vec + 1"));
}

/* the fuzzer's "r[2];" and "a[0]." in the print arguments: libtraceevent reads a NULL argument */
static void test_index_semicolon(void **state)
{
	(void)state;
	assert_false(safe("\"%d\", REC->comm[2];"));
	assert_false(safe("\"\",r[2] ;"));
	assert_false(safe("\"\",a[0]."));
	assert_false(safe("\"\",a[0]->b"));
	assert_false(safe("\"\",a[0][1]"));
	assert_false(safe("\"\",a[0]=1"));
	assert_false(safe("\"\",a[0]\\\\"));
	assert_true(safe("\"%d\", REC->comm[2]"));
	assert_true(safe("\"%d\", REC->comm[2] == 1 ? REC->comm[1] - 1 : -REC->comm[0]"));
	assert_true(safe("\"%d\", (REC->comm[2]), REC->vec"));
	assert_true(safe("\"a[1];\", REC->vec"));
	/* kvmmmu's statement expressions: parsed by the library without harm */
	assert_true(safe("\"%s\", ({ static const char *s[] = { \"a\" }; u.w = REC->vec; "
			 "x = s[u.w & 1]; }), REC->vec"));
}

/* A field's offset and size as libtraceevent reads them (blanks, hex, octal) must fit a page. */
static const char *field_x(char *buf, size_t len, const char *offset)
{
	snprintf(buf, len, "name: ev\nID: 1\nformat:\n"
		 "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		 "\tfield:int x;\toffset:%s;\tsize:4;\tsigned:1;\n\nprint fmt: \"x=%%d\", REC->x\n",
		 offset);
	return buf;
}

/* buf is filled before its length is taken: an argument list would not order the two */
static int fits(char *buf, size_t len, const char *offset)
{
	field_x(buf, len, offset);
	return dat_format_fits(buf, strlen(buf), 4096);
}

static void test_fits_reads_offsets_as_libtraceevent(void **state)
{
	static const char *const past[] = { " 0x7ffffffe", "0x7ffffffe", " 2147483647",
					    "\t4094", "017777777776", "4093" };
	struct tep_handle *tep = tep_alloc();
	struct tep_event *ev = NULL;
	char buf[512];
	size_t i;

	(void)state;
	assert_true(fits(buf, sizeof(buf), "8"));
	assert_true(fits(buf, sizeof(buf), " 0x10"));
	for (i = 0; i < sizeof(past) / sizeof(past[0]); i++)
		assert_false(fits(buf, sizeof(buf), past[i]));
	/* the reading the guard follows: libtraceevent takes " 0x7ffffffe" as that offset */
	assert_non_null(tep);
	field_x(buf, sizeof(buf), " 0x7ffffffe");
	assert_int_equal(tep_parse_format(tep, &ev, buf, strlen(buf), "sys"), 0);
	assert_non_null(tep_find_any_field(ev, "x"));
	assert_int_equal(tep_find_any_field(ev, "x")->offset, 0x7ffffffe);
	tep_free(tep);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kept),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_ternary_else),
		cmocka_unit_test(test_bracket),
		cmocka_unit_test(test_bracket_unclosed),
		cmocka_unit_test(test_bprint_without_fmt),
		cmocka_unit_test(test_failed_parse_reset),
		cmocka_unit_test(test_index_semicolon),
		cmocka_unit_test(test_fits_reads_offsets_as_libtraceevent),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
