// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: one event format, as a trace.dat file's ftrace or event-system section
 * holds it, through what the reader does with each (dat_meta.c parse_format): the guard
 * (dat_format_guard.c), then libtraceevent's parser on a fresh tep handle, then the printers
 * report uses on a record of that event. fuzz_dat parses the twenty or so formats of a whole
 * file for every input, which is most of its time; here one input is one format, so the
 * mutations that reach the format parser, where libtraceevent crashes, run many times faster.
 *
 * Input: one byte choosing the system (odd: "ftrace", whose events libtraceevent treats
 * apart), the format text up to the first NUL, then the record's payload (common fields
 * first), which goes at the start of a zeroed page as kbuffer hands records out of one.
 */
#include <stdint.h>
#include <string.h>

#include <event-parse.h>

#include "dat_internal.h"
#include "fuzz_cpu_budget.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define PAGE 4096

static void print_record(struct tep_handle *tep, const uint8_t *payload, size_t len)
{
	static const char *const formats[] = { TEP_PRINT_INFO, TEP_PRINT_INFO_RAW,
					       TEP_PRINT_LATENCY };
	static uint8_t page[PAGE];
	struct tep_record rec;
	struct trace_seq s;
	size_t i;

	if (len > PAGE)
		len = PAGE;
	memset(page, 0, sizeof(page));
	memcpy(page, payload, len);
	memset(&rec, 0, sizeof(rec));
	rec.data = page;
	rec.size = (int)len;
	rec.ts = 1000;
	trace_seq_init(&s);
	for (i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
		trace_seq_reset(&s);
		tep_print_event(tep, &s, &rec, "%s", formats[i]);
	}
	trace_seq_reset(&s);
	if (tep_get_events_count(tep) == 1)
		tep_print_fields(&s, page, (int)len, tep_get_event(tep, 0));
	trace_seq_destroy(&s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tep_event *event = NULL;
	const char *system, *text;
	struct tep_handle *tep;
	const uint8_t *nul;
	size_t len;

	if (size < 1)
		return 0;
	system = data[0] & 1 ? "ftrace" : "fuzz";
	text = (const char *)data + 1;
	nul = memchr(text, 0, size - 1);
	len = nul ? (size_t)(nul - (const uint8_t *)text) : size - 1;
	/* what the reader does not hand to the library, the library never sees */
	if (!dat_format_is_safe(text, len) || !dat_format_fits(text, len, PAGE))
		return 0;
	tep = tep_alloc();
	if (!tep)
		return 0;
	tep_set_file_bigendian(tep, TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, TEP_LITTLE_ENDIAN);
	tep_set_long_size(tep, 8);
	tep_set_page_size(tep, PAGE);
	cpu_budget_start();
	/* with no payload, the event's record of zeroes */
	/* as parse_format() in dat_meta.c */
	if (tep_parse_format(tep, &event, text, len, system) ||
	    (event && (event->flags & TEP_EVENT_FL_FAILED)))
		dat_format_parse_failed();
	if (tep_get_events_count(tep))
		print_record(tep, nul ? nul + 1 : data, nul ? size - 1 - len - 1 : 0);
	cpu_budget_stop();
	tep_free(tep);
	return 0;
}
