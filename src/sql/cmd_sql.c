// SPDX-License-Identifier: GPL-2.0-only
/*
 * ktrace sql: SQL over a trace.dat file. The file's records are SQLite virtual tables read
 * straight from the file (sql.h): nothing is loaded into a database unless -o asks for one.
 * More -i files (a host's guests) add their tables as m1_*, m2_*..., and a machines table.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ktrace/command.h"
#include "ktrace/dat.h"
#include "ktrace/options.h"
#include "ktrace/strv.h"
#include "../report/report_rows.h"
#include "sql.h"

struct sql_args {
	char **inputs;		/* -i, repeatable (strv.h) */
	const char *input;	/* the first */
	const char *format_name;
	const char *query_file;
	const char *output;
	bool force;
	const char *query;
	enum sql_format format;
};

static const struct kt_option sql_options[] = {
	KT_STRING_LIST('i', "input", "FILE", struct sql_args, inputs,
		       "read FILE (default trace.dat); again for a guest's file: tables m1_*"),
	KT_STRING(256, "format", "FMT", struct sql_args, format_name,
		  "table (default), csv or json (one object per row)"),
	KT_STRING('f', "file", "FILE", struct sql_args, query_file, "read the queries from FILE"),
	KT_STRING('o', "output", "DB", struct sql_args, output,
		  "write every table into the SQLite file DB"),
	KT_BOOL(257, "force", struct sql_args, force, "-o: replace DB if it exists"),
	{ 0 }
};

static const struct kt_command_help sql_help = {
	.name = "sql",
	.usage = "[-i FILE...] [--format table|csv|json] [-o DB [--force]] [-f FILE | QUERY]\n"
		 "(no QUERY nor -f: a prompt on a terminal, else the queries from stdin)",
	.summary = "Run SQL queries over the events of a trace.dat file (see ktrace-sql(1)).",
	.options = sql_options,
};

static int parse(struct sql_args *a, int argc, char **argv)
{
	static const char *const formats[] = { "table", "csv", "json" };
	int ret, idx, i;

	/* options may follow the QUERY; the parser takes argv[0] as the command: the QUERY */
	while (!(ret = kt_parse_options(&sql_help, argc, argv, a, &idx)) && idx < argc) {
		if (a->query)
			return kt_usage_error("sql", "QUERY", argv[idx], "follows the QUERY: quote "
					      "the whole query (statements are separated by ';')");
		a->query = argv[idx];
		argc -= idx;
		argv += idx;
	}
	if (ret)
		return ret;
	if (a->query && a->query_file)
		return kt_usage_error("sql", "-f", a->query_file, "and a QUERY: give one");
	if (a->force && !a->output)
		return kt_usage_error("sql", "--force", NULL, "applies to -o only");
	for (i = 0; a->format_name && i < 3; i++)
		if (!strcmp(a->format_name, formats[i]))
			break;
	if (i == 3)
		return kt_usage_error("sql", "--format", a->format_name,
				      "expected table, csv or json");
	a->format = a->format_name ? (enum sql_format)i : SQL_FORMAT_TABLE;
	if (a->output && strv_len(a->inputs) > 1)
		return kt_usage_error("sql", "-o", a->output, "writes the tables of one input "
				      "file: give one -i");
	a->input = a->inputs ? a->inputs[0] : "trace.dat";
	return 0;
}

/* -o DB: a file that exists is replaced with --force only; a failed copy leaves none. */
static int write_db(sqlite3 *db, const struct sql_args *a, const struct sql_trace *t,
		    struct strbuf *err)
{
	struct stat st;
	int ret;

	if (!lstat(a->output, &st)) {
		if (!a->force) {
			strbuf_addf(err, "%s: exists (--force replaces it)", a->output);
			return -EEXIST;
		}
		if (unlink(a->output)) {
			strbuf_addf(err, "%s: %s", a->output, strerror(errno));
			return -errno;
		}
	}
	ret = sql_materialise(db, t, a->output, err);
	if (ret)
		unlink(a->output);
	return ret;
}

/* The tables of one file, named with its prefix. */
static int open_trace(sqlite3 *db, struct sql_trace *t, const char *path, struct strbuf *err)
{
	int ret = dat_file_open(path, &t->df, err);

	if (!ret) {
		t->tep = dat_file_tep(t->df);
		ret = report_layouts_new(t->tep, &t->layouts);
	}
	if (!ret)
		ret = sql_tables_create(db, t, err);
	return ret;
}

