// SPDX-License-Identifier: GPL-2.0-only
/* plan_parse: every flag lands in the right field, -B scopes, -f/-R attach, errors name flags. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ktrace/options.h"
#include "ktrace/plan.h"
#include "ktrace/strv.h"
#include "plan_test.h"

#define MAX_ARGS 64

/* Parses a NULL-terminated list of arguments after the command name. */
static int parse_args(struct plan *plan, const char *cmd, ...)
{
	char *argv[MAX_ARGS + 1];
	const char *a;
	va_list ap;
	int argc = 0;

	argv[argc++] = (char *)cmd;
	va_start(ap, cmd);
	while ((a = va_arg(ap, const char *)) && argc < MAX_ARGS)
		argv[argc++] = (char *)a;
	va_end(ap);
	argv[argc] = NULL;
	return plan_test_parse(plan, argc, argv);
}

static void test_defaults(void **state)
{
	struct plan p;

	assert_int_equal(parse_args(&p, "record", "-e", "sched", NULL), 0);
	assert_int_equal(p.nr_instances, 1);
	assert_null(p.instances[0].name);
	assert_string_equal(p.output, "trace.dat");
	assert_int_equal(p.compression, KT_COMP_ZSTD);
	assert_false(p.compression_any);
	assert_int_equal(p.file_version, 7);
	assert_null(p.command);
	assert_false(p.quiet || p.keep || p.ignore_missing || p.date);
	plan_release(&p);
}

static void test_event_specs(void **state)
{
	struct plan p;
	struct plan_event *e;

	assert_int_equal(parse_args(&p, "record", "-e", "sched:sched_switch", "-e", "irq",
				    "-e", "all", "-e", "sched:", "-e", "sched:sched_w*", NULL), 0);
	e = p.instances[0].events;
	assert_int_equal(p.instances[0].nr_events, 5);
	assert_string_equal(e[0].system, "sched");
	assert_string_equal(e[0].name, "sched_switch");
	assert_null(e[1].system);
	assert_string_equal(e[1].name, "irq");
	assert_null(e[2].system);
	assert_null(e[2].name);
	assert_string_equal(e[3].system, "sched");
	assert_null(e[3].name);
	assert_string_equal(e[4].name, "sched_w*");
	assert_string_equal(e[4].spec, "sched:sched_w*");
	plan_release(&p);
}

static void test_filter_trigger_attach(void **state)
{
	struct plan p;
	struct plan_event *e;

	assert_int_equal(parse_args(&p, "record", "-e", "a:b", "-f", "x > 1", "-f", "y < 2",
				    "-R", "stacktrace", "-e", "c:d", "-R", "traceoff", "-R",
				    "traceon", NULL), 0);
	e = p.instances[0].events;
	assert_string_equal(e[0].filter, "(x > 1)&&(y < 2)");
	assert_string_equal(e[0].triggers[0], "stacktrace");
	assert_null(e[0].triggers[1]);
	assert_null(e[1].filter);
	assert_string_equal(e[1].triggers[0], "traceoff");
	assert_string_equal(e[1].triggers[1], "traceon");
	assert_null(e[1].triggers[2]);
	plan_release(&p);
}

static void test_negate(void **state)
{
	struct plan p;
	struct plan_instance *in;

	assert_int_equal(parse_args(&p, "record", "-e", "sched", "-v", "-e", "sched:sched_switch",
				    "-e", "irq", "-B", "old", "-B", "x", "-e", "a:b", NULL), 0);
	in = p.instances;
	assert_false(in[0].events[0].negate);
	assert_true(in[0].events[1].negate);
	assert_true(in[0].events[2].negate);
	/* A -v still in force at -B deletes that instance, and ends there (trace-cmd's rule). */
	assert_true(in[1].remove);
	assert_string_equal(in[1].name, "old");
	assert_false(in[2].remove);
	assert_false(in[2].events[0].negate);
	plan_release(&p);
}

