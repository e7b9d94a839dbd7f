// SPDX-License-Identifier: GPL-2.0-only
/*
 * FtraceEvent bodies. The scheduler events and print have messages of their own in Perfetto's
 * schema, which its importer turns into CPU lanes, thread states and thread names; every other
 * event becomes a GenericFtraceEvent: its name and each of its fields with a typed value, which
 * Perfetto lists in its ftrace event table with those fields as arguments.
 */
#include <string.h>

#include <event-parse.h>

#include "perfetto.h"
#include "perfetto_proto.h"

static void find_print_fgraph(struct tep_handle *tep, struct pf_ftrace *f)
{
	struct tep_event *e = tep_find_event_by_name(tep, "ftrace", "print");

	f->print_id = -1;
	if (e) {
		f->print_ip = tep_find_field(e, "ip");
		f->print_buf = tep_find_field(e, "buf");
		if (f->print_ip && f->print_buf)
			f->print_id = e->id;
	}
	f->fgraph_entry_id = f->fgraph_exit_id = -1;
	e = tep_find_event_by_name(tep, "ftrace", "funcgraph_entry");
	f->ent_func = e ? tep_find_field(e, "func") : NULL;
	f->ent_depth = e ? tep_find_field(e, "depth") : NULL;
	if (f->ent_func && f->ent_depth)
		f->fgraph_entry_id = e->id;
	e = tep_find_event_by_name(tep, "ftrace", "funcgraph_exit");
	f->exit_depth = e ? tep_find_field(e, "depth") : NULL;
	if (f->exit_depth && f->fgraph_entry_id >= 0)
		f->fgraph_exit_id = e->id;
}

void pf_ftrace_init(struct pf_ftrace *f, struct tep_handle *tep)
{
	static const struct { const char *name; int field; } wake[] = {
		{ "sched_waking", PF_FTRACE_SCHED_WAKING },
		{ "sched_wakeup", PF_FTRACE_SCHED_WAKEUP },
		{ "sched_wakeup_new", PF_FTRACE_SCHED_WAKEUP_NEW },
	};
	int i;

	f->tep = tep;
	/* a format Perfetto's messages cannot hold goes out as a generic event instead */
	sched_switch_fields_find(tep, &f->sw);
	for (i = 0; i < 3; i++) {
		sched_wakeup_fields_find(tep, wake[i].name, &f->wake[i].f);
		f->wake[i].proto_field = wake[i].field;
	}
	find_print_fgraph(tep, f);
}

/* ------------------------------------------------------------------ field values */

static bool in_record(const struct tep_record *r, unsigned int off, unsigned int len)
{
	return off <= (unsigned int)r->size && len <= (unsigned int)r->size - off;
}

static uint64_t num(struct tep_format_field *f, struct tep_record *r)
{
	unsigned long long v = 0;

	if (!in_record(r, (unsigned int)f->offset, (unsigned int)f->size) ||
	    tep_read_number_field(f, r->data, &v))
		return 0;
	return v;
}

static int64_t snum(struct tep_format_field *f, struct tep_record *r)
{
	uint64_t v = num(f, r);

	if (f->size > 0 && f->size < 8 && (v & (1ull << (f->size * 8 - 1))))
		v |= ~0ull << (f->size * 8);
	return (int64_t)v;
}

/*
 * Where a field's bytes are: in place for fixed arrays (size 0: up to the end of the record,
 * as print's buf[]), behind a 32-bit offset/length word for __data_loc fields. NULL when the
 * record is too short for what the format says.
 */
static const char *field_bytes(struct tep_format_field *f, struct tep_record *r, size_t *len)
{
	unsigned int off = (unsigned int)f->offset, size = (unsigned int)f->size;

	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		uint64_t loc = num(f, r);

		off = loc & 0xffff;
		size = (unsigned int)(loc >> 16);
		if (f->flags & TEP_FIELD_IS_RELATIVE)
			off += (unsigned int)(f->offset + f->size);
	} else if (!size && off <= (unsigned int)r->size) {
		size = (unsigned int)r->size - off;
	}
	if (!in_record(r, off, size))
		return NULL;
	*len = size;
	return (const char *)r->data + off;
}

/* A char array's text: up to its first NUL */
static void put_text(struct pb *pb, int field, struct tep_format_field *f, struct tep_record *r)
{
	size_t len = 0;
	const char *s = field_bytes(f, r, &len);

	if (s)
		pb_bytes(pb, field, s, strnlen(s, len));
}

/* ------------------------------------------------------------------ sched */

static void note_comm(struct pf_export *px, int pid, struct tep_format_field *f,
		      struct tep_record *r)
{
	struct pf_thread *th = pid_table_get(&px->threads, pid);
	size_t len = 0;
	const char *s = field_bytes(f, r, &len);

	if (th && s)
		pf_thread_set_comm(th, s, len);
}

