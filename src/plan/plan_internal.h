/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_PLAN_PLAN_INTERNAL_H
#define KTRACE_PLAN_PLAN_INTERNAL_H

/* Shared by the files of src/plan; not a public contract. */
#include <stdbool.h>
#include <stddef.h>

#include "ktrace/plan.h"
#include "ktrace/strbuf.h"
#include "ktrace/strv.h"
#include "ktrace/tfs.h"

/* -D's switch of the function tracer for the whole kernel */
#define PLAN_FTRACE_ENABLED "/proc/sys/kernel/ftrace_enabled"

/* Prints "ktrace CMD: FLAG 'VALUE' WHY" and returns -EINVAL. */
int plan_err_flag(const struct plan *plan, const char *flag, const char *value, const char *why);
int plan_parse_int(const struct plan *plan, const char *flag, const char *arg, int min, int max,
		   int *out);

/* --- --profile (plan_profile.c) --- */

/* Appends the events report --profile reads that inst does not have yet (pure data). */
int plan_profile_add_events(struct plan_instance *inst);
/* The tracer --profile runs where the user chose none: NULL when the kernel lacks it. */
const char *plan_profile_tracer(const struct plan *plan);
/* True when this kernel's event triggers include stacktrace (else -T's option stands in). */
bool plan_profile_stack_triggers(void);

/* --- events matching an -e (plan_events.c) --- */

struct resolved_event {
	char *system;
	char *name;	/* NULL: the whole system through its own enable file */
	const struct plan_event *ev;
};

struct resolved_instance {
	struct resolved_event *events;
	int nr_events;
};

/* Expands every -e of the plan; unknown events fail (suggesting names) unless -i. */
int plan_resolve_events(const struct plan *plan, struct resolved_instance **out);
void plan_resolved_free(const struct plan *plan, struct resolved_instance *res);

/* --- names checked against the kernel (plan_validate.c) --- */

int plan_validate(const struct plan *plan);
/*
 * -p TRACER is in available_tracers; else one message, naming the kernel config option a known
 * tracer needs ("-p irqsoff: ... CONFIG_IRQSOFF_TRACER") or suggesting close names.
 */
int plan_check_tracer(const struct plan *plan, const char *tracer);
/* Appends "; did you mean 'a', 'b'?" with the closest of candidates (nothing if none close). */
void plan_suggest(struct strbuf *msg, const char *word, char *const *candidates);

#endif
