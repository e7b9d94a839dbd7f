// SPDX-License-Identifier: GPL-2.0-only
/*
 * The fields of each event as typed values, for --format json and csv. What the format file
 * says of a field (type text, size, "signed:", array brackets, __data_loc) is turned once per
 * event into a kind and an element size, so that reading a record is a few loads per field.
 *
 * The kernel's encodings read here: a __data_loc field is a 32-bit word, offset in the low 16
 * bits and length in the high 16, the offset counted from the record's start (__rel_loc: from
 * the end of the word itself); very old kernels had a 16-bit offset and no length.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "ktrace/report.h"
#include "report_print.h"
#include "report_rows.h"

struct report_layouts {
	struct tep_handle *tep;
	struct report_event_layout **by_id;	/* indexed by event id, built on first use */
	size_t nr_ids;
};

int report_layouts_new(struct tep_handle *tep, struct report_layouts **out)
{
	struct report_layouts *l = calloc(1, sizeof(*l));

	if (!l)
		return -ENOMEM;
	l->tep = tep;
	*out = l;
	return 0;
}

static unsigned int power_of_two_or_1(unsigned int n)
{
	return (n == 1 || n == 2 || n == 4 || n == 8) ? n : 1;
}

/* A __data_loc array's element size, from its type text ("__data_loc unsigned long[]"). */
static unsigned int dynamic_elem_size(const char *type, int long_size)
{
	if (strchr(type, '*'))
		return (unsigned int)long_size;
	if (strstr(type, "64") || strstr(type, "long long"))
		return 8;
	if (strstr(type, "long"))
		return (unsigned int)long_size;
	if (strstr(type, "32") || strstr(type, "int"))
		return 4;
	if (strstr(type, "16") || strstr(type, "short"))
		return 2;
	return 1;
}

static void classify(struct report_field *rf, struct tep_format_field *f, int long_size)
{
	bool sign = f->flags & TEP_FIELD_IS_SIGNED;

	rf->f = f;
	rf->name = f->name;
	rf->dynamic = f->flags & TEP_FIELD_IS_DYNAMIC;
	rf->sign = sign;
	if (rf->dynamic || (f->flags & TEP_FIELD_IS_ARRAY)) {
		if (strstr(f->type, "char")) {
			rf->kind = REPORT_FIELD_STR;
			return;
		}
		rf->kind = REPORT_FIELD_ARRAY;
		rf->elem = rf->dynamic ? dynamic_elem_size(f->type, long_size) :
			   power_of_two_or_1((unsigned int)f->elementsize);
		return;
	}
	if (power_of_two_or_1((unsigned int)f->size) != (unsigned int)f->size || f->size == 0) {
		/* a struct or odd-sized field: its bytes */
		rf->kind = REPORT_FIELD_ARRAY;
		rf->elem = 1;
		rf->sign = false;
		return;
	}
	rf->kind = sign ? REPORT_FIELD_INT : REPORT_FIELD_UINT;
}

static int classify_all(struct tep_format_field *list, int nr, int long_size, bool common,
			struct report_field **out, int *nr_out)
{
	struct report_field *fields = calloc(nr ? (size_t)nr : 1, sizeof(*fields));
	struct tep_format_field *f;
	int n = 0;

	if (!fields)
		return -ENOMEM;
	for (f = list; f && n < nr; f = f->next) {
		if (common && (!strcmp(f->name, "common_type") || !strcmp(f->name, "common_pid")))
			continue;
		classify(&fields[n], f, long_size);
		if (common && !strncmp(f->name, "common_", 7))
			fields[n].name = f->name + 7;
		n++;
	}
	*out = fields;
	*nr_out = n;
	return 0;
}

static struct report_event_layout *layout_build(struct tep_handle *tep, struct tep_event *ev)
{
	struct report_event_layout *el = calloc(1, sizeof(*el));
	int long_size = tep_get_long_size(tep);

	if (!el)
		return NULL;
	el->event = ev;
	if (classify_all(ev->format.fields, ev->format.nr_fields, long_size, false, &el->fields,
			 &el->nr_fields) ||
	    classify_all(ev->format.common_fields, ev->format.nr_common, long_size, true,
			 &el->common, &el->nr_common)) {
		free(el->fields);
		free(el);
		return NULL;
	}
	return el;
}

bool report_layout_has_field(const struct report_event_layout *el, const char *name)
{
	int i;

	for (i = 0; i < el->nr_fields; i++)
		if (!strcmp(el->fields[i].name, name))
			return true;
	return false;
}

const struct report_event_layout *report_layout_of(struct report_layouts *l,
						  struct tep_event *event)
{
	size_t id = (size_t)event->id;

