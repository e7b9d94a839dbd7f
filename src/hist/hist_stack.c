// SPDX-License-Identifier: GPL-2.0-only
/*
 * trace-cmd's `hist [-P]`: the call-stack histogram. Every event's stack (from the function or
 * function_graph tracer's nesting, or from the kernel_stack record after an event) becomes a
 * chain from the innermost frame out; chains are merged into a tree per task (-P: one tree
 * for all), counted, sorted by count and printed as trace-cmd 3.1.6 prints them, byte for byte.
 *
 * The walk reproduces trace-cmd's state machine exactly, its quirks included, since the
 * output is its only specification: records are read CPU by CPU (not merged in time), a
 * task switch parks the current stack, frames are compared by the name pointer libtraceevent
 * returns (one per symbol), and a file with instances is read instance by instance with the
 * state kept between them (each instance prints every chain so far).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "ktrace/cursor.h"
#include "ktrace/dat.h"
#include "hist.h"

struct frames {
	const char **v;
	int n, cap;
};

struct parked {
	struct parked *next;
	struct frames f;
	int pid;
};

struct chain;

struct task_tree {
	struct task_tree *next;
	struct chain *root;
	int pid;
};

struct chain {
	struct chain *next;	/* the list of top-level chains */
	struct chain *sibling;	/* the parent's list of callers */
	struct chain *parents;	/* the callers of this frame */
	const char *func;	/* NULL in a tree's root (and for an unknown address) */
	struct task_tree *task;
	int nr_parents, count, event;
};

struct stack_hist {
	struct tep_handle *tep;
	int long_size;
	bool compact;
	/* event ids (-1: not in the file) and the fields read */
	int wakeup, wakeup_new, sched_switch, function, fg_entry, fg_exit, kstack;
	struct tep_format_field *wk_comm, *wk_pid, *wkn_comm, *wkn_pid;
	struct tep_format_field *prev_comm, *next_comm, *prev_pid, *next_pid;
	struct tep_format_field *fn_ip, *fn_parent, *fge_func, *fge_depth, *fgx_depth, *ks_caller;
	/* the stack being walked, its task (-1: none) and the parked ones */
	struct frames cur;
	int cur_pid;
	struct parked *parked;
	/* an event waiting for the kernel_stack record that may follow it */
	struct frames pending;
	int pending_pid;
	/* the trees */
	struct chain *chains;
	int nr_chains, total;
	struct task_tree *tasks, *last_task;
	struct chain all_root;
	struct task_tree all;
	unsigned long long line_mask;
	int err;
};

static void *zalloc(struct stack_hist *h, size_t size)
{
	void *p = calloc(1, size);

	if (!p)
		h->err = -ENOMEM;
	return p;
}

static void push(struct stack_hist *h, struct frames *f, const char *func)
{
	if (f->n == f->cap) {
		int cap = f->cap ? f->cap * 2 : 16;
		const char **v = realloc(f->v, (size_t)cap * sizeof(*v));

		if (!v) {
			h->err = -ENOMEM;
			return;
		}
		f->v = v;
		f->cap = cap;
	}
	f->v[f->n++] = func;
}

static void frames_free(struct frames *f)
{
	free(f->v);
	*f = (struct frames){ 0 };
}

static const char *top(const struct frames *f)
{
	return f->n ? f->v[f->n - 1] : NULL;
}

/* Parks the current stack under its task; nothing is current afterwards. */
static void park(struct stack_hist *h)
{
	struct parked *p = zalloc(h, sizeof(*p));

	if (!p)
		return;
	p->pid = h->cur_pid;
	p->f = h->cur;
	p->next = h->parked;
	h->parked = p;
	h->cur = (struct frames){ 0 };
	h->cur_pid = -1;
}

/* The most recently parked stack of pid becomes current (the current one is dropped). */
static void unpark(struct stack_hist *h, int pid)
{
	struct parked **pp, *p;

	for (pp = &h->parked; *pp && (*pp)->pid != pid; pp = &(*pp)->next)
		;
	if (!*pp)
		return;
	p = *pp;
	*pp = p->next;
	frames_free(&h->cur);
	h->cur = p->f;
	h->cur_pid = p->pid;
	free(p);
}

static struct chain *new_chain(struct stack_hist *h, struct chain *child, const char *func,
			       struct task_tree *task, int event)
{
	struct chain *c = zalloc(h, sizeof(*c));

	if (!c)
		return NULL;
	child->nr_parents++;
	c->sibling = child->parents;
	child->parents = c;
	c->func = func;
	c->task = task;
	c->event = event;
	if (!child->func) {
		c->next = h->chains;
		h->chains = c;
		h->nr_chains++;
	}
	return c;
}

