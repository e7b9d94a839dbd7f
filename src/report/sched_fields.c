// SPDX-License-Identifier: GPL-2.0-only
/* The sched events' fields by name, looked up once per file (sched_fields.h). */
#include <event-parse.h>

#include "ktrace/sched_fields.h"

void sched_switch_fields_find(struct tep_handle *tep, struct sched_switch_fields *f)
{
	struct tep_event *e = tep_find_event_by_name(tep, "sched", "sched_switch");

	f->id = -1;
	if (!e)
		return;
	f->prev_comm = tep_find_any_field(e, "prev_comm");
	f->prev_pid = tep_find_field(e, "prev_pid");
	f->prev_prio = tep_find_field(e, "prev_prio");
	f->prev_state = tep_find_field(e, "prev_state");
	f->next_comm = tep_find_any_field(e, "next_comm");
	f->next_pid = tep_find_field(e, "next_pid");
	f->next_prio = tep_find_field(e, "next_prio");
	if (f->prev_comm && f->prev_pid && f->prev_prio && f->prev_state && f->next_comm &&
	    f->next_pid && f->next_prio)
		f->id = e->id;
}

void sched_wakeup_fields_find(struct tep_handle *tep, const char *name,
			      struct sched_wakeup_fields *f)
{
	struct tep_event *e = tep_find_event_by_name(tep, "sched", name);

	f->id = -1;
	if (!e)
		return;
	f->comm = tep_find_any_field(e, "comm");
	f->pid = tep_find_field(e, "pid");
	f->prio = tep_find_field(e, "prio");
	/* success is gone since Linux 4.19 and target_cpu may be missing: both optional */
	f->success = tep_find_field(e, "success");
	f->target_cpu = tep_find_field(e, "target_cpu");
	if (f->comm && f->pid && f->prio)
		f->id = e->id;
}
