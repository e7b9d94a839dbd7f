// SPDX-License-Identifier: GPL-2.0-only
/*
 * /proc/kallsyms text into libtraceevent. tep_parse_kallsyms() runs sscanf() on each of the
 * ~100,000 lines, which is most of the time spent opening a small file. Lines of the usual
 * shape ("ADDR T name" with an optional "\t[module]") are registered directly, with the same
 * (name, address, module) and in the same order as tep_parse_kallsyms() registers them; any
 * other line is read with the sscanf() format of tep_parse_kallsyms(), so that unusual text
 * gets its exact behaviour. The symbols go to libtraceevent or to a table of our own.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>
#include <traceevent/event-utils.h>

#include "dat_internal.h"

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/* Splits a line of the usual shape in place; false for anything else. */
static bool usual_line(char *line, struct dat_ksym *k)
{
	char *p = line, *name_end, *mod_end;
	int digits = 0, v;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		return false;
	k->addr = 0;
	while ((v = hexval(*p)) >= 0) {
		if (++digits > 16)
			return false;
		k->addr = k->addr << 4 | (unsigned int)v;
		p++;
	}
	if (!digits || p[0] != ' ' || !p[1] || is_space(p[1]) || p[2] != ' ' ||
	    !p[3] || is_space(p[3]))
		return false;
	k->type = p[1];
	k->name = p + 3;
	for (name_end = k->name; *name_end && !is_space(*name_end); name_end++)
		;
	k->mod = NULL;
	if (!*name_end)
		return true;
	if (name_end[0] != '\t' || name_end[1] != '[' || !name_end[2] || is_space(name_end[2]))
		return false;
	k->mod = name_end + 2;
	for (mod_end = k->mod; *mod_end && !is_space(*mod_end); mod_end++)
		;
	*name_end = '\0';
	mod_end[-1] = '\0';
	return true;
}

/* Any other line, read as tep_parse_kallsyms() reads it: 1, or -1 where it stops. */
static int scanned_line(char *line, struct dat_ksym *k)
{
	int name_start = 0, name_end = 0, mod_start = 0, mod_end = 0, n;

	errno = 0;
	n = sscanf(line, "%16llx %c %n%*s%n%*1[\t][%n%*s%n", &k->addr, &k->type, &name_start,
		   &name_end, &mod_start, &mod_end);
	if (errno)
		return -1;
	if (n != 2 || !name_end) {
		/* libtraceevent's words, for the same stderr as tep_parse_kallsyms() */
		tep_warning("Failed to parse kallsyms n=%d func_end=%d", n, name_end);
		return -1;
	}
	k->name = line + name_start;
	line[name_end] = '\0';
	k->mod = NULL;
	if (mod_end) {
		k->mod = line + mod_start;
		line[mod_end - 1] = '\0';
	}
	return 1;
}

/* One line, split in place: a copy, so that the loaded section is not copied whole. */
int dat_kallsyms_line(const char *text, size_t len, dat_ksym_fn fn, void *arg)
{
	char small[256], *line = len < sizeof(small) ? small : malloc(len + 1);
	struct dat_ksym k;
	int ret;

	if (!line)
		return -1;
	memcpy(line, text, len);
	line[len] = '\0';
	ret = usual_line(line, &k) ? 1 : scanned_line(line, &k);
	/* arm's '$a' mapping symbols and x86-64's absolute per-cpu offsets are skipped */
	if (ret > 0 && k.name[0] != '$' && k.type != 'A' && k.type != 'a')
		ret = fn(arg, &k) ? -1 : 0;
	if (line != small)
		free(line);
	return ret < 0 ? -1 : 0;
}

/* libtraceevent's list: a failed registration loses one symbol, as in tep_parse_kallsyms() */
static int to_tep(void *arg, const struct dat_ksym *k)
{
	tep_register_function(arg, k->name, k->addr, k->mod);
	return 0;
}

void dat_load_kallsyms(struct tep_handle *tep, const char *text, size_t len)
{
	const char *p = text, *end, *nl;

	/* libtraceevent stops at the first NUL: so does this */
	end = text + strnlen(text, len);
	while (p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		if (nl > p && dat_kallsyms_line(p, (size_t)(nl - p), to_tep, tep))
			return;
		p = nl + 1;
	}
}
