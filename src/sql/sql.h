/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_SQL_H
#define KTRACE_SQL_H

/*
 * Private to src/sql: `ktrace sql`, SQLite virtual tables over report's reader. No table is
 * copied into a database: every scan of a table walks the file's records with the merge's
 * bounded memory, and the ts/cpu constraints of a query narrow the walk (sql_scan.c).
 *
 *   cmd_sql.c      the options and the flow
 *   sql_scan.c     one walk of the records, narrowed by a ts range and a cpu range
 *   sql_vtab.c     what every table shares: the module, xBestIndex, the cursor
 *   sql_events.c   the events table
 *   sql_format.c   one table per event format of the file
 *   sql_tables.c   the tables of a file and their names
 *   sql_derived.c  views over them: sched_slice, thread_state, wakeup (sql_derived.h)
 *   sql_derived_sys.c  irq, softirq, thread, process
 *   sql_syscall.c  syscall: entries and exits paired per task, in one walk
 *   sql_functions.c    task_state(), syscall_name(), softirq_name(), ksym()
 *   sql_fgraph.c   fgraph_call: function_graph entries and exits paired, per task
 *   sql_meta.c     lost_events, files, instances
 *   sql_run.c      the queries and their output (table, csv, json), and -o
 *   sql_open.c     a file's tables (and report's filters) in a connection; for other layers
 *                  (export), a connection of their own
 *   sql_prompt.c   the interactive prompt, with libedit's line editing and history
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <sqlite3.h>

#include "ktrace/strbuf.h"

struct dat_file;
struct tep_handle;
struct tep_record;
struct report_layouts;
struct report_event_layout;
struct report_filter;

/* The schema the tables have; PRAGMA user_version of the database (and of -o's file). */
#define SQL_SCHEMA_VERSION 2

struct sql_trace;

/* What a per-format table's module is given: its file and its event. */
struct sql_format_ref {
	struct sql_trace *trace;
	int event_id;
	const char *table;	/* its name (one of tables) */
};

/*
 * What the tables of one file read. With several -i (a host and its guests) the tables of the
 * second file are named m1_events, m1_sched_switch..., of the third m2_...: prefix.
 */
struct sql_trace {
	const char *prefix;	/* "" for the first file */
	struct dat_file *df;
	struct tep_handle *tep;
	struct report_layouts *layouts;
	char **tables;		/* the names of the tables, NULL-terminated (strv.h) */
	struct sql_format_ref *formats;	/* one per format table */
	int nr_formats;
	struct report_filter *filter;	/* report's -F/--cpu/--pid/--comm/-I/-S; NULL: none */
};

struct report_opts;

/*
 * Opens path and makes its tables in db as t, whose prefix the caller set; the scans keep what
 * report keeps with the filters of `filters` (one file's: report_cli_input_opts; NULL: every
 * record), which must outlive t. 0 or -errno (message in err); sql_trace_close() takes either.
 */
int sql_trace_open(sqlite3 *db, struct sql_trace *t, const char *path,
		   const struct report_opts *filters, struct strbuf *err);
/* Everything of t but its prefix. */
void sql_trace_close(struct sql_trace *t);

/* ------------------------------------------------------------------ scan */

/* The records a scan may skip: inclusive bounds, as SQL's constraints give them. */
struct sql_range {
	int64_t ts_min, ts_max;
	int64_t cpu_min, cpu_max;
};

#define SQL_RANGE_ALL { INT64_MIN, INT64_MAX, INT64_MIN, INT64_MAX }

struct sql_scan;

/* A walk of t's records that t->filter keeps, within range */
int sql_scan_open(const struct sql_trace *t, const struct sql_range *range,
		  struct sql_scan **out, struct strbuf *err);
/* 1 with the record and its buffer set, 0 at the end, negative errno (message in err). */
int sql_scan_next(struct sql_scan *s, struct tep_record **record, int *buffer,
		  struct strbuf *err);
void sql_scan_close(struct sql_scan *s);

/* ------------------------------------------------------------------ tables */

/* A table's columns after ts and cpu, which every table has first. */
struct sql_table_ops {
	/* 0 or an SQLite error code: column col of the cursor's record */
	int (*column)(sqlite3_vtab *vtab, sqlite3_context *ctx, const struct tep_record *r,
		      int buffer, int col);
	void (*free)(sqlite3_vtab *vtab);
	/* NULL, or false for a record of the table's event that is no row of it */
	bool (*keep)(const struct tep_record *r);
};

/* Every table's sqlite3_vtab: the trace, its columns, and the event it holds (-1: all). */
struct sql_table {
	sqlite3_vtab base;
	struct sql_trace *trace;
	const struct sql_table_ops *ops;
	int event_id;
};

/* The columns every table starts with. */
enum { SQL_COL_TS, SQL_COL_CPU };

