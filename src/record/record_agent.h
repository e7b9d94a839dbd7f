/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_RECORD_AGENT_H
#define KTRACE_RECORD_AGENT_H

/*
 * One recording a host asked the agent for (`record -A` on the host): record's flow with the
 * host as the only sink (net_send_serve), the options of its TRACE_REQ parsed as record's.
 */
#include <stdint.h>

#include "ktrace/net_agent.h"
#include "ktrace/net_conn.h"

/*
 * Takes over conn (its TRACE_REQ in req). peer names the host in messages. Returns the exit
 * status record would.
 */
int record_agent_serve(struct net_conn *conn, const char *peer, const struct net_trace_req *req,
		       uint64_t trace_id);

#endif
