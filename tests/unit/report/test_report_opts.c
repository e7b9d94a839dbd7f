// SPDX-License-Identifier: GPL-2.0-only
/* `ktrace report` option parsing: trace-cmd 3.1.6's meanings. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <errno.h>

#include "ktrace/options.h"
#include "ktrace/report.h"
#include "ktrace/strv.h"
#include "report_opts.h"

#define PARSE(o, ...) parse(o, (char *[]){ "report", __VA_ARGS__, NULL })

static int parse(struct report_opts *o, char **argv)
{
	int argc = 0;

	while (argv[argc])
		argc++;
	return report_opts_parse(o, argc, argv);
}

static void test_defaults(void **state)
{
	struct report_opts o;

	(void)state;
	assert_int_equal(parse(&o, (char *[]){ "report", NULL }), 0);
	assert_string_equal(o.input, "trace.dat");
	assert_false(o.latency);
	assert_null(o.cpu_set);
	report_opts_release(&o);
}

static void test_bare_file_and_flags(void **state)
{
	struct report_opts o;

	(void)state;
	assert_int_equal(PARSE(&o, "-l", "-t", "-R", "--stat", "x.dat"), 0);
	assert_string_equal(o.input, "x.dat");
	assert_true(o.latency && o.nsec && o.raw && o.stat);
	report_opts_release(&o);
	/* a bare file after -i is one file too many */
	assert_int_equal(PARSE(&o, "-i", "a.dat", "b.dat"), KT_ERR_USAGE);
	report_opts_release(&o);
}

static void test_v_negates_following_filters(void **state)
{
	struct report_opts o;

	(void)state;
	assert_int_equal(PARSE(&o, "-F", "a", "-v", "-F", "b", "-F", "c: x > 1", "-i", "t.dat"), 0);
	assert_int_equal(o.nr_filters, 3);
	assert_false(o.filters[0].neg);
	assert_true(o.filters[1].neg);
	assert_true(o.filters[2].neg);
	assert_string_equal(o.filters[2].expr, "c: x > 1");
	report_opts_release(&o);
	assert_int_equal(PARSE(&o, "-v", "-v"), KT_ERR_USAGE);
	report_opts_release(&o);
}

static void test_lists(void **state)
{
	struct report_opts o;

	(void)state;
	assert_int_equal(PARSE(&o, "--cpu", "1,3", "--pid", "10,20", "--comm", "sh",
			       "--first-event"), 0);
	assert_int_equal(o.nr_cpu_set, 4);
	assert_true(o.cpu_set[1] && o.cpu_set[3] && !o.cpu_set[2]);
	assert_int_equal(strv_len(o.pids), 2);
	assert_string_equal(o.pids[1], "20");
	assert_int_equal(strv_len(o.comms), 1);
	assert_true(o.show_cpus && o.show_first);
	report_opts_release(&o);
}

static void test_errors(void **state)
{
	struct report_opts o;

	(void)state;
	/* as trace-cmd: --ts-offset needs the file first */
	assert_int_equal(PARSE(&o, "--ts-offset", "5", "-i", "t.dat"), KT_ERR_USAGE);
	report_opts_release(&o);
	assert_int_equal(PARSE(&o, "-i", "t.dat", "--ts-offset", "5"), 0);
	report_opts_release(&o);
	assert_int_equal(PARSE(&o, "--cpu", "2-1"), KT_ERR_USAGE);
	report_opts_release(&o);
	/* --by-comm shapes --profile's table: alone it has nothing to do */
	assert_int_equal(PARSE(&o, "--by-comm"), KT_ERR_USAGE);
	report_opts_release(&o);
	assert_int_equal(PARSE(&o, "--profile"), 0);
	assert_true(o.profile);
	report_opts_release(&o);
	assert_int_equal(PARSE(&o, "--profile", "--by-comm"), 0);
	assert_true(o.profile && o.by_comm);
	report_opts_release(&o);
	assert_int_equal(PARSE(&o, "--no-such-option"), KT_ERR_USAGE);
	report_opts_release(&o);
}

