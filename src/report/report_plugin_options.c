// SPDX-License-Identifier: GPL-2.0-only
/*
 * The plugin options, as `trace-cmd options` lists them: its own fgraph options registered
 * first, then the plugins loaded, so libtraceevent (which lists the newest first) prints the
 * plugins' options before fgraph's, as trace-cmd's output has them.
 */
#include <errno.h>
#include <stdio.h>

#include <event-parse.h>

#include "ktrace/report.h"
#include "report_print.h"

int report_print_plugin_options(FILE *out)
{
	const struct report_lookahead no_lookahead = { 0 };
	struct tep_plugin_list *plugins;
	struct report_fgraph *fg;
	struct tep_handle *tep = tep_alloc();
	struct trace_seq s;
	int ret;

	if (!tep)
		return -ENOMEM;
	/* a tep without events: fgraph registers its options and no handler */
	ret = report_fgraph_register(tep, &no_lookahead, &fg);
	if (ret) {
		tep_free(tep);
		return ret;
	}
	plugins = tep_load_plugins(tep);
	trace_seq_init(&s);
	tep_plugin_print_options(&s);
	if (s.state != TRACE_SEQ__GOOD)
		ret = -ENOMEM;
	else if (fwrite(s.buffer, 1, s.len, out) != s.len || fflush(out))
		ret = -errno;
	trace_seq_destroy(&s);
	tep_unload_plugins(plugins, tep);
	report_fgraph_unregister(fg);
	tep_free(tep);
	return ret;
}
