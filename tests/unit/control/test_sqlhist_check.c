// SPDX-License-Identifier: GPL-2.0-only
/*
 * sqlhist_check(): the SQL that libtracefs 1.6.4's parser must not see is refused with the
 * offset of the fault, and ordinary queries (the man page's, trace-cmd's examples) pass.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "sqlhist_check.h"

static int check(const char *sql, size_t len, char *why, size_t size)
{
	struct strbuf err = STRBUF_INIT;
	int ret = sqlhist_check(sql, len, &err);

	snprintf(why, size, "%s", err.len ? err.buf : "");
	strbuf_release(&err);
	return ret;
}

static void assert_refused(const char *sql, size_t len, const char *why)
{
	char got[256];

	assert_int_equal(check(sql, len, got, sizeof(got)), -22);
	assert_string_equal(got, why);
}

static void assert_passes(const char *sql)
{
	char got[256];

	assert_int_equal(check(sql, strlen(sql), got, sizeof(got)), 0);
	assert_string_equal(got, "");
}

static void test_passes(void **state)
{
	(void)state;
	assert_passes("SELECT end.next_comm AS comm, (end.TIMESTAMP_USECS - "
		      "start.TIMESTAMP_USECS) AS lat FROM sched_waking AS start JOIN sched_switch "
		      "AS end ON start.pid = end.next_pid WHERE end.next_prio < 100 && "
		      "end.next_comm == \"cyclictest\"");
	assert_passes("SELECT CAST(call_site as SYM-OFFSET), bytes_req, CAST(bytes_alloc AS "
		      "_COUNTER_) FROM kmalloc");
	assert_passes("select pid,\n\tcomm from sched_waking where comm == \"a(b\"");
	/* a counter first is fine in a JOIN: no histogram of the first selection is made */
	assert_passes("SELECT CAST(start.pid AS _COUNTER_), end.next_pid FROM sched_waking AS "
		      "start JOIN sched_switch AS end ON start.pid = end.next_pid");
	/* _COUNTER_ inside a string is no cast */
	assert_passes("SELECT comm FROM sched_waking WHERE comm == \"_COUNTER_\"");
	/* one field under two prefixes, or inside two expressions, is two fields */
	assert_passes("SELECT start.next_pid, end.next_pid FROM sched_switch AS start JOIN "
		      "sched_switch AS end ON start.next_pid = end.prev_pid");
	assert_passes("SELECT next_pid, (next_pid + 1) AS n FROM sched_switch");
}

static void test_refused(void **state)
{
	char deep[200];

	(void)state;
	assert_refused("", 0, "offset 0: the SQL is empty");
	assert_refused(" \n\t", 3, "offset 0: the SQL is empty");
	assert_refused("select pid\0 from x", 18, "offset 10: a NUL byte in the SQL");
	assert_refused("select pid from \x01x", 18,
		       "offset 16: a byte that is not printable ASCII in the SQL");
	assert_refused("select p\xc3\xa9 from x", 15,
		       "offset 8: a byte that is not printable ASCII in the SQL");
	assert_refused("select \"abc from x", 18, "offset 7: a string that is not closed (\")");
	assert_refused("select (a from x", 16, "offset 7: '(' that is not closed");
	assert_refused("select a) from x", 16, "offset 8: ')' without its '('");
	memset(deep, '(', sizeof(deep));
	assert_refused(deep, sizeof(deep), "offset 64: parentheses nested deeper than 64");
	/* libtracefs's tracefs_synth_get_start_hist() adds the 2nd key to a NULL histogram */
	assert_refused("SELECT CAST(pid AS _COUNTER_), comm FROM sched_wakeup", 53,
		       "offset 19: the first selection of a histogram cannot be a _COUNTER_ "
		       "(libtracefs crashes on it): select a key first");
	assert_refused("select cast(pid as _counter_) from x", 36,
		       "offset 19: the first selection of a histogram cannot be a _COUNTER_ "
		       "(libtracefs crashes on it): select a key first");
	/* libtracefs 1.6.4's tracefs_sql() grows a list until memory runs out */
	assert_refused("SELECT next_pid AS a, next_pid AS b FROM sched_switch", 53,
		       "offset 22: a field selected twice (libtracefs never returns on it): "
		       "select each field once");
	assert_refused("select prio, cast(prio as _COUNTER_) from x where a == 1", 56,
		       "offset 18: a field selected twice (libtracefs never returns on it): "
		       "select each field once");
	/* a cast to SYM-OFFSET is one field too (the fuzzer's hang in CI, stop 29) */
	assert_refused("SELECT CAST(next_pid AS HEX), CAST(next_pid AS SYM-OFFSET) FROM "
		       "sched_switch", 76,
		       "offset 35: a field selected twice (libtracefs never returns on it): "
		       "select each field once");
	assert_refused("select cast(pid as sym-offset), pid from x", 42,
		       "offset 32: a field selected twice (libtracefs never returns on it): "
		       "select each field once");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_passes),
		cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
