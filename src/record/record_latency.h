/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_RECORD_LATENCY_H
#define KTRACE_RECORD_LATENCY_H

/*
 * A latency tracer's recording (plan_tracer_is_latency): no recorders; once tracing is off, the
 * instance's `trace` text becomes the file's latency data, as trace-cmd stores it.
 */
#include "ktrace/strbuf.h"

struct dat_writer;

/*
 * Reads the text at trace_path (an instance's `trace` file) and writes it as w's latency data
 * (dat_writer_latency), `clock` naming the instance's clock. 0 or -errno with a line in err.
 */
int record_latency_store(struct dat_writer *w, const char *trace_path, const char *clock,
		      struct strbuf *err);

#endif
