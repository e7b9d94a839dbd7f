// SPDX-License-Identifier: GPL-2.0-only
/*
 * Event formats that crash libtraceevent 1.7.1 (and trace-cmd 3.1.6 with it) are refused
 * before tep_parse_event() sees them; such an event is then counted as a parse failure, as
 * one the library rejects itself. Six damages are known (tests/fuzz/regressions/dat and format):
 *
 * - A '/' or '%' whose divisor is a zero constant, a bare word or a quoted literal
 *   (strtoull() makes them 0): the parser folds "atom / atom" at once and the printer
 *   divides by the constant: SIGFPE.
 * - __print_flags() or __print_symbolic() on REC->NAME where the event has no field NAME:
 *   the parser marks the field it did not find, through a NULL pointer.
 * - A field declared "NAME[" with nothing after the '[' but blanks before the end of the text
 *   or a byte its tokenizer stops at (NUL, any other unprintable one): the field parser reads
 *   the array size token without checking for none and hands NULL to strcmp().
 * - A field's '[' with no ']' on its line: the field parser takes every token up to the next
 *   ']' as the array size, so the fields declared in between do not exist for the library
 *   (while they do for the check of the flags helpers below, which then crash on them).
 * - An index followed by a token the parser has no rule for ("REC->x[2];", "x[0].", "x[1][2]",
 *   "x[0]->", "x[0]=", ...): the array argument is left half built and read through a NULL
 *   pointer (seen behind two blank lines ending the fields). The operators it does handle
 *   after an index (arithmetic, comparisons, logic, '?', ':', ')', ',') are let through, and
 *   so are the C statements of a "({ ... })" argument (kvmmmu's events), which it survives.
 * - The same tokens after the first operand of a ternary's else arm ("t ? d : 0;",
 *   "x ? 1 : (0)]", "x ? y : REC->z.", "0 ? a : t o;", an atom of two words): the
 *   condition is left half built the same way; and so is an else operand that dereferences
 *   anything but REC ("x ? 1 : S->r", "REC->a->b") or is indexed ("x ? 1 : REC->y[0]").
 *
 * The print checks only look at the "print fmt:" arguments, outside string and character
 * literals; the field check looks at everything before them.
 *
 * One damage spans two formats: the parser notes that the next REC->NAME it reads is the
 * field of a __print_flags() or __print_symbolic() in a process-wide flag, which only that
 * field clears. A parse that fails before it ("__print_flags(REC-<x") leaves the flag set,
 * and the next format parsed, in any file and on any tep handle, that names a field it lacks
 * crashes. dat_format_parse_failed() clears the flag after each failed parse (an error, or
 * an event kept as failed).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>

#include "dat_internal.h"

#define PRINT_FMT "print fmt:"

static int is_word(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

static const char *skip_space(const char *p, const char *end)
{
	while (p < end && isspace((unsigned char)*p))
		p++;
	return p;
}

/* p at an opening quote: the byte after the closing one (or end) */
static const char *skip_literal(const char *p, const char *end)
{
	char quote = *p++;

	while (p < end && *p != quote)
		p += (*p == '\\' && p + 1 < end) ? 2 : 1;
	return p < end ? p + 1 : end;
}

/* 1 when the divisor after a '/' or '%' at op is a word that reads as zero */
static int zero_divisor(const char *op, const char *end)
{
	const char *p = skip_space(op + 1, end), *w;
	char word[32];
	size_t len;

	while (p < end && *p == '(')
		p = skip_space(p + 1, end);
	/* a string or char literal divides as the number it reads as: 0 (x / "+", fuzz_dat) */
	if (p < end && (*p == '"' || *p == '\''))
		return 1;
	for (w = p; w < end && is_word(*w); w++)
		;
	len = (size_t)(w - p);
	if (!len)
		return 0;	/* a field, a cast, a sign: not folded by the parser */
	if (skip_space(w, end) < end && *skip_space(w, end) == '(')
		return 0;	/* a function call */
	if (len == 3 && !memcmp(p, "REC", 3))
		return 0;
	if (len >= sizeof(word))
		return 1;
	memcpy(word, p, len);
	word[len] = '\0';
	return strtoull(word, NULL, 0) == 0;
}

/* 1 when the format declares a field called name (as "field:TYPE NAME;" or "NAME[N];") */
static int has_field(const char *fmt, const char *fmt_end, const char *name, size_t len)
{
	const char *p = fmt, *semi, *q, *start;

	while ((p = memmem(p, (size_t)(fmt_end - p), "field:", 6))) {
		semi = memchr(p, ';', (size_t)(fmt_end - p));
		if (!semi)
			return 0;
		q = semi;
		if (q > p && q[-1] == ']')
			while (q > p && *q != '[')
				q--;
		while (q > p && isspace((unsigned char)q[-1]))
			q--;
		start = q - p > (long)len ? q - len : NULL;
		if (start && !memcmp(start, name, len) && !is_word(start[-1]))
			return 1;
		p = semi;
	}
	return 0;
}

