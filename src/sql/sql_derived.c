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

static const char sched_slice[] =
	"CREATE TEMP VIEW sched_slice AS SELECT cpu, ts, "
	"lead(ts) OVER w - ts AS dur, next_pid AS pid, next_comm AS comm, "
	"lead(prev_state) OVER w AS end_state "
	"FROM sched_switch WINDOW w AS (PARTITION BY cpu ORDER BY ts) ORDER BY ts, cpu";

static bool has_table(const struct sql_trace *t, const char *name)
{
	int i;

	for (i = 0; t->tables && t->tables[i]; i++)
		if (!strcmp(t->tables[i], name))
			return true;
	return false;
}

int sql_derived_create(sqlite3 *db, struct sql_trace *t, struct strbuf *err)
{
	char *msg = NULL;

	if (!has_table(t, "sched_switch"))
		return 0;
	if (sqlite3_exec(db, sched_slice, NULL, NULL, &msg) != SQLITE_OK) {
		strbuf_addf(err, "sched_slice: %s", msg ? msg : sqlite3_errmsg(db));
		sqlite3_free(msg);
		return -EINVAL;
	}
	return strv_push(&t->tables, "sched_slice");
}
