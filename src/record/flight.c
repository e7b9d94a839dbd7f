// SPDX-License-Identifier: GPL-2.0-only
/* record --flight-recorder: arm, wait for triggers, save, disarm (flight.h). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "flight.h"
#include "flight_save.h"
#include "flight_trigger.h"
#include "flight_watch.h"
#include "ktrace/flight_lock.h"
#include "ktrace/plan.h"
#include "ktrace/session.h"
#include "ktrace/tfs.h"
#include "record_plan.h"

#define DEFAULT_INTERVAL_MS 1000

struct flight {
	struct plan *plan;
	const struct flight_args *args;
	struct trace_session *trace;
	struct flight_saver saver;
	struct flight_trigger trigger;
	struct flight_watch watch;
	struct pollfd fds[FLIGHT_MAX_WATCH_FDS + 1];	/* the trigger's, then the watch's */
	const char **names;		/* the recorded instances (NULL: top), not the watcher */
	int nr_names;
	int *lock_fds;
	bool quiet;
	struct strbuf err;
};

static int parse_count(const char *flag, const char *arg, int *out)
{
	char *end;
	long v = strtol(arg, &end, 10);

	if (end == arg || *end || v < 0 || v > 1000000000)
		return kt_option_error("record", flag, arg, "is not a number from 0 to 1000000000");
	*out = (int)v;
	return 0;
}

int flight_option(struct flight_args *fa, int id, const char *arg)
{
	switch (id) {
	case FLIGHT_OPT_ARM:
		fa->armed = true;
		return 0;
	case FLIGHT_OPT_KEEP:
		fa->keep = arg;
		return 0;
	case FLIGHT_OPT_SAVE_ON:
		fa->save_on = arg;
		return 0;
	case FLIGHT_OPT_LATENCY:
		fa->save_on_latency = arg;
		return 0;
	case FLIGHT_OPT_LOST:
		fa->save_on_lost = true;
		return 0;
	case FLIGHT_OPT_MAX_SAVES:
		return parse_count("--max-saves", arg, &fa->max_saves);
	case FLIGHT_OPT_INTERVAL:
		fa->interval_set = true;
		return parse_count("--save-interval", arg, &fa->interval_ms);
	}
	return 1;
}

/* --keep: "30s" or "30" seconds, "64MB" or "64M" of buffers over all CPUs. */
static int parse_keep(const char *arg, int *seconds, int *mb)
{
	char *end;
	long v = strtol(arg, &end, 10);

	*seconds = *mb = 0;
	if (end == arg || v <= 0 || v > 1000000)
		return -EINVAL;
	if (!*end || !strcmp(end, "s"))
		*seconds = (int)v;
	else if (!strcasecmp(end, "mb") || !strcasecmp(end, "m"))
		*mb = (int)v;
	else
		return -EINVAL;
	return 0;
}

static const char *first_flight_flag(const struct flight_args *fa)
{
	if (fa->keep)
		return "--keep";
	if (fa->save_on)
		return "--save-on";
	if (fa->save_on_latency)
		return "--save-on-latency";
	if (fa->save_on_lost)
		return "--save-on-lost";
	if (fa->max_saves)
		return "--max-saves";
	return fa->interval_set ? "--save-interval" : NULL;
}

int flight_check(const struct flight_args *fa, const struct plan *plan)
{
	const char *flag = first_flight_flag(fa);
	int secs, mb, i;

	if (!fa->armed)
		return flag ? kt_option_error("record", flag, "", "needs --flight-recorder (-W)")
			    : 0;
	if (plan->net_target)
		return kt_option_error("record", "-N", plan->net_target,
				       "sends the trace away; -W keeps it in the kernel");
	if (plan->max_kb)
		return kt_option_error("record", "-m", "",
				       "bounds a growing file; --flight-recorder sizes the buffers "
				       "(-b or --keep)");
	if (plan->keep)
		return kt_option_error("record", "-k", "",
				       "cannot be combined with -W (it puts tracefs back)");
	if (plan_latency_instance(plan) >= 0)
		return kt_option_error("record", "-p", "",
				       "a latency tracer keeps one trace, not a flight recording");
	if (fa->keep && parse_keep(fa->keep, &secs, &mb))
		return kt_option_error("record", "--keep", fa->keep,
				       "is not SECONDS (30, 30s) or MB (64MB)");
	for (i = 0; fa->keep && i < plan->nr_instances; i++)
		if (plan->instances[i].buffer_kb)
			return kt_option_error("record", "--keep", fa->keep,
					       "and -b both size the buffers: give one");
	return flight_trigger_check(fa->save_on) ?: flight_watch_check(fa->save_on_latency);
}

