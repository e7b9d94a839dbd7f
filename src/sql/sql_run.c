// SPDX-License-Identifier: GPL-2.0-only
/*
 * The queries and their rows: each statement of the text in turn, its rows printed as an
 * aligned table (held until the statement ends, to size the columns), CSV (RFC 4180, a header
 * row) or JSON (one object per row and line, as `report --format json`), the last two streamed.
 * A statement without columns (PRAGMA, CREATE VIEW) prints nothing.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ktrace/strv.h"
#include "../report/report_rows.h"
#include "sql.h"

/* A cell as text: NULL empty, a BLOB in hex (x'0a0b' in the table and CSV). */
static void put_text(sqlite3_stmt *st, int col, struct strbuf *sb)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *b;
	int i, n;

	switch (sqlite3_column_type(st, col)) {
	case SQLITE_NULL:
		return;
	case SQLITE_BLOB:
		b = sqlite3_column_blob(st, col);
		n = sqlite3_column_bytes(st, col);
		strbuf_add(sb, "x'", 2);
		for (i = 0; i < n; i++) {
			strbuf_addch(sb, hex[b[i] >> 4]);
			strbuf_addch(sb, hex[b[i] & 15]);
		}
		strbuf_addch(sb, '\'');
		return;
	default:
		b = sqlite3_column_text(st, col);
		strbuf_add(sb, b, (size_t)sqlite3_column_bytes(st, col));
	}
}

static void put_json(sqlite3_stmt *st, int col, struct strbuf *sb)
{
	struct strbuf text = STRBUF_INIT;

	switch (sqlite3_column_type(st, col)) {
	case SQLITE_NULL:
		strbuf_add(sb, "null", 4);
		return;
	case SQLITE_INTEGER:
		strbuf_addf(sb, "%lld", (long long)sqlite3_column_int64(st, col));
		return;
	case SQLITE_FLOAT:
		strbuf_addf(sb, "%.17g", sqlite3_column_double(st, col));
		return;
	default:
		put_text(st, col, &text);
		report_json_put_str(sb, text.buf ? text.buf : "", text.len);
		strbuf_release(&text);
	}
}

/* The aligned table: every cell of the statement, then the widths. */
struct table {
	int nr_cols;
	char **cells;		/* row-major, the header first (strv.h) */
	size_t *width;
	bool *numeric;		/* a column right-aligned: every value an integer or real */
};

static int table_add_row(struct table *t, sqlite3_stmt *st)
{
	struct strbuf sb = STRBUF_INIT;
	int i, type, ret = 0;

	for (i = 0; i < t->nr_cols && !ret; i++) {
		strbuf_reset(&sb);
		put_text(st, i, &sb);
		type = sqlite3_column_type(st, i);
		if (type != SQLITE_INTEGER && type != SQLITE_FLOAT && type != SQLITE_NULL)
			t->numeric[i] = false;
		if (sb.len > t->width[i])
			t->width[i] = sb.len;
		ret = strv_push(&t->cells, sb.buf ? sb.buf : "");
	}
	strbuf_release(&sb);
	return ret;
}

static void table_print(const struct table *t, FILE *out)
{
	struct strbuf line = STRBUF_INIT;
	int i, col, n = strv_len(t->cells);

	for (i = 0; i < n; i++) {
		int w = (int)t->width[i % t->nr_cols];

		col = i % t->nr_cols;
		if (i / t->nr_cols && t->numeric[col])
			strbuf_addf(&line, "%*s  ", w, t->cells[i]);
		else
			strbuf_addf(&line, "%-*s  ", w, t->cells[i]);
		if (col < t->nr_cols - 1)
			continue;
		/* the last column unpadded */
		while (line.len && line.buf[line.len - 1] == ' ')
			line.len--;
		strbuf_addch(&line, '\n');
		if (i == t->nr_cols - 1) {
			for (col = 0; col < t->nr_cols; col++) {
				size_t k;

				for (k = 0; k < t->width[col]; k++)
					strbuf_addch(&line, '-');
				strbuf_addstr(&line, col < t->nr_cols - 1 ? "  " : "\n");
			}
		}
		fwrite(line.buf, 1, line.len, out);
		strbuf_reset(&line);
	}
	strbuf_release(&line);
}

