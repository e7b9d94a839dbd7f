/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_RECORD_NET_H
#define KTRACE_RECORD_NET_H

/*
 * record -N: ties a capture (record_session.h) to a listener (net_send.h). The metadata is
 * written into a memfd and sent before recording starts, as trace-cmd does; the recorders then
 * write raw pages straight to the data connections, so nothing but what is in flight is kept.
 */
#include <stdbool.h>

#include "ktrace/strbuf.h"
#include "net_send.h"
#include "record_session.h"

/*
 * Connects and opens the data connections for the top instance's CPUs, before tracefs is
 * changed: a refused connection leaves it untouched.
 */
int record_net_connect(const char *target, bool udp, struct net_send **ns, struct strbuf *err);
/* Once tracefs is set up: sends the metadata and hands the data connections to the recorders. */
int record_net_start(struct rec_session *s, struct net_send *ns, bool udp, struct strbuf *err);
/* After the recorders finished: closes the data connections, then sends CLOSE. */
int record_net_finish(struct rec_session *s, struct net_send *ns, struct strbuf *err);
/*
 * One line per CPU of what reached the sockets, for a recording cut short: lost when the
 * listener hung up, else by an error of the recorders.
 */
void record_net_delivered(const struct rec_session *s, const char *target, bool lost);

#endif
