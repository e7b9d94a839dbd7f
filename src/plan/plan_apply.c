// SPDX-License-Identifier: GPL-2.0-only
/*
 * A validated plan -> tracefs. Every file is saved in the undo list right before its first
 * write, so a failure half way restores exactly what had been changed. Order matters, per
 * instance: tracing_on=0 first, then the function filters (the files a locked-down kernel
 * refuses), events and settings, and current_tracer last. A function tracer started before
 * its filters traces every kernel function for a while, which can stall a slow machine for
 * minutes. Undo walks the list backwards, so the tracer goes back (to nop) before the
 * filters are cleared, for the same reason.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <tracefs.h>

#include "plan_internal.h"

struct applier {
	const struct plan *plan;
	struct tfs_undo *undo;
	const char *inst;	/* instance name, NULL for the top one */
	const struct plan_instance *pinst;	/* its part of the plan (for_each_used) */
	pid_t command_pid;	/* -F: the held command, in the pid filters with -P's; 0 if none */
	struct strbuf path;
	int filters_taken;	/* events of the current -e that accepted its filter */
	bool stack_triggers;	/* --profile: the kernel's triggers have stacktrace */
};

static int write_failed(struct applier *ap, const char *val, int err)
{
	if (err == -EPERM || err == -EACCES)
		fprintf(stderr, "ktrace %s: the kernel refuses writes to %s (%s)\n", ap->plan->cmd,
			ap->path.buf, tfs_cause(err));
	else
		fprintf(stderr, "ktrace %s: cannot write '%s' to %s: %s\n", ap->plan->cmd, val,
			ap->path.buf, strerror(-err));
	if (err == -EINVAL)
		tfs_print_error_log(ap->inst, val);
	return err;
}

static int save_path(struct applier *ap, const char *file)
{
	int ret = tfs_path(&ap->path, ap->inst, file);

	if (!ret)
		ret = tfs_undo_save_file(ap->undo, ap->path.buf);
	if (ret && ret != -ENOMEM)
		fprintf(stderr, "ktrace %s: cannot read %s: %s\n", ap->plan->cmd, ap->path.buf,
			tfs_cause(ret));
	return ret;
}

/* Saves FILE of the current instance, then writes VAL (empty with truncate: clears it). */
static int set_file(struct applier *ap, const char *file, const char *val)
{
	int ret = save_path(ap, file);

	if (!ret)
		ret = tfs_write(ap->path.buf, val, strlen(val), true);
	if (ret && ret != -ENOMEM && ap->path.len)
		write_failed(ap, val, ret);
	return ret;
}

static int set_file_list(struct applier *ap, const char *file, char *const *words)
{
	struct strbuf sb = STRBUF_INIT;
	int i, ret = 0;

	for (i = 0; words && words[i] && !ret; i++)
		ret = strbuf_addf(&sb, "%s%s", i ? " " : "", words[i]);
	if (!ret)
		ret = set_file(ap, file, strbuf_str(&sb));
	strbuf_release(&sb);
	return ret;
}

static int set_int(struct applier *ap, const char *file, long v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%ld", v);
	return set_file(ap, file, buf);
}

static int set_option(struct applier *ap, const char *opt)
{
	struct strbuf file = STRBUF_INIT;
	bool off = !strncmp(opt, "no", 2);
	int ret;

	/* "nofoo" is foo off, unless an option really is named "nofoo". */
	ret = strbuf_addf(&file, "options/%s", opt);
	if (!ret && off && (tfs_path(&ap->path, ap->inst, file.buf) ||
			    access(ap->path.buf, F_OK))) {
		strbuf_reset(&file);
		ret = strbuf_addf(&file, "options/%s", opt + 2);
	} else {
		off = false;
	}
	if (!ret)
		ret = set_file(ap, file.buf, off ? "0" : "1");
	strbuf_release(&file);
	return ret;
}

/*
 * -c: children of the traced tasks join the event pid filter (event-fork) and, as with
 * trace-cmd, the function tracers' one (function-fork), where the kernel has that option.
 */
