// SPDX-License-Identifier: GPL-2.0-only
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ktrace/strbuf.h"

static void test_empty_is_empty_string(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	assert_string_equal(strbuf_str(&sb), "");
	assert_int_equal(sb.len, 0);
}

static void test_add_and_format_grow(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	int i;

	(void)state;
	for (i = 0; i < 1000; i++)
		assert_int_equal(strbuf_addf(&sb, "%d,", i), 0);
	assert_int_equal(strncmp(sb.buf, "0,1,2,", 6), 0);
	assert_int_equal(sb.buf[sb.len], '\0');
	assert_int_equal(sb.len, strlen(sb.buf));
	strbuf_reset(&sb);
	assert_string_equal(strbuf_str(&sb), "");
	strbuf_release(&sb);
	assert_null(sb.buf);
}

static void test_detach_hands_over(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	size_t len;
	char *s;

	(void)state;
	strbuf_addstr(&sb, "abc");
	strbuf_addch(&sb, 'd');
	s = strbuf_detach(&sb, &len);
	assert_string_equal(s, "abcd");
	assert_int_equal(len, 4);
	assert_null(sb.buf);
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty_is_empty_string),
		cmocka_unit_test(test_add_and_format_grow),
		cmocka_unit_test(test_detach_hands_over),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
