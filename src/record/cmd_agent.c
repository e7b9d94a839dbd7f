// SPDX-License-Identifier: GPL-2.0-only
/*
 * ktrace agent: runs in a guest and records for the host's `record -A` (ktrace's or
 * trace-cmd's), as `trace-cmd agent` does: it listens on vsock (or TCP with -N), takes one
 * host at a time, and runs record with the options the host sent (record_agent.h), in a child
 * process so that each recording gets its own session and its undo.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/vm_sockets.h>
#include <netdb.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ktrace/command.h"
#include "ktrace/net_agent.h"
#include "ktrace/net_cidr.h"
#include "ktrace/net_conn.h"
#include "ktrace/options.h"
#include "record_agent.h"

/* A host that connects and says nothing does not hold the agent. */
#define REQUEST_TIMEOUT_S	30

enum {
	OPT_VERBOSE = 256,
	OPT_ALLOW,
	OPT_DEBUG,
	OPT_NOTIMEOUT,
};

struct agent_config {
	unsigned int port;
	const char *network;		/* -N: TCP, and the one host allowed */
	bool daemonize;
	int proxy_cid;			/* -P, -1 when not a proxy */
	bool verbose;
	struct net_cidr *allow;
	unsigned int nr_allow;
};

static int bad_value(const char *flag, const char *arg, const char *why)
{
	return kt_option_error("agent", flag, arg, why);
}

static int parse_uint(const char *s, unsigned long max, unsigned long *out)
{
	char *end;

	errno = 0;
	*out = strtoul(s, &end, 10);
	return errno || end == s || *end || *s == '-' || *out > max ? -EINVAL : 0;
}

static int set_option(void *ctx, int id, const char *arg)
{
	struct agent_config *cfg = ctx;
	unsigned long v;
	int ret;

	switch (id) {
	case 'p':
		if (parse_uint(arg, 0xffffffffUL, &v) || !v)
			return bad_value("-p", arg, "expected a port number");
		cfg->port = (unsigned int)v;
		return 0;
	case 'N':
		cfg->network = arg;
		return 0;
	case 'D':
		cfg->daemonize = true;
		return 0;
	case 'P':
		if (parse_uint(arg, 0xffffffffUL, &v))
			return bad_value("-P", arg, "expected a vsock CID");
		cfg->proxy_cid = (int)v;
		return 0;
	case OPT_VERBOSE:
		cfg->verbose = true;
		return 0;
	case OPT_DEBUG:
	case OPT_NOTIMEOUT:
		return 0;
	case OPT_ALLOW:
		ret = net_cidr_list_add(&cfg->allow, &cfg->nr_allow, arg);
		if (ret == -EINVAL)
			return bad_value("--allow", arg, "expected ADDRESS[/PREFIX], IPv4 or IPv6");
		return ret;
	}
	return -EINVAL;
}

static const struct kt_option agent_options[] = {
	KT_OPT('p', "port", KT_ARG_REQUIRED, "PORT", "port to listen on (default 823)"),
	KT_OPT('N', NULL, KT_ARG_REQUIRED, "HOST",
	       "TCP instead of vsock, serving only HOST (an address or a name)"),
	KT_OPT('D', NULL, KT_ARG_NONE, NULL, "run as a daemon"),
	KT_OPT('P', NULL, KT_ARG_REQUIRED, "CID", "proxy for the host of vsock CID"),
	KT_OPT(OPT_VERBOSE, "verbose", KT_ARG_OPTIONAL, "LEVEL", "say which host connects"),
	KT_OPT(OPT_ALLOW, "allow", KT_ARG_REQUIRED, "CIDR",
	       "serve only hosts in CIDR (repeatable; IPv4 or IPv6, e.g. 10.0.0.0/8)"),
	KT_OPT(OPT_DEBUG, "debug", KT_ARG_NONE, NULL, "accepted, as trace-cmd's"),
	KT_OPT(OPT_NOTIMEOUT, "notimeout", KT_ARG_NONE, NULL, "accepted, as trace-cmd's"),
	{ 0 },
};

static const struct kt_command_help agent_help = {
	.name = "agent",
	.usage = "[-p PORT] [-N HOST] [-D] [-P CID] [--verbose] [--allow CIDR]",
	.summary = "record for a host's 'record -A' (run in the guest)",
	.options = agent_options,
	.option = set_option,
};

static void describe(const struct sockaddr_storage *ss, char *buf, size_t len)
{
	if (ss->ss_family == AF_VSOCK) {
		snprintf(buf, len, "host @%u", ((const struct sockaddr_vm *)ss)->svm_cid);
		return;
	}
	memcpy(buf, "host ", 5);
	if (getnameinfo((const struct sockaddr *)ss, sizeof(*ss), buf + 5, (socklen_t)(len - 5),
			NULL, 0, NI_NUMERICHOST))
		snprintf(buf, len, "host ?");
}