static void drop_locks(struct flight *f)
{
	int i;

	for (i = 0; f->lock_fds && i < f->nr_names; i++)
		flight_lock_drop(f->names[i], f->lock_fds[i]);
	free(f->lock_fds);
	f->lock_fds = NULL;
}

/* One recorder per instance: a second one would read (and consume) the first one's buffer. */
static int take_locks(struct flight *f)
{
	int i, ret = 0;

	f->lock_fds = calloc((size_t)f->nr_names + 1, sizeof(int));
	if (!f->lock_fds)
		return -ENOMEM;
	for (i = 0; i < f->nr_names; i++)
		f->lock_fds[i] = -1;
	for (i = 0; !ret && i < f->nr_names; i++) {
		pid_t holder;

		ret = flight_lock_take(f->names[i], &f->lock_fds[i], &holder);
		if (ret == -EBUSY)
			fprintf(stderr, "ktrace record: a flight recorder (pid %d) is already "
				"armed on %s%s; stop it first (kill %d)\n", (int)holder,
				f->names[i] ? "instance " : "the top instance",
				f->names[i] ? f->names[i] : "", (int)holder);
		else if (ret)
			fprintf(stderr, "ktrace record: cannot lock %s/flight*.lock: %s\n",
				KT_UNDO_JOURNAL_DIR, strerror(-ret));
	}
	return ret;
}

/* --keep MB: the same share of it for every CPU of every recorded instance. */
static void size_by_mb(struct flight *f, int mb)
{
	long cpus = sysconf(_SC_NPROCESSORS_CONF);
	int i;

	for (i = 0; i < f->plan->nr_instances; i++)
		if (plan_instance_in_use(f->plan, i))
			f->plan->instances[i].buffer_kb =
				(int)((long)mb * 1024 / (cpus > 0 ? cpus : 1) / f->nr_names);
}

static int buffer_kb_of(const char *instance)
{
	struct strbuf sb = STRBUF_INIT;
	int kb = 0;

	if (!tfs_inst_read(instance, "buffer_size_kb", &sb))
		kb = atoi(strbuf_str(&sb));
	strbuf_release(&sb);
	return kb;
}

static void announce(struct flight *f)
{
	int i;

	if (f->quiet)
		return;
	fprintf(stderr, "ktrace record: flight recorder armed (pid %d):", (int)getpid());
	for (i = 0; i < f->nr_names; i++)
		fprintf(stderr, "%s %d KB per CPU in %s", i ? "," : "", buffer_kb_of(f->names[i]),
			f->names[i] ? f->names[i] : "the top instance");
	fprintf(stderr, "; %s%s%s%s%s%s. Save with 'ktrace save' or 'kill -USR1 %d'\n",
		f->saver.snapshot ? "saves swap the snapshot buffer" : "saves read while tracing",
		f->args->save_on ? ", and on " : "", f->args->save_on ? f->args->save_on : "",
		f->args->save_on_latency ? ", and on latency " : "",
		f->args->save_on_latency ? f->args->save_on_latency : "",
		f->args->save_on_lost ? ", and on lost events" : "", (int)getpid());
}

static void reply(pid_t to, int value)
{
	union sigval v = { .sival_int = value };

	if (to > 0)
		sigqueue(to, SIGUSR2, v);
}

