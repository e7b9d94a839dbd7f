// SPDX-License-Identifier: GPL-2.0-only
/*
 * -R (and -r EVENT) compiled: the " name=value" list that libtraceevent 1.7's
 * tep_print_fields() prints, as operations for report_cfmt_run.c, so that each record is a walk
 * over them instead of one trace_seq_printf() per field and a search of the print format.
 *
 * What tep_print_fields() does, field by field (the event's common fields are not printed):
 *  - a number field that the print format prints directly (REC->field under casts, found by
 *    a circular search of the format's pieces from just after the last field found, nothing
 *    more once the last piece was used) is printed by that conversion, after "0x" when the
 *    text just before it ends in "0x" and the search did not start at the conversion;
 *  - any other number: pointers "0x%llx"; signed 4 bytes "%d" ("0x%x" when long), 2 "%2d",
 *    1 "%1d" of (char), which is unsigned on arm and s390x, 8 "%lld"; unsigned "%llu"
 *    ("0x%llx" when long);
 *  - an array (fixed, __data_loc or __rel_loc): a char/u8/s8 array whose bytes up to its end
 *    or first NUL are printable ASCII or blanks is printed with %s (up to the NUL, which may
 *    lie past the array's end); any other as "ARRAY[xx, xx]", after which libtraceevent
 *    treats that field as no string any more, for the rest of the run: run_raw_array() does
 *    the same to the same field, so both paths stay in step.
 * So the operations depend on the format alone and are compiled once per event. A field
 * printed by a conversion other than %p, %ps, %pS, %pf, %pF or the %d %i %u %x %X that
 * report_cfmt.c compiles (%s, '*', precision...) leaves the event to libtraceevent (-ENOTSUP),
 * and so do field sizes libtraceevent reads as 0.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "report_cfmt.h"

/* One piece of libtraceevent's parsed print format (its print_cache): text, or a conversion */
struct piece {
	struct tep_print_arg *arg;	/* NULL: text */
	const char *conv;		/* the conversion, at its '%' */
	char letter;			/* d i u x X o, p or s */
	char ptr_kind;			/* %p's kind: 'S' of "%pS", or what follows a plain %p */
	bool star;			/* a '*' took an argument */
	bool ends_0x;			/* text ending in "0x" */
};

struct pieces {
	struct piece *p;
	int nr, alloc;
	struct tep_print_arg *arg;	/* the next argument a conversion takes */
};

static struct piece *add_piece(struct pieces *ps)
{
	struct piece *p;

	if (ps->nr == ps->alloc) {
		ps->alloc = ps->alloc ? 2 * ps->alloc : 16;
		p = realloc(ps->p, (size_t)ps->alloc * sizeof(*p));
		if (!p)
			return NULL;
		ps->p = p;
	}
	p = &ps->p[ps->nr++];
	memset(p, 0, sizeof(*p));
	return p;
}

/* How many characters after "%p" libtraceevent takes as the pointer's kind ("S", "I4h") */
static int pointer_kind_len(const char *f)
{
	int n = 0;

	switch (f[0]) {
	case 'F': case 'S': case 'f': case 's':
		return 1;
	case 'M': case 'm':
		return 1 + (f[1] == 'R' || f[1] == 'F');
	case 'U':
		return 1 + (f[1] && strchr("LlBb", f[1]));
	case 'h':
		return 1 + (f[1] && strchr("CDN", f[1]));
	case 'I': case 'i':
		break;
	default:
		return 0;
	}
	if (f[1] == '4')
		return 2 + (f[2] && strchr("hnbl", f[2]));
	if (f[1] == '6')
		return 2 + (f[2] == 'c');
	if (f[1] != 'S')
		return 1;
	while (f[2 + n] && strchr("pfs", f[2 + n]))
		n++;
	if (f[2 + n] && strchr("hnbl", f[2 + n]))
		n++;
	return 2 + n + (f[2 + n] == 'c');
}