/* trace-cmd's -N: the client's address must be one HOST resolves to. */
static bool is_network_host(const char *host, const struct sockaddr_storage *peer)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *res = NULL, *ai;
	struct sockaddr_storage a;
	bool match = false;

	if (getaddrinfo(host, NULL, &hints, &res))
		return false;
	for (ai = res; ai && !match; ai = ai->ai_next) {
		memcpy(&a, peer, sizeof(a));
		if (ai->ai_family == AF_INET && peer->ss_family == AF_INET)
			match = !memcmp(&((struct sockaddr_in *)ai->ai_addr)->sin_addr,
					&((struct sockaddr_in *)&a)->sin_addr, 4);
		else if (ai->ai_family == AF_INET6 && peer->ss_family == AF_INET6)
			match = !memcmp(&((struct sockaddr_in6 *)ai->ai_addr)->sin6_addr,
					&((struct sockaddr_in6 *)&a)->sin6_addr, 16);
	}
	freeaddrinfo(res);
	return match;
}

static bool allowed(const struct agent_config *cfg, const struct sockaddr_storage *peer)
{
	unsigned int i;

	if (cfg->network && !is_network_host(cfg->network, peer))
		return false;
	if (!cfg->nr_allow)
		return true;
	for (i = 0; i < cfg->nr_allow; i++)
		if (net_cidr_match(&cfg->allow[i], (const struct sockaddr *)peer))
			return true;
	return false;
}

static int open_listener(const struct agent_config *cfg, int *out)
{
	struct sockaddr_in6 in6 = { .sin6_family = AF_INET6, .sin6_addr = IN6ADDR_ANY_INIT,
				    .sin6_port = htons((uint16_t)cfg->port) };
	struct sockaddr_in in4 = { .sin_family = AF_INET, .sin_port = htons((uint16_t)cfg->port) };
	struct sockaddr_vm vm = { .svm_family = AF_VSOCK, .svm_cid = VMADDR_CID_ANY,
				  .svm_port = cfg->port };
	int one = 1, fd;

	if (!cfg->network) {
		fd = socket(AF_VSOCK, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fd >= 0 && !bind(fd, (struct sockaddr *)&vm, sizeof(vm)) && !listen(fd, 5)) {
			*out = fd;
			return 0;
		}
		fprintf(stderr, "ktrace agent: vsock port %u: %s (no vsock here? -N HOST is TCP)\n",
			cfg->port, strerror(errno));
	} else {
		if (cfg->port > 65535)
			return kt_option_error("agent", "-p", "", "a TCP port is 1 to 65535");
		fd = socket(AF_INET6, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fd >= 0) {
			setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
			if (!bind(fd, (struct sockaddr *)&in6, sizeof(in6)) && !listen(fd, 5)) {
				*out = fd;
				return 0;
			}
			close(fd);
		}
		fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fd >= 0) {
			setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
			if (!bind(fd, (struct sockaddr *)&in4, sizeof(in4)) && !listen(fd, 5)) {
				*out = fd;
				return 0;
			}
		}
		fprintf(stderr, "ktrace agent: TCP port %u: %s\n", cfg->port, strerror(errno));
	}
	if (fd >= 0)
		close(fd);
	return -errno;
}

/* An IPv4 host on the dual-stack socket, as a plain IPv4 address. */
static void unmap_v4(struct sockaddr_storage *ss)
{
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)ss;
	struct sockaddr_in in4 = { .sin_family = AF_INET, .sin_port = in6->sin6_port };

	if (ss->ss_family != AF_INET6 || !IN6_IS_ADDR_V4MAPPED(&in6->sin6_addr))
		return;
	memcpy(&in4.sin_addr, &in6->sin6_addr.s6_addr[12], 4);
	memset(ss, 0, sizeof(*ss));
	memcpy(ss, &in4, sizeof(in4));
}

