// SPDX-License-Identifier: GPL-2.0-only
/*
 * The tables of one file: events, then one per event format, named after the event. A name
 * that two systems share, or that another table has, is given as SYSTEM__NAME instead, so that
 * every table name is known from the file's formats alone.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "ktrace/dat.h"
#include "ktrace/strv.h"
#include "sql.h"

/* the tables that are not formats, and names SQLite keeps */
static const char *const fixed_tables[] = {
	"events", "sched_slice", "thread_state", "wakeup", "syscall", "irq", "softirq",
	"fgraph_call", "thread", "process", "lost_events", "files", "instances", NULL
};

static bool is_fixed(const char *name)
{
	int i;

	for (i = 0; fixed_tables[i]; i++)
		if (!strcmp(fixed_tables[i], name))
			return true;
	return !strncmp(name, "sqlite_", 7);
}

static bool name_shared(struct tep_event **all, int nr, const struct tep_event *e)
{
	int i;

	for (i = 0; i < nr; i++)
		if (all[i] != e && !strcmp(all[i]->name, e->name))
			return true;
	return is_fixed(e->name);
}

static int add_table(sqlite3 *db, struct sql_trace *t, const char *name,
		     const sqlite3_module *module, void *aux, struct strbuf *err)
{
	struct strbuf full = STRBUF_INIT;
	int ret = strbuf_addf(&full, "%s%s", t->prefix ? t->prefix : "", name);

	if (!ret && sqlite3_create_module(db, strbuf_str(&full), module, aux) != SQLITE_OK) {
		strbuf_addf(err, "table %s: %s", strbuf_str(&full), sqlite3_errmsg(db));
		ret = -ENOMEM;
	}
	if (!ret)
		ret = strv_push(&t->tables, strbuf_str(&full));
	strbuf_release(&full);
	return ret;
}

static int add_formats(sqlite3 *db, struct sql_trace *t, struct strbuf *err)
{
	struct tep_event **all = tep_list_events(t->tep, TEP_EVENT_SORT_SYSTEM);
	struct strbuf name = STRBUF_INIT;
	int i, nr = tep_get_events_count(t->tep), ret = 0;

	if (!all)
		return -ENOMEM;
	t->formats = calloc(nr ? (size_t)nr : 1, sizeof(*t->formats));
	if (!t->formats)
		return -ENOMEM;
	for (i = 0; i < nr && all[i] && !ret; i++) {
		strbuf_reset(&name);
		if (name_shared(all, nr, all[i]))
			strbuf_addf(&name, "%s__%s", all[i]->system, all[i]->name);
		else
			strbuf_addstr(&name, all[i]->name);
		t->formats[i].trace = t;
		t->formats[i].event_id = all[i]->id;
		ret = add_table(db, t, strbuf_str(&name), &sql_format_module, &t->formats[i], err);
		if (!ret)
			t->formats[t->nr_formats++].table = t->tables[strv_len(t->tables) - 1];
	}
	strbuf_release(&name);
	/* the list is libtraceevent's, kept in the handle */
	return ret;
}

int sql_tables_create(sqlite3 *db, struct sql_trace *t, struct strbuf *err)
{
	char *msg = NULL, *pragma;
	int ret;

	/* trace-cmd adds the blktrace format when it reads records: it is a table too */
	dat_file_add_blk_event(t->df);
	ret = add_table(db, t, "events", &sql_events_module, t, err);
	if (!ret)
		ret = add_formats(db, t, err);
	if (!ret)
		ret = sql_derived_create(db, t, err);
	pragma = sqlite3_mprintf("PRAGMA user_version = %d", SQL_SCHEMA_VERSION);
	if (!ret && (!pragma || sqlite3_exec(db, pragma, NULL, NULL, &msg) != SQLITE_OK)) {
		strbuf_addf(err, "%s", msg ? msg : sqlite3_errmsg(db));
		ret = -EINVAL;
	}
	sqlite3_free(pragma);
	sqlite3_free(msg);
	return ret;
}
