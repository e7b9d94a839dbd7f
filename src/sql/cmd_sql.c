// SPDX-License-Identifier: GPL-2.0-only
/*
 * ktrace sql: SQL over a trace.dat file. The file's records are SQLite virtual tables read
 * straight from the file (sql.h): nothing is loaded into a database unless -o asks for one.
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
	const char *input;
	const char *format_name;
	const char *query_file;
	const char *output;
	bool force;
	const char *query;
	enum sql_format format;
};

static const struct kt_option sql_options[] = {
	KT_STRING('i', "input", "FILE", struct sql_args, input,
		  "read FILE (default trace.dat)"),
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
	.usage = "[-i FILE] [--format table|csv|json] [-o DB [--force]] [-f FILE | QUERY]\n"
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
	if (!a->input)
		a->input = "trace.dat";
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

static int run(const struct sql_args *a, struct strbuf *err)
{
	struct strbuf queries = STRBUF_INIT;
	struct sql_trace t = { 0 };
	sqlite3 *db = NULL;
	int ret;

	bool prompt = !a->query && !a->query_file && !a->output && isatty(STDIN_FILENO);
	bool from_stdin = !a->query && !a->query_file && !a->output && !prompt;

	if (a->query_file)
		ret = strbuf_read_file(&queries, a->query_file);
	else
		ret = from_stdin ? strbuf_read_fd(&queries, STDIN_FILENO) : 0;
	if (ret < 0) {
		strbuf_addf(err, "%s: %s", a->query_file ? a->query_file : "stdin", strerror(-ret));
		return ret;
	}
	ret = dat_file_open(a->input, &t.df, err);
	if (!ret) {
		t.tep = dat_file_tep(t.df);
		ret = report_layouts_new(t.tep, &t.layouts);
	}
	if (!ret && sqlite3_open(":memory:", &db) != SQLITE_OK) {
		strbuf_addstr(err, "cannot open an SQLite database in memory");
		ret = -ENOMEM;
	}
	if (!ret)
		ret = sql_tables_create(db, &t, err);
	if (!ret && a->output)
		ret = write_db(db, a, &t, err);
	if (!ret && (a->query || a->query_file || from_stdin))
		ret = sql_run(db, &t, a->query ? a->query : strbuf_str(&queries), a->format,
			      stdout, err);
	if (!ret && prompt)
		ret = sql_prompt(db, &t, a->format, stdout);
	if (fflush(stdout) && !ret) {
		strbuf_addf(err, "writing the output: %s", strerror(errno));
		ret = -EIO;
	}
	sqlite3_close(db);
	report_layouts_free(t.layouts);
	strv_free(t.tables);
	free(t.formats);
	dat_file_close(t.df);
	strbuf_release(&queries);
	return ret;
}

int cmd_sql(int argc, char **argv)
{
	struct sql_args a = { 0 };
	struct strbuf err = STRBUF_INIT;
	int ret = parse(&a, argc, argv);

	if (ret)
		return ret;
	ret = run(&a, &err);
	if (ret) {
		if (err.len)
			fprintf(stderr, "ktrace sql: %s\n", strbuf_str(&err));
		else
			fprintf(stderr, "ktrace sql: %s: %s\n", a.input, strerror(-ret));
		ret = 1;
	}
	strbuf_release(&err);
	return ret;
}