static int follow_children(struct applier *ap)
{
	int ret = set_file(ap, "options/event-fork", "1");

	if (!ret && !tfs_path(&ap->path, ap->inst, "options/function-fork") &&
	    !access(ap->path.buf, F_OK))
		ret = set_file(ap, "options/function-fork", "1");
	return ret;
}

static int apply_pids(struct applier *ap, const char *file, const pid_t *pids, int nr,
		      bool truncate)
{
	struct strbuf sb = STRBUF_INIT;
	int i, ret = 0;

	for (i = 0; i < nr && !ret; i++)
		ret = strbuf_addf(&sb, "%d ", (int)pids[i]);
	if (!ret)
		ret = save_path(ap, file);
	if (!ret)
		ret = tfs_write(ap->path.buf, strbuf_str(&sb), sb.len, truncate);
	if (ret && ret != -ENOMEM)
		write_failed(ap, strbuf_str(&sb), ret);
	strbuf_release(&sb);
	return ret;
}

/* -P's pids and the command's under -F; nothing is written when there are none. */
static int apply_task_pids(struct applier *ap, const char *file)
{
	const struct plan *plan = ap->plan;
	int ret = 0;

	if (plan->nr_pids)
		ret = apply_pids(ap, file, plan->pids, plan->nr_pids, true);
	if (!ret && ap->command_pid)
		ret = apply_pids(ap, file, &ap->command_pid, 1, !plan->nr_pids);
	return ret;
}

/* Everything that limits a function tracer; current_tracer itself comes later. */
static int apply_function_filters(struct applier *ap, const struct plan_instance *inst)
{
	int ret = 0;

	if (inst->func_filters)
		ret = set_file_list(ap, "set_ftrace_filter", inst->func_filters);
	if (!ret && inst->func_notrace)
		ret = set_file_list(ap, "set_ftrace_notrace", inst->func_notrace);
	if (!ret && inst->graph_funcs)
		ret = set_file_list(ap, "set_graph_function", inst->graph_funcs);
	if (!ret && inst->max_graph_depth)
		ret = set_int(ap, "max_graph_depth", inst->max_graph_depth);
	if (!ret && inst->func_stack)
		ret = set_file(ap, "options/func_stack_trace", "1");
	if (!ret)
		ret = apply_task_pids(ap, "set_ftrace_pid");
	return ret;
}

static int event_file(struct applier *ap, const struct resolved_event *r, const char *file,
		      struct strbuf *out)
{
	strbuf_reset(out);
	if (!r->system)
		return strbuf_addf(out, "events/%s", file);
	if (!r->name)
		return strbuf_addf(out, "events/%s/%s", r->system, file);
	return strbuf_addf(out, "events/%s/%s/%s", r->system, r->name, file);
}

/*
 * The undo entry ("!trigger") is saved only once the kernel took the trigger: when the same
 * trigger already existed, the write fails and undo must not remove the user's one.
 */
static int add_trigger(struct applier *ap, const char *file, const char *trigger)
{
	struct strbuf undo_text = STRBUF_INIT;
	int ret;

	ret = tfs_path(&ap->path, ap->inst, file);
	if (!ret)
		ret = tfs_write(ap->path.buf, trigger, strlen(trigger), false);
	if (ret && ret != -ENOMEM)
		write_failed(ap, trigger, ret);
	if (!ret)
		ret = strbuf_addf(&undo_text, "!%s", trigger);
	if (!ret)
		ret = tfs_undo_save_append(ap->undo, ap->path.buf, undo_text.buf);
	strbuf_release(&undo_text);
	return ret;
}

/* Enable files need no saving of their own: set_event, saved before, restores them all. */
static int write_enable(struct applier *ap, const char *file, bool on)
{
	int ret = tfs_path(&ap->path, ap->inst, file);

	if (!ret)
		ret = tfs_write(ap->path.buf, on ? "1" : "0", 1, true);
	if (ret && ret != -ENOMEM)
		write_failed(ap, on ? "1" : "0", ret);
	return ret;
}

