// SPDX-License-Identifier: GPL-2.0-only
/*
 * A first look at -f filters and -R triggers before they are written to tracefs. The kernel
 * checks them itself (and tracefs_errlog.c shows its explanation), so only what it surely
 * refuses is refused here, where the message can name the flag and the column and nothing
 * has been written yet: a control byte, a quote never closed, unbalanced parentheses, an
 * empty filter, && / || / ! without a condition, a comparison without its value. Each -f is
 * checked alone: record puts it in parentheses and ANDs it with the others, so an unbalanced
 * one would otherwise change what the others mean.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "ktrace/plan.h"
#include "plan_filter_check.h"

enum tok { T_START, T_END, T_WORD, T_STRING, T_LOGIC, T_NOT, T_CMP, T_OPEN, T_CLOSE };

struct lexer {
	const char *s;
	size_t pos, base;	/* base: offset of s in the flag's value, for columns */
	enum tok type;
	size_t col, len;
	struct strbuf *why;
};

static int fail(struct lexer *lx, size_t col, const char *why, size_t len, const char *tok)
{
	strbuf_addstr(lx->why, why);
	if (tok)
		strbuf_addf(lx->why, " '%.*s'", (int)len, tok);
	strbuf_addf(lx->why, " (column %zu)", lx->base + col);
	return -EINVAL;
}

static bool is_blank(int c)
{
	return c == ' ' || c == '\t';
}

static bool is_op_char(int c)
{
	return c && strchr("()&|!=<>~", c);
}

static int next(struct lexer *lx)
{
	const char *s = lx->s;
	size_t p = lx->pos;
	char c;

	while (is_blank(s[p]))
		p++;
	lx->col = p + 1;
	c = s[p];
	if (!c) {
		lx->type = T_END;
		lx->len = 0;
		lx->pos = p;
		return 0;
	}
	if (c == '"' || c == '\'') {
		const char *close = strchr(s + p + 1, c);

		if (!close)
			return fail(lx, p + 1, "the string that starts here has no closing", 1, s + p);
		lx->type = T_STRING;
		lx->len = close + 1 - (s + p);
	} else if ((c == '&' || c == '|') && s[p + 1] == c) {
		lx->type = T_LOGIC;
		lx->len = 2;
	} else if (c == '(' || c == ')') {
		lx->type = c == '(' ? T_OPEN : T_CLOSE;
		lx->len = 1;
	} else if (c == '!' && s[p + 1] != '=') {
		lx->type = T_NOT;
		lx->len = 1;
	} else if (strchr("=!<>", c) && s[p + 1] == '=') {
		lx->type = T_CMP;
		lx->len = 2;
	} else if (strchr("<>~&", c)) {
		lx->type = T_CMP;
		lx->len = 1;
	} else {
		size_t n = 0;

		/* a lone '|' or '=' is the kernel's to refuse: part of a word here */
		while (s[p + n] && !is_blank(s[p + n]) &&
		       (!n || !is_op_char(s[p + n]) || s[p + n] == '|' ||
			(s[p + n] == '=' && s[p + n + 1] != '=')))
			n++;
		lx->type = T_WORD;
		lx->len = n;
	}
	lx->pos = p + lx->len;
	return 0;
}

static bool is_value(enum tok t)
{
	return t == T_WORD || t == T_STRING;
}

/* What may not follow PREV; *why names the missing part. */
static int check_pair(struct lexer *lx, enum tok prev, size_t pcol, size_t plen,
		      const char *ptext)
{
	enum tok t = lx->type;
	bool ends = t == T_END || t == T_LOGIC || t == T_CLOSE || t == T_CMP;

	if ((prev == T_LOGIC || prev == T_NOT) && ends)
		return fail(lx, pcol, "expected a condition after", plen, ptext);
	if (prev == T_CMP && ends)
		return fail(lx, pcol, "expected a value after", plen, ptext);
	if (prev == T_START && t == T_END)
		return fail(lx, lx->col, "the filter is empty", 0, NULL);
	if (prev == T_OPEN && t == T_CLOSE)
		return fail(lx, pcol, "nothing between '(' and ')'", 0, NULL);
	if ((prev == T_START || prev == T_OPEN) && t == T_LOGIC)
		return fail(lx, lx->col, "expected a condition before", lx->len, lx->s + lx->col - 1);
	if (t == T_CMP && !is_value(prev))
		return fail(lx, lx->col, "expected a field before", lx->len, lx->s + lx->col - 1);
	return 0;
}

