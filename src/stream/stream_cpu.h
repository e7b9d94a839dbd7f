/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_STREAM_CPU_H
#define KTRACE_STREAM_CPU_H

/*
 * One CPU's trace_pipe_raw read live: pages are read without blocking and queued, then handed
 * out one record at a time (oldest first) for the cross-CPU merge in cmd_stream.c.
 */
#include <stdbool.h>

struct tep_handle;
struct tep_record;
struct tracefs_instance;
struct stream_cpu;

int stream_cpu_open(struct tep_handle *tep, struct tracefs_instance *instance, int cpu,
		    struct stream_cpu **out);
void stream_cpu_close(struct stream_cpu *sc);
/*
 * Reads what the kernel has now (at most max_pages pages). Returns how many pages were
 * queued (0 when empty) or negative errno. *last_ts is the newest timestamp queued so far.
 */
int stream_cpu_fill(struct stream_cpu *sc, int max_pages, unsigned long long *last_ts);
/* The oldest queued record, valid until stream_cpu_advance(); NULL when none is queued. */
struct tep_record *stream_cpu_peek(struct stream_cpu *sc);
void stream_cpu_advance(struct stream_cpu *sc);

#endif
