// SPDX-License-Identifier: GPL-2.0-only
/*
 * kt_parse_options: typed targets, callbacks, the one message of every mistake, and the table
 * for the shell completion.
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
#include "ktrace/strv.h"

enum { OPT_LEVEL = 256, OPT_QUIET, OPT_LOUD, OPT_OLD };

struct args {
	bool all;
	int level;
	const char *out;
	const char *in;
	char **names;
	unsigned int bits;
	char calls[64];		/* the callbacks' ids and arguments, in order */
	int fail;		/* what the callback returns */
};

static int record_call(void *ctx, int id, const char *arg)
{
	struct args *a = ctx;
	size_t len = strlen(a->calls);

	snprintf(a->calls + len, sizeof(a->calls) - len, "%c%s;", id < 256 ? id : '#',
		 arg ? arg : "");
	return a->fail;
}

static int own_callback(void *ctx, int id, const char *arg)
{
	struct args *a = ctx;

	strcat(a->calls, "own;");
	return 0;
}

static const struct kt_option test_options[] = {
	KT_BOOL('a', "all", struct args, all, "everything"),
	KT_INT(OPT_LEVEL, "level", "N", struct args, level, 1, 9, "a level from 1 to 9"),
	KT_STRING('o', NULL, "FILE", struct args, out, "output"),
	KT_STRING_ONCE('i', NULL, "FILE", struct args, in, "input, once"),
	KT_STRING_LIST('B', NULL, "NAME", struct args, names, "a name (repeatable)"),
	KT_BITS(OPT_QUIET, "quiet", struct args, bits, 1, "bit 1"),
	KT_BITS(OPT_LOUD, "loud", struct args, bits, 6, "bits 2 and 4"),
	KT_NOOP(OPT_OLD, "old", KT_ARG_OPTIONAL, "X", "accepted"),
	KT_OPT('e', NULL, KT_ARG_REQUIRED, "EVENT", "handled by the table's callback"),
	KT_OPT('v', NULL, KT_ARG_NONE, NULL, "handled by the table's callback"),
	KT_CALLBACK('c', NULL, KT_ARG_NONE, NULL, own_callback, "its own callback"),
	{ .id = 'r', .arg = KT_ARG_OPTIONAL, .arg_name = "RE", .help = "next word too",
	  .flags = KT_OPT_NEXT_WORD },
	{ 0 },
};

static const struct kt_command_help test_help = {
	.name = "t",
	.usage = "[OPTIONS] [ARG]",
	.summary = "A test command.",
	.options = test_options,
	.option = record_call,
};

/* What a parse printed on stderr (and stdout, for -h) goes to files read back afterwards. */
struct captured {
	char err[512], out[2048];
	int ret, first;
};

static void read_back(FILE *f, char *buf, size_t size)
{
	size_t n;

	fflush(f);
	rewind(f);
	n = fread(buf, 1, size - 1, f);
	buf[n] = '\0';
}

static void parse_into(struct captured *c, struct args *a, int want_first, ...)
{
	char *argv[16] = { "t" };
	int argc = 1, saved_err = dup(2), saved_out = dup(1);
	FILE *err = tmpfile(), *out = tmpfile();
	va_list ap;

	va_start(ap, want_first);
	while ((argv[argc] = va_arg(ap, char *)))
		argc++;
	va_end(ap);
	assert_non_null(err);
	assert_non_null(out);
	fflush(stdout);
	fflush(stderr);
	dup2(fileno(err), 2);
	dup2(fileno(out), 1);
	c->first = -1;
	c->ret = kt_parse_options(&test_help, argc, argv, a, want_first ? &c->first : NULL);
	fflush(stdout);
	fflush(stderr);
	dup2(saved_err, 2);
	dup2(saved_out, 1);
	close(saved_err);
	close(saved_out);
	read_back(err, c->err, sizeof(c->err));
	read_back(out, c->out, sizeof(c->out));
	fclose(err);
	fclose(out);
}