/* One trigger: a save unless too soon after the last one; 0, -EAGAIN (skipped) or -errno. */
static int save(struct flight *f, const char *why, bool swapped, bool forced)
{
	long since = flight_since_last_ms(&f->saver);
	int interval = f->args->interval_set ? f->args->interval_ms : DEFAULT_INTERVAL_MS;
	double reach;
	int ret, i;

	if (!forced && since >= 0 && since < interval) {
		if (!f->quiet)
			fprintf(stderr, "ktrace record: %s %ld ms after the last save: skipped "
				"(--save-interval %d)\n", why, since, interval);
		/* what the trigger froze is dropped, or the next swap would bring it back */
		if (swapped)
			flight_saver_discard(&f->saver);
		return -EAGAIN;
	}
	strbuf_reset(&f->err);
	/* the kernel trigger already swapped: the stats are the fresh half's */
	reach = swapped ? -1 : flight_reach_back(&f->saver);
	ret = flight_save(&f->saver, swapped, &f->err);
	if (ret) {
		fprintf(stderr, "ktrace record: %s: the save failed: %s\n", why,
			f->err.len ? strbuf_str(&f->err) : strerror(-ret));
		return ret;
	}
	for (i = 0; i < f->nr_names; i++)
		flight_lock_note(f->lock_fds[i], f->saver.last_path);
	if (!f->quiet && reach >= 0)
		fprintf(stderr, "ktrace record: %s: saved %s (reaching back %.3f s)\n", why,
			f->saver.last_path, reach);
	else if (!f->quiet)
		fprintf(stderr, "ktrace record: %s: saved %s\n", why, f->saver.last_path);
	return 0;
}

static bool command_failed(const struct trace_session *t)
{
	return t->child.pid > 0 && t->child.exited &&
	       !(WIFEXITED(t->child.status) && !WEXITSTATUS(t->child.status));
}

static bool done(const struct flight *f)
{
	return f->args->max_saves && f->saver.nr_saves >= f->args->max_saves;
}

/* The trigger's fds, then the watch's eventfd: any of them ends a wait. */
static int watch_fds(struct flight *f)
{
	struct pollfd *tfds;
	int n = flight_trigger_pollfds(&f->trigger, &tfds), i;

	for (i = 0; i < n; i++)
		f->fds[i] = tfds[i];
	if (flight_watch_fd(&f->watch) >= 0) {
		f->fds[n].fd = flight_watch_fd(&f->watch);
		f->fds[n++].events = POLLIN;
	}
	return n;
}

static bool trigger_woke(const struct flight *f, int nr_trigger)
{
	int i;

	for (i = 0; i < nr_trigger; i++)
		if (f->fds[i].revents)
			return true;
	return false;
}

static void watched(struct flight *f, int nr_trigger)
{
	if (flight_watch_fired(&f->watch)) {
		save(f, strbuf_str(&f->watch.why), false, false);
		strbuf_reset(&f->watch.why);
	}
	if (trigger_woke(f, nr_trigger)) {
		bool swapped = flight_trigger_fired(&f->trigger);

		save(f, f->args->save_on, swapped, false);
		if (flight_trigger_rearm(&f->trigger, &f->err))
			fprintf(stderr, "ktrace record: %s\n", strbuf_str(&f->err));
	}
	for (nr_trigger = 0; nr_trigger < FLIGHT_MAX_WATCH_FDS + 1; nr_trigger++)
		f->fds[nr_trigger].revents = 0;
}

/* Until a stop signal, the command's end, every -P process's end, or --max-saves. */
static void wait_for_triggers(struct flight *f)
{
	struct session_wait w = { .tick_ms = flight_watch_tick_ms(&f->watch),
				  .watch_keeps_command = true };
	struct pollfd *tfds;
	int ret, nr_trigger = flight_trigger_pollfds(&f->trigger, &tfds);

	w.nr_watch = watch_fds(f);
	w.watch = f->fds;
	if (w.tick_ms > 0) {
		w.tick = flight_watch_tick;
		w.ctx = &f->watch;
	}
	while (!done(f)) {
		switch (trace_session_wait(f->trace, &w)) {
		case SESSION_END_SAVE:
			ret = save(f, f->trace->save_queued ? "asked by ktrace save" : "SIGUSR1",
				   false, false);
			if (f->trace->save_queued)
				reply(f->trace->save_from, ret ? ret : f->saver.nr_saves);
			break;
		case SESSION_END_WATCHED:
			watched(f, nr_trigger);
			break;
		case SESSION_END_COMMAND:
			if (command_failed(f->trace))
				save(f, "the command failed", false, true);
			return;
		default:
			return;
		}
	}
}