/*
 * Declares a table's schema and allocates it zeroed, size bytes whose first member is its
 * sqlite3_vtab (every xCreate starts so); SQLITE_OK or an SQLite error code.
 */
int sql_vtab_new(sqlite3 *db, const char *schema, size_t size, sqlite3_vtab **out);

/*
 * The cursor of a table that pairs records in a walk of its own (fgraph_call, syscall): every
 * record of the file, in order, with no range pushed into it (a pairing needs each task's
 * records from its first on); SQLite filters the rows. Such a cursor embeds it first.
 */
struct sql_walk {
	sqlite3_vtab_cursor base;
	struct sql_scan *scan;
	sqlite3_int64 rowid;	/* the current row's id (xRowid) */
	bool eof;
	struct strbuf err;
};

/* A zeroed cursor of size bytes, at its end until xFilter: SQLITE_OK or SQLITE_NOMEM. */
int sql_walk_open(size_t size, sqlite3_vtab_cursor **out);
/* Frees the walk (the cursor's own state is released before). */
void sql_walk_close(struct sql_walk *w);
/* Starts the walk again from t's first record: SQLITE_OK or the error on the table. */
int sql_walk_restart(struct sql_walk *w, const struct sql_trace *t);
/* 1 with the next record, 0 at the end, or SQLITE_ERROR's negative with the table's message. */
int sql_walk_next(struct sql_walk *w, struct tep_record **record, int *buffer);
/* The module members every walking table shares. */
int sql_walk_best_index(sqlite3_vtab *vtab, sqlite3_index_info *info);
int sql_walk_eof(sqlite3_vtab_cursor *cur);
int sql_walk_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *rowid);

/*
 * A per-format table's first columns: ts, cpu, pid, comm, each named common_NAME when the
 * format has a field of its own with that name (sql_format.c; export --parquet names its
 * columns the same).
 */
#define SQL_FORMAT_NR_COMMON 4
const char *sql_format_common_column(const struct report_event_layout *el, int col);

/* The modules of the tables of records (sql_vtab.c), made by these (their xCreate). */
extern const sqlite3_module sql_events_module, sql_format_module, sql_lost_module;
/* fgraph_call (sql_fgraph.c), syscall (sql_syscall.c): aux is the struct sql_trace */
extern const sqlite3_module sql_fgraph_module, sql_syscall_module, sql_slice_module;
int sql_table_error(sqlite3_vtab *vtab, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

int sql_events_create(sqlite3 *db, void *aux, int argc, const char *const *argv,
		      sqlite3_vtab **out, char **err);
int sql_format_create(sqlite3 *db, void *aux, int argc, const char *const *argv,
		      sqlite3_vtab **out, char **err);
int sql_lost_create(sqlite3 *db, void *aux, int argc, const char *const *argv,
		    sqlite3_vtab **out, char **err);

/* lost_events, fgraph_call, files, instances; 0 or -errno (message in err). */
int sql_meta_create(sqlite3 *db, struct sql_trace *t, struct strbuf *err);

/*
 * Makes every table of the file: each is an eponymous virtual table (its module's name), so
 * that a table costs nothing until a query names it. 0 or -errno (message in err).
 */
int sql_tables_create(sqlite3 *db, struct sql_trace *t, struct strbuf *err);

/* The views of sql_derived.c whose tables the file has; 0 or -errno (message in err). */
int sql_derived_create(sqlite3 *db, struct sql_trace *t, struct strbuf *err);

/* ------------------------------------------------------------------ queries */

enum sql_format {
	SQL_FORMAT_TABLE,
	SQL_FORMAT_CSV,
	SQL_FORMAT_JSON,
};

/* Runs every statement of sql, printing each one's rows; 0 or -EINVAL (message in err). */
int sql_run(sqlite3 *db, const struct sql_trace *t, const char *sql, enum sql_format format,
	    FILE *out, struct strbuf *err);
/*
 * The interactive prompt (stdin a terminal): statements as they are typed, each run as
 * sql_run() runs a QUERY, an error printed without ending it; history in ~/.ktrace_sql_history.
 */
int sql_prompt(sqlite3 *db, const struct sql_trace *t, enum sql_format format, FILE *out);
/* Copies every table into the SQLite file path (which must not exist); 0 or -errno. */
int sql_materialise(sqlite3 *db, const struct sql_trace *t, const char *path,
		    struct strbuf *err);

/* ------------------------------------------------------------------ for other layers */

/*
 * A connection with the tables of one file, as `ktrace sql` has it, for the layers that read
 * the tables themselves (export --parquet): db holds the tables and views, t.tables their
 * names; filters as sql_trace_open() takes them. 0 or -errno (message in err); sql_open_close()
 * takes either.
 */
struct sql_open {
	sqlite3 *db;
	struct sql_trace t;
};

int sql_open_file(const char *path, const struct report_opts *filters, struct sql_open *o,
		  struct strbuf *err);
void sql_open_close(struct sql_open *o);

#endif
