// SPDX-License-Identifier: GPL-2.0-only
/* A latency tracer's `trace` text into the trace.dat (record_latency.h). */
#include <errno.h>
#include <string.h>

#include "ktrace/dat_writer.h"
#include "metadata.h"
#include "record_latency.h"

int record_latency_store(struct dat_writer *w, const char *trace_path, const char *clock,
		      struct strbuf *err)
{
	struct strbuf text = STRBUF_INIT;
	struct dat_blob blob;
	int ret;

	/* `trace` has no size; read to its end. It holds the max-latency trace only. */
	ret = strbuf_read_file(&text, trace_path);
	if (ret) {
		strbuf_addf(err, "cannot read %s: %s", trace_path, strerror(-ret));
	} else {
		blob.data = text.buf ? text.buf : "";
		blob.size = text.len;
		ret = dat_writer_latency(w, clock, &blob, err);
	}
	strbuf_release(&text);
	return ret;
}
