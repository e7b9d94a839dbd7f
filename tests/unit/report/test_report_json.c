// SPDX-License-Identifier: GPL-2.0-only
/* --format json strings and --format csv cells: escaping, invalid UTF-8, RFC 4180 quoting. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ktrace/report.h"
#include "report_rows.h"

static void json_is(const char *in, size_t len, const char *want)
{
	struct strbuf sb = STRBUF_INIT;

	report_json_put_str(&sb, in, len);
	assert_string_equal(strbuf_str(&sb), want);
	strbuf_release(&sb);
}

static void test_json_plain_and_escapes(void **state)
{
	(void)state;
	json_is("", 0, "\"\"");
	json_is("swapper/0", 9, "\"swapper/0\"");
	json_is("a\"b\\c", 5, "\"a\\\"b\\\\c\"");
	json_is("l1\nl2\tx\r", 8, "\"l1\\nl2\\tx\\r\"");
	/* other control characters, and DEL too (legal raw, but invisible) */
	json_is("\x01\x1f\x7f", 3, "\"\\u0001\\u001f\\u007f\"");
	/* a NUL inside the given length is data, not an end */
	json_is("a\0b", 3, "\"a\\u0000b\"");
}

static void test_json_utf8(void **state)
{
	(void)state;
	/* valid sequences of 2, 3 and 4 bytes pass through */
	json_is("\xc3\xa9t\xc3\xa9", 5, "\"\xc3\xa9t\xc3\xa9\"");
	json_is("\xe2\x82\xac", 3, "\"\xe2\x82\xac\"");
	json_is("\xf0\x9f\x98\x80", 4, "\"\xf0\x9f\x98\x80\"");
	/* invalid bytes become \u00XX, one each */
	json_is("\xff", 1, "\"\\u00ff\"");
	json_is("a\xc3", 2, "\"a\\u00c3\"");			/* truncated */
	json_is("\xc0\xaf", 2, "\"\\u00c0\\u00af\"");		/* overlong '/' */
	json_is("\xed\xa0\x80", 3, "\"\\u00ed\\u00a0\\u0080\"");	/* surrogate */
	json_is("\xf4\x90\x80\x80", 4, "\"\\u00f4\\u0090\\u0080\\u0080\""); /* > U+10FFFF */
	json_is("\xe2\x82x", 3, "\"\\u00e2\\u0082x\"");		/* bad continuation */
}

static void cell_is(const char *in, const char *want)
{
	struct strbuf sb = STRBUF_INIT;

	report_csv_put_cell(&sb, in, strlen(in));
	assert_string_equal(strbuf_str(&sb), want);
	strbuf_release(&sb);
}

static void test_csv_quoting(void **state)
{
	(void)state;
	cell_is("kworker/0:1", "kworker/0:1");
	cell_is("", "");
	cell_is("a,b", "\"a,b\"");
	cell_is("say \"hi\"", "\"say \"\"hi\"\"\"");
	cell_is("two\nlines", "\"two\nlines\"");
	cell_is("cr\r", "\"cr\r\"");
	cell_is("[1,2,3]", "\"[1,2,3]\"");
	/* blanks alone need no quotes in RFC 4180 */
	cell_is(" padded ", " padded ");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json_plain_and_escapes),
		cmocka_unit_test(test_json_utf8),
		cmocka_unit_test(test_csv_quoting),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