/*
 * An -e matching several events sets its filter where the fields exist, like a system filter
 * file does: an event without those fields (EINVAL) keeps no filter, quietly.
 */
static int set_filter(struct applier *ap, const char *file, const char *filter, bool lenient)
{
	int ret;

	if (!lenient) {
		ret = set_file(ap, file, filter);
		ap->filters_taken += !ret;
		return ret;
	}
	ret = save_path(ap, file);
	if (!ret)
		ret = tfs_write(ap->path.buf, filter, strlen(filter), true);
	ap->filters_taken += !ret;
	if (ret != -EINVAL)
		return ret;
	/* The file now shows the parse error as if it were a filter: clear it. */
	tfs_write(ap->path.buf, "0", 1, true);
	return 0;
}

static bool has_trigger(char *const *triggers, const char *name)
{
	for (; triggers && *triggers; triggers++)
		if (!strcmp(*triggers, name))
			return true;
	return false;
}

static int apply_event(struct applier *ap, const struct resolved_event *r, bool lenient)
{
	const struct plan_event *ev = r->ev;
	struct strbuf file = STRBUF_INIT;
	int i, ret;

	ret = event_file(ap, r, "enable", &file);
	if (!ret)
		ret = write_enable(ap, file.buf, !ev->negate);
	if (!ret && ev->filter && !ev->negate) {
		ret = event_file(ap, r, "filter", &file);
		if (!ret)
			ret = set_filter(ap, file.buf, ev->filter, lenient);
	}
	for (i = 0; !ret && !ev->negate && ev->triggers && ev->triggers[i]; i++) {
		ret = event_file(ap, r, "trigger", &file);
		if (!ret)
			ret = add_trigger(ap, file.buf, ev->triggers[i]);
	}
	/* the kernel refuses a trigger twice: the user's own -R stacktrace serves */
	if (!ret && ev->profile_stack && !ev->negate && ap->stack_triggers &&
	    !has_trigger(ev->triggers, "stacktrace")) {
		ret = event_file(ap, r, "trigger", &file);
		if (!ret)
			ret = add_trigger(ap, file.buf, "stacktrace");
	}
	strbuf_release(&file);
	return ret;
}

/* Events of one -e are next to each other in the resolved list. */
static bool same_spec(const struct resolved_instance *ri, int i, int j)
{
	return j >= 0 && j < ri->nr_events && ri->events[i].ev == ri->events[j].ev;
}

static int apply_events(struct applier *ap, const struct resolved_instance *ri)
{
	int i, ret = 0;

	for (i = 0; i < ri->nr_events && !ret; i++) {
		const struct plan_event *ev = ri->events[i].ev;
		bool lenient = same_spec(ri, i, i - 1) || same_spec(ri, i, i + 1);

		if (!same_spec(ri, i, i - 1))
			ap->filters_taken = 0;
		ret = apply_event(ap, &ri->events[i], lenient);
		if (!ret && lenient && ev->filter && !ev->negate && !same_spec(ri, i, i + 1) &&
		    !ap->filters_taken) {
			fprintf(stderr, "ktrace %s: -e '%s' -f '%s': no matching event accepts the "
				"filter\n", ap->plan->cmd, ev->spec, ev->filter);
			tfs_print_error_log(ap->inst, ev->filter);
			ret = -EINVAL;
		}
	}
	return ret;
}

/*
 * buffer_size_kb reads "X" when the CPUs differ: then each CPU's size is saved, so that undo
 * gives every CPU its own size back.
 */
