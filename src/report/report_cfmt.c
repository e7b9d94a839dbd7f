// SPDX-License-Identifier: GPL-2.0-only
/*
 * Compiled print formats: an event's print_fmt ("NR %ld (%lx, ...)", REC->id, REC->args[0] ...)
 * turned once into a list of operations, so that printing an event is a walk over that list
 * instead of libtraceevent's per-event evaluation of the argument tree and one vsnprintf per
 * conversion.
 *
 * Only what can be printed exactly as libtraceevent 1.7 prints it is compiled; the rest makes
 * cfmt_compile() return -ENOTSUP and the event keeps going through tep_print_event():
 *  - text: its escapes (\n \t \r \\, any other "\c" is c) and "%%";
 *  - %d %i %u %x %X with the flags '-', '0' ('#' for x/X), a width, and the lengths hh h l
 *    ll L z, of REC->field or REC->array[N], under any casts. libtraceevent reads the field as an
 *    unsigned number of the field's size, masks it for some cast types (u8..u32, s8..s32,
 *    [unsigned] char/short/int: the mask only, no sign extension), then passes it to printf
 *    cast to the conversion's length: so (unsigned long)REC->dfd of int -100 prints 0xffffff9c;
 *  - %s (with '-' and a width) of __get_str(field) and of a char array field.
 * No precision, no '*', no %p, %c or helpers (__print_symbolic ...), no atoms, no bprint.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "ktrace/strbuf.h"
#include "report_cfmt.h"

struct cfmt_op *cfmt_add_op(struct cfmt_compiler *c, enum cfmt_kind kind)
{
	struct cfmt_op *ops;

	if (c->nr_ops == c->alloc_ops) {
		c->alloc_ops = c->alloc_ops ? 2 * c->alloc_ops : 8;
		ops = realloc(c->ops, (size_t)c->alloc_ops * sizeof(*ops));
		if (!ops)
			return NULL;
		c->ops = ops;
	}
	ops = &c->ops[c->nr_ops++];
	memset(ops, 0, sizeof(*ops));
	ops->kind = kind;
	ops->mask = ~0ULL;
	return ops;
}

void cfmt_need_bytes(struct cfmt_compiler *c, unsigned int end)
{
	if (end > c->need)
		c->need = end;
}

/* The text added to c->text since `start` becomes an op, or grows the text op before it. */
static int text_op(struct cfmt_compiler *c, size_t start)
{
	struct cfmt_op *op = c->nr_ops ? &c->ops[c->nr_ops - 1] : NULL;

	if (c->text.len == start)
		return 0;
	if (op && op->kind == CFMT_TEXT && op->offset + op->len == start) {
		op->len = (unsigned int)(c->text.len - op->offset);
		return 0;
	}
	op = cfmt_add_op(c, CFMT_TEXT);
	if (!op)
		return -ENOMEM;
	/* an offset until the text stops moving: cfmt_finish() makes it a pointer */
	op->offset = (unsigned int)start;
	op->len = (unsigned int)(c->text.len - start);
	return 0;
}

int cfmt_add_text(struct cfmt_compiler *c, const char *s, size_t len)
{
	size_t start = c->text.len;

	if (strbuf_add(&c->text, s, len))
		return -ENOMEM;
	return text_op(c, start);
}

static char unescape(char ch)
{
	switch (ch) {
	case 'n': return '\n';
	case 't': return '\t';
	case 'r': return '\r';
	default: return ch;
	}
}

/* Literal text up to the next conversion; returns where it stopped, NULL on error. */
static const char *compile_text(struct cfmt_compiler *c, const char *f, int *ret)
{
	size_t start = c->text.len;
	char ch;

	for (; *f; f++) {
		if (*f == '\\') {
			if (!*++f) {
				*ret = -ENOTSUP;
				return NULL;
			}
			ch = unescape(*f);
		} else if (*f == '%') {
			if (f[1] != '%')
				break;
			ch = *++f;
		} else {
			ch = *f;
		}
		if (strbuf_addch(&c->text, ch)) {
			*ret = -ENOMEM;
			return NULL;
		}
	}
	*ret = text_op(c, start);
	return *ret ? NULL : f;
}