	if (id >= l->nr_ids) {
		size_t n = id + 64;
		struct report_event_layout **grown = realloc(l->by_id, n * sizeof(*grown));

		if (!grown)
			return NULL;
		memset(grown + l->nr_ids, 0, (n - l->nr_ids) * sizeof(*grown));
		l->by_id = grown;
		l->nr_ids = n;
	}
	if (!l->by_id[id])
		l->by_id[id] = layout_build(l->tep, event);
	return l->by_id[id];
}

void report_layouts_free(struct report_layouts *l)
{
	size_t i;

	if (!l)
		return;
	for (i = 0; i < l->nr_ids; i++) {
		if (!l->by_id[i])
			continue;
		free(l->by_id[i]->fields);
		free(l->by_id[i]->common);
		free(l->by_id[i]);
	}
	free(l->by_id);
	free(l);
}

/* Where a field's bytes lie in the record; false when they do not fit in it. */
static bool field_span(struct tep_handle *tep, const struct report_field *rf,
		       const struct tep_record *r, size_t *off, size_t *len)
{
	const struct tep_format_field *f = rf->f;
	size_t size = r->size > 0 ? (size_t)r->size : 0;
	unsigned long long loc;

	if (!rf->dynamic && (f->flags & TEP_FIELD_IS_ARRAY) && (size_t)f->offset <= size) {
		/*
		 * "char buf[]" (ftrace's print) runs to the end of the record, and kernel_stack's
		 * caller[8] holds only the entries recorded: the record's end bounds both.
		 */
		*off = (size_t)f->offset;
		*len = size - *off;
		if (f->size && (size_t)f->size < *len)
			*len = (size_t)f->size;
		return true;
	}
	if ((size_t)f->offset + (size_t)f->size > size)
		return false;
	if (!rf->dynamic) {
		*off = (size_t)f->offset;
		*len = (size_t)f->size;
		return true;
	}
	loc = tep_read_number(tep, (const char *)r->data + f->offset, f->size);
	*off = loc & 0xffff;
	if (f->size == 2) {
		/* the old 16-bit offset: the string runs to its NUL */
		*len = *off < size ? size - *off : 0;
	} else {
		*len = (loc >> 16) & 0xffff;
		if (f->flags & TEP_FIELD_IS_RELATIVE)
			*off += (size_t)f->offset + (size_t)f->size;
	}
	return *off <= size && *len <= size - *off;
}

static long long sign_extend(unsigned long long v, unsigned int size)
{
	switch (size) {
	case 1: return (signed char)v;
	case 2: return (short)v;
	case 4: return (int)v;
	default: return (long long)v;
	}
}

void report_field_value(struct tep_handle *tep, const struct report_field *rf,
			const struct tep_record *r, struct report_value *v)
{
	const char *data = r->data;
	size_t off, len;

	v->kind = rf->kind;
	v->valid = field_span(tep, rf, r, &off, &len);
	if (!v->valid)
		return;
	switch (rf->kind) {
	case REPORT_FIELD_INT:
		v->i = sign_extend(tep_read_number(tep, data + off, (int)len), (unsigned int)len);
		break;
	case REPORT_FIELD_UINT:
		v->u = tep_read_number(tep, data + off, (int)len);
		break;
	case REPORT_FIELD_STR:
		v->data = data + off;
		v->len = strnlen(v->data, len);
		break;
	case REPORT_FIELD_ARRAY:
		v->data = data + off;
		v->len = len / rf->elem;
		break;
	}
}

void report_value_put_int(const struct report_value *v, struct strbuf *sb)
{
	char *o;

	if (strbuf_grow(sb, 24))
		return;
	o = sb->buf + sb->len;
	if (v->kind == REPORT_FIELD_INT)
		o = report_put_int(o, v->i, 0, ' ', false);
	else
		o = report_put_uint(o, v->u, 0, ' ');
	*o = '\0';
	sb->len = (size_t)(o - sb->buf);
}

void report_value_put_array(struct tep_handle *tep, const struct report_field *rf,
			    const struct report_value *v, struct strbuf *sb)
{
	struct report_value e = { .valid = true };
	size_t i;

	e.kind = rf->sign ? REPORT_FIELD_INT : REPORT_FIELD_UINT;
	strbuf_addch(sb, '[');
	for (i = 0; i < v->len; i++) {
		e.u = tep_read_number(tep, v->data + i * rf->elem, (int)rf->elem);
		e.i = sign_extend(e.u, rf->elem);
		if (i)
			strbuf_addch(sb, ',');
		report_value_put_int(&e, sb);
	}
	strbuf_addch(sb, ']');
}