/* 1 when the first REC->NAME after a flags or symbolic helper at p names no field */
static int unknown_flag_field(const char *fmt, const char *p, const char *end)
{
	const char *rec = p, *name, *w;

	while ((rec = memmem(rec, (size_t)(end - rec), "REC", 3))) {
		name = skip_space(rec + 3, end);
		if (name < end && *name == ')')
			name = skip_space(name + 1, end);
		if (end - name >= 2 && !memcmp(name, "->", 2))
			break;
		rec += 3;
	}
	if (!rec)
		return 0;
	name = skip_space(name + 2, end);
	for (w = name; w < end && is_word(*w); w++)
		;
	return !has_field(fmt, p, name, (size_t)(w - name));
}

/* 1 when what follows an index at p is a token libtraceevent's array parser cannot take */
static int unknown_after_index(const char *p, const char *end)
{
	static const char handled[] = "+-*/%&|^<>!?:~(),\"'";

	p = skip_space(p, end);
	if (p == end || !isprint((unsigned char)*p) || is_word(*p))
		return 0;
	if (*p == '-')
		return p + 1 < end && p[1] == '>';
	if (*p == '=')
		return !(p + 1 < end && p[1] == '=');
	return !strchr(handled, *p);
}

static int helper_at(const char *p, const char *end)
{
	static const char *const helpers[] = { "__print_flags", "__print_symbolic" };
	size_t i, len;

	for (i = 0; i < sizeof(helpers) / sizeof(helpers[0]); i++) {
		len = strlen(helpers[i]);
		if ((size_t)(end - p) >= len && !memcmp(p, helpers[i], len))
			return 1;
	}
	return 0;
}

/*
 * 1 when a '[' before end is followed by no token (blanks, not '\n', then the end or a stop),
 * or by no ']' on its line
 */
static int open_bracket(const char *fmt, const char *end)
{
	const char *p = fmt, *eol;

	while ((p = memchr(p, '[', (size_t)(end - p)))) {
		for (p++; p < end && *p != '\n' && isspace((unsigned char)*p); p++)
			;
		if (p == end || (!isprint((unsigned char)*p) && !isspace((unsigned char)*p)))
			return 1;
		eol = memchr(p, '\n', (size_t)(end - p));
		if (!memchr(p, ']', (size_t)((eol ? eol : end) - p)))
			return 1;
	}
	return 0;
}

/* p at an opening '(': the byte after its matching ')' (or end) */
static const char *skip_group(const char *p, const char *end)
{
	int depth = 0;

	while (p < end) {
		if (*p == '"' || *p == '\'') {
			p = skip_literal(p, end);
			continue;
		}
		if (*p == '(')
			depth++;
		else if (*p == ')' && --depth == 0)
			return p + 1;
		p++;
	}
	return end;
}

/* p just after a ternary's ':': 1 when its first operand is followed by a token it cannot take */
static int unknown_after_else(const char *p, const char *end)
{
	p = skip_space(p, end);
	if (p < end && (*p == '"' || *p == '\''))
		p = skip_literal(p, end);
	else if (p < end && *p == '(')
		p = skip_group(p, end);
	else if (p < end && is_word(*p)) {
		const char *word = p, *arrow;

		while (p < end && is_word(*p))
			p++;
		arrow = skip_space(p, end);
		if (end - arrow >= 2 && arrow[0] == '-' && arrow[1] == '>') {
			/* REC->NAME only: "S->r" or "REC->a->b" here crash the parser too */
			if (p - word != 3 || memcmp(word, "REC", 3))
				return 1;
			p = skip_space(arrow + 2, end);
			if (p == end || !is_word(*p))
				return 1;
			while (p < end && is_word(*p))
				p++;
			arrow = skip_space(p, end);
			if (end - arrow >= 2 && arrow[0] == '-' && arrow[1] == '>')
				return 1;
		}
		/* an atom may be several words ("t o"): the token after the last one decides */
		while (skip_space(p, end) < end && is_word(*skip_space(p, end)))
			for (p = skip_space(p, end); p < end && is_word(*p); p++)
				;
	} else
		return 0;	/* a sign or a cast: parsed by other rules */
	/* an index on the operand ("x ? 1 : y[0]", "... : \"R\"[0]") leaves it half built too */
	if (skip_space(p, end) < end && *skip_space(p, end) == '[')
		return 1;
	return unknown_after_index(p, end);
}

/* 1 when the first non-blank byte after p is c */
static int next_is(const char *p, const char *end, char c)
{
	p = skip_space(p + 1, end);
	return p < end && *p == c;
}

/*
 * libtraceevent prints ftrace's bprint through its "fmt" field (the address of the format
 * string) without checking that the field exists: without it, tep_print_event() reads through
 * a NULL field (fuzz_format found it). Every kernel's bprint has the field.
 */