static int set_buffer_size(struct applier *ap, int kb)
{
	struct strbuf sb = STRBUF_INIT, file = STRBUF_INIT;
	int cpu, ret;

	ret = tfs_inst_read(ap->inst, "buffer_size_kb", &sb);
	for (cpu = 0; !ret && sb.buf[0] == 'X'; cpu++) {
		strbuf_reset(&file);
		ret = strbuf_addf(&file, "per_cpu/cpu%d/buffer_size_kb", cpu);
		if (!ret && (tfs_path(&ap->path, ap->inst, file.buf) || access(ap->path.buf, F_OK)))
			break;
		if (!ret)
			ret = save_path(ap, file.buf);
	}
	if (!ret)
		ret = set_int(ap, "buffer_size_kb", kb);
	strbuf_release(&sb);
	strbuf_release(&file);
	return ret;
}

/* -O, in the order given */
static int set_options(struct applier *ap, const struct plan_instance *inst)
{
	int i, ret = 0;

	for (i = 0; !ret && inst->options && inst->options[i]; i++)
		ret = set_option(ap, inst->options[i]);
	return ret;
}

/* Clock, CPU mask, buffer size and options: plain files, each saved then written. */
static int apply_settings(struct applier *ap, const struct plan_instance *inst)
{
	int ret = 0;

	if (inst->clock)
		ret = set_file(ap, "trace_clock", inst->clock);
	if (!ret && inst->cpumask)
		ret = set_file(ap, "tracing_cpumask", inst->cpumask);
	/* a new sub-buffer size reallocates the buffer: before its size */
	if (!ret && inst->subbuf_kb)
		ret = set_int(ap, "buffer_subbuf_size_kb", inst->subbuf_kb);
	if (!ret && inst->buffer_kb)
		ret = set_buffer_size(ap, inst->buffer_kb);
	if (!ret)
		ret = set_options(ap, inst);
	/* without the trigger, --profile's stacks come from -T's option, as in trace-cmd */
	if (!ret && (inst->stacktrace || (inst->profile && !ap->stack_triggers)))
		ret = set_file(ap, "options/stacktrace", "1");
	if (!ret && ap->plan->follow_children)
		ret = follow_children(ap);
	if (!ret)
		ret = apply_task_pids(ap, "set_event_pid");
	return ret;
}

static int create_instance(struct applier *ap, const char *name)
{
	struct tracefs_instance *ti;
	char *dir;
	int ret;

	if (tracefs_instance_exists(name))
		return 0;
	ti = tracefs_instance_create(name);
	if (!ti) {
		ret = errno ? -errno : -ENOMEM;
		fprintf(stderr, "ktrace %s: cannot create instance '%s': %s\n", ap->plan->cmd,
			name, strerror(-ret));
		return ret;
	}
	dir = tracefs_instance_get_dir(ti);
	ret = dir ? tfs_undo_save_rmdir(ap->undo, dir) : -ENOMEM;
	tracefs_put_tracing_file(dir);
	tracefs_instance_free(ti);
	return ret;
}

static int remove_instance(struct applier *ap, const char *name)
{
	int ret = tfs_path(&ap->path, name, "");

	if (!ret && rmdir(ap->path.buf))
		ret = -errno;
	if (ret)
		fprintf(stderr, "ktrace %s: cannot delete instance %s: %s\n", ap->plan->cmd,
			ap->path.buf, strerror(-ret));
	return ret;
}

/* -p, or --profile's function_graph at depth 1 where the kernel has it; NULL leaves nop */
static int choose_tracer(struct applier *ap, const struct plan_instance *inst,
			 const char **tracer)
{
	*tracer = inst->tracer;
	if (*tracer || !inst->profile)
		return 0;
	*tracer = plan_profile_tracer(ap->plan);
	return *tracer ? set_int(ap, "max_graph_depth", 1) : 0;
}

