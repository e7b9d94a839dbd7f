// SPDX-License-Identifier: GPL-2.0-only
/* --save-on-latency and --save-on-lost: the flight recorder's ticking triggers (flight_watch.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include <event-parse.h>
#include <kbuffer.h>

#include "flight_trigger.h"
#include "flight_watch.h"
#include "ktrace/grow.h"
#include "ktrace/options.h"
#include "ktrace/plan.h"
#include "ktrace/tfs.h"

#define LATENCY_TICK_MS 100
#define LOST_CHECK_MS 1000
/* 100 ms of a busy machine's context switches, per CPU */
#define WATCH_BUFFER_KB 1024
#define FLAG "--save-on-latency"

struct woken {
	struct pid_slot slot;
	long long ts;
};

/* One event of a tick: a wake-up of pid, or a switch from prev to pid. */
struct watch_event {
	unsigned long long ts;
	int seq;
	bool wakeup;
	int pid, prev;
	char comm[16];
};

struct field {
	int offset, size;
};

struct watch_decode {
	struct tep_handle *tep;
	struct kbuffer *kbuf;
	int switch_id, wakeup_id;
	struct field next_pid, next_comm, prev_pid, pid;
	char *page;
	size_t page_size;
	struct watch_event *events;
	size_t nr, alloc;
};

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

void flight_watch_init(struct flight_watch *w)
{
	memset(w, 0, sizeof(*w));
	w->event_fd = -1;
	pid_table_init(&w->woken, sizeof(struct woken), 256);
}

/* "KIND>DURATION": DURATION a number with ns, us, ms or s (none: us, as tracing_thresh). */
static int parse(const char *arg, bool *rt_only, long long *ns)
{
	static const struct { const char *unit; long long mul; } units[] = {
		{ "ns", 1 }, { "us", 1000 }, { "", 1000 }, { "ms", 1000000 }, { "s", 1000000000 },
	};
	const char *gt = strchr(arg, '>');
	char *end;
	double v;
	size_t i;

	if (!gt)
		return -EINVAL;
	if ((size_t)(gt - arg) == strlen("wakeup") && !strncmp(arg, "wakeup", 6))
		*rt_only = false;
	else if ((size_t)(gt - arg) == strlen("wakeup_rt") && !strncmp(arg, "wakeup_rt", 9))
		*rt_only = true;
	else
		return -EINVAL;
	errno = 0;
	v = strtod(gt + 1, &end);
	if (end == gt + 1 || errno || v <= 0 || v > 1e6)
		return -EINVAL;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(end, units[i].unit)) {
			*ns = (long long)(v * (double)units[i].mul);
			return *ns > 0 ? 0 : -EINVAL;
		}
	return -EINVAL;
}

int flight_watch_check(const char *latency)
{
	bool rt;
	long long ns;

	if (latency && parse(latency, &rt, &ns))
		return kt_option_error("record", FLAG, latency,
				       "is not KIND>DURATION: KIND wakeup or wakeup_rt, DURATION "
				       "with ns, us, ms or s (e.g. wakeup>5ms)");
	return 0;
}

int flight_watch_plan(struct flight_watch *w, struct plan *plan, const char *latency, bool lost,
		      const char *const *names, int nr_names)
{
	int ret;

	w->lost = lost;
	w->names = names;
	w->nr_names = nr_names;
	w->latency = latency;
	if (!latency)
		return 0;
	ret = parse(latency, &w->rt_only, &w->threshold_ns);
	if (ret)
		return ret;
	snprintf(w->inst, sizeof(w->inst), "ktrace-flight-lat-%d", (int)getpid());
	ret = plan_add_event(plan, w->inst, "sched:sched_wakeup", w->rt_only ? "prio < 100" : NULL,
			     NULL, WATCH_BUFFER_KB);
	if (!ret)
		/* a switch to the idle task ends no wait: half of them on a quiet machine */
		ret = plan_add_event(plan, w->inst, "sched:sched_switch",
				     w->rt_only ? "next_prio < 100" : "next_pid != 0", NULL, 0);
	return ret;
}

/* The sum of "commit overrun" and "dropped events" of every CPU of every recorded instance. */
static void read_counts(struct flight_watch *w, unsigned long long *out)
{
	struct strbuf rel = STRBUF_INIT, sb = STRBUF_INIT;
	int i, cpu;

	for (i = 0; i < w->nr_names; i++)
		for (cpu = 0; cpu < w->nr_cpus; cpu++) {
			unsigned long long n = 0;
			const char *p;

			strbuf_reset(&rel);
			strbuf_reset(&sb);
			strbuf_addf(&rel, "per_cpu/cpu%d/stats", cpu);
			if (!tfs_inst_read(w->names[i], strbuf_str(&rel), &sb)) {
				p = strstr(strbuf_str(&sb), "commit overrun: ");
				n += p ? strtoull(p + 16, NULL, 10) : 0;
				p = strstr(strbuf_str(&sb), "dropped events: ");
				n += p ? strtoull(p + 16, NULL, 10) : 0;
			}
			out[i * w->nr_cpus + cpu] = n;
		}
	strbuf_release(&rel);
	strbuf_release(&sb);
}

