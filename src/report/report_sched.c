// SPDX-License-Identifier: GPL-2.0-only
/*
 * sched_switch and sched_wakeup(_new) are most of the events of a typical trace, and their
 * libtraceevent plugin (plugin_sched_switch) looks every field up by name and formats each
 * number with printf. This prints the same text from fields found once, so that large reports
 * stay fast. It is used only where the plugin's handler would run (plugins loaded, no -R, -n
 * or -r on the event) and when the event has every field the plugin reads; otherwise the
 * plugin itself prints.
 *
 * Like the plugin, it registers each comm it prints for its pid: later lines name tasks whose
 * comm was not in the saved cmdlines.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "ktrace/report.h"
#include "ktrace/sched_fields.h"
#include "report_print.h"

struct report_sched {
	struct tep_handle *tep;
	bool native;		/* the file's byte order is the host's */
	int last_registered;	/* pid whose comm was registered last: skip the repeat */
	struct sched_switch_fields sw;
	struct sched_wakeup_fields wk[2];	/* sched_wakeup, sched_wakeup_new */
	const char *letters;	/* prev_state's letter for bit i, up to the first gap */
	char kernel_letters[33];	/* report_sched_use_kernel_states() */
};

/* libtraceevent 1.7's plugin: a fixed table */
static const char old_letters[] = "SDTtZXxW";
/* libtraceevent 1.8's, when the format has no __print_flags() of prev_state */
static const char default_letters[] = "SDTtXZPI";

int report_sched_new(struct tep_handle *tep, struct report_sched **out)
{
	struct report_sched *rs = calloc(1, sizeof(*rs));

	if (!rs)
		return -ENOMEM;
	rs->tep = tep;
	rs->native = tep_is_file_bigendian(tep) == tep_is_local_bigendian(tep);
	rs->last_registered = -1;
	rs->letters = old_letters;
	sched_switch_fields_find(tep, &rs->sw);
	sched_wakeup_fields_find(tep, "sched_wakeup", &rs->wk[0]);
	sched_wakeup_fields_find(tep, "sched_wakeup_new", &rs->wk[1]);
	*out = rs;
	return 0;
}

/*
 * The field a __print_flags() prints, as libtraceevent 1.8's plugin finds it: a field itself
 * (any), or an operation holding prev_state on one side.
 */
static struct tep_format_field *flags_field(struct tep_print_arg *arg,
					    struct tep_format_field *prev_state)
{
	struct tep_format_field *f;

	if (!arg)
		return NULL;
	if (arg->type == TEP_PRINT_FIELD)
		return arg->field.field;
	if (arg->type != TEP_PRINT_OP)
		return NULL;
	f = flags_field(arg->op.left, prev_state);
	if (f == prev_state)
		return f;
	f = flags_field(arg->op.right, prev_state);
	return f == prev_state ? f : NULL;
}

/* The first __print_flags() of prev_state in an argument, searched through operations */
static struct tep_print_flag_sym *state_table(struct tep_print_arg *arg,
					      struct tep_format_field *prev_state)
{
	struct tep_print_flag_sym *sym;

	if (!arg)
		return NULL;
	if (arg->type == TEP_PRINT_OP) {
		sym = state_table(arg->op.left, prev_state);
		return sym ? sym : state_table(arg->op.right, prev_state);
	}
	if (arg->type == TEP_PRINT_FLAGS && arg->flags.field &&
	    (arg->flags.field->type == TEP_PRINT_FIELD ||
	     flags_field(arg->flags.field, prev_state)))
		return arg->flags.flags;
	return NULL;
}

void report_sched_use_kernel_states(struct report_sched *rs)
{
	struct tep_format_field *f = rs->sw.prev_state;
	struct tep_print_flag_sym *sym = NULL;
	struct tep_print_arg *arg;

	rs->letters = default_letters;
	if (!f || !f->event)
		return;
	for (arg = f->event->print_fmt.args; arg && !sym; arg = arg->next)
		sym = state_table(arg, f);
	if (!sym)
		return;
	memset(rs->kernel_letters, 0, sizeof(rs->kernel_letters));
	/* each flag's letter goes to the position of its lowest bit */
	for (; sym; sym = sym->next) {
		unsigned long bits = strtoul(sym->value, NULL, 0);
		int i = bits ? __builtin_ctzl(bits) : 32;

		if (i < 32 && sym->str)
			rs->kernel_letters[i] = sym->str[0];
	}
	rs->letters = rs->kernel_letters;
}

void report_sched_free(struct report_sched *rs)
{
	free(rs);
}