/* What libtraceevent keeps of a value cast to `type` (eval_type_str's masks). */
static unsigned long long cast_mask(const char *type)
{
	size_t len = strlen(type);

	if (len < 2 || type[len - 1] == '*' || !strncmp(type, "struct", 6))
		return ~0ULL;
	if (!strcmp(type, "u8") || !strcmp(type, "s8"))
		return 0xff;
	if (!strcmp(type, "u16") || !strcmp(type, "s16"))
		return 0xffff;
	if (!strcmp(type, "u32") || !strcmp(type, "s32"))
		return 0xffffffff;
	if (!strncmp(type, "unsigned ", 9))
		type += 9;
	if (!strcmp(type, "char"))
		return 0xff;
	if (!strcmp(type, "short"))
		return 0xffff;
	if (!strcmp(type, "int"))
		return 0xffffffff;
	return ~0ULL;
}

static struct tep_format_field *arg_field(const struct cfmt_compiler *c, struct tep_print_arg *arg)
{
	if (arg->field.field)
		return arg->field.field;
	return tep_find_any_field((struct tep_event *)c->event, arg->field.name);
}

/* REC->array[N]: N must be a plain number (libtraceevent looks other atoms up as symbols) */
static int compile_index(struct cfmt_compiler *c, struct tep_print_arg *arg, struct cfmt_op *op)
{
	struct tep_print_arg *left = arg->op.left, *right = arg->op.right;
	struct tep_format_field *field;
	unsigned long long idx;
	char *end;

	if (strcmp(arg->op.op, "[") || left->type != TEP_PRINT_FIELD ||
	    right->type != TEP_PRINT_ATOM)
		return -ENOTSUP;
	field = arg_field(c, left);
	if (!field || !isdigit((unsigned char)right->atom.atom[0]))
		return -ENOTSUP;
	idx = strtoull(right->atom.atom, &end, 0);
	if (*end || idx > 4096)
		return -ENOTSUP;
	op->offset = field->offset + (unsigned int)idx * field->elementsize;
	op->size = field->elementsize;
	return 0;
}

int cfmt_compile_num(struct cfmt_compiler *c, struct tep_print_arg *arg, struct cfmt_op *op)
{
	struct tep_format_field *field;
	int ret;

	op->kind = CFMT_INT;
	for (; arg->type == TEP_PRINT_TYPE; arg = arg->typecast.item)
		op->mask &= cast_mask(arg->typecast.type);
	if (arg->type == TEP_PRINT_FIELD) {
		field = arg_field(c, arg);
		if (!field)
			return -ENOTSUP;
		op->offset = field->offset;
		op->size = field->size;
	} else if (arg->type == TEP_PRINT_OP) {
		ret = compile_index(c, arg, op);
		if (ret)
			return ret;
	} else {
		return -ENOTSUP;
	}
	if (op->size != 1 && op->size != 2 && op->size != 4 && op->size != 8)
		return -ENOTSUP;
	cfmt_need_bytes(c, op->offset + op->size);
	return 0;
}

static int compile_str(struct cfmt_compiler *c, struct tep_print_arg *arg, struct cfmt_op *op)
{
	struct tep_format_field *field;

	if (op->ls || (op->flags & ~CFMT_LEFT))
		return -ENOTSUP;
	if (arg->type == TEP_PRINT_STRING) {
		field = arg->string.field;
		if (!field)
			field = tep_find_any_field((struct tep_event *)c->event, arg->string.string);
		if (!field || (field->size != 2 && field->size != 4))
			return -ENOTSUP;
		op->kind = CFMT_STR_DYN;
		op->field = field;
		return 0;
	}
	if (arg->type != TEP_PRINT_FIELD)
		return -ENOTSUP;
	field = arg_field(c, arg);
	/* a long-sized non-array field is printed as a pointer to a printk string */
	if (!field || !field->size ||
	    (!(field->flags & TEP_FIELD_IS_ARRAY) && field->size == c->long_size))
		return -ENOTSUP;
	op->kind = CFMT_STR_FIXED;
	op->offset = field->offset;
	op->size = field->size;
	cfmt_need_bytes(c, op->offset + op->size);
	return 0;
}

/*
 * "hh" "h" "l" "ll" "L" "z", as libtraceevent counts them (h: -1, l: +1, L: 2, z: 1); glibc
 * takes "L" before an integer conversion as "ll".
 */
