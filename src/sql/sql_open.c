// SPDX-License-Identifier: GPL-2.0-only
/*
 * A file's tables in a connection of their own, for the layers above that read them row by row
 * (export --parquet): the same tables `ktrace sql` has, so that a table added here is exported
 * without more code there.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ktrace/dat.h"
#include "ktrace/strv.h"
#include "../report/report_rows.h"
#include "sql.h"

int sql_open_file(const char *path, struct sql_open *o, struct strbuf *err)
{
	int ret;

	memset(o, 0, sizeof(*o));
	ret = dat_file_open(path, &o->t.df, err);
	if (ret)
		return ret;
	o->t.tep = dat_file_tep(o->t.df);
	ret = report_layouts_new(o->t.tep, &o->t.layouts);
	/* one thread uses the connection: no mutex around every sqlite3_column_* call */
	if (!ret && sqlite3_open_v2(":memory:", &o->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
				    SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
		strbuf_addstr(err, "cannot open an SQLite database in memory");
		ret = -ENOMEM;
	}
	if (!ret)
		ret = sql_tables_create(o->db, &o->t, err);
	return ret;
}

void sql_open_close(struct sql_open *o)
{
	sqlite3_close(o->db);
	report_layouts_free(o->t.layouts);
	strv_free(o->t.tables);
	free(o->t.formats);
	dat_file_close(o->t.df);
	memset(o, 0, sizeof(*o));
}
