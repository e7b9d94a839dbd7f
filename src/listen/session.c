// SPDX-License-Identifier: GPL-2.0-only
/*
 * One `record -N` client: the control connection's prologue and messages, its per-CPU data
 * channels, and the output file. The file is written under a hidden ".part" name and renamed
 * only once complete, so a file with the final name is always whole. The ".part" file (the
 * metadata) is locked while the session lives and each CPU's data has a file named after it,
 * so that a listener killed mid-stream leaves what the next one recovers (recover.c).
 */
#define _FILE_OFFSET_BITS 64
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "ktrace/fdio.h"
#include "ktrace/net.h"
#include "listen.h"
#include "session_internal.h"

void session_log(struct session *s, const char *fmt, const char *arg)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, fmt, arg);
	listen_logf(s->srv->log, "%s: %s", s->name, strbuf_str(&sb));
	strbuf_release(&sb);
}

static int send_all(struct session *s, const void *buf, size_t len);

/* Names as trace-cmd gives them; a host name that could leave DIR falls back to numbers. */
static void make_name(struct session *s, const struct sockaddr *peer, socklen_t len)
{
	char host[NI_MAXHOST], serv[NI_MAXSERV];

	if (getnameinfo(peer, len, host, sizeof(host), serv, sizeof(serv), NI_NUMERICSERV) ||
	    strchr(host, '/') || host[0] == '.' || !host[0])
		getnameinfo(peer, len, host, sizeof(host), serv, sizeof(serv),
			    NI_NUMERICHOST | NI_NUMERICSERV);
	snprintf(s->name, sizeof(s->name), "%s:%s", host, serv);
}

static void greet(struct session *s, const char *how)
{
	s->st = ST_GREET;
	session_log(s, "connected%s", how);
	if (send_all(s, NET_GREETING, NET_GREETING_LEN))
		session_fail(s, "client does not read", NULL);
}

struct session *session_new(struct server_ctx *srv, int fd, const struct sockaddr *peer,
			    socklen_t peer_len)
{
	struct session *s = calloc(1, sizeof(*s));

	if (s)
		s->in = malloc(srv->cfg->max_msg + NET_MSG_HDR_LEN);
	if (s && s->in)
		s->conn = net_conn_new(fd, srv->tls, NULL);
	else
		close(fd);
	if (!s || !s->conn) {
		if (s)
			free(s->in);
		free(s);
		return NULL;
	}
	s->srv = srv;
	s->fd = fd;
	s->out = -1;
	memcpy(&s->peer, peer, peer_len < sizeof(s->peer) ? peer_len : sizeof(s->peer));
	make_name(s, peer, peer_len);
	s->in_cap = srv->cfg->max_msg + NET_MSG_HDR_LEN;
	s->last_activity = listen_now_ms();
	/* Over TLS, the greeting waits for the handshake: it is trace-cmd's protocol inside. */
	if (srv->tls)
		s->st = ST_TLS;
	else
		greet(s, "");
	return s;
}

static void remove_files(struct session *s)
{
	uint32_t i;

	if (s->tmp_name && s->tmp_name[0])
		unlinkat(s->srv->dir_fd, s->tmp_name, 0);
	for (i = 0; s->ch && i < s->cpus; i++)
		chan_remove(&s->ch[i], s->srv->dir_fd);
}

void session_close_all(struct session *s)
{
	uint32_t i;

	net_conn_close(s->conn);
	s->conn = NULL;
	s->fd = -1;
	for (i = 0; s->ch && i < s->cpus; i++)
		chan_close(&s->ch[i]);
	if (s->out >= 0)
		close(s->out);
	s->out = -1;
}

/* Ends the session without a file: one line says why. */
void session_fail(struct session *s, const char *why, const char *detail)
{
	struct strbuf sb = STRBUF_INIT;

	if (s->st == ST_OVER)
		return;
	remove_files(s);
	strbuf_addf(&sb, "%s%s%s; no file written", why, detail ? ": " : "", detail ? detail : "");
	session_log(s, "dropped: %s", strbuf_str(&sb));
	strbuf_release(&sb);
	session_close_all(s);
	s->st = ST_OVER;
}

/* A client turned away before its setup began: nothing of it reached DIR. */
static void refuse(struct session *s, const char *why)
{
	session_log(s, "refused: %s; nothing written", why);
	session_close_all(s);
	s->st = ST_OVER;
}

static void fail_errno(struct session *s, const char *why, int err)
{
	session_fail(s, why, strerror(err < 0 ? -err : err));
}

