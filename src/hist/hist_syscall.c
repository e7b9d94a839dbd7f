// SPDX-License-Identifier: GPL-2.0-only
/*
 * Syscall durations: raw_syscalls:sys_enter -> sys_exit, or syscalls:sys_enter_NAME ->
 * sys_exit_NAME, paired per thread. A thread is in one syscall at a time, so the last enter of
 * the thread is the one an exit ends; an exit whose enter came before the recording (or an
 * enter without exit, as exit_group and a successful execve) gives no value.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "ktrace/syscall_name.h"
#include "hist.h"

struct hist_syscall {
	struct hist_source src;
	struct tep_handle *tep;
	int raw_enter, raw_exit;	/* raw_syscalls event ids, -1 without */
	struct hist_pending pending;
};

static int event_id(struct tep_handle *tep, const char *name)
{
	struct tep_event *e = tep_find_event_by_name(tep, "raw_syscalls", name);

	return e && tep_find_field(e, "id") ? e->id : -1;
}

/* The syscall number of a raw_syscalls or syscalls event, or -1 for other events. */
static long syscall_nr(struct tep_event *e, struct tep_record *rec, const char *field)
{
	unsigned long long v;

	if (tep_get_field_val(NULL, e, field, rec, &v, 0))
		return -1;
	return (long)v;
}

static int add_duration(struct hist_syscall *s, struct tep_event *e, struct tep_record *rec,
			long nr)
{
	struct hist_start *st = hist_pending_get(&s->pending, tep_data_pid(s->tep, rec));
	const char *name = syscall_name(nr);
	char buf[32];

	if (!st)
		return -ENOMEM;
	if (!st->set || st->key != nr || rec->ts < st->ts)
		return 0;
	st->set = false;
	if (!name && !strncmp(e->name, "sys_exit_", 9))
		name = e->name + 9;
	if (!name) {
		snprintf(buf, sizeof(buf), "%ld", nr);
		name = buf;
	}
	return hist_set_add(&s->src.set, name, rec->ts - st->ts);
}

static int syscall_event(struct hist_source *src, struct tep_record *rec)
{
	struct hist_syscall *s = (struct hist_syscall *)src;
	int type = tep_data_type(s->tep, rec);
	struct tep_event *e = tep_find_event(s->tep, type);
	struct hist_start *st;
	bool raw, enter;
	long nr;

	if (!e)
		return 0;
	raw = type == s->raw_enter || type == s->raw_exit;
	if (!raw && strcmp(e->system, "syscalls"))
		return 0;
	enter = raw ? type == s->raw_enter : !strncmp(e->name, "sys_enter_", 10);
	nr = syscall_nr(e, rec, raw ? "id" : "__syscall_nr");
	if (nr < 0)
		return 0;
	if (!enter)
		return add_duration(s, e, rec, nr);
	st = hist_pending_get(&s->pending, tep_data_pid(s->tep, rec));
	if (!st)
		return -ENOMEM;
	st->set = true;
	st->ts = rec->ts;
	st->key = nr;
	return 0;
}

static void syscall_free(struct hist_source *src)
{
	struct hist_syscall *s = (struct hist_syscall *)src;

	hist_pending_release(&s->pending);
	hist_set_release(&s->src.set);
	free(s);
}

static bool has_syscalls_events(struct tep_handle *tep)
{
	struct tep_event **events = tep_list_events(tep, TEP_EVENT_SORT_ID);

	for (; events && *events; events++)
		if (!strcmp((*events)->system, "syscalls"))
			return true;
	return false;
}

int hist_syscall_new(const struct hist_source_conf *c, struct hist_source **out,
		     struct strbuf *err)
{
	struct hist_syscall *s = calloc(1, sizeof(*s));

	if (!s)
		return -ENOMEM;
	s->tep = c->tep;
	s->raw_enter = event_id(c->tep, "sys_enter");
	s->raw_exit = event_id(c->tep, "sys_exit");
	if ((s->raw_enter < 0 || s->raw_exit < 0) && !has_syscalls_events(c->tep)) {
		strbuf_addstr(err, "the file has no raw_syscalls:sys_enter/sys_exit nor syscalls "
			      "events (record with -e raw_syscalls)");
		free(s);
		return -EINVAL;
	}
	s->src.event = syscall_event;
	s->src.free = syscall_free;
	*out = &s->src;
	return 0;
}