/* A field's number; the plain load when the file has the host's byte order */
static unsigned long long val(const struct report_sched *rs, struct tep_format_field *f,
			      struct tep_record *r)
{
	const unsigned char *p = (const unsigned char *)r->data + f->offset;
	unsigned long long v = 0;

	if (!rs->native) {
		tep_read_number_field(f, r->data, &v);
		return v;
	}
	switch (f->size) {
	case 1: return *p;
	case 2: { uint16_t x; memcpy(&x, p, 2); return x; }
	case 4: { uint32_t x; memcpy(&x, p, 4); return x; }
	case 8: { uint64_t x; memcpy(&x, p, 8); return x; }
	default:
		tep_read_number_field(f, r->data, &v);
		return v;
	}
}

/* Appends a signed decimal; `sb` has room (callers grow it first). */
static void put_ll(struct strbuf *sb, long long v)
{
	sb->len = (size_t)(report_put_int(sb->buf + sb->len, v, 0, ' ', false) - sb->buf);
}

static void put_str(struct strbuf *sb, const char *s)
{
	while (*s)
		sb->buf[sb->len++] = *s++;
}

/* The comm as the plugin prints it, registered for `pid` as the plugin does. */
static void put_comm(struct report_sched *rs, struct strbuf *sb, struct tep_format_field *f,
		     struct tep_record *r, int pid)
{
	const char *comm = (const char *)r->data + f->offset;
	size_t len = strnlen(comm, f->size < 64 ? (size_t)f->size : 64);
	char *start = sb->buf + sb->len;

	memcpy(start, comm, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
	if (pid != rs->last_registered)
		tep_register_comm(rs->tep, start, pid);
	rs->last_registered = pid;
	sb->buf[sb->len++] = ':';
}

static void put_state(struct strbuf *sb, const char *letters, int state)
{
	bool any = false;
	int i;

	for (i = 0; letters[i]; i++) {
		if (!(state & (1 << i)))
			continue;
		if (any)
			sb->buf[sb->len++] = '|';
		sb->buf[sb->len++] = letters[i];
		any = true;
	}
	if (!any)
		sb->buf[sb->len++] = 'R';
}

static void print_switch(struct report_sched *rs, struct strbuf *sb, struct tep_record *r)
{
	struct sched_switch_fields *f = &rs->sw;
	unsigned long long pid = val(rs, f->prev_pid, r);

	put_comm(rs, sb, f->prev_comm, r, (int)pid);
	put_ll(sb, (long long)pid);
	put_str(sb, " [");
	put_ll(sb, (int)val(rs, f->prev_prio, r));
	put_str(sb, "] ");
	put_state(sb, rs->letters, (int)val(rs, f->prev_state, r));
	put_str(sb, " ==> ");
	pid = val(rs, f->next_pid, r);
	put_comm(rs, sb, f->next_comm, r, (int)pid);
	put_ll(sb, (long long)pid);
	put_str(sb, " [");
	put_ll(sb, (int)val(rs, f->next_prio, r));
	sb->buf[sb->len++] = ']';
}

static void print_wakeup(struct report_sched *rs, struct sched_wakeup_fields *f,
			 struct strbuf *sb, struct tep_record *r)
{
	unsigned long long pid = val(rs, f->pid, r), cpu;

	put_comm(rs, sb, f->comm, r, (int)pid);
	put_ll(sb, (long long)pid);
	put_str(sb, " [");
	put_ll(sb, (long long)val(rs, f->prio, r));
	sb->buf[sb->len++] = ']';
	if (f->success) {
		put_str(sb, " success=");
		put_ll(sb, (long long)val(rs, f->success, r));
	}
	if (f->target_cpu) {
		/* " CPU:%03llu" */
		cpu = val(rs, f->target_cpu, r);
		put_str(sb, " CPU:");
		if (cpu < 100)
			sb->buf[sb->len++] = '0';
		if (cpu < 10)
			sb->buf[sb->len++] = '0';
		put_ll(sb, (long long)cpu);
	}
}

bool report_sched_print(struct report_sched *rs, struct strbuf *sb, struct tep_record *r,
			int type)
{
	int i;

	if (type < 0)
		return false;
	/* two comms of at most 64 bytes, numbers, separators */
	if (strbuf_grow(sb, 256))
		return false;
	if (type == rs->sw.id) {
		print_switch(rs, sb, r);
	} else {
		for (i = 0; i < 2 && type != rs->wk[i].id; i++)
			;
		if (i == 2)
			return false;
		print_wakeup(rs, &rs->wk[i], sb, r);
	}
	/* the helpers write past the strbuf's API: restore its terminating NUL */
	sb->buf[sb->len] = '\0';
	return true;
}
