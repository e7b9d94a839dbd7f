/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_EXPORT_PERFETTO_H
#define KTRACE_EXPORT_PERFETTO_H

/*
 * `ktrace export --perfetto`: trace.dat records -> Perfetto's protobuf trace.
 *
 *   perfetto_export.c    the writer: per-CPU FtraceEventBundle packets, dispatch by event type
 *   perfetto_ftrace.c    FtraceEvent bodies: sched_switch/waking/wakeup(_new), print, generic
 *   perfetto_track.c     TrackEvent packets: function_graph slices, marker instants, thread
 *                        tracks
 *   perfetto_process.c   SystemInfo (kernel release) and ProcessTree (thread names) packets
 *   perfetto_threads.c   what is known per thread id: comm, open function_graph depths
 *
 * Scheduling goes in as ftrace events so that Perfetto derives the CPU lanes and thread states
 * itself, exactly as from its own recordings.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "ktrace/pid_table.h"
#include "ktrace/sched_fields.h"
#include "ktrace/strbuf.h"
#include "pb.h"

struct dat_file;
struct tep_event;
struct tep_format_field;
struct tep_handle;
struct tep_record;

/* ------------------------------------------------------------------ threads */

/* The kernel's TASK_COMM_LEN */
#define PF_COMM_LEN 16

struct pf_thread {
	struct pid_slot slot;	/* its pid is the thread id */
	bool described;		/* its TrackDescriptor was written */
	char comm[PF_COMM_LEN + 1];	/* from sched events, "" when none named it */
	int *depths;		/* function_graph depths of the slices open, innermost last */
	int nr_depths, alloc_depths;
};

void pf_thread_set_comm(struct pf_thread *th, const char *comm, size_t max);
int pf_thread_push_depth(struct pf_thread *th, int depth);
void pf_threads_release(struct pid_table *t);

/* ------------------------------------------------------------------ ftrace events */

struct pf_sched_wake {
	struct sched_wakeup_fields f;
	int proto_field;	/* FtraceEvent field of this event */
};

struct pf_ftrace {
	struct tep_handle *tep;
	struct sched_switch_fields sw;
	struct pf_sched_wake wake[3];	/* sched_waking, sched_wakeup, sched_wakeup_new */
	int print_id;
	struct tep_format_field *print_ip, *print_buf;
	int fgraph_entry_id, fgraph_exit_id;
	struct tep_format_field *ent_func, *ent_depth, *exit_depth;
};

void pf_ftrace_init(struct pf_ftrace *f, struct tep_handle *tep);

/* ------------------------------------------------------------------ the writer */

/* One FtraceEventBundle being filled for a CPU. */
struct pf_bundle {
	struct pb pb;
	size_t packet, bundle;	/* pb_open() marks */
	bool open;
};

struct pf_export {
	struct tep_handle *tep;
	struct dat_file *df;
	FILE *out;
	uint32_t machine;		/* several files: this one's place, 0 the host's */
	struct pf_ftrace f;
	struct pid_table threads;	/* struct pf_thread */
	struct pf_bundle *bundles;	/* by CPU number */
	int nr_bundles;
	struct pb track;		/* TrackEvent packets not written yet */
	bool sequence_started;		/* the first TrackEvent packet cleared the state */
	uint64_t last_ts;
	unsigned long nr_unmatched_exits;	/* function exits whose entry is not in the file */
	int error;			/* negative errno of a write failure */
};

/*
 * Appends the FtraceEvent body of `r` (the oneof event field) to pb, and notes the comm of
 * every task a sched event names.
 */
void pf_ftrace_encode(struct pf_export *px, struct pb *pb, struct tep_record *r, int type);
/* A print (trace_marker) event's text, without its trailing newline; NULL for other types. */
const char *pf_ftrace_print_text(struct pf_export *px, struct tep_record *r, size_t *len);

/*
 * Opens a TracePacket in pb, tagged with the file's machine when it is not the host's (the
 * events, threads and tracks of every machine stay apart in Perfetto). Its pb_open() mark.
 */
size_t pf_packet_open(const struct pf_export *px, struct pb *pb);
/* Writes a packet-sized chunk to the file; keeps the first error. */
void pf_write(struct pf_export *px, struct pb *pb);

/* ------------------------------------------------------------------ track events */

/* ftrace:funcgraph_entry/exit as a slice begin/end on the thread's track */
void pf_track_fgraph(struct pf_export *px, struct tep_record *r, int type, int tid);
/* A marker as an instant on the thread's track */
void pf_track_instant(struct pf_export *px, uint64_t ts, int tid, const char *name, size_t len);

/* ------------------------------------------------------------------ processes */

/* Its saved cmdline, else the comm of its sched events; NULL when nothing named it. */
const char *pf_thread_name(struct pf_export *px, const struct pf_thread *th);
/* A SystemInfo packet from the file's uname, nothing when it has none. */
void pf_process_system_info(struct pf_export *px, struct pb *pb);
/* A ProcessTree packet naming every thread seen, at the time of the last event. */
void pf_process_tree(struct pf_export *px, struct pb *pb);

/* ------------------------------------------------------------------ API for cmd_export.c */

/*
 * machine: 0 for a single file or the first of several (the host); 1, 2... for the files read
 * with it (its guests), into the same output.
 */
int pf_export_new(struct dat_file *df, FILE *out, uint32_t machine, struct pf_export **pxp);
int pf_export_event(struct pf_export *px, struct tep_record *r);
/* Writes what is still buffered; 0 or the first negative errno. */
int pf_export_finish(struct pf_export *px);
void pf_export_free(struct pf_export *px);

#endif
