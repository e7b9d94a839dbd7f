/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_RECORD_NET_SEND_H
#define KTRACE_RECORD_NET_SEND_H

/*
 * The client side of trace-cmd's protocol 3, as `trace-cmd record -N` speaks it, for
 * `ktrace record -N HOST:PORT`:
 *   control connection: greeting, "-1V3", magic, TINIT -> RINIT (one port per CPU)
 *   one data connection per CPU to those ports (TCP, or UDP with one page per datagram)
 *   SEND_DATA* holding the file up to its CPU data, FIN_DATA
 *   ... the recorders write pages to the data connections ...
 *   data connections closed, then CLOSE.
 * Messages are encoded by src/net (the listener's own codec). Errors come back as negative errno
 * with one line in err that names HOST:PORT.
 */
#include <stdbool.h>
#include <stdint.h>

#include "ktrace/net_conn.h"
#include "ktrace/strbuf.h"

struct net_send;

/*
 * Connects, agrees on protocol 3 and opens the per-CPU data connections. tls (borrowed; NULL:
 * plaintext, as trace-cmd) makes every connection TLS, the data going through relay threads.
 */
int net_send_open(const char *target, bool udp, struct net_tls *tls, uint32_t cpus,
		  uint32_t page_size, struct net_send **out, struct strbuf *err);
/*
 * The agent's side of `record -A` (net_agent.h), once the host's TRACE_REQ is read from conn
 * (taken over, closed on failure): opens a data port per CPU and answers TRACE_RESP. Its
 * metadata goes as for -N; net_send_metadata() then accepts the host's data connections
 * (from the control connection's host only). peer names the host in error lines.
 */
int net_send_serve(struct net_conn *conn, const char *peer, uint32_t cpus, uint32_t page_size,
		   uint64_t trace_id, struct net_send **out, struct strbuf *err);
/* agent: true when what woke the control connection is the host's CLOSE (the normal end). */
bool net_send_peer_closed(const struct net_send *ns);
/* Sends the first size bytes of fd (from offset 0) as SEND_DATA messages, then FIN_DATA. */
int net_send_metadata(struct net_send *ns, int fd, struct strbuf *err);
/*
 * The data connections, one per CPU. Whoever takes one (the recorders) sets its slot to -1 and
 * closes it when done; net_send_free closes the others.
 */
int *net_send_data_fds(struct net_send *ns);
/* The control connection, for noticing that the listener went away (readable or hung up). */
int net_send_ctl_fd(const struct net_send *ns);
/*
 * Sends CLOSE (agent: waits for the host's CLOSE and answers CLOSE_RESP); call once every data
 * connection is closed (TLS: once the relays sent it all).
 */
int net_send_close(struct net_send *ns, struct strbuf *err);
void net_send_free(struct net_send *ns);

#endif
