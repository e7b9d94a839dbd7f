// SPDX-License-Identifier: GPL-2.0-only
/*
 * report --events and --event REGEX: the event formats the file holds, as the kernel wrote
 * them, in file order. trace-cmd 3.1.6 means to print them (its read_ftrace_files() and
 * read_event_files() take a regex) but prints nothing: it has read the formats already when it
 * gets there. ktrace prints what it meant, in its layout:
 *   - the ftrace formats, each followed by a newline, when the regex matches "ftrace";
 *   - for the events, "\nsystem: NAME\n" before the first format printed of each system.
 * REGEX is "SYSTEM:EVENT", or one regex matched against both: a system it matches is printed
 * whole, and so is every event whose name it matches. Case-insensitive, unanchored (as
 * regexec), the name read from the format's first line.
 */
#include <errno.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "ktrace/dat.h"
#include "ktrace/dat_bytes.h"
#include "ktrace/dat_format.h"
#include "ktrace/report.h"
#include "report_info.h"

struct format_match {
	regex_t system, event;
	bool unique;		/* "SYSTEM:EVENT": a system's match alone prints nothing */
};

static int match_compile(struct format_match *m, const char *regex, struct strbuf *err)
{
	const char *colon = strchr(regex, ':');
	char *sys = strndup(regex, colon ? (size_t)(colon - regex) : strlen(regex));
	const char *ev = colon ? colon + 1 : regex;
	int ret;

	if (!sys)
		return -ENOMEM;
	m->unique = colon != NULL;
	ret = regcomp(&m->system, sys, REG_ICASE | REG_NOSUB);
	if (ret) {
		strbuf_addf(err, "--event: bad regular expression '%s'", sys);
		free(sys);
		return -EINVAL;
	}
	free(sys);
	if (regcomp(&m->event, ev, REG_ICASE | REG_NOSUB)) {
		regfree(&m->system);
		strbuf_addf(err, "--event: bad regular expression '%s'", ev);
		return -EINVAL;
	}
	return 0;
}

/* Whether the format's name (its first line, "name: " left out) matches. */
static bool name_matches(const regex_t *re, const uint8_t *text, uint64_t size)
{
	const uint8_t *nl = memchr(text, '\n', size);
	size_t len = nl ? (size_t)(nl - text) : (size_t)size;
	char *line = strndup((const char *)text, len);
	const char *name = line;
	bool ok;

	if (!line)
		return false;
	if (!strncmp(name, "name: ", 6))
		name += 6;
	ok = regexec(re, name, 0, NULL, 0) == 0;
	free(line);
	return ok;
}

/* How the events of one system are chosen: all, by event name, or none. */
enum pick { PICK_NONE, PICK_BY_NAME, PICK_ALL };

static enum pick pick_system(const struct format_match *m, const char *system)
{
	if (regexec(&m->system, system, 0, NULL, 0) == 0)
		return m->unique ? PICK_BY_NAME : PICK_ALL;
	return m->unique ? PICK_NONE : PICK_BY_NAME;
}

/* One count-prefixed list of sized formats; header (or NULL) before the first one printed. */
static int print_list(struct dat_bytes *b, const struct format_match *m, enum pick pick,
		      const char *header, FILE *out)
{
	uint64_t count, size, i;
	const uint8_t *p;
	bool printed = false;

	if (dat_bytes_num(b, 4, &count))
		return -EBADMSG;
	for (i = 0; i < count; i++) {
		if (dat_bytes_num(b, 8, &size) || dat_bytes_run(b, size, &p))
			return -EBADMSG;
		if (pick == PICK_NONE ||
		    (pick == PICK_BY_NAME && !name_matches(&m->event, p, size)))
			continue;
		if (header && !printed)
			fprintf(out, "\nsystem: %s\n", header);
		printed = true;
		fprintf(out, "%.*s\n", (int)size, (const char *)p);
	}
	return 0;
}

static int print_block(struct dat_bytes *b, int id, const struct format_match *m, FILE *out)
{
	uint64_t systems, i;
	const char *system;
	int ret = 0;

	if (id == DAT_OPT_FTRACE_EVENTS)
		return print_list(b, m, pick_system(m, "ftrace"), NULL, out);
	if (dat_bytes_num(b, 4, &systems))
		return -EBADMSG;
	for (i = 0; i < systems && !ret; i++) {
		if (dat_bytes_str(b, &system))
			return -EBADMSG;
		ret = print_list(b, m, pick_system(m, system), system, out);
	}
	return ret;
}

/* v7: the section an option of this id points to; v6: the block itself. */
static int load_block(struct dat_file *df, int id, void **data, uint64_t *size,
		      struct strbuf *err)
{
	struct dat_bytes b = { NULL, 0, 0, dat_file_big_endian(df) };
	uint64_t offset;
	uint32_t len;

	if (dat_file_version(df) < 7)
		return dat_file_load_v6_block(df, id, data, size, err);
	b.p = dat_file_option(df, id, 0, &len);
	b.len = len;
	if (!b.p || dat_bytes_num(&b, 8, &offset)) {
		*data = NULL;
		*size = 0;
		return 0;	/* a file without such formats prints none */
	}
	return dat_file_load_section(df, offset, data, size, err);
}

int report_print_formats(struct dat_file *df, const char *regex, FILE *out, struct strbuf *err)
{
	static const int ids[] = { DAT_OPT_FTRACE_EVENTS, DAT_OPT_EVENT_FORMATS };
	struct format_match m;
	struct dat_bytes b;
	uint64_t size;
	void *data;
	size_t i;
	int ret;

	ret = match_compile(&m, regex ? regex : ".*", err);
	if (ret)
		return ret;
	for (i = 0; !ret && i < sizeof(ids) / sizeof(ids[0]); i++) {
		ret = load_block(df, ids[i], &data, &size, err);
		if (ret || !data)
			continue;
		b = (struct dat_bytes){ data, size, 0, dat_file_big_endian(df) };
		ret = print_block(&b, ids[i], &m, out);
		if (ret == -EBADMSG)
			strbuf_addf(err, "%s: the event formats are damaged", dat_file_path(df));
		free(data);
	}
	regfree(&m.system);
	regfree(&m.event);
	return ret;
}