static void fail_setup(struct session *s, int err)
{
	if (err == -EPROTONOSUPPORT)
		session_fail(s, "UDP data refused", "this listener speaks TLS, which covers TCP only");
	else
		fail_errno(s, "setting up the data channels", err);
}

static int send_all(struct session *s, const void *buf, size_t len)
{
	/* Replies are a few bytes: a client that does not read them is not worth waiting for. */
	ssize_t n = net_conn_write(s->conn, buf, len);

	return n == (ssize_t)len ? 0 : -EPIPE;
}

/*
 * The ".part" file is locked before it takes its name: a listener starting up recovers only
 * the ".part" files it can lock, so it never takes one of a live session.
 */
static int lock_into_place(struct session *s)
{
	struct strbuf sb = STRBUF_INIT;
	int dir = s->srv->dir_fd, ret;

	ret = strbuf_addf(&sb, "%s.new", s->tmp_name);
	if (ret)
		return ret;
	unlinkat(dir, strbuf_str(&sb), 0);
	s->out = openat(dir, strbuf_str(&sb), O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC | O_NOFOLLOW,
			0644);
	ret = s->out < 0 || flock(s->out, LOCK_EX) ? -errno : 0;
	if (!ret && linkat(dir, strbuf_str(&sb), dir, s->tmp_name, 0))
		ret = -errno;
	/* Left by a listener that died: recovered first, then the name is ours. */
	if (ret == -EEXIST && !(ret = listen_recover_one(dir, s->tmp_name, s->srv->log)) &&
	    linkat(dir, strbuf_str(&sb), dir, s->tmp_name, 0))
		ret = -errno;
	if (s->out >= 0)
		unlinkat(dir, strbuf_str(&sb), 0);
	strbuf_release(&sb);
	return ret;
}

static int create_output(struct session *s)
{
	const char *base = s->srv->cfg->base;
	struct strbuf sb = STRBUF_INIT;
	int ret;

	strbuf_addf(&sb, "%s.%s.dat", base, s->name);
	s->final_name = strbuf_detach(&sb, NULL);
	strbuf_addf(&sb, ".%s.part", s->final_name);
	s->tmp_name = strbuf_detach(&sb, NULL);
	if (!s->final_name || !s->tmp_name)
		return -ENOMEM;
	ret = lock_into_place(s);
	if (ret)
		s->tmp_name[0] = '\0';		/* not ours to remove */
	return ret;
}

static int open_channels(struct session *s, uint32_t cpus, uint32_t page_size, int tcp)
{
	struct strbuf path = STRBUF_INIT;
	uint32_t i;
	int ret;

	/* TLS covers TCP: pages in datagrams would come unauthenticated, in the clear. */
	if (s->srv->tls && !tcp)
		return -EPROTONOSUPPORT;
	s->ch = calloc(cpus, sizeof(*s->ch));
	if (!s->ch)
		return -ENOMEM;
	s->page_size = page_size;
	ret = create_output(s);
	for (i = 0; !ret && i < cpus; i++) {
		strbuf_reset(&path);
		ret = strbuf_addf(&path, "%s" LISTEN_CPU_SUFFIX "%u", s->tmp_name, i);
		if (ret)
			break;
		ret = chan_open(&s->ch[i], s->srv, s->fd, !tcp, page_size, strbuf_str(&path));
		s->cpus = i + 1;	/* so that session_close_all() closes what is open */
	}
	strbuf_release(&path);
	if (ret)
		return ret;
	listen_logf(s->srv->log, "%s: protocol %d, %u CPUs, page size %u, %s data", s->name,
		    s->version, cpus, page_size, tcp ? "TCP" : "UDP");
	return 0;
}

static int store_meta(struct session *s, const void *buf, size_t len)
{
	int ret;

	if (len > s->srv->cfg->max_file - s->stored)
		return -EFBIG;
	ret = fd_pwrite_all(s->out, buf, len, s->meta_size);
	if (ret)
		return ret;
	s->meta_size += len;
	s->stored += len;
	return 0;
}

static void start_drain(struct session *s)
{
	s->st = ST_DRAIN;
	s->drain_start = listen_now_ms();
}