static void test_typed_targets(void **state)
{
	struct args a = { 0 };
	struct captured c;

	(void)state;
	parse_into(&c, &a, false, "-a", "--level", "7", "-o", "x.dat", "-B", "one", "-B", "two",
		   "--quiet", "--loud", "--old=3", NULL);
	assert_int_equal(c.ret, 0);
	assert_string_equal(c.err, "");
	assert_true(a.all);
	assert_int_equal(a.level, 7);
	assert_string_equal(a.out, "x.dat");
	assert_non_null(a.names);
	assert_string_equal(a.names[0], "one");
	assert_string_equal(a.names[1], "two");
	assert_null(a.names[2]);
	assert_int_equal(a.bits, 7);
	strv_free(a.names);
}

static void test_callbacks_in_order(void **state)
{
	struct args a = { 0 };
	struct captured c;

	(void)state;
	parse_into(&c, &a, false, "-e", "sched", "-v", "-c", "-e", "irq", NULL);
	assert_int_equal(c.ret, 0);
	assert_string_equal(a.calls, "esched;v;own;eirq;");
}

static void test_callback_errors(void **state)
{
	struct args a = { .fail = -EINVAL };
	struct captured c;

	(void)state;
	/* -EINVAL: the callback printed its message; a usage error */
	parse_into(&c, &a, false, "-e", "x", "-v", NULL);
	assert_int_equal(c.ret, KT_ERR_USAGE);
	assert_string_equal(a.calls, "ex;");
	/* any other errno: the parser names the flag and the cause */
	memset(&a, 0, sizeof(a));
	a.fail = -ENOMEM;
	parse_into(&c, &a, false, "-v", NULL);
	assert_int_equal(c.ret, KT_ERR_FAILED);
	assert_string_equal(c.err, "ktrace t: -v: Cannot allocate memory\n");
}

static void test_unknown_option(void **state)
{
	struct args a = { 0 };
	struct captured c;

	(void)state;
	parse_into(&c, &a, false, "-x", NULL);
	assert_int_equal(c.ret, KT_ERR_USAGE);
	assert_string_equal(c.err, "ktrace t: unknown option '-x' (see 'ktrace t -h')\n");
	parse_into(&c, &a, false, "--nope", NULL);
	assert_int_equal(c.ret, KT_ERR_USAGE);
	assert_string_equal(c.err, "ktrace t: unknown option '--nope' (see 'ktrace t -h')\n");
}

static void test_missing_argument(void **state)
{
	struct args a = { 0 };
	struct captured c;

	(void)state;
	parse_into(&c, &a, false, "-o", NULL);
	assert_int_equal(c.ret, KT_ERR_USAGE);
	assert_string_equal(c.err, "ktrace t: option '-o' needs an argument (see 'ktrace t -h')\n");
	parse_into(&c, &a, false, "--level", NULL);
	assert_int_equal(c.ret, KT_ERR_USAGE);
	assert_string_equal(c.err,
			    "ktrace t: option '--level' needs an argument (see 'ktrace t -h')\n");
}

static void test_bad_number(void **state)
{
	struct args a = { 0 };
	struct captured c;

	(void)state;
	parse_into(&c, &a, false, "--level", "10", NULL);
	assert_int_equal(c.ret, KT_ERR_USAGE);
	assert_string_equal(c.err, "ktrace t: --level '10' is not a number from 1 to 9\n");
	parse_into(&c, &a, false, "--level", "3x", NULL);
	assert_int_equal(c.ret, KT_ERR_USAGE);
	assert_int_equal(a.level, 0);
}

/* a once-only string: the second is refused in the parser's words; a plain one's last wins */
static void test_string_once(void **state)
{
	struct args a = { 0 };
	struct captured c;

	(void)state;
	parse_into(&c, &a, false, "-i", "x", "-o", "p", "-o", "q", NULL);
	assert_int_equal(c.ret, 0);
	assert_string_equal(a.in, "x");
	assert_string_equal(a.out, "q");
	memset(&a, 0, sizeof(a));
	parse_into(&c, &a, false, "-i", "x", "-i", "y", NULL);
	assert_int_equal(c.ret, KT_ERR_USAGE);
	assert_string_equal(c.err, "ktrace t: -i 'y' is a second one: only one is taken\n");
	assert_string_equal(a.in, "x");
}

