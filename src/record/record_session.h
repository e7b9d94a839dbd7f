/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_RECORD_SESSION_H
#define KTRACE_RECORD_SESSION_H

/*
 * A capture: the recorders of every CPU of every recorded instance, their temp files (unnamed,
 * O_TMPFILE, next to the output so that copy_file_range can share extents), and the step that
 * turns them into a trace.dat. Shared by record and extract.
 */
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "ktrace/compress.h"
#include "ktrace/strbuf.h"
#include "metadata.h"
#include "recorder.h"

struct record_guests;

/* Counters of per_cpu/cpuN/stats. */
struct cpu_counters {
	uint64_t entries;
	uint64_t overrun;
	uint64_t commit_overrun;
	uint64_t dropped;
	uint64_t read_events;
};

struct record_cpu {
	int cpu;
	int fd;			/* temp file */
	int spare_fd;		/* -m: the second temp file, else -1 */
	struct recorder *rec;
	struct recorder_stats st;	/* final counters once finished */
	struct cpu_counters start, end;
};

struct record_buffer {
	char *name;		/* NULL for the top instance */
	char *dir;		/* its tracefs directory */
	char *clock;
	uint32_t page_size;
	uint32_t buffer_kb;	/* buffer_size_kb while recording (undo may change it later) */
	struct record_cpu *cpus;
	/*
	 * record -N: one socket per CPU that the recorders write raw pages to instead of temp
	 * files; record_session_start takes them over (the session closes them). NULL: temp files.
	 */
	int *sink_fds;
};

struct record_session {
	struct record_buffer *bufs;
	int nr_bufs;
	int nr_cpus;
	int version;
	enum kt_compression compression;
	char *out_dir;		/* where the temp files live */
	struct meta_events events;
	int wait_ms;
	char *date;		/* DATE option text (record --date), or NULL */
	int rt_prio;		/* record -r: the recorders' SCHED_FIFO priority, 0 = as we are */
	bool no_ring_wait;	/* record --poll (recorder.h) */
	const char *ts_offset;	/* OFFSET option text (record --ts-offset, the plan's), or NULL */
	uint64_t max_bytes;	/* -m in bytes per CPU, 0 = keep everything */
	const char *raw_file;	/* per-CPU file to read; NULL: trace_pipe_raw */
	bool bounded;		/* flight recorder: read at most what the buffer holds (recorder.h) */
	bool datagram;		/* record -N over UDP: the sinks take one page per write */
	enum recorder_read read; /* set from KTRACE_RECORD_READ by record_session_start */
	bool latency;		/* a latency tracer: no recorders; bufs[0]'s `trace` text is the data */
	uint64_t trace_id;	/* the TRACEID option; 0: a random one (agent: the one the host has) */
	const struct record_guests *guests;	/* record -A: their GUEST options, or NULL */
	const struct session_procmaps *procmaps; /* --proc-map: PROCMAPS options, or NULL */
};

/* `names[i]` NULL for the top instance. */
int record_session_init(struct record_session *s, const char *const *names, int nr_names,
		     const char *output, int version, enum kt_compression comp);
int record_session_start(struct record_session *s, struct strbuf *err);
/* Thread ids of every recorder (malloc'd), for the notrace pid filter. */
int record_session_tids(const struct record_session *s, pid_t **tids, int *nr);
/* Finishes every recorder (call with tracing off); first error or 0. */
int record_session_finish(struct record_session *s, struct strbuf *err);
/*
 * Writes the trace.dat to out_fd: metadata, options, every buffer; with `latency`, buffer 0's
 * `trace` text instead (record_latency.h).
 */
int record_session_write(struct record_session *s, int out_fd, struct strbuf *err);
/*
 * Writes the file of buffer `buf` alone up to its CPU data (record -N sends this to the listener
 * before recording): metadata, DATE, options; no CPU statistics, which only exist at the end.
 */
int record_session_write_meta(struct record_session *s, int buf, int out_fd, struct strbuf *err);
/*
 * Stops using tracefs and the temp files (an instance with an open trace_pipe_raw cannot be
 * removed); the counters stay for the summary.
 */
void record_session_close(struct record_session *s);
void record_session_release(struct record_session *s);

int record_read_counters(const char *dir, int cpu, struct cpu_counters *c);

/* record --temp DIR: the per-CPU temp files go in DIR rather than beside the output */
int record_session_set_temp_dir(struct record_session *s, const char *dir);

#endif
