/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_REPORT_ROWS_H
#define KTRACE_REPORT_ROWS_H

/*
 * Private to src/report: --format json|csv, one object or row per event (report_rows.c), from
 * each event's typed fields (report_layout.c), as JSON (report_json.c) or CSV (report_csv.c).
 * src/sql shares the typed fields and the JSON and CSV quoting, so that its columns hold what
 * --format json shows.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "ktrace/report.h"

struct tep_event;
struct tep_format_field;

/* How a field's bytes are read: decided once per event from its format. */
enum report_field_kind {
	REPORT_FIELD_INT,	/* signed integer of 1, 2, 4 or 8 bytes */
	REPORT_FIELD_UINT,	/* unsigned integer (pointers too) */
	REPORT_FIELD_STR,	/* char array, up to its first NUL */
	REPORT_FIELD_ARRAY,	/* any other array: integers of `elem` bytes */
};

struct report_field {
	struct tep_format_field *f;
	const char *name;		/* common fields without their "common_" */
	enum report_field_kind kind;
	bool dynamic;			/* __data_loc / __rel_loc: the data lies after the fields */
	bool sign;			/* ARRAY: signed elements */
	unsigned int elem;		/* ARRAY: element size (1, 2, 4 or 8) */
};

struct report_event_layout {
	struct tep_event *event;
	struct report_field *fields;	/* the event's own fields, in format order */
	int nr_fields;
	struct report_field *common;	/* common fields but common_type and common_pid */
	int nr_common;
};

/* One field's value in one record; STR and ARRAY point into the record. */
struct report_value {
	bool valid;			/* false when the record is too short for the field */
	enum report_field_kind kind;
	long long i;
	unsigned long long u;
	const char *data;		/* STR: the bytes (no NUL); ARRAY: the first element */
	size_t len;			/* STR: bytes; ARRAY: elements */
};

struct report_layouts;

int report_layouts_new(struct tep_handle *tep, struct report_layouts **out);
/* The event's layout, built on first use; NULL when out of memory. */
const struct report_event_layout *report_layout_of(struct report_layouts *l,
						  struct tep_event *event);
/* Whether the event has an own (not common) field of that name. */
bool report_layout_has_field(const struct report_event_layout *el, const char *name);
void report_layouts_free(struct report_layouts *l);
void report_field_value(struct tep_handle *tep, const struct report_field *rf,
			const struct tep_record *r, struct report_value *v);
/* An ARRAY value as "[1,2,3]" (signed or not as the field says). */
void report_value_put_array(struct tep_handle *tep, const struct report_field *rf,
			    const struct report_value *v, struct strbuf *sb);
/* An integer value (INT or UINT) in decimal. */
void report_value_put_int(const struct report_value *v, struct strbuf *sb);

/* What JSON and CSV rows show of one event, gathered once. */
struct report_row {
	struct tep_handle *tep;
	struct tep_record *record;
	const struct report_event_layout *layout;	/* NULL: an event type the file lacks */
	const char *instance;		/* NULL when the file has no instances, "" for the top */
	const char *comm;
	int pid;
	const char *lat;		/* -l: the latency column ("d.h1."), else NULL */
};

/* Appends the event's JSON object (no newline) to sb. */
void report_json_row(const struct report_row *row, struct strbuf *sb);
/* The JSON string of len bytes: escapes, invalid UTF-8 bytes as \u00XX. */
void report_json_put_str(struct strbuf *sb, const char *s, size_t len);
/* The event's own fields as one JSON object {"name":value,...}, appended to sb; 0 or -ENOMEM. */
int report_json_fields(const struct report_row *row, struct strbuf *sb);
/* A field's value in the record as JSON: number, string, array, or null when it is cut short. */
void report_json_put_value(const struct report_row *row, const struct report_field *rf,
			   struct strbuf *sb);

struct report_csv;

/* Parses --fields (default ts,cpu,comm,pid,event); -EINVAL naming an unknown column. */
int report_csv_new(struct tep_handle *tep, const char *fields, struct report_csv **out,
		   struct strbuf *err);
/* One cell, quoted as RFC 4180 asks when it holds a comma, a quote, CR or LF. */
void report_csv_put_cell(struct strbuf *sb, const char *s, size_t len);
void report_csv_header(const struct report_csv *csv, struct strbuf *sb);
/* true when a column needs the latency text (struct report_row.lat) */
bool report_csv_wants_lat(const struct report_csv *csv);
/* Appends the event's row (no newline) to sb; 0 or -ENOMEM. */
int report_csv_row(struct report_csv *csv, const struct report_row *row, struct strbuf *sb);
/*
 * --format json --fields: the same columns as one flat JSON object (no newline), a member per
 * column named as given, typed as --format json types it, null where the CSV cell is empty.
 */
int report_csv_json_row(struct report_csv *csv, const struct report_row *row, struct strbuf *sb);
void report_csv_free(struct report_csv *csv);

/* Streams the kept events of df to out as JSON or CSV (o->format). */
int report_rows_print(struct dat_file *df, const struct report_opts *o,
		      struct report_filter *filter, FILE *out, struct strbuf *err);

#endif
