// SPDX-License-Identifier: GPL-2.0-only
/*
 * report --profile bookkeeping: one state per task, and the time between its changes added to
 * the bucket of the state that ended. Plain values in, so that a test can drive it by hand.
 */
#include <errno.h>
#include <search.h>
#include <stdlib.h>
#include <string.h>

#include "ktrace/grow.h"
#include "profile.h"

/* A task's state: the buckets, plus two states that add to none. */
enum {
	ST_UNSEEN = PROFILE_NR_BUCKETS,	/* first sight: what came before the file is unknown */
	ST_DEAD,			/* exited (X or Z): no time until its pid is seen again */
};

/* sched_switch prev_state bits as kernels since 4.14 report them (TASK_REPORT) */
#define STATE_S		0x01
#define STATE_D		0x02
#define STATE_DEAD	(0x10 | 0x20)	/* X, Z */
#define STATE_IDLE	0x80		/* I: an idle kernel thread, TASK_IDLE */
#define STATE_MASK	0xff		/* above: TASK_REPORT_MAX, set for a preempted task */

static int task_cmp(const void *a, const void *b)
{
	int x = ((const struct profile_task *)a)->pid, y = ((const struct profile_task *)b)->pid;

	return x < y ? -1 : x > y;
}

static int add_task(struct profile *p, struct profile_task *t)
{
	struct profile_task **grown;

	if (p->nr_tasks == p->alloc_tasks) {
		size_t n = p->alloc_tasks ? p->alloc_tasks * 2 : 64;

		grown = realloc(p->tasks, n * sizeof(*grown));
		if (!grown)
			return -ENOMEM;
		p->tasks = grown;
		p->alloc_tasks = n;
	}
	if (!tsearch(t, &p->root, task_cmp))
		return -ENOMEM;
	p->tasks[p->nr_tasks++] = t;
	return 0;
}

/* The task of `pid`, created on first use; its comm updated when `comm` is given. */
static struct profile_task *task_of(struct profile *p, int pid, const char *comm)
{
	struct profile_task key = { .pid = pid }, *t, **slot;

	slot = tfind(&key, &p->root, task_cmp);
	t = slot ? *slot : calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	if (!slot) {
		t->pid = pid;
		t->state = ST_UNSEEN;
		if (add_task(p, t)) {
			free(t);
			return NULL;
		}
	}
	if (comm && *comm) {
		strncpy(t->comm, comm, sizeof(t->comm) - 1);
		t->comm[sizeof(t->comm) - 1] = '\0';
	}
	return t;
}

static void sum_add(struct profile_sum *s, uint64_t len)
{
	s->total += len;
	s->count++;
	if (len > s->max)
		s->max = len;
}

static bool same_stack(const struct profile_stack *s, const uint64_t *ips, size_t nr)
{
	return s->nr == nr && !memcmp(s->ips, ips, nr * sizeof(*ips));
}

