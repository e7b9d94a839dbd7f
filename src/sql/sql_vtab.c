// SPDX-License-Identifier: GPL-2.0-only
/*
 * What every table shares: its module, the planning of a scan (xBestIndex: the ts and cpu
 * constraints SQLite may hand to the scan) and the cursor, one sql_scan per scan. A table
 * differs only in its columns after ts and cpu (struct sql_table_ops) and in the event it
 * keeps (event_id, -1 for all).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "sql.h"

struct sql_cursor {
	sqlite3_vtab_cursor base;
	struct sql_scan *scan;
	struct tep_record *record;
	int buffer;
	sqlite3_int64 rowid;
	bool eof;
	struct strbuf err;
};

int sql_table_error(sqlite3_vtab *vtab, const char *fmt, ...)
{
	va_list ap;

	sqlite3_free(vtab->zErrMsg);
	va_start(ap, fmt);
	vtab->zErrMsg = sqlite3_vmprintf(fmt, ap);
	va_end(ap);
	return SQLITE_ERROR;
}

int sql_vtab_new(sqlite3 *db, const char *schema, size_t size, sqlite3_vtab **out)
{
	int ret = sqlite3_declare_vtab(db, schema);
	sqlite3_vtab *vtab;

	if (ret != SQLITE_OK)
		return ret;
	vtab = sqlite3_malloc64(size);
	if (!vtab)
		return SQLITE_NOMEM;
	memset(vtab, 0, size);
	*out = vtab;
	return SQLITE_OK;
}

int sql_walk_open(size_t size, sqlite3_vtab_cursor **out)
{
	struct sql_walk *w = sqlite3_malloc64(size);

	if (!w)
		return SQLITE_NOMEM;
	memset(w, 0, size);
	w->eof = true;
	*out = &w->base;
	return SQLITE_OK;
}

void sql_walk_close(struct sql_walk *w)
{
	sql_scan_close(w->scan);
	strbuf_release(&w->err);
	sqlite3_free(w);
}

static int walk_error(struct sql_walk *w, int ret)
{
	return sql_table_error(w->base.pVtab, "%s", w->err.len ? strbuf_str(&w->err) :
			       strerror(-ret));
}

int sql_walk_restart(struct sql_walk *w, const struct sql_trace *t)
{
	struct sql_range all = SQL_RANGE_ALL;
	int ret;

	sql_scan_close(w->scan);
	w->scan = NULL;
	w->rowid = 0;
	w->eof = false;
	strbuf_reset(&w->err);
	ret = sql_scan_open(t, &all, &w->scan, &w->err);
	if (ret) {
		w->eof = true;
		return walk_error(w, ret);
	}
	return SQLITE_OK;
}

int sql_walk_next(struct sql_walk *w, struct tep_record **record, int *buffer)
{
	int ret = sql_scan_next(w->scan, record, buffer, &w->err);

	if (ret < 0)
		return -walk_error(w, ret);
	return ret;
}

int sql_walk_best_index(sqlite3_vtab *vtab, sqlite3_index_info *info)
{
	info->estimatedCost = 1e9;
	return SQLITE_OK;
}

int sql_walk_eof(sqlite3_vtab_cursor *cur)
{
	return ((struct sql_walk *)cur)->eof;
}

int sql_walk_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *rowid)
{
	*rowid = ((struct sql_walk *)cur)->rowid;
	return SQLITE_OK;
}

/*
 * The constraints handed to xFilter, one pair of characters per argument in idxStr: the
 * column ('t' ts, 'c' cpu) and the operator ('=', '>', 'g' >=, '<', 'l' <=).
 */
static char op_char(unsigned char op)
{
	switch (op) {
	case SQLITE_INDEX_CONSTRAINT_EQ: return '=';
	case SQLITE_INDEX_CONSTRAINT_GT: return '>';
	case SQLITE_INDEX_CONSTRAINT_GE: return 'g';
	case SQLITE_INDEX_CONSTRAINT_LT: return '<';
	case SQLITE_INDEX_CONSTRAINT_LE: return 'l';
	default: return 0;
	}
}

static int best_index(sqlite3_vtab *vtab, sqlite3_index_info *info)
{
	char plan[64];
	int i, n = 0;
	double cost = 1e9;

	for (i = 0; i < info->nConstraint && n + 2 < (int)sizeof(plan); i++) {
		const struct sqlite3_index_constraint *c = &info->aConstraint[i];
		char op = op_char(c->op);

		if (!c->usable || !op || (c->iColumn != SQL_COL_TS && c->iColumn != SQL_COL_CPU))
			continue;
		plan[n++] = c->iColumn == SQL_COL_TS ? 't' : 'c';
		plan[n++] = op;
		info->aConstraintUsage[i].argvIndex = n / 2;
		/* SQLite checks it again: the scan's bounds may be wider (a non-integer value) */
		info->aConstraintUsage[i].omit = 0;
		cost /= c->iColumn == SQL_COL_TS ? 100 : 4;
	}
	plan[n] = '\0';
	info->idxStr = sqlite3_mprintf("%s", plan);
	if (!info->idxStr)
		return SQLITE_NOMEM;
	info->needToFreeIdxStr = 1;
	info->estimatedCost = cost;
	return SQLITE_OK;
}

