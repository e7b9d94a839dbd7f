// SPDX-License-Identifier: GPL-2.0-only
/*
 * The function_graph printer on its own: a tep holding the kernel's funcgraph formats, records
 * built by hand, and a scripted look-ahead instead of the report stream.
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

#define COMMON_FIELDS \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

static const char exit_fmt[] =
	"name: funcgraph_exit\nID: 10\nformat:\n" COMMON_FIELDS
	"\tfield:unsigned long func;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:int depth;\toffset:16;\tsize:4;\tsigned:1;\n"
	"\tfield:unsigned int overrun;\toffset:20;\tsize:4;\tsigned:0;\n"
	"\tfield:unsigned long long calltime;\toffset:24;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned long long rettime;\toffset:32;\tsize:8;\tsigned:0;\n\n"
	"print fmt: \"<-- %ps (%d) (start: %llx  end: %llx) over: %d\", (void *)REC->func, "
	"REC->depth, REC->calltime, REC->rettime, REC->depth\n";

static const char entry_fmt[] =
	"name: funcgraph_entry\nID: 11\nformat:\n" COMMON_FIELDS
	"\tfield:unsigned long func;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:int depth;\toffset:16;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"--> %ps (%d)\", (void *)REC->func, REC->depth\n";

#define FUNC_A 0xffffffff81100000ULL
#define FUNC_B 0xffffffff81200000ULL

struct script {
	struct tep_record *recs[4];
	int nr, next;
};

struct fixture {
	struct tep_handle *tep;
	struct report_fgraph *fg;
	struct script script;
	uint8_t data[4][40];
	struct tep_record recs[4];
	struct trace_seq s;
};

static struct tep_record *peek(void *priv)
{
	struct script *sc = priv;

	return sc->next < sc->nr ? sc->recs[sc->next] : NULL;
}

static void consume(void *priv)
{
	struct script *sc = priv;

	sc->next++;
}

static void put16(uint8_t *p, uint16_t v) { memcpy(p, &v, 2); }
static void put32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static void put64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }

static struct tep_record *make_entry(struct fixture *f, int i, int pid, uint64_t func, int depth)
{
	memset(f->data[i], 0, sizeof(f->data[i]));
	put16(f->data[i], 11);
	put32(f->data[i] + 4, (uint32_t)pid);
	put64(f->data[i] + 8, func);
	put32(f->data[i] + 16, (uint32_t)depth);
	f->recs[i].data = f->data[i];
	f->recs[i].size = 24;
	return &f->recs[i];
}

static struct tep_record *make_exit(struct fixture *f, int i, int pid, uint64_t func, int depth,
				    uint64_t calltime, uint64_t rettime)
{
	memset(f->data[i], 0, sizeof(f->data[i]));
	put16(f->data[i], 10);
	put32(f->data[i] + 4, (uint32_t)pid);
	put64(f->data[i] + 8, func);
	put32(f->data[i] + 16, (uint32_t)depth);
	put64(f->data[i] + 24, calltime);
	put64(f->data[i] + 32, rettime);
	f->recs[i].data = f->data[i];
	f->recs[i].size = 40;
	return &f->recs[i];
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct report_lookahead la = { peek, consume, NULL };

	assert_non_null(f);
	f->tep = tep_alloc();
	tep_set_long_size(f->tep, 8);
	tep_set_file_bigendian(f->tep, TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(f->tep, TEP_LITTLE_ENDIAN);
	assert_int_equal(tep_parse_event(f->tep, exit_fmt, strlen(exit_fmt), "ftrace"), 0);
	assert_int_equal(tep_parse_event(f->tep, entry_fmt, strlen(entry_fmt), "ftrace"), 0);
	tep_register_function(f->tep, (char *)"vfs_read", FUNC_A, NULL);
	tep_register_function(f->tep, (char *)"ksys_read", FUNC_B, NULL);
	la.priv = &f->script;
	assert_int_equal(report_fgraph_register(f->tep, &la, &f->fg), 0);
	assert_int_equal(report_fgraph_entry_id(f->fg), 11);
	trace_seq_init(&f->s);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	report_fgraph_unregister(f->fg);
	trace_seq_destroy(&f->s);
	tep_free(f->tep);
	free(f);
	return 0;
}

static const char *print(struct fixture *f, struct tep_record *rec)
{
	trace_seq_reset(&f->s);
	tep_print_event(f->tep, &f->s, rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&f->s);
	return f->s.buffer;
}

static void test_leaf_folds_entry_and_exit(void **state)
{
	struct fixture *f = *state;
	struct tep_record *entry = make_entry(f, 0, 5, FUNC_A, 1);

	f->script.recs[f->script.nr++] = make_exit(f, 1, 5, FUNC_A, 1, 1000, 2500);
	assert_string_equal(print(f, entry), "  1.500 us   |    vfs_read();");
	assert_int_equal(f->script.next, 1);
}

static void test_other_task_keeps_nesting(void **state)
{
	struct fixture *f = *state;
	struct tep_record *entry = make_entry(f, 0, 5, FUNC_A, 1);

	f->script.recs[f->script.nr++] = make_exit(f, 1, 6, FUNC_A, 1, 1000, 2500);
	assert_string_equal(print(f, entry), "             |    vfs_read() {");
	assert_int_equal(f->script.next, 0);
}

static void test_other_function_keeps_nesting(void **state)
{
	struct fixture *f = *state;
	struct tep_record *entry = make_entry(f, 0, 5, FUNC_B, 0);

	f->script.recs[f->script.nr++] = make_entry(f, 1, 5, FUNC_A, 1);
	assert_string_equal(print(f, entry), "             |  ksys_read() {");
	/* nothing after it at all: still an opening line */
	f->script.nr = 0;
	assert_string_equal(print(f, entry), "             |  ksys_read() {");
	assert_int_equal(f->script.next, 0);
}

