// SPDX-License-Identifier: GPL-2.0-only
/*
 * A -F filter, "EVENT[,EVENT...][: CONDITION]", checked before tep_filter_add_filter_str()
 * reads it. The event list is read as libtraceevent 1.7.1 reads it: split at every ',' before
 * the ':' (and, by a bug of its own, after it: a comma in the condition makes it fail, with
 * ENOMEM in trace-cmd), each name "SYSTEM/EVENT" or "EVENT" a case-insensitive anchored
 * regular expression that must match an event. The condition is report_filter_expr.c's.
 */
#include <ctype.h>
#include <errno.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "report_filter_check.h"

struct event_set {
	struct tep_event **events;
	int nr;
};

struct names {
	char **name;
	size_t *col;
	int nr;
};

static int add_event(struct event_set *set, struct tep_event *e)
{
	struct tep_event **grown = realloc(set->events, (set->nr + 1) * sizeof(*grown));

	if (!grown)
		return -ENOMEM;
	grown[set->nr++] = e;
	set->events = grown;
	return 0;
}

static char *trim(char *s)
{
	char *end;

	while (*s && isspace((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = 0;
	return s;
}

static int compile(regex_t *re, const char *name)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	strbuf_addf(&sb, "^%s$", name);
	ret = regcomp(re, strbuf_str(&sb), REG_ICASE | REG_NOSUB);
	strbuf_release(&sb);
	return ret;
}

/* The events one name of the list matches: "SYSTEM/EVENT" both, "EVENT" either. */
static int match_events(struct tep_handle *tep, const char *sys, const char *name,
			struct event_set *set)
{
	int i, n = tep_get_events_count(tep), found = 0, ret = 0;
	regex_t sys_re, name_re;

	if (compile(&name_re, name))
		return -EINVAL;
	if (sys && compile(&sys_re, sys)) {
		regfree(&name_re);
		return -EINVAL;
	}
	for (i = 0; i < n && !ret; i++) {
		struct tep_event *e = tep_get_event(tep, i);
		bool sys_ok = !regexec(sys ? &sys_re : &name_re, e->system, 0, NULL, 0);
		bool name_ok = !regexec(&name_re, e->name, 0, NULL, 0);

		if (sys ? sys_ok && name_ok : sys_ok || name_ok) {
			found = 1;
			ret = add_event(set, e);
		}
	}
	regfree(&name_re);
	if (sys)
		regfree(&sys_re);
	return ret ? ret : found ? 0 : -ENOENT;
}

static int fail(struct strbuf *err, const char *flag, const char *expr, size_t col,
		const char *why, const char *what)
{
	strbuf_addf(err, "%s '%s': %s", flag, expr, why);
	if (what)
		strbuf_addf(err, " '%s'", what);
	strbuf_addf(err, " (column %zu)", col);
	return -EBADMSG;
}

static int fail_pair(struct strbuf *err, const char *flag, const char *expr, size_t col,
		     const char *sys, const char *name)
{
	strbuf_addf(err, "%s '%s': no event matches system '%s' and name '%s' (column %zu)",
		    flag, expr, sys, name, col);
	return -EBADMSG;
}

/* One name of the list, EXPR[start, end). */
static int one_event(struct tep_handle *tep, const char *flag, const char *expr, size_t start,
		     size_t end, struct event_set *set, struct strbuf *err)
{
	char *copy = strndup(expr + start, end - start), *save = NULL, *sys, *name;
	int ret;

	if (!copy)
		return -ENOMEM;
	sys = strtok_r(copy, "/", &save);
	name = strtok_r(NULL, "/", &save);
	if (!sys) {
		ret = fail(err, flag, expr, start + 1, "expected an event name", NULL);
		goto out;
	}
	sys = trim(sys);
	if (name)
		name = trim(name);
	ret = match_events(tep, name ? sys : NULL, name ? name : sys, set);
	if (ret == -EINVAL)
		ret = fail(err, flag, expr, start + 1, "not a regular expression:",
			   name ? name : sys);
	else if (ret == -ENOENT && name)
		ret = fail_pair(err, flag, expr, start + 1, sys, name);
	else if (ret == -ENOENT)
		ret = fail(err, flag, expr, start + 1, "no event matches", sys);
out:
	free(copy);
	return ret;
}

static int event_list(struct tep_handle *tep, const char *flag, const char *expr,
		      size_t end, struct event_set *set, struct strbuf *err)
{
	const char *comma = strchr(expr + end, ',');
	size_t start = 0, stop;
	int ret = 0;

	if (comma && expr[end])
		return fail(err, flag, expr, comma - expr + 1, "a comma in the condition: "
			    "libtraceevent takes it for the end of an event name", NULL);
	while (!ret && start <= end) {
		comma = memchr(expr + start, ',', end - start);
		stop = comma ? (size_t)(comma - expr) : end;
		ret = one_event(tep, flag, expr, start, stop, set, err);
		start = stop + 1;
	}
	return ret;
}

static void note_unknown(void *arg, const char *name, size_t col)
{
	struct names *n = arg;
	char **grown_name;
	size_t *grown_col;
	int i;

	for (i = 0; i < n->nr; i++)
		if (!strcmp(n->name[i], name))
			return;
	grown_name = realloc(n->name, (n->nr + 1) * sizeof(*grown_name));
	if (grown_name)
		n->name = grown_name;
	grown_col = realloc(n->col, (n->nr + 1) * sizeof(*grown_col));
	if (grown_col)
		n->col = grown_col;
	if (!grown_name || !grown_col || !(n->name[n->nr] = strdup(name)))
		return;
	n->col[n->nr++] = col;
}

static void names_release(struct names *n)
{
	int i;

	for (i = 0; i < n->nr; i++)
		free(n->name[i]);
	free(n->name);
	free(n->col);
}

static int edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	int *row, d, diag, up;

	row = malloc((lb + 1) * sizeof(*row));
	if (!row)
		return 1 << 20;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		diag = row[0];
		row[0] = i;
		for (j = 1; j <= lb; j++) {
			up = row[j];
			d = diag + (tolower((unsigned char)a[i - 1]) !=
				    tolower((unsigned char)b[j - 1]));
			if (up + 1 < d)
				d = up + 1;
			if (row[j - 1] + 1 < d)
				d = row[j - 1] + 1;
			row[j] = d;
			diag = up;
		}
	}
	d = row[lb];
	free(row);
	return d;
}

