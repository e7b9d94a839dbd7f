// SPDX-License-Identifier: GPL-2.0-only
/* plan_suggest: the closest names, best first, at most three, none when nothing is close. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "plan_internal.h"

static const char *suggest(struct strbuf *sb, const char *word, char *const *cands)
{
	strbuf_reset(sb);
	plan_suggest(sb, word, cands);
	return strbuf_str(sb);
}

static void test_typos(void **state)
{
	char *events[] = { "sched:sched_switch", "sched:sched_waking", "sched:sched_wakeup",
			   "irq:irq_handler_entry", "syscalls:sys_enter_getppid", NULL };
	char *tracers[] = { "blk", "function", "nop", NULL };
	char *clocks[] = { "local", "global", "counter", "uptime", "perf", "mono", NULL };
	struct strbuf sb = STRBUF_INIT;

	assert_string_equal(suggest(&sb, "sched:sched_swich", events),
			    "; did you mean 'sched:sched_switch', 'sched:sched_waking', "
			    "'sched:sched_wakeup'?");
	assert_string_equal(suggest(&sb, "functon", tracers), "; did you mean 'function'?");
	assert_string_equal(suggest(&sb, "glob", clocks), "; did you mean 'global'?");
	/* A word inside a longer name counts as close. */
	assert_string_equal(suggest(&sb, "getppid", events),
			    "; did you mean 'syscalls:sys_enter_getppid'?");
	assert_string_equal(suggest(&sb, "zzzzzzzz", tracers), "");
	assert_string_equal(suggest(&sb, "x", NULL), "");
	strbuf_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_typos),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