/* A conversion at f; returns the characters it takes, or -errno. */
static int scan_conv(struct pieces *ps, const char *f)
{
	struct tep_print_arg *len_arg = NULL;
	struct piece *p;
	const char *c;

	for (c = f + 1; *c; c++) {
		if (strchr("#hlLzZ.-0123456789", *c))
			continue;
		if (*c == '*') {
			if (!ps->arg || len_arg)
				return -ENOTSUP;
			len_arg = ps->arg;
			ps->arg = ps->arg->next;
			continue;
		}
		p = add_piece(ps);
		if (!p)
			return -ENOMEM;
		if (*c != 'p' && *c != 's' && !strchr("duixXo", *c))
			return (int)(c + 1 - f);	/* libtraceevent's ">c<" text */
		if (!ps->arg)
			return -ENOTSUP;
		p->arg = ps->arg;
		p->conv = f;
		p->letter = *c;
		p->star = len_arg;
		ps->arg = ps->arg->next;
		if (*c == 'p') {
			p->ptr_kind = c[1];
			c += pointer_kind_len(c + 1);
		}
		return (int)(c + 1 - f);
	}
	return (int)(c - f);	/* no conversion: no piece */
}

/* Text up to the next conversion, escapes and "%%" resolved; returns the characters taken. */
static int scan_text(struct pieces *ps, const char *f)
{
	char last[2] = "";
	struct piece *p;
	const char *c;

	for (c = f; *c; c++) {
		if (*c == '%' && c[1] != '%')
			break;
		if (*c == '\\' && !c[1])
			return -ENOTSUP;	/* libtraceevent reads past the format */
		if (*c == '\\' || *c == '%')
			c++;
		last[0] = last[1];
		/* "\n" and the like are never 'x' or '0': only the last two characters matter */
		last[1] = *c;
	}
	p = add_piece(ps);
	if (!p)
		return -ENOMEM;
	p->ends_0x = last[0] == '0' && last[1] == 'x';
	return (int)(c - f);
}

/* The event's print format as libtraceevent splits it; -ENOTSUP for a bprint or failed one */
static int scan_format(const struct tep_event *event, struct pieces *ps)
{
	const char *f = event->print_fmt.format;
	int n;

	if (event->flags & (TEP_EVENT_FL_FAILED | TEP_EVENT_FL_ISBPRINT) || !f)
		return 0;	/* no print cache: every field is printed raw */
	ps->arg = event->print_fmt.args;
	while (*f) {
		n = *f == '%' && f[1] != '%' ? scan_conv(ps, f) : scan_text(ps, f);
		if (n < 0)
			return n;
		f += n;
	}
	return 0;
}

static const struct tep_format_field *piece_field(const struct piece *p)
{
	const struct tep_print_arg *arg = p->arg;

	while (arg && arg->type == TEP_PRINT_TYPE)
		arg = arg->typecast.item;
	return arg && arg->type == TEP_PRINT_FIELD ? arg->field.field : NULL;
}

/* The piece that prints field, searched from `start` round the list; -1 when none does */
static int find_piece(const struct pieces *ps, int start, const struct tep_format_field *field,
		      bool *has_0x)
{
	int i = start;

	*has_0x = false;
	do {
		if (!ps->p[i].arg)
			*has_0x = ps->p[i].ends_0x;
		else if (piece_field(&ps->p[i]) == field)
			return i;
		else
			*has_0x = false;
		i = i + 1 < ps->nr ? i + 1 : 0;
	} while (i != start);
	return -1;
}

/* tep_read_number() reads these sizes; it gives 0 for any other */
static bool number_size(int size)
{
	return size == 1 || size == 2 || size == 4 || size == 8;
}

/* A number field the format does not print: libtraceevent's own conversion for its kind */
static int compile_raw_number(struct cfmt_compiler *c, struct tep_format_field *field)
{
	unsigned long flags = field->flags;
	bool hex = flags & (TEP_FIELD_IS_POINTER | TEP_FIELD_IS_LONG);
	struct cfmt_op *op;

	if (!number_size(field->size))
		return -ENOTSUP;
	if (flags & TEP_FIELD_IS_SIGNED && !(flags & TEP_FIELD_IS_POINTER))
		hex = field->size == 4 && (flags & TEP_FIELD_IS_LONG);
	if (hex && cfmt_add_text(c, "0x", 2))
		return -ENOMEM;
	op = cfmt_add_op(c, CFMT_INT);
	if (!op)
		return -ENOMEM;
	op->offset = (unsigned int)field->offset;
	op->size = (unsigned int)field->size;
	cfmt_need_bytes(c, op->offset + op->size);
	op->conv = hex ? 'x' : 'u';
	op->ls = 2;
	if (!(flags & TEP_FIELD_IS_SIGNED) || (flags & TEP_FIELD_IS_POINTER))
		return 0;
	/*
	 * "%1d" of (char): plain char, unsigned where the host's is (arm, s390x), so that
	 * libtraceevent prints 0..255 there.
	 */
	if (field->size == 1 && CHAR_MIN == 0) {
		op->ls = -2;
		return 0;
	}
	/* "%d" of (int), "%2d" of (short), "%1d" of (char), "%lld"; "0x%x" of (int) */
	op->conv = hex ? 'x' : 'd';
	op->ls = field->size == 8 ? 2 : field->size == 4 ? 0 : field->size == 2 ? -1 : -2;
	op->width = field->size == 2 ? 2 : field->size == 1 ? 1 : 0;
	return 0;
}

