// SPDX-License-Identifier: GPL-2.0-only
/*
 * The tables about the file rather than its events:
 *
 *   lost_events  one row per record the ring buffer had dropped events before: its ts, cpu
 *                and instance, and how many were lost (-1: some, the count unknown), as
 *                report's "[N EVENTS DROPPED]" lines say
 *   files        the file read: path, format version, compression, cpus, buffers
 *   instances    one row per buffer of the file: the top one (instance NULL) and each -B
 *                instance, with its cpus, clock and page size
 *
 * files and instances are small tables filled when the file is opened; fgraph_call is
 * sql_fgraph.c's.
 */
#include <errno.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "ktrace/compress.h"
#include "ktrace/dat.h"
#include "ktrace/strv.h"
#include "sql.h"
#include "sql_derived.h"

enum { COL_INSTANCE = SQL_COL_CPU + 1, COL_LOST };

static const char lost_schema[] =
	"CREATE TABLE x(ts INTEGER, cpu INTEGER, instance TEXT, lost INTEGER)";

static int lost_column(sqlite3_vtab *vtab, sqlite3_context *ctx, const struct tep_record *r,
		       int buffer, int col)
{
	const struct sql_table *t = (const struct sql_table *)vtab;
	const struct dat_buffer *b;

	if (col == COL_LOST) {
		sqlite3_result_int64(ctx, r->missed_events > 0 ? r->missed_events : -1);
	} else if (col == COL_INSTANCE) {
		b = dat_file_buffer(t->trace->df, buffer);
		if (b && b->name && *b->name)
			sqlite3_result_text(ctx, b->name, -1, SQLITE_TRANSIENT);
	}
	return SQLITE_OK;
}

static bool lost_keep(const struct tep_record *r)
{
	return r->missed_events != 0;
}

static void lost_free(sqlite3_vtab *vtab)
{
	sqlite3_free(vtab);
}

static const struct sql_table_ops lost_ops = {
	.column = lost_column,
	.free = lost_free,
	.keep = lost_keep,
};

int sql_lost_create(sqlite3 *db, void *aux, int argc, const char *const *argv,
		    sqlite3_vtab **out, char **err)
{
	struct sql_table *t;
	int ret = sql_vtab_new(db, lost_schema, sizeof(*t), out);

	if (ret != SQLITE_OK)
		return ret;
	t = (struct sql_table *)*out;
	t->trace = aux;
	t->ops = &lost_ops;
	t->event_id = -1;
	return SQLITE_OK;
}

static int exec(sqlite3 *db, char *sql, struct strbuf *err)
{
	char *msg = NULL;
	int ret = 0;

	if (!sql)
		return -ENOMEM;
	if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		strbuf_addf(err, "%s", msg ? msg : sqlite3_errmsg(db));
		ret = -EINVAL;
	}
	sqlite3_free(msg);
	sqlite3_free(sql);
	return ret;
}


static int fill(sqlite3 *db, struct sql_trace *t, struct strbuf *err)
{
	enum kt_compression comp = dat_file_compression(t->df);
	const char *p = t->prefix ? t->prefix : "";
	int i, ret;

	ret = exec(db, sqlite3_mprintf(
		"CREATE TEMP TABLE \"%wfiles\"(file TEXT, version INTEGER, compression TEXT, "
		"cpus INTEGER, buffers INTEGER); INSERT INTO \"%wfiles\" VALUES(%Q, %d, %Q, %d, %d); "
		"CREATE TEMP TABLE \"%winstances\"(instance TEXT, cpus INTEGER, clock TEXT, "
		"page_size INTEGER)", p, p, dat_file_path(t->df), dat_file_version(t->df),
		kt_compression_name(comp), dat_file_nr_cpus(t->df),
		dat_file_nr_buffers(t->df), p), err);
	for (i = 0; !ret && i < dat_file_nr_buffers(t->df); i++) {
		const struct dat_buffer *b = dat_file_buffer(t->df, i);

		ret = exec(db, sqlite3_mprintf("INSERT INTO \"%winstances\" VALUES(%Q, %d, %Q, %u)",
					       p, b->name && *b->name ? b->name : NULL, b->nr_cpus,
					       b->clock, b->page_size), err);
	}
	return ret;
}

int sql_meta_create(sqlite3 *db, struct sql_trace *t, struct strbuf *err)
{
	static const char *const names[] = { "files", "instances" };
	int i, ret = sql_walk_table_create(db, t, "lost_events", &sql_lost_module, err);

	if (!ret)
		ret = sql_walk_table_create(db, t, "fgraph_call", &sql_fgraph_module, err);
	if (!ret)
		ret = fill(db, t, err);
	for (i = 0; i < 2 && !ret; i++) {
		char *name = sql_prefixed(t, names[i]);

		if (!name)
			return -ENOMEM;
		ret = strv_push(&t->tables, name);
		sqlite3_free(name);
	}
	return ret;
}
