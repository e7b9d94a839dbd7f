// SPDX-License-Identifier: GPL-2.0-only
/*
 * /proc/kallsyms text into libtraceevent. tep_parse_kallsyms() runs sscanf() on each of the
 * ~100,000 lines, which is most of the time spent opening a small file. Lines of the usual
 * shape ("ADDR T name" with an optional "\t[module]") are registered directly, with the same
 * (name, address, module) and in the same order as tep_parse_kallsyms() registers them; any
 * other line goes to tep_parse_kallsyms() itself, so unusual text gets its exact behaviour.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>

#include "dat_internal.h"
#include "ktrace/dat_format.h"

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

struct ksym {
	unsigned long long addr;
	char type;
	char *name;
	char *mod;	/* NULL, or the module name, its ']' cut off */
};

/* Splits a line of the usual shape in place; false for anything else. */
static bool usual_line(char *line, struct ksym *k)
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

/* One line, split in place: a copy, so that the loaded section is not copied whole. */
static int load_line(struct tep_handle *tep, const char *text, size_t len)
{
	char small[256], *line = len < sizeof(small) ? small : malloc(len + 1);
	struct ksym k;
	int ret = 0;

	if (!line)
		return -1;
	memcpy(line, text, len);
	line[len] = '\0';
	if (!usual_line(line, &k))
		ret = tep_parse_kallsyms(tep, line) < 0 ? -1 : 0;
	/* arm's '$a' mapping symbols and x86-64's absolute per-cpu offsets are skipped */
	else if (k.name[0] != '$' && k.type != 'A' && k.type != 'a')
		tep_register_function(tep, k.name, k.addr, k.mod);
	if (line != small)
		free(line);
	return ret;
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
		if (nl > p && load_line(tep, p, (size_t)(nl - p)))
			return;
		p = nl + 1;
	}
}

/*
 * Deferred kallsyms (opts.defer_kallsyms). They are about 5 MB of text and, once registered,
 * 7 MB of libtraceevent's function list: most of a report's memory, for files whose events
 * print no kernel symbol. They are registered in a handle of their own on the first lookup,
 * which libtraceevent makes through the resolver set on the file's handle.
 */
static int load_deferred(struct dat_file *df)
{
	struct dat_in in;
	const uint8_t *text;
	uint8_t *data;
	uint64_t size;
	uint32_t len;
	bool z = df->ksym_sec.flags & DAT_SECTION_FLAG_COMPRESSED;
	int ret = dat_section_load(df, &df->ksym_sec, &data, &size, &df->ksym_err);

	if (ret)
		return ret;
	dat_in_mem(&in, df, "section KALLSYMS", data, size,
		   df->ksym_sec.offset + (z ? 0 : DAT_SECTION_HEADER_SIZE), z);
	ret = dat_in_u32(&in, &len, &df->ksym_err);
	if (!ret)
		ret = dat_in_blob(&in, len, &text, &df->ksym_err);
	if (!ret) {
		df->meta.kallsyms_size = len;
		df->ksym_tep = tep_alloc();
		if (df->ksym_tep)
			dat_load_kallsyms(df->ksym_tep, (const char *)text, len);
		else
			ret = dat_in_err(&df->ksym_err, &in, -ENOMEM, "out of memory");
	}
	free(data);
	return ret;
}

/* libtraceevent's tep_func_resolver_t: the function holding *addrp, its start in *addrp */
static char *resolve(void *priv, unsigned long long *addrp, char **modp)
{
	struct dat_file *df = priv;
	const char *name;

	if (df->ksym_pending) {
		df->ksym_pending = false;
		df->ksym_ret = load_deferred(df);
	}
	if (!df->ksym_tep)
		return NULL;
	name = tep_find_function(df->ksym_tep, *addrp);
	if (name)
		*addrp = tep_find_function_address(df->ksym_tep, *addrp);
	return (char *)name;
}

int dat_defer_kallsyms(struct dat_file *df, const struct dat_section *sec, struct strbuf *err)
{
	if (tep_set_function_resolver(df->tep, resolve, df))
		return dat_err(err, df, "section KALLSYMS", sec->offset, -ENOMEM,
			       "out of memory");
	df->ksym_sec = *sec;
	df->ksym_pending = true;
	return 0;
}

void dat_kallsyms_free(struct dat_file *df)
{
	if (df->ksym_tep)
		tep_free(df->ksym_tep);
	strbuf_release(&df->ksym_err);
}

int dat_file_kallsyms_error(const struct dat_file *df, struct strbuf *err)
{
	if (df->ksym_ret && err) {
		strbuf_reset(err);
		strbuf_addstr(err, strbuf_str(&df->ksym_err));
	}
	return df->ksym_ret;
}