static void test_format(void **state)
{
	struct report_opts o;

	(void)state;
	assert_int_equal(PARSE(&o, "t.dat"), 0);
	assert_int_equal(o.format, REPORT_FORMAT_TEXT);
	report_opts_release(&o);
	assert_int_equal(PARSE(&o, "--format", "json", "-l", "t.dat"), 0);
	assert_int_equal(o.format, REPORT_FORMAT_JSON);
	report_opts_release(&o);
	assert_int_equal(PARSE(&o, "--format", "csv", "--fields", "ts,prev_pid", "t.dat"), 0);
	assert_int_equal(o.format, REPORT_FORMAT_CSV);
	assert_string_equal(o.fields, "ts,prev_pid");
	report_opts_release(&o);
	assert_int_equal(PARSE(&o, "--format", "xml"), KT_ERR_USAGE);
	report_opts_release(&o);
	/* --fields only means something for csv and json; -w writes into the text */
	assert_int_equal(PARSE(&o, "--fields", "ts", "t.dat"), KT_ERR_USAGE);
	report_opts_release(&o);
	assert_int_equal(PARSE(&o, "--format", "json", "--fields", "ts", "t.dat"), 0);
	report_opts_release(&o);
	assert_int_equal(PARSE(&o, "--format", "json", "-w", "t.dat"), KT_ERR_USAGE);
	report_opts_release(&o);
	assert_int_equal(PARSE(&o, "--format", "text", "-w", "t.dat"), 0);
	report_opts_release(&o);
}

/* Several -i: as trace-cmd, -F, --ts-offset and --ts2secs belong to the last -i before them. */
/* --layout, and KTRACE_LAYOUT where it is not given */
static void test_layout(void **state)
{
	struct report_opts o;

	(void)state;
	unsetenv("KTRACE_LAYOUT");
	assert_int_equal(PARSE(&o, "-i", "t.dat"), 0);
	assert_int_equal(o.layout, REPORT_LAYOUT_316);
	report_opts_release(&o);
	assert_int_equal(PARSE(&o, "--layout", "3.4"), 0);
	assert_int_equal(o.layout, REPORT_LAYOUT_34);
	report_opts_release(&o);
	assert_int_equal(PARSE(&o, "--layout=3.1.6"), 0);
	assert_int_equal(o.layout, REPORT_LAYOUT_316);
	report_opts_release(&o);
	assert_int_equal(PARSE(&o, "--layout", "3.5"), KT_ERR_USAGE);
	report_opts_release(&o);
	setenv("KTRACE_LAYOUT", "3.4", 1);
	assert_int_equal(PARSE(&o, "-i", "t.dat"), 0);
	assert_int_equal(o.layout, REPORT_LAYOUT_34);
	report_opts_release(&o);
	assert_int_equal(PARSE(&o, "--layout", "3.1"), 0);
	assert_int_equal(o.layout, REPORT_LAYOUT_316);
	report_opts_release(&o);
	setenv("KTRACE_LAYOUT", "new", 1);
	assert_int_equal(PARSE(&o, "-i", "t.dat"), KT_ERR_USAGE);
	report_opts_release(&o);
	setenv("KTRACE_LAYOUT", "", 1);
	assert_int_equal(PARSE(&o, "-i", "t.dat"), 0);
	assert_int_equal(o.layout, REPORT_LAYOUT_316);
	report_opts_release(&o);
	unsetenv("KTRACE_LAYOUT");
}

/* --layout 3.4: several bare files, and trace-cmd 3.4's global -F filters */
static void test_several_inputs_34(void **state)
{
	struct report_opts o;

	(void)state;
	unsetenv("KTRACE_LAYOUT");
	assert_int_equal(PARSE(&o, "--layout", "3.4", "-F", "a", "1.dat", "2.dat", "3.dat"), 0);
	assert_string_equal(o.input, "1.dat");
	assert_int_equal(o.nr_more_inputs, 2);
	assert_string_equal(o.more_inputs[1].path, "3.dat");
	assert_int_equal(o.more_inputs[1].nr_filters, 1);
	assert_string_equal(o.more_inputs[1].filters[0].expr, "a");
	report_opts_release(&o);
	/* 3.1.6 reads the first bare file only */
	assert_int_equal(PARSE(&o, "-F", "a", "1.dat", "2.dat"), 0);
	assert_int_equal(o.nr_more_inputs, 0);
	report_opts_release(&o);
	/* the first file's list is the global one: "b" joins it, "c" is the second file's */
	assert_int_equal(PARSE(&o, "--layout", "3.4", "-F", "a", "-i", "1.dat", "-F", "b", "-i",
			       "2.dat", "-v", "-F", "c"), 0);
	assert_int_equal(o.nr_filters, 2);
	assert_int_equal(o.more_inputs[0].nr_filters, 3);
	assert_string_equal(o.more_inputs[0].filters[0].expr, "a");
	assert_string_equal(o.more_inputs[0].filters[1].expr, "b");
	assert_string_equal(o.more_inputs[0].filters[2].expr, "c");
	assert_true(o.more_inputs[0].filters[2].neg);
	report_opts_release(&o);
	/* without a -F before the first -i, each file keeps its own */
	assert_int_equal(PARSE(&o, "--layout", "3.4", "-i", "1.dat", "-F", "b", "-i", "2.dat"), 0);
	assert_int_equal(o.nr_filters, 1);
	assert_int_equal(o.more_inputs[0].nr_filters, 0);
	report_opts_release(&o);
	/* -i and a bare file: refused, as by trace-cmd 3.4 */
	assert_int_equal(PARSE(&o, "--layout", "3.4", "-i", "1.dat", "2.dat"), KT_ERR_USAGE);
	report_opts_release(&o);
}

