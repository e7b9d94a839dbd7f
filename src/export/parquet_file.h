/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_EXPORT_PARQUET_FILE_H
#define KTRACE_EXPORT_PARQUET_FILE_H

/*
 * Inside `export --parquet`: where a table's file goes, and the file itself, written under a
 * temporary name beside its final one, fsync'ed and renamed: a full disk or a failure leaves
 * no half file under the final name (parquet_file.c). parquet_export.c (through SQLite) and
 * parquet_direct.c (straight from the records) both write through it.
 */
#include <stdbool.h>
#include <stdio.h>

#include "ktrace/strbuf.h"
#include "parquet.h"

struct pq_file {
	struct strbuf path;	/* the final name */
	struct strbuf tmp;	/* the temporary one, empty when there is none */
	FILE *out;
};

#define PQ_FILE_INIT { STRBUF_INIT, STRBUF_INIT, NULL }

int pq_make_dir(const char *path, struct strbuf *err);
/*
 * f->path = DIR/TABLE.parquet, or DIR/TABLE/VALUE.parquet with a partition value (the folder
 * made), refused when a file is there without --force. 0 or -errno (message in err).
 */
int pq_file_target(struct pq_file *f, const struct pq_export_opts *o, const char *table,
		   const char *value, struct strbuf *err);
/* Opens the temporary file beside f->path as f->out; 0 or -errno (message in err). */
int pq_file_open(struct pq_file *f, struct strbuf *err);
/*
 * ret 0: flushes, syncs and renames the file to its final name; else (or when that fails)
 * removes it. Returns ret or the failure; releases f either way.
 */
int pq_file_close(struct pq_file *f, int ret, struct strbuf *err);

#endif
