// SPDX-License-Identifier: GPL-2.0-only
/* Timestamps and --cpu lists as trace-cmd 3.1.6 prints and parses them. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <errno.h>

#include "ktrace/report.h"
#include "report_opts.h"
#include "report_print.h"

static void check(unsigned long long ts, enum report_time_unit unit, bool colon, const char *want)
{
	char buf[48];
	int len = report_time_format(buf, ts, unit, colon);

	assert_string_equal(buf, want);
	assert_int_equal(len, strlen(want));
}

static void test_usecs_round_to_nearest(void **state)
{
	(void)state;
	check(5861953175ULL, REPORT_TIME_USECS, true, "     5.861953:");
	/* 5.866299879 rounds up to ...300 */
	check(5866299879ULL, REPORT_TIME_USECS, true, "     5.866300:");
	check(999999500ULL, REPORT_TIME_USECS, true, "     1.000000:");
	check(0, REPORT_TIME_USECS, false, "    0.000000");
}

static void test_nsecs_keep_every_digit(void **state)
{
	(void)state;
	check(5866299879ULL, REPORT_TIME_NSECS, true, "     5.866299879:");
	check(1795963665106857426ULL, REPORT_TIME_NSECS, true, " 1795963665.106857426:");
	check(12ULL, REPORT_TIME_NSECS, false, "    0.000000012");
}

static void test_raw_counts_have_no_point(void **state)
{
	(void)state;
	/* counter clocks: "%12llu:" without the leading blank */
	check(3, REPORT_TIME_RAW, true, "           3:");
	check(123456789012345ULL, REPORT_TIME_RAW, true, "123456789012345:");
	check(42, REPORT_TIME_RAW, false, "          42");
}

static void test_cpulist(void **state)
{
	struct report_opts o;
	struct strbuf err = STRBUF_INIT;

	(void)state;
	memset(&o, 0, sizeof(o));
	assert_int_equal(report_parse_cpulist(&o, "0,2-3", &err), 0);
	assert_int_equal(o.nr_cpu_set, 4);
	assert_true(o.cpu_set[0]);
	assert_false(o.cpu_set[1]);
	assert_true(o.cpu_set[2]);
	assert_true(o.cpu_set[3]);
	assert_int_equal(report_parse_cpulist(&o, "3-1", &err), -EINVAL);
	assert_non_null(strstr(strbuf_str(&err), "lower to greater"));
	strbuf_reset(&err);
	assert_int_equal(report_parse_cpulist(&o, "x", &err), -EINVAL);
	assert_non_null(strstr(strbuf_str(&err), "invalid character 'x'"));
	strbuf_release(&err);
	report_opts_release(&o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_usecs_round_to_nearest),
		cmocka_unit_test(test_nsecs_keep_every_digit),
		cmocka_unit_test(test_raw_counts_have_no_point),
		cmocka_unit_test(test_cpulist),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