/* Counts the frames v[0..n) into the tree under node, innermost (v[n-1]) first. */
static void insert(struct stack_hist *h, struct task_tree *task, struct chain *node,
		   const char *const *v, int n, int event)
{
	while (node) {
		struct chain *c;

		if (!node->func)
			h->total++;
		node->count++;
		if (!n--)
			return;
		for (c = node->parents; c && c->func != v[n]; c = c->sibling)
			;
		if (!c)
			c = new_chain(h, node, v[n], task, event);
		node = c;
		event = 0;
	}
}

static struct task_tree *task_of(struct stack_hist *h, int pid)
{
	struct task_tree *t = h->last_task;

	if (h->compact)
		return h->last_task = &h->all;
	if (t && t->pid == pid)
		return t;
	for (t = h->tasks; t && t->pid != pid; t = t->next)
		;
	if (!t) {
		t = zalloc(h, sizeof(*t));
		if (t)
			t->root = zalloc(h, sizeof(*t->root));
		if (!t || !t->root) {
			free(t);
			return NULL;
		}
		t->pid = pid;
		t->next = h->tasks;
		h->tasks = t;
	}
	return h->last_task = t;
}

static void save_chain(struct stack_hist *h, int pid, const struct frames *f, int event)
{
	struct task_tree *t = task_of(h, pid);

	if (t)
		insert(h, t, t->root, f->v, f->n, event);
}

static unsigned long long num(struct stack_hist *h, struct tep_format_field *f,
			      const struct tep_record *r)
{
	unsigned long long v = 0;

	if (!f || tep_read_number_field(f, r->data, &v))
		h->err = -EBADMSG;
	return v;
}

/* Another task's event: the current stack is parked and that task's comes back. */
static void switch_to(struct stack_hist *h, int pid)
{
	if (h->cur_pid >= 0 && pid != h->cur_pid) {
		park(h);
		unpark(h, pid);
	}
	h->cur_pid = pid;
}

static void on_function(struct stack_hist *h, const struct tep_record *r)
{
	int pid = tep_data_pid(h->tep, (struct tep_record *)r);
	const char *func = tep_find_function(h->tep, num(h, h->fn_ip, r));
	const char *parent = tep_find_function(h->tep, num(h, h->fn_parent, r));

	switch_to(h, pid);
	if (h->cur.n) {
		if (top(&h->cur) == parent) {
			push(h, &h->cur, func);
		} else {
			save_chain(h, pid, &h->cur, 0);
			/* back out to the caller, if it is on the stack */
			while (h->cur.n) {
				h->cur.n--;
				if (h->cur.n && top(&h->cur) == parent) {
					push(h, &h->cur, func);
					break;
				}
			}
		}
	}
	if (!h->cur.n) {
		push(h, &h->cur, parent);
		push(h, &h->cur, func);
	}
}

/* Back out to depth; a stack that changes is counted first. */
static void unwind_to(struct stack_hist *h, int pid, unsigned long long depth)
{
	if ((unsigned long long)h->cur.n != depth) {
		save_chain(h, pid, &h->cur, 0);
		while ((unsigned long long)h->cur.n > depth)
			h->cur.n--;
	}
}

static void on_graph_entry(struct stack_hist *h, const struct tep_record *r)
{
	int pid = tep_data_pid(h->tep, (struct tep_record *)r);
	const char *func = tep_find_function(h->tep, num(h, h->fge_func, r));
	unsigned long long depth = num(h, h->fge_depth, r);

	switch_to(h, pid);
	unwind_to(h, pid, depth);
	push(h, &h->cur, func);
}

static void on_graph_exit(struct stack_hist *h, const struct tep_record *r)
{
	int pid = tep_data_pid(h->tep, (struct tep_record *)r);
	unsigned long long depth = num(h, h->fgx_depth, r);

	switch_to(h, pid);
	unwind_to(h, pid, depth);
}

static void drop_pending(struct stack_hist *h)
{
	frames_free(&h->pending);
	h->pending_pid = -1;
}

static void copy_to_pending(struct stack_hist *h, int pid)
{
	int i;

	h->pending_pid = pid;
	h->pending.n = 0;
	for (i = 0; i < h->cur.n; i++)
		push(h, &h->pending, h->cur.v[i]);
}

