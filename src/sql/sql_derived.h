/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_SQL_DERIVED_H
#define KTRACE_SQL_DERIVED_H

/* Private to the derived tables of src/sql (sql_derived*.c). */
#include "sql.h"

struct sql_view {
	const char *name;
	const char *columns;	/* "a, b, c": the view's column names */
};

/* The table name of the format system:name, NULL when the file lacks it. */
/* NAME with the file's table prefix (sql.h: m1_ for a second -i): sqlite3_free() it */
char *sql_prefixed(const struct sql_trace *t, const char *name);
const char *sql_format_table(const struct sql_trace *t, const char *system, const char *name);
/*
 * A table of its own module (a walk: sql_slice.c, sql_syscall.c, ...), named with the file's
 * prefix and listed in t's tables; 0 or -errno.
 */
int sql_walk_table_create(sqlite3 *db, struct sql_trace *t, const char *table,
			  const sqlite3_module *module, struct strbuf *err);
/* Creates the view v from the SELECT body, or with no rows when body is NULL; 0 or -errno. */
int sql_view_create(sqlite3 *db, struct sql_trace *t, const struct sql_view *v,
		    const char *body, struct strbuf *err);

int sql_functions_create(sqlite3 *db, struct sql_trace *t, struct strbuf *err);
int sql_sys_views_create(sqlite3 *db, struct sql_trace *t, struct strbuf *err);

#endif
