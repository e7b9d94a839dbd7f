/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_EXPORT_PARQUET_H
#define KTRACE_EXPORT_PARQUET_H

/*
 * `ktrace export --parquet DIR`: every table `ktrace sql` has (or those named) as one Parquet
 * file each, DIR/TABLE.parquet; with a partition (several inputs: a listen directory, host and
 * guest), DIR/TABLE/VALUE.parquet with the value as a column of its own, so that an engine
 * reads DIR/TABLE/ *.parquet as one table (parquet_export.c). The writer is parquet_writer.h.
 */
#include <stdbool.h>

#include "ktrace/strbuf.h"

struct report_opts;

enum pq_partition {
	PQ_PARTITION_NONE,
	PQ_PARTITION_FILE,	/* the input's path */
	PQ_PARTITION_HOST,	/* the host name the file's uname recorded */
	PQ_PARTITION_INSTANCE,	/* the events' instance (top for the top buffer) */
};

struct pq_export_opts {
	const char *dir;
	const char *const *inputs;
	int nr_inputs;
	char **tables;		/* strv: only these (NULL: all) */
	enum pq_partition partition;
	bool force;		/* replace files that exist */
	bool via_sql;		/* every table through SQLite (the tests' reference) */
	/* report's filters of every input (report_cli_input_opts), or NULL */
	const struct report_opts *filters;
};

/* 0 or -errno, one line in err */
int pq_export_run(const struct pq_export_opts *o, struct strbuf *err);

#endif
