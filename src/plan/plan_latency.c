// SPDX-License-Identifier: GPL-2.0-only
/*
 * The latency tracers. Their result is the trace of the longest irqs-off, preempt-off or wake-up
 * path seen, which the kernel keeps in its max-latency buffer and prints in `trace`; the ring
 * buffer that trace_pipe_raw reads holds none of it. So, as trace-cmd does, a recording with one
 * of them stores that text instead of CPU data, and cannot be streamed or sent to a listener.
 *
 * trace-cmd 3.1.6 treats irqsoff, preemptoff, preemptirqsoff, wakeup and wakeup_rt so; wakeup_dl
 * (added to the kernel later, same mechanism as wakeup_rt) is one too. hwlat, osnoise and
 * timerlat write events into the ring buffer: they are recorded like any other tracer.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "plan_internal.h"

static const char *const latency_tracers[] = {
	"irqsoff", "preemptoff", "preemptirqsoff", "wakeup", "wakeup_rt", "wakeup_dl",
};

/* What a kernel must be built with to offer a tracer, for "no such tracer" messages. */
static const struct {
	const char *tracer;
	const char *config;
} tracer_configs[] = {
	{ "function", "CONFIG_FUNCTION_TRACER" },
	{ "function_graph", "CONFIG_FUNCTION_GRAPH_TRACER" },
	{ "irqsoff", "CONFIG_IRQSOFF_TRACER" },
	{ "preemptoff", "CONFIG_PREEMPT_TRACER" },
	{ "preemptirqsoff", "CONFIG_IRQSOFF_TRACER and CONFIG_PREEMPT_TRACER" },
	{ "wakeup", "CONFIG_SCHED_TRACER" },
	{ "wakeup_rt", "CONFIG_SCHED_TRACER" },
	{ "wakeup_dl", "CONFIG_SCHED_TRACER" },
	{ "hwlat", "CONFIG_HWLAT_TRACER" },
	{ "osnoise", "CONFIG_OSNOISE_TRACER" },
	{ "timerlat", "CONFIG_TIMERLAT_TRACER" },
	{ "mmiotrace", "CONFIG_MMIOTRACE" },
	{ "blk", "CONFIG_BLK_DEV_IO_TRACE" },
};

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

bool plan_tracer_is_latency(const char *tracer)
{
	size_t i;

	for (i = 0; tracer && i < ARRAY_LEN(latency_tracers); i++)
		if (!strcmp(tracer, latency_tracers[i]))
			return true;
	return false;
}

const char *plan_tracer_config(const char *tracer)
{
	size_t i;

	for (i = 0; tracer && i < ARRAY_LEN(tracer_configs); i++)
		if (!strcmp(tracer, tracer_configs[i].tracer))
			return tracer_configs[i].config;
	return NULL;
}

int plan_latency_instance(const struct plan *plan)
{
	int i;

	for (i = 0; i < plan->nr_instances; i++)
		if (plan_tracer_is_latency(plan->instances[i].tracer))
			return i;
	return -1;
}

static const char *instance_label(const struct plan_instance *inst)
{
	return inst->name ? inst->name : "the top instance";
}

/* Another instance would be configured and then silently left out of the file. */
static int check_alone(const struct plan *plan, int lat)
{
	const struct plan_instance *l = &plan->instances[lat];
	int i;

	for (i = 0; i < plan->nr_instances; i++) {
		const struct plan_instance *o = &plan->instances[i];

		if (i == lat || o->remove || !plan_instance_in_use(plan, i))
			continue;
		if (!o->tracer && !plan_instance_active(o))
			continue;
		fprintf(stderr, "ktrace %s: -p %s (in %s) cannot be recorded together with %s%s "
			"(in %s): a latency tracer's trace is a text of its own; record them "
			"separately\n", plan->cmd, l->tracer, instance_label(l),
			o->tracer ? "-p " : "events", o->tracer ? o->tracer : "",
			instance_label(o));
		return -EINVAL;
	}
	return 0;
}

int plan_check_latency(const struct plan *plan)
{
	int lat = plan_latency_instance(plan);
	const char *tracer;

	if (lat < 0)
		return 0;
	tracer = plan->instances[lat].tracer;
	/* without a file, the text of `trace` has nowhere to go */
	if (!(plan->caps & PLAN_WRITES_FILE)) {
		fprintf(stderr, "ktrace %s: -p %s: a latency tracer keeps its result in the "
			"'trace' file, not in the ring buffer; there is nothing to stream "
			"(use 'ktrace record -p %s')\n", plan->cmd, tracer, tracer);
		return -EINVAL;
	}
	if (plan->net_target) {
		fprintf(stderr, "ktrace %s: -N %s: a latency tracer's trace cannot be sent to a "
			"listener; record it to a file\n", plan->cmd, plan->net_target);
		return -EINVAL;
	}
	if (!(plan->caps & PLAN_EXTRACTS) && check_alone(plan, lat))
		return -EINVAL;
	return plan_check_tracer(plan, tracer);
}