static void close_trace(struct sql_trace *t)
{
	report_layouts_free(t->layouts);
	strv_free(t->tables);
	free(t->formats);
	dat_file_close(t->df);
	free((char *)t->prefix);
}

/*
 * Several -i (a host and its guests): the machines table says which prefix is which file; the
 * guests' ts are on the host's clock (their TimeShift), so their rows can be merged by ts.
 */
static int machines_table(sqlite3 *db, const struct sql_trace *t, int nr, struct strbuf *err)
{
	char *msg = NULL, *sql = sqlite3_mprintf("CREATE TEMP TABLE machines (machine INTEGER, "
						 "prefix TEXT, file TEXT)");
	int i, rc = sql ? sqlite3_exec(db, sql, NULL, NULL, &msg) : SQLITE_NOMEM;

	for (i = 0; i < nr && rc == SQLITE_OK; i++) {
		sqlite3_free(sql);
		sql = sqlite3_mprintf("INSERT INTO machines VALUES (%d, %Q, %Q)", i, t[i].prefix,
				      dat_file_path(t[i].df));
		rc = sql ? sqlite3_exec(db, sql, NULL, NULL, &msg) : SQLITE_NOMEM;
	}
	if (rc != SQLITE_OK)
		strbuf_addf(err, "machines: %s", msg ? msg : sqlite3_errstr(rc));
	sqlite3_free(msg);
	sqlite3_free(sql);
	return rc == SQLITE_OK ? 0 : -ENOMEM;
}

static int run(const struct sql_args *a, struct strbuf *err)
{
	struct strbuf queries = STRBUF_INIT;
	int i, nr = a->inputs ? strv_len(a->inputs) : 1;
	struct sql_trace *t = calloc(nr, sizeof(*t));
	sqlite3 *db = NULL;
	int ret = t ? 0 : -ENOMEM;
	bool prompt = !a->query && !a->query_file && !a->output && isatty(STDIN_FILENO);
	bool from_stdin = !a->query && !a->query_file && !a->output && !prompt;

	if (!ret && a->query_file)
		ret = strbuf_read_file(&queries, a->query_file);
	else if (!ret && from_stdin)
		ret = strbuf_read_fd(&queries, STDIN_FILENO);
	if (ret < 0)
		strbuf_addf(err, "%s: %s", a->query_file ? a->query_file : "stdin", strerror(-ret));
	ret = ret < 0 ? ret : 0;
	if (!ret && sqlite3_open(":memory:", &db) != SQLITE_OK) {
		strbuf_addstr(err, "cannot open an SQLite database in memory");
		ret = -ENOMEM;
	}
	for (i = 0; i < nr && !ret; i++) {
		char prefix[16] = "";

		if (i)
			snprintf(prefix, sizeof(prefix), "m%d_", i);
		t[i].prefix = strdup(prefix);
		ret = t[i].prefix ? open_trace(db, &t[i], i ? a->inputs[i] : a->input, err) :
			-ENOMEM;
	}
	if (!ret && nr > 1)
		ret = machines_table(db, t, nr, err);
	if (!ret && a->output)
		ret = write_db(db, a, &t[0], err);
	if (!ret && (a->query || a->query_file || from_stdin))
		ret = sql_run(db, &t[0], a->query ? a->query : strbuf_str(&queries), a->format,
			      stdout, err);
	if (!ret && prompt)
		ret = sql_prompt(db, &t[0], a->format, stdout);
	if (fflush(stdout) && !ret) {
		strbuf_addf(err, "writing the output: %s", strerror(errno));
		ret = -EIO;
	}
	sqlite3_close(db);
	for (i = 0; t && i < nr; i++)
		close_trace(&t[i]);
	free(t);
	strbuf_release(&queries);
	return ret;
}

int cmd_sql(int argc, char **argv)
{
	struct sql_args a = { 0 };
	struct strbuf err = STRBUF_INIT;
	int ret = parse(&a, argc, argv);

	if (ret) {
		strv_free(a.inputs);
		return ret;
	}
	ret = run(&a, &err);
	if (ret) {
		if (err.len)
			fprintf(stderr, "ktrace sql: %s\n", strbuf_str(&err));
		else
			fprintf(stderr, "ktrace sql: %s: %s\n", a.input, strerror(-ret));
		ret = 1;
	}
	strv_free(a.inputs);
	strbuf_release(&err);
	return ret;
}
