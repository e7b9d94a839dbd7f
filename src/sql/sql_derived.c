// SPDX-License-Identifier: GPL-2.0-only
/*
 * The derived tables: views over the format tables, so that they stream as those do.
 *
 *   sched_slice  one row per sched_switch: the task switched in (next_pid, next_comm) ran on
 *                that cpu from ts for dur, until the next sched_switch of the cpu, whose
 *                prev_state is end_state (NULL, as dur, for the last one of each cpu)
 */
#include <errno.h>
#include <string.h>

#include "ktrace/strv.h"
#include "sql.h"

/* both %s: the file's table prefix (sql.h) */
static const char sched_slice[] =
	"CREATE TEMP VIEW %ssched_slice AS SELECT cpu, ts, "
	"lead(ts) OVER w - ts AS dur, next_pid AS pid, next_comm AS comm, "
	"lead(prev_state) OVER w AS end_state "
	"FROM %ssched_switch WINDOW w AS (PARTITION BY cpu ORDER BY ts) ORDER BY ts, cpu";

static bool has_table(const struct sql_trace *t, const char *prefix, const char *name)
{
	size_t len = strlen(prefix);
	int i;

	for (i = 0; t->tables && t->tables[i]; i++)
		if (!strncmp(t->tables[i], prefix, len) && !strcmp(t->tables[i] + len, name))
			return true;
	return false;
}

int sql_derived_create(sqlite3 *db, struct sql_trace *t, struct strbuf *err)
{
	const char *prefix = t->prefix ? t->prefix : "";
	char *msg = NULL, *sql, *name;
	int ret = 0;

	if (!has_table(t, prefix, "sched_switch"))
		return 0;
	sql = sqlite3_mprintf(sched_slice, prefix, prefix);
	name = sqlite3_mprintf("%ssched_slice", prefix);
	if (!sql || !name) {
		ret = -ENOMEM;
	} else if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		strbuf_addf(err, "%s: %s", name, msg ? msg : sqlite3_errmsg(db));
		ret = -EINVAL;
	}
	if (!ret)
		ret = strv_push(&t->tables, name);
	sqlite3_free(msg);
	sqlite3_free(sql);
	sqlite3_free(name);
	return ret;
}