static int apply_instance(struct applier *ap, const struct plan_instance *inst,
			  const struct resolved_instance *ri)
{
	bool adds = ap->plan->caps & PLAN_ADDS;
	const char *tracer = NULL;
	int ret = 0;

	ap->inst = inst->name;
	ap->stack_triggers = inst->profile && plan_profile_stack_triggers();
	if (inst->remove)
		return remove_instance(ap, inst->name);
	if (inst->name)
		ret = create_instance(ap, inst->name);
	/* -K: tracing_on is left as it is, and so is what the buffers hold */
	if (!ret && !adds && !ap->plan->keep_tracing_on)
		ret = set_file(ap, "tracing_on", "0");
	if (!ret && plan_instance_wants_function(inst))
		ret = apply_function_filters(ap, inst);
	/* Only the events of the plan: the ones already on are switched off (and restored). */
	if (!ret && !adds)
		ret = set_file(ap, "set_event", "");
	/* set: what was on stays on; saved, set_event puts it back if set fails */
	if (!ret && adds && ri->nr_events)
		ret = save_path(ap, "set_event");
	if (!ret)
		ret = apply_events(ap, ri);
	if (!ret)
		ret = apply_settings(ap, inst);
	/*
	 * A latency tracer zeroes tracing_max_latency when it starts: the value to put back is
	 * the one from before (the undo keeps the first value saved of a file).
	 */
	if (!ret && plan_tracer_is_latency(inst->tracer))
		ret = save_path(ap, "tracing_max_latency");
	if (!ret)
		ret = choose_tracer(ap, inst, &tracer);
	/* Last, so that it is saved last and undone first (see the top of this file). */
	if (!ret && (tracer || !adds))
		ret = set_file(ap, "current_tracer", tracer ? tracer : "nop");
	/* Old data would mix with the new trace; the buffer content is not a setting to restore. */
	if (!ret && !adds && !ap->plan->keep_tracing_on &&
	    tfs_path(&ap->path, ap->inst, "trace") == 0)
		tfs_write(ap->path.buf, "", 0, true);
	return ret;
}

bool plan_instance_in_use(const struct plan *plan, int i)
{
	if (plan->instances[i].remove)
		return false;
	/* As trace-cmd: the top instance is left out when only -B instances have work. */
	return i > 0 || plan->nr_instances == 1 || plan_instance_active(&plan->instances[0]) ||
	       plan->filter_command;
}

/*
 * -d: as trace-cmd, the function tracer is switched off (options/function-trace) in the
 * instance the options applied to last; -D (or -d where that option is missing) also for the
 * whole kernel, through /proc/sys/kernel/ftrace_enabled (saved and put back like a tracefs
 * file).
 */
static int disable_function_trace(struct applier *ap)
{
	const struct plan *plan = ap->plan;
	bool has_option;
	int ret;

	ap->inst = plan->instances[plan->nr_instances - 1].name;
	ret = tfs_path(&ap->path, ap->inst, "options/function-trace");
	/* without the option, -d falls back to the kernel's switch (trace-cmd's set_ftrace) */
	has_option = !ret && !access(ap->path.buf, F_OK);
	if (has_option)
		ret = set_file(ap, "options/function-trace", "0");
	if (ret || (has_option && !plan->no_ftrace_enabled))
		return ret;
	strbuf_reset(&ap->path);
	ret = strbuf_add(&ap->path, PLAN_FTRACE_ENABLED, strlen(PLAN_FTRACE_ENABLED));
	if (!ret)
		ret = tfs_undo_save_file(ap->undo, ap->path.buf);
	if (!ret)
		ret = tfs_write(ap->path.buf, "0", 1, true);
	if (ret && ret != -ENOMEM)
		write_failed(ap, "0", ret);
	return ret;
}

static int apply_all(struct applier *ap, const struct resolved_instance *res)
{
	int i, ret = 0;

	for (i = 0; i < ap->plan->nr_instances && !ret; i++)
		if (plan_instance_in_use(ap->plan, i) || ap->plan->instances[i].remove)
			ret = apply_instance(ap, &ap->plan->instances[i], &res[i]);
	if (!ret && ap->plan->no_function_trace)
		ret = disable_function_trace(ap);
	ap->inst = NULL;
	if (!ret && ap->plan->cmdlines_size)
		ret = set_int(ap, "saved_cmdlines_size", ap->plan->cmdlines_size);
	return ret;
}

