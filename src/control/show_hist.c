// SPDX-License-Identifier: GPL-2.0-only
/*
 * ktrace show --hist [EVENT]: an event's histogram (its events/SYS/EVENT/hist file, which the
 * kernel fills while a "hist:" trigger is on the event), or without EVENT, the events that
 * carry a hist trigger and the trigger itself, so that the user knows what to ask for.
 * --clear zeroes an event's histograms: the kernel clears the hist trigger that matches a
 * trigger written again with ":clear" (same keys, values and filter).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ktrace/tfs.h"
#include "show_hist.h"

/* "sys:event", "sys/event", or a bare event name that one system has (FLAG in messages). */
static int resolve_event(const char *flag, const char *spec, struct strbuf *dir)
{
	char **systems = NULL, **events = NULL;
	size_t cut = strcspn(spec, ":/");
	int s, e, found = 0, ret;

	if (spec[cut])
		return strbuf_addf(dir, "events/%.*s/%s", (int)cut, spec, spec + cut + 1);
	ret = tfs_systems(&systems);
	for (s = 0; !ret && systems[s]; s++) {
		if (tfs_system_events(systems[s], &events))
			continue;
		for (e = 0; events[e]; e++) {
			if (strcmp(events[e], spec))
				continue;
			if (!found++)
				ret = strbuf_addf(dir, "events/%s/%s", systems[s], spec);
		}
		strv_free(events);
	}
	strv_free(systems);
	if (!ret && found != 1) {
		fprintf(stderr, "ktrace show: %s '%s': %s (give SYSTEM:EVENT)\n", flag, spec,
			found ? "several systems have this event" : "no such event");
		return -ENOENT;
	}
	return ret;
}

/* A missing hist file: either the event or the kernel's hist triggers are missing. */
static void explain_missing(const char *instance, const char *spec, const char *dir)
{
	struct strbuf path = STRBUF_INIT;

	if (!tfs_path(&path, instance, dir) && !access(path.buf, F_OK))
		fprintf(stderr, "ktrace show: --hist: this kernel has no hist triggers "
			"(CONFIG_HIST_TRIGGERS)\n");
	else
		fprintf(stderr, "ktrace show: --hist '%s': no such event%s%s\n", spec,
			instance ? " in instance " : "", instance ? instance : "");
	strbuf_release(&path);
}

static int print_hist(const char *instance, const char *spec, const char *dir)
{
	struct strbuf file = STRBUF_INIT, sb = STRBUF_INIT;
	int ret = strbuf_addf(&file, "%s/hist", dir);

	if (!ret)
		ret = tfs_inst_read(instance, file.buf, &sb);
	if (ret == -ENOENT) {
		explain_missing(instance, spec, dir);
	} else if (ret) {
		fprintf(stderr, "ktrace show: --hist '%s': cannot read %s: %s\n", spec, file.buf,
			tfs_cause(ret));
	} else if (!strstr(sb.buf, "# trigger info: ")) {
		/* The kernel prints an empty histogram for an event without the trigger. */
		fprintf(stderr, "ktrace show: --hist '%s': the event has no hist trigger "
			"(-R 'hist:keys=FIELD' on record or start adds one)\n", spec);
		ret = -ENOENT;
	} else {
		/* trace-cmd 3.4 prints the file and a newline after it */
		printf("%s\n", sb.buf);
	}
	strbuf_release(&file);
	strbuf_release(&sb);
	return ret;
}

/*
 * "hist:keys=a:vals=b:size=2048 if x > 1 [active]" -> "hist:keys=a:vals=b:size=2048:clear if
 * x > 1": the state in brackets goes, the attribute goes before the filter.
 */
static int clear_command(const char *line, struct strbuf *cmd)
{
	const char *end = strrchr(line, '[');
	const char *filter = strstr(line, " if ");
	size_t len = end && end > line ? (size_t)(end - line) : strlen(line);

	while (len && line[len - 1] == ' ')
		len--;
	if (filter && (size_t)(filter - line) < len)
		return strbuf_addf(cmd, "%.*s:clear%.*s", (int)(filter - line), line,
				   (int)(len - (size_t)(filter - line)), filter);
	return strbuf_addf(cmd, "%.*s:clear", (int)len, line);
}

