/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_RECORD_METADATA_H
#define KTRACE_RECORD_METADATA_H

/*
 * What a trace.dat holds besides the ring-buffer pages, read from tracefs and /proc and handed
 * to the dat writer: header_page/header_event, ftrace's own formats, the formats of the recorded
 * events, kallsyms, printk formats, saved cmdlines, and the options (clock, uname, version,
 * trace id, per-CPU stats, CPU count).
 */
#include <stdbool.h>
#include <stdint.h>

#include "ktrace/strbuf.h"

struct dat_writer;

/* "system/event" globs as events/ understands them; NULL or empty list means every event. */
struct meta_events {
	char **globs;
	int nr;
	bool all;
};

int meta_events_add(struct meta_events *ev, const char *system, const char *name);
void meta_events_release(struct meta_events *ev);

/* Page size of an instance's ring buffer from its events/header_page (the "data" field end). */
uint32_t meta_subbuf_size(const char *trace_dir);

/* The six metadata parts, in file order. */
int meta_write_sections(struct dat_writer *w, const char *trace_dir, const struct meta_events *ev,
			struct strbuf *err);
/* The same with the kernel symbols read from `kallsyms` (restore -k) instead of /proc/kallsyms. */
int meta_write_sections_from(struct dat_writer *w, const char *trace_dir, const char *kallsyms,
			     const struct meta_events *ev, struct strbuf *err);
/*
 * TRACECLOCK, UNAME, VERSION, TRACEID, CPUCOUNT. trace_dir NULL leaves TRACECLOCK out, as in
 * trace-cmd's latency files: its v6 reader would take a clock from the start of the text.
 */
/* trace_id 0: a random one. */
int meta_add_options(struct dat_writer *w, const char *trace_dir, int nr_cpus, uint64_t trace_id);
/* CPUSTAT for each CPU; `name` NULL for the top instance, else preceded by a "Buffer:" entry. */
int meta_add_cpustats(struct dat_writer *w, const char *trace_dir, const char *name, int nr_cpus);
/* The selected clock of an instance ("local" when unreadable). Caller frees. */
char *meta_selected_clock(const char *trace_dir);

#endif