/* events/sched/NAME/format into the decoder's tep: the event, NULL when it cannot be read. */
static struct tep_event *load_format(struct watch_decode *d, const char *name)
{
	struct strbuf rel = STRBUF_INIT, path = STRBUF_INIT, text = STRBUF_INIT;
	struct tep_event *ev = NULL;

	strbuf_addf(&rel, "events/sched/%s/format", name);
	if (!tfs_path(&path, NULL, strbuf_str(&rel)) && !tfs_read(strbuf_str(&path), &text) &&
	    !tep_parse_event(d->tep, strbuf_str(&text), text.len, "sched"))
		ev = tep_find_event_by_name(d->tep, "sched", name);
	strbuf_release(&rel);
	strbuf_release(&path);
	strbuf_release(&text);
	return ev;
}

static bool find_field(struct tep_event *ev, const char *name, struct field *f)
{
	struct tep_format_field *tf = ev ? tep_find_field(ev, name) : NULL;

	if (!tf)
		return false;
	f->offset = tf->offset;
	f->size = tf->size;
	return true;
}

static int decoder_init(struct flight_watch *w, struct strbuf *err)
{
	struct watch_decode *d = calloc(1, sizeof(*d));
	struct tep_event *sw, *wk;
	struct strbuf sb = STRBUF_INIT;

	if (!d)
		return -ENOMEM;
	w->dec = d;
	d->tep = tep_alloc();
	d->kbuf = kbuffer_alloc(KBUFFER_LSIZE_SAME_AS_HOST, KBUFFER_ENDIAN_SAME_AS_HOST);
	if (!d->tep || !d->kbuf)
		return -ENOMEM;
	tep_set_long_size(d->tep, (int)sizeof(long));
	tep_set_page_size(d->tep, getpagesize());
	sw = load_format(d, "sched_switch");
	wk = load_format(d, "sched_wakeup");
	if (!find_field(sw, "next_pid", &d->next_pid) || !find_field(sw, "next_comm", &d->next_comm) ||
	    !find_field(sw, "prev_pid", &d->prev_pid) || !find_field(wk, "pid", &d->pid)) {
		strbuf_addf(err, "%s: cannot read the formats of sched_switch and sched_wakeup", FLAG);
		return -ENOENT;
	}
	d->switch_id = sw->id;
	d->wakeup_id = wk->id;
	/* a read of trace_pipe_raw is one sub-buffer: a page unless buffer_subbuf_size_kb says */
	d->page_size = (size_t)getpagesize();
	if (!tfs_inst_read(w->inst, "buffer_subbuf_size_kb", &sb) && atoi(strbuf_str(&sb)) > 0)
		d->page_size = (size_t)atoi(strbuf_str(&sb)) * 1024;
	strbuf_release(&sb);
	d->page = malloc(d->page_size);
	return d->page ? 0 : -ENOMEM;
}

static int open_raw(struct flight_watch *w, struct strbuf *err)
{
	int ret = decoder_init(w, err);

	if (!ret)
		ret = flight_open_cpu_pipes(w->inst, w->fds, FLIGHT_MAX_WATCH_FDS, err);
	if (ret > 0)
		w->nr_fds = ret;
	return ret < 0 ? ret : 0;
}

int flight_watch_arm(struct flight_watch *w, struct strbuf *err)
{
	long cpus = sysconf(_SC_NPROCESSORS_CONF);

	if (!w->latency && !w->lost)
		return 0;
	w->event_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (w->event_fd < 0) {
		int ret = -errno;

		strbuf_addf(err, "cannot make an eventfd: %s", strerror(-ret));
		return ret;
	}
	if (w->lost) {
		w->nr_cpus = cpus > 0 ? (int)cpus : 1;
		w->counts = calloc((size_t)(w->nr_names * w->nr_cpus), sizeof(*w->counts));
		if (!w->counts)
			return -ENOMEM;
		read_counts(w, w->counts);
		w->last_lost_check = now_ns();
	}
	if (!w->latency)
		return 0;
	return open_raw(w, err);
}

int flight_watch_tick_ms(const struct flight_watch *w)
{
	if (w->latency)
		return LATENCY_TICK_MS;
	return w->lost ? LOST_CHECK_MS : -1;
}

int flight_watch_fd(const struct flight_watch *w)
{
	return w->event_fd;
}

static void fire(struct flight_watch *w)
{
	uint64_t one = 1;

	if (write(w->event_fd, &one, sizeof(one)) < 0)
		return;
}

static int number(const struct watch_decode *d, const char *data, const struct field *f)
{
	return (int)tep_read_number(d->tep, data + f->offset, f->size);
}

