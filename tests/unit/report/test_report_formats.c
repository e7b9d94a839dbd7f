// SPDX-License-Identifier: GPL-2.0-only
/*
 * report --events / --event REGEX (report_formats.c) on the corpus's sched.dat (v7) and
 * sched_v6.dat: which formats each regex picks, in file order, with the system lines, and the
 * same text from both file versions.
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

#include "ktrace/dat.h"
#include "ktrace/report.h"
#include "report_info.h"

static const char *corpus;

/* What report_print_formats() prints for regex on the corpus file name; *ret gets its result. */
static char *formats_of(const char *name, const char *regex, int *ret)
{
	struct strbuf err = STRBUF_INIT;
	struct dat_file *df = NULL;
	char path[4096], *text = NULL;
	size_t len = 0;
	FILE *out;

	snprintf(path, sizeof(path), "%s/%s", corpus, name);
	assert_int_equal(dat_file_open(path, &df, &err), 0);
	out = open_memstream(&text, &len);
	assert_non_null(out);
	*ret = report_print_formats(df, regex, out, &err);
	fclose(out);
	if (*ret)
		print_message("%s\n", strbuf_str(&err));
	dat_file_close(df);
	strbuf_release(&err);
	return text;
}

/* The "system: " and "name: " lines of text, joined by spaces. */
static char *names_of(const char *text)
{
	char *copy = strdup(text), *line, *save = NULL;
	char *names = calloc(1, strlen(text) + 1);

	assert_non_null(copy);
	assert_non_null(names);
	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, "system: ", 8) && strncmp(line, "name: ", 6))
			continue;
		if (names[0])
			strcat(names, " ");
		strcat(names, line);
	}
	free(copy);
	return names;
}

static void expect(const char *regex, const char *want)
{
	char *text, *names;
	int ret;

	text = formats_of("sched.dat", regex, &ret);
	assert_int_equal(ret, 0);
	names = names_of(text);
	if (strcmp(names, want))
		fail_msg("--event '%s':\n  got  '%s'\n  want '%s'", regex ? regex : "(all)", names,
			 want);
	free(names);
	free(text);
}

#define FTRACE_ALL "name: wakeup name: user_stack name: timerlat name: raw_data name: print " \
	"name: osnoise name: mmiotrace_rw name: mmiotrace_map name: kernel_stack name: hwlat " \
	"name: function name: funcgraph_exit name: funcgraph_entry name: func_repeats " \
	"name: context_switch name: branch name: bputs name: bprint"
#define SCHED_ALL "system: sched name: sched_switch name: sched_wakeup " \
	"name: sched_process_exec name: sched_process_fork name: sched_process_exit"

static void test_regexes(void **state)
{
	(void)state;
	expect(NULL, FTRACE_ALL " " SCHED_ALL);
	/* a system's name prints it whole */
	expect("sched", SCHED_ALL);
	expect("ftrace", FTRACE_ALL);
	/* else the events whose name matches, in every system, case-insensitive */
	expect("SWITCH", "name: context_switch system: sched name: sched_switch");
	expect("^sched_process_e",
	       "system: sched name: sched_process_exec name: sched_process_exit");
	/* SYSTEM:EVENT: that system only */
	expect("sched:switch", "system: sched name: sched_switch");
	expect("ftrace:^function$", "name: function");
	expect("sched:^function$", "");
	expect("no_such_event", "");
}

/* The first line of the format and its last: nothing cut, nothing added but one newline. */
static void test_whole_text(void **state)
{
	char *text;
	int ret;

	(void)state;
	text = formats_of("sched.dat", "sched:sched_switch", &ret);
	assert_int_equal(ret, 0);
	assert_true(!strncmp(text, "\nsystem: sched\nname: sched_switch\nID: ", 37));
	assert_non_null(strstr(text, "\nformat:\n\tfield:unsigned short common_type;"));
	assert_non_null(strstr(text, "REC->next_comm, REC->next_pid, REC->next_prio\n\n"));
	assert_null(strstr(text, "sched_wakeup"));
	free(text);
}

static void test_v6_same(void **state)
{
	char *v7, *v6;
	int r7, r6;

	(void)state;
	v7 = formats_of("sched.dat", NULL, &r7);
	v6 = formats_of("sched_v6.dat", NULL, &r6);
	assert_int_equal(r7, 0);
	assert_int_equal(r6, 0);
	assert_true(strlen(v7) > 10000);
	assert_string_equal(v6, v7);
	free(v7);
	free(v6);
}

static void test_bad_regex(void **state)
{
	char *text;
	int ret;

	(void)state;
	text = formats_of("sched.dat", "sched:[", &ret);
	assert_int_equal(ret, -EINVAL);
	assert_string_equal(text, "");
	free(text);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_regexes),
		cmocka_unit_test(test_whole_text),
		cmocka_unit_test(test_v6_same),
		cmocka_unit_test(test_bad_regex),
	};

	if (argc < 2) {
		fprintf(stderr, "usage: %s CORPUS_DIR\n", argv[0]);
		return 1;
	}
	corpus = argv[1];
	return cmocka_run_group_tests(tests, NULL, NULL);
}
