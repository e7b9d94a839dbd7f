// SPDX-License-Identifier: GPL-2.0-only
/*
 * Which tracers are latency tracers, the config option named for a missing tracer (the table in
 * tests/data/latency_tracers.tsv, shared with the kernel test record_latency), and what a
 * latency tracer refuses (stream, -N, other traced instances) before anything reads tracefs.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "ktrace/options.h"
#include "ktrace/plan.h"
#include "plan_test.h"

#define MAX_ARGS 16

static int parse_argv(struct plan *plan, const char *cmd, const char *const *args)
{
	char *argv[MAX_ARGS + 1];
	int argc = 0;

	argv[argc++] = (char *)cmd;
	while (*args && argc < MAX_ARGS)
		argv[argc++] = (char *)*args++;
	argv[argc] = NULL;
	return plan_test_parse(plan, argc, argv);
}

/* plan_check_latency's return value and the one line it printed to stderr. */
static int check(const char *cmd, const char *const *args, char *msg, size_t size)
{
	FILE *tmp = tmpfile();
	int saved = dup(2), ret;
	struct plan p;
	size_t n;

	assert_non_null(tmp);
	assert_int_equal(parse_argv(&p, cmd, args), 0);
	fflush(stderr);
	dup2(fileno(tmp), 2);
	ret = plan_check_latency(&p);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	n = fread(msg, 1, size - 1, tmp);
	msg[n] = '\0';
	fclose(tmp);
	plan_release(&p);
	return ret;
}

/* tests/data/latency_tracers.tsv, given as argv[1]: the table the kernel test checks too. */
static const char *latency_table;

/* Every tracer of the table is a latency tracer and names its config option when missing. */
static void test_latency_table(void **state)
{
	char line[256], *tab;
	int n = 0;
	FILE *f;

	(void)state;
	assert_non_null(latency_table);
	f = fopen(latency_table, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#')
			continue;
		line[strcspn(line, "\n")] = '\0';
		tab = strchr(line, '\t');
		assert_non_null(tab);
		*tab = '\0';
		assert_true(plan_tracer_is_latency(line));
		assert_string_equal(plan_tracer_config(line), tab + 1);
		n++;
	}
	fclose(f);
	assert_int_equal(n, 6);
}

static void test_latency_names(void **state)
{
	static const char *const no[] = { "hwlat", "osnoise", "timerlat", "function",
					  "function_graph", "nop", "blk", "irqsof", "" };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(no) / sizeof(no[0]); i++)
		assert_false(plan_tracer_is_latency(no[i]));
	assert_false(plan_tracer_is_latency(NULL));
	assert_string_equal(plan_tracer_config("hwlat"), "CONFIG_HWLAT_TRACER");
	assert_null(plan_tracer_config("nop"));
}

static void test_latency_instance(void **state)
{
	const char *const top[] = { "-p", "irqsoff", "true", NULL };
	const char *const inst[] = { "-e", "sched", "-B", "a", "-p", "wakeup_rt", NULL };
	const char *const none[] = { "-p", "hwlat", NULL };
	struct plan p;

	(void)state;
	assert_int_equal(parse_argv(&p, "record", top), 0);
	assert_int_equal(plan_latency_instance(&p), 0);
	plan_release(&p);
	assert_int_equal(parse_argv(&p, "record", inst), 0);
	assert_int_equal(plan_latency_instance(&p), 1);
	plan_release(&p);
	assert_int_equal(parse_argv(&p, "record", none), 0);
	assert_int_equal(plan_latency_instance(&p), -1);
	plan_release(&p);
}

static void test_refusals(void **state)
{
	const char *const stream[] = { "-p", "wakeup", NULL };
	const char *const net[] = { "-N", "host:1234", "-p", "irqsoff", "true", NULL };
	const char *const mixed[] = { "-p", "irqsoff", "-B", "b", "-p", "function", NULL };
	const char *const events[] = { "-e", "sched", "-B", "b", "-p", "preemptoff", NULL };
	const char *const plain[] = { "-p", "function", "-N", "host:1", NULL };
	char msg[512];

	(void)state;
	assert_int_equal(check("stream", stream, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "ktrace stream: -p wakeup: a latency tracer"));
	assert_int_equal(check("record", net, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "ktrace record: -N host:1234: a latency tracer's trace"));
	assert_int_equal(check("record", mixed, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "-p irqsoff (in the top instance) cannot be recorded together "
				    "with -p function (in b)"));
	assert_int_equal(check("record", events, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "-p preemptoff (in b) cannot be recorded together with events "
				    "(in the top instance)"));
	/* no latency tracer: nothing to refuse, nothing read */
	assert_int_equal(check("record", plain, msg, sizeof(msg)), 0);
	assert_string_equal(msg, "");
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_latency_table),
		cmocka_unit_test(test_latency_names),
		cmocka_unit_test(test_latency_instance),
		cmocka_unit_test(test_refusals),
	};

	latency_table = argc > 1 ? argv[1] : NULL;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
