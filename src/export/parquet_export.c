// SPDX-License-Identifier: GPL-2.0-only
/*
 * `ktrace export --parquet`: the sql layer's tables of each input, read with `SELECT *` so that
 * a table the sql layer gains is exported without code here, each into a Parquet file. Column
 * kinds come from the declared types (INTEGER, TEXT, BLOB, REAL) and, for a view's computed
 * column, from its first value. A file is written under a temporary name beside its final one,
 * fsync'ed and renamed: a full disk or a failure leaves no half file under the final name.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ktrace/dat.h"
#include "ktrace/dat_format.h"
#include "ktrace/report.h"
#include "ktrace/strv.h"
#include "../sql/sql.h"
#include "parquet.h"
#include "parquet_direct.h"
#include "parquet_file.h"
#include "parquet_writer.h"

static const char *const partition_names[] = { NULL, "file", "host", "instance" };

/* One table's rows into one file: the statement, and the partition column before its own */
struct pq_table_out {
	const char *table;
	const char *path;		/* the final name */
	const char *part_name;		/* the partition column, NULL: none */
	const char *part_value;
	const char *where_instance;	/* --partition instance: the instance's rows only */
	bool top_instance;		/* the top buffer's rows (instance IS NULL) */
};

static enum pq_kind kind_of_decl(const char *decl)
{
	char up[32];
	size_t i;

	if (!decl || !*decl)
		return PQ_KIND_NONE;
	for (i = 0; decl[i] && i < sizeof(up) - 1; i++)
		up[i] = (char)(decl[i] >= 'a' && decl[i] <= 'z' ? decl[i] - 32 : decl[i]);
	up[i] = '\0';
	/* SQLite's affinity rules, in their order */
	if (strstr(up, "INT"))
		return PQ_KIND_INT64;
	if (strstr(up, "CHAR") || strstr(up, "CLOB") || strstr(up, "TEXT"))
		return PQ_KIND_TEXT;
	if (strstr(up, "BLOB"))
		return PQ_KIND_BLOB;
	return PQ_KIND_DOUBLE;
}

static enum pq_kind kind_of_value(int type)
{
	switch (type) {
	case SQLITE_INTEGER: return PQ_KIND_INT64;
	case SQLITE_FLOAT: return PQ_KIND_DOUBLE;
	case SQLITE_BLOB: return PQ_KIND_BLOB;
	default: return PQ_KIND_TEXT;
	}
}

static void put_value(struct pq_writer *w, int col, sqlite3_stmt *st, int i)
{
	int type = sqlite3_column_type(st, i);

	if (type == SQLITE_NULL) {
		pq_put_null(w, col);
		return;
	}
	if (pq_writer_kind(w, col) == PQ_KIND_NONE)
		pq_writer_set_kind(w, col, kind_of_value(type));
	switch (pq_writer_kind(w, col)) {
	case PQ_KIND_INT64:
		pq_put_int64(w, col, sqlite3_column_int64(st, i));
		break;
	case PQ_KIND_DOUBLE:
		pq_put_double(w, col, sqlite3_column_double(st, i));
		break;
	default:
		if (type == SQLITE_BLOB)
			pq_put_bytes(w, col, sqlite3_column_blob(st, i),
				     (size_t)sqlite3_column_bytes(st, i));
		else
			pq_put_bytes(w, col, sqlite3_column_text(st, i),
				     (size_t)sqlite3_column_bytes(st, i));
		break;
	}
}

static int prepare(sqlite3 *db, const struct pq_table_out *to, sqlite3_stmt **st,
		   struct strbuf *err)
{
	char *q;
	int rc;

	if (to->top_instance)
		q = sqlite3_mprintf("SELECT * FROM \"%w\" WHERE instance IS NULL", to->table);
	else if (to->where_instance)
		q = sqlite3_mprintf("SELECT * FROM \"%w\" WHERE instance = %Q", to->table,
				    to->where_instance);
	else
		q = sqlite3_mprintf("SELECT * FROM \"%w\"", to->table);
	if (!q)
		return -ENOMEM;
	rc = sqlite3_prepare_v2(db, q, -1, st, NULL);
	sqlite3_free(q);
	if (rc != SQLITE_OK) {
		strbuf_addf(err, "table %s: %s", to->table, sqlite3_errmsg(db));
		return -EINVAL;
	}
	return 0;
}

/* The writer of the statement's columns, with the partition column first */
static int new_writer(FILE *out, sqlite3_stmt *st, const struct pq_table_out *to,
		      struct pq_writer **w)
{
	int nr = sqlite3_column_count(st), extra = to->part_name ? 1 : 0, i, ret;
	const char **names = calloc((size_t)(nr + extra), sizeof(*names));

