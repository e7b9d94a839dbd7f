// SPDX-License-Identifier: GPL-2.0-only
/*
 * report_filter_check(): the -F strings libtraceevent 1.7.1 crashes on or refuses get one
 * message with the column, before the library sees them; the ones it takes are taken, by
 * the library too, with the meaning it gives them (tep_filter_make_string() shows it).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <errno.h>

#include "report_filter_check.h"
#include "sched_formats.h"

static int setup(void **state)
{
	static const char *const formats[] = {
		SCHED_SWITCH_FMT, SCHED_WAKE_FMT("sched_wakeup", "317"),
		SCHED_WAKE_FMT("sched_waking", "318"),
	};
	struct tep_handle *tep = tep_alloc();
	size_t i;

	assert_non_null(tep);
	for (i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
		assert_int_equal(tep_parse_event(tep, formats[i], strlen(formats[i]), "sched"), 0);
	*state = tep;
	return 0;
}

static int teardown(void **state)
{
	tep_free(*state);
	return 0;
}

struct bad {
	const char *expr;
	const char *why;	/* the message after "-F 'EXPR': " */
};

static const struct bad bad[] = {
	/* trace-cmd 3.1.6 crashes on these (SIGSEGV, SIGFPE or a double free) */
	{ "sched_switch: prev_pid ==", "expected a value after '==' (column 24)" },
	{ "sched_switch: prev_pid == 1 &&", "expected a condition after '&&' (column 29)" },
	{ "sched_switch: prev_comm ~ ", "expected a value after '~' (column 25)" },
	{ "sched_switch: prev_pid == \"abc",
	  "the string that starts here has no closing \" (column 27)" },
	{ "sched_switch: CPU == \"1\"",
	  "CPU is a number: compare it with a number, not a string (column 15)" },
	{ "sched_switch: prev_pid / 0",
	  "'/' by zero: libtraceevent does not check for a zero divisor (column 24)" },
	{ "sched_switch: prev_pid % 0x0",
	  "'%' by zero: libtraceevent does not check for a zero divisor (column 24)" },
	{ "sched_switch: prev_pid / next_pid",
	  "'/' by a field: libtraceevent does not check for a zero divisor (column 24)" },
	{ "sched_switch: prev_pid == 1 || nosuchfield == 1 &&",
	  "expected a condition after '&&' (column 49)" },
	{ "sched_switch: prev_pid == 1 && next_pid == 1 prev_pid == 2",
	  "expected && or || before '==' (column 55)" },
	{ "sched_switch: prev_pid == 0 || prev_pid ==", "expected a value after '==' (column 41)" },
	{ "sched_switch: !prev_pid ==", "expected a value after '==' (column 25)" },
	{ "sched_switch: prev_comm == \"h\xc3\xa9\"",
	  "only printable characters can be quoted, libtraceevent ends the string at byte "
	  "0xc3 (column 30)" },
	{ "sched_switch: prev_pid == 1 \x01", "byte 0x01: libtraceevent reads only printable "
	  "ASCII and would ignore the rest of the filter (column 29)" },
	/* trace-cmd takes these, and compares a number it never read (uninitialised memory) */
	{ "sched_switch: prev_comm == 'a'", "'prev_comm' is not a number (16 bytes): compare it "
	  "with a quoted string (column 15)" },
	{ "sched_switch: prev_comm == 1", "'prev_comm' is not a number (16 bytes): compare it "
	  "with a quoted string (column 15)" },
	{ "sched_switch: prev_comm & 1", "'prev_comm' is not a number (16 bytes): compare it "
	  "with a quoted string (column 15)" },
	{ "sched_switch: prev_pid & next_comm", "'next_comm' is not a number (16 bytes): compare "
	  "it with a quoted string (column 26)" },
	/* operands missing where the field is unknown: the library happens not to crash */
	{ "sched_switch: nosuchfield ==", "expected a value after '==' (column 27)" },
	{ "sched_switch: nosuchfield == 1 &&", "expected a condition after '&&' (column 32)" },
	/* trace-cmd refuses these ("Failed to create event filter", exit 255) */
	{ "sched_switch: (prev_pid == 1", "this '(' is never closed (column 15)" },
	{ "sched_switch: prev_pid == 1)", "')' without a '(' before it (column 28)" },
	{ "sched_switch: prev_pid = 1", "unknown operator '=' (column 24)" },
	{ "sched_switch: prev_pid -> 1", "unknown operator '->' (column 24)" },
	{ "sched_switch: prev_pid == abc",
	  "expected a number or a quoted string after '==', not 'abc' (column 27)" },
	{ "sched_switch: prev_pid == prev_prio",
	  "expected a number or a quoted string after '==', not 'prev_prio' (column 27)" },
	{ "sched_switch:", "expected a condition (column 14)" },
	{ "sched_switch:   ", "expected a condition (column 17)" },
	{ "sched_switch: !", "expected a condition (column 16)" },
	{ "sched_switch: ()", "expected a condition before ')' (column 16)" },
	{ "sched_switch: (prev_pid)", "expected a comparison after 'prev_pid' (column 16)" },
	{ "sched_switch: && prev_pid == 1", "expected a condition before '&&' (column 15)" },
	{ "sched_switch: prev_pid && next_pid == 1",
	  "expected a condition before '&&' (column 24)" },
	{ "sched_switch: prev_pid == 1 next_pid &&",
	  "expected a comparison before '&&' (column 38)" },
	{ "sched_switch: 1 == prev_pid", "the left side of '==' must be a field (column 15)" },
	{ "sched_switch: \"abc\" == prev_comm",
	  "the left side of '==' must be a field (column 15)" },
	{ "sched_switch: prev_pid", "expected a comparison after 'prev_pid' (column 15)" },
	{ "sched_switch: 1", "expected a comparison after '1' (column 15)" },
	{ "sched:sched_switch", "expected a comparison after 'sched_switch' (column 7); an event "
	  "of a system is written 'SYSTEM/EVENT' here" },
	{ "sched_switch: prev_pid =~ 1",
	  "'=~' takes a quoted regular expression, not a number (column 27)" },
	{ "sched_switch: prev_comm < \"abc\"",
	  "strings compare with ==, !=, =~ or !~, not '<' (column 25)" },
	{ "sched_switch: prev_comm =~ \"[\"", "'[' is not a regular expression (column 28)" },
	{ "sched_switch: prev_pid == 1 (next_pid == 0)",
	  "'(' cannot follow a condition: join them with && or || (column 29)" },
	{ "sched_switch: prev_pid (", "'(' cannot follow a value (column 24)" },
	{ "sched_switch: (!!prev_pid == 1)",
	  "libtraceevent cannot read this ')' after '!' (column 31)" },
	{ "sched_switch: prev_pid 1", "expected an operator before '1' (column 24)" },
	/* the library's read_token() makes the string "!" and the '~' after it one string */
	{ "sched_switch: \"!\"~prev_comm",
	  "expected an operator before 'prev_comm' (column 19)" },
	{ "sched_switch: prev_pid == 1, next_pid == 1",
	  "a comma in the condition: libtraceevent takes it for the end of an event name "
	  "(column 28)" },
	{ "sched_switch: prev_comm == \"a,b\"",
	  "a comma in the condition: libtraceevent takes it for the end of an event name "
	  "(column 30)" },
	{ "sched_switch: ((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((",
	  "more than 64 levels of '(' and '!' (column 79)" },
	/* the event list */
	{ "", "expected an event name (column 1)" },
	{ ":", "expected an event name (column 1)" },
	{ "sched_switch,", "expected an event name (column 14)" },
	{ ",sched_switch", "expected an event name (column 1)" },
	{ "sched_switch,,sched_wakeup", "expected an event name (column 14)" },
	{ "/", "expected an event name (column 1)" },
	{ "nosuchevent", "no event matches 'nosuchevent' (column 1)" },
	{ "sched_switch, nosuch: pid == 1", "no event matches 'nosuch' (column 14)" },
	{ "irq/sched_switch",
	  "no event matches system 'irq' and name 'sched_switch' (column 1)" },
	{ "/[/", "not a regular expression: '[' (column 1)" },
	{ "a || b", "no event matches 'a || b' (column 1)" },
};

