// SPDX-License-Identifier: GPL-2.0-only
/*
 * What `ktrace sqlhist` refuses before libtracefs's SQL parser sees it. libtracefs 1.6.4
 * (Debian's) predates fixes to that parser: 48e906b (the lexer's input returned -1, not 0,
 * without a buffer: tracefs_sql() never gets there, it refuses a NULL buffer first),
 * e6737d4 (build_filter() compared with an uninitialised value when the right side of a WHERE
 * comparison was neither a number nor a string: the grammar only builds those, so that is
 * defence in depth), 1c95394 (update_fields() leaked a cast's field name when out of memory)
 * and a9dae65 (update_vars()'s extra_label, code 1.6.4 does not have yet). The inputs below
 * are the ones that reach 1.6.4's parser in a state it does not handle well: text after a NUL
 * (it measures the buffer with strlen and would silently drop it), bytes its lexer has no rule
 * for (each is a parse error whose caret it places by byte count), a string left open (its
 * lexer's "[^"]*" runs to the end of the input), and parentheses nested deep enough that
 * build_filter()'s recursion and bison's stack (10,000 levels, then "memory exhausted") are
 * the limit instead of the grammar.
 *
 * And one crash that no release fixes (libtracefs's master neither, 2026):
 * tracefs_synth_get_start_hist() adds the keys of a one-event query to a histogram it only
 * allocates at the first key, so a first selection cast AS _COUNTER_ adds the next key to NULL
 * ("SELECT CAST(pid AS _COUNTER_), comm FROM sched_wakeup" crashes trace-cmd 3.4's sqlhist).
 * And one hang: a field selected twice (selected_twice()).
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <strings.h>

#include <event-parse.h>

#include "sqlhist_check.h"

#define SQLHIST_MAX_LEN (64 * 1024)
#define SQLHIST_MAX_DEPTH 64

static int refuse(struct strbuf *err, size_t pos, const char *why)
{
	strbuf_addf(err, "offset %zu: %s", pos, why);
	return -EINVAL;
}

static bool blank(int c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

static bool word_char(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '.' || c == '\\';
}

/* The next word (as the lexer's field rule reads it) at or after *pos, outside strings. */
static bool next_word(const char *sql, size_t len, size_t *pos, size_t *start, size_t *wlen)
{
	size_t i = *pos;

	while (i < len && !word_char(sql[i])) {
		if (sql[i] == '"')
			while (++i < len && sql[i] != '"')
				;
		if (i < len)
			i++;
	}
	*start = i;
	while (i < len && word_char(sql[i]))
		i++;
	*wlen = i - *start;
	*pos = i;
	return *wlen > 0;
}

static bool word_is(const char *sql, size_t start, size_t wlen, const char *w)
{
	return wlen == strlen(w) && !strncasecmp(sql + start, w, wlen);
}

/* Whether word w is in [a, b) outside strings; its offset into *at */
static bool has_word(const char *sql, size_t a, size_t b, const char *w, size_t *at)
{
	size_t pos = a, start, wlen;

	while (next_word(sql, b, &pos, &start, &wlen)) {
		if (word_is(sql, start, wlen, w)) {
			*at = start;
			return true;
		}
	}
	return false;
}

/* Whether the word at offset i (a word's first character) is w */
static bool word_at(const char *sql, size_t len, size_t i, const char *w)
{
	size_t n = strlen(w);

	return (i == 0 || !word_char(sql[i - 1])) && i + n <= len &&
	       !strncasecmp(sql + i, w, n) && (i + n == len || !word_char(sql[i + n]));
}

/* A walk over the selections of "SELECT s1, s2, ... FROM" */
struct select_walk {
	const char *sql;
	size_t len;
	size_t pos;
	bool done;
};

static bool select_walk_start(struct select_walk *w, const char *sql, size_t len)
{
	size_t start, wlen;

	*w = (struct select_walk){ .sql = sql, .len = len };
	return next_word(sql, len, &w->pos, &start, &wlen) && word_is(sql, start, wlen, "select");
}

/* The next selection's [*a, *b): up to a ',' outside parentheses and strings, or FROM */
static bool next_selection(struct select_walk *w, size_t *a, size_t *b)
{
	const char *sql = w->sql;
	size_t i, len = w->len;
	int depth = 0;

	if (w->done)
		return false;
	for (i = w->pos; i < len; i++) {
		if (sql[i] == '"') {
			while (i + 1 < len && sql[++i] != '"')
				;
		} else if (sql[i] == '(') {
			depth++;
		} else if (sql[i] == ')') {
			depth--;
		} else if (!depth && sql[i] == ',') {
			break;
		} else if (!depth && word_at(sql, len, i, "from")) {
			w->done = true;
			break;
		}
	}
	if (i >= len) {
		i = len;
		w->done = true;
	}
	*a = w->pos;
	*b = i;
	w->pos = i + 1;
	return true;
}

