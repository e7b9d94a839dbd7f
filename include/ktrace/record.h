/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_RECORD_H
#define KTRACE_RECORD_H

/* What other commands take from src/record: a parsed plan recorded as `ktrace record` does. */
struct plan;

/*
 * Records what plan says into plan->output (or to plan->net_target), with record's signals,
 * undo and messages (named by plan->cmd): 0, or a negative errno after the message.
 */
int record_plan_run(struct plan *plan);

#endif
