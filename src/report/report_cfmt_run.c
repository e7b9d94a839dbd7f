// SPDX-License-Identifier: GPL-2.0-only
/*
 * Running compiled print formats (report_cfmt.c), and the table by event id that holds them:
 * the event of a record is found there by its id, without libtraceevent's binary search, and
 * its format is compiled the first time the event is seen.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "ktrace/report.h"
#include "report_cfmt.h"
#include "report_print.h"

enum {
	SLOT_EVENT = 1,		/* `event` was looked up (it may be NULL: no such id) */
	SLOT_TRIED = 2,		/* the format was compiled (`ce`), or could not be (NULL) */
	SLOT_RAW_TRIED = 4,	/* the same for the raw fields (`raw`) */
};

struct cfmt_slot {
	struct tep_event *event;
	struct cfmt_event *ce;		/* its print format */
	struct cfmt_event *raw;		/* its fields as -R prints them */
	unsigned int flex_start;	/* of `event`, once looked up */
	unsigned char state;
};

struct report_cfmt {
	struct tep_handle *tep;
	bool native;		/* the file's byte order is the host's */
	int long_size;
	bool func_addr;		/* report_cfmt_set_func_addr() */
	/* common_type and common_pid, the same in every event: read without libtraceevent */
	unsigned int type_offset, type_size, pid_offset, pid_size;
	struct cfmt_slot *slots;
	int nr_slots;
};

/* ------------------------------------------------------------------ running */

struct cfmt_ev_ctx {
	struct tep_handle *tep;
	struct strbuf *sb;
	const unsigned char *data;
	unsigned int size;
	size_t room;
};

static unsigned long long load(const unsigned char *p, unsigned int size)
{
	uint8_t b;
	uint16_t h;
	uint32_t w;
	uint64_t q;

	switch (size) {
	case 1: memcpy(&b, p, 1); return b;
	case 2: memcpy(&h, p, 2); return h;
	case 4: memcpy(&w, p, 4); return w;
	default: memcpy(&q, p, 8); return q;
	}
}

/* The value as printf sees it after libtraceevent's cast to the conversion's length */
static unsigned long long narrow(const struct cfmt_op *op, unsigned long long v, bool *neg)
{
	long long s;

	*neg = false;
	if (op->conv != 'd' && op->conv != 'i') {
		switch (op->ls) {
		case -2: return (unsigned char)v;
		case -1: return (unsigned short)v;
		case 0: return (unsigned int)v;
		default: return v;
		}
	}
	switch (op->ls) {
	case -2: s = (signed char)v; break;
	case -1: s = (short)v; break;
	case 0: s = (int)v; break;
	default: s = (long long)v; break;
	}
	*neg = s < 0;
	return *neg ? 0ULL - (unsigned long long)s : (unsigned long long)s;
}

static char *pad(char *o, char ch, int n)
{
	while (n-- > 0)
		*o++ = ch;
	return o;
}

/* printf's %d/%u/%x/%X with the op's flags and width; `o` has width + 24 bytes of room */
static char *put_num(char *o, const struct cfmt_op *op, unsigned long long raw)
{
	int base = (op->conv == 'x' || op->conv == 'X') ? 16 : 10;
	int n, plen = 0, fill;
	bool neg;
	unsigned long long v = narrow(op, raw & op->mask, &neg);

	n = report_num_len(v, base);
	if (!op->flags && !neg && op->width <= n) {
		report_num_put(o + n, v, base, op->conv == 'X');
		return o + n;
	}
	if (neg || ((op->flags & CFMT_ALT) && v))
		plen = neg ? 1 : 2;
	fill = op->width - n - plen;
	if (!(op->flags & (CFMT_LEFT | CFMT_ZERO)))
		o = pad(o, ' ', fill);
	if (neg) {
		*o++ = '-';
	} else if (plen) {
		*o++ = '0';
		*o++ = op->conv;
	}
	if ((op->flags & (CFMT_LEFT | CFMT_ZERO)) == CFMT_ZERO)
		o = pad(o, '0', fill);
	report_num_put(o + n, v, base, op->conv == 'X');
	o += n;
	if (op->flags & CFMT_LEFT)
		o = pad(o, ' ', fill);
	return o;
}

/*
 * Appends a %s: sb->len is where the text ends so far. Keeps `room` bytes free after it for
 * the fixed-size operations that follow.
 */