static void test_stray_argument(void **state)
{
	struct args a = { 0 };
	struct captured c;

	(void)state;
	parse_into(&c, &a, false, "-a", "foo", NULL);
	assert_int_equal(c.ret, KT_ERR_USAGE);
	assert_string_equal(c.err, "ktrace t: unexpected argument 'foo' (see 'ktrace t -h')\n");
	/* with first_arg, the arguments are the command's: options stop at the first one */
	memset(&a, 0, sizeof(a));
	parse_into(&c, &a, true, "-a", "foo", "-v", NULL);
	assert_int_equal(c.ret, 0);
	assert_int_equal(c.first, 2);
	assert_string_equal(a.calls, "");
	parse_into(&c, &a, true, "-a", NULL);
	assert_int_equal(c.ret, 0);
	assert_int_equal(c.first, 2);
	/* "--" ends the options */
	parse_into(&c, &a, true, "--", "-a", NULL);
	assert_int_equal(c.ret, 0);
	assert_int_equal(c.first, 2);
}

static void test_help_shown(void **state)
{
	struct args a = { 0 };
	struct captured c;

	(void)state;
	parse_into(&c, &a, false, "-a", "-h", "-x", NULL);
	assert_int_equal(c.ret, KT_HELP_SHOWN);
	assert_string_equal(c.err, "");
	assert_non_null(strstr(c.out, "usage: ktrace t [OPTIONS] [ARG]\n"));
	assert_non_null(strstr(c.out, "  -a, --all"));
	assert_non_null(strstr(c.out, "  --level N"));
	assert_non_null(strstr(c.out, "  -h, --help"));
	parse_into(&c, &a, false, "--help", NULL);
	assert_int_equal(c.ret, KT_HELP_SHOWN);
}

/* The completion's table: every spelling with its argument, in table order; nothing parsed. */
static void test_completion_table(void **state)
{
	struct args a = { 0 };
	struct captured c;

	(void)state;
	parse_into(&c, &a, false, KT_COMPLETION_FLAG, "-a", NULL);
	assert_int_equal(c.ret, KT_HELP_SHOWN);
	assert_false(a.all);
	assert_string_equal(c.err, "");
	assert_string_equal(c.out, "-a\t\n--all\t\n--level\tN\n-o\tFILE\n-i\tFILE\n-B\tNAME\n--quiet\t\n"
			    "--loud\t\n--old\t[X]\n-e\tEVENT\n-v\t\n-c\t\n-r\t[RE]\n"
			    "-h\t\n--help\t\n");
	/* only as the first argument: elsewhere it is an unknown option */
	parse_into(&c, &a, false, "-a", KT_COMPLETION_FLAG, NULL);
	assert_int_equal(c.ret, KT_ERR_USAGE);
}

static void test_optional_next_word(void **state)
{
	struct args a = { 0 };
	struct captured c;

	(void)state;
	parse_into(&c, &a, false, "-r", "sched.*", "-r", "-v", "-rglued", "-r", NULL);
	assert_int_equal(c.ret, 0);
	assert_string_equal(a.calls, "rsched.*;r;v;rglued;r;");
}

static void test_results_and_errors(void **state)
{
	(void)state;
	assert_int_equal(kt_result_of(0), 0);
	assert_int_equal(kt_result_of(-EINVAL), KT_ERR_USAGE);
	assert_int_equal(kt_result_of(-ENOENT), KT_ERR_FAILED);
	assert_int_equal(kt_result_of(KT_HELP_SHOWN), KT_HELP_SHOWN);
	assert_int_equal(kt_result_of(KT_ERR_USAGE), KT_ERR_USAGE);
	assert_int_equal(kt_result_of(1), KT_ERR_FAILED);
	assert_int_equal(kt_result_of(KT_ERR_FAILED + 1), KT_ERR_FAILED);
	assert_true(KT_HELP_SHOWN > 255 && KT_ERR_USAGE > 255 && KT_ERR_FAILED > 255);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_typed_targets),
		cmocka_unit_test(test_callbacks_in_order),
		cmocka_unit_test(test_callback_errors),
		cmocka_unit_test(test_unknown_option),
		cmocka_unit_test(test_missing_argument),
		cmocka_unit_test(test_bad_number),
		cmocka_unit_test(test_string_once),
		cmocka_unit_test(test_stray_argument),
		cmocka_unit_test(test_help_shown),
		cmocka_unit_test(test_completion_table),
		cmocka_unit_test(test_optional_next_word),
		cmocka_unit_test(test_results_and_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