/* "did you mean" the closest field names, or else every field of the event */
static void suggest(struct tep_event *event, const char *name, struct strbuf *out)
{
	struct tep_format_field **fields = tep_event_fields(event);
	int i, best = 1 << 20, max = strlen(name) / 2 > 2 ? strlen(name) / 2 : 2, shown = 0;

	for (i = 0; fields && fields[i]; i++) {
		int d = edit_distance(name, fields[i]->name);

		if (d < best)
			best = d;
	}
	if (fields && best <= max) {
		strbuf_addstr(out, "; did you mean");
		for (i = 0; fields[i]; i++)
			if (edit_distance(name, fields[i]->name) == best && shown < 3)
				strbuf_addf(out, "%s '%s'", shown++ ? " or" : "", fields[i]->name);
		strbuf_addch(out, '?');
	} else if (fields && fields[0]) {
		strbuf_addstr(out, "; its fields:");
		for (i = 0; fields[i]; i++)
			strbuf_addf(out, "%s %s", i ? "," : "", fields[i]->name);
	}
	free(fields);
}

static bool field_anywhere(const struct event_set *set, const char *name)
{
	int i;

	for (i = 0; i < set->nr; i++)
		if (tep_find_any_field(set->events[i], name))
			return true;
	return false;
}

static void note_fields(const struct event_set *set, const struct names *unknown,
			const char *flag, const char *expr, struct strbuf *notes)
{
	int i;

	for (i = 0; i < unknown->nr; i++) {
		if (field_anywhere(set, unknown->name[i]))
			continue;
		strbuf_addf(notes, "%s '%s': ", flag, expr);
		if (set->nr == 1)
			strbuf_addf(notes, "%s has no field '%s' (column %zu), so that comparison "
				    "is false", set->events[0]->name, unknown->name[i],
				    unknown->col[i]);
		else
			strbuf_addf(notes, "none of its %d events has a field '%s' (column %zu), "
				    "so that comparison is false", set->nr, unknown->name[i],
				    unknown->col[i]);
		if (set->nr == 1)
			suggest(set->events[0], unknown->name[i], notes);
		strbuf_addch(notes, '\n');
	}
}

/* "sched:sched_switch" is how -e names an event, not how a -F filter does */
static bool system_colon_event(struct tep_handle *tep, const char *expr, size_t colon)
{
	const char *s = expr + colon + 1;
	char sys[64], name[64];
	size_t len;

	while (isspace((unsigned char)*s))
		s++;
	len = strcspn(s, " \t");
	if (colon >= sizeof(sys) || !len || len >= sizeof(name) || s[strspn(s + len, " \t") + len])
		return false;
	memcpy(sys, expr, colon);
	sys[colon] = 0;
	memcpy(name, s, len);
	name[len] = 0;
	return tep_find_event_by_name(tep, sys, name) != NULL;
}

int report_filter_check(struct tep_handle *tep, const char *flag, const char *expr,
			struct strbuf *err, struct strbuf *notes)
{
	const char *colon = strchr(expr, ':');
	size_t end = colon ? (size_t)(colon - expr) : strlen(expr);
	struct event_set set = { 0 };
	struct names unknown = { 0 };
	struct strbuf why = STRBUF_INIT, never = STRBUF_INIT;
	const char *line, *nl;
	int i, ret;

	ret = event_list(tep, flag, expr, end, &set, err);
	for (i = 0; !ret && colon && i < set.nr; i++) {
		ret = report_filter_expr_check(expr, end + 1, set.events[i], &why,
					       i ? NULL : note_unknown, &unknown,
					       i ? NULL : &never);
		if (ret)
			strbuf_addf(err, "%s '%s': %s%s", flag, expr, strbuf_str(&why),
				    system_colon_event(tep, expr, end) ? "; an event of a system is written "
				    "'SYSTEM/EVENT' here" : "");
	}
	if (!ret && notes)
		note_fields(&set, &unknown, flag, expr, notes);
	for (line = never.buf; !ret && notes && line && *line; line = nl + 1) {
		nl = strchr(line, '\n');
		strbuf_addf(notes, "%s '%s': %.*s\n", flag, expr, (int)(nl - line), line);
	}
	strbuf_release(&never);
	names_release(&unknown);
	strbuf_release(&why);
	free(set.events);
	return ret;
}
