// SPDX-License-Identifier: GPL-2.0-only
/*
 * Dynamic events (kprobes, uprobes, event probes, synthetic events, fprobes), as the kernel
 * lists them in dynamic_events: one "TYPE:GROUP/NAME PLACE ARGS" line each. ktrace reads and
 * removes them itself: libtracefs's destroy-all fails when one of the type files is missing
 * (this host has uprobe_events but no kprobe_events), and trace-cmd ignores that failure; we
 * want a removal that works and an error that names what is left.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ktrace/strv.h"
#include "ktrace/tfs.h"

/* "p:grp/name /bin/true:0x1000" is a uprobe: its place is PATH:OFFSET */
static bool place_is_user(const char *line)
{
	const char *place = strchr(line, ' ');
	const char *end;

	if (!place)
		return false;
	place++;
	end = strchr(place, ' ');
	if (!end)
		end = place + strlen(place);
	return memchr(place, '/', (size_t)(end - place)) && memchr(place, ':', (size_t)(end - place));
}

unsigned int tfs_dynevent_kind(const char *line)
{
	switch (line[0]) {
	case 'p':
		return place_is_user(line) ? TFS_DYN_UPROBE : TFS_DYN_KPROBE;
	case 'r':
		return place_is_user(line) ? TFS_DYN_URETPROBE : TFS_DYN_KRETPROBE;
	case 'e':
		return TFS_DYN_EPROBE;
	case 's':
		return TFS_DYN_SYNTH;
	default:
		return TFS_DYN_OTHER;	/* fprobes, tracepoint probes, what comes next */
	}
}

static const struct {
	const char *name;
	unsigned int kinds;
} dynevent_names[] = {
	{ "kprobe", TFS_DYN_KPROBE },
	{ "kretprobe", TFS_DYN_KRETPROBE },
	{ "uprobe", TFS_DYN_UPROBE },
	{ "uretprobe", TFS_DYN_URETPROBE },
	{ "eprobe", TFS_DYN_EPROBE },
	{ "synth", TFS_DYN_SYNTH },
	{ "all", TFS_DYN_ALL },
};

int tfs_dynevent_kind_by_name(const char *name, unsigned int *kinds)
{
	size_t i;

	for (i = 0; i < sizeof(dynevent_names) / sizeof(dynevent_names[0]); i++) {
		if (!strcmp(name, dynevent_names[i].name)) {
			*kinds = dynevent_names[i].kinds;
			return 0;
		}
	}
	return -EINVAL;
}

int tfs_dynevents(char ***out)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	char *line, *next;
	int ret = tfs_path(&path, NULL, "dynamic_events");

	*out = NULL;
	if (!ret)
		ret = tfs_read(path.buf, &text);
	for (line = text.buf; !ret && line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (*line)
			ret = strv_push(out, line);
	}
	strbuf_release(&path);
	strbuf_release(&text);
	if (ret) {
		strv_free(*out);
		*out = NULL;
	}
	return ret;
}

/* "TYPE:GROUP/NAME ..." -> "GROUP/NAME" in buf; -EINVAL when the line has no such name */
static int event_name(const char *line, char *buf, size_t size)
{
	const char *colon = strchr(line, ':'), *end;

	if (!colon)
		return -EINVAL;
	colon++;
	end = strchr(colon, ' ');
	if (!end)
		end = colon + strlen(colon);
	if (end == colon || (size_t)(end - colon) >= size || !memchr(colon, '/', (size_t)(end - colon)))
		return -EINVAL;
	memcpy(buf, colon, (size_t)(end - colon));
	buf[end - colon] = '\0';
	return 0;
}

/* An event still enabled in an instance makes its removal EBUSY: disable it everywhere. */
static void disable_everywhere(const char *name)
{
	struct strbuf file = STRBUF_INIT;
	char **instances = NULL;
	int i;

	strbuf_addf(&file, "events/%s/enable", name);
	tfs_inst_write(NULL, file.buf, "0");
	if (!tfs_instances(&instances))
		for (i = 0; instances && instances[i]; i++)
			tfs_inst_write(instances[i], file.buf, "0");
	strv_free(instances);
	strbuf_release(&file);
}

static int remove_one(const char *path, const char *line, struct strbuf *err)
{
	char name[256], cmd[260];
	int ret = event_name(line, name, sizeof(name));

	if (ret) {
		strbuf_addf(err, "dynamic_events: cannot read the name in '%s'", line);
		return ret;
	}
	snprintf(cmd, sizeof(cmd), "-:%s", name);
	ret = tfs_write(path, cmd, strlen(cmd), false);
	if (ret == -EBUSY) {
		disable_everywhere(name);
		ret = tfs_write(path, cmd, strlen(cmd), false);
	}
	if (ret)
		strbuf_addf(err, "%scannot remove the dynamic event %s: %s", err->len ? "; " : "",
			    name, tfs_cause(ret));
	return ret;
}

int tfs_dynevents_remove(unsigned int keep, struct strbuf *err)
{
	/* event probes first: one may sit on another dynamic event, which is busy until it goes */
	static const unsigned int order[] = { TFS_DYN_EPROBE, TFS_DYN_ALL & ~TFS_DYN_EPROBE };
	struct strbuf path = STRBUF_INIT;
	char **lines = NULL;
	int ret, first = 0;
	size_t pass, i;

	ret = tfs_path(&path, NULL, "dynamic_events");
	if (!ret && access(path.buf, F_OK))
		goto out;	/* before Linux 4.17: no dynamic events to speak of here */
	for (pass = 0; !ret && pass < sizeof(order) / sizeof(order[0]); pass++) {
		ret = tfs_dynevents(&lines);
		for (i = 0; !ret && lines && lines[i]; i++) {
			unsigned int kind = tfs_dynevent_kind(lines[i]);

			if ((kind & order[pass]) && !(kind & keep)) {
				int r = remove_one(path.buf, lines[i], err);

				first = first ? first : r;
			}
		}
		strv_free(lines);
		lines = NULL;
	}
out:
	strbuf_release(&path);
	return ret ? ret : first;
}
