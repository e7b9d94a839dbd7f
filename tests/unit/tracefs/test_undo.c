// SPDX-License-Identifier: GPL-2.0-only
/*
 * The undo list on plain files standing in for tracefs ones: restore gives the saved text
 * back (transformed where tracefs reads differently than it is written), newest first, once.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "ktrace/tfs.h"

static char dir[] = "/tmp/ktrace-undo-test.XXXXXX";

static void put(const char *name, const char *text, struct strbuf *path)
{
	FILE *f;

	strbuf_reset(path);
	strbuf_addf(path, "%s/%s", dir, name);
	/* tfs_write never creates files (tracefs has them all): create them here. */
	f = fopen(path->buf, "a");
	assert_non_null(f);
	fclose(f);
	assert_int_equal(tfs_write(path->buf, text, strlen(text), true), 0);
}

static const char *get(const char *name, struct strbuf *out)
{
	struct strbuf path = STRBUF_INIT;

	strbuf_addf(&path, "%s/%s", dir, name);
	assert_int_equal(tfs_read(path.buf, out), 0);
	strbuf_release(&path);
	return out->buf;
}

static int setup(void **state)
{
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd);
}

static void test_restore(void **state)
{
	struct strbuf path = STRBUF_INIT, sb = STRBUF_INIT;
	struct tfs_undo *undo;

	assert_int_equal(tfs_undo_new(&undo), 0);
	put("tracing_on", "1\n", &path);
	assert_int_equal(tfs_undo_save_file(undo, path.buf), 0);
	put("tracing_on", "0", &path);
	/* A second save of the same file keeps the first (original) value. */
	assert_int_equal(tfs_undo_save_file(undo, path.buf), 0);
	put("filter", "none\n", &path);
	assert_int_equal(tfs_undo_save_file(undo, path.buf), 0);
	put("filter", "x > 1", &path);
	put("buffer_size_kb", "7 (expanded: 1408)\n", &path);
	assert_int_equal(tfs_undo_save_file(undo, path.buf), 0);
	put("buffer_size_kb", "2000", &path);
	put("trace_clock", "local [global] counter\n", &path);
	assert_int_equal(tfs_undo_save_file(undo, path.buf), 0);
	put("trigger", "", &path);
	assert_int_equal(tfs_undo_save_append(undo, path.buf, "!traceoff"), 0);
	/* the function tracer's empty pid lists read "no pid", which they do not take back */
	put("set_ftrace_notrace_pid", "no pid\n", &path);
	assert_int_equal(tfs_undo_save_file(undo, path.buf), 0);
	put("set_ftrace_notrace_pid", "42\n", &path);

	assert_int_equal(tfs_undo_restore(undo), 0);
	assert_string_equal(get("tracing_on", &sb), "1\n");
	assert_string_equal(get("filter", &sb), "0");
	assert_string_equal(get("buffer_size_kb", &sb), "1408");
	assert_string_equal(get("trace_clock", &sb), "global");
	assert_string_equal(get("trigger", &sb), "!traceoff");
	assert_string_equal(get("set_ftrace_notrace_pid", &sb), "");

	/* Idempotent: a second restore writes nothing. */
	put("tracing_on", "0", &path);
	assert_int_equal(tfs_undo_restore(undo), 0);
	assert_string_equal(get("tracing_on", &sb), "0");
	tfs_undo_free(undo);
	strbuf_release(&path);
	strbuf_release(&sb);
}

static void test_keep_and_rmdir(void **state)
{
	struct strbuf path = STRBUF_INIT, sb = STRBUF_INIT;
	struct tfs_undo *undo;
	struct stat st;

	assert_int_equal(tfs_undo_new(&undo), 0);
	put("current_tracer", "nop\n", &path);
	assert_int_equal(tfs_undo_save_file(undo, path.buf), 0);
	put("current_tracer", "function", &path);
	tfs_undo_keep(undo);
	assert_int_equal(tfs_undo_restore(undo), 0);
	assert_string_equal(get("current_tracer", &sb), "function");
	tfs_undo_free(undo);

	assert_int_equal(tfs_undo_new(&undo), 0);
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/inst", dir);
	assert_int_equal(mkdir(path.buf, 0700), 0);
	assert_int_equal(tfs_undo_save_rmdir(undo, path.buf), 0);
	assert_int_equal(tfs_undo_restore(undo), 0);
	assert_int_not_equal(stat(path.buf, &st), 0);
	tfs_undo_free(undo);
	strbuf_release(&path);
	strbuf_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_restore),
		cmocka_unit_test(test_keep_and_rmdir),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
