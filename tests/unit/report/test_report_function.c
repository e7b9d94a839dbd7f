// SPDX-License-Identifier: GPL-2.0-only
/*
 * report_function prints ftrace:function without plugin_function: a sequence of calls goes
 * through the real plugin and through report_function, line by line; the indentation state
 * (per CPU, with the plugin's stale entries) must evolve the same way in both.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <event-parse.h>
#include <trace-seq.h>

#include "ktrace/report.h"
#include "report_print.h"

static const char function_fmt[] =
	"name: function\nID: 1\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:unsigned long ip;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned long parent_ip;\toffset:16;\tsize:8;\tsigned:0;\n\n"
	"print fmt: \" %ps <-- %ps\", (void *)REC->ip, (void *)REC->parent_ip\n";

#define BASE 0xffffffff81000000ULL
/* function n lives at BASE + n * 0x1000; 0 means an address no symbol covers */
static unsigned long long addr(int n)
{
	return n ? BASE + (unsigned long long)n * 0x1000 + 0x10 : 0x1234;
}

static const char *const names[] = { NULL, "a", "b", "c", "d", "e", "f", "g" };

/* (cpu, caller, callee) */
static const int calls[][3] = {
	{ 0, 1, 2 }, { 0, 2, 3 }, { 0, 3, 4 }, { 0, 4, 5 }, { 0, 2, 6 }, { 0, 5, 7 },
	{ 0, 1, 3 }, { 1, 3, 2 }, { 1, 2, 1 }, { 0, 6, 1 }, { 0, 0, 2 }, { 0, 2, 0 },
	{ 0, 7, 4 }, { 1, 1, 1 }, { 1, 1, 2 }, { 0, 4, 4 }, { 2, 5, 6 }, { 0, 3, 5 },
};

static void test_same_text_as_plugin(void **state)
{
	struct tep_handle *tep = tep_alloc();
	struct tep_plugin_list *plugins;
	struct report_function *rf;
	struct tep_event *event;
	struct trace_seq s;
	struct strbuf sb = STRBUF_INIT;
	struct tep_record rec;
	uint8_t data[24];
	size_t i;
	int n;

	(void)state;
	tep_set_long_size(tep, 8);
	tep_set_file_bigendian(tep, TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, TEP_LITTLE_ENDIAN);
	plugins = tep_load_plugins(tep);
	assert_int_equal(tep_parse_event(tep, function_fmt, strlen(function_fmt), "ftrace"), 0);
	for (n = 1; n < 8; n++)
		tep_register_function(tep, (char *)names[n], BASE + (unsigned long long)n * 0x1000,
				      NULL);
	event = tep_find_event_by_name(tep, "ftrace", "function");
	assert_non_null(event->handler);	/* libtraceevent1-plugin must be installed */
	assert_int_equal(report_function_new(tep, REPORT_TIME_USECS, &rf), 0);
	trace_seq_init(&s);
	memset(&rec, 0, sizeof(rec));
	rec.data = data;
	rec.size = sizeof(data);
	for (i = 0; i < sizeof(calls) / sizeof(calls[0]); i++) {
		uint64_t ip = addr(calls[i][2]), pip = addr(calls[i][1]);

		memset(data, 0, sizeof(data));
		data[0] = 1;
		memcpy(data + 8, &ip, 8);
		memcpy(data + 16, &pip, 8);
		rec.cpu = calls[i][0];
		trace_seq_reset(&s);
		assert_int_equal(event->handler(&s, &rec, event, event->context), 0);
		trace_seq_terminate(&s);
		strbuf_reset(&sb);
		assert_true(report_function_print(rf, &sb, &rec, event->id));
		assert_string_equal(strbuf_str(&sb), s.buffer);
	}
	assert_false(report_function_print(rf, &sb, &rec, 2));
	report_function_free(rf);
	strbuf_release(&sb);
	trace_seq_destroy(&s);
	tep_unload_plugins(plugins, tep);
	tep_free(tep);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_text_as_plugin),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