static int read_request(struct net_conn *conn, const char *peer, struct net_trace_req *req)
{
	struct timeval tv = { .tv_sec = REQUEST_TIMEOUT_S };
	uint8_t *buf = malloc(NET_MSG_MAX_LEN);
	struct net_msg msg;
	int ret;

	setsockopt(net_conn_fd(conn), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	ret = buf ? net_conn_recv_msg(conn, buf, &msg) : -ENOMEM;
	if (ret == -ENOMSG)
		ret = -EBADMSG;		/* whatever did not parse is a bad message here */
	if (!ret && msg.cmd != NET_TRACE_REQ) {
		fprintf(stderr, "ktrace agent: %s sent %s, not TRACE_REQ%s\n", peer,
			net_cmd_name(msg.cmd), msg.cmd == NET_TRACE_PROXY ? " (proxy mode, -P)" : "");
		ret = -EPROTO;
	} else if (!ret) {
		ret = net_trace_req_parse(&msg, req);
	}
	if (ret && ret != -EPROTO)
		fprintf(stderr, "ktrace agent: %s: reading its trace request: %s\n", peer,
			ret == -EAGAIN ? "timed out" : strerror(-ret));
	free(buf);
	return ret;
}

/* The child: one host's recording. Never returns. */
static void serve_host(const struct agent_config *cfg, int fd, const char *peer)
{
	struct net_conn *conn = net_conn_new(fd, NULL, NULL);
	struct net_trace_req req;
	int ret;

	if (!conn || read_request(conn, peer, &req)) {
		net_conn_close(conn);
		_exit(1);
	}
	if (cfg->verbose) {
		fprintf(stderr, "ktrace agent: %s asks to record:", peer);
		for (ret = 0; ret < req.argc; ret++)
			fprintf(stderr, " %s", req.argv[ret]);
		fprintf(stderr, "\n");
	}
	ret = record_agent_serve(conn, peer, &req, net_trace_id_new());
	net_trace_req_release(&req);
	fflush(NULL);
	_exit(ret > 255 ? 1 : ret);
}

struct agent_state {
	pid_t child;			/* the recording in progress, 0 when idle */
	int sig_fd;
	sigset_t old_mask;		/* the child's, as the agent was started */
};

static void reap(struct agent_state *st, bool wait)
{
	int status;

	while (st->child && waitpid(st->child, &status, wait ? 0 : WNOHANG) == st->child)
		st->child = 0;
}

static void take_host(const struct agent_config *cfg, struct agent_state *st, int lfd)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	char peer[80];
	int fd = accept4(lfd, (struct sockaddr *)&ss, &len, SOCK_CLOEXEC);

	if (fd < 0)
		return;
	unmap_v4(&ss);
	describe(&ss, peer, sizeof(peer));
	if (!allowed(cfg, &ss) || st->child) {
		if (cfg->verbose)
			fprintf(stderr, "ktrace agent: %s refused (%s)\n", peer,
				st->child ? "busy with another host" : "not allowed");
		close(fd);
		return;
	}
	if (cfg->verbose)
		fprintf(stderr, "ktrace agent: %s connected\n", peer);
	fflush(NULL);
	st->child = fork();
	if (st->child == 0) {
		close(lfd);
		close(st->sig_fd);
		sigprocmask(SIG_SETMASK, &st->old_mask, NULL);
		serve_host(cfg, fd, peer);
	}
	if (st->child < 0) {
		fprintf(stderr, "ktrace agent: cannot fork for %s: %s\n", peer, strerror(errno));
		st->child = 0;
	}
	close(fd);
}

/*
 * Stop signals end the agent: a recording in progress gets SIGTERM, which its session turns
 * into a normal stop and undo, and is waited for.
 */
static int serve(const struct agent_config *cfg, int lfd)
{
	struct agent_state st = { 0 };
	sigset_t set;
	int ret = 0;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGCHLD);
	sigprocmask(SIG_BLOCK, &set, &st.old_mask);
	st.sig_fd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	if (st.sig_fd < 0)
		return -errno;
	for (;;) {
		struct pollfd pfd[2] = { { .fd = lfd, .events = POLLIN },
					 { .fd = st.sig_fd, .events = POLLIN } };
		struct signalfd_siginfo si;

		if (poll(pfd, 2, -1) < 0 && errno != EINTR) {
			ret = -errno;
			break;
		}
		if (pfd[1].revents && read(st.sig_fd, &si, sizeof(si)) == sizeof(si) &&
		    si.ssi_signo != SIGCHLD)
			break;
		reap(&st, false);
		if (pfd[0].revents)
			take_host(cfg, &st, lfd);
	}
	if (st.child)
		kill(st.child, SIGTERM);
	reap(&st, true);
	close(st.sig_fd);
	sigprocmask(SIG_SETMASK, &st.old_mask, NULL);
	return ret;
}

int cmd_agent(int argc, char **argv)
{
	struct agent_config cfg = { .port = NET_AGENT_PORT, .proxy_cid = -1 };
	int lfd = -1, ret = kt_parse_options(&agent_help, argc, argv, &cfg, NULL);

	if (!ret && cfg.proxy_cid >= 0)
		ret = kt_usage_error("agent", "-P", NULL,
				     "proxy mode is not supported yet (the guest-side protocol only)");
	if (!ret)
		ret = kt_result_of(open_listener(&cfg, &lfd));
	if (!ret && !cfg.network) {
		unsigned int cid = VMADDR_CID_ANY;
		int vfd = open("/dev/vsock", O_RDONLY | O_CLOEXEC);

		if (vfd >= 0) {
			ioctl(vfd, IOCTL_VM_SOCKETS_GET_LOCAL_CID, &cid);
			close(vfd);
		}
		printf("listening on @%u:%u\n", cid, cfg.port);
		fflush(stdout);
	}
	if (!ret && cfg.daemonize && daemon(1, 0)) {
		fprintf(stderr, "ktrace agent: -D: %s\n", strerror(errno));
		ret = KT_ERR_FAILED;
	}
	if (!ret && serve(&cfg, lfd)) {
		fprintf(stderr, "ktrace agent: %s\n", strerror(errno));
		ret = KT_ERR_FAILED;
	}
	if (lfd >= 0)
		close(lfd);
	free(cfg.allow);
	return ret;
}
