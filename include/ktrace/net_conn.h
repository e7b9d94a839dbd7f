/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_NET_CONN_H
#define KTRACE_NET_CONN_H

/*
 * The byte stream under trace-cmd's protocol, between two ktrace ends: a plain TCP socket (what
 * trace-cmd speaks, and the default), or TLS over it (OpenSSL). Both ends of `ktrace record -N`
 * and `ktrace listen` read and write through a struct net_conn, so the protocol code never
 * knows which one it has.
 *
 * A TLS end is configured once (struct net_tls: certificates, the CA that vouches for the
 * peer, or a pre-shared key) and every connection of a session, control and per-CPU data, runs
 * its own handshake with it. Verification is never optional: a client without --tls-ca checks
 * the listener against the system's CAs; a listener with --tls-ca refuses clients without a
 * certificate that CA signed.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "ktrace/strbuf.h"

/* What the command line gives one TLS end; NULL fields are unset. */
struct net_tls_opts {
	bool enabled;		/* client: --tls (implied by the other fields) */
	const char *cert;	/* our certificate chain (PEM) */
	const char *key;	/* its private key (PEM) */
	const char *ca;		/* CA certificates (PEM) that must have signed the peer's */
	const char *psk;	/* a file holding the pre-shared key, instead of certificates */
};

/* True when the options ask for TLS at all. */
bool net_tls_wanted(const struct net_tls_opts *o);

struct net_tls;

/*
 * Loads the certificates and keys: 0, or negative errno with one line in err naming the file
 * and what is wrong with it. A server needs cert and key, or psk.
 */
int net_tls_new(const struct net_tls_opts *o, bool server, struct net_tls **out,
		struct strbuf *err);
void net_tls_free(struct net_tls *tls);

struct net_conn;

/*
 * Takes over the connected socket fd (blocking or not). tls NULL: plaintext. A client names
 * the host it dialled (a name or an address): the listener's certificate must be issued to
 * it. NULL when out of memory (fd is then closed).
 */
struct net_conn *net_conn_new(int fd, struct net_tls *tls, const char *host);
/*
 * Runs (a step of) the TLS handshake; plaintext has none. 0 when done, -EAGAIN when it waits
 * for the socket (poll for net_conn_events()), -EPROTO when refused (net_conn_why() says why),
 * or another negative errno.
 */
int net_conn_handshake(struct net_conn *c);
/* What to poll the socket for: POLLIN, or POLLOUT while a TLS step waits to write. */
short net_conn_events(const struct net_conn *c);
/*
 * Up to len bytes: > 0, 0 at the end of the stream, -EAGAIN on a non-blocking socket with
 * nothing yet (or a blocking one past SO_RCVTIMEO), or negative errno. A TLS connection ended
 * without the TLS close (a truncation attack, or a peer that died) is -ECONNRESET.
 */
ssize_t net_conn_read(struct net_conn *c, void *buf, size_t len);
/* Up to len bytes sent: > 0, -EAGAIN, or negative errno (-EPIPE: the peer is gone). */
ssize_t net_conn_write(struct net_conn *c, const void *buf, size_t len);
/* All len bytes, on a blocking socket: 0 or negative errno (-EAGAIN past SO_SNDTIMEO). */
int net_conn_write_all(struct net_conn *c, const void *buf, size_t len);
/* Exactly len bytes, on a blocking socket: 0, -ECONNRESET when the peer closes first, or errno. */
int net_conn_read_all(struct net_conn *c, void *buf, size_t len);
struct net_msg;
/*
 * One whole message of net.h into buf (NET_MSG_MAX_LEN bytes), parsed into msg: 0,
 * -EMSGSIZE, -EBADMSG/-ENOMSG (net_msg_parse), or net_conn_read_all's errors.
 */
int net_conn_recv_msg(struct net_conn *c, uint8_t *buf, struct net_msg *msg);
/* Bytes TLS has decrypted but not handed out: poll() will not announce them. */
size_t net_conn_pending(const struct net_conn *c);
int net_conn_fd(const struct net_conn *c);
bool net_conn_is_tls(const struct net_conn *c);
/* The last refusal or failure, in words ("" when none). */
const char *net_conn_why(const struct net_conn *c);
/* After the handshake: "TLSv1.3, CN=name of the peer's certificate" or "TLSv1.3, PSK". */
const char *net_conn_describe(struct net_conn *c);
/* Sends the TLS close (without waiting), closes the socket, frees c. NULL is fine. */
void net_conn_close(struct net_conn *c);

/*
 * The recorders splice pages into a file descriptor, which TLS cannot be: a relay thread reads
 * what they write into the local end of a socket pair and sends it through the connection.
 * net_relay_start() takes over conn and returns that local end in *local_fd (the caller owns
 * it: its close is the end of the data). net_relay_finish() waits for the relay to send
 * everything and close the connection: 0 or the first error (negative errno).
 */
struct net_relay;

int net_relay_start(struct net_conn *conn, int *local_fd, struct net_relay **out);
int net_relay_finish(struct net_relay *r, struct strbuf *err);

#endif
