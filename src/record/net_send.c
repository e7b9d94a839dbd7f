// SPDX-License-Identifier: GPL-2.0-only
/* record -N: the client side of trace-cmd's protocol 3 (net_send.h). */
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/vm_sockets.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "ktrace/net.h"
#include "ktrace/net_agent.h"
#include "ktrace/net_conn.h"
#include "net_send.h"

/* A listener that accepts but never answers must not hang record before it starts. */
#define HANDSHAKE_TIMEOUT_S	10
/* A listener that stops reading: the recorders give up rather than block for ever. */
#define SEND_TIMEOUT_S		30

struct net_send {
	const char *flag;		/* what err lines start with: "-N " or "" (agent) */
	const char *target;
	char *host;			/* the name or address the listener's certificate names */
	struct net_tls *tls;		/* NULL: plaintext */
	int ctl;
	struct net_conn *conn;		/* the control connection (owns ctl) */
	int *data;
	struct net_relay **relays;	/* TLS: one per CPU, between data[cpu] and the listener */
	uint32_t cpus;
	int *listening;			/* agent: the data ports the host connects to, per CPU */
};

/* TLS failures say what TLS refused: a certificate, an alert from the listener... */
static int fail_conn(const struct net_send *ns, const struct net_conn *c, struct strbuf *err,
		     int ret, const char *what)
{
	const char *why = c && net_conn_why(c)[0] ? net_conn_why(c) : strerror(-ret);

	strbuf_addf(err, "%s%s: %s: %s", ns->flag, ns->target, what, why);
	return ret;
}

static int fail(const struct net_send *ns, struct strbuf *err, int ret, const char *what)
{
	return fail_conn(ns, ns->conn, err, ret, what);
}

static void set_timeout(int fd, int opt, int seconds)
{
	struct timeval tv = { .tv_sec = seconds };

	setsockopt(fd, SOL_SOCKET, opt, &tv, sizeof(tv));
}

/* "host:port" or "[v6addr]:port"; trace-cmd takes the part after the last colon as the port. */
static int split_target(const char *target, char **host, char **port)
{
	const char *colon = strrchr(target, ':');
	size_t len = (size_t)(colon - target);

	if (target[0] == '[' && len > 2 && target[len - 1] == ']')
		*host = strndup(target + 1, len - 2);
	else
		*host = strndup(target, len);
	*port = strdup(colon + 1);
	return *host && *port ? 0 : -ENOMEM;
}

static int connect_ctl(struct net_send *ns, struct strbuf *err)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM };
	struct addrinfo *res = NULL, *ai;
	char *host = NULL, *port = NULL;
	int ret = split_target(ns->target, &host, &port);

	if (!ret && ns->tls && !(ns->host = strdup(host)))
		ret = -ENOMEM;
	if (!ret && (ret = getaddrinfo(host, port, &hints, &res))) {
		strbuf_addf(err, "-N %s: %s", ns->target, gai_strerror(ret));
		ret = -EHOSTUNREACH;
	}
	for (ai = res; !ret && ai; ai = ai->ai_next) {
		ns->ctl = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (ns->ctl >= 0 && !connect(ns->ctl, ai->ai_addr, ai->ai_addrlen))
			break;
		ret = ai->ai_next ? 0 : -errno;
		if (ns->ctl >= 0)
			close(ns->ctl);
		ns->ctl = -1;
	}
	if (ret && !err->len)
		fail(ns, err, ret, "cannot connect");
	if (!ret && !(ns->conn = net_conn_new(ns->ctl, ns->tls, ns->host))) {
		ns->ctl = -1;
		ret = -ENOMEM;
	}
	if (res)
		freeaddrinfo(res);
	free(host);
	free(port);
	return ret;
}

/* Exactly len bytes; -ECONNRESET when the listener closes first, -ETIMEDOUT when it is silent. */
static int recv_all(struct net_send *ns, void *buf, size_t len)
{
	int ret = net_conn_read_all(ns->conn, buf, len);

	return ret == -EAGAIN ? -ETIMEDOUT : ret;
}

/* Blocking, bounded by the socket's timeouts: 0, -ETIMEDOUT or -EPROTO (refused). */
static int tls_handshake(struct net_conn *c)
{
	int ret = net_conn_handshake(c);

	return ret == -EAGAIN ? -ETIMEDOUT : ret;
}

