// SPDX-License-Identifier: GPL-2.0-only
/*
 * The Perfetto writer: a Trace is a sequence of TracePacket fields, so the file is written as it
 * goes, packet by packet. Events are grouped per CPU into FtraceEventBundle packets, as
 * Perfetto's own ftrace reader does, because that is how its importer knows an event's CPU.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "ktrace/dat.h"
#include "perfetto.h"
#include "perfetto_proto.h"

/* A bundle is written once it holds about this much: packets stay small for the importer. */
#define PF_BUNDLE_CHUNK (64 * 1024)

size_t pf_packet_open(const struct pf_export *px, struct pb *pb)
{
	size_t m = pb_open(pb, PF_TRACE_PACKET);

	if (px->machine)
		pb_uint(pb, PF_PACKET_MACHINE_ID, px->machine);
	return m;
}

void pf_write(struct pf_export *px, struct pb *pb)
{
	if (pb->error && !px->error)
		px->error = pb->error;
	if (!px->error && pb->sb.len && fwrite(pb->sb.buf, 1, pb->sb.len, px->out) != pb->sb.len)
		px->error = -EIO;
	pb_reset(pb);
}

static void bundle_flush(struct pf_export *px, struct pf_bundle *b)
{
	if (!b->open)
		return;
	pb_close(&b->pb, b->bundle);
	pb_close(&b->pb, b->packet);
	b->open = false;
	pf_write(px, &b->pb);
}

/* The bundle of `cpu`, open; NULL when out of memory. */
static struct pf_bundle *bundle_of(struct pf_export *px, int cpu)
{
	struct pf_bundle *b;

	if (cpu < 0)
		cpu = 0;
	if (cpu >= px->nr_bundles) {
		struct pf_bundle *grown = realloc(px->bundles, (size_t)(cpu + 1) * sizeof(*grown));

		if (!grown)
			return NULL;
		memset(grown + px->nr_bundles, 0,
		       (size_t)(cpu + 1 - px->nr_bundles) * sizeof(*grown));
		px->bundles = grown;
		px->nr_bundles = cpu + 1;
	}
	b = &px->bundles[cpu];
	if (!b->open) {
		b->packet = pf_packet_open(px, &b->pb);
		b->bundle = pb_open(&b->pb, PF_PACKET_FTRACE_EVENTS);
		pb_uint(&b->pb, PF_BUNDLE_CPU, (uint64_t)cpu);
		b->open = true;
	}
	return b;
}

static int ftrace_event(struct pf_export *px, struct tep_record *r, int type, int pid)
{
	struct pf_bundle *b = NULL;
	size_t m;

	/* the kernel dropped events before this one: a new bundle says so */
	if (r->missed_events && r->cpu >= 0 && r->cpu < px->nr_bundles)
		bundle_flush(px, &px->bundles[r->cpu]);
	b = bundle_of(px, r->cpu);
	if (!b)
		return -ENOMEM;
	if (r->missed_events)
		pb_uint(&b->pb, PF_BUNDLE_LOST_EVENTS, 1);
	m = pb_open(&b->pb, PF_BUNDLE_EVENT);
	pb_uint(&b->pb, PF_FTRACE_TIMESTAMP, r->ts);
	pb_uint(&b->pb, PF_FTRACE_PID, (uint32_t)pid);
	pf_ftrace_encode(px, &b->pb, r, type);
	pb_close(&b->pb, m);
	if (b->pb.sb.len >= PF_BUNDLE_CHUNK)
		bundle_flush(px, b);
	return b->pb.error;
}

int pf_export_event(struct pf_export *px, struct tep_record *r)
{
	int type = tep_data_type(px->tep, r), pid = tep_data_pid(px->tep, r), ret = 0;
	const char *text;
	size_t len = 0;

	px->last_ts = r->ts;
	if (!pid_table_get(&px->threads, pid))
		return -ENOMEM;
	if (type == px->f.fgraph_entry_id || type == px->f.fgraph_exit_id) {
		pf_track_fgraph(px, r, type, pid);
	} else {
		ret = ftrace_event(px, r, type, pid);
		text = ret ? NULL : pf_ftrace_print_text(px, r, &len);
		if (text)
			pf_track_instant(px, r->ts, pid, text, len);
	}
	if (!ret)
		ret = px->track.error;
	return ret ? ret : px->error;
}

int pf_export_new(struct dat_file *df, FILE *out, uint32_t machine, struct pf_export **pxp)
{
	struct pf_export *px = calloc(1, sizeof(*px));

	if (!px)
		return -ENOMEM;
	px->df = df;
	px->machine = machine;
	px->tep = dat_file_tep(df);
	px->out = out;
	pid_table_init(&px->threads, sizeof(struct pf_thread), 256);
	pf_ftrace_init(&px->f, px->tep);
	pf_process_system_info(px, &px->track);
	pf_write(px, &px->track);
	*pxp = px;
	return px->error;
}

int pf_export_finish(struct pf_export *px)
{
	int i;

	for (i = 0; i < px->nr_bundles; i++)
		bundle_flush(px, &px->bundles[i]);
	pf_process_tree(px, &px->track);
	pf_write(px, &px->track);
	if (!px->error && fflush(px->out))
		px->error = -EIO;
	return px->error;
}

void pf_export_free(struct pf_export *px)
{
	int i;

	if (!px)
		return;
	for (i = 0; i < px->nr_bundles; i++)
		pb_release(&px->bundles[i].pb);
	free(px->bundles);
	pb_release(&px->track);
	pf_threads_release(&px->threads);
	free(px);
}
