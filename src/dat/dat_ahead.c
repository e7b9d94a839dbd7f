// SPDX-License-Identifier: GPL-2.0-only
/*
 * One worker thread per open trace file that runs the readers' jobs in the order they were
 * queued: the per-CPU page streams queue the decompression of their next chunk, so that it runs
 * on another core while the reader formats the chunks before them (dat_stream.c). A job is
 * owned by its submitter; the lock guards what the two share, and a job tells its progress
 * (dat_ahead_progress_locked) to readers waiting for it (dat_ahead_wait_locked).
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>

#include "dat_internal.h"

struct dat_ahead {
	pthread_mutex_t lock;
	pthread_cond_t queued;		/* a job was queued, or the worker is told to stop */
	pthread_cond_t finished;	/* a job made progress */
	struct dat_ahead_job *head;
	struct dat_ahead_job **tail;
	bool stop;
	bool idle;			/* the worker waits for a job */
	int waiters;			/* readers waiting for progress */
	pthread_t thread;
};

static void *worker(void *arg)
{
	struct dat_ahead *a = arg;
	struct dat_ahead_job *job;

	pthread_mutex_lock(&a->lock);
	for (;;) {
		while (!a->head && !a->stop) {
			a->idle = true;
			pthread_cond_wait(&a->queued, &a->lock);
			a->idle = false;
		}
		if (!a->head)
			break;
		job = a->head;
		a->head = job->next;
		if (!a->head)
			a->tail = &a->head;
		pthread_mutex_unlock(&a->lock);
		job->run(job, a);
		pthread_mutex_lock(&a->lock);
	}
	pthread_mutex_unlock(&a->lock);
	return NULL;
}

/* Worth a thread only where another CPU can run it: under `taskset -c 0` the reader does it. */
bool dat_ahead_useful(void)
{
	cpu_set_t set;

	return sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 1;
}

int dat_ahead_start(struct dat_ahead **out)
{
	struct dat_ahead *a = calloc(1, sizeof(*a));
	sigset_t all, old;
	int ret;

	if (!a)
		return -ENOMEM;
	pthread_mutex_init(&a->lock, NULL);
	pthread_cond_init(&a->queued, NULL);
	pthread_cond_init(&a->finished, NULL);
	a->tail = &a->head;
	/* Signals stay the reader's: the worker starts with every one blocked. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	ret = -pthread_create(&a->thread, NULL, worker, a);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (ret) {
		pthread_cond_destroy(&a->finished);
		pthread_cond_destroy(&a->queued);
		pthread_mutex_destroy(&a->lock);
		free(a);
		return ret;
	}
	*out = a;
	return 0;
}

void dat_ahead_lock(struct dat_ahead *a)
{
	pthread_mutex_lock(&a->lock);
}

void dat_ahead_unlock(struct dat_ahead *a)
{
	pthread_mutex_unlock(&a->lock);
}

/* The futex calls are the cost here: the worker is woken only when it sleeps. */
void dat_ahead_submit_locked(struct dat_ahead *a, struct dat_ahead_job *job)
{
	job->next = NULL;
	*a->tail = job;
	a->tail = &job->next;
	if (a->idle)
		pthread_cond_signal(&a->queued);
}

void dat_ahead_wait_locked(struct dat_ahead *a)
{
	a->waiters++;
	pthread_cond_wait(&a->finished, &a->lock);
	a->waiters--;
}

/* ... and the readers only when one waits. */
void dat_ahead_progress_locked(struct dat_ahead *a)
{
	if (a->waiters)
		pthread_cond_broadcast(&a->finished);
}

/* Runs what is still queued, then joins the worker. */
void dat_ahead_stop(struct dat_ahead *a)
{
	if (!a)
		return;
	pthread_mutex_lock(&a->lock);
	a->stop = true;
	pthread_cond_signal(&a->queued);
	pthread_mutex_unlock(&a->lock);
	pthread_join(a->thread, NULL);
	pthread_cond_destroy(&a->finished);
	pthread_cond_destroy(&a->queued);
	pthread_mutex_destroy(&a->lock);
	free(a);
}