static const char *parse_length(const char *f, signed char *ls)
{
	if (f[0] == 'h' && f[1] == 'h') {
		*ls = -2;
		return f + 2;
	}
	if ((f[0] == 'l' && f[1] == 'l') || f[0] == 'L') {
		*ls = 2;
		return f + (f[0] == 'L' ? 1 : 2);
	}
	if (*f == 'h' || *f == 'l' || *f == 'z') {
		*ls = *f == 'h' ? -1 : 1;
		return f + 1;
	}
	*ls = 0;
	return f;
}

/* One conversion ("%-08lx") of arg; returns the character after it, NULL with *ret set. */
static const char *compile_conv(struct cfmt_compiler *c, const char *f, struct tep_print_arg *arg,
				int *ret)
{
	struct cfmt_op *op = cfmt_add_op(c, CFMT_INT);

	*ret = -ENOMEM;
	if (!op)
		return NULL;
	*ret = -ENOTSUP;
	for (f++; *f == '-' || *f == '0' || *f == '#'; f++)
		op->flags |= *f == '-' ? CFMT_LEFT : *f == '0' ? CFMT_ZERO : CFMT_ALT;
	for (; isdigit((unsigned char)*f); f++) {
		op->width = op->width * 10 + (*f - '0');
		if (op->width > 256)
			return NULL;
	}
	f = parse_length(f, &op->ls);
	op->conv = *f;
	switch (*f) {
	case 'd': case 'i': case 'u':
		if (op->flags & CFMT_ALT)
			return NULL;
		/* fall through */
	case 'x': case 'X':
		*ret = cfmt_compile_num(c, arg, op);
		break;
	case 's':
		*ret = compile_str(c, arg, op);
		break;
	default:
		return NULL;
	}
	return *ret ? NULL : f + 1;
}

int cfmt_compile_conv(struct cfmt_compiler *c, const char *f, struct tep_print_arg *arg)
{
	int ret;

	return compile_conv(c, f, arg, &ret) ? 0 : ret;
}

static int compile(struct cfmt_compiler *c)
{
	const char *f = c->event->print_fmt.format;
	struct tep_print_arg *arg = c->event->print_fmt.args;
	int ret = 0;

	if (!f || (c->event->flags & (TEP_EVENT_FL_FAILED | TEP_EVENT_FL_ISBPRINT)))
		return -ENOTSUP;
	while (*f) {
		if (*f == '%') {
			if (!arg)
				return -ENOTSUP;
			f = compile_conv(c, f, arg, &ret);
			arg = arg->next;
		} else {
			f = compile_text(c, f, &ret);
		}
		if (!f)
			return ret;
	}
	return 0;
}

void cfmt_event_free(struct cfmt_event *ce)
{
	if (!ce)
		return;
	free(ce->ops);
	free(ce->text);
	free(ce);
}

void cfmt_compiler_release(struct cfmt_compiler *c)
{
	free(c->ops);
	c->ops = NULL;
	c->nr_ops = c->alloc_ops = 0;
	strbuf_release(&c->text);
}

int cfmt_finish(struct cfmt_compiler *c, struct cfmt_event **out)
{
	struct cfmt_event *ce = calloc(1, sizeof(*ce));
	const struct cfmt_op *op;
	int i;

	if (!ce) {
		cfmt_compiler_release(c);
		return -ENOMEM;
	}
	ce->ops = c->ops;
	ce->nr_ops = c->nr_ops;
	ce->need = c->need;
	ce->tep = c->event->tep;
	ce->room = 1;
	for (i = 0; i < ce->nr_ops; i++) {
		op = &ce->ops[i];
		ce->room += op->kind == CFMT_TEXT ? op->len :
			    op->kind == CFMT_INT ? (size_t)op->width + 24 :
			    op->kind == CFMT_PTR ? 24 : 0;
	}
	ce->text = strbuf_detach(&c->text, NULL);
	for (i = 0; i < ce->nr_ops; i++)
		if (ce->ops[i].kind == CFMT_TEXT)
			ce->ops[i].text = ce->text + ce->ops[i].offset;
	c->ops = NULL;
	c->nr_ops = c->alloc_ops = 0;
	*out = ce;
	return 0;
}

int cfmt_compile(const struct tep_event *event, int long_size, struct cfmt_event **out)
{
	struct cfmt_compiler c = { .event = event, .long_size = long_size, .text = STRBUF_INIT };
	int ret = compile(&c);

	if (ret) {
		cfmt_compiler_release(&c);
		return ret;
	}
	return cfmt_finish(&c, out);
}
