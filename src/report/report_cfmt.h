/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_REPORT_CFMT_H
#define KTRACE_REPORT_CFMT_H

/*
 * Private to report_cfmt.c (compiles a print_fmt) and report_cfmt_print.c (runs it): one
 * event's print format as a list of operations.
 */
#include <stdbool.h>
#include <stdint.h>

struct tep_format_field;
struct tep_event;
struct strbuf;

enum cfmt_kind {
	CFMT_TEXT,		/* literal text */
	CFMT_INT,		/* a number field (or array element), masked by casts */
	CFMT_STR_FIXED,		/* %s of a char array field */
	CFMT_STR_DYN,		/* %s of __get_str(): a __data_loc string */
};

/* printf conversion flags of an operation */
enum {
	CFMT_LEFT = 1,		/* '-' */
	CFMT_ZERO = 2,		/* '0' */
	CFMT_ALT = 4,		/* '#' */
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
	const struct tep_format_field *field;	/* CFMT_STR_DYN: the __data_loc field */
};

struct cfmt_event {
	struct cfmt_op *ops;
	int nr_ops;
	char *text;		/* every CFMT_TEXT, back to back */
	unsigned int need;	/* records shorter than this go to libtraceevent */
	size_t room;		/* the most the text and number operations write, NUL included */
};

/*
 * Compiles event's print_fmt; 0 with *out set, -ENOTSUP when some part has no exact fast
 * equivalent (libtraceevent prints that event), -ENOMEM.
 */
int cfmt_compile(const struct tep_event *event, int long_size, struct cfmt_event **out);
void cfmt_event_free(struct cfmt_event *ce);
/* Appends the event's text; false (sb as it was) when libtraceevent must print this record. */
bool cfmt_run(const struct cfmt_event *ce, struct strbuf *sb, const void *data, int size);

#endif