/* Adds one sleep/block of `len` to the task's entry for this stack. */
static int stack_add(struct profile_task *t, const uint64_t *ips, size_t nr, uint64_t len)
{
	struct profile_stack *grown, *s;
	size_t i;

	for (i = 0; i < t->nr_stacks; i++) {
		if (same_stack(&t->stacks[i], ips, nr)) {
			sum_add(&t->stacks[i].sum, len);
			return 0;
		}
	}
	grown = realloc(t->stacks, (t->nr_stacks + 1) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	t->stacks = grown;
	s = &grown[t->nr_stacks];
	memset(s, 0, sizeof(*s));
	s->ips = malloc(nr * sizeof(*ips));
	if (!s->ips)
		return -ENOMEM;
	memcpy(s->ips, ips, nr * sizeof(*ips));
	s->nr = nr;
	t->nr_stacks++;
	sum_add(&s->sum, len);
	return 0;
}

/* Ends the task's current state at ts, adding its length to the state's bucket. */
static int close_state(struct profile *p, struct profile_task *t, uint64_t ts)
{
	uint64_t len = ts > t->since ? ts - t->since : 0;
	int ret = 0;

	if (t->state == ST_UNSEEN) {
		/* only a switch-out tells that it ran; the callers decide that case */
		len = ts > p->first_ts ? ts - p->first_ts : 0;
		sum_add(&t->sum[PROFILE_OTHER], len);
		return 0;
	}
	if (t->state == ST_DEAD)
		return 0;
	sum_add(&t->sum[t->state], len);
	if (t->state == PROFILE_SLEEP || t->state == PROFILE_BLOCK) {
		t->block_open = false;
		t->block_len = len;
		if (t->stack_ips)
			ret = stack_add(t, t->stack_ips, t->stack_nr, len);
		free(t->stack_ips);
		t->stack_ips = NULL;
	}
	return ret;
}

static void enter(struct profile_task *t, int state, uint64_t ts)
{
	t->state = state;
	t->since = ts;
}

static int switch_state(unsigned long long prev_state)
{
	unsigned long long s = prev_state & STATE_MASK;

	if (!s)
		return PROFILE_PREEMPT;
	if (s & STATE_D)
		return PROFILE_BLOCK;
	if (s & (STATE_S | STATE_IDLE))
		return PROFILE_SLEEP;
	if (s & STATE_DEAD)
		return ST_DEAD;
	return PROFILE_OTHER;
}

static int switch_out(struct profile *p, uint64_t ts, struct profile_task *t,
		      unsigned long long prev_state)
{
	int state = switch_state(prev_state), ret = 0;

	if (t->state == ST_UNSEEN) {
		/* it was on this CPU since the file's start */
		t->state = PROFILE_RUN;
		t->since = p->first_ts;
	}
	if (t->state == PROFILE_RUN)
		ret = close_state(p, t, ts);
	/* else: a switch-out of a task not known to run (lost events); start afresh */
	enter(t, state, ts);
	t->block_open = state == PROFILE_SLEEP || state == PROFILE_BLOCK;
	t->want_stack = t->block_open;
	return ret;
}

/* cpu's entry, the per-CPU array grown to hold it; NULL: out of memory */
static struct profile_cpu *cpu_of(struct profile *p, unsigned int cpu)
{
	size_t want = (size_t)cpu + 1;

	if (want > p->nr_cpus) {
		if (array_grow(&p->cpus, &p->alloc_cpus, want, sizeof(*p->cpus)))
			return NULL;
		memset(&p->cpus[p->nr_cpus], 0, (want - p->nr_cpus) * sizeof(*p->cpus));
		p->nr_cpus = want;
	}
	return &p->cpus[cpu];
}

static void set_current(struct profile_cpu *c, int pid, uint64_t ts)
{
	c->known = true;
	c->cur = pid;
	c->since = ts;
}

/*
 * Task `pid` runs on CPU `cpu` at ts, where the trace had another task: the kernel left out
 * the switch between them. Some kernels drop the events made while certain tasks run (this
 * project's test VM drops those of the idle task on one CPU, and those of its own agent's
 * threads, switches included), and nothing in the file says so. The task that was running left
 * at an unknown moment: its time since ts is "other" until it is seen again. The task now
 * running came onto the CPU at ts, or, on a CPU that was idle, as soon as it was runnable.
 */
static int switch_unrecorded(struct profile *p, struct profile_cpu *c, unsigned int cpu,
			     uint64_t ts, int pid)
{
	struct profile_task key = { .pid = c->cur }, **slot, *t;
	uint64_t in = ts;
	int ret = 0;

	slot = c->cur ? tfind(&key, &p->root, task_cmp) : NULL;
	if (slot && (*slot)->state == PROFILE_RUN && (*slot)->cpu == cpu) {
		ret = close_state(p, *slot, ts);
		enter(*slot, PROFILE_OTHER, ts);
	}
	if (ret || !pid) {
		set_current(c, pid, ts);
		return ret;
	}
	t = task_of(p, pid, NULL);
	if (!t)
		return -ENOMEM;
	/*
	 * An idle CPU takes a runnable task at once: one woken or preempted was runnable since
	 * t->since. A sleeping one's wakeup is missing too, so when it became runnable is not
	 * known; one never seen ran at most since the CPU went idle.
	 */
	if (!c->cur && (t->state == PROFILE_WAIT || t->state == PROFILE_PREEMPT))
		in = t->since > c->since ? t->since : c->since;
	else if (!c->cur && t->state == ST_UNSEEN)
		in = c->since;
	if (in > ts)
		in = ts;
	set_current(c, pid, in);
	if (t->state == PROFILE_RUN) {
		/* it moved from a CPU whose switch out of it is missing: it ran on */
		t->cpu = cpu;
		return 0;
	}
	ret = close_state(p, t, in);
	enter(t, PROFILE_RUN, in);
	t->cpu = cpu;
	t->want_stack = false;
	return ret;
}

/* `pid` made an event on `cpu` at ts as the task running there. */
static int note_running(struct profile *p, struct profile_cpu *c, unsigned int cpu, uint64_t ts,
			int pid)
{
	if (!c->known) {
		set_current(c, pid, ts);
		return 0;
	}
	return pid == c->cur ? 0 : switch_unrecorded(p, c, cpu, ts, pid);
}

int profile_running(struct profile *p, unsigned int cpu, uint64_t ts, int pid)
{
	struct profile_cpu *c = cpu_of(p, cpu);

	return c ? note_running(p, c, cpu, ts, pid) : -ENOMEM;
}

int profile_switch(struct profile *p, unsigned int cpu, uint64_t ts, int prev_pid,
		   const char *prev_comm, unsigned long long prev_state, int next_pid,
		   const char *next_comm)
{
	struct profile_cpu *c = cpu_of(p, cpu);
	struct profile_task *t;
	int ret;

	if (!c)
		return -ENOMEM;
	/* the switch is made by the task leaving: it was running here */
	ret = note_running(p, c, cpu, ts, prev_pid);
	/* pid 0 is each CPU's idle task: its time is the CPU's idle time, not a task's */
	if (!ret && prev_pid) {
		t = task_of(p, prev_pid, prev_comm);
		ret = t ? switch_out(p, ts, t, prev_state) : -ENOMEM;
	}
	set_current(c, next_pid, ts);
	if (!next_pid || ret)
		return ret;
	t = task_of(p, next_pid, next_comm);
	if (!t)
		return -ENOMEM;
	if (t->state != PROFILE_RUN)
		ret = close_state(p, t, ts);
	t->want_stack = false;
	enter(t, PROFILE_RUN, ts);
	t->cpu = cpu;
	return ret;
}

int profile_wakeup(struct profile *p, uint64_t ts, int pid, const char *comm, bool new_task)
{
	struct profile_task *t;
	int ret = 0;

	if (!pid)
		return 0;
	t = task_of(p, pid, comm);
	if (!t)
		return -ENOMEM;
	/* runnable already: sched_wakeup after sched_waking, wakeup_new after the fork */
	if (t->state == PROFILE_RUN || t->state == PROFILE_PREEMPT || t->state == PROFILE_WAIT)
		return 0;
	/* a new task has no time before its birth */
	if (!new_task || (t->state != ST_UNSEEN && t->state != ST_DEAD))
		ret = close_state(p, t, ts);
	enter(t, PROFILE_WAIT, ts);
	return ret;
}

int profile_stack(struct profile *p, int pid, const uint64_t *ips, size_t nr)
{
	struct profile_task key = { .pid = pid }, **slot = tfind(&key, &p->root, task_cmp);
	struct profile_task *t = slot ? *slot : NULL;

	p->stacks = true;
	/*
	 * A task off its CPU records no events: a stack under its pid while it is switched out
	 * is the one of the sched_switch that put it to sleep.
	 */
	if (!t || !t->want_stack || !nr)
		return 0;
	t->want_stack = false;
	if (!t->block_open)
		return stack_add(t, ips, nr, t->block_len);
	free(t->stack_ips);
	t->stack_ips = malloc(nr * sizeof(*ips));
	if (!t->stack_ips)
		return -ENOMEM;
	memcpy(t->stack_ips, ips, nr * sizeof(*ips));
	t->stack_nr = nr;
	return 0;
}

void profile_note_ts(struct profile *p, uint64_t ts)
{
	if (!p->have_ts || ts < p->first_ts)
		p->first_ts = ts;
	if (!p->have_ts || ts > p->last_ts)
		p->last_ts = ts;
	p->have_ts = true;
}

static uint64_t task_time(const struct profile_task *t)
{
	return t->sum[PROFILE_RUN].total;
}

/* Most time on a CPU first, then by pid: the busiest tasks head the table. */
static int cmp_tasks(const void *a, const void *b)
{
	const struct profile_task *x = *(struct profile_task * const *)a;
	const struct profile_task *y = *(struct profile_task * const *)b;

	if (task_time(x) != task_time(y))
		return task_time(x) < task_time(y) ? 1 : -1;
	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

static int cmp_stacks(const void *a, const void *b)
{
	const struct profile_stack *x = a, *y = b;

	if (x->sum.total != y->sum.total)
		return x->sum.total < y->sum.total ? 1 : -1;
	return x->sum.max < y->sum.max ? 1 : x->sum.max > y->sum.max ? -1 : 0;
}

int profile_sort(struct profile *p)
{
	size_t i;

	for (i = 0; i < p->nr_tasks; i++)
		if (p->tasks[i]->nr_stacks)
			qsort(p->tasks[i]->stacks, p->tasks[i]->nr_stacks,
			      sizeof(*p->tasks[i]->stacks), cmp_stacks);
	if (p->nr_tasks)
		qsort(p->tasks, p->nr_tasks, sizeof(*p->tasks), cmp_tasks);
	return 0;
}

int profile_finish(struct profile *p)
{
	size_t i;
	int ret = 0;

	for (i = 0; i < p->nr_tasks && !ret; i++) {
		struct profile_task *t = p->tasks[i];

		if (t->state == ST_UNSEEN)
			continue;	/* only seen in a wakeup that did nothing: no time known */
		ret = close_state(p, t, p->last_ts);
	}
	return ret ? ret : profile_sort(p);
}

static void task_free(void *arg)
{
	struct profile_task *t = arg;
	size_t i;

	for (i = 0; i < t->nr_stacks; i++)
		free(t->stacks[i].ips);
	free(t->stacks);
	free(t->stack_ips);
	free(t);
}

void profile_release(struct profile *p)
{
	tdestroy(p->root, task_free);
	free(p->tasks);
	free(p->cpus);
	memset(p, 0, sizeof(*p));
}
