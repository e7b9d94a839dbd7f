// SPDX-License-Identifier: GPL-2.0-only
/*
 * --profile: what trace-cmd 3.1.6's record --profile enables, so that report --profile (ours or
 * trace-cmd's) finds what it reads: the scheduler's switches and wakeups with their stacks (the
 * blocking stacks), interrupts, page faults, exec and the syscalls, and function_graph at depth 1
 * (where tasks enter and leave the kernel) when no tracer is given and the kernel has it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "plan_internal.h"

struct profile_event {
	const char *spec;
	bool stack;
};

/* trace-cmd's list and order; the ones a kernel lacks are left out */
static const struct profile_event profile_events[] = {
	{ "sched:sched_switch", true },
	{ "sched:sched_wakeup", true },
	{ "exceptions:page_fault_user", false },
	{ "irq:irq_handler_entry", false },
	{ "irq:irq_handler_exit", false },
	{ "irq:softirq_entry", false },
	{ "irq:softirq_exit", false },
	{ "irq:softirq_raise", false },
	{ "sched:sched_process_exec", false },
	{ "raw_syscalls:", false },
};

/* The user's -e naming the same event (sys:name, or the bare name): it gets the stack. */
static struct plan_event *find_event(struct plan_instance *inst, const char *spec)
{
	const char *name = strchr(spec, ':') + 1;
	int i;

	for (i = 0; i < inst->nr_events; i++) {
		struct plan_event *ev = &inst->events[i];

		if (ev->negate)
			continue;
		if (!strcmp(ev->spec, spec) || (*name && !strcmp(ev->spec, name)))
			return ev;
	}
	return NULL;
}

static int add_event(struct plan_instance *inst, const struct profile_event *pe)
{
	const char *colon = strchr(pe->spec, ':');
	struct plan_event *arr, *ev;

	arr = realloc(inst->events, (inst->nr_events + 1) * sizeof(*arr));
	if (!arr)
		return -ENOMEM;
	inst->events = arr;
	ev = &arr[inst->nr_events++];
	memset(ev, 0, sizeof(*ev));
	ev->optional = true;
	ev->profile_stack = pe->stack;
	ev->spec = strdup(pe->spec);
	ev->system = strndup(pe->spec, colon - pe->spec);
	if (colon[1])
		ev->name = strdup(colon + 1);
	if (!ev->spec || !ev->system || (colon[1] && !ev->name))
		return -ENOMEM;
	return 0;
}

int plan_profile_add_events(struct plan_instance *inst)
{
	size_t i;
	int ret = 0;

	for (i = 0; i < sizeof(profile_events) / sizeof(profile_events[0]) && !ret; i++) {
		struct plan_event *ev = find_event(inst, profile_events[i].spec);

		if (ev)
			ev->profile_stack |= profile_events[i].stack;
		else
			ret = add_event(inst, &profile_events[i]);
	}
	return ret;
}

const char *plan_profile_tracer(const struct plan *plan)
{
	struct strbuf path = STRBUF_INIT;
	bool has_depth;

	has_depth = !tfs_path(&path, NULL, "max_graph_depth") && !access(path.buf, F_OK);
	strbuf_release(&path);
	if (has_depth)
		return "function_graph";
	fprintf(stderr, "ktrace %s: --profile: the kernel has no max_graph_depth (no function_graph); "
		"kernel entry and exit times are left out\n", plan->cmd);
	return NULL;
}

bool plan_profile_stack_triggers(void)
{
	struct strbuf text = STRBUF_INIT;
	bool found;

	found = !tfs_inst_read(NULL, "events/sched/sched_switch/trigger", &text) && text.buf &&
		strstr(text.buf, "stacktrace");
	strbuf_release(&text);
	return found;
}