static void test_several_inputs(void **state)
{
	struct report_opts o;

	(void)state;
	assert_int_equal(PARSE(&o, "-F", "a", "-i", "1.dat", "-F", "b", "--ts-offset", "9",
			       "-i", "2.dat", "-v", "-F", "c", "--ts-offset", "5", "--ts-offset",
			       "-70", "-i", "3.dat", "--ts2secs", "1000"), 0);
	assert_string_equal(o.input, "1.dat");
	/* before the first -i and up to the second: the first file's; its offset stays 0 */
	assert_int_equal(o.nr_filters, 2);
	assert_string_equal(o.filters[1].expr, "b");
	assert_int_equal(o.nr_more_inputs, 2);
	assert_string_equal(o.more_inputs[0].path, "2.dat");
	assert_int_equal(o.more_inputs[0].nr_filters, 1);
	assert_string_equal(o.more_inputs[0].filters[0].expr, "c");
	assert_true(o.more_inputs[0].filters[0].neg);
	assert_int_equal(o.more_inputs[0].ts_offset, -70);
	assert_int_equal(o.more_inputs[0].ts2secs, 0);
	assert_string_equal(o.more_inputs[1].path, "3.dat");
	assert_int_equal(o.more_inputs[1].nr_filters, 0);
	assert_int_equal(o.more_inputs[1].ts_offset, 0);
	assert_int_equal(o.more_inputs[1].ts2secs, 1000);
	assert_int_equal(o.ts2secs, 0);
	report_opts_release(&o);
	/* before the second -i, --ts2secs is every file's */
	assert_int_equal(PARSE(&o, "-i", "1.dat", "--ts2secs", "7", "-i", "2.dat", "--align-ts"), 0);
	assert_int_equal(o.ts2secs, 7);
	assert_int_equal(o.more_inputs[0].ts2secs, 0);
	assert_true(o.align_ts);
	report_opts_release(&o);
	/* the same file twice is two inputs */
	assert_int_equal(PARSE(&o, "-i", "1.dat", "-i", "1.dat"), 0);
	assert_int_equal(o.nr_more_inputs, 1);
	report_opts_release(&o);
}

/* What ktrace cannot print as trace-cmd does for several files is refused at parse time. */
static void test_several_inputs_refused(void **state)
{
	static const char *const refused[][2] = {
		{ "--format", "json" }, { "--format", "csv" }, { "-w", NULL },
	};
	struct report_opts o;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		char *argv[] = { "report", "-i", "1.dat", "-i", "2.dat", (char *)refused[i][0],
				 (char *)refused[i][1], NULL };

		assert_int_equal(parse(&o, argv), KT_ERR_USAGE);
		report_opts_release(&o);
		argv[3] = (char *)refused[i][0];
		argv[4] = (char *)refused[i][1];
		argv[5] = NULL;
		assert_int_equal(parse(&o, argv), 0);
		report_opts_release(&o);
	}
	/* --profile prints a table per file */
	assert_int_equal(PARSE(&o, "-i", "1.dat", "-i", "2.dat", "--profile"), 0);
	assert_int_equal(o.nr_more_inputs, 1);
	report_opts_release(&o);
	/* trace-cmd takes a bare FILE only as the one input */
	assert_int_equal(PARSE(&o, "-i", "1.dat", "-i", "2.dat", "3.dat"), KT_ERR_USAGE);
	report_opts_release(&o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_bare_file_and_flags),
		cmocka_unit_test(test_v_negates_following_filters),
		cmocka_unit_test(test_lists),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_several_inputs),
		cmocka_unit_test(test_several_inputs_34),
		cmocka_unit_test(test_several_inputs_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
