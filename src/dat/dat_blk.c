// SPDX-License-Identifier: GPL-2.0-only
/*
 * The blk tracer's records (ftrace type TRACE_BLK) have no format file in tracefs. trace-cmd
 * report makes one up before reading the data: an ftrace event "blktrace" whose id follows
 * a known ftrace event (power, kmem_free, then user_stack, depending on the kernel), laid over
 * struct blk_io_trace. Doing the same keeps such records printed the same way.
 */
#include <stdio.h>
#include <traceevent/event-parse.h>

#include "dat_internal.h"

static bool common_field_is(struct tep_event *ev, const char *name, int offset, int size)
{
	struct tep_format_field *f = tep_find_common_field(ev, name);

	return f && f->offset == offset && f->size == size;
}

static struct tep_event *blk_neighbour(struct tep_handle *tep)
{
	static const char *const before_blk[] = { "power", "kmem_free", "user_stack" };
	struct tep_event *ev;
	size_t i;

	for (i = 0; i < sizeof(before_blk) / sizeof(before_blk[0]); i++) {
		ev = tep_find_event_by_name(tep, "ftrace", before_blk[i]);
		if (ev)
			return ev;
	}
	return NULL;
}

void dat_file_add_blk_event(struct dat_file *df)
{
	if (!df->tep || df->blk_done)
		return;
	df->blk_done = true;
	dat_tep_add_blk_event(df->tep);
}

void dat_tep_add_blk_event(struct tep_handle *tep)
{
	struct tep_format_field *lock_depth;
	struct strbuf fmt = STRBUF_INIT;
	struct tep_event *ev;

	ev = blk_neighbour(tep);
	if (!ev || !common_field_is(ev, "common_type", 0, 2) ||
	    !common_field_is(ev, "common_flags", 2, 1) ||
	    !common_field_is(ev, "common_preempt_count", 3, 1) ||
	    !common_field_is(ev, "common_pid", 4, 4))
		return;
	lock_depth = tep_find_common_field(ev, "common_lock_depth");
	if (lock_depth && (lock_depth->offset != 8 || lock_depth->size != 4))
		return;
	strbuf_addf(&fmt, "name: blktrace\nID: %d\nformat:\n", ev->id + 1);
	strbuf_addstr(&fmt, "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\n"
		      "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\n"
		      "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\n"
		      "\tfield:int common_pid;\toffset:4;\tsize:4;\n");
	if (lock_depth)
		strbuf_addstr(&fmt, "\tfield:int common_lock_depth;\toffset:8;\tsize:4;\n");
	strbuf_addstr(&fmt, "\n\tfield:u64 sector;\toffset:16;\tsize:8;\n"
		      "\tfield:int bytes;\toffset:24;\tsize:4;\n"
		      "\tfield:int action;\toffset:28;\tsize:4;\n"
		      "\tfield:int pid;\toffset:32;\tsize:4;\n"
		      "\tfield:int device;\toffset:36;\tsize:4;\n"
		      "\tfield:int cpu;\toffset:40;\tsize:4;\n"
		      "\tfield:short error;\toffset:44;\tsize:2;\n"
		      "\tfield:short pdu_len;\toffset:46;\tsize:2;\n"
		      "\tfield:void data;\toffset:48;\tsize:0;\n"
		      "\nprint fmt: \"%d\", REC->pid\n");
	tep_parse_event(tep, fmt.buf, fmt.len, "ftrace");
	strbuf_release(&fmt);
}
