// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the report printer's pid -> comm table relies on (report_print.c): libtraceevent's
 * tep_register_comm() never renames a pid it has nor moves the name's string, and "<...>" is
 * the answer for a pid it does not have. Should a libtraceevent release change that, the
 * table would print stale names: this test says so first.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <event-parse.h>

static void test_registered_name_stays(void **state)
{
	struct tep_handle *tep = tep_alloc();
	const char *first;
	int pid;

	(void)state;
	assert_non_null(tep);
	assert_int_equal(tep_register_comm(tep, "first", 5), 0);
	first = tep_data_comm_from_pid(tep, 5);
	assert_string_equal(first, "first");
	/* a plugin registering the pid again under another name changes nothing */
	tep_register_comm(tep, "second", 5);
	/* many more pids: the table grows, the kept string does not move */
	for (pid = 10; pid < 5000; pid++)
		assert_int_equal(tep_register_comm(tep, "other", pid), 0);
	assert_ptr_equal(tep_data_comm_from_pid(tep, 5), first);
	assert_string_equal(first, "first");
	tep_free(tep);
}

static void test_unknown_pid_is_named_later(void **state)
{
	struct tep_handle *tep = tep_alloc();

	(void)state;
	assert_int_equal(tep_register_comm(tep, "a", 1), 0);
	assert_string_equal(tep_data_comm_from_pid(tep, 7), "<...>");
	assert_int_equal(tep_register_comm(tep, "late", 7), 0);
	assert_string_equal(tep_data_comm_from_pid(tep, 7), "late");
	tep_free(tep);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_registered_name_stays),
		cmocka_unit_test(test_unknown_pid_is_named_later),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