static int check_bytes(struct lexer *lx)
{
	size_t i;

	for (i = 0; lx->s[i]; i++) {
		unsigned char c = lx->s[i];

		if ((c < 0x20 && c != '\t') || c == 0x7f) {
			strbuf_addf(lx->why, "control byte 0x%02x (column %zu)", c, lx->base + i + 1);
			return -EINVAL;
		}
	}
	return 0;
}

static int check_filter(const char *text, size_t base, struct strbuf *why)
{
	struct lexer lx = { .s = text, .base = base, .why = why };
	size_t open_cols[64], depth = 0, pcol = 0, plen = 0;
	enum tok prev = T_START;
	int ret = check_bytes(&lx);

	while (!ret) {
		ret = next(&lx);
		if (!ret)
			ret = check_pair(&lx, prev, pcol, plen, text + (pcol ? pcol - 1 : 0));
		if (ret || lx.type == T_END)
			break;
		if (lx.type == T_OPEN && depth < sizeof(open_cols) / sizeof(open_cols[0]))
			open_cols[depth] = lx.col;
		if (lx.type == T_OPEN)
			depth++;
		if (lx.type == T_CLOSE && !depth)
			return fail(&lx, lx.col, "')' without a '(' before it", 0, NULL);
		if (lx.type == T_CLOSE)
			depth--;
		prev = lx.type;
		pcol = lx.col;
		plen = lx.len;
	}
	if (!ret && depth)
		ret = fail(&lx, depth <= 64 ? open_cols[depth - 1] : 1, "this '(' is never closed",
			   0, NULL);
	return ret;
}

int plan_filter_text_check(const char *text, struct strbuf *why)
{
	return check_filter(text, 0, why);
}

/* "COMMAND[:COUNT] [if FILTER]": the filter after " if " is checked as -f would be. */
int plan_trigger_text_check(const char *text, struct strbuf *why)
{
	struct lexer lx = { .s = text, .why = why };
	const char *cond;
	size_t i;
	int ret = check_bytes(&lx);

	for (i = 0; !ret && is_blank(text[i]); i++)
		;
	if (!ret && !text[i])
		return fail(&lx, i + 1, "the trigger is empty", 0, NULL);
	for (cond = text; !ret && (cond = strstr(cond, "if")); cond += 2) {
		if (cond > text && is_blank(cond[-1]) && (is_blank(cond[2]) || !cond[2]))
			return check_filter(cond + 2, cond + 2 - text, why);
	}
	return ret;
}

static int report(const char *cmd, const char *flag, const char *text,
		  int (*check)(const char *, struct strbuf *))
{
	struct strbuf why = STRBUF_INIT;
	int ret = check(text, &why);

	if (ret)
		fprintf(stderr, "ktrace %s: %s '%s': %s\n", cmd, flag, text, strbuf_str(&why));
	strbuf_release(&why);
	return ret;
}

int plan_check_filter_arg(const char *cmd, const char *text)
{
	return report(cmd, "-f", text, plan_filter_text_check);
}

int plan_check_trigger_arg(const char *cmd, const char *text)
{
	return report(cmd, "-R", text, plan_trigger_text_check);
}

/*
 * -l, -n, -g: the kernel reads the patterns, joined by spaces, as a list of globs; a blank
 * one writes nothing, which for -l leaves every function traced instead of none.
 */
static int check_globs(const char *cmd, const char *flag, char *const *globs)
{
	struct strbuf why = STRBUF_INIT;
	struct lexer lx = { .why = &why };
	int i, ret = 0;

	for (i = 0; globs && globs[i] && !ret; i++) {
		lx.s = globs[i];
		ret = check_bytes(&lx);
		if (!ret && !globs[i][strspn(globs[i], " \t")])
			ret = fail(&lx, 1, "an empty function pattern", 0, NULL);
		if (ret)
			fprintf(stderr, "ktrace %s: %s '%s': %s\n", cmd, flag, globs[i],
				strbuf_str(&why));
	}
	strbuf_release(&why);
	return ret;
}

int plan_check_function_globs(const char *cmd, const struct plan_instance *inst)
{
	int ret = check_globs(cmd, "-l", inst->func_filters);

	if (!ret)
		ret = check_globs(cmd, "-n", inst->func_notrace);
	return ret ? ret : check_globs(cmd, "-g", inst->graph_funcs);
}