static void test_instance_scoping(void **state)
{
	struct plan p;
	struct plan_instance *in;

	assert_int_equal(parse_args(&p, "record", "-p", "nop", "-b", "100", "-e", "a:b",
				    "-B", "one", "-e", "c:d", "-b", "200", "-C", "global", "-M", "3",
				    "-O", "noirq-info", "-T", "-B", "two", "-p", "function", "-l",
				    "f1", "-l", "f2", "-n", "f3", "-g", "f4", "--max-graph-depth", "5",
				    "--func-stack", NULL), 0);
	assert_int_equal(p.nr_instances, 3);
	in = p.instances;
	assert_string_equal(in[0].tracer, "nop");
	assert_int_equal(in[0].buffer_kb, 100);
	assert_int_equal(in[0].nr_events, 1);
	assert_null(in[0].clock);
	assert_string_equal(in[1].name, "one");
	assert_string_equal(in[1].events[0].system, "c");
	assert_int_equal(in[1].buffer_kb, 200);
	assert_string_equal(in[1].clock, "global");
	assert_string_equal(in[1].cpumask, "3");
	assert_string_equal(in[1].options[0], "noirq-info");
	assert_true(in[1].stacktrace);
	assert_false(in[0].stacktrace);
	assert_string_equal(in[2].tracer, "function");
	assert_string_equal(in[2].func_filters[0], "f1");
	assert_string_equal(in[2].func_filters[1], "f2");
	assert_string_equal(in[2].func_notrace[0], "f3");
	assert_string_equal(in[2].graph_funcs[0], "f4");
	assert_int_equal(in[2].max_graph_depth, 5);
	assert_true(in[2].func_stack);
	assert_true(plan_instance_wants_function(&in[2]));
	assert_false(plan_instance_wants_function(&in[1]));
	plan_release(&p);
}

static void test_plan_flags(void **state)
{
	struct plan p;

	assert_int_equal(parse_args(&p, "record", "-e", "a", "-P", "12", "-P", "13,14", "-c", "-o",
				    "out.dat", "-m", "64", "-s", "500", "-i", "-k", "-q", "-a",
				    "--compression", "zlib", "--file-version", "6",
				    "--cmdlines-size", "1024", "--date", NULL), 0);
	assert_int_equal(p.nr_pids, 3);
	assert_int_equal(p.pids[0], 12);
	assert_int_equal(p.pids[2], 14);
	assert_true(p.follow_children);
	assert_string_equal(p.output, "out.dat");
	assert_int_equal(p.max_kb, 64);
	assert_int_equal(p.sleep_us, 500);
	assert_true(p.ignore_missing && p.keep && p.quiet && p.all_formats && p.date);
	assert_int_equal(p.compression, KT_COMP_ZLIB);
	assert_int_equal(p.file_version, 6);
	assert_int_equal(p.cmdlines_size, 1024);
	plan_release(&p);

	assert_int_equal(parse_args(&p, "record", "--compression", "any", "-N", "host:1234",
				    "-e", "a", NULL), 0);
	assert_true(p.compression_any);
	assert_string_equal(p.net_target, "host:1234");
	assert_null(p.output);
	plan_release(&p);
	assert_int_equal(parse_args(&p, "record", "--compression", "none", NULL), 0);
	assert_int_equal(p.compression, KT_COMP_NONE);
	plan_release(&p);
}

static void test_command(void **state)
{
	struct plan p;

	assert_int_equal(parse_args(&p, "record", "-e", "a", "-F", "ls", "-l", "/", NULL), 0);
	assert_true(p.filter_command);
	assert_string_equal(p.command[0], "ls");
	/* Options after the command belong to it. */
	assert_string_equal(p.command[1], "-l");
	assert_string_equal(p.command[2], "/");
	assert_null(p.command[3]);
	plan_release(&p);

	assert_int_equal(parse_args(&p, "record", "-e", "a", "--", "sh", "-c", "true", NULL), 0);
	assert_string_equal(p.command[0], "sh");
	assert_string_equal(p.command[1], "-c");
	plan_release(&p);
}

