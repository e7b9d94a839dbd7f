// SPDX-License-Identifier: GPL-2.0-only
/* Small helpers of the plan: messages, number parsing, string vectors, release. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ktrace/options.h"
#include "plan_internal.h"

int plan_err_flag(const struct plan *plan, const char *flag, const char *value, const char *why)
{
	return kt_option_error(plan->cmd, flag, value, why);
}

int plan_parse_int(const struct plan *plan, const char *flag, const char *arg, int min, int max,
		   int *out)
{
	char why[96];
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || end == arg || *end || v < min || v > max) {
		snprintf(why, sizeof(why), "is not a number from %d to %d", min, max);
		return plan_err_flag(plan, flag, arg, why);
	}
	*out = (int)v;
	return 0;
}

bool plan_instance_wants_function(const struct plan_instance *inst)
{
	return (inst->tracer && !strncmp(inst->tracer, "function", 8)) || inst->func_filters ||
	       inst->func_notrace || inst->graph_funcs || inst->max_graph_depth ||
	       inst->func_stack;
}

bool plan_instance_active(const struct plan_instance *inst)
{
	int i;

	if ((inst->tracer && strcmp(inst->tracer, "nop")) || inst->profile)
		return true;
	for (i = 0; i < inst->nr_events; i++)
		if (!inst->events[i].negate)
			return true;
	return false;
}

static void release_instance(struct plan_instance *inst)
{
	int i;

	for (i = 0; i < inst->nr_events; i++) {
		free(inst->events[i].spec);
		free(inst->events[i].system);
		free(inst->events[i].name);
		free(inst->events[i].filter);
		strv_free(inst->events[i].triggers);
	}
	free(inst->events);
	free(inst->name);
	free(inst->tracer);
	strv_free(inst->func_filters);
	strv_free(inst->func_notrace);
	strv_free(inst->graph_funcs);
	free(inst->clock);
	free(inst->cpumask);
	strv_free(inst->options);
	free(inst->module);
}

void plan_release(struct plan *plan)
{
	int i;

	for (i = 0; i < plan->nr_instances; i++)
		release_instance(&plan->instances[i]);
	free(plan->instances);
	free(plan->pids);
	free(plan->output);
	/* The strings belong to argv; only the array is ours. */
	free(plan->command);
	free(plan->net_target);
	free(plan->net_tls_cert);
	free(plan->net_tls_key);
	free(plan->net_tls_ca);
	free(plan->net_tls_psk);
	free(plan->user);
	free(plan->ts_offset);
	free(plan->temp_dir);
	memset(plan, 0, sizeof(*plan));
}
