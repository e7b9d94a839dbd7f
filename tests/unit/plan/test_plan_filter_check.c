// SPDX-License-Identifier: GPL-2.0-only
/*
 * plan_filter_text_check() and plan_trigger_text_check(): what the kernel surely refuses in
 * a -f or -R is refused before tracefs sees it, with the column; the rest goes through.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <errno.h>

#include "ktrace/plan.h"
#include "plan_filter_check.h"

struct verdict {
	const char *text;
	const char *why;	/* NULL: accepted */
};

static const struct verdict filters[] = {
	{ "prev_pid ==", "expected a value after '==' (column 10)" },
	{ "prev_pid == 1 &&", "expected a condition after '&&' (column 15)" },
	{ "prev_pid == 1 ||", "expected a condition after '||' (column 15)" },
	{ "comm ~", "expected a value after '~' (column 6)" },
	{ "prev_pid == && next_pid == 1", "expected a value after '==' (column 10)" },
	{ "prev_pid == 1 && || next_pid == 1", "expected a condition after '&&' (column 15)" },
	{ "(prev_pid == 1", "this '(' is never closed (column 1)" },
	{ "((a == 1) || (b == 2)", "this '(' is never closed (column 1)" },
	{ "prev_pid == 1)", "')' without a '(' before it (column 14)" },
	{ "a == 1) || (b == 2", "')' without a '(' before it (column 7)" },
	{ "comm == \"abc", "the string that starts here has no closing '\"' (column 9)" },
	{ "comm == 'abc", "the string that starts here has no closing ''' (column 9)" },
	{ "", "the filter is empty (column 1)" },
	{ "   ", "the filter is empty (column 4)" },
	{ "()", "nothing between '(' and ')' (column 1)" },
	{ "&& a == 1", "expected a condition before '&&' (column 1)" },
	{ "(|| a == 1)", "expected a condition before '||' (column 2)" },
	{ "!", "expected a condition after '!' (column 1)" },
	{ "!(a == 1) && !", "expected a condition after '!' (column 14)" },
	{ "== 1", "expected a field before '==' (column 1)" },
	{ "a == 1 && < 2", "expected a condition after '&&' (column 8)" },
	{ "(< 2)", "expected a field before '<' (column 2)" },
	{ "a == 1 || (b == 1 &&)", "expected a condition after '&&' (column 19)" },
	{ "comm == \"a\x01\"", "control byte 0x01 (column 11)" },
	{ "comm == x\n", "control byte 0x0a (column 10)" },
	/* the kernel's to judge */
	{ "prev_pid == 1 && !(next_pid == 0)", NULL },
	{ "comm ~ \"*sh*\"", NULL },
	{ "flags & 4", NULL },
	{ "comm == bash", NULL },
	{ "comm == a\"b", NULL },
	{ "pid > -1", NULL },
	{ "comm == 'x y' || comm == \"(\"", NULL },
	{ "a == 1 && (b == 2 || c == 3)", NULL },
	{ "call_site.function == kfree", NULL },
	{ "prev_pid = 1", NULL },
	{ "common_pid = = 1", NULL },
	{ "a | b", NULL },
	{ "prev_pid==0&&next_pid!=0", NULL },
	{ "\tcommon_pid >= 100\t", NULL },
};

static const struct verdict triggers[] = {
	{ "", "the trigger is empty (column 1)" },
	{ " ", "the trigger is empty (column 2)" },
	{ "traceon if prev_pid ==", "expected a value after '==' (column 21)" },
	{ "hist:keys=pid if", "the filter is empty (column 17)" },
	{ "stacktrace:5 if (a == 1", "this '(' is never closed (column 17)" },
	{ "snapshot if comm == \"x", "the string that starts here has no closing '\"' "
	  "(column 21)" },
	{ "traceoff\x7f", "control byte 0x7f (column 9)" },
	{ "traceon", NULL },
	{ "traceon:3", NULL },
	{ "stacktrace if prev_pid == 1", NULL },
	{ "hist:keys=common_pid:vals=hitcount", NULL },
	{ "hist:keys=diff:sort=diff if comm == \"sh\"", NULL },
	{ "hist:keys=pid:onmatch(sched.sched_wakeup).trace(wake,$pid)", NULL },
};

static void check_all(const struct verdict *v, size_t n, int (*check)(const char *,
								       struct strbuf *))
{
	struct strbuf why = STRBUF_INIT;
	int failed = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		int ret;

		strbuf_reset(&why);
		ret = check(v[i].text, &why);
		if (v[i].why ? ret != -EINVAL || strcmp(strbuf_str(&why), v[i].why) : ret != 0) {
			print_error("'%s'\n  got:  %d %s\n  want: %s\n", v[i].text, ret,
				    strbuf_str(&why), v[i].why ? v[i].why : "accepted");
			failed++;
		}
	}
	strbuf_release(&why);
	assert_int_equal(failed, 0);
}

static void test_filters(void **state)
{
	check_all(filters, sizeof(filters) / sizeof(filters[0]), plan_filter_text_check);
}

static void test_triggers(void **state)
{
	check_all(triggers, sizeof(triggers) / sizeof(triggers[0]), plan_trigger_text_check);
}

static void test_globs(void **state)
{
	char *good[] = { "vfs_*", "*lock*", "do_sys_open", "!*rcu*", NULL };
	char *blank[] = { "vfs_*", " ", NULL };
	char *empty[] = { "", NULL };
	char *ctrl[] = { "vfs_\x1b", NULL };
	struct plan_instance inst = { .func_filters = good, .func_notrace = good,
				      .graph_funcs = good };

	assert_int_equal(plan_check_function_globs("record", &inst), 0);
	inst.func_filters = blank;
	assert_int_equal(plan_check_function_globs("record", &inst), -EINVAL);
	inst.func_filters = good;
	inst.func_notrace = empty;
	assert_int_equal(plan_check_function_globs("record", &inst), -EINVAL);
	inst.func_notrace = good;
	inst.graph_funcs = ctrl;
	assert_int_equal(plan_check_function_globs("record", &inst), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_filters),
		cmocka_unit_test(test_triggers),
		cmocka_unit_test(test_globs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
