// SPDX-License-Identifier: GPL-2.0-only
/*
 * --format json: one JSON object per event and per line (NDJSON), so that the output streams
 * into jq or a script without being held in memory:
 *
 *   {"ts":5862705306,"cpu":1,"pid":119,"comm":"trace-cmd","system":"sched",
 *    "event":"sched_switch","flags":1,"preempt_count":2,"fields":{"prev_comm":"trace-cmd",...}}
 *
 * Kernel strings are bytes, JSON strings are Unicode: valid UTF-8 passes through, every byte
 * that is not part of valid UTF-8 becomes \u00XX (its Latin-1 reading), so the output is always
 * valid JSON and the bytes can be told apart from control characters, which are escaped too.
 */
#include <string.h>

#include <event-parse.h>

#include "ktrace/report.h"
#include "report_rows.h"

/* The length of the valid UTF-8 sequence of at most n bytes at s (2 to 4), or 0. */
static size_t utf8_seq(const unsigned char *s, size_t n)
{
	unsigned char c = s[0], lo = 0x80, hi = 0xbf;
	size_t len, i;

	if (c >= 0xc2 && c <= 0xdf)
		len = 2;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4;
	else
		return 0;
	/* no overlong forms, no surrogates, nothing above U+10FFFF */
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	if (n < len || s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < len; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return len;
}

static void put_escape(struct strbuf *sb, unsigned char c)
{
	static const char hex[] = "0123456789abcdef";
	char esc[6] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 15] };

	switch (c) {
	case '"': strbuf_add(sb, "\\\"", 2); break;
	case '\\': strbuf_add(sb, "\\\\", 2); break;
	case '\n': strbuf_add(sb, "\\n", 2); break;
	case '\t': strbuf_add(sb, "\\t", 2); break;
	case '\r': strbuf_add(sb, "\\r", 2); break;
	default: strbuf_add(sb, esc, sizeof(esc)); break;
	}
}

void report_json_put_str(struct strbuf *sb, const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, run, seq;

	strbuf_addch(sb, '"');
	while (i < len) {
		/* the common case: a run of printable ASCII, copied at once */
		for (run = i; run < len && s[run] >= 0x20 && s[run] < 0x7f && s[run] != '"' &&
			      s[run] != '\\'; run++)
			;
		strbuf_add(sb, s + i, run - i);
		i = run;
		if (i == len)
			break;
		seq = s[i] >= 0x80 ? utf8_seq(s + i, len - i) : 0;
		if (seq) {
			strbuf_add(sb, s + i, seq);
			i += seq;
		} else {
			put_escape(sb, s[i++]);
		}
	}
	strbuf_addch(sb, '"');
}

static void put_key(struct strbuf *sb, const char *name)
{
	/* field names are C identifiers: no escaping needed */
	strbuf_addch(sb, '"');
	strbuf_addstr(sb, name);
	strbuf_add(sb, "\":", 2);
}

static void put_int_member(struct strbuf *sb, const char *key, long long i)
{
	struct report_value v = { .valid = true, .kind = REPORT_FIELD_INT, .i = i };

	put_key(sb, key);
	report_value_put_int(&v, sb);
	strbuf_addch(sb, ',');
}

static void put_uint_member(struct strbuf *sb, const char *key, unsigned long long u)
{
	struct report_value v = { .valid = true, .kind = REPORT_FIELD_UINT, .u = u };

	put_key(sb, key);
	report_value_put_int(&v, sb);
	strbuf_addch(sb, ',');
}

void report_json_put_value(const struct report_row *row, const struct report_field *rf,
			   struct strbuf *sb)
{
	struct report_value v;

	report_field_value(row->tep, rf, row->record, &v);
	if (!v.valid)
		strbuf_add(sb, "null", 4);
	else if (v.kind == REPORT_FIELD_STR)
		report_json_put_str(sb, v.data, v.len);
	else if (v.kind == REPORT_FIELD_ARRAY)
		report_value_put_array(row->tep, rf, &v, sb);
	else
		report_value_put_int(&v, sb);
}

static void put_members(const struct report_row *row, const struct report_field *fields,
			int nr, struct strbuf *sb)
{
	int i;

	for (i = 0; i < nr; i++) {
		if (i)
			strbuf_addch(sb, ',');
		put_key(sb, fields[i].name);
		report_json_put_value(row, &fields[i], sb);
	}
}

/* The names escaped, unlike put_key: sql's and Parquet's fields column holds any file's names. */
int report_json_fields(const struct report_row *row, struct strbuf *sb)
{
	const struct report_event_layout *el = row->layout;
	int i;

	strbuf_addch(sb, '{');
	for (i = 0; el && i < el->nr_fields; i++) {
		if (i)
			strbuf_addch(sb, ',');
		report_json_put_str(sb, el->fields[i].name, strlen(el->fields[i].name));
		strbuf_addch(sb, ':');
		report_json_put_value(row, &el->fields[i], sb);
	}
	return strbuf_addch(sb, '}');
}

static void put_event(const struct report_row *row, struct strbuf *sb)
{
	const struct report_event_layout *el = row->layout;

	if (!el) {
		strbuf_addstr(sb, "\"system\":null,\"event\":null,");
		return;
	}
	put_key(sb, "system");
	report_json_put_str(sb, el->event->system, strlen(el->event->system));
	strbuf_addch(sb, ',');
	put_key(sb, "event");
	report_json_put_str(sb, el->event->name, strlen(el->event->name));
	strbuf_addch(sb, ',');
}

void report_json_row(const struct report_row *row, struct strbuf *sb)
{
	const struct tep_record *r = row->record;

	strbuf_addch(sb, '{');
	put_uint_member(sb, "ts", r->ts);
	put_uint_member(sb, "cpu", (unsigned int)r->cpu);
	put_int_member(sb, "pid", row->pid);
	put_key(sb, "comm");
	report_json_put_str(sb, row->comm, strlen(row->comm));
	strbuf_addch(sb, ',');
	if (row->instance) {
		put_key(sb, "instance");
		report_json_put_str(sb, row->instance, strlen(row->instance));
		strbuf_addch(sb, ',');
	}
	put_event(row, sb);
	if (r->missed_events)
		put_int_member(sb, "dropped", r->missed_events > 0 ? r->missed_events : -1);
	if (row->layout && row->layout->nr_common) {
		put_members(row, row->layout->common, row->layout->nr_common, sb);
		strbuf_addch(sb, ',');
	}
	if (row->lat) {
		put_key(sb, "lat");
		report_json_put_str(sb, row->lat, strlen(row->lat));
		strbuf_addch(sb, ',');
	}
	strbuf_add(sb, "\"fields\":{", 10);
	if (row->layout)
		put_members(row, row->layout->fields, row->layout->nr_fields, sb);
	strbuf_add(sb, "}}", 2);
}
