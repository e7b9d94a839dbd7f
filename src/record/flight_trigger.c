// SPDX-License-Identifier: GPL-2.0-only
/* --save-on: the watcher instance and the kernel's snapshot trigger (flight_trigger.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "flight_trigger.h"
#include "ktrace/options.h"
#include "ktrace/plan.h"
#include "ktrace/tfs.h"

/* it only holds the trigger's events until ktrace wakes */
#define WATCH_BUFFER_KB 16

void flight_trigger_init(struct flight_trigger *t)
{
	int i;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < FLIGHT_MAX_WATCH_FDS; i++)
		t->fds[i].fd = -1;
}

/* "EVENT: FILTER" -> EVENT, FILTER: the filter starts after the first colon and blank. */
static int split(const char *save_on, char **event, char **filter)
{
	const char *p = save_on, *sep = NULL;

	for (; *p; p++)
		if (*p == ':' && (p[1] == ' ' || p[1] == '\t' || !p[1])) {
			sep = p;
			break;
		}
	*event = strndup(save_on, sep ? (size_t)(sep - save_on) : strlen(save_on));
	*filter = NULL;
	if (sep) {
		sep += 1 + strspn(sep + 1, " \t");
		if (*sep)
			*filter = strdup(sep);
	}
	return *event ? 0 : -ENOMEM;
}

int flight_trigger_check(const char *save_on)
{
	char *event, *filter;
	int ret;

	if (!save_on)
		return 0;
	ret = split(save_on, &event, &filter);
	if (!ret && (!*event || strpbrk(event, "*?[ ") || !strcmp(event, "all")))
		ret = kt_option_error("record", "--save-on", save_on,
				      "needs one event, then ': FILTER' (e.g. 'sched_switch: "
				      "prev_state == 2')");
	free(event);
	free(filter);
	return ret;
}

struct event_lookup {
	const char *name;
	char *system;
};

static void match_event(const char *sys, const char *event, void *arg)
{
	struct event_lookup *l = arg;

	if (!l->system && !strcmp(event, l->name))
		l->system = strdup(sys);
}

/* events/SYS/EVENT/trigger of the instance, when its list of triggers offers snapshot. */
static char *snapshot_trigger_path(const char *instance, const char *event)
{
	struct event_lookup l = { .name = strchr(event, ':') ? strchr(event, ':') + 1 : event };
	struct strbuf rel = STRBUF_INIT, path = STRBUF_INIT, text = STRBUF_INIT;
	char *out = NULL;

	if (strchr(event, ':'))
		l.system = strndup(event, (size_t)(strchr(event, ':') - event));
	else
		tfs_for_each_event(match_event, &l);
	if (!l.system)
		return NULL;
	strbuf_addf(&rel, "events/%s/%s/trigger", l.system, l.name);
	/* the instance may not exist yet: the top one lists the same triggers */
	if (!tfs_path(&path, NULL, strbuf_str(&rel)) && !tfs_read(strbuf_str(&path), &text) &&
	    strstr(strbuf_str(&text), " snapshot")) {
		strbuf_reset(&path);
		if (!tfs_path(&path, instance, strbuf_str(&rel)))
			out = strbuf_detach(&path, NULL);
	}
	free(l.system);
	strbuf_release(&rel);
	strbuf_release(&path);
	strbuf_release(&text);
	return out;
}

int flight_trigger_plan(struct flight_trigger *t, struct plan *plan, const char *save_on,
			const char *const *names, int nr_names, bool snapshot)
{
	int ret;

	if (!save_on)
		return 0;
	ret = split(save_on, &t->event, &t->filter);
	if (ret)
		return ret;
	snprintf(t->watch, sizeof(t->watch), "ktrace-flight-%d", (int)getpid());
	ret = plan_add_event(plan, t->watch, t->event, t->filter, NULL, WATCH_BUFFER_KB);
	if (ret || !snapshot || nr_names != 1)
		return ret;
	t->trigger_path = snapshot_trigger_path(names[0], t->event);
	if (t->trigger_path && asprintf(&t->trigger_text, "snapshot:1%s%s", t->filter ? " if " : "",
					t->filter ? t->filter : "") < 0)
		return -ENOMEM;
	return 0;
}

static int write_trigger(const struct flight_trigger *t, struct strbuf *err)
{
	int ret = tfs_write(t->trigger_path, t->trigger_text, strlen(t->trigger_text), false);

	if (ret)
		strbuf_addf(err, "cannot write '%s' to %s: %s", t->trigger_text, t->trigger_path,
			    tfs_cause(ret));
	return ret;
}