static void test_bad(void **state)
{
	struct strbuf err = STRBUF_INIT, want = STRBUF_INIT;
	int failed = 0;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		strbuf_reset(&err);
		strbuf_reset(&want);
		strbuf_addf(&want, "-F '%s': %s", bad[i].expr, bad[i].why);
		if (report_filter_check(*state, "-F", bad[i].expr, &err, NULL) != -EBADMSG ||
		    strcmp(strbuf_str(&err), strbuf_str(&want))) {
			print_error("%s\n  got:  %s\n  want: %s\n", bad[i].expr, strbuf_str(&err),
				    strbuf_str(&want));
			failed++;
		}
	}
	strbuf_release(&err);
	strbuf_release(&want);
	assert_int_equal(failed, 0);
}

struct good {
	const char *expr;
	const char *event;	/* one event of the filter, and what the library made of it */
	const char *meaning;
};

static const struct good good[] = {
	{ "sched_switch,sched_wakeup", "sched_wakeup", "TRUE" },
	{ "sched", "sched_switch", "TRUE" },
	{ "sched/sched_switch", "sched_switch", "TRUE" },
	{ "SCHED_SWITCH", "sched_switch", "TRUE" },
	{ " sched_switch , sched_wakeup ", "sched_wakeup", "TRUE" },
	{ "/sched_w.*/", "sched_waking", "TRUE" },
	{ "sched/sched_w.*/junk", "sched_wakeup", "TRUE" },
	{ "sched_switch: prev_pid != 0", "sched_switch", "prev_pid != 0" },
	{ "sched_switch:prev_pid==0&&next_pid==0", "sched_switch",
	  "(prev_pid == 0) && (next_pid == 0)" },
	{ ".*:common_pid>100", "sched_wakeup", "common_pid > 100" },
	{ "sched_wakeup:pid==15", "sched_wakeup", "pid == 15" },
	{ "/sched_sw.*/: prev_pid == 0", "sched_switch", "prev_pid == 0" },
	{ "sched_switch: prev_pid == 0 || next_pid == 0", "sched_switch",
	  "(prev_pid == 0) || (next_pid == 0)" },
	{ "sched_switch: !(prev_pid == 0)", "sched_switch", "!(prev_pid == 0)" },
	{ "sched_switch: !prev_pid == 0", "sched_switch", "!(prev_pid == 0)" },
	{ "sched_switch: !!prev_pid == 0", "sched_switch", "!(!(prev_pid == 0))" },
	{ "sched_switch: prev_pid & 1", "sched_switch", "prev_pid & 1" },
	{ "sched_switch: prev_pid / 2", "sched_switch", "prev_pid / 2" },
	{ "sched_switch: prev_pid % 3", "sched_switch", "prev_pid % 3" },
	{ "sched_switch: COMM == \"bash\"", "sched_switch", "COMM == \"bash\"" },
	{ "sched_switch: CPU == 1", "sched_switch", "CPU == 1" },
	{ "sched_switch: prev_comm =~ \"^ba\"", "sched_switch", "prev_comm =~ \"^ba\"" },
	{ "sched_switch: prev_comm !~ \"^ba\"", "sched_switch", "prev_comm !~ \"^ba\"" },
	{ "sched_switch: prev_comm == \"sh\" \"ell\"", "sched_switch", "prev_comm == \"shell\"" },
	{ "sched_switch: next_comm == LOCAL_PR_FMT", "sched_switch", "next_comm == \"%s\"" },
	{ "sched_switch: prev_pid == 0x10", "sched_switch", "prev_pid == 16" },
	{ "sched_switch: next_comm == 'ab'", "sched_switch", "next_comm == \"ab\"" },
	/* libtraceevent's own readings, kept: the last condition wins, '-' starts anew */
	{ "sched_switch: prev_pid == 1 prev_pid == 2", "sched_switch", "prev_pid == 2" },
	{ "sched_switch: prev_pid == 1 1", "sched_switch", "prev_pid == 1" },
	{ "sched_switch: prev_pid >= -1", "sched_switch", "prev_pid - 1" },
	{ "sched_switch: prev_pid == 1 !next_pid == 0", "sched_switch", "!(next_pid == 0)" },
	{ "sched_switch: prev_pid == 1 && !next_pid == 0 && prev_prio == 120", "sched_switch",
	  "((prev_pid == 1) && (!(next_pid == 0))) && (prev_prio == 120)" },
	{ "sched_switch: ((prev_pid == 0) || next_pid == 0) && prev_prio < 100", "sched_switch",
	  "((prev_pid == 0) || (next_pid == 0)) && (prev_prio < 100)" },
	/* unknown names are false, even in a string comparison the field could not do */
	{ "sched_switch: nosuchfield == 1", "sched_switch", "FALSE" },
	{ "sched_switch: nosuchfield < \"abc\"", "sched_switch", "FALSE" },
	{ "sched_switch: nosuchfield == 1 || prev_pid == 1", "sched_switch", "prev_pid == 1" },
	{ "sched_switch: prev_pid ~ \"x\"", "sched_switch", "prev_pid [ERROR IN EXPRESSION "
	  "TYPE] " },
	{ "sched_switch: prev_comm ~ \"ba*\"", "sched_switch", "prev_comm [ERROR IN EXPRESSION "
	  "TYPE] " },
};

