// SPDX-License-Identifier: GPL-2.0-only
/*
 * One recording a host asked this agent for: its options parsed as record's, record's flow
 * (record_run.h) with the host as the only sink.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <tracefs.h>
#include <unistd.h>

#include "ktrace/options.h"
#include "ktrace/plan.h"
#include "metadata.h"
#include "net_send.h"
#include "record_agent.h"
#include "record_run.h"

/*
 * agent: the host's options record one buffer into the host's files; a file or a listener of
 * the guest's own makes no sense there (trace-cmd refuses them too).
 */
int record_agent_prepare(struct record_run *run)
{
	const char *top = tracefs_tracing_dir();
	long cpus = sysconf(_SC_NPROCESSORS_CONF);
	struct net_conn *conn = run->agent_conn;
	struct net_send *ns = NULL;
	int i, nr = 0, ret = 0;

	run->agent_conn = NULL;
	for (i = 0; i < run->plan->nr_instances; i++)
		nr += plan_instance_in_use(run->plan, i);
	/* the plan defaults -o to trace.dat: only another name is known to come from the host */
	if (strcmp(record_output_path(run->plan), "trace.dat") || run->plan->net_target ||
	    run->plan->command) {
		strbuf_addf(&run->err, "%s asks for %s: an agent records to the host only",
			    run->agent_peer, run->plan->command ? "a command" :
			    run->plan->output ? "-o" : "-N");
		ret = -EINVAL;
	} else if (nr != 1) {
		strbuf_addf(&run->err, "%s asks for %d buffers: an agent records one", run->agent_peer,
			    nr);
		ret = -EINVAL;
	} else if (!top || cpus < 1) {
		ret = -ENODEV;
	}
	if (ret) {
		net_conn_close(conn);
		return ret;
	}
	run->plan->quiet = true;
	ret = net_send_serve(conn, run->agent_peer, (uint32_t)cpus, meta_subbuf_size(top),
			     run->agent_trace_id, &ns, &run->err);
	return ret ? ret : record_net_agent(ns, &run->net);
}

int record_agent_serve(struct net_conn *conn, const char *peer, const struct net_trace_req *req,
		       uint64_t trace_id)
{
	struct record_run run = { .agent_conn = conn, .agent_peer = peer,
				  .agent_trace_id = trace_id };
	char **argv = calloc((size_t)req->argc + 2, sizeof(*argv));
	int i, ret;

	if (!argv) {
		net_conn_close(conn);
		return kt_result_of(-ENOMEM);
	}
	argv[0] = "record";
	for (i = 0; i < req->argc; i++)
		argv[i + 1] = req->argv[i];
	ret = record_run_prepared(&run, &plan_cmd_record, req->argc + 1, argv, record_run_record,
				  offsetof(struct record_run, flight));
	free(argv);
	return ret;
}
