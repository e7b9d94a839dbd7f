/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_LISTEN_SESSION_INTERNAL_H
#define KTRACE_LISTEN_SESSION_INTERNAL_H

/*
 * Private to session.c (the connection and its protocol) and session_finish.c (the file put
 * together once the recording is over): one `record -N` client's state.
 */
#include <netdb.h>
#include <stdint.h>
#include <sys/socket.h>

#include "ktrace/net.h"
#include "ktrace/strbuf.h"
#include "listen.h"

struct dat_metadata;

/* How long UDP must stay quiet after CLOSE before the data is taken as complete. */
#define UDP_QUIET_MS	300

enum sess_state {
	ST_TLS,			/* TLS handshake, before the greeting */
	ST_GREET,		/* waiting for "-1V3" or a v1 CPU count */
	ST_V3_MAGIC,
	ST_MESSAGES,		/* protocol 3 messages */
	ST_V1_META,		/* v1: the rest of the control stream is the metadata */
	ST_DRAIN,		/* recording over: waiting for the last CPU data */
	ST_OVER,
};

struct session {
	struct server_ctx *srv;
	int fd;			/* the control connection's, for poll(); conn owns it */
	struct net_conn *conn;
	struct sockaddr_storage peer;
	char name[NI_MAXHOST + NI_MAXSERV + 2];	/* "HOST:PORT" */
	enum sess_state st;
	enum net_phase phase;
	int version;
	const char *partial;	/* why the recording is incomplete, NULL while it is not */
	uint32_t cpus;
	uint32_t page_size;
	struct chan *ch;
	uint8_t *in;
	size_t in_len, in_cap;
	int out;
	char *tmp_name, *final_name;
	uint64_t meta_size;
	uint64_t stored;
	uint64_t last_activity;		/* control bytes, for the setup timeout */
	uint64_t last_data;		/* CPU data: UDP quiet period, drain timeout */
	uint64_t drain_start;
};

/* A log line "HOST:PORT: " + fmt (one %s, arg). */
void session_log(struct session *s, const char *fmt, const char *arg);
/* Ends the session on an error: its files removed, one log line (why, detail or NULL). */
void session_fail(struct session *s, const char *why, const char *detail);
void session_close_all(struct session *s);
/* The received metadata, checked against what the client announced. */
int session_scan_meta(struct session *s, struct dat_metadata *m, struct strbuf *err);
/* Every CPU's data settled (TCP) or quiet long enough (UDP) at time `now`. */
int session_drained(struct session *s, uint64_t now);
/* Assembles and publishes the file (session_finish.c); the session is over afterwards. */
void session_finish(struct session *s);

#endif