/* Checks that the listener said exactly `want`; a different answer is a refusal. */
static int expect(struct net_send *ns, const char *want, size_t len, const char *step,
		  struct strbuf *err)
{
	char got[16] = "";
	int ret = recv_all(ns, got, len);

	if (ret)
		return fail(ns, err, ret, step);
	if (memcmp(got, want, len)) {
		strbuf_addf(err, "-N %s: %s: the listener refused the handshake "
			    "(is it 'ktrace listen' or 'trace-cmd listen'?)", ns->target, step);
		return -EPROTO;
	}
	return 0;
}

static int handshake(struct net_send *ns, struct strbuf *err)
{
	int ret;

	set_timeout(ns->ctl, SO_RCVTIMEO, HANDSHAKE_TIMEOUT_S);
	if (ns->tls && (ret = tls_handshake(ns->conn)))
		return fail(ns, err, ret, "TLS handshake");
	ret = expect(ns, NET_GREETING, NET_GREETING_LEN, "waiting for the greeting", err);
	if (!ret && (ret = net_conn_write_all(ns->conn, NET_V3_REQUEST, sizeof(NET_V3_REQUEST))))
		return fail(ns, err, ret, "asking for protocol 3");
	/* A listener that knows only protocol 1 answers with port numbers instead. */
	if (!ret)
		ret = expect(ns, "V3", 3, "asking for protocol 3", err);
	if (!ret && (ret = net_conn_write_all(ns->conn, NET_V3_MAGIC, NET_V3_MAGIC_LEN)))
		return fail(ns, err, ret, "sending the protocol magic");
	if (!ret)
		ret = expect(ns, "OK", 2, "sending the protocol magic", err);
	return ret;
}

static int recv_msg(struct net_send *ns, char *buf, struct net_msg *msg)
{
	int ret = net_conn_recv_msg(ns->conn, (uint8_t *)buf, msg);

	return ret == -EAGAIN ? -ETIMEDOUT : ret;
}

static int exchange_init(struct net_send *ns, bool udp, uint32_t page_size, unsigned int *ports,
			 struct strbuf *err)
{
	struct strbuf out = STRBUF_INIT;
	char *buf = malloc(NET_MSG_MAX_LEN);
	struct net_msg msg;
	int ret = buf ? net_encode_tinit(&out, ns->cpus, page_size, !udp) : -ENOMEM;

	if (!ret && (ret = net_conn_write_all(ns->conn, out.buf, out.len)))
		fail(ns, err, ret, "sending TINIT");
	if (!ret && (ret = recv_msg(ns, buf, &msg)))
		fail(ns, err, ret, "waiting for RINIT");
	if (!ret && msg.cmd != NET_RINIT) {
		strbuf_addf(err, "-N %s: the listener answered TINIT with %s, not RINIT",
			    ns->target, net_cmd_name(msg.cmd));
		ret = -EPROTO;
	}
	if (!ret && (ret = net_rinit_ports(&msg, ports, ns->cpus)))
		strbuf_addf(err, "-N %s: the listener's RINIT does not give %u ports",
			    ns->target, ns->cpus);
	strbuf_release(&out);
	free(buf);
	return ret;
}

/*
 * TLS: the recorders write into a socket pair whose other end a relay sends through the
 * connection (net_conn.h); the handshake is done here, before recording starts.
 */
static int tls_data(struct net_send *ns, uint32_t cpu, struct strbuf *err)
{
	struct net_conn *c = net_conn_new(ns->data[cpu], ns->tls, ns->host);
	char what[64];
	int ret;

	ns->data[cpu] = -1;
	if (!c)
		return fail(ns, err, -ENOMEM, "TLS");
	set_timeout(net_conn_fd(c), SO_RCVTIMEO, HANDSHAKE_TIMEOUT_S);
	ret = tls_handshake(c);
	if (ret) {
		snprintf(what, sizeof(what), "TLS handshake of CPU %u's data", cpu);
		fail_conn(ns, c, err, ret, what);
		net_conn_close(c);
		return ret;
	}
	ret = net_relay_start(c, &ns->data[cpu], &ns->relays[cpu]);
	return ret ? fail(ns, err, ret, "starting a relay thread") : 0;
}