	if (!names)
		return -ENOMEM;
	if (extra)
		names[0] = to->part_name;
	for (i = 0; i < nr; i++)
		names[i + extra] = sqlite3_column_name(st, i);
	ret = pq_writer_new(out, names, nr + extra, NULL, w);
	free(names);
	if (ret)
		return ret;
	if (extra)
		pq_writer_set_kind(*w, 0, PQ_KIND_TEXT);
	for (i = 0; i < nr; i++)
		pq_writer_set_kind(*w, i + extra, kind_of_decl(sqlite3_column_decltype(st, i)));
	return 0;
}

static int write_rows(sqlite3 *db, sqlite3_stmt *st, const struct pq_table_out *to, FILE *out,
		      struct strbuf *err)
{
	int nr = sqlite3_column_count(st), extra = to->part_name ? 1 : 0, i, rc, ret;
	size_t part_len = to->part_name ? strlen(to->part_value) : 0;
	struct pq_writer *w = NULL;

	ret = new_writer(out, st, to, &w);
	while (!ret && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (extra)
			pq_put_bytes(w, 0, to->part_value, part_len);
		for (i = 0; i < nr; i++)
			put_value(w, i + extra, st, i);
		ret = pq_writer_end_row(w);
	}
	if (!ret && rc != SQLITE_DONE) {
		/* the virtual tables' messages name the file and what is wrong with it */
		strbuf_addf(err, "table %s: %s", to->table, sqlite3_errmsg(db));
		ret = -EINVAL;
	}
	if (!ret)
		ret = pq_writer_finish(w);
	pq_writer_free(w);
	return ret;
}

/* The rows of one table into its file */
static int write_table(sqlite3 *db, const struct pq_table_out *to, struct pq_file *f,
		       struct strbuf *err)
{
	sqlite3_stmt *st = NULL;
	int ret;

	ret = prepare(db, to, &st, err);
	if (!ret)
		ret = pq_file_open(f, err);
	if (!ret)
		ret = write_rows(db, st, to, f->out, err);
	ret = pq_file_close(f, ret, err);
	sqlite3_finalize(st);
	return ret;
}

static bool has_column(sqlite3 *db, const char *table, const char *column)
{
	sqlite3_stmt *st = NULL;
	char *q = sqlite3_mprintf("SELECT * FROM \"%w\" LIMIT 0", table);
	bool found = false;
	int i;

	if (q && sqlite3_prepare_v2(db, q, -1, &st, NULL) == SQLITE_OK)
		for (i = 0; i < sqlite3_column_count(st) && !found; i++)
			found = !strcmp(sqlite3_column_name(st, i), column);
	sqlite3_finalize(st);
	sqlite3_free(q);
	return found;
}

static int export_one(sqlite3 *db, const struct pq_export_opts *o, struct pq_table_out *to,
		      const char *value, struct strbuf *err)
{
	struct pq_file f = PQ_FILE_INIT;
	int ret = pq_file_target(&f, o, to->table, value, err);

	to->path = f.path.buf;
	if (ret) {
		strbuf_release(&f.path);
		return ret;
	}
	return write_table(db, to, &f, err);
}

/* --partition instance: a file per instance of a table that has the column, top for NULL */
static int export_instances(sqlite3 *db, const struct pq_export_opts *o, const char *table,
			    struct strbuf *err)
{
	struct pq_table_out to = { .table = table };
	char **values = NULL;
	sqlite3_stmt *st = NULL;
	char *q = sqlite3_mprintf("SELECT DISTINCT instance FROM \"%w\"", table);
	bool top = false;
	int i, ret = 0;

	if (!q || sqlite3_prepare_v2(db, q, -1, &st, NULL) != SQLITE_OK) {
		strbuf_addf(err, "table %s: %s", table, sqlite3_errmsg(db));
		ret = -EINVAL;
	}
	while (!ret && sqlite3_step(st) == SQLITE_ROW) {
		if (sqlite3_column_type(st, 0) == SQLITE_NULL)
			top = true;
		else
			ret = strv_push(&values, (const char *)sqlite3_column_text(st, 0));
	}
	sqlite3_finalize(st);
	sqlite3_free(q);
	if (!ret && top) {
		to.top_instance = true;
		ret = export_one(db, o, &to, "top", err);
		to.top_instance = false;
	}
	for (i = 0; !ret && values && values[i]; i++) {
		to.where_instance = values[i];
		ret = export_one(db, o, &to, values[i], err);
	}
	strv_free(values);
	return ret;
}

static int export_table(struct sql_open *so, const struct pq_export_opts *o, const char *table,
			const char *value, struct strbuf *err)
{
	const char *column = partition_names[o->partition];
	struct pq_table_out to = { .table = table };

	if (o->partition == PQ_PARTITION_INSTANCE)
		return has_column(so->db, table, "instance") ?
			export_instances(so->db, o, table, err) :
			export_one(so->db, o, &to, NULL, err);
	if (value && !has_column(so->db, table, column)) {
		to.part_name = column;
		to.part_value = value;
	}
	return export_one(so->db, o, &to, value, err);
}

