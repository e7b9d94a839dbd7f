/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_RECORD_RECORDER_H
#define KTRACE_RECORD_RECORDER_H

/*
 * One recorder per CPU and instance: a thread that moves trace_pipe_raw pages into a temp file.
 * On Linux 6.10+ it reads the ring buffer through the kernel's mapping of it (ring_map.h): each
 * finished page is compressed, or written, straight from the mapping. Where the kernel refuses
 * the mapping (older kernels, a snapshot-armed instance, snapshot_raw) it splices:
 * uncompressed, pages go trace_pipe_raw -> pipe -> file with splice and never enter user memory.
 * Compressed, pages are spliced into a pipe, read from it a chunk at a time and compressed right
 * away, so the temp file (and the disk) only ever holds compressed chunks in the layout that
 * struct dat_cpu_source describes.
 *
 * Threads rather than processes: with splice the data path costs the same either way, and
 * threads share the counters the status line reads without any IPC; each thread has its own
 * pipe, file and codec, so nothing is locked on the data path. Measured on the 2-CPU test VM
 * (900000 syscall/marker events, 26 MiB of pages from one CPU, default 1.4 MiB buffer, none
 * lost): all of ktrace took 0.14 s of CPU uncompressed and 0.20 s with zstd (3 MiB file),
 * metadata included; processes could only add fork and IPC cost to that.
 */
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "ktrace/compress.h"

/* How the ring buffer is read: KTRACE_RECORD_READ=auto|mmap|splice (ktrace-record(1)). */
enum recorder_read {
	RECORDER_READ_AUTO,	/* the mapping where the kernel allows it, else splice */
	RECORDER_READ_MMAP,	/* the mapping or an error */
	RECORDER_READ_SPLICE,	/* splice (and read() for the last partial pages) */
};

struct recorder_config {
	const char *trace_dir;	/* tracefs dir of the instance (top or instances/NAME) */
	const char *raw_file;	/* "trace_pipe_raw", or "snapshot_raw" (extract -s) */
	int cpu;
	uint32_t page_size;	/* ring-buffer sub-buffer size */
	enum kt_compression compression; /* KT_COMP_NONE: raw pages */
	int out_fd;		/* temp file, written from offset 0 */
	uint64_t max_bytes;	/* -m: keep about this much of the newest data, 0 = all */
	int spare_fd;		/* -m: the second temp file, -1 without -m */
	int wait_ms;		/* longest sleep between two drains */
	bool datagram;		/* out_fd is a UDP socket: one write per page (record -N --udp) */
	/*
	 * A flight recorder's save reads while tracing stays on: it takes at most this many
	 * bytes (what the buffer held when it began), so that it ends under any event rate and
	 * leaves newer events to the next save. 0: everything, until the buffer is empty.
	 */
	uint64_t take_at_most;
	enum recorder_read read; /* datagrams always splice */
	/*
	 * record --poll: never wait on the ring buffer's wake-up (its irq_work IPIs are noise on
	 * a real-time system); read every wait_ms instead
	 */
	bool no_ring_wait;
};

struct recorder_stats {
	uint64_t raw_bytes;	/* ring-buffer bytes taken (whole pages) */
	uint64_t file_bytes;	/* bytes in the temp file */
	uint32_t nr_chunks;	/* compressed chunks in the temp file */
	int fd;			/* the temp file holding the data (out_fd or, with -m, spare_fd) */
	bool mapped;		/* read through the kernel's mapping (ring_map.h), not splice */
};

struct recorder;

/*
 * Starts the thread; 0 or negative errno (the trace_pipe_raw file is opened and, unless it
 * splices, mapped before returning). RECORDER_READ_MMAP on a kernel that will not map the
 * file fails with -EOPNOTSUPP (before 6.10), -EBUSY (snapshot armed) or the mapping's errno.
 */
int recorder_start(const struct recorder_config *cfg, struct recorder **out);
/* The thread's id once it runs (for pid filters), 0 before. */
pid_t recorder_tid(const struct recorder *r);
/* Snapshot of the counters, safe while the thread runs. */
void recorder_get_stats(const struct recorder *r, struct recorder_stats *st);
/*
 * Tells the thread to take everything left, including the partial last page, and joins it.
 * Call it after tracing was switched off, so that "everything left" is final.
 * Returns the thread's error (negative errno) or 0.
 */
int recorder_finish(struct recorder *r);
void recorder_free(struct recorder *r);

/* record -r PRIO: the recorder's thread runs at SCHED_FIFO priority prio. 0 or -errno. */
int recorder_set_rt_prio(struct recorder *r, int prio);

#endif