static int table_init(struct table *t, sqlite3_stmt *st)
{
	int i;

	t->nr_cols = sqlite3_column_count(st);
	t->width = calloc((size_t)t->nr_cols, sizeof(*t->width));
	t->numeric = calloc((size_t)t->nr_cols, sizeof(*t->numeric));
	if (!t->width || !t->numeric)
		return -ENOMEM;
	for (i = 0; i < t->nr_cols; i++) {
		const char *name = sqlite3_column_name(st, i);

		t->numeric[i] = true;
		t->width[i] = strlen(name);
		if (strv_push(&t->cells, name))
			return -ENOMEM;
	}
	return 0;
}

static void table_release(struct table *t)
{
	strv_free(t->cells);
	free(t->width);
	free(t->numeric);
}

static int put_row(sqlite3_stmt *st, enum sql_format format, struct strbuf *line)
{
	int i, n = sqlite3_column_count(st);
	struct strbuf cell = STRBUF_INIT;

	strbuf_reset(line);
	if (format == SQL_FORMAT_JSON)
		strbuf_addch(line, '{');
	for (i = 0; i < n; i++) {
		if (i)
			strbuf_addch(line, ',');
		if (format == SQL_FORMAT_JSON) {
			const char *name = sqlite3_column_name(st, i);

			report_json_put_str(line, name, strlen(name));
			strbuf_addch(line, ':');
			put_json(st, i, line);
			continue;
		}
		strbuf_reset(&cell);
		put_text(st, i, &cell);
		report_csv_put_cell(line, cell.buf ? cell.buf : "", cell.len);
	}
	strbuf_release(&cell);
	if (format == SQL_FORMAT_JSON)
		strbuf_addch(line, '}');
	return strbuf_addch(line, '\n');
}

static int csv_header(sqlite3_stmt *st, struct strbuf *line)
{
	int i;

	strbuf_reset(line);
	for (i = 0; i < sqlite3_column_count(st); i++) {
		const char *name = sqlite3_column_name(st, i);

		if (i)
			strbuf_addch(line, ',');
		report_csv_put_cell(line, name, strlen(name));
	}
	return strbuf_addch(line, '\n');
}

/* Where in the text offset is, as "line L column C" (both from 1). */
static void put_position(struct strbuf *err, const char *text, int offset)
{
	int i, line = 1, col = 1;

	for (i = 0; i < offset && text[i]; i++) {
		col = text[i] == '\n' ? 1 : col + 1;
		line += text[i] == '\n';
	}
	strbuf_addf(err, "line %d column %d: ", line, col);
}

static bool word_at(const char *text, size_t len, const char *p, size_t n)
{
	return (p == text || !(isalnum((unsigned char)p[-1]) || p[-1] == '_')) &&
	       (p + n == text + len || !(isalnum((unsigned char)p[n]) || p[n] == '_'));
}

/* " (TABLE: col, col, ...)" for each table the statement names */
static void put_columns(sqlite3 *db, const struct sql_trace *t, const char *stmt, size_t len,
			struct strbuf *err)
{
	int i;

	for (i = 0; t->tables && t->tables[i]; i++) {
		size_t n = strlen(t->tables[i]);
		const char *p = stmt;
		sqlite3_stmt *info;
		char *q;
		bool named = false;

		while (!named && (p = strcasestr(p, t->tables[i])) && p + n <= stmt + len) {
			named = word_at(stmt, len, p, n);
			p += n;
		}
		if (!named)
			continue;
		q = sqlite3_mprintf("SELECT name FROM pragma_table_info(%Q)", t->tables[i]);
		if (q && sqlite3_prepare_v2(db, q, -1, &info, NULL) == SQLITE_OK) {
			const char *sep = ": ";

			strbuf_addf(err, " (%s", t->tables[i]);
			while (sqlite3_step(info) == SQLITE_ROW) {
				strbuf_addf(err, "%s%s", sep, sqlite3_column_text(info, 0));
				sep = ", ";
			}
			strbuf_addch(err, ')');
			sqlite3_finalize(info);
		}
		sqlite3_free(q);
	}
}

/*
 * SQLite's message, where it is in the text (when SQLite says), and for a name it does not know
 * what there is: every table for a table, the columns of the tables named for a column.
 */