static void test_exit_closes_with_duration(void **state)
{
	struct fixture *f = *state;

	assert_string_equal(print(f, make_exit(f, 0, 5, FUNC_B, 0, 0, 150000)),
			    "! 150.000 us |  }");
	assert_string_equal(print(f, make_exit(f, 0, 5, FUNC_B, 2, 0, 10001)),
			    "+ 10.001 us  |      }");
}

static void test_duration_column(void **state)
{
	struct fixture *f = *state;
	static const struct {
		unsigned long long ns;
		const char *text;
	} cases[] = {
		{ 10000, "  10.000 us  |  " },
		{ 100001, "! 100.001 us |  " },
		{ 1000001, "# 1000.001 us |  " },
		{ 12345678, "# 12345.678 us |  " },
		{ 999999999, "# 999999.999 us |  " },
		{ 1000000001, "$ 1000000 us |  " },
		{ 1234567890123ULL, "$ 1234567890 us |  " },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		trace_seq_reset(&f->s);
		report_fgraph_put_duration(&f->s, cases[i].ns);
		trace_seq_terminate(&f->s);
		assert_string_equal(f->s.buffer, cases[i].text);
	}
}

/* Runs last: libtraceevent keeps -O values for the whole process. */
static void test_depth_and_tailprint_options(void **state)
{
	struct fixture *f = *state;
	struct report_lookahead la = { peek, consume, &f->script };
	struct tep_record *entry;

	report_fgraph_unregister(f->fg);
	tep_plugin_add_option("fgraph:depth", NULL);
	tep_plugin_add_option("fgraph:tailprint", NULL);
	assert_int_equal(report_fgraph_register(f->tep, &la, &f->fg), 0);
	entry = make_entry(f, 0, 5, FUNC_A, 1);
	f->script.recs[f->script.nr++] = make_exit(f, 1, 5, FUNC_A, 1, 1000, 2500);
	assert_string_equal(print(f, entry), "  1.500 us   |    vfs_read(); (1)");
	assert_string_equal(print(f, make_exit(f, 2, 5, FUNC_B, 0, 0, 3000)),
			    "  3.000 us   |  } /* ksys_read */ (0)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_leaf_folds_entry_and_exit, setup, teardown),
		cmocka_unit_test_setup_teardown(test_other_task_keeps_nesting, setup, teardown),
		cmocka_unit_test_setup_teardown(test_other_function_keeps_nesting, setup, teardown),
		cmocka_unit_test_setup_teardown(test_exit_closes_with_duration, setup, teardown),
		cmocka_unit_test_setup_teardown(test_duration_column, setup, teardown),
		cmocka_unit_test_setup_teardown(test_depth_and_tailprint_options, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