/* The data connections go to the address the control connection reached, on the given ports. */
static int connect_data(struct net_send *ns, bool udp, const unsigned int *ports,
			struct strbuf *err)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	uint32_t cpu;
	char what[64];
	int ret;

	if (getpeername(ns->ctl, (struct sockaddr *)&ss, &len))
		return fail(ns, err, -errno, "reading the listener's address");
	for (cpu = 0; cpu < ns->cpus; cpu++) {
		int fd = socket(ss.ss_family, (udp ? SOCK_DGRAM : SOCK_STREAM) | SOCK_CLOEXEC, 0);

		if (ss.ss_family == AF_INET6)
			((struct sockaddr_in6 *)&ss)->sin6_port = htons((uint16_t)ports[cpu]);
		else
			((struct sockaddr_in *)&ss)->sin_port = htons((uint16_t)ports[cpu]);
		ns->data[cpu] = fd;
		if (fd < 0 || connect(fd, (struct sockaddr *)&ss, len)) {
			snprintf(what, sizeof(what), "connecting CPU %u's data to port %u", cpu,
				 ports[cpu]);
			return fail(ns, err, -errno, what);
		}
		set_timeout(fd, SO_SNDTIMEO, SEND_TIMEOUT_S);
		if (ns->tls) {
			ret = tls_data(ns, cpu, err);
			if (ret)
				return ret;
		}
	}
	return 0;
}

static struct net_send *alloc_net_send(const char *target, struct net_tls *tls, uint32_t cpus)
{
	struct net_send *ns = calloc(1, sizeof(*ns));
	uint32_t cpu;

	if (!ns)
		return NULL;
	ns->data = malloc(sizeof(*ns->data) * cpus);
	ns->relays = calloc(cpus, sizeof(*ns->relays));
	if (!ns->data || !ns->relays) {
		free(ns->data);
		free(ns->relays);
		free(ns);
		return NULL;
	}
	ns->tls = tls;
	for (cpu = 0; cpu < cpus; cpu++)
		ns->data[cpu] = -1;
	ns->flag = "-N ";
	ns->target = target;
	ns->cpus = cpus;
	ns->ctl = -1;
	return ns;
}

/*
 * agent: one listening socket per CPU, of the control connection's family, on its local
 * address (TCP), or any port of this machine's CID (vsock); ports[] gets their numbers.
 */
static int listen_data(struct net_send *ns, unsigned int *ports, struct strbuf *err)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	uint32_t cpu;

	if (getsockname(ns->ctl, (struct sockaddr *)&ss, &len))
		return fail(ns, err, -errno, "reading the agent's address");
	for (cpu = 0; cpu < ns->cpus; cpu++) {
		int fd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
		socklen_t got = len;

		if (ss.ss_family == AF_VSOCK)
			((struct sockaddr_vm *)&ss)->svm_port = VMADDR_PORT_ANY;
		else if (ss.ss_family == AF_INET6)
			((struct sockaddr_in6 *)&ss)->sin6_port = 0;
		else
			((struct sockaddr_in *)&ss)->sin_port = 0;
		ns->listening[cpu] = fd;
		if (fd < 0 || bind(fd, (struct sockaddr *)&ss, len) || listen(fd, 1) ||
		    getsockname(fd, (struct sockaddr *)&ss, &got))
			return fail(ns, err, -errno, "opening a data port");
		if (ss.ss_family == AF_VSOCK)
			ports[cpu] = ((struct sockaddr_vm *)&ss)->svm_port;
		else if (ss.ss_family == AF_INET6)
			ports[cpu] = ntohs(((struct sockaddr_in6 *)&ss)->sin6_port);
		else
			ports[cpu] = ntohs(((struct sockaddr_in *)&ss)->sin_port);
		/* a host that never connects must not hold the agent for ever */
		set_timeout(fd, SO_RCVTIMEO, SEND_TIMEOUT_S);
	}
	return 0;
}

static bool same_host(const struct sockaddr_storage *a, const struct sockaddr_storage *b)
{
	if (a->ss_family != b->ss_family)
		return false;
	if (a->ss_family == AF_INET)
		return ((const struct sockaddr_in *)a)->sin_addr.s_addr ==
		       ((const struct sockaddr_in *)b)->sin_addr.s_addr;
	if (a->ss_family == AF_INET6)
		return !memcmp(&((const struct sockaddr_in6 *)a)->sin6_addr,
			       &((const struct sockaddr_in6 *)b)->sin6_addr, 16);
	if (a->ss_family == AF_VSOCK)
		return ((const struct sockaddr_vm *)a)->svm_cid ==
		       ((const struct sockaddr_vm *)b)->svm_cid;
	return false;
}

