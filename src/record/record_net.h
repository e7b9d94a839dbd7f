/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_RECORD_NET_H
#define KTRACE_RECORD_NET_H

/*
 * record -N: ties a capture (record_session.h) to a listener (net_send.h). As trace-cmd does,
 * every recorded buffer (the top instance, each -B instance) is a listener session of its own,
 * so the listener writes one file per buffer, that buffer's data as the file's only buffer.
 * Each session's metadata is written into a memfd and sent before recording starts; the
 * recorders then write raw pages straight to the data connections, so nothing but what is in
 * flight is kept.
 */
#include <poll.h>
#include <stdbool.h>

#include "ktrace/strbuf.h"
#include "net_send.h"
#include "record_session.h"

struct record_net;

/*
 * Connects nr_sessions sessions and opens their data connections, before tracefs is changed:
 * a refused connection leaves it untouched. tls: --tls and its files (none set: plaintext).
 */
int record_net_connect(const char *target, bool udp, const struct net_tls_opts *tls,
		       int nr_sessions, struct record_net **rn, struct strbuf *err);
/* agent: the one session of a host's `record -A`, served on ns (taken over). */
int record_net_agent(struct net_send *ns, struct record_net **rn);
/* agent: true when the host ended the recording (its CLOSE), not a hang-up. */
bool record_net_peer_stopped(const struct record_net *rn);
/*
 * Once tracefs is set up: sends session i the metadata of buffer i of s and hands its data
 * connections to that buffer's recorders.
 */
int record_net_start(struct record_session *s, struct record_net *rn, struct strbuf *err);
/* Fills up to max pollfds with the control connections (readable or hung up: gone); how many. */
int record_net_pollfds(const struct record_net *rn, struct pollfd *pfds, int max);
/* After the recorders finished: closes the data connections, then sends CLOSE to each session. */
int record_net_finish(struct record_session *s, struct record_net *rn, struct strbuf *err);
/*
 * What reached the sockets, per session and CPU, for a recording cut short: lost when the
 * listener hung up, else by an error of the recorders.
 */
void record_net_delivered(const struct record_session *s, const struct record_net *rn,
			  const char *target, bool lost);
void record_net_free(struct record_net *rn);

#endif