static void on_kernel_stack(struct stack_hist *h, const struct tep_record *r)
{
	int pid = tep_data_pid(h->tep, (struct tep_record *)r), ls = h->long_size, parked = 0;
	const char *p, *start, *end = (const char *)r->data + r->size;

	if (h->pending_pid >= 0 && pid != h->pending_pid) {
		drop_pending(h);
		return;
	}
	if (!h->ks_caller) {
		h->err = -EBADMSG;
		return;
	}
	if (h->pending_pid >= 0) {
		if (h->cur_pid >= 0) {
			park(h);
			parked = 1;
		}
	} else if (h->cur_pid >= 0) {
		/* the function tracer's stack trace: its function goes on top */
		copy_to_pending(h, h->cur_pid);
		frames_free(&h->cur);
		h->cur_pid = -1;
	}
	h->cur_pid = pid;
	/* the callers run to the end of the record or to a -1 (older kernels) */
	start = (const char *)r->data + h->ks_caller->offset;
	for (p = start; p < end; p += ls) {
		unsigned long long addr = tep_read_number(h->tep, p, ls);

		if ((ls == 8 && addr == ~0ULL) || (int)addr == -1)
			break;
	}
	for (p -= ls; p >= start; p -= ls) {
		const char *func = tep_find_function(h->tep, tep_read_number(h->tep, p, ls));

		if (func)
			push(h, &h->cur, func);
	}
	if (h->pending_pid >= 0) {
		push(h, &h->cur, top(&h->pending));
		drop_pending(h);
	}
	save_chain(h, h->cur_pid, &h->cur, 1);
	if (parked)
		unpark(h, h->cur_pid);
}

static void register_comm(struct stack_hist *h, const struct tep_record *r,
			  struct tep_format_field *comm, struct tep_format_field *pid)
{
	if (!comm) {
		h->err = -EBADMSG;
		return;
	}
	tep_register_comm(h->tep, (const char *)r->data + comm->offset, (int)num(h, pid, r));
}

/* Any other event: it waits, on top of the current stack, for a kernel_stack record. */
static void on_event(struct stack_hist *h, const struct tep_record *r, int type)
{
	struct tep_event *ev = tep_find_event(h->tep, type);
	int pid;

	if (h->pending_pid >= 0) {
		save_chain(h, h->pending_pid, &h->pending, 1);
		drop_pending(h);
	}
	pid = tep_data_pid(h->tep, (struct tep_record *)r);
	push(h, &h->cur, ev ? ev->name : NULL);
	copy_to_pending(h, pid);
	h->cur.n--;
}

static void on_record(struct stack_hist *h, const struct tep_record *r)
{
	int type = tep_data_type(h->tep, (struct tep_record *)r);

	if (type == h->function)
		return on_function(h, r);
	if (type == h->fg_entry)
		return on_graph_entry(h, r);
	if (type == h->fg_exit)
		return on_graph_exit(h, r);
	if (type == h->kstack)
		return on_kernel_stack(h, r);
	if (type == h->wakeup)
		register_comm(h, r, h->wk_comm, h->wk_pid);
	else if (type == h->wakeup_new)
		register_comm(h, r, h->wkn_comm, h->wkn_pid);
	else if (type == h->sched_switch) {
		register_comm(h, r, h->prev_comm, h->prev_pid);
		register_comm(h, r, h->next_comm, h->next_pid);
	}
	on_event(h, r, type);
}

static struct tep_event *find(struct stack_hist *h, const char *sys, const char *name, int *id)
{
	struct tep_event *ev = tep_find_event_by_name(h->tep, sys, name);

	*id = ev ? ev->id : -1;
	return ev;
}

static struct tep_format_field *field(struct tep_event *ev, const char *name)
{
	return ev ? tep_find_field(ev, name) : NULL;
}

static void find_events(struct stack_hist *h)
{
	struct tep_event *ev;

	ev = find(h, "sched", "sched_wakeup", &h->wakeup);
	h->wk_comm = field(ev, "comm");
	h->wk_pid = field(ev, "pid");
	ev = find(h, "sched", "sched_wakeup_new", &h->wakeup_new);
	h->wkn_comm = field(ev, "comm");
	h->wkn_pid = field(ev, "pid");
	ev = find(h, "sched", "sched_switch", &h->sched_switch);
	h->prev_comm = field(ev, "prev_comm");
	h->next_comm = field(ev, "next_comm");
	h->prev_pid = field(ev, "prev_pid");
	h->next_pid = field(ev, "next_pid");
	ev = find(h, "ftrace", "function", &h->function);
	h->fn_ip = field(ev, "ip");
	h->fn_parent = field(ev, "parent_ip");
	ev = find(h, "ftrace", "funcgraph_entry", &h->fg_entry);
	h->fge_func = field(ev, "func");
	h->fge_depth = field(ev, "depth");
	ev = find(h, "ftrace", "funcgraph_exit", &h->fg_exit);
	h->fgx_depth = field(ev, "depth");
	ev = find(h, "ftrace", "kernel_stack", &h->kstack);
	h->ks_caller = field(ev, "caller");
}