static int on_tinit(struct session *s, const struct net_msg *m)
{
	struct strbuf reply = STRBUF_INIT;
	unsigned int *ports;
	const char *opt;
	size_t pos = 0;
	uint32_t i;
	int tcp = 0, ret;

	while ((ret = net_msg_next_string(m, &pos, &opt)) > 0)
		tcp |= !strcmp(opt, "tcp");
	if (ret < 0)
		return ret;
	ret = open_channels(s, m->tinit.cpus, m->tinit.page_size, tcp);
	ports = ret ? NULL : calloc(s->cpus, sizeof(*ports));
	if (!ret && !ports)
		ret = -ENOMEM;
	for (i = 0; !ret && i < s->cpus; i++)
		ports[i] = s->ch[i].port;
	if (!ret)
		ret = net_encode_rinit(&reply, ports, s->cpus);
	if (!ret && s->srv->cfg->debug)
		listen_logf(s->srv->log, "%s: msg send: %d (%s) [%zu]", s->name, NET_RINIT,
			    net_cmd_name(NET_RINIT), reply.len);
	if (!ret)
		ret = send_all(s, reply.buf, reply.len);
	free(ports);
	strbuf_release(&reply);
	return ret;
}

/* Scans the metadata received so far; the CPU table we append must agree with it. */
int session_scan_meta(struct session *s, struct dat_metadata *m, struct strbuf *err)
{
	int ret = dat_metadata_scan(s->out, s->meta_size, m, err);

	if (!ret && ((m->cpus && m->cpus != s->cpus) || m->page_size != s->page_size)) {
		strbuf_addf(err, "it declares %u CPUs and %u-byte pages, the client %u and %u",
			    m->cpus, m->page_size, s->cpus, s->page_size);
		ret = -EINVAL;
	}
	return ret;
}

/* With the metadata known, v7 CPU data can be compressed as it arrives. */
static int start_compression(struct session *s, const struct dat_metadata *m)
{
	enum kt_compression c;
	uint32_t i;
	int ret = 0;

	if (m->version < 7 || kt_compression_from_name(m->compression, &c))
		return 0;
	for (i = 0; i < s->cpus && !ret; i++)
		ret = chan_compress_start(&s->ch[i], s->srv, c, s->page_size, m->big_endian);
	return ret;
}

static int meta_check(struct session *s)
{
	struct strbuf err = STRBUF_INIT;
	struct dat_metadata m;
	int ret = session_scan_meta(s, &m, &err);

	if (ret)
		session_fail(s, "bad metadata", strbuf_str(&err));
	else if ((ret = start_compression(s, &m)))
		fail_errno(s, "starting compression", ret);
	strbuf_release(&err);
	return ret;
}

static int on_message(struct session *s, const struct net_msg *m)
{
	int next = net_phase_next(s->phase, m->cmd);

	if (next < 0) {
		session_fail(s, "message out of order", net_cmd_name(m->cmd));
		return next;
	}
	s->phase = (enum net_phase)next;
	switch (m->cmd) {
	case NET_TINIT:
		next = on_tinit(s, m);
		if (next)
			fail_setup(s, next);
		return next;
	case NET_SEND_DATA:
		next = store_meta(s, m->payload, m->payload_len);
		if (next)
			session_fail(s, next == -EFBIG ? "over --max-file" : "writing metadata",
			     next == -EFBIG ? NULL : strerror(-next));
		return next;
	case NET_FIN_DATA:
		return meta_check(s);
	case NET_CLOSE:
		start_drain(s);
		return 0;
	default:
		return 0;
	}
}

static void consume(struct session *s, size_t n)
{
	memmove(s->in, s->in + n, s->in_len - n);
	s->in_len -= n;
}

/* Parses what the control buffer holds; returns when more bytes are needed or it failed. */
static void process_messages(struct session *s)
{
	struct net_msg m;
	int n;

	while (s->st == ST_MESSAGES && s->in_len) {
		n = net_msg_parse_max(s->in, s->in_len, s->srv->cfg->max_msg, &m);
		if (!n)
			return;
		if (n < 0) {
			session_fail(s, "malformed message", strerror(-n));
			return;
		}
		if (s->srv->cfg->debug)
			listen_logf(s->srv->log, "%s: msg received: %d (%s) [%u]", s->name,
				    (int)m.cmd, net_cmd_name(m.cmd), m.size);
		if (on_message(s, &m))
			return;
		consume(s, (size_t)n);
	}
}

static void process_v1(struct session *s)
{
	struct strbuf reply = STRBUF_INIT;
	struct net_v1_init v1;
	uint32_t i;
	int n = net_v1_parse(s->in, s->in_len, &v1);

	if (!n)
		return;
	if (n < 0) {
		session_fail(s, "bad v1 prologue", strerror(-n));
		return;
	}
	consume(s, (size_t)n);
	s->version = 1;
	n = open_channels(s, v1.cpus, v1.page_size, v1.tcp);
	for (i = 0; !n && i < s->cpus; i++)
		n = strbuf_addf(&reply, "%s%u", i ? "," : "", s->ch[i].port);
	if (!n)
		n = send_all(s, reply.buf, reply.len + 1);
	strbuf_release(&reply);
	if (n) {
		fail_setup(s, n);
		return;
	}
	s->st = ST_V1_META;
	if (s->in_len && store_meta(s, s->in, s->in_len))
		session_fail(s, "over --max-file", NULL);
	s->in_len = 0;
}