static void explain_error(sqlite3 *db, const struct sql_trace *t, const char *text,
			  const char *stmt, struct strbuf *err)
{
	struct strbuf msg = STRBUF_INIT;
	const char *end;
	int i, offset = sqlite3_error_offset(db);

	/* the message first: the lookups below reset SQLite's */
	strbuf_addstr(&msg, sqlite3_errmsg(db));
	if (offset >= 0)
		put_position(err, text, (int)(stmt - text) + offset);
	strbuf_addstr(err, strbuf_str(&msg));
	if (!strncmp(strbuf_str(&msg), "no such table", 13)) {
		strbuf_addstr(err, " (the tables:");
		for (i = 0; t->tables && t->tables[i]; i++)
			strbuf_addf(err, " %s", t->tables[i]);
		strbuf_addch(err, ')');
	} else if (!strncmp(strbuf_str(&msg), "no such column", 14)) {
		sqlite3_complete(stmt);
		end = strchr(stmt, ';');
		put_columns(db, t, stmt, end ? (size_t)(end - stmt) : strlen(stmt), err);
	}
	strbuf_release(&msg);
}

static int run_statement(sqlite3 *db, const struct sql_trace *t, sqlite3_stmt *st,
			 const char *text, enum sql_format format, FILE *out, struct strbuf *err)
{
	struct strbuf line = STRBUF_INIT;
	struct table table = { 0 };
	bool columns = sqlite3_column_count(st) > 0;
	int rc, ret = 0;

	if (columns && format == SQL_FORMAT_TABLE)
		ret = table_init(&table, st);
	else if (columns && format == SQL_FORMAT_CSV && !csv_header(st, &line))
		fwrite(line.buf, 1, line.len, out);
	while (!ret && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (!columns)
			continue;
		if (format == SQL_FORMAT_TABLE) {
			ret = table_add_row(&table, st);
			continue;
		}
		ret = put_row(st, format, &line);
		if (!ret)
			fwrite(line.buf, 1, line.len, out);
	}
	if (!ret && rc != SQLITE_DONE) {
		explain_error(db, t, text, sqlite3_sql(st), err);
		ret = -EINVAL;
	}
	if (!ret && columns && format == SQL_FORMAT_TABLE)
		table_print(&table, out);
	table_release(&table);
	strbuf_release(&line);
	return ret;
}

int sql_run(sqlite3 *db, const struct sql_trace *t, const char *sql, enum sql_format format,
	    FILE *out, struct strbuf *err)
{
	const char *next = sql, *stmt;
	sqlite3_stmt *st;
	int ret = 0, nth = 0;

	while (!ret && *next) {
		stmt = next;
		if (sqlite3_prepare_v2(db, stmt, -1, &st, &next) != SQLITE_OK) {
			explain_error(db, t, sql, stmt, err);
			return -EINVAL;
		}
		if (!st)
			continue;	/* a comment or blanks */
		if (nth++ && format == SQL_FORMAT_TABLE && sqlite3_column_count(st))
			fputc('\n', out);
		ret = run_statement(db, t, st, sql, format, out, err);
		sqlite3_finalize(st);
	}
	return ret;
}

static int exec(sqlite3 *db, const char *sql, struct strbuf *err)
{
	char *msg = NULL;

	if (!sql)
		return -ENOMEM;
	if (sqlite3_exec(db, sql, NULL, NULL, &msg) == SQLITE_OK)
		return 0;
	strbuf_addstr(err, msg ? msg : sqlite3_errmsg(db));
	sqlite3_free(msg);
	return -EINVAL;
}

int sql_materialise(sqlite3 *db, const struct sql_trace *t, const char *path,
		    struct strbuf *err)
{
	char *sql = sqlite3_mprintf("ATTACH DATABASE %Q AS ktrace_out", path);
	int i, ret = exec(db, sql, err);

	sqlite3_free(sql);
	if (ret)
		return ret;
	ret = exec(db, "BEGIN", err);
	for (i = 0; !ret && t->tables && t->tables[i]; i++) {
		sql = sqlite3_mprintf("CREATE TABLE ktrace_out.\"%w\" AS SELECT * FROM \"%w\"",
				      t->tables[i], t->tables[i]);
		ret = exec(db, sql, err);
		sqlite3_free(sql);
	}
	if (!ret) {
		sql = sqlite3_mprintf("PRAGMA ktrace_out.user_version = %d", SQL_SCHEMA_VERSION);
		ret = exec(db, sql, err);
		sqlite3_free(sql);
	}
	if (!ret)
		ret = exec(db, "COMMIT", err);
	else
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	sqlite3_exec(db, "DETACH DATABASE ktrace_out", NULL, NULL, NULL);
	return ret;
}
