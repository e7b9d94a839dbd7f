// SPDX-License-Identifier: GPL-2.0-only
/*
 * -e SPEC -> the events of the running kernel it names. Whole systems (and "all") without a
 * filter or trigger stay whole, so that apply writes one system enable file instead of one
 * per event.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tracefs.h>

#include "plan_internal.h"

struct catalog {
	char **systems;
	char ***events;		/* events[i] of systems[i], NULL until first needed */
	int nr;
};

static void catalog_free(struct catalog *cat)
{
	int i;

	for (i = 0; i < cat->nr; i++)
		strv_free(cat->events[i]);
	free(cat->events);
	strv_free(cat->systems);
}

static int catalog_load(struct catalog *cat)
{
	int ret;

	memset(cat, 0, sizeof(*cat));
	ret = tfs_systems(&cat->systems);
	if (ret)
		return ret;
	cat->events = calloc(strv_len(cat->systems) + 1, sizeof(*cat->events));
	if (!cat->events)
		return -ENOMEM;
	cat->nr = strv_len(cat->systems);
	return 0;
}

/* A system's events are listed when a spec needs them: "-e sys:event" reads one directory. */
static int catalog_events(struct catalog *cat, int s, char ***events)
{
	int ret = cat->events[s] ? 0 : tfs_system_events(cat->systems[s], &cat->events[s]);

	*events = cat->events[s];
	return ret;
}

static int push(struct resolved_instance *ri, const char *sys, const char *name,
		const struct plan_event *ev)
{
	struct resolved_event *arr, *r;

	arr = realloc(ri->events, (ri->nr_events + 1) * sizeof(*arr));
	if (!arr)
		return -ENOMEM;
	ri->events = arr;
	r = &arr[ri->nr_events++];
	r->ev = ev;
	r->system = sys ? strdup(sys) : NULL;
	r->name = name ? strdup(name) : NULL;
	if ((sys && !r->system) || (name && !r->name))
		return -ENOMEM;
	return 0;
}

static bool keeps_whole(const struct plan_event *ev)
{
	return !ev->filter && !ev->triggers;
}

static int add_system(struct resolved_instance *ri, struct catalog *cat, int s,
		      const struct plan_event *ev)
{
	char **events;
	int j, ret = 0;

	if (keeps_whole(ev))
		return push(ri, cat->systems[s], NULL, ev);
	ret = catalog_events(cat, s, &events);
	for (j = 0; !ret && events[j]; j++)
		ret = push(ri, cat->systems[s], events[j], ev);
	return ret;
}

static bool glob_match(const char *pattern, const char *s)
{
	return !fnmatch(pattern, s, 0);
}

/* Returns the number of matches (>= 0) or negative errno. */
static int match_event(struct resolved_instance *ri, struct catalog *cat,
		       const struct plan_event *ev)
{
	char **events;
	int s, j, n = 0, ret = 0;

	if (!ev->system && !ev->name && keeps_whole(ev))
		return push(ri, NULL, NULL, ev) ? -ENOMEM : 1;
	for (s = 0; s < cat->nr && !ret; s++) {
		const char *sys = cat->systems[s];
		bool sys_ok = !ev->system || glob_match(ev->system, sys);

		if (!sys_ok)
			continue;
		/* "all", "sys:" and a bare word naming a system take the whole system. */
		if (!ev->name || (!ev->system && glob_match(ev->name, sys))) {
			ret = add_system(ri, cat, s, ev);
			n++;
			continue;
		}
		ret = catalog_events(cat, s, &events);
		for (j = 0; !ret && events[j]; j++) {
			if (!glob_match(ev->name, events[j]))
				continue;
			ret = push(ri, sys, events[j], ev);
			n++;
		}
	}
	return ret ? ret : n;
}

static int candidates(struct catalog *cat, bool with_system, char ***out)
{
	struct strbuf sb = STRBUF_INIT;
	char **events = NULL;
	int s, j, ret = 0;

	*out = NULL;
	for (s = 0; s < cat->nr && !ret; s++) {
		if (!with_system)
			ret = strv_push(out, cat->systems[s]);
		if (!ret)
			ret = catalog_events(cat, s, &events);
		for (j = 0; !ret && events[j]; j++) {
			strbuf_reset(&sb);
			if (with_system)
				ret = strbuf_addf(&sb, "%s:", cat->systems[s]);
			if (!ret)
				ret = strbuf_addstr(&sb, events[j]);
			if (!ret)
				ret = strv_push(out, sb.buf);
		}
	}
	strbuf_release(&sb);
	return ret;
}

static int report_missing(const struct plan *plan, struct catalog *cat,
			  const struct plan_event *ev)
{
	struct strbuf msg = STRBUF_INIT;
	char **cands = NULL;

	strbuf_addf(&msg, "ktrace %s: -e '%s': no such event", plan->cmd, ev->spec);
	if (!candidates(cat, ev->system != NULL, &cands))
		plan_suggest(&msg, ev->system ? ev->spec : ev->name, cands);
	strv_free(cands);
	fprintf(stderr, "%s%s\n", msg.buf,
		plan->ignore_missing ? " (ignored: -i)" : " (see 'ktrace list -e')");
	strbuf_release(&msg);
	return plan->ignore_missing ? 0 : -ENOENT;
}

static int resolve_instance(const struct plan *plan, const struct plan_instance *inst,
			    struct catalog *cat, struct resolved_instance *ri)
{
	int i, n, ret = 0;

	for (i = 0; i < inst->nr_events && !ret; i++) {
		n = match_event(ri, cat, &inst->events[i]);
		if (n < 0)
			return n;
		if (n == 0 && !inst->events[i].optional)
			ret = report_missing(plan, cat, &inst->events[i]);
	}
	return ret;
}

int plan_resolve_events(const struct plan *plan, struct resolved_instance **out)
{
	struct resolved_instance *res;
	struct catalog cat;
	int i, ret;

	res = calloc(plan->nr_instances, sizeof(*res));
	*out = res;
	if (!res)
		return -ENOMEM;
	ret = catalog_load(&cat);
	if (ret)
		fprintf(stderr, "ktrace %s: cannot list the events of %s/events: %s\n", plan->cmd,
			tracefs_tracing_dir(), strerror(-ret));
	for (i = 0; i < plan->nr_instances && !ret; i++)
		ret = resolve_instance(plan, &plan->instances[i], &cat, &res[i]);
	catalog_free(&cat);
	return ret;
}

void plan_resolved_free(const struct plan *plan, struct resolved_instance *res)
{
	int i, j;

	if (!res)
		return;
	for (i = 0; i < plan->nr_instances; i++) {
		for (j = 0; j < res[i].nr_events; j++) {
			free(res[i].events[j].system);
			free(res[i].events[j].name);
		}
		free(res[i].events);
	}
	free(res);
}