/* The events of one page of a CPU, appended to the tick's list. */
static void page_events(struct watch_decode *d)
{
	unsigned long long ts;
	const char *data;

	if (kbuffer_load_subbuffer(d->kbuf, d->page) < 0)
		return;
	for (data = kbuffer_read_event(d->kbuf, &ts); data;
	     data = kbuffer_next_event(d->kbuf, &ts)) {
		int type = (int)tep_read_number(d->tep, data, 2);
		struct watch_event *e;

		if (type != d->switch_id && type != d->wakeup_id)
			continue;
		if (array_grow(&d->events, &d->alloc, d->nr + 1, sizeof(*d->events)))
			return;
		e = &d->events[d->nr];
		memset(e, 0, sizeof(*e));
		e->ts = ts;
		e->seq = (int)d->nr++;
		e->wakeup = type == d->wakeup_id;
		if (e->wakeup) {
			e->pid = number(d, data, &d->pid);
			continue;
		}
		e->pid = number(d, data, &d->next_pid);
		e->prev = number(d, data, &d->prev_pid);
		memcpy(e->comm, data + d->next_comm.offset,
		       d->next_comm.size < 15 ? (size_t)d->next_comm.size : 15);
	}
}

static int by_time(const void *a, const void *b)
{
	const struct watch_event *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->seq - y->seq;
}

static void one_event(struct flight_watch *w, const struct watch_event *ev)
{
	struct woken *e;

	if (ev->wakeup) {
		if (ev->pid > 0 && (e = pid_table_get(&w->woken, ev->pid)))
			e->ts = (long long)ev->ts;
		return;
	}
	/* a task that switches out has run: no wait of it is pending (nor a late wake-up) */
	if (ev->prev > 0 && (e = pid_table_find(&w->woken, ev->prev)))
		pid_table_remove(&w->woken, e);
	if (ev->pid <= 0 || !(e = pid_table_find(&w->woken, ev->pid)))
		return;
	if ((long long)ev->ts - e->ts > w->threshold_ns && !w->why.len) {
		strbuf_addf(&w->why, "%s: pid %d (%s) waited %.3f ms", w->latency, ev->pid,
			    ev->comm, (double)((long long)ev->ts - e->ts) / 1e6);
		fire(w);
	}
	pid_table_remove(&w->woken, e);
}

/* Every CPU's pages read now, then their events in time order (a wake-up on one CPU, the
 * switch on another). */
static void read_raw(struct flight_watch *w)
{
	struct watch_decode *d = w->dec;
	size_t i;
	int cpu, n;

	d->nr = 0;
	for (cpu = 0; cpu < w->nr_fds; cpu++)
		for (n = 0; n < 4096 && read(w->fds[cpu], d->page, d->page_size) > 0; n++)
			page_events(d);
	qsort(d->events, d->nr, sizeof(*d->events), by_time);
	for (i = 0; i < d->nr; i++)
		one_event(w, &d->events[i]);
}

static void check_lost(struct flight_watch *w)
{
	unsigned long long *now;
	int i, n = w->nr_names * w->nr_cpus;

	if (now_ns() - w->last_lost_check < (long long)LOST_CHECK_MS * 1000000)
		return;
	w->last_lost_check = now_ns();
	now = calloc((size_t)n, sizeof(*now));
	if (!now)
		return;
	read_counts(w, now);
	for (i = 0; i < n; i++)
		if (now[i] > w->counts[i] && !w->why.len) {
			const char *inst = w->names[i / w->nr_cpus];

			strbuf_addf(&w->why, "lost events: %llu on CPU %d of %s", now[i] - w->counts[i],
				    i % w->nr_cpus, inst ? inst : "the top instance");
			fire(w);
		}
	free(w->counts);
	w->counts = now;
}

void flight_watch_tick(void *ctx, bool timeout)
{
	struct flight_watch *w = ctx;

	(void)timeout;
	if (w->dec && w->nr_fds)
		read_raw(w);
	if (w->lost && w->counts)
		check_lost(w);
}

bool flight_watch_fired(struct flight_watch *w)
{
	uint64_t v;

	return w->event_fd >= 0 && read(w->event_fd, &v, sizeof(v)) == sizeof(v);
}

void flight_watch_close(struct flight_watch *w)
{
	int i;

	for (i = 0; i < w->nr_fds; i++)
		close(w->fds[i]);
	w->nr_fds = 0;
}

void flight_watch_release(struct flight_watch *w)
{
	flight_watch_close(w);
	if (w->event_fd >= 0)
		close(w->event_fd);
	if (w->dec) {
		if (w->dec->kbuf)
			kbuffer_free(w->dec->kbuf);
		if (w->dec->tep)
			tep_free(w->dec->tep);
		free(w->dec->page);
		free(w->dec->events);
		free(w->dec);
	}
	pid_table_release(&w->woken);
	strbuf_release(&w->why);
	free(w->counts);
	memset(w, 0, sizeof(*w));
	w->event_fd = -1;
}