/*
 * A one-event query (no JOIN) whose first selection holds _COUNTER_: the offset of that word,
 * or len when there is none.
 */
static size_t first_counter(const char *sql, size_t len)
{
	struct select_walk w;
	size_t a, b, at;

	if (has_word(sql, 0, len, "join", &at) || !select_walk_start(&w, sql, len) ||
	    !next_selection(&w, &a, &b))
		return len;
	return has_word(sql, a, b, "_counter_", &at) ? at : len;
}

/* Whether the '-' at offset i is the one of the cast type SYM-OFFSET (one word to the lexer) */
static bool sym_offset_dash(const char *sql, size_t len, size_t i)
{
	return i >= 3 && word_at(sql, len, i - 3, "sym") && word_at(sql, len, i + 1, "offset");
}

/* Where selection [a, b) names a field alone (FIELD, CAST(FIELD AS TYPE), either AS LABEL) */
static bool plain_field(const char *sql, size_t a, size_t b, size_t *field, size_t *flen)
{
	size_t pos = a, start, wlen, words[6], lens[6], i, n = 0;

	for (i = a; i < b; i++)
		if (strchr("+-*/&|<>=!\"", sql[i]) && !(sql[i] == '-' && sym_offset_dash(sql, b, i)))
			return false;
	while (next_word(sql, b, &pos, &start, &wlen)) {
		if (start && sql[start - 1] == '-' && sym_offset_dash(sql, b, start - 1))
			continue;	/* the OFFSET of SYM-OFFSET */
		if (n == 6)
			return false;
		words[n] = start;
		lens[n++] = wlen;
	}
	i = n && word_is(sql, words[0], lens[0], "cast") ? 1 : 0;
	if (n != i + 1 && n != i + 3 && !(i && n == 6))
		return false;
	if (n > i + 1 && !word_is(sql, words[i + 1], lens[i + 1], "as"))
		return false;
	if (n == 6 && !word_is(sql, words[4], lens[4], "as"))
		return false;
	*field = words[i];
	*flen = lens[i];
	return true;
}

/*
 * A field selected twice (under two labels, or once cast): libtracefs 1.6.4 then grows a list
 * without end ("SELECT next_pid, next_pid AS x FROM sched_switch" takes all the memory there
 * is). The offset of the second one, or len.
 */
static size_t selected_twice(const char *sql, size_t len)
{
	size_t a, b, fields[64], flens[64], nr = 0, f, fl, k;
	struct select_walk w;

	if (!select_walk_start(&w, sql, len))
		return len;
	while (next_selection(&w, &a, &b)) {
		if (!plain_field(sql, a, b, &f, &fl))
			continue;
		for (k = 0; k < nr; k++)
			if (flens[k] == fl && !memcmp(sql + fields[k], sql + f, fl))
				return f;
		if (nr < 64) {
			fields[nr] = f;
			flens[nr++] = fl;
		}
	}
	return len;
}

int sqlhist_check(const char *sql, size_t len, struct strbuf *err)
{
	size_t i, open_quote = 0, open_paren[SQLHIST_MAX_DEPTH];
	bool in_string = false, empty = true;
	int depth = 0;

	if (len > SQLHIST_MAX_LEN)
		return refuse(err, SQLHIST_MAX_LEN, "the SQL is longer than 64 KiB");
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)sql[i];

		if (!c)
			return refuse(err, i, "a NUL byte in the SQL");
		if (c > 0x7e || (c < 0x20 && !blank(c)))
			return refuse(err, i, "a byte that is not printable ASCII in the SQL");
		if (!blank(c))
			empty = false;
		if (c == '"') {
			in_string = !in_string;
			open_quote = i;
		}
		if (in_string)
			continue;
		if (c == '(') {
			if (depth == SQLHIST_MAX_DEPTH)
				return refuse(err, i, "parentheses nested deeper than 64");
			open_paren[depth++] = i;
		} else if (c == ')') {
			if (!depth)
				return refuse(err, i, "')' without its '('");
			depth--;
		}
	}
	if (empty)
		return refuse(err, 0, "the SQL is empty");
	if (in_string)
		return refuse(err, open_quote, "a string that is not closed (\")");
	if (depth)
		return refuse(err, open_paren[depth - 1], "'(' that is not closed");
	i = first_counter(sql, len);
	if (i < len)
		return refuse(err, i, "the first selection of a histogram cannot be a _COUNTER_ "
			      "(libtracefs crashes on it): select a key first");
	i = selected_twice(sql, len);
	if (i < len)
		return refuse(err, i, "a field selected twice (libtracefs never returns on it): "
			      "select each field once");
	return 0;
}