/* ------------------------------------------------------------------ sorting */

static struct chain **link_of(struct chain *c, bool by_next)
{
	return by_next ? &c->next : &c->sibling;
}

/* A stable merge sort of a list by count, highest first: equal counts keep the list's order. */
static struct chain *sort_list(struct chain *list, int n, bool by_next)
{
	struct chain *a = list, *b, *out = NULL, **tail = &out;
	int i;

	if (n < 2)
		return list;
	for (i = 1; i < (n + 1) / 2; i++)
		a = *link_of(a, by_next);
	b = *link_of(a, by_next);
	*link_of(a, by_next) = NULL;
	a = sort_list(list, (n + 1) / 2, by_next);
	b = sort_list(b, n / 2, by_next);
	while (a && b) {
		struct chain **from = b->count > a->count ? &b : &a;

		*tail = *from;
		tail = link_of(*from, by_next);
		*from = *tail;
		*tail = NULL;
	}
	*tail = a ? a : b;
	return out;
}

static void sort_parents(struct chain *c)
{
	c->parents = sort_list(c->parents, c->nr_parents, false);
	for (c = c->parents; c; c = c->sibling)
		sort_parents(c);
}

/* ------------------------------------------------------------------ printing */

static const char *name(const char *func)
{
	return func ? func : "(null)";	/* glibc's printf of a NULL %s */
}

static double percent(int total, int part)
{
	return ((double)part / (double)total) * 100.0;
}

static bool single(const struct chain *c)
{
	for (; c; c = c->parents) {
		if (c->nr_parents > 1)
			return false;
		if (!c->parents)
			return true;
	}
	return true;
}

/*
 * The branch lines. trace-cmd tests bit i with an int shift sign-extended to 64 bits (what
 * x86 does with it past bit 31 included), and sets it with a 64-bit one.
 */
static void indent(const struct stack_hist *h, int n, FILE *out)
{
	int i;

	for (i = 0; i < n; i++) {
		unsigned long long bit = (unsigned long long)(long long)(int)(1U << (i & 31));

		fputs(h->line_mask & bit ? "            |" : "             ", out);
	}
}

static void print_parent(const struct stack_hist *h, const struct chain *c, int n, FILE *out)
{
	indent(h, n, out);
	fprintf(out, "          %s\n", name(c->parents->func));
}

static void print_line(const struct stack_hist *h, const struct chain *c, int n, FILE *out)
{
	for (; c->parents; c = c->parents)
		print_parent(h, c, n, out);
}

static void print_parents(struct stack_hist *h, const struct chain *c, int n, FILE *out)
{
	const struct chain *p;
	int x;

	if (single(c)) {
		print_line(h, c, n, out);
		return;
	}
	h->line_mask |= 1ULL << (n & 63);
	for (x = 0, p = c->parents; p; x++, p = p->sibling) {
		const struct chain *q = p;

		indent(h, n + 1, out);
		fputc('\n', out);
		indent(h, n + 1, out);
		fprintf(out, "--%%%.2f-- %s  # %d\n", percent(c->count, p->count), name(p->func),
			p->count);
		if (x == c->nr_parents - 1)
			h->line_mask &= (1ULL << (n & 63)) - 1;
		if (single(p)) {
			print_line(h, p, n + 1, out);
			continue;
		}
		/* a run of callers that all have this count prints as one line */
		while (q && q->parents && q->nr_parents < 2 && q->parents->count == q->count) {
			print_parent(h, q, n + 1, out);
			q = q->parents;
		}
		if (q)
			print_parents(h, q, n + 1, out);
	}
}

static void print_chains(struct stack_hist *h, FILE *out)
{
	const struct chain *c;

	for (c = h->chains; c; c = c->next) {
		int pid = c->task->pid;

		if (c != h->chains)
			fputc('\n', out);
		if (h->compact)
			fprintf(out, "  %%%3.2f <all pids> %30s #%d\n", percent(h->total, c->count),
				name(c->func), c->count);
		else
			fprintf(out, "  %%%3.2f  (%d) %s %30s #%d\n", percent(h->total, c->count),
				pid, tep_data_comm_from_pid(h->tep, pid), name(c->func), c->count);
		fputs("         |\n", out);
		fprintf(out, c->event ? "         --- *%s*\n" : "         --- %s\n", name(c->func));
		print_parents(h, c, 0, out);
	}
}