static int bprint_without_fmt(const char *fmt, const char *fields_end)
{
	static const char name[] = "name: bprint\n";
	const char *p = fmt;

	while (p < fields_end && (*p == ' ' || *p == '\t' || *p == '\n'))
		p++;
	if ((size_t)(fields_end - p) < sizeof(name) - 1 || memcmp(p, name, sizeof(name) - 1))
		return 0;
	return !has_field(fmt, fields_end, "fmt", 3);
}

int dat_format_is_safe(const char *fmt, size_t size)
{
	const char *end = fmt + size;
	const char *p = memmem(fmt, size, PRINT_FMT, strlen(PRINT_FMT));
	int stmt = 0;	/* inside "({ ... })": C statements (kvmmmu), parsed as a whole */
	int open_conds = 0;	/* '?' not yet matched by their ':' */

	if (open_bracket(fmt, p ? p : end) || bprint_without_fmt(fmt, p ? p : end))
		return 0;
	if (!p)
		return 1;
	/* the format string itself, whose '%' are conversions */
	p = skip_space(p + strlen(PRINT_FMT), end);
	if (p < end && *p == '"')
		p = skip_literal(p, end);
	while (p < end) {
		if (*p == '"' || *p == '\'') {
			p = skip_literal(p, end);
			continue;
		}
		if ((*p == '/' || *p == '%') && zero_divisor(p, end))
			return 0;
		if (*p == '(' && next_is(p, end, '{'))
			stmt++;
		else if (*p == '}' && stmt && next_is(p, end, ')'))
			stmt--;
		if (*p == ']' && !stmt && unknown_after_index(p + 1, end))
			return 0;
		if (*p == '?' && !stmt)
			open_conds++;
		else if (*p == ':' && !stmt && open_conds) {
			open_conds--;
			if (unknown_after_else(p + 1, end))
				return 0;
		}
		if ((p == fmt || !is_word(p[-1])) && helper_at(p, end) &&
		    unknown_flag_field(fmt, p, end))
			return 0;
		p++;
	}
	return 1;
}

/*
 * A format whose two REC->x clear both of libtraceevent's flags (each clears one), parsed on a
 * handle of its own, so the next format parsed starts clean.
 */
void dat_format_parse_failed(void)
{
	static const char reset[] = "name: ktrace_reset\nID: 1\nformat:\n"
		"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n\n"
		"\tfield:int x;\toffset:4;\tsize:4;\tsigned:1;\n\n"
		"print fmt: \"%d %d\", REC->x, REC->x\n";
	struct tep_handle *tep = tep_alloc();

	if (!tep)
		return;
	tep_parse_event(tep, reset, sizeof(reset) - 1, "ktrace");
	tep_free(tep);
}

enum dat_format_result dat_format_parse(struct tep_handle *tep, const char *fmt, size_t size,
					const char *system, struct tep_event **event)
{
	*event = NULL;
	if (!dat_format_is_safe(fmt, size))
		return DAT_FORMAT_CRASHES;
	if (tep_parse_format(tep, event, fmt, size, system)) {
		*event = NULL;
		dat_format_parse_failed();
		return DAT_FORMAT_REFUSED;
	}
	if (*event && ((*event)->flags & TEP_EVENT_FL_FAILED)) {
		dat_format_parse_failed();
		return DAT_FORMAT_PRINT_FAILED;
	}
	return DAT_FORMAT_PARSED;
}

/*
 * The number after key in [p, end) as libtraceevent reads it: a token after blanks, through
 * strtoul with base 0 (so 0x7ffffffe and 017 count too), capped far above any record size;
 * -1 when the key is missing or no digit follows it.
 */
static long long number_after(const char *p, const char *end, const char *key)
{
	const char *k = memmem(p, (size_t)(end - p), key, strlen(key));
	char digits[32];
	unsigned long long v;
	size_t n = 0;

	if (!k)
		return -1;
	for (k += strlen(key); k < end && (*k == ' ' || *k == '\t'); k++)
		;
	if (k >= end || *k < '0' || *k > '9')
		return -1;
	while (k + n < end && n < sizeof(digits) - 1 && isalnum((unsigned char)k[n]))
		n++;
	memcpy(digits, k, n);
	digits[n] = '\0';
	v = strtoull(digits, NULL, 0);
	return v > (1ULL << 40) || n == sizeof(digits) - 1 ? 1LL << 40 : (long long)v;
}

int dat_format_fits(const char *fmt, size_t size, uint32_t record_max)
{
	const char *end = fmt + size, *p = fmt, *eol;
	long long off, len;

	while (p < end && (p = memmem(p, (size_t)(end - p), "field:", 6))) {
		eol = memchr(p, '\n', (size_t)(end - p));
		if (!eol)
			eol = end;
		off = number_after(p, eol, "offset:");
		len = number_after(p, eol, "size:");
		if (off >= 0 && len >= 0 && off + len > (long long)record_max)
			return 0;
		p = eol;
	}
	return 1;
}
