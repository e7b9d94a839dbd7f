/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_EXPORT_PARQUET_DIRECT_H
#define KTRACE_EXPORT_PARQUET_DIRECT_H

/*
 * Inside `export --parquet`: the tables of records (events, one per format) written in one walk
 * of the file, straight from the records (parquet_direct.c); the derived tables still come
 * through SQLite (parquet_export.c).
 */
#include <stdbool.h>

#include "ktrace/strbuf.h"
#include "parquet.h"

struct sql_trace;

/* Whether table is one pq_direct_export writes under this partition */
bool pq_direct_has(const struct sql_trace *t, const char *table, enum pq_partition partition);
/*
 * Every table of tables (strv, each pq_direct_has) into its file, a partition column `part`
 * holding value first when value is not NULL and the table has no such column. 0 or -errno
 * (message in err); a failed export leaves none of its files.
 */
int pq_direct_export(struct sql_trace *t, const struct pq_export_opts *o, char *const *tables,
		     const char *part, const char *value, struct strbuf *err);

#endif