/* Each bad input is a usage error (the message names the flag, on stderr). */
static void test_errors(void **state)
{
	struct plan p;

#define BAD(...) do { \
		assert_int_equal(parse_args(&p, __VA_ARGS__, NULL), KT_ERR_USAGE); \
		plan_release(&p); \
	} while (0)
	BAD("record", "-f", "x > 1");
	BAD("record", "-R", "traceoff");
	BAD("record", "-e", "a", "-B", "one", "-f", "x");
	BAD("record", "-b", "abc");
	BAD("record", "-b", "0");
	BAD("record", "-b", "12k");
	BAD("record", "-P", "x");
	BAD("record", "-P", "-3");
	BAD("record", "-P", "1,,2");
	BAD("record", "--file-version", "8");
	BAD("record", "--compression", "lz4");
	BAD("record", "-M", "xyz");
	BAD("record", "-B", "a/b");
	BAD("record", "-B", "x", "-B", "x");
	BAD("record", "-p", "nop", "-p", "function");
	BAD("record", "-c", "-e", "a");
	BAD("record", "-F", "-e", "a");
	BAD("record", "-N", "nohost");
	BAD("record", "-o", "x.dat", "-N", "h:1");
	BAD("record", "-o", "a", "-o", "b");
	BAD("record", "--bogus");
	BAD("record", "-e");
	BAD("start", "-o", "x.dat");
	/* start and stream write no file: the options about one are refused, as trace-cmd does */
	BAD("start", "-m", "100");
	BAD("start", "--compression", "zstd");
	BAD("start", "--file-version", "6");
	BAD("stream", "-m", "100");
	BAD("stream", "--compression", "zstd");
	BAD("stream", "--file-version", "6");
	BAD("record", "--fork", "ls");
	BAD("extract", "COMMAND");
#undef BAD
}

static void test_extract(void **state)
{
	struct extract_args x = { 0 };
	char *argv[] = { "extract", "-s", "-a", "-t", "-B", "one", "-o", "x.dat", NULL };
	struct plan p;

	/* -s, -a and -t are extract's own: they fill its struct, and the plan knows none */
	assert_int_equal(plan_parse_own(&plan_cmd_extract, &x, 8, argv, &p), 0);
	assert_true(x.snapshot && x.all_instances && x.top_too);
	assert_false(p.all_formats);
	assert_string_equal(p.instances[1].name, "one");
	assert_string_equal(p.output, "x.dat");
	plan_release(&p);
	x = (struct extract_args){ 0 };
	argv[1] = NULL;
	assert_int_equal(plan_parse_own(&plan_cmd_extract, &x, 1, argv, &p), 0);
	assert_string_equal(p.output, "trace.dat");
	assert_false(x.snapshot);
	plan_release(&p);
	/* Events are not extract's business; record's -s takes a number. */
	argv[1] = "-e";
	argv[2] = "sched";
	argv[3] = NULL;
	assert_true(plan_parse_own(&plan_cmd_extract, &x, 3, argv, &p) == KT_ERR_USAGE);
	plan_release(&p);
	/* trace-cmd extract's -k and --date; -O goes to the instance before it */
	assert_int_equal(parse_args(&p, "extract", "-k", "--date", NULL), 0);
	assert_true(p.keep && p.date);
	plan_release(&p);
	assert_int_equal(parse_args(&p, "extract", "-O", "noirq-info", "-B", "one", "-O",
				    "sym-addr", NULL), 0);
	assert_string_equal(p.instances[0].options[0], "noirq-info");
	assert_string_equal(p.instances[1].options[0], "sym-addr");
	plan_release(&p);
	assert_true(parse_args(&p, "record", "-s", NULL) == KT_ERR_USAGE);
	plan_release(&p);
	assert_true(parse_args(&p, "start", "-e", "a", NULL) == 0);
	assert_null(p.output);
	plan_release(&p);
}