static void encode_switch(struct pf_export *px, struct pb *pb, struct tep_record *r)
{
	const struct sched_switch_fields *f = &px->f.sw;
	size_t m = pb_open(pb, PF_FTRACE_SCHED_SWITCH);

	put_text(pb, PF_SWITCH_PREV_COMM, f->prev_comm, r);
	pb_int(pb, PF_SWITCH_PREV_PID, snum(f->prev_pid, r));
	pb_int(pb, PF_SWITCH_PREV_PRIO, snum(f->prev_prio, r));
	pb_int(pb, PF_SWITCH_PREV_STATE, snum(f->prev_state, r));
	put_text(pb, PF_SWITCH_NEXT_COMM, f->next_comm, r);
	pb_int(pb, PF_SWITCH_NEXT_PID, snum(f->next_pid, r));
	pb_int(pb, PF_SWITCH_NEXT_PRIO, snum(f->next_prio, r));
	pb_close(pb, m);
	note_comm(px, (int)snum(f->prev_pid, r), f->prev_comm, r);
	note_comm(px, (int)snum(f->next_pid, r), f->next_comm, r);
}

static void encode_wake(struct pf_export *px, struct pb *pb, struct tep_record *r,
			const struct pf_sched_wake *w)
{
	const struct sched_wakeup_fields *f = &w->f;
	size_t m = pb_open(pb, w->proto_field);

	put_text(pb, PF_WAKE_COMM, f->comm, r);
	pb_int(pb, PF_WAKE_PID, snum(f->pid, r));
	pb_int(pb, PF_WAKE_PRIO, snum(f->prio, r));
	if (f->success)
		pb_int(pb, PF_WAKE_SUCCESS, snum(f->success, r));
	if (f->target_cpu)
		pb_int(pb, PF_WAKE_TARGET_CPU, snum(f->target_cpu, r));
	pb_close(pb, m);
	note_comm(px, (int)snum(f->pid, r), f->comm, r);
}

/* ------------------------------------------------------------------ print and generic */

static void encode_print(struct pf_export *px, struct pb *pb, struct tep_record *r)
{
	size_t m = pb_open(pb, PF_FTRACE_PRINT);

	pb_uint(pb, PF_PRINT_IP, num(px->f.print_ip, r));
	put_text(pb, PF_PRINT_BUF, px->f.print_buf, r);
	pb_close(pb, m);
}

static bool is_char_array(const struct tep_format_field *f)
{
	return (f->flags & TEP_FIELD_IS_STRING) ||
	       ((f->flags & TEP_FIELD_IS_ARRAY) && f->elementsize == 1 && strstr(f->type, "char"));
}

/* Non-text arrays (cpumasks, raw bytes) as hex, so that no value is silently dropped */
static void put_hex(struct pb *pb, const unsigned char *p, size_t len)
{
	static const char digits[] = "0123456789abcdef";
	struct strbuf hex = STRBUF_INIT;
	size_t i;

	for (i = 0; i < len; i++) {
		strbuf_addch(&hex, digits[p[i] >> 4]);
		strbuf_addch(&hex, digits[p[i] & 15]);
	}
	pb_bytes(pb, PF_FIELD_STR, hex.buf ? hex.buf : "", hex.len);
	strbuf_release(&hex);
}

static void encode_field(struct pb *pb, struct tep_format_field *f, struct tep_record *r)
{
	size_t len = 0, m;
	const char *p = NULL;

	if (f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC)) {
		p = field_bytes(f, r, &len);
		if (!p)
			return;
	} else if (!in_record(r, (unsigned int)f->offset, (unsigned int)f->size)) {
		return;
	}
	m = pb_open(pb, PF_GENERIC_FIELD);
	pb_str(pb, PF_FIELD_NAME, f->name);
	if (p && is_char_array(f))
		pb_bytes(pb, PF_FIELD_STR, p, strnlen(p, len));
	else if (p)
		put_hex(pb, (const unsigned char *)p, len);
	else if ((f->flags & TEP_FIELD_IS_SIGNED) && !(f->flags & TEP_FIELD_IS_POINTER))
		pb_int(pb, PF_FIELD_INT, snum(f, r));
	else
		pb_uint(pb, PF_FIELD_UINT, num(f, r));
	pb_close(pb, m);
}

static void encode_generic(struct pf_export *px, struct pb *pb, struct tep_record *r, int type)
{
	struct tep_event *e = tep_find_event(px->tep, type);
	struct tep_format_field *f;
	size_t m = pb_open(pb, PF_FTRACE_GENERIC);

	pb_str(pb, PF_GENERIC_EVENT_NAME, e ? e->name : "unknown");
	for (f = e ? e->format.fields : NULL; f; f = f->next)
		encode_field(pb, f, r);
	pb_close(pb, m);
}

void pf_ftrace_encode(struct pf_export *px, struct pb *pb, struct tep_record *r, int type)
{
	int i;

	if (type == px->f.sw.id) {
		encode_switch(px, pb, r);
		return;
	}
	for (i = 0; i < 3; i++) {
		if (type == px->f.wake[i].f.id) {
			encode_wake(px, pb, r, &px->f.wake[i]);
			return;
		}
	}
	if (type == px->f.print_id)
		encode_print(px, pb, r);
	else
		encode_generic(px, pb, r, type);
}

const char *pf_ftrace_print_text(struct pf_export *px, struct tep_record *r, size_t *len)
{
	size_t size = 0;
	const char *s;

	if (tep_data_type(px->tep, r) != px->f.print_id)
		return NULL;
	s = field_bytes(px->f.print_buf, r, &size);
	if (!s)
		return NULL;
	*len = strnlen(s, size);
	while (*len && s[*len - 1] == '\n')
		(*len)--;
	return s;
}