static int cursor_open(sqlite3_vtab *vtab, sqlite3_vtab_cursor **out)
{
	struct sql_cursor *c = sqlite3_malloc(sizeof(*c));

	if (!c)
		return SQLITE_NOMEM;
	memset(c, 0, sizeof(*c));
	c->eof = true;
	*out = &c->base;
	return SQLITE_OK;
}

static int cursor_close(sqlite3_vtab_cursor *cur)
{
	struct sql_cursor *c = (struct sql_cursor *)cur;

	sql_scan_close(c->scan);
	strbuf_release(&c->err);
	sqlite3_free(c);
	return SQLITE_OK;
}

/* Narrows range by one constraint; a value that is not an integer leaves it to SQLite. */
static void narrow(struct sql_range *range, char col, char op, sqlite3_value *v)
{
	int64_t *lo = col == 't' ? &range->ts_min : &range->cpu_min;
	int64_t *hi = col == 't' ? &range->ts_max : &range->cpu_max;
	sqlite3_int64 x;

	if (sqlite3_value_type(v) != SQLITE_INTEGER)
		return;
	x = sqlite3_value_int64(v);
	if ((op == '=' || op == 'g') && x > *lo)
		*lo = x;
	if (op == '>' && x < INT64_MAX && x + 1 > *lo)
		*lo = x + 1;
	if ((op == '=' || op == 'l') && x < *hi)
		*hi = x;
	if (op == '<' && x > INT64_MIN && x - 1 < *hi)
		*hi = x - 1;
	if (op == '<' && x == INT64_MIN)
		*lo = INT64_MAX;	/* nothing is below: an empty range */
}

static int cursor_next(sqlite3_vtab_cursor *cur)
{
	struct sql_cursor *c = (struct sql_cursor *)cur;
	struct sql_table *t = (struct sql_table *)cur->pVtab;
	int ret;

	for (;;) {
		ret = sql_scan_next(c->scan, &c->record, &c->buffer, &c->err);
		if (ret < 0)
			return sql_table_error(cur->pVtab, "%s", c->err.len ? strbuf_str(&c->err) :
					       strerror(-ret));
		if (!ret) {
			c->eof = true;
			return SQLITE_OK;
		}
		c->rowid++;
		if (t->event_id >= 0 && tep_data_type(t->trace->tep, c->record) != t->event_id)
			continue;
		if (!t->ops->keep || t->ops->keep(c->record))
			return SQLITE_OK;
	}
}

static int cursor_filter(sqlite3_vtab_cursor *cur, int idx, const char *plan, int argc,
			 sqlite3_value **argv)
{
	struct sql_cursor *c = (struct sql_cursor *)cur;
	struct sql_table *t = (struct sql_table *)cur->pVtab;
	struct sql_range range = SQL_RANGE_ALL;
	int i, ret;

	for (i = 0; i < argc && plan && plan[2 * i]; i++)
		narrow(&range, plan[2 * i], plan[2 * i + 1], argv[i]);
	sql_scan_close(c->scan);
	c->scan = NULL;
	c->rowid = 0;
	c->eof = false;
	strbuf_reset(&c->err);
	ret = sql_scan_open(t->trace, &range, &c->scan, &c->err);
	if (ret) {
		c->eof = true;
		return sql_table_error(cur->pVtab, "%s", c->err.len ? strbuf_str(&c->err) :
				       strerror(-ret));
	}
	return cursor_next(cur);
}

static int cursor_eof(sqlite3_vtab_cursor *cur)
{
	return ((struct sql_cursor *)cur)->eof;
}

static int cursor_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int col)
{
	struct sql_cursor *c = (struct sql_cursor *)cur;
	struct sql_table *t = (struct sql_table *)cur->pVtab;

	switch (col) {
	case SQL_COL_TS:
		sqlite3_result_int64(ctx, (sqlite3_int64)c->record->ts);
		return SQLITE_OK;
	case SQL_COL_CPU:
		sqlite3_result_int(ctx, c->record->cpu);
		return SQLITE_OK;
	default:
		return t->ops->column(cur->pVtab, ctx, c->record, c->buffer, col);
	}
}

/* The position of the record in the file's order: unique within one scan of the table. */
static int cursor_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *rowid)
{
	*rowid = ((struct sql_cursor *)cur)->rowid;
	return SQLITE_OK;
}

static int table_disconnect(sqlite3_vtab *vtab)
{
	struct sql_table *t = (struct sql_table *)vtab;

	t->ops->free(vtab);
	return SQLITE_OK;
}

#define SQL_MODULE(CREATE) { \
	.xCreate = CREATE, .xConnect = CREATE, .xBestIndex = best_index, \
	.xDisconnect = table_disconnect, .xDestroy = table_disconnect, .xOpen = cursor_open, \
	.xClose = cursor_close, .xFilter = cursor_filter, .xNext = cursor_next, \
	.xEof = cursor_eof, .xColumn = cursor_column, .xRowid = cursor_rowid }

const sqlite3_module sql_events_module = SQL_MODULE(sql_events_create);
const sqlite3_module sql_format_module = SQL_MODULE(sql_format_create);
const sqlite3_module sql_lost_module = SQL_MODULE(sql_lost_create);
