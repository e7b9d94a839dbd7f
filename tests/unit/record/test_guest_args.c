// SPDX-License-Identifier: GPL-2.0-only
/*
 * record -A's words (record_guest_args.c): the options after -A up to -A/-B are the guest's,
 * verbatim; the command stays the host's; each -A argument read as trace-cmd reads it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ktrace/options.h"
#include "record_guest.h"

static const struct kt_option table[] = {
	KT_OPT('e', NULL, KT_ARG_REQUIRED, "EVENT", ""),
	KT_OPT('o', NULL, KT_ARG_REQUIRED, "FILE", ""),
	KT_OPT('B', NULL, KT_ARG_REQUIRED, "NAME", ""),
	KT_OPT('C', NULL, KT_ARG_REQUIRED, "CLOCK", ""),
	KT_OPT('q', NULL, KT_ARG_NONE, NULL, ""),
	KT_OPT('A', NULL, KT_ARG_REQUIRED, "GUEST", ""),
	KT_OPT(RECORD_OPT_GUEST_NAME, "name", KT_ARG_REQUIRED, "NAME", ""),
	{ 0 },
};

static void join(char **v, int n, char *out)
{
	int i;

	out[0] = '\0';
	for (i = 0; i < n; i++) {
		if (i)
			strcat(out, " ");
		strcat(out, v[i]);
	}
}

static void test_split(void **state)
{
	char *argv[] = { "record", "-e", "a", "-A", "vm@3:900", "-qe", "b", "-o", "x.dat",
			 "--name", "n", "-B", "inst", "-e", "c", "-A", "10.0.0.2:8390", "-C",
			 "global", "--", "cmd", "-A", "y", NULL };
	int argc = (int)(sizeof(argv) / sizeof(*argv)) - 1, host_argc;
	struct record_guests *gs = NULL;
	char **host = NULL, buf[256];

	(void)state;
	assert_int_equal(record_guests_split(table, argc, argv, &host_argc, &host, &gs), 0);
	join(host, host_argc, buf);
	assert_string_equal(buf, "record -e a -B inst -e c -- cmd -A y");
	assert_non_null(gs);
	assert_int_equal(gs->nr, 2);
	assert_string_equal(gs->g[0].name, "n");
	assert_null(gs->g[0].host);
	assert_int_equal(gs->g[0].cid, 3);
	assert_int_equal(gs->g[0].port, 900);
	join(gs->g[0].argv, gs->g[0].argc, buf);
	assert_string_equal(buf, "-qe b -o x.dat");
	assert_false(gs->g[0].has_clock);
	/* an address: TCP, named after it */
	assert_string_equal(gs->g[1].host, "10.0.0.2");
	assert_string_equal(gs->g[1].name, "10.0.0.2");
	assert_int_equal(gs->g[1].port, 8390);
	assert_true(gs->g[1].has_clock);
	assert_int_not_equal(record_guests_trace_id(gs), 0);
	record_guests_free(gs);
	free(host);
}

static void test_specs(void **state)
{
	char *argv[] = { "record", "-A", "@127.0.0.1:4000", "-A", "7", "-A", "@[::1]:5", NULL };
	struct record_guests *gs = NULL;
	char **host = NULL;
	int n;

	(void)state;
	assert_int_equal(record_guests_split(table, 7, argv, &n, &host, &gs), 0);
	assert_int_equal(n, 1);
	assert_string_equal(gs->g[0].host, "127.0.0.1");
	assert_string_equal(gs->g[0].name, "unnamed-0");
	assert_int_equal(gs->g[0].port, 4000);
	assert_null(gs->g[1].host);
	assert_int_equal(gs->g[1].cid, 7);
	assert_int_equal(gs->g[1].port, 823);
	assert_string_equal(gs->g[1].name, "unnamed-1");
	assert_string_equal(gs->g[2].host, "::1");
	assert_int_equal(gs->g[2].port, 5);
	record_guests_free(gs);
	free(host);
}

static void test_no_guest(void **state)
{
	char *argv[] = { "record", "-e", "-A", NULL };
	struct record_guests *gs = (void *)1;
	char **host = NULL;
	int n;

	(void)state;
	/* -A as -e's argument is an event name, not a guest */
	assert_int_equal(record_guests_split(table, 3, argv, &n, &host, &gs), 0);
	assert_null(gs);
	assert_int_equal(n, 3);
	free(host);
}

static void test_errors(void **state)
{
	char *bad_name[] = { "record", "-A", "somename", NULL };
	char *bad_port[] = { "record", "-A", "3:x", NULL };
	char *lone_name[] = { "record", "--name", "n", NULL };
	struct record_guests *gs = NULL;
	char **host = NULL;
	int n;

	(void)state;
	assert_int_equal(record_guests_split(table, 3, bad_name, &n, &host, &gs), KT_ERR_USAGE);
	assert_int_equal(record_guests_split(table, 3, bad_port, &n, &host, &gs), KT_ERR_USAGE);
	assert_int_equal(record_guests_split(table, 3, lone_name, &n, &host, &gs), KT_ERR_USAGE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_split),
		cmocka_unit_test(test_specs),
		cmocka_unit_test(test_no_guest),
		cmocka_unit_test(test_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