static int put_str(struct strbuf *sb, const struct cfmt_op *op, const char *s, size_t len,
		   size_t room)
{
	int fill = op->width - (int)len;
	char *o;

	if (strbuf_grow(sb, len + (size_t)op->width + room))
		return -ENOMEM;
	o = sb->buf + sb->len;
	if (!(op->flags & CFMT_LEFT))
		o = pad(o, ' ', fill);
	memcpy(o, s, len);
	o += len;
	if (op->flags & CFMT_LEFT)
		o = pad(o, ' ', fill);
	sb->len = (size_t)(o - sb->buf);
	return 0;
}

/*
 * Where a __data_loc (or __rel_loc) field's array is, as libtraceevent reads the word: offset
 * in the low 16 bits, length in the high ones (for a 2-byte word, up to the record's end), both
 * zeroed when out of the record, the offset then made relative to the field's end for
 * __rel_loc (which can take it out of the record again).
 */
static void dyn_loc(const struct tep_format_field *f, const unsigned char *data,
		    unsigned int size, unsigned int *off, unsigned int *len)
{
	unsigned long long v;
	unsigned int o, l;

	*off = *len = 0;
	if ((unsigned int)f->offset + (unsigned int)f->size > size)
		return;
	v = load(data + f->offset, (unsigned int)f->size);
	o = (unsigned int)(v & 0xffff);
	l = f->size == 2 ? size - o : (unsigned int)((v >> 16) & 0xffff);
	*off = o > size ? 0 : o;
	*len = o + l > size ? 0 : l;
	if (f->flags & TEP_FIELD_IS_RELATIVE)
		*off += (unsigned int)(f->offset + f->size);
}

/*
 * __get_str(): an empty string prints nothing; a string without its NUL inside the record
 * goes back to libtraceevent (-ERANGE), which reads past the record.
 */
static int dyn_str(const struct cfmt_op *op, const unsigned char *data, unsigned int size,
		   const char **str, size_t *n)
{
	unsigned int off, len;

	*n = 0;
	dyn_loc(op->field, data, size, &off, &len);
	if (!len)
		return 0;
	if (off >= size)
		return -ERANGE;
	*str = (const char *)data + off;
	*n = strnlen(*str, size - off);
	return *n == size - off ? -ERANGE : 0;
}

static int run_str(const struct cfmt_ev_ctx *x, const struct cfmt_op *op, char **o)
{
	const char *s = "";
	size_t n;
	int ret = 0;

	if (op->kind == CFMT_STR_FIXED) {
		s = (const char *)x->data + op->offset;
		n = strnlen(s, op->size);
	} else {
		ret = dyn_str(op, x->data, x->size, &s, &n);
	}
	x->sb->len = (size_t)(*o - x->sb->buf);
	if (!ret)
		ret = put_str(x->sb, op, s, n, x->room);
	*o = x->sb->buf + x->sb->len;
	return ret;
}

/* isprint() || isspace() of libtraceevent's is_printable_array(), for ASCII */
static bool raw_printable(const unsigned char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if ((s[i] < ' ' || s[i] > '~') && (s[i] < '\t' || s[i] > '\r'))
			return false;
	return true;
}

/*
 * -R's array field (see report_cfmt_raw.c). -ERANGE sends the record back to libtraceevent:
 * bytes past 0x7f, whose class depends on the locale, and text or bytes past the record.
 */
static int run_raw_array(const struct cfmt_ev_ctx *x, const struct cfmt_op *op, char **o)
{
	static const char hex[] = "0123456789abcdef";
	struct tep_format_field *f = op->field;
	unsigned int off = op->offset, len = op->size, i;
	const unsigned char *p;
	size_t n, checked;
	char *w;

	if (f->flags & TEP_FIELD_IS_DYNAMIC)
		dyn_loc(f, x->data, x->size, &off, &len);
	if (off > x->size)
		return -ERANGE;
	p = x->data + off;
	x->sb->len = (size_t)(*o - x->sb->buf);
	if (f->flags & TEP_FIELD_IS_STRING) {
		/* libtraceevent checks up to the array's end or first NUL, prints up to the NUL */
		n = strnlen((const char *)p, x->size - off);
		checked = n < len ? n : len;
		for (i = 0; i < checked; i++)
			if (p[i] > 0x7f)
				return -ERANGE;
		if (raw_printable(p, checked)) {
			if (n == x->size - off)
				return -ERANGE;
			if (put_str(x->sb, op, (const char *)p, n, x->room))
				return -ENOMEM;
			*o = x->sb->buf + x->sb->len;
			return 0;
		}
	}
	if (len > x->size - off)
		return -ERANGE;
	if (strbuf_grow(x->sb, 8 + 4 * (size_t)len + x->room))
		return -ENOMEM;
	w = x->sb->buf + x->sb->len;
	memcpy(w, "ARRAY[", 6);
	w += 6;
	for (i = 0; i < len; i++) {
		if (i) {
			*w++ = ',';
			*w++ = ' ';
		}
		*w++ = hex[p[i] >> 4];
		*w++ = hex[p[i] & 15];
	}
	*w++ = ']';
	*o = w;
	/* libtraceevent prints this field as an array from now on: so must we */
	f->flags &= ~TEP_FIELD_IS_STRING;
	return 0;
}

