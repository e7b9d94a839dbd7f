/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_NET_AGENT_H
#define KTRACE_NET_AGENT_H

/*
 * The messages of trace-cmd's host-guest protocol (`trace-cmd record -A` <-> `trace-cmd
 * agent`), on the same framing as net.h. The host opens the control connection (no greeting)
 * and sends TRACE_REQ: the record options for the guest and the time-sync protocols it knows.
 * The agent answers TRACE_RESP: its CPU count, page size, trace id, the chosen time-sync
 * protocol and its port, and one data port per CPU. Then the agent sends its file's metadata
 * (SEND_DATA*, FIN_DATA), the host connects to the data ports and reads raw pages; the host
 * ends with CLOSE, the agent answers CLOSE_RESP once its data is sent.
 *
 * TRACE_REQ's fields: be32 flags, be32 argc (unused, 0), be64 trace id; its payload a list of
 * parameters {be32 id, be32 length, length bytes}: ARGS (be32 argc, then NUL-terminated
 * strings), TSYNC_PROTOS (NUL-terminated names, then one more NUL).
 */
#include <stdbool.h>
#include <stdint.h>

#include "ktrace/net.h"
#include "ktrace/strbuf.h"

#define NET_TRACE_USE_FIFOS	(1U << 0)
/* The fixed size of a protocol name in TRACE_RESP and TIME_SYNC. */
#define NET_TSYNC_NAME_LEN	16
/* trace-cmd's default agent port. */
#define NET_AGENT_PORT		823

enum net_trace_param {
	NET_PARAM_ARGS = 0,
	NET_PARAM_TSYNC_PROTOS = 1,
};

struct net_trace_req {
	uint32_t flags;
	uint64_t trace_id;	/* the host's */
	int argc;
	char **argv;		/* NULL-terminated, owned; NULL when argc is 0 */
	char **protos;		/* NULL-terminated, owned; NULL when none offered */
	/* TRACE_PROXY only */
	bool proxy;
	uint32_t cpus;
	uint32_t siblings;
};

/* TRACE_REQ or TRACE_PROXY: 0, -EBADMSG for a malformed parameter, -ENOMEM. */
int net_trace_req_parse(const struct net_msg *msg, struct net_trace_req *out);
void net_trace_req_release(struct net_trace_req *req);
/* True when the request offers the named time-sync protocol. */
bool net_trace_req_offers(const struct net_trace_req *req, const char *proto);
/* A run's trace id (the host's request, the agent's answer, TRACEID): random, never 0. */
uint64_t net_trace_id_new(void);

int net_encode_trace_req(struct strbuf *out, uint32_t flags, uint64_t trace_id, int argc,
			 char *const *argv, const char *const *protos);

struct net_trace_resp {
	uint32_t flags;
	uint32_t cpus;
	uint32_t page_size;
	uint64_t trace_id;	/* the agent's */
	char tsync_proto[NET_TSYNC_NAME_LEN + 1];	/* "" when none */
	uint32_t tsync_port;
	unsigned int *ports;	/* cpus of them; owned by the parser's caller */
};

/* 0, -EBADMSG when the ports do not match cpus, -ENOMEM. */
int net_trace_resp_parse(const struct net_msg *msg, struct net_trace_resp *out);
int net_encode_trace_resp(struct strbuf *out, const struct net_trace_resp *resp);

/* TIME_SYNC: a protocol name, a message id, and the protocol's payload. */
struct net_time_sync {
	char proto[NET_TSYNC_NAME_LEN + 1];
	uint32_t id;
	const uint8_t *payload;	/* into the parsed buffer */
	uint32_t payload_len;
};

int net_time_sync_parse(const struct net_msg *msg, struct net_time_sync *out);
int net_encode_time_sync(struct strbuf *out, const char *proto, uint32_t id,
			 const void *payload, uint32_t payload_len);

#endif
