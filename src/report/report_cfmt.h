/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_REPORT_CFMT_H
#define KTRACE_REPORT_CFMT_H

/*
 * Private to report_cfmt.c (compiles a print_fmt), report_cfmt_raw.c (compiles -R's list of
 * fields) and report_cfmt_run.c (runs either): one event's text as a list of operations.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ktrace/strbuf.h"

struct tep_format_field;
struct tep_print_arg;
struct tep_event;
struct tep_handle;

enum cfmt_kind {
	CFMT_TEXT,		/* literal text */
	CFMT_INT,		/* a number field (or array element), masked by casts */
	CFMT_STR_FIXED,		/* %s of a char array field */
	CFMT_STR_DYN,		/* %s of __get_str(): a __data_loc string */
	CFMT_RAW_ARRAY,		/* -R's array field: its string, or ARRAY[hex bytes] */
	CFMT_PTR,		/* %p: "(nil)" or 0x and the hex digits */
	CFMT_FUNC,		/* %ps %pf (conv 's'), %pS %pF (conv 'S'): a kernel symbol */
};

/* printf conversion flags of an operation */
enum {
	CFMT_LEFT = 1,		/* '-' */
	CFMT_ZERO = 2,		/* '0' */
	CFMT_ALT = 4,		/* '#' */
	CFMT_ADDR = 8,		/* CFMT_FUNC: " (0xADDR)" after the name (libtraceevent 1.8's -R) */
};

struct cfmt_op {
	enum cfmt_kind kind;
	char conv;		/* d i u x X s */
	signed char ls;		/* libtraceevent's length: -2 hh, -1 h, 0, 1 l/z, 2 ll */
	unsigned char flags;
	int width;
	const char *text;	/* CFMT_TEXT: owned by the compiled event */
	unsigned int len;	/* CFMT_TEXT: bytes of text */
	unsigned int offset;	/* field (or element) offset in the record */
	unsigned int size;	/* bytes read at offset; for strings the array size */
	unsigned long long mask;	/* what the casts keep of the value */
	/* CFMT_STR_DYN: the __data_loc field; CFMT_RAW_ARRAY: the array (its flags change) */
	struct tep_format_field *field;
};

struct cfmt_event {
	struct cfmt_op *ops;
	int nr_ops;
	char *text;		/* every CFMT_TEXT, back to back */
	struct tep_handle *tep;	/* where CFMT_FUNC looks symbols up */
	unsigned int need;	/* records shorter than this go to libtraceevent */
	size_t room;		/* the most the text and number operations write, NUL included */
};

/* An operation list being built; its text ops point into `text` once finished. */
struct cfmt_compiler {
	const struct tep_event *event;
	int long_size;
	bool func_addr;		/* CFMT_FUNC ops get CFMT_ADDR */
	struct cfmt_op *ops;
	int nr_ops, alloc_ops;
	struct strbuf text;
	unsigned int need;
};

struct cfmt_op *cfmt_add_op(struct cfmt_compiler *c, enum cfmt_kind kind);
/* Literal text, joined to the text op before it when that one is the last op */
int cfmt_add_text(struct cfmt_compiler *c, const char *s, size_t len);
void cfmt_need_bytes(struct cfmt_compiler *c, unsigned int end);
/*
 * One conversion ("%-08lx", at its '%') of arg, as the print format prints it; 0, -ENOTSUP
 * when it has no exact fast equivalent, -ENOMEM.
 */
int cfmt_compile_conv(struct cfmt_compiler *c, const char *f, struct tep_print_arg *arg);
/* The number libtraceevent evaluates arg to (REC->field or REC->array[N] under casts) */
int cfmt_compile_num(struct cfmt_compiler *c, struct tep_print_arg *arg, struct cfmt_op *op);
/* The finished list in *out (0), or -ENOMEM; c is released either way. */
int cfmt_finish(struct cfmt_compiler *c, struct cfmt_event **out);
void cfmt_compiler_release(struct cfmt_compiler *c);

/*
 * Compiles event's print_fmt; 0 with *out set, -ENOTSUP when some part has no exact fast
 * equivalent (libtraceevent prints that event), -ENOMEM.
 */
int cfmt_compile(const struct tep_event *event, int long_size, struct cfmt_event **out);
/*
 * The same for the fields tep_print_fields() prints (-R, -r): report_cfmt_raw.c. func_addr:
 * function pointers as libtraceevent 1.8 prints them raw (CFMT_ADDR).
 */
int cfmt_compile_raw(struct tep_event *event, int long_size, bool func_addr,
		     struct cfmt_event **out);
void cfmt_event_free(struct cfmt_event *ce);
/* Appends the event's text; false (sb as it was) when libtraceevent must print this record. */
bool cfmt_run(const struct cfmt_event *ce, struct strbuf *sb, const void *data, int size);

#endif
