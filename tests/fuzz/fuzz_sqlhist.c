// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: the SQL of `ktrace sqlhist`, against the sched events. What
 * sqlhist_check() lets through goes to libtracefs's tracefs_sql() as the command passes it,
 * and a synthetic event or histogram it makes is printed as the command prints it (the echo
 * commands); what the check refuses never reaches the library. Each input gets a fresh tep
 * handle, as the command does: libtraceevent caches the last event found, and a handle kept
 * across inputs crashed tep_find_event_by_name() on a NULL event name that one query alone
 * never reaches with that cache empty.
 */
#include <stdint.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>
#include <tracefs.h>

#include "fuzz_cpu_budget.h"
#include "sqlhist_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * The events as the command reads them (tfs_formats_tep() of a -t copy parses each
 * events/SYSTEM/EVENT/format with tep_parse_event()): the kernel's own sched formats of
 * tests/data/sqlhist, read once, parsed into a fresh handle for each input. The made-up
 * formats of sched_formats.h took libtracefs down a path the real ones do not
 * (pending/sqlhist/).
 */
#ifndef SQLHIST_EVENTS_DIR
#error "SQLHIST_EVENTS_DIR: the folder with the events/ of the sched events"
#endif

static const char *const sqlhist_events[] = { "sched_switch", "sched_wakeup", "sched_waking" };

static struct tep_handle *sched_tep(void)
{
	static struct strbuf formats[3];
	static bool read_once;
	struct strbuf path = STRBUF_INIT;
	struct tep_handle *tep;
	size_t i;

	for (i = 0; !read_once && i < 3; i++) {
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/events/sched/%s/format", SQLHIST_EVENTS_DIR,
			    sqlhist_events[i]);
		if (strbuf_read_file(&formats[i], path.buf))
			abort();
	}
	read_once = true;
	strbuf_release(&path);
	tep = tep_alloc();
	for (i = 0; tep && i < 3; i++)
		if (tep_parse_event(tep, formats[i].buf, formats[i].len, "sched")) {
			tep_free(tep);
			return NULL;
		}
	return tep;
}

static void print_synth(struct tracefs_synth *synth)
{
	struct tracefs_hist *hist;
	struct trace_seq seq;

	trace_seq_init(&seq);
	if (tracefs_synth_complete(synth)) {
		tracefs_synth_echo_cmd(&seq, synth);
	} else {
		hist = tracefs_synth_get_start_hist(synth);
		if (hist)
			tracefs_hist_echo_cmd(&seq, NULL, hist, 0);
		tracefs_hist_free(hist);
	}
	trace_seq_destroy(&seq);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tep_handle *tep = sched_tep();
	struct strbuf err = STRBUF_INIT;
	struct tracefs_synth *synth;
	char *sql, *perr = NULL;

	sql = malloc(size + 1);
	if (!tep || !sql)
		goto out;
	memcpy(sql, data, size);
	sql[size] = 0;
	cpu_budget_start();
	if (!sqlhist_check(sql, size, &err) && !sqlhist_check_fields(tep, sql, &err)) {
		synth = tracefs_sql(tep, "fuzz", sql, &perr);
		if (synth)
			print_synth(synth);
		tracefs_synth_free(synth);
		free(perr);
	}
	cpu_budget_stop();
out:
	tep_free(tep);
	free(sql);
	strbuf_release(&err);
	return 0;
}