/* ------------------------------------------------------------------ the walk */

static int walk_buffer(struct stack_hist *h, struct dat_file *df, int buffer,
		       struct strbuf *err)
{
	const struct dat_buffer *b = dat_file_buffer(df, buffer);
	int cpu, ret = 0;

	for (cpu = 0; cpu < b->nr_cpus && !ret && !h->err; cpu++) {
		struct cpu_cursor *c;

		ret = cpu_cursor_open(df, buffer, cpu, &c, err);
		if (ret)
			break;
		while (!h->err && (ret = cpu_cursor_next(c, err)) > 0) {
			const struct tep_record *r = cpu_cursor_record(c);

			/* events were lost: the stack walked so far is counted and dropped */
			if (r->missed_events && h->cur_pid >= 0) {
				save_chain(h, h->cur_pid, &h->cur, 0);
				frames_free(&h->cur);
				h->cur_pid = -1;
			}
			on_record(h, r);
		}
		cpu_cursor_close(c);
		ret = ret > 0 ? 0 : ret;
	}
	return ret;
}

/* One buffer, as trace-cmd's do_trace_hist() does it: walk, count what is left, sort, print. */
static int hist_buffer(struct stack_hist *h, struct dat_file *df, int buffer, struct strbuf *err)
{
	const struct dat_buffer *b = dat_file_buffer(df, buffer);
	struct chain *c;
	int ret, cpu, found = 0;

	for (cpu = 0; cpu < b->nr_cpus && !found; cpu++) {
		struct cpu_cursor *cc;

		ret = cpu_cursor_open(df, buffer, cpu, &cc, err);
		if (ret)
			return ret;
		found = cpu_cursor_next(cc, err);
		cpu_cursor_close(cc);
		if (found < 0)
			return found;
	}
	if (!found) {
		strbuf_addf(err, "No records found in file");
		return -ENODATA;
	}
	ret = walk_buffer(h, df, buffer, err);
	if (ret)
		return ret;
	if (h->cur_pid >= 0)
		save_chain(h, h->cur_pid, &h->cur, 0);
	if (h->pending_pid >= 0)
		save_chain(h, h->pending_pid, &h->pending, 1);
	while (h->parked) {
		unpark(h, h->parked->pid);
		save_chain(h, h->cur_pid, &h->cur, 0);
	}
	if (h->err)
		return h->err;
	h->chains = sort_list(h->chains, h->nr_chains, true);
	for (c = h->chains; c; c = c->next)
		sort_parents(c);
	print_chains(h, stdout);
	return 0;
}

static void free_tree(struct chain *c)
{
	while (c) {
		struct chain *next = c->sibling;

		free_tree(c->parents);
		free(c);
		c = next;
	}
}

static void stack_hist_free(struct stack_hist *h)
{
	struct task_tree *t;

	while (h->parked) {
		struct parked *p = h->parked;

		h->parked = p->next;
		frames_free(&p->f);
		free(p);
	}
	frames_free(&h->cur);
	frames_free(&h->pending);
	while ((t = h->tasks)) {
		h->tasks = t->next;
		free_tree(t->root);
		free(t);
	}
	free_tree(h->all_root.parents);
}

int hist_stack_run(const char *input, bool compact, struct strbuf *err)
{
	struct stack_hist h = { .compact = compact, .cur_pid = -1, .pending_pid = -1 };
	struct dat_file *df;
	int i, nr, instances = 0, ret = dat_file_open(input, &df, err);

	if (ret)
		return ret;
	h.tep = dat_file_tep(df);
	h.long_size = dat_file_long_size(df);
	h.all.root = &h.all_root;
	find_events(&h);
	nr = dat_file_nr_buffers(df);
	for (i = 0; i < nr; i++) {
		if (dat_file_buffer(df, i)->latency) {
			strbuf_addf(err, "trace-cmd hist does not work with latency traces");
			ret = -EINVAL;
			goto out;
		}
		instances += dat_file_buffer(df, i)->name[0] != '\0';
	}
	/* as trace-cmd: a file with instances is read instance by instance, its top not at all */
	for (i = 0; i < nr && !ret; i++)
		if (!instances || dat_file_buffer(df, i)->name[0])
			ret = hist_buffer(&h, df, i, err);
	fflush(stdout);
out:
	stack_hist_free(&h);
	dat_file_close(df);
	return ret;
}
