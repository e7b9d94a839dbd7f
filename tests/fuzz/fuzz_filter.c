// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: a -F filter string, as `ktrace report -F` takes it, against the sched
 * events. What report_filter_check() accepts must be accepted by libtraceevent's
 * tep_filter_add_filter_str() (an accepted string it refuses aborts: the check and the
 * library disagree) and must match records without crashing; what it refuses never reaches
 * the library, whose parser crashes on many of those strings.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "fuzz_cpu_budget.h"
#include "report_filter_check.h"
#include "sched_formats.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* An argument cannot hold a NUL: the string ends at the first one. */
static char *to_string(const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, 0, size);
	size_t len = nul ? (size_t)(nul - data) : size;
	char *s = malloc(len + 1);

	if (s) {
		memcpy(s, data, len);
		s[len] = 0;
	}
	return s;
}

static struct tep_handle *sched_tep(void)
{
	static const char *const formats[] = {
		SCHED_SWITCH_FMT, SCHED_WAKE_FMT("sched_wakeup", "317"),
		SCHED_WAKE_FMT("sched_waking", "318"),
	};
	struct tep_handle *tep = tep_alloc();
	size_t i;

	for (i = 0; tep && i < sizeof(formats) / sizeof(formats[0]); i++)
		if (tep_parse_event(tep, formats[i], strlen(formats[i]), "sched")) {
			tep_free(tep);
			return NULL;
		}
	return tep;
}

/* Every event's record with all bytes FILL: zero finds the divisions by a field. */
static void match_records(struct tep_handle *tep, struct tep_event_filter *filter, int fill)
{
	unsigned char buf[64];
	struct tep_record rec;
	int i, n = tep_get_events_count(tep);

	for (i = 0; i < n; i++) {
		struct tep_event *e = tep_get_event(tep, i);

		memset(buf, fill, sizeof(buf));
		buf[0] = e->id & 0xff;
		buf[1] = e->id >> 8;
		memset(&rec, 0, sizeof(rec));
		rec.data = buf;
		rec.size = sizeof(buf);
		tep_filter_match(filter, &rec);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* one handle for the whole run: parsing the formats would cost more than the filter */
	static struct tep_handle *tep;
	struct strbuf err = STRBUF_INIT, notes = STRBUF_INIT;
	struct tep_event_filter *filter;
	char *expr;

	if (!tep)
		tep = sched_tep();
	expr = to_string(data, size);
	if (!tep || !expr)
		goto out;
	cpu_budget_start();
	if (!report_filter_check(tep, "-F", expr, &err, &notes)) {
		filter = tep_filter_alloc(tep);
		if (filter && tep_filter_add_filter_str(filter, expr) < 0)
			abort();
		if (filter) {
			match_records(tep, filter, 0);
			match_records(tep, filter, 0x41);
			tep_filter_free(filter);
		}
	}
	cpu_budget_stop();
out:
	free(expr);
	strbuf_release(&err);
	strbuf_release(&notes);
	return 0;
}