static int clear_hist(const char *instance, const char *spec, const char *dir)
{
	struct strbuf file = STRBUF_INIT, text = STRBUF_INIT, cmd = STRBUF_INIT, path = STRBUF_INIT;
	char *save = NULL, *line;
	int ret = strbuf_addf(&file, "%s/trigger", dir);

	if (!ret)
		ret = tfs_inst_read(instance, file.buf, &text);
	if (!ret)
		ret = tfs_path(&path, instance, file.buf);
	line = ret ? NULL : strtok_r(text.buf, "\n", &save);
	for (; !ret && line; line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, "hist:", 5))
			continue;
		strbuf_reset(&cmd);
		ret = clear_command(line, &cmd);
		/* appended: opening a trigger file with O_TRUNC removes every trigger */
		if (!ret)
			ret = tfs_write(path.buf, cmd.buf, cmd.len, false);
		if (ret)
			fprintf(stderr, "ktrace show: --hist '%s' --clear: cannot write '%s' to %s: "
				"%s\n", spec, cmd.buf, path.buf, tfs_cause(ret));
		if (ret == -EINVAL)
			tfs_print_error_log(instance, cmd.buf);
	}
	strbuf_release(&file);
	strbuf_release(&text);
	strbuf_release(&cmd);
	strbuf_release(&path);
	return ret;
}

struct hist_lister {
	const char *instance;
	struct strbuf file, text;
	int found;
};

static void list_one(const char *sys, const char *event, void *arg)
{
	struct hist_lister *l = arg;
	char *save = NULL, *line;

	strbuf_reset(&l->file);
	if (strbuf_addf(&l->file, "events/%s/%s/trigger", sys, event) ||
	    tfs_inst_read(l->instance, l->file.buf, &l->text))
		return;
	for (line = strtok_r(l->text.buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, "hist:", 5))
			continue;
		printf("%s:%s\t%s\n", sys, event, line);
		l->found++;
	}
}

static int list_hist(const char *instance)
{
	struct hist_lister l = { instance, STRBUF_INIT, STRBUF_INIT, 0 };
	int ret = tfs_for_each_event(list_one, &l);

	if (ret)
		fprintf(stderr, "ktrace show: --hist: cannot list the events: %s\n",
			tfs_cause(ret));
	else if (!l.found)
		printf("no event has a hist trigger%s%s\n", instance ? " in instance " : "",
		       instance ? instance : "");
	strbuf_release(&l.file);
	strbuf_release(&l.text);
	return ret;
}

int show_hist(const char *instance, const char *event, bool clear)
{
	struct strbuf dir = STRBUF_INIT;
	int ret;

	if (!event)
		return list_hist(instance);
	ret = resolve_event("--hist", event, &dir);
	if (!ret)
		ret = print_hist(instance, event, dir.buf);
	if (!ret && clear)
		ret = clear_hist(instance, event, dir.buf);
	strbuf_release(&dir);
	return ret;
}

int show_trigger(const char *instance, const char *event)
{
	struct strbuf file = STRBUF_INIT, sb = STRBUF_INIT;
	int ret = resolve_event("--trigger", event, &file);

	if (ret)
		goto out;	/* resolve_event said why */
	ret = strbuf_addstr(&file, "/trigger");
	if (!ret)
		ret = tfs_inst_read(instance, file.buf, &sb);
	if (ret == -ENOENT)
		fprintf(stderr, "ktrace show: --trigger '%s': no such event%s%s\n", event,
			instance ? " in instance " : "", instance ? instance : "");
	else if (ret)
		fprintf(stderr, "ktrace show: --trigger '%s': cannot read %s: %s\n", event,
			file.buf, tfs_cause(ret));
	else
		printf("%s\n", sb.buf);
out:
	strbuf_release(&file);
	strbuf_release(&sb);
	return ret;
}
