// SPDX-License-Identifier: GPL-2.0-only
/*
 * ktrace sql: SQL over a trace.dat file. The file's records are SQLite virtual tables read
 * straight from the file (sql.h): nothing is loaded into a database unless -o asks for one.
 * More -i files (a host's guests) add their tables as m1_*, m2_*..., and a machines table.
 * Report's filters (-F, -v, -I, -S, --cpu, --pid, --comm) leave out the records report leaves
 * out before any table sees them, so that a count is what `ktrace report` with them prints.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ktrace/command.h"
#include "ktrace/dat.h"
#include "ktrace/options.h"
#include "ktrace/report.h"
#include "sql.h"

enum {
	OPT_FORMAT = REPORT_OPT_FIRST_FREE,
	OPT_FORCE,
};

struct sql_args {
	struct report_opts o;	/* the inputs and their filters, as report takes them */
	const char *format_name;
	const char *query_file;
	const char *output;
	bool force;
	const char *query;
	enum sql_format format;
};

static const struct kt_option sql_options[] = {
	KT_OPT('i', "input", KT_ARG_REQUIRED, "FILE",
	       "read FILE (default trace.dat); again for a guest's file: tables m1_*"),
	KT_OPT(OPT_FORMAT, "format", KT_ARG_REQUIRED, "FMT",
	       "table (default), csv or json (one object per row)"),
	KT_OPT('f', "file", KT_ARG_REQUIRED, "FILE", "read the queries from FILE"),
	KT_OPT('o', "output", KT_ARG_REQUIRED, "DB", "write every table into the SQLite file DB"),
	KT_OPT(OPT_FORCE, "force", KT_ARG_NONE, NULL, "-o: replace DB if it exists"),
	REPORT_FILTER_OPTIONS,
	{ 0 }
};

static const struct kt_command_help sql_help = {
	.name = "sql",
	.usage = "[-i FILE...] [report's -F/-v/-I/-S/--cpu/--pid/--comm] [--format table|csv|json]"
		 "\n       [-o DB [--force]] [-f FILE | QUERY]\n"
		 "(no QUERY nor -f: a prompt on a terminal, else the queries from stdin)",
	.summary = "Run SQL queries over the events of a trace.dat file (see ktrace-sql(1)).",
	.options = sql_options,
};

static int one_option(void *priv, int id, const char *arg)
{
	struct sql_args *a = priv;

	switch (id) {
	case OPT_FORMAT: a->format_name = arg; return 0;
	case 'f': a->query_file = arg; return 0;
	case 'o': a->output = arg; return 0;
	case OPT_FORCE: a->force = true; return 0;
	default: return -EINVAL;
	}
}

/* options may follow the QUERY */
static int query_arg(void *priv, const char *arg)
{
	struct sql_args *a = priv;

	if (a->query)
		return kt_option_error("sql", "QUERY", arg, "follows the QUERY: quote the whole "
				       "query (statements are separated by ';')");
	a->query = arg;
	return 0;
}

static int check_args(void *priv)
{
	static const char *const formats[] = { "table", "csv", "json" };
	struct sql_args *a = priv;
	int i;

	if (a->query && a->query_file)
		return kt_option_error("sql", "-f", a->query_file, "and a QUERY: give one");
	if (a->force && !a->output)
		return kt_option_error("sql", "--force", NULL, "applies to -o only");
	for (i = 0; a->format_name && i < 3; i++)
		if (!strcmp(a->format_name, formats[i]))
			break;
	if (i == 3)
		return kt_option_error("sql", "--format", a->format_name,
				       "expected table, csv or json");
	a->format = a->format_name ? (enum sql_format)i : SQL_FORMAT_TABLE;
	if (a->output && a->o.nr_more_inputs)
		return kt_option_error("sql", "-o", a->output, "writes the tables of one input "
				       "file: give one -i");
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

/*
 * Every -i's tables in one connection, each file read with its own filters (report's rules:
 * a -F after the second -i filters that file; --cpu, --pid and --comm the first one).
 */
static int run(void *priv, struct strbuf *err)
{
	const struct sql_args *a = priv;
	struct strbuf queries = STRBUF_INIT;
	int i, nr = a->o.nr_more_inputs + 1;
	struct sql_trace *t = calloc(nr, sizeof(*t));
	struct report_opts *one = calloc(nr, sizeof(*one));
	sqlite3 *db = NULL;
	int ret = t && one ? 0 : -ENOMEM;
	bool prompt = !a->query && !a->query_file && !a->output && isatty(STDIN_FILENO);
	bool from_stdin = !a->query && !a->query_file && !a->output && !prompt;

	if (!ret && a->query_file)
		ret = strbuf_read_file(&queries, a->query_file);
	else if (!ret && from_stdin)
		ret = strbuf_read_fd(&queries, STDIN_FILENO);
	if (ret < 0 && ret != -ENOMEM)
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
		report_cli_input_opts(&a->o, i, &one[i]);
		t[i].prefix = strdup(prefix);
		ret = t[i].prefix ? sql_trace_open(db, &t[i], one[i].input, &one[i], err) : -ENOMEM;
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
	for (i = 0; t && i < nr; i++) {
		sql_trace_close(&t[i]);
		free((char *)t[i].prefix);
	}
	free(t);
	free(one);
	strbuf_release(&queries);
	return ret;
}

int cmd_sql(int argc, char **argv)
{
	struct sql_args a = { 0 };
	const struct report_cli cli = {
		.name = "sql", .help = &sql_help, .o = &a.o, .priv = &a, .option = one_option,
		.check = check_args, .run = run, .multi_input = true, .arg = query_arg,
	};

	return report_cli_run(&cli, report_cli_parse(&cli, argc, argv));
}