int flight_open_cpu_pipes(const char *instance, int *fds, int max, struct strbuf *err)
{
	long cpus = sysconf(_SC_NPROCESSORS_CONF);
	int cpu, n = 0, ret = 0;

	if (cpus > max)
		fprintf(stderr, "ktrace record: watching the first %d of %ld CPUs only\n", max, cpus);
	for (cpu = 0; !ret && cpu < cpus && n < max; cpu++) {
		struct strbuf rel = STRBUF_INIT, path = STRBUF_INIT;
		int fd = -1;

		strbuf_addf(&rel, "per_cpu/cpu%d/trace_pipe_raw", cpu);
		ret = tfs_path(&path, instance, strbuf_str(&rel));
		if (!ret) {
			fd = open(strbuf_str(&path), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
			/* a CPU that is not there (offline, never present) has no directory */
			if (fd < 0 && errno != ENOENT)
				ret = -errno;
			if (ret)
				strbuf_addf(err, "cannot open %s: %s", strbuf_str(&path),
					    strerror(-ret));
		} else {
			strbuf_addf(err, "%s of instance %s: %s", strbuf_str(&rel), instance,
				    strerror(-ret));
		}
		if (fd >= 0)
			fds[n++] = fd;
		strbuf_release(&rel);
		strbuf_release(&path);
	}
	if (ret)
		while (n > 0)
			close(fds[--n]);
	return ret ? ret : n;
}

static int open_watch_fds(struct flight_trigger *t, struct strbuf *err)
{
	int fds[FLIGHT_MAX_WATCH_FDS], i, n;

	n = flight_open_cpu_pipes(t->watch, fds, FLIGHT_MAX_WATCH_FDS, err);
	for (i = 0; i < n; i++) {
		t->fds[t->nr_fds].fd = fds[i];
		t->fds[t->nr_fds].events = POLLIN;
		t->nr_fds++;
	}
	return n < 0 ? n : 0;
}

int flight_trigger_arm(struct flight_trigger *t, struct tfs_undo *undo, struct strbuf *err)
{
	int ret;

	if (!t->watch[0])
		return 0;
	/* readable at the first event, not at half full: the watcher is ours, removed on undo */
	ret = tfs_inst_write(t->watch, "buffer_percent", "0");
	if (ret)
		strbuf_addf(err, "cannot write 0 to %s's buffer_percent: %s", t->watch,
			    tfs_cause(ret));
	if (!ret)
		ret = open_watch_fds(t, err);
	if (ret || !t->trigger_path)
		return ret;
	/* after flight_saver_arm: undo (newest first) removes it before freeing the snapshot */
	ret = tfs_undo_save_append(undo, t->trigger_path, "!snapshot");
	if (ret)
		strbuf_addf(err, "cannot save the undo of %s: %s", t->trigger_path, strerror(-ret));
	if (!ret)
		ret = write_trigger(t, err);
	return ret;
}

int flight_trigger_pollfds(struct flight_trigger *t, struct pollfd **fds)
{
	*fds = t->fds;
	return t->nr_fds;
}

bool flight_trigger_fired(struct flight_trigger *t)
{
	char page[4096];
	int i, n;

	for (i = 0; i < t->nr_fds; i++) {
		for (n = 0; n < 256 && read(t->fds[i].fd, page, sizeof(page)) > 0; n++)
			;
		t->fds[i].revents = 0;
	}
	return t->trigger_path != NULL;
}

int flight_trigger_rearm(struct flight_trigger *t, struct strbuf *err)
{
	int ret;

	if (!t->trigger_path)
		return 0;
	strbuf_reset(err);
	ret = tfs_write(t->trigger_path, "!snapshot", strlen("!snapshot"), false);
	if (ret)
		strbuf_addf(err, "cannot remove the snapshot trigger of %s: %s", t->trigger_path,
			    tfs_cause(ret));
	return ret ? ret : write_trigger(t, err);
}

void flight_trigger_close(struct flight_trigger *t)
{
	int i;

	for (i = 0; i < t->nr_fds; i++)
		if (t->fds[i].fd >= 0)
			close(t->fds[i].fd);
	t->nr_fds = 0;
}

void flight_trigger_release(struct flight_trigger *t)
{
	flight_trigger_close(t);
	free(t->event);
	free(t->filter);
	free(t->trigger_path);
	free(t->trigger_text);
	memset(t, 0, sizeof(*t));
}