/* start runs a COMMAND as trace-cmd start does; --fork is start's own row */
static void test_start_command(void **state)
{
	char *argv[] = { "start", "--fork", "-e", "sched", "-F", "--", "sleep", "1", NULL };
	bool fork_command = false;
	struct plan p;

	assert_int_equal(plan_parse_own(&plan_cmd_start, &fork_command, 8, argv, &p), 0);
	assert_true(fork_command);
	assert_true(p.filter_command);
	assert_string_equal(p.command[0], "sleep");
	assert_string_equal(p.command[1], "1");
	assert_null(p.command[2]);
	assert_null(p.output);
	plan_release(&p);
	assert_int_equal(parse_args(&p, "start", "-e", "a", "ls", NULL), 0);
	assert_string_equal(p.command[0], "ls");
	plan_release(&p);
}

static void test_stream(void **state)
{
	struct plan p;
	char *argv[] = { "stream", "--filter", "sched_switch", "-e", "sched", NULL };
	char **filters = NULL;

	/* --filter is stream's own: its list, not the plan's */
	assert_int_equal(plan_parse_own(&plan_cmd_stream, &filters, 5, argv, &p), 0);
	assert_non_null(filters);
	assert_string_equal(filters[0], "sched_switch");
	assert_null(filters[1]);
	strv_free(filters);
	plan_release(&p);

	assert_int_equal(parse_args(&p, "stream", "-e", "sched", "-F", "--", "make", "-j2", NULL), 0);
	assert_true(p.filter_command);
	assert_string_equal(p.command[0], "make");
	assert_null(p.output);
	plan_release(&p);
	assert_true(parse_args(&p, "stream", "-o", "x.dat", NULL) == KT_ERR_USAGE);
	plan_release(&p);
}

/* --profile: trace-cmd's events, optional; a user's -e of one gets the stack; -S adds none */
static void test_profile(void **state)
{
	const struct plan_instance *in;
	struct plan p;
	int i, stacks = 0, optional = 0;

	assert_int_equal(parse_args(&p, "record", "-e", "sched_switch", "--profile", NULL), 0);
	in = &p.instances[0];
	assert_true(in->profile);
	assert_null(in->tracer);	/* function_graph is the kernel's to decide, at apply */
	assert_int_equal(in->nr_events, 10);	/* the user's sched_switch + 9 of profile's */
	assert_false(in->events[0].optional);
	assert_true(in->events[0].profile_stack);
	for (i = 0; i < in->nr_events; i++) {
		stacks += in->events[i].profile_stack;
		optional += in->events[i].optional;
	}
	assert_int_equal(stacks, 2);		/* sched_switch and sched_wakeup */
	assert_int_equal(optional, 9);
	assert_string_equal(in->events[9].spec, "raw_syscalls:");
	assert_string_equal(in->events[9].system, "raw_syscalls");
	assert_null(in->events[9].name);
	plan_release(&p);

	assert_int_equal(parse_args(&p, "record", "--profile", "-S", "-e", "irq", NULL), 0);
	assert_int_equal(p.instances[0].nr_events, 1);
	plan_release(&p);
	/* --profile belongs to the instance it is given for */
	assert_int_equal(parse_args(&p, "record", "-e", "irq", "-B", "x", "--profile", NULL), 0);
	assert_false(p.instances[0].profile);
	assert_true(p.instances[1].profile);
	assert_int_equal(p.instances[0].nr_events, 1);
	plan_release(&p);
	/* stream prints events, not a profile */
	assert_true(parse_args(&p, "stream", "--profile", NULL) == KT_ERR_USAGE);
	plan_release(&p);
}