int plan_apply(const struct plan *plan, pid_t command_pid, struct tfs_undo **undo)
{
	struct applier ap = { .plan = plan, .path = STRBUF_INIT, .command_pid = command_pid };
	struct resolved_instance *res = NULL;
	int ret;

	*undo = NULL;
	ret = plan_validate(plan);
	if (!ret)
		ret = plan_resolve_events(plan, &res);
	if (!ret)
		ret = tfs_undo_new(&ap.undo);
	if (!ret)
		ret = apply_all(&ap, res);
	if (ret && ap.undo) {
		tfs_undo_restore(ap.undo);
		tfs_undo_free(ap.undo);
		ap.undo = NULL;
	}
	if (ret == -ENOMEM)
		fprintf(stderr, "ktrace %s: out of memory\n", plan->cmd);
	plan_resolved_free(plan, res);
	strbuf_release(&ap.path);
	*undo = ap.undo;
	return ret;
}

struct pid_list {
	const char *file;
	const pid_t *pids;
	int nr;
};

static int append_pids(struct applier *ap, const void *arg)
{
	const struct pid_list *l = arg;

	return apply_pids(ap, l->file, l->pids, l->nr, false);
}

/* Function tracer pid files may refuse even an open (lockdown): only where asked for. */
static int append_function_pids(struct applier *ap, const void *arg)
{
	if (!plan_instance_wants_function(ap->pinst))
		return 0;
	return append_pids(ap, arg);
}

static int write_tracing_on(struct applier *ap, const void *arg)
{
	return set_file(ap, "tracing_on", *(const bool *)arg ? "1" : "0");
}

/* Runs fn on every instance the plan configures, stopping at the first error. */
static int for_each_used(const struct plan *plan, struct tfs_undo *undo,
			 int (*fn)(struct applier *ap, const void *arg), const void *arg)
{
	struct applier ap = { .plan = plan, .undo = undo, .path = STRBUF_INIT };
	int i, ret = 0;

	for (i = 0; i < plan->nr_instances && !ret; i++) {
		if (!plan_instance_in_use(plan, i))
			continue;
		ap.inst = plan->instances[i].name;
		ap.pinst = &plan->instances[i];
		ret = fn(&ap, arg);
	}
	strbuf_release(&ap.path);
	return ret;
}

int plan_set_event_notrace_pids(const struct plan *plan, struct tfs_undo *undo,
				const pid_t *pids, int nr_pids)
{
	struct pid_list l = { "set_event_notrace_pid", pids, nr_pids };

	return for_each_used(plan, undo, append_pids, &l);
}

int plan_set_ftrace_notrace_pids(const struct plan *plan, struct tfs_undo *undo,
				const pid_t *pids, int nr_pids)
{
	struct pid_list l = { "set_ftrace_notrace_pid", pids, nr_pids };

	return for_each_used(plan, undo, append_function_pids, &l);
}

int plan_apply_trace_options(const struct plan *plan, struct tfs_undo *undo)
{
	struct applier ap = { .plan = plan, .undo = undo, .path = STRBUF_INIT };
	int i, ret = plan_validate(plan);

	for (i = 0; i < plan->nr_instances && !ret; i++) {
		ap.inst = plan->instances[i].name;
		ap.pinst = &plan->instances[i];
		ret = set_options(&ap, ap.pinst);
	}
	strbuf_release(&ap.path);
	return ret;
}

int plan_tracing_on(const struct plan *plan, struct tfs_undo *undo, bool on)
{
	return for_each_used(plan, undo, write_tracing_on, &on);
}

static int write_max_latency(struct applier *ap, const void *arg)
{
	(void)arg;
	if (!plan_tracer_is_latency(ap->pinst->tracer))
		return 0;
	return set_file(ap, "tracing_max_latency", "0");
}

int plan_reset_max_latency(const struct plan *plan, struct tfs_undo *undo)
{
	return for_each_used(plan, undo, write_max_latency, NULL);
}
