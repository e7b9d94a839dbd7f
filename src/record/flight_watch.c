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

#include "flight_watch.h"
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

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

void flight_watch_init(struct flight_watch *w)
{
	memset(w, 0, sizeof(*w));
	w->pipe_fd = -1;
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

int flight_watch_arm(struct flight_watch *w, struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT;
	long cpus = sysconf(_SC_NPROCESSORS_CONF);

	if (!w->latency && !w->lost)
		return 0;
	w->event_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (w->event_fd < 0) {
		strbuf_addf(err, "cannot make an eventfd: %s", strerror(errno));
		return -errno;
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
	if (!tfs_path(&path, w->inst, "trace_pipe"))
		w->pipe_fd = open(strbuf_str(&path), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (w->pipe_fd < 0)
		strbuf_addf(err, "cannot open %s: %s", strbuf_str(&path), strerror(errno));
	strbuf_release(&path);
	return w->pipe_fd < 0 ? -errno : 0;
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

/* "  comm-pid [cpu] flags 123.456789: EVENT: fields": the timestamp in ns before ": EVENT: " */
static bool stamp(const char *line, const char *at, long long *ns)
{
	const char *p = at, *dot;
	long long sec, frac = 0, scale = 1000000000LL;

	while (p > line && p[-1] != ' ')
		p--;
	sec = strtoll(p, (char **)&dot, 10);
	if (dot == p || *dot != '.')
		return false;
	for (dot++; dot < at && *dot >= '0' && *dot <= '9'; dot++) {
		scale /= 10;
		frac += (*dot - '0') * scale;
	}
	*ns = sec * 1000000000LL + frac;
	return true;
}

static int field_pid(const char *fields, const char *key)
{
	const char *p = strstr(fields, key);

	return p ? atoi(p + strlen(key)) : -1;
}

static void one_line(struct flight_watch *w, const char *line)
{
	const char *at;
	struct woken *e;
	long long ts;
	int pid;

	if ((at = strstr(line, ": sched_wakeup: "))) {
		pid = field_pid(at, " pid=");
		if (pid > 0 && stamp(line, at, &ts) && (e = pid_table_get(&w->woken, pid)))
			e->ts = ts;
		return;
	}
	at = strstr(line, ": sched_switch: ");
	if (!at || (pid = field_pid(at, " next_pid=")) <= 0 ||
	    !(e = pid_table_find(&w->woken, pid)))
		return;
	if (stamp(line, at, &ts) && ts - e->ts > w->threshold_ns && !w->why.len) {
		const char *comm = strstr(at, "next_comm=");
		int len = comm ? (int)strcspn(comm + 10, " ") : 0;

		strbuf_addf(&w->why, "%s: pid %d (%.*s) waited %.3f ms", w->latency, pid, len,
			    comm ? comm + 10 : "", (double)(ts - e->ts) / 1e6);
		fire(w);
	}
	pid_table_remove(&w->woken, e);
}

/* Everything trace_pipe holds now, line by line (a cut line kept for the next read). */
static void read_pipe(struct flight_watch *w)
{
	char buf[16384];
	ssize_t n;
	int rounds;

	for (rounds = 0; rounds < 4096 && (n = read(w->pipe_fd, buf, sizeof(buf))) > 0; rounds++) {
		const char *p = buf, *end = buf + n, *nl;

		while ((nl = memchr(p, '\n', (size_t)(end - p)))) {
			strbuf_add(&w->line, p, (size_t)(nl - p));
			one_line(w, strbuf_str(&w->line));
			strbuf_reset(&w->line);
			p = nl + 1;
		}
		strbuf_add(&w->line, p, (size_t)(end - p));
	}
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
	if (w->pipe_fd >= 0)
		read_pipe(w);
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
	if (w->pipe_fd >= 0)
		close(w->pipe_fd);
	w->pipe_fd = -1;
}

void flight_watch_release(struct flight_watch *w)
{
	flight_watch_close(w);
	if (w->event_fd >= 0)
		close(w->event_fd);
	pid_table_release(&w->woken);
	strbuf_release(&w->line);
	strbuf_release(&w->why);
	free(w->counts);
	memset(w, 0, sizeof(*w));
	w->pipe_fd = w->event_fd = -1;
}