/* agent: each CPU's data connection, from the host of the control connection only. */
static int accept_data(struct net_send *ns, struct strbuf *err)
{
	struct sockaddr_storage peer, from;
	socklen_t len = sizeof(peer);
	char what[64];
	uint32_t cpu;

	if (getpeername(ns->ctl, (struct sockaddr *)&peer, &len))
		return fail(ns, err, -errno, "reading the host's address");
	for (cpu = 0; cpu < ns->cpus; cpu++) {
		int fd;

		do {
			len = sizeof(from);
			fd = accept4(ns->listening[cpu], (struct sockaddr *)&from, &len,
				     SOCK_CLOEXEC);
			if (fd >= 0 && !same_host(&peer, &from)) {
				close(fd);
				fd = -2;
			}
		} while (fd == -2 || (fd < 0 && errno == EINTR));
		if (fd < 0) {
			snprintf(what, sizeof(what), "waiting for the host on CPU %u's data port",
				 cpu);
			return fail(ns, err, errno == EAGAIN ? -ETIMEDOUT : -errno, what);
		}
		set_timeout(fd, SO_SNDTIMEO, SEND_TIMEOUT_S);
		ns->data[cpu] = fd;
		close(ns->listening[cpu]);
		ns->listening[cpu] = -1;
	}
	return 0;
}

/* agent: the host's CLOSE (once), then CLOSE_RESP: the data connections are closed by now. */
static int agent_close(struct net_send *ns, struct strbuf *err)
{
	struct strbuf out = STRBUF_INIT;
	char *buf = malloc(NET_MSG_MAX_LEN);
	struct net_msg msg = { .cmd = NET_NR_CMDS };
	int ret = buf ? 0 : -ENOMEM;

	set_timeout(ns->ctl, SO_RCVTIMEO, SEND_TIMEOUT_S);
	while (!ret && msg.cmd != NET_CLOSE)
		ret = recv_msg(ns, buf, &msg);
	if (ret)
		fail(ns, err, ret, "waiting for the host's CLOSE");
	if (!ret && !(ret = net_encode_simple(&out, NET_CLOSE_RESP)))
		ret = net_conn_write_all(ns->conn, out.buf, out.len);
	if (ret && !err->len)
		fail(ns, err, ret, "sending CLOSE_RESP");
	strbuf_release(&out);
	free(buf);
	return ret;
}

int net_send_serve(struct net_conn *conn, const char *peer, uint32_t cpus, uint32_t page_size,
		   uint64_t trace_id, struct net_send **out, struct strbuf *err)
{
	struct net_send *ns = alloc_net_send(peer, NULL, cpus);
	struct net_trace_resp resp = { .cpus = cpus, .page_size = page_size,
				       .trace_id = trace_id };
	struct strbuf msg = STRBUF_INIT;
	uint32_t cpu;
	int ret = ns ? 0 : -ENOMEM;

	if (ns) {
		ns->flag = "";
		ns->conn = conn;
		ns->ctl = net_conn_fd(conn);
		ns->listening = malloc(sizeof(*ns->listening) * cpus);
		resp.ports = calloc(cpus, sizeof(*resp.ports));
		if (!ns->listening || !resp.ports)
			ret = -ENOMEM;
		for (cpu = 0; !ret && cpu < cpus; cpu++)
			ns->listening[cpu] = -1;
	} else {
		net_conn_close(conn);
	}
	if (!ret)
		ret = listen_data(ns, resp.ports, err);
	if (!ret && !(ret = net_encode_trace_resp(&msg, &resp)) &&
	    (ret = net_conn_write_all(conn, msg.buf, msg.len)))
		fail(ns, err, ret, "sending TRACE_RESP");
	strbuf_release(&msg);
	free(resp.ports);
	if (ret) {
		net_send_free(ns);
		return ret;
	}
	*out = ns;
	return 0;
}

bool net_send_peer_closed(const struct net_send *ns)
{
	uint8_t hdr[NET_MSG_HDR_LEN];

	if (recv(ns->ctl, hdr, sizeof(hdr), MSG_PEEK | MSG_DONTWAIT) != sizeof(hdr))
		return false;
	return hdr[4] == 0 && hdr[5] == 0 && hdr[6] == 0 && hdr[7] == NET_CLOSE;
}

