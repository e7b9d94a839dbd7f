// SPDX-License-Identifier: GPL-2.0-only
/*
 * A file's tables in a connection, with report's filters: for `ktrace sql` (one connection for
 * every -i) and, in a connection of their own, for the layers above that read them row by row
 * (export --parquet): the same tables, so that a table added here is exported without more code
 * there.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ktrace/dat.h"
#include "ktrace/report.h"
#include "ktrace/strv.h"
#include "../report/report_rows.h"
#include "sql.h"

int sql_trace_open(sqlite3 *db, struct sql_trace *t, const char *path,
		   const struct report_opts *filters, struct strbuf *err)
{
	int ret = dat_file_open(path, &t->df, err);

	if (ret)
		return ret;
	t->tep = dat_file_tep(t->df);
	ret = report_layouts_new(t->tep, &t->layouts);
	if (!ret && filters && report_opts_has_filters(filters))
		ret = report_filter_new(t->tep, filters, &t->filter, err);
	if (!ret)
		ret = sql_tables_create(db, t, err);
	return ret;
}

void sql_trace_close(struct sql_trace *t)
{
	report_filter_free(t->filter);
	report_layouts_free(t->layouts);
	strv_free(t->tables);
	free(t->formats);
	dat_file_close(t->df);
	t->filter = NULL;
	t->layouts = NULL;
	t->tables = NULL;
	t->formats = NULL;
	t->df = NULL;
}

int sql_open_file(const char *path, const struct report_opts *filters, struct sql_open *o,
		  struct strbuf *err)
{
	memset(o, 0, sizeof(*o));
	o->t.prefix = "";
	/* one thread uses the connection: no mutex around every sqlite3_column_* call */
	if (sqlite3_open_v2(":memory:", &o->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
			    SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
		strbuf_addstr(err, "cannot open an SQLite database in memory");
		return -ENOMEM;
	}
	return sql_trace_open(o->db, &o->t, path, filters, err);
}

void sql_open_close(struct sql_open *o)
{
	sqlite3_close(o->db);
	sql_trace_close(&o->t);
	memset(o, 0, sizeof(*o));
}
