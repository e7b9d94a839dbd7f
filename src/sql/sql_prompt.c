// SPDX-License-Identifier: GPL-2.0-only
/*
 * The interactive prompt of `ktrace sql` (no QUERY, no -f, stdin a terminal): lines are read
 * with libedit until they make complete statements (sqlite3_complete), which then run as a
 * QUERY would; an error is printed and the prompt goes on. The statements are kept in
 * $HOME/.ktrace_sql_history (the last 1000), read at the start and written at the end.
 * ".tables" lists the tables, ".quit" or end of input (Ctrl-D) ends.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <editline/readline.h>

#include "ktrace/dat.h"
#include "sql.h"

#define HISTORY_FILE ".ktrace_sql_history"
#define HISTORY_MAX 1000

static char *history_path(void)
{
	const char *home = getenv("HOME");
	struct strbuf sb = STRBUF_INIT;

	if (!home || !*home)
		return NULL;
	strbuf_addf(&sb, "%s/%s", home, HISTORY_FILE);
	return strbuf_detach(&sb, NULL);
}

static void list_tables(const struct sql_trace *t, FILE *out)
{
	int i;

	for (i = 0; t->tables && t->tables[i]; i++)
		fprintf(out, "%s%s", i ? " " : "", t->tables[i]);
	fputc('\n', out);
}

/* Runs what the user typed; false when it was ".quit". */
static bool run_input(sqlite3 *db, const struct sql_trace *t, const char *text,
		      enum sql_format format, FILE *out)
{
	struct strbuf err = STRBUF_INIT;

	if (!strcmp(text, ".quit") || !strcmp(text, ".exit"))
		return false;
	if (!strcmp(text, ".tables")) {
		list_tables(t, out);
		return true;
	}
	if (sql_run(db, t, text, format, out, &err))
		fprintf(stderr, "ktrace sql: %s\n", strbuf_str(&err));
	fflush(out);
	strbuf_release(&err);
	return true;
}

int sql_prompt(sqlite3 *db, const struct sql_trace *t, enum sql_format format, FILE *out)
{
	struct strbuf text = STRBUF_INIT;
	char *path = history_path(), *line;
	bool more = true;

	using_history();
	stifle_history(HISTORY_MAX);
	if (path)
		read_history(path);
	fprintf(out, "ktrace sql on %s: statements end with ';', .tables lists the tables, "
		".quit or Ctrl-D ends\n", dat_file_path(t->df));
	while (more && (line = readline(text.len ? "   ...> " : "ktrace> "))) {
		if (text.len)
			strbuf_addch(&text, '\n');
		strbuf_addstr(&text, line);
		free(line);
		if (!text.len)
			continue;
		if (text.buf[0] != '.' && !sqlite3_complete(strbuf_str(&text)))
			continue;
		add_history(strbuf_str(&text));
		more = run_input(db, t, strbuf_str(&text), format, out);
		strbuf_reset(&text);
	}
	if (more)
		fputc('\n', out);
	if (path && write_history(path))
		fprintf(stderr, "ktrace sql: %s: cannot write the history\n", path);
	free(path);
	strbuf_release(&text);
	return 0;
}
