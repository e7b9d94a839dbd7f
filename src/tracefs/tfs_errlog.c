// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kernel explains a rejected filter or trigger in the instance's error_log, as
 * "[ts] LOCATION: error: WHY" followed by "  Command: TEXT" and a caret under the fault. A bare
 * EINVAL says nothing, so the failed write is followed by that entry; an entry about another
 * text (an older failure) is not shown.
 */
#include <stdio.h>
#include <string.h>

#include "ktrace/tfs.h"

/* Start of the last entry: the last line that does not begin with a space. */
static const char *last_entry(const char *log)
{
	const char *line = log, *start = NULL;

	while (*line) {
		if (*line != ' ' && *line != '\n')
			start = line;
		line = strchr(line, '\n');
		if (!line)
			break;
		line++;
	}
	return start;
}

/* True when the entry's "Command:" is the text written, or a part of it (a trigger's filter). */
static bool entry_about(const char *entry, const char *text)
{
	const char *cmd = strstr(entry, "Command: ");
	size_t len;

	if (!cmd)
		return false;
	cmd += strlen("Command: ");
	len = strcspn(cmd, "\n");
	while (len && cmd[len - 1] == ' ')
		len--;
	return len && memmem(text, strlen(text), cmd, len);
}

bool tfs_print_error_log(const char *inst, const char *text)
{
	struct strbuf sb = STRBUF_INIT;
	const char *entry, *line, *end;

	if (tfs_inst_read(inst, "error_log", &sb) || !sb.len) {
		strbuf_release(&sb);
		return false;
	}
	tfs_chomp(&sb);
	entry = last_entry(sb.buf);
	if (!entry || !entry_about(entry, text)) {
		strbuf_release(&sb);
		return false;
	}
	/* "[   76.467530] " only dates the entry. */
	if (*entry == '[' && (end = strstr(entry, "] ")))
		entry = end + 2;
	fprintf(stderr, "  kernel: ");
	for (line = entry; line; line = end ? end + 1 : NULL) {
		end = strchr(line, '\n');
		fprintf(stderr, "%s%.*s\n", line == entry ? "" : "  ",
			end ? (int)(end - line) : (int)strlen(line), line);
	}
	strbuf_release(&sb);
	return true;
}