/* "0x%llx" */
static char *put_hex(char *o, unsigned long long v)
{
	*o++ = '0';
	*o++ = 'x';
	o += report_num_len(v, 16);
	report_num_put(o, v, 16, false);
	return o;
}

/* glibc's %p */
static char *put_ptr(char *o, unsigned long long v)
{
	if (v)
		return put_hex(o, v);
	memcpy(o, "(nil)", 5);
	return o + 5;
}

/* %ps and %pS as libtraceevent prints them: "name", "name+0xoff", or "0x..." when unknown */
static int run_func(const struct cfmt_ev_ctx *x, const struct cfmt_op *op, char **o)
{
	unsigned long long v = load(x->data + op->offset, op->size) & op->mask, start;
	const char *name;
	size_t len;
	char *w;

	x->sb->len = (size_t)(*o - x->sb->buf);
	if (!tep_find_function_info(x->tep, v, &name, &start, NULL)) {
		name = NULL;
		len = 0;
	} else {
		len = strlen(name);
	}
	if (strbuf_grow(x->sb, len + 56 + x->room))
		return -ENOMEM;
	w = x->sb->buf + x->sb->len;
	if (name) {
		memcpy(w, name, len);
		w += len;
		if (op->conv == 'S') {
			*w++ = '+';
			w = put_hex(w, v - start);
		}
	}
	if (op->flags & CFMT_ADDR) {
		/* libtraceevent 1.8's raw print: the address after the name, or alone */
		memcpy(w, " (", 2);
		w = put_hex(w + 2, v);
		*w++ = ')';
	} else if (!name) {
		w = put_hex(w, v);
	}
	*o = w;
	return 0;
}

/* The operations whose output has no bound known in advance */
static int run_var(const struct cfmt_ev_ctx *x, const struct cfmt_op *op, char **o)
{
	switch (op->kind) {
	case CFMT_FUNC:
		return run_func(x, op, o);
	case CFMT_RAW_ARRAY:
		return run_raw_array(x, op, o);
	default:
		return run_str(x, op, o);
	}
}

bool cfmt_run(const struct cfmt_event *ce, struct strbuf *sb, const void *data, int size)
{
	struct cfmt_ev_ctx x = { ce->tep, sb, data, (unsigned int)size, ce->room };
	size_t start = sb->len;
	const struct cfmt_op *op;
	unsigned int n;
	char *o;
	int i;

	if (size < 0 || (unsigned int)size < ce->need || strbuf_grow(sb, ce->room))
		return false;
	o = sb->buf + sb->len;
	for (i = 0; i < ce->nr_ops; i++) {
		op = &ce->ops[i];
		switch (op->kind) {
		case CFMT_TEXT:
			/* mostly ", " and the like: a call to memcpy costs more */
			for (n = 0; n < op->len; n++)
				*o++ = op->text[n];
			break;
		case CFMT_INT:
			o = put_num(o, op, load(x.data + op->offset, op->size));
			break;
		case CFMT_PTR:
			o = put_ptr(o, load(x.data + op->offset, op->size) & op->mask);
			break;
		default:
			if (run_var(&x, op, &o)) {
				sb->len = start;
				sb->buf[start] = '\0';
				return false;
			}
		}
	}
	sb->len = (size_t)(o - sb->buf);
	*o = '\0';
	return true;
}

/* ------------------------------------------------------------------ the table */

/* size 0 (use libtraceevent) unless native and a plain 1, 2 or 4-byte number */
static void common_field(struct report_cfmt *rc, const char *name, unsigned int *offset,
			 unsigned int *size)
{
	struct tep_event *event = tep_get_first_event(rc->tep);
	struct tep_format_field *f = event ? tep_find_common_field(event, name) : NULL;

	*size = 0;
	if (!rc->native || !f || (f->size != 1 && f->size != 2 && f->size != 4))
		return;
	*offset = (unsigned int)f->offset;
	*size = (unsigned int)f->size;
}