static void process_prologue(struct session *s)
{
	enum net_hello hello;
	int n;

	if (s->st == ST_GREET) {
		n = net_hello_parse(s->in, s->in_len, &hello);
		/* 0x16 0x03: a TLS handshake record, from a client told to use TLS. */
		if (n < 0 && s->in_len >= 2 && s->in[0] == 0x16 && s->in[1] == 0x03)
			session_fail(s, "not a trace-cmd client", "it speaks TLS, and this listener has no "
			     "--tls-cert or --tls-psk");
		else if (n < 0)
			session_fail(s, "not a trace-cmd client", strerror(-n));
		if (n <= 0)
			return;
		if (hello == NET_HELLO_V1) {
			process_v1(s);
			return;
		}
		consume(s, (size_t)n);
		s->version = 3;
		s->st = ST_V3_MAGIC;
		if (send_all(s, "V3", 3))
			session_fail(s, "client does not read", NULL);
	}
	if (s->st == ST_V3_MAGIC) {
		n = net_v3_magic_parse(s->in, s->in_len);
		if (n < 0)
			session_fail(s, "bad protocol 3 magic", NULL);
		if (n <= 0)
			return;
		consume(s, (size_t)n);
		s->st = ST_MESSAGES;
		if (send_all(s, "OK", 2))
			session_fail(s, "client does not read", NULL);
	}
}

static void control_eof(struct session *s)
{
	net_conn_close(s->conn);
	s->conn = NULL;
	s->fd = -1;
	if (s->st == ST_V1_META) {
		start_drain(s);
	} else if (s->st == ST_MESSAGES && s->phase == NET_PHASE_RECORDING) {
		/* The metadata is whole: keep what the CPUs sent, under a name that says so. */
		s->partial = "the client vanished mid-recording";
		start_drain(s);
	} else if (s->st != ST_DRAIN) {
		session_fail(s, s->st == ST_GREET && !s->in_len ? "closed before the handshake" :
		     "closed during setup", NULL);
	}
}

/* One read; 1 when it filled the room it had, so that more is probably waiting. */
static int control_read_once(struct session *s)
{
	size_t want = s->st == ST_V1_META ? s->srv->scratch_len : s->in_cap - s->in_len;
	ssize_t n;

	if (s->st == ST_V1_META) {
		n = net_conn_read(s->conn, s->srv->scratch, want);
		if (n > 0 && store_meta(s, s->srv->scratch, (size_t)n))
			session_fail(s, "over --max-file", NULL);
	} else {
		n = net_conn_read(s->conn, s->in + s->in_len, want);
		if (n > 0)
			s->in_len += (size_t)n;
	}
	if (n == -EAGAIN || n == -EINTR)
		return 0;
	if (n < 0 && n != -ECONNRESET) {
		session_fail(s, "reading the control connection", net_conn_why(s->conn)[0] ?
		     net_conn_why(s->conn) : strerror((int)-n));
		return 0;
	}
	if (n <= 0) {
		control_eof(s);
		return 0;
	}
	s->last_activity = listen_now_ms();
	if (s->st == ST_GREET || s->st == ST_V3_MAGIC)
		process_prologue(s);
	if (s->st == ST_MESSAGES)
		process_messages(s);
	else if (s->st == ST_DRAIN && s->in_len)
		session_fail(s, "data after CLOSE", NULL);
	return (size_t)n == want && (s->st == ST_MESSAGES || s->st == ST_V1_META);
}

/*
 * Up to 32 reads in a row: a data channel takes 256 KB a turn, and metadata read one message
 * a turn would come in after most of the CPU data, which then waits raw for the compression
 * settings the metadata holds.
 */
static void control_readable(struct session *s)
{
	int i;

	for (i = 0; i < 32 && control_read_once(s); i++)
		;
}