static int compile_raw(struct cfmt_compiler *c, struct tep_format_field *field)
{
	struct cfmt_op *op;

	if (!(field->flags & TEP_FIELD_IS_ARRAY))
		return compile_raw_number(c, field);
	op = cfmt_add_op(c, CFMT_RAW_ARRAY);
	if (!op)
		return -ENOMEM;
	op->field = field;
	op->offset = (unsigned int)field->offset;
	op->size = (unsigned int)field->size;
	if ((field->flags & TEP_FIELD_IS_DYNAMIC) && field->size != 2 && field->size != 4)
		return -ENOTSUP;
	cfmt_need_bytes(c, op->offset + op->size);
	return 0;
}

/*
 * A field printed by a %p piece: plain, or a symbol (%ps %pS %pf %pF); libtraceevent ignores
 * the conversion's flags and width. MAC, IP, UUID and buffer kinds go to libtraceevent.
 */
static int compile_pointer(struct cfmt_compiler *c, const struct piece *p)
{
	char kind = p->ptr_kind;
	bool func = kind && strchr("FfSs", kind);
	struct cfmt_op *op;
	int ret;

	if (!func && kind && strchr("MmIiUh", kind))
		return -ENOTSUP;
	op = cfmt_add_op(c, CFMT_INT);
	if (!op)
		return -ENOMEM;
	ret = cfmt_compile_num(c, p->arg, op);
	op->kind = func ? CFMT_FUNC : CFMT_PTR;
	op->conv = kind == 'S' || kind == 'F' ? 'S' : 's';
	if (func && c->func_addr)
		op->flags |= CFMT_ADDR;
	return ret;
}

/* A field printed by the format's own piece p */
static int compile_piece(struct cfmt_compiler *c, const struct piece *p)
{
	int ret;

	if (p->star)
		return -ENOTSUP;
	if (p->letter == 'p')
		return compile_pointer(c, p);
	if (!strchr("duixX", p->letter))
		return -ENOTSUP;
	ret = cfmt_compile_conv(c, p->conv, p->arg);
	if (!ret && c->ops[c->nr_ops - 1].kind != CFMT_INT)
		ret = -ENOTSUP;
	return ret;
}

static int compile_field(struct cfmt_compiler *c, const struct pieces *ps, int *next,
			 struct tep_format_field *field)
{
	bool has_0x;
	int i, ret;

	ret = cfmt_add_text(c, " ", 1);
	if (!ret)
		ret = cfmt_add_text(c, field->name, strlen(field->name));
	if (!ret)
		ret = cfmt_add_text(c, "=", 1);
	if (ret)
		return ret;
	i = -1;
	if (*next >= 0 && !(field->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_STRING)))
		i = find_piece(ps, *next, field, &has_0x);
	if (i < 0)
		return compile_raw(c, field);
	*next = i + 1 < ps->nr ? i + 1 : -1;
	if (has_0x && cfmt_add_text(c, "0x", 2))
		return -ENOMEM;
	return compile_piece(c, &ps->p[i]);
}

int cfmt_compile_raw(struct tep_event *event, int long_size, bool func_addr,
		     struct cfmt_event **out)
{
	struct cfmt_compiler c = { .event = event, .long_size = long_size, .func_addr = func_addr,
				   .text = STRBUF_INIT };
	struct pieces ps = { 0 };
	struct tep_format_field *field;
	int next, ret;

	ret = scan_format(event, &ps);
	next = ps.nr ? 0 : -1;
	for (field = event->format.fields; field && !ret; field = field->next)
		ret = compile_field(&c, &ps, &next, field);
	free(ps.p);
	if (ret) {
		cfmt_compiler_release(&c);
		return ret;
	}
	return cfmt_finish(&c, out);
}