int net_send_open(const char *target, bool udp, struct net_tls *tls, uint32_t cpus,
		  uint32_t page_size, struct net_send **out, struct strbuf *err)
{
	struct net_send *ns = alloc_net_send(target, tls, cpus);
	unsigned int *ports = calloc(cpus, sizeof(*ports));
	int ret = ns && ports ? 0 : -ENOMEM;

	if (!ret)
		ret = connect_ctl(ns, err);
	if (!ret)
		ret = handshake(ns, err);
	if (!ret)
		ret = exchange_init(ns, udp, page_size, ports, err);
	if (!ret)
		ret = connect_data(ns, udp, ports, err);
	free(ports);
	if (ret) {
		net_send_free(ns);
		return ret;
	}
	*out = ns;
	return 0;
}

int net_send_metadata(struct net_send *ns, int fd, struct strbuf *err)
{
	const size_t chunk = NET_MSG_MAX_LEN - NET_MSG_HDR_LEN;
	struct strbuf out = STRBUF_INIT;
	char *buf = malloc(chunk);
	off_t off = 0;
	ssize_t n = 1;
	int ret = buf ? 0 : -ENOMEM;

	while (!ret && n > 0) {
		n = pread(fd, buf, chunk, off);
		if (n < 0)
			ret = -errno;
		strbuf_reset(&out);
		if (n > 0 && !(ret = net_encode_data(&out, buf, (size_t)n)))
			ret = net_conn_write_all(ns->conn, out.buf, out.len);
		off += n > 0 ? n : 0;
	}
	strbuf_reset(&out);
	if (!ret && !(ret = net_encode_simple(&out, NET_FIN_DATA)))
		ret = net_conn_write_all(ns->conn, out.buf, out.len);
	if (ret)
		fail(ns, err, ret, "sending the metadata");
	strbuf_release(&out);
	free(buf);
	/* the host connects to the data ports once it has the metadata */
	if (!ret && ns->listening)
		ret = accept_data(ns, err);
	return ret;
}

int *net_send_data_fds(struct net_send *ns)
{
	return ns->data;
}

int net_send_ctl_fd(const struct net_send *ns)
{
	return ns->ctl;
}

/* Waits for every relay to send what its recorder wrote: the first failure, or 0. */
static int finish_relays(struct net_send *ns, struct strbuf *err)
{
	struct strbuf why = STRBUF_INIT;
	uint32_t cpu;
	int ret = 0, r;

	for (cpu = 0; cpu < ns->cpus; cpu++) {
		if (!ns->relays[cpu])
			continue;
		strbuf_reset(&why);
		r = net_relay_finish(ns->relays[cpu], &why);
		ns->relays[cpu] = NULL;
		if (r && !ret && err)
			strbuf_addf(err, "-N %s: sending CPU %u's data: %s", ns->target, cpu,
				    strbuf_str(&why));
		ret = ret ? ret : r;
	}
	strbuf_release(&why);
	return ret;
}

int net_send_close(struct net_send *ns, struct strbuf *err)
{
	struct strbuf out = STRBUF_INIT;
	int ret = finish_relays(ns, err);

	if (ret)
		return ret;
	if (ns->listening)
		return agent_close(ns, err);
	ret = net_encode_simple(&out, NET_CLOSE);

	if (!ret)
		ret = net_conn_write_all(ns->conn, out.buf, out.len);
	if (ret)
		fail(ns, err, ret, "sending CLOSE");
	strbuf_release(&out);
	return ret;
}

void net_send_free(struct net_send *ns)
{
	uint32_t cpu;

	if (!ns)
		return;
	for (cpu = 0; ns->data && cpu < ns->cpus; cpu++)
		if (ns->data[cpu] >= 0)
			close(ns->data[cpu]);
	/* Their local ends closed: the relays end once they sent what they hold. */
	finish_relays(ns, NULL);
	for (cpu = 0; ns->listening && cpu < ns->cpus; cpu++)
		if (ns->listening[cpu] >= 0)
			close(ns->listening[cpu]);
	free(ns->listening);
	if (ns->conn)
		net_conn_close(ns->conn);
	else if (ns->ctl >= 0)
		close(ns->ctl);
	free(ns->host);
	free(ns->data);
	free(ns->relays);
	free(ns);
}