static void data_event(struct session *s, uint32_t cpu)
{
	const char *why;
	int64_t n = chan_event(&s->ch[cpu], s->srv, (struct sockaddr *)&s->peer,
			       s->srv->cfg->max_file - s->stored, &why);

	if (why)
		session_log(s, "%s", why);
	if (n == -EFBIG)
		session_fail(s, "over --max-file", NULL);
	else if (n < 0)
		fail_errno(s, "reading CPU data", (int)n);
	else if (n > 0) {
		s->stored += (uint64_t)n;
		s->last_data = listen_now_ms();
	}
}

static void tls_step(struct session *s)
{
	int ret = net_conn_handshake(s->conn);
	char how[256];

	if (ret == -EAGAIN)
		return;
	if (ret) {
		refuse(s, net_conn_why(s->conn)[0] ? net_conn_why(s->conn) : strerror(-ret));
		return;
	}
	snprintf(how, sizeof(how), " (%s)", net_conn_describe(s->conn));
	s->last_activity = listen_now_ms();
	greet(s, how);
}

void session_event(struct session *s, int idx, short revents)
{
	if (s->st == ST_OVER)
		return;
	if (idx < 0 && s->st == ST_TLS)
		tls_step(s);
	else if (idx < 0)
		control_readable(s);
	else
		data_event(s, (uint32_t)idx);
}

int session_nr_fds(const struct session *s)
{
	return 1 + (int)s->cpus;
}

int session_pending(const struct session *s, int idx)
{
	const struct net_conn *c = idx < 0 ? s->conn : s->ch[idx].conn;

	return s->st != ST_OVER && c && net_conn_pending(c);
}

int session_pollfds(struct session *s, struct pollfd *pfd, int *idx, int max)
{
	int n = 0;
	uint32_t i;

	if (s->st == ST_OVER)
		return 0;
	if (s->fd >= 0 && n < max) {
		pfd[n] = (struct pollfd){ .fd = s->fd, .events = net_conn_events(s->conn) };
		idx[n++] = -1;
	}
	for (i = 0; i < s->cpus && n < max; i++) {
		int fd = s->ch[i].lfd >= 0 ? s->ch[i].lfd : s->ch[i].fd;
		const struct net_conn *c = s->ch[i].lfd >= 0 ? NULL : s->ch[i].conn;

		if (fd < 0)
			continue;
		pfd[n] = (struct pollfd){ .fd = fd, .events = c ? net_conn_events(c) : POLLIN };
		idx[n++] = (int)i;
	}
	return n;
}

int session_tick(struct session *s, uint64_t now)
{
	const struct listen_config *cfg = s->srv->cfg;

	if (s->st == ST_DRAIN) {
		/*
		 * The client sends CLOSE once its data is queued, not received: megabytes per CPU
		 * may still be in the sockets. Only a channel silent that long has stalled.
		 */
		uint64_t since = s->last_data > s->drain_start ? s->last_data : s->drain_start;

		if (session_drained(s, now)) {
			session_finish(s);
		} else if (now - since > cfg->drain_ms) {
			session_log(s, "%s", "CPU data still open after the recording ended; keeping "
				"what arrived");
			s->partial = "CPU data still open after the recording ended";
			session_finish(s);
		}
	} else if (s->st == ST_TLS && now - s->last_activity > cfg->timeout_ms) {
		refuse(s, "no TLS handshake within --timeout (a plaintext client, waiting for "
		       "the greeting?)");
	} else if (s->st != ST_OVER && s->phase < NET_PHASE_RECORDING && s->st != ST_V1_META &&
		   now - s->last_activity > cfg->timeout_ms) {
		session_fail(s, "timed out during setup", NULL);
	}
	return s->st == ST_OVER;
}

/*
 * A stopped listener keeps what a recording sent: whatever has its metadata whole becomes a
 * .partial.dat marked incomplete; only sessions still in setup are dropped.
 */
void session_stop(struct session *s)
{
	if (s->st == ST_DRAIN && !session_drained(s, listen_now_ms()))
		s->partial = "ktrace listen was stopped while the last CPU data arrived";
	if (s->st == ST_MESSAGES && s->phase == NET_PHASE_RECORDING)
		s->partial = "ktrace listen was stopped mid-recording";
	if (s->st == ST_DRAIN || (s->st == ST_MESSAGES && s->phase == NET_PHASE_RECORDING))
		session_finish(s);
	else if (s->st == ST_TLS)
		refuse(s, "listener stopping during the TLS handshake");
	else if (s->st != ST_OVER)
		session_fail(s, "listener stopping during setup", NULL);
}

void session_free(struct session *s)
{
	if (s->st != ST_OVER)
		session_fail(s, "listener stopping", NULL);
	free(s->ch);
	free(s->in);
	free(s->tmp_name);
	free(s->final_name);
	free(s);
}
