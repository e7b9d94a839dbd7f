/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_RECORD_PLAN_H
#define KTRACE_RECORD_PLAN_H

/* What record reads of its plan to build a capture; shared with the flight recorder's saves. */
#include "ktrace/plan.h"
#include "metadata.h"

/* The buffers to record: every instance in use, or a latency tracer's alone (latency >= 0). */
int record_instance_names(const struct plan *plan, int latency, const char ***names);
/* The formats a file of this plan carries. */
int record_collect_events(const struct plan *plan, struct meta_events *ev);

#endif
