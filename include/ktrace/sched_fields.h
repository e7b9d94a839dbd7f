/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_SCHED_FIELDS_H
#define KTRACE_SCHED_FIELDS_H

/*
 * The fields of sched_switch and of sched_wakeup/sched_wakeup_new/sched_waking, found once by
 * name, for those that read them by the million: report's sched printer and --profile, the
 * Perfetto export, hist. id is -1 when the file lacks the event or a field it needs; success
 * and target_cpu are optional (NULL).
 */

struct tep_format_field;
struct tep_handle;

struct sched_switch_fields {
	int id;
	struct tep_format_field *prev_comm, *prev_pid, *prev_prio, *prev_state;
	struct tep_format_field *next_comm, *next_pid, *next_prio;
};

struct sched_wakeup_fields {
	int id;
	struct tep_format_field *comm, *pid, *prio, *success, *target_cpu;
};

void sched_switch_fields_find(struct tep_handle *tep, struct sched_switch_fields *f);
/* name: sched_wakeup, sched_wakeup_new or sched_waking */
void sched_wakeup_fields_find(struct tep_handle *tep, const char *name,
			      struct sched_wakeup_fields *f);

#endif