/* issue 20: trace-cmd 3.4's record flags */
static void test_module(void **state)
{
	struct plan p;
	struct plan_instance *in;

	assert_int_equal(parse_args(&p, "record", "-p", "function", "-l", "plain", "--module",
				    "snd", "-l", "*jack*", "-n", "x", "-B", "one", "-p", "function",
				    "--module", "a", "--module", "b", "-g", "y", NULL), 0);
	in = p.instances;
	assert_string_equal(in[0].func_filters[0], "plain");
	assert_string_equal(in[0].func_filters[1], "*jack*:mod:snd");
	assert_null(in[0].func_filters[2]);
	assert_string_equal(in[0].func_notrace[0], "x:mod:snd");
	/* a --module with nothing after it: all of its functions */
	assert_string_equal(in[1].func_filters[0], "*:mod:a");
	assert_string_equal(in[1].graph_funcs[0], "y:mod:b");
	assert_null(in[1].func_filters[1]);
	plan_release(&p);
	assert_int_equal(parse_args(&p, "record", "-p", "function", "--module", "snd", NULL), 0);
	assert_string_equal(p.instances[0].func_filters[0], "*:mod:snd");
	plan_release(&p);
	assert_true(parse_args(&p, "record", "--module", "a:b", NULL) == KT_ERR_USAGE);
	plan_release(&p);
}

static void test_recflags(void **state)
{
	struct plan p;

	assert_int_equal(parse_args(&p, "record", "-e", "sched", "--subbuf-size", "16", "-B", "x",
				    "-e", "irq", "--subbuf-size", "8", "-d", "-K", "--ts-offset",
				    "-0x10", "--temp", "/tmp", "--user", "nobody", "--stderr", "--",
				    "true", NULL), 0);
	assert_int_equal(p.instances[0].subbuf_kb, 16);
	assert_int_equal(p.instances[1].subbuf_kb, 8);
	assert_true(p.no_function_trace && !p.no_ftrace_enabled);
	assert_true(p.keep && p.keep_tracing_on);
	assert_string_equal(p.ts_offset, "-0x10");
	assert_string_equal(p.temp_dir, "/tmp");
	assert_string_equal(p.user, "nobody");
	assert_true(p.stdout_to_stderr);
	plan_release(&p);
	assert_int_equal(parse_args(&p, "record", "-e", "sched", "-D", "-k", NULL), 0);
	assert_true(p.no_function_trace && p.no_ftrace_enabled && p.keep && !p.keep_tracing_on);
	plan_release(&p);
	/* refusals: each names its flag */
	assert_true(parse_args(&p, "record", "--date", "--ts-offset", "5", NULL) == KT_ERR_USAGE);
	plan_release(&p);
	assert_true(parse_args(&p, "record", "--ts-offset", "5x", NULL) == KT_ERR_USAGE);
	plan_release(&p);
	assert_true(parse_args(&p, "record", "--subbuf-size", "0", NULL) == KT_ERR_USAGE);
	plan_release(&p);
	assert_true(parse_args(&p, "record", "-e", "sched", "--user", "nobody", NULL) ==
		    KT_ERR_USAGE);
	plan_release(&p);
	assert_true(parse_args(&p, "start", "--ts-offset", "5", NULL) == KT_ERR_USAGE);
	plan_release(&p);
	assert_true(parse_args(&p, "stream", "--temp", "/tmp", NULL) == KT_ERR_USAGE);
	plan_release(&p);
}

static void test_help(void **state)
{
	struct plan p;
	FILE *saved = stdout;

	stdout = fopen("/dev/null", "w");
	assert_int_equal(parse_args(&p, "record", "-h", NULL), KT_HELP_SHOWN);
	fclose(stdout);
	stdout = saved;
	plan_release(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_profile),
		cmocka_unit_test(test_event_specs),
		cmocka_unit_test(test_filter_trigger_attach),
		cmocka_unit_test(test_negate),
		cmocka_unit_test(test_instance_scoping),
		cmocka_unit_test(test_plan_flags),
		cmocka_unit_test(test_command),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_extract),
		cmocka_unit_test(test_start_command),
		cmocka_unit_test(test_stream),
		cmocka_unit_test(test_module),
		cmocka_unit_test(test_recflags),
		cmocka_unit_test(test_help),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