/*
 * ktrace's own events stay out of the trace: its pid in set_event_notrace_pid and event-fork on,
 * so the reader threads of every save (started later) are left out from their fork. The kernel
 * still keeps a sched_switch between one of them and a traced task (it drops a switch only when
 * both tasks are excluded). With a pid filter they are out already.
 */
static int exclude_self(struct flight *f)
{
	struct strbuf path = STRBUF_INIT;
	pid_t self = getpid();
	int i, ret = 0;

	if (f->plan->filter_command || f->plan->nr_pids)
		return 0;
	for (i = 0; !ret && i < f->plan->nr_instances; i++) {
		if (!plan_instance_in_use(f->plan, i))
			continue;
		strbuf_reset(&path);
		ret = tfs_path(&path, f->plan->instances[i].name, "options/event-fork");
		if (ret || access(strbuf_str(&path), F_OK))
			continue;
		ret = tfs_undo_save_file(f->trace->undo, strbuf_str(&path));
		if (!ret)
			ret = tfs_write(strbuf_str(&path), "1", 1, true);
		if (ret)
			strbuf_addf(&f->err, "cannot write 1 to %s: %s", strbuf_str(&path),
				    tfs_cause(ret));
	}
	strbuf_release(&path);
	if (!ret)
		trace_session_exclude(f->trace, &self, 1);
	return ret;
}

static int arm(struct flight *f)
{
	int secs = 0, mb = 0, ret;

	if (f->args->keep)
		parse_keep(f->args->keep, &secs, &mb);
	if (mb)
		size_by_mb(f, mb);
	ret = flight_saver_init(&f->saver, f->plan, f->names, f->nr_names);
	if (!ret)
		ret = flight_trigger_plan(&f->trigger, f->plan, f->args->save_on, f->names,
					  f->nr_names, f->saver.snapshot);
	if (!ret)
		ret = flight_watch_plan(&f->watch, f->plan, f->args->save_on_latency,
					f->args->save_on_lost, f->names, f->nr_names);
	if (ret)
		return ret;
	f->trace->save_signal = true;
	ret = trace_session_begin(f->trace);
	if (!ret)
		ret = trace_session_apply(f->trace, &f->err);
	if (!ret)
		ret = flight_saver_arm(&f->saver, f->trace->undo, &f->err);
	if (!ret)
		ret = flight_trigger_arm(&f->trigger, f->trace->undo, &f->err);
	if (!ret)
		ret = flight_watch_arm(&f->watch, &f->err);
	if (!ret)
		ret = exclude_self(f);
	if (!ret)
		ret = trace_session_go(f->trace, &f->err);
	if (!ret && secs)
		ret = flight_keep_seconds(&f->saver, secs, f->trace->undo, f->quiet, &f->err);
	return ret;
}

int flight_run(struct plan *plan, const struct flight_args *fa, struct trace_session *trace)
{
	struct flight f = { .plan = plan, .args = fa, .trace = trace, .quiet = plan->quiet };
	int ret, restored;

	flight_trigger_init(&f.trigger);
	flight_watch_init(&f.watch);
	f.nr_names = record_instance_names(plan, -1, &f.names);
	ret = f.nr_names < 0 ? f.nr_names : take_locks(&f);
	if (!ret)
		ret = arm(&f);
	if (!ret) {
		announce(&f);
		wait_for_triggers(&f);
		if (!f.quiet)
			fprintf(stderr, "ktrace record: flight recorder disarmed after %d save%s\n",
				f.saver.nr_saves, f.saver.nr_saves == 1 ? "" : "s");
	}
	if (f.err.len && ret)
		fprintf(stderr, "ktrace record: %s\n", strbuf_str(&f.err));
	strbuf_reset(&f.err);
	trace_session_stop(trace);
	flight_trigger_close(&f.trigger);
	flight_watch_close(&f.watch);
	restored = trace_session_end(trace, false, &f.err);
	if (restored)
		fprintf(stderr, "ktrace record: %s\n", strbuf_str(&f.err));
	drop_locks(&f);
	flight_trigger_release(&f.trigger);
	flight_watch_release(&f.watch);
	flight_saver_release(&f.saver);
	free(f.names);
	strbuf_release(&f.err);
	return ret ? ret : restored;
}
