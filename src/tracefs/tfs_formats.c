// SPDX-License-Identifier: GPL-2.0-only
/*
 * The event formats of a tracing directory, parsed into a tep, for commands that look at the
 * formats only (sqlhist): no kernel symbols, printk formats or saved cmdlines.
 */
#include <errno.h>
#include <stdlib.h>

#include <traceevent/event-parse.h>
#include <tracefs.h>

#include "ktrace/tfs.h"

static int parse_file(struct tep_handle *tep, struct strbuf *path, const char *system,
		      int *failures)
{
	struct strbuf text = STRBUF_INIT;
	int ret = tfs_read(path->buf, &text);

	/* without a header page the directory is no tracing directory */
	if (ret == -ENOMEM || (ret && !system))
		return ret;
	if (ret || (system ? tep_parse_event(tep, text.buf, text.len, system) :
		    tep_parse_header_page(tep, text.buf, text.len, sizeof(long))))
		(*failures)++;
	strbuf_release(&text);
	return 0;
}

static int parse_system(struct tep_handle *tep, const char *dir, const char *system,
			int *failures)
{
	struct strbuf path = STRBUF_INIT;
	char **events = NULL;
	int i, ret = tfs_dir_system_events(dir, system, &events);

	for (i = 0; !ret && events[i]; i++) {
		strbuf_reset(&path);
		ret = strbuf_addf(&path, "%s/events/%s/%s/format", dir, system, events[i]);
		if (!ret)
			ret = parse_file(tep, &path, system, failures);
	}
	strv_free(events);
	strbuf_release(&path);
	return ret;
}

int tfs_formats_tep(const char *trace_dir, struct tep_handle **out, int *failures)
{
	const char *dir = trace_dir ? trace_dir : tracefs_tracing_dir();
	struct strbuf path = STRBUF_INIT;
	char **systems = NULL;
	int i, ret, unused = 0;

	if (!failures)
		failures = &unused;
	*failures = 0;
	*out = NULL;
	if (!dir)
		return -ENODEV;
	ret = tfs_dir_systems(dir, &systems);
	if (ret)
		return ret;
	*out = tep_alloc();
	ret = *out ? strbuf_addf(&path, "%s/events/header_page", dir) : -ENOMEM;
	if (!ret)
		ret = parse_file(*out, &path, NULL, failures);
	for (i = 0; !ret && systems[i]; i++)
		ret = parse_system(*out, dir, systems[i], failures);
	strv_free(systems);
	strbuf_release(&path);
	if (ret) {
		tep_free(*out);
		*out = NULL;
	}
	return ret;
}