int report_cfmt_new(struct tep_handle *tep, struct report_cfmt **out)
{
	struct report_cfmt *rc = calloc(1, sizeof(*rc));

	if (!rc)
		return -ENOMEM;
	rc->tep = tep;
	rc->native = tep_is_file_bigendian(tep) == tep_is_local_bigendian(tep);
	rc->long_size = tep_get_long_size(tep);
	common_field(rc, "common_type", &rc->type_offset, &rc->type_size);
	common_field(rc, "common_pid", &rc->pid_offset, &rc->pid_size);
	*out = rc;
	return 0;
}

void report_cfmt_set_func_addr(struct report_cfmt *rc)
{
	rc->func_addr = true;
}

void report_cfmt_free(struct report_cfmt *rc)
{
	int i;

	if (!rc)
		return;
	for (i = 0; i < rc->nr_slots; i++) {
		cfmt_event_free(rc->slots[i].ce);
		cfmt_event_free(rc->slots[i].raw);
	}
	free(rc->slots);
	free(rc);
}

static struct cfmt_slot *slot(struct report_cfmt *rc, int id)
{
	struct cfmt_slot *slots;
	int nr;

	if (id < 0 || id > 0xffff)
		return NULL;
	if (id >= rc->nr_slots) {
		nr = id + 64 > 0x10000 ? 0x10000 : id + 64;
		slots = realloc(rc->slots, (size_t)nr * sizeof(*slots));
		if (!slots)
			return NULL;
		memset(slots + rc->nr_slots, 0, (size_t)(nr - rc->nr_slots) * sizeof(*slots));
		rc->slots = slots;
		rc->nr_slots = nr;
	}
	return &rc->slots[id];
}

int report_cfmt_type(const struct report_cfmt *rc, const struct tep_record *r)
{
	if (!rc->type_size)
		return tep_data_type(rc->tep, (struct tep_record *)r);
	return (int)load((const unsigned char *)r->data + rc->type_offset, rc->type_size);
}

int report_cfmt_pid(const struct report_cfmt *rc, const struct tep_record *r)
{
	if (!rc->pid_size)
		return tep_data_pid(rc->tep, (struct tep_record *)r);
	/* tep_read_number() gives the unsigned number, then it becomes an int */
	return (int)load((const unsigned char *)r->data + rc->pid_offset, rc->pid_size);
}

/*
 * Where the event's flexible array ("char buf[]", size 0) starts, or 0: libtraceevent takes the
 * record's size minus that offset as the array's length. Fixed arrays are not counted: the
 * kernel writes kernel_stack's "caller[8]" only as deep as the stack goes.
 */
static unsigned int flex_start(const struct tep_event *event)
{
	const struct tep_format_field *f;
	unsigned int start = 0;

	for (f = event->format.fields; f; f = f->next)
		if (f->size == 0 && f->offset > 0 && (unsigned int)f->offset > start)
			start = (unsigned int)f->offset;
	return start;
}

struct tep_event *report_cfmt_event(struct report_cfmt *rc, struct tep_record *r,
				    unsigned int *flex)
{
	struct cfmt_slot *s = slot(rc, report_cfmt_type(rc, r));

	if (!s) {
		struct tep_event *event = tep_find_event_by_record(rc->tep, r);

		*flex = event ? flex_start(event) : 0;
		return event;
	}
	if (!(s->state & SLOT_EVENT)) {
		s->event = tep_find_event_by_record(rc->tep, r);
		s->flex_start = s->event ? flex_start(s->event) : 0;
		s->state |= SLOT_EVENT;
	}
	*flex = s->flex_start;
	return s->event;
}

bool report_cfmt_print(struct report_cfmt *rc, struct strbuf *sb, struct tep_record *r,
		       struct tep_event *event, bool raw)
{
	struct cfmt_event **ce;
	struct cfmt_slot *s;
	int tried;

	if (!rc->native)
		return false;
	s = slot(rc, event->id);
	if (!s)
		return false;
	ce = raw ? &s->raw : &s->ce;
	tried = raw ? SLOT_RAW_TRIED : SLOT_TRIED;
	if (!(s->state & tried)) {
		/* -ENOTSUP or -ENOMEM alike: libtraceevent prints this event */
		if (raw)
			cfmt_compile_raw(event, rc->long_size, rc->func_addr, ce);
		else
			cfmt_compile(event, rc->long_size, ce);
		s->state |= tried;
	}
	return *ce && cfmt_run(*ce, sb, r->data, r->size);
}