/* The host the file was recorded on: the second word of its uname ("Linux HOST 6.1.0 ...") */
static int host_of(struct dat_file *df, const char *input, struct strbuf *host,
		   struct strbuf *err)
{
	uint32_t size;
	const char *p = dat_file_option(df, DAT_OPT_UNAME, 0, &size);
	const char *end = p ? p + strnlen(p, size) : NULL, *word;

	strbuf_reset(host);
	if (p) {
		while (p < end && *p != ' ')
			p++;
		while (p < end && *p == ' ')
			p++;
		for (word = p; p < end && *p != ' '; p++)
			;
		if (p > word)
			return strbuf_add(host, word, (size_t)(p - word));
	}
	strbuf_addf(err, "%s: no uname recorded: --partition host needs one (use --partition file)",
		    input);
	return -EINVAL;
}

static bool in_strv(char *const *strv, const char *s)
{
	int i;

	for (i = 0; strv && strv[i]; i++)
		if (!strcmp(strv[i], s))
			return true;
	return false;
}

static void list_tables(struct strbuf *err, char *const *tables)
{
	int i;

	strbuf_addstr(err, " (tables:");
	for (i = 0; tables && tables[i]; i++)
		strbuf_addf(err, "%s %s", i ? "," : "", tables[i]);
	strbuf_addch(err, ')');
}

/* The partition value of one input; a value two inputs share would overwrite files */
static int partition_value(const struct pq_export_opts *o, struct sql_open *so,
			   const char *input, char ***seen, struct strbuf *value,
			   struct strbuf *err)
{
	int ret = 0;

	strbuf_reset(value);
	if (o->partition == PQ_PARTITION_FILE)
		ret = strbuf_addstr(value, input);
	else if (o->partition == PQ_PARTITION_HOST)
		ret = host_of(so->t.df, input, value, err);
	else
		return 0;
	if (!ret && in_strv(*seen, value->buf)) {
		if (o->partition == PQ_PARTITION_FILE)
			strbuf_addf(err, "%s: given twice", input);
		else
			strbuf_addf(err, "%s: host %s is another input's too (use --partition file)",
				    input, value->buf);
		return -EINVAL;
	}
	return ret ? ret : strv_push(seen, value->buf);
}

static int export_input(const struct pq_export_opts *o, int nr, char ***seen, bool *found,
			struct strbuf *err)
{
	const char *input = o->inputs[nr];
	struct strbuf value = STRBUF_INIT;
	char **tables, **direct = NULL;
	struct report_opts one;
	struct sql_open so;
	int i, ret;

	if (o->filters)
		report_cli_input_opts(o->filters, nr, &one);
	ret = sql_open_file(input, o->filters ? &one : NULL, &so, err);
	if (!ret)
		ret = partition_value(o, &so, input, seen, &value, err);
	tables = o->tables ? o->tables : so.t.tables;
	for (i = 0; !ret && tables && tables[i]; i++) {
		if (o->tables && !in_strv(so.t.tables, tables[i])) {
			if (o->nr_inputs > 1)
				continue;
			strbuf_addf(err, "%s: no table %s", input, tables[i]);
			list_tables(err, so.t.tables);
			ret = -ENOENT;
			break;
		}
		if (o->tables)
			found[i] = true;
		if (!o->via_sql && pq_direct_has(&so.t, tables[i], o->partition))
			ret = strv_push(&direct, tables[i]);
		else
			ret = export_table(&so, o, tables[i], value.len ? value.buf : NULL, err);
	}
	if (!ret)
		ret = pq_direct_export(&so.t, o, direct, partition_names[o->partition],
				       value.len ? value.buf : NULL, err);
	strv_free(direct);
	sql_open_close(&so);
	strbuf_release(&value);
	return ret;
}

int pq_export_run(const struct pq_export_opts *o, struct strbuf *err)
{
	int nr_tables = o->tables ? strv_len(o->tables) : 0, i, ret;
	bool *found = calloc((size_t)nr_tables + 1, sizeof(*found));
	char **seen = NULL;

	if (!found)
		return -ENOMEM;
	ret = pq_make_dir(o->dir, err);
	for (i = 0; !ret && i < o->nr_inputs; i++)
		ret = export_input(o, i, &seen, found, err);
	for (i = 0; !ret && i < nr_tables; i++)
		if (!found[i]) {
			strbuf_addf(err, "no input has a table %s", o->tables[i]);
			ret = -ENOENT;
		}
	strv_free(seen);
	free(found);
	return ret;
}
