// SPDX-License-Identifier: GPL-2.0-only
/*
 * TrackEvent packets: one track per thread (a TrackDescriptor naming the thread), function_graph
 * calls as nested slices on it and trace markers as instants. All are on one packet sequence
 * (a TrackEvent needs one) whose first packet declares its incremental state cleared, as
 * Perfetto's own writers do; nothing is interned, so no packet depends on that state.
 *
 * A thread's track says pid = tid: see perfetto_process.c.
 */
#include <errno.h>
#include <string.h>

#include <event-parse.h>

#include "perfetto.h"
#include "perfetto_proto.h"

#define PF_SEQUENCE_ID 1
/* Flush the TrackEvent packets in chunks of about this size */
#define PF_TRACK_CHUNK (64 * 1024)

/*
 * Track uuids only need to be unique and non-zero: the thread id in the upper half and the
 * machine + 1 in the lower are both, across the files of one output too.
 */
static uint64_t thread_uuid(const struct pf_export *px, int tid)
{
	return ((uint64_t)(uint32_t)tid << 32) | (px->machine + 1);
}

/* A sequence per machine: each clears its own incremental state. */
static size_t packet_open(struct pf_export *px, uint64_t ts)
{
	size_t m = pf_packet_open(px, &px->track);

	pb_uint(&px->track, PF_PACKET_TIMESTAMP, ts);
	pb_uint(&px->track, PF_PACKET_SEQUENCE_ID, PF_SEQUENCE_ID + px->machine);
	if (!px->sequence_started) {
		pb_uint(&px->track, PF_PACKET_SEQUENCE_FLAGS, PF_SEQ_INCREMENTAL_STATE_CLEARED);
		px->sequence_started = true;
	}
	return m;
}

static void packet_close(struct pf_export *px, size_t m)
{
	pb_close(&px->track, m);
	if (px->track.sb.len >= PF_TRACK_CHUNK)
		pf_write(px, &px->track);
}

static void describe(struct pf_export *px, struct pf_thread *th, uint64_t ts)
{
	const char *name = pf_thread_name(px, th);
	size_t m = packet_open(px, ts), d, t;

	d = pb_open(&px->track, PF_PACKET_TRACK_DESCRIPTOR);
	pb_uint(&px->track, PF_TRACK_UUID, thread_uuid(px, th->slot.pid));
	t = pb_open(&px->track, PF_TRACK_THREAD);
	pb_int(&px->track, PF_THREAD_PID, th->slot.pid);
	pb_int(&px->track, PF_THREAD_TID, th->slot.pid);
	if (name)
		pb_str(&px->track, PF_THREAD_NAME, name);
	pb_close(&px->track, t);
	pb_close(&px->track, d);
	packet_close(px, m);
	th->described = true;
}

static void track_event(struct pf_export *px, uint64_t ts, int tid, int type, const char *name,
			size_t len)
{
	size_t m = packet_open(px, ts), e;

	e = pb_open(&px->track, PF_PACKET_TRACK_EVENT);
	pb_uint(&px->track, PF_EVENT_TYPE, (uint64_t)type);
	pb_uint(&px->track, PF_EVENT_TRACK_UUID, thread_uuid(px, tid));
	if (name)
		pb_bytes(&px->track, PF_EVENT_NAME, name, len);
	pb_close(&px->track, e);
	packet_close(px, m);
}

/* The thread's entry, its track described first; NULL when out of memory. */
static struct pf_thread *track_thread(struct pf_export *px, int tid, uint64_t ts)
{
	struct pf_thread *th = pid_table_get(&px->threads, tid);

	if (!th) {
		px->track.error = -ENOMEM;
		return NULL;
	}
	if (!th->described)
		describe(px, th, ts);
	return th;
}

void pf_track_instant(struct pf_export *px, uint64_t ts, int tid, const char *name, size_t len)
{
	if (track_thread(px, tid, ts))
		track_event(px, ts, tid, PF_TYPE_INSTANT, name, len);
}

static void fgraph_entry(struct pf_export *px, struct pf_thread *th, struct tep_record *r)
{
	unsigned long long func = 0, depth = 0;
	const char *name;
	char addr[32];

	tep_read_number_field(px->f.ent_func, r->data, &func);
	tep_read_number_field(px->f.ent_depth, r->data, &depth);
	if (pf_thread_push_depth(th, (int)depth)) {
		px->track.error = -ENOMEM;
		return;
	}
	name = tep_find_function(px->tep, func);
	if (!name) {
		snprintf(addr, sizeof(addr), "0x%llx", func);
		name = addr;
	}
	track_event(px, r->ts, th->slot.pid, PF_TYPE_SLICE_BEGIN, name, strlen(name));
}

/*
 * An exit closes the open call of its depth, and the deeper ones whose exits were lost. An exit
 * with no open call of its depth belongs to a call entered before the recording began: Perfetto
 * would ignore an end without a begin, so it is left out and counted.
 */
static void fgraph_exit(struct pf_export *px, struct pf_thread *th, struct tep_record *r)
{
	unsigned long long depth = 0;
	bool matched = false;

	tep_read_number_field(px->f.exit_depth, r->data, &depth);
	while (th->nr_depths && th->depths[th->nr_depths - 1] >= (int)depth) {
		matched = th->depths[--th->nr_depths] == (int)depth;
		track_event(px, r->ts, th->slot.pid, PF_TYPE_SLICE_END, NULL, 0);
	}
	if (!matched)
		px->nr_unmatched_exits++;
}

static bool fits(const struct tep_format_field *f, const struct tep_record *r)
{
	return f->offset >= 0 && f->size >= 0 && f->offset + f->size <= r->size;
}

void pf_track_fgraph(struct pf_export *px, struct tep_record *r, int type, int tid)
{
	bool entry = type == px->f.fgraph_entry_id;
	struct pf_thread *th;

	/* a record shorter than its format is skipped rather than read past its end */
	if (entry ? !fits(px->f.ent_func, r) || !fits(px->f.ent_depth, r) :
		    !fits(px->f.exit_depth, r))
		return;
	th = track_thread(px, tid, r->ts);
	if (!th)
		return;
	if (entry)
		fgraph_entry(px, th, r);
	else
		fgraph_exit(px, th, r);
}