/* The event of "[SYSTEM.]EVENT" (the word after FROM or JOIN), or NULL */
static struct tep_event *named_event(struct tep_handle *tep, const char *w, size_t len)
{
	struct strbuf sys = STRBUF_INIT, name = STRBUF_INIT;
	const char *dot = memchr(w, '.', len);
	struct tep_event *ev = NULL;

	if (dot ? !strbuf_add(&sys, w, (size_t)(dot - w)) &&
		  !strbuf_add(&name, dot + 1, len - (size_t)(dot + 1 - w)) :
		  !strbuf_add(&name, w, len))
		if (name.len)
			ev = tep_find_event_by_name(tep, sys.len ? sys.buf : NULL, name.buf);
	strbuf_release(&sys);
	strbuf_release(&name);
	return ev;
}

/* FIELD (its last dotted part) is a field of ev, or a timestamp */
static bool has_field(struct tep_event *ev, const char *w, size_t len)
{
	const char *dot = w + len;
	struct strbuf name = STRBUF_INIT;
	bool found;

	while (dot > w && dot[-1] != '.')
		dot--;
	if (strbuf_add(&name, dot, len - (size_t)(dot - w)))
		return true;	/* no memory: libtracefs will say so */
	found = !strcasecmp(name.buf, "TIMESTAMP") || !strcasecmp(name.buf, "TIMESTAMP_USECS") ||
		(ev && tep_find_any_field(ev, name.buf));
	strbuf_release(&name);
	return found;
}

static bool keyword(const char *sql, size_t start, size_t wlen)
{
	static const char *const words[] = { "select", "from", "join", "on", "where", "cast", "as" };
	size_t i;

	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (word_is(sql, start, wlen, words[i]))
			return true;
	return false;
}

struct query_event {
	struct tep_event *ev;
	const char *word, *label;	/* "[SYSTEM.]EVENT" and its AS label, in the SQL */
	size_t wlen, llen;
};

/* A dotted field's prefix names this event: its label, its name, or SYSTEM.NAME */
static bool prefix_is(const struct query_event *q, const char *p, size_t plen)
{
	struct strbuf full = STRBUF_INIT;
	bool match;

	if (!q->ev)
		return false;
	if (!plen)
		return false;
	if ((q->label && q->llen == plen && !strncasecmp(p, q->label, plen)) ||
	    (strlen(q->ev->name) == plen && !strncmp(p, q->ev->name, plen)))
		return true;
	strbuf_addf(&full, "%s.%s", q->ev->system, q->ev->name);
	match = full.len == plen && !strncmp(p, full.buf, plen);
	strbuf_release(&full);
	return match;
}

static bool known_field(const struct query_event *q, const char *w, size_t len)
{
	const char *dot = w + len;
	int i;

	while (dot > w && dot[-1] != '.')
		dot--;
	for (i = 0; i < 2; i++)
		if (q[i].ev && (dot == w || prefix_is(&q[i], w, (size_t)(dot - 1 - w))) &&
		    has_field(q[i].ev, w, len))
			return true;
	return false;
}

int sqlhist_check_fields(struct tep_handle *tep, const char *sql, struct strbuf *err)
{
	struct query_event q[2] = { { 0 }, { 0 } };
	size_t len = strlen(sql), pos = 0, start, wlen, after;
	bool skip_next = false;
	int n = 0;

	/* the events: the word after FROM and after JOIN, and a label after AS */
	while (n < 2 && next_word(sql, len, &pos, &start, &wlen))
		if ((word_is(sql, start, wlen, "from") || word_is(sql, start, wlen, "join")) &&
		    next_word(sql, len, &pos, &start, &wlen)) {
			q[n].ev = named_event(tep, sql + start, wlen);
			after = pos;
			if (next_word(sql, len, &after, &start, &wlen) &&
			    word_is(sql, start, wlen, "as") &&
			    next_word(sql, len, &after, &start, &wlen)) {
				q[n].label = sql + start;
				q[n].llen = wlen;
			}
			n++;
		}
	if (!q[0].ev)
		return 0;	/* libtracefs explains an unknown event itself */
	/* every other word but a keyword, a number and what follows AS, FROM or JOIN is a field */
	for (pos = 0; next_word(sql, len, &pos, &start, &wlen);) {
		/* numbers, and the OFFSET of the cast type SYM-OFFSET (one word to the lexer) */
		if (skip_next || (sql[start] >= '0' && sql[start] <= '9') ||
		    (start >= 4 && !strncasecmp(sql + start - 4, "sym-", 4))) {
			skip_next = false;
			continue;
		}
		if (keyword(sql, start, wlen)) {
			skip_next = word_is(sql, start, wlen, "as") ||
				    word_is(sql, start, wlen, "from") ||
				    word_is(sql, start, wlen, "join");
			continue;
		}
		if (!known_field(q, sql + start, wlen))
			return refuse(err, start, "a field that the events do not have");
	}
	return 0;
}
