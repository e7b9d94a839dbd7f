// SPDX-License-Identifier: GPL-2.0-only
/*
 * Who ran: the SystemInfo packet (the kernel release, which Perfetto needs to read
 * sched_switch's prev_state bits right) and a ProcessTree naming every thread the trace
 * mentions, from the file's saved cmdlines or else the comm its sched events carried.
 *
 * trace.dat keeps no thread-group ids, so each thread is described as a process of its own
 * (pid = tid, its comm as command line): Perfetto needs a process for a thread track, and a
 * made-up grouping of threads would be worse than none.
 */
#include <string.h>

#include <event-parse.h>

#include "ktrace/dat.h"
#include "ktrace/dat_format.h"
#include "perfetto.h"
#include "perfetto_proto.h"

const char *pf_thread_name(struct pf_export *px, const struct pf_thread *th)
{
	/* the saved cmdlines hold each task's comm at the end of the recording */
	if (tep_is_pid_registered(px->tep, th->slot.pid))
		return tep_data_comm_from_pid(px->tep, th->slot.pid);
	return th->comm[0] ? th->comm : NULL;
}

/* The next blank-separated word of the UNAME option's "sysname node release machine" */
static void put_word(struct pb *pb, int field, const char **p, const char *end)
{
	const char *w;

	while (*p < end && **p == ' ')
		(*p)++;
	w = *p;
	while (*p < end && **p != ' ' && **p)
		(*p)++;
	if (field && *p > w)
		pb_bytes(pb, field, w, (size_t)(*p - w));
}

void pf_process_system_info(struct pf_export *px, struct pb *pb)
{
	uint32_t size = 0;
	const char *p = dat_file_option(px->df, DAT_OPT_UNAME, 0, &size), *end = p + size;
	size_t m, s, u;

	if (!p || !size)
		return;
	m = pf_packet_open(px, pb);
	s = pb_open(pb, PF_PACKET_SYSTEM_INFO);
	u = pb_open(pb, PF_SYSINFO_UTSNAME);
	put_word(pb, PF_UTS_SYSNAME, &p, end);
	put_word(pb, 0, &p, end);		/* the host name is not Perfetto's business */
	put_word(pb, PF_UTS_RELEASE, &p, end);
	put_word(pb, PF_UTS_MACHINE, &p, end);
	pb_close(pb, u);
	pb_close(pb, s);
	pb_close(pb, m);
}

static void put_thread(struct pb *pb, const struct pf_thread *th, const char *name)
{
	size_t m = pb_open(pb, PF_TREE_THREADS);

	pb_int(pb, PF_TREE_THREAD_TID, th->slot.pid);
	pb_int(pb, PF_TREE_THREAD_TGID, th->slot.pid);
	pb_str(pb, PF_TREE_THREAD_NAME, name);
	pb_close(pb, m);
}

static void put_process(struct pb *pb, const struct pf_thread *th, const char *name)
{
	size_t m = pb_open(pb, PF_TREE_PROCESSES);

	pb_int(pb, PF_PROCESS_PID, th->slot.pid);
	pb_str(pb, PF_PROCESS_CMDLINE, name);
	pb_uint(pb, PF_PROCESS_CMDLINE_IS_COMM, 1);
	pb_close(pb, m);
}

void pf_process_tree(struct pf_export *px, struct pb *pb)
{
	size_t m, t, i;

	m = pf_packet_open(px, pb);
	pb_uint(pb, PF_PACKET_TIMESTAMP, px->last_ts);
	t = pb_open(pb, PF_PACKET_PROCESS_TREE);
	for (i = 0; i < px->threads.cap; i++) {
		const struct pf_thread *th = pid_table_slot(&px->threads, i);
		const char *name = th ? pf_thread_name(px, th) : NULL;

		/* pid 0 is the idle task of every CPU, which Perfetto names itself */
		if (!name || th->slot.pid <= 0)
			continue;
		put_process(pb, th, name);
		put_thread(pb, th, name);
	}
	pb_close(pb, t);
	pb_close(pb, m);
}
