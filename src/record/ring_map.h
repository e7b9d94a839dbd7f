/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_RECORD_RING_MAP_H
#define KTRACE_RECORD_RING_MAP_H

/*
 * A CPU's ring buffer read through the kernel's mapping of it (Linux 6.10+: mmap of
 * trace_pipe_raw and TRACE_MMAP_IOCTL_GET_READER): the recorder compresses or writes each
 * finished page where the kernel keeps it, with no splice and no copy.
 *
 * The kernel lends one page at a time, its reader page, until the next GET_READER. A page is
 * handed out only once the writer has left it, as splice does: its commit leaves no room for an
 * event, or the kernel marked it as followed by lost events (it does so only for a page the
 * writer left). The page the writer is still on is held back and looked at again, and at the
 * end (`flush`, tracing off) handed out as it is.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ring_map;

/*
 * Maps the ring buffer behind trace_fd (a per_cpu/cpuN/trace_pipe_raw opened O_NONBLOCK) whose
 * pages are page_size bytes. Negative errno when the kernel refuses: -ENODEV before 6.10 or on
 * a file without the mapping (snapshot_raw), -EBUSY while a snapshot is armed, -EINVAL when
 * the page sizes disagree.
 */
int ring_map_open(int trace_fd, uint32_t page_size, struct ring_map **out);
/*
 * The next page: 1 and *page (valid until the next call), 0 when none is ready, or negative
 * errno. *len is the page size for a page the writer left (handed out whole, as splice does);
 * with `flush`, the page the writer was on comes too, *len then its bytes in use (header,
 * events, a stored lost-event count), the rest of it being stale.
 */
int ring_map_next(struct ring_map *m, bool flush, const void **page, size_t *len);
void ring_map_close(struct ring_map *m);

#endif