static void test_good(void **state)
{
	struct tep_handle *tep = *state;
	struct strbuf err = STRBUF_INIT, notes = STRBUF_INIT;
	int failed = 0;
	size_t i;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		struct tep_event_filter *f = tep_filter_alloc(tep);
		struct tep_event *e = tep_find_event_by_name(tep, "sched", good[i].event);
		char *meaning;

		strbuf_reset(&err);
		if (report_filter_check(tep, "-F", good[i].expr, &err, &notes)) {
			print_error("%s: %s\n", good[i].expr, strbuf_str(&err));
			failed++;
			tep_filter_free(f);
			continue;
		}
		assert_non_null(f);
		assert_non_null(e);
		assert_int_equal(tep_filter_add_filter_str(f, good[i].expr), 0);
		meaning = tep_filter_make_string(f, e->id);
		assert_non_null(meaning);
		/* a string's pointer printed as a number: only its start is stable */
		if (strncmp(meaning, good[i].meaning, strlen(good[i].meaning))) {
			print_error("%s: libtraceevent reads '%s', not '%s'\n", good[i].expr,
				    meaning, good[i].meaning);
			failed++;
		}
		free(meaning);
		tep_filter_free(f);
	}
	strbuf_release(&err);
	strbuf_release(&notes);
	assert_int_equal(failed, 0);
}

static void test_notes(void **state)
{
	struct strbuf err = STRBUF_INIT, notes = STRBUF_INIT;

	assert_int_equal(report_filter_check(*state, "-F", "sched_switch: prev_pd == 1", &err,
					     &notes), 0);
	assert_string_equal(strbuf_str(&notes), "-F 'sched_switch: prev_pd == 1': sched_switch "
			    "has no field 'prev_pd' (column 15), so that comparison is false; "
			    "did you mean 'prev_pid'?\n");
	strbuf_reset(&notes);
	assert_int_equal(report_filter_check(*state, "-F", "sched_switch: zzz == 1", &err,
					     &notes), 0);
	assert_string_equal(strbuf_str(&notes), "-F 'sched_switch: zzz == 1': sched_switch has "
			    "no field 'zzz' (column 15), so that comparison is false; its fields: "
			    "prev_comm, prev_pid, prev_prio, prev_state, next_comm, next_pid, "
			    "next_prio\n");
	/* a field of one of the events is no mistake */
	strbuf_reset(&notes);
	assert_int_equal(report_filter_check(*state, "-F", "sched: prev_pid == 1 || pid == 1",
					     &err, &notes), 0);
	assert_string_equal(strbuf_str(&notes), "");
	assert_int_equal(report_filter_check(*state, "-F", "sched_wak.*: nopid == 1", &err,
					     &notes), 0);
	assert_string_equal(strbuf_str(&notes), "-F 'sched_wak.*: nopid == 1': none of its 2 "
			    "events has a field 'nopid' (column 14), so that comparison is false\n");
	strbuf_reset(&notes);
	assert_int_equal(report_filter_check(*state, "-F", "sched_switch: prev_comm ~ \"ba*\" || "
					     "prev_pid & \"x\"", &err, &notes), 0);
	assert_string_equal(strbuf_str(&notes), "-F 'sched_switch: prev_comm ~ \"ba*\" || prev_pid "
			    "& \"x\"': '~' fails on every record, which then does not match (column "
			    "25): libtraceevent has no glob match; =~ takes a regular expression\n"
			    "-F 'sched_switch: prev_comm ~ \"ba*\" || prev_pid & \"x\"': '&' on a "
			    "string fails on every record, which then does not match (column 45)\n");
	strbuf_release(&err);
	strbuf_release(&notes);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_good),
		cmocka_unit_test(test_notes),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
