// SPDX-License-Identifier: GPL-2.0-only
/*
 * The listener's event loop: one thread, poll() over the listening socket, every session's
 * control connection and data channels, and a signalfd for SIGINT/SIGTERM. Nothing blocks on
 * a client, so a stalled or hostile client cannot hold up the others.
 */
#include <errno.h>
#include <netdb.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <time.h>
#include <unistd.h>

#include "listen.h"

#define SCRATCH_LEN	(256 * 1024)
#define TICK_MS		100
#define ACCEPT_PAUSE_MS	200

struct server {
	struct server_ctx ctx;
	int lfd;
	int sigfd;
	struct session **sessions;
	unsigned int nr, cap;
	struct pollfd *pfd;
	int *idx;
	struct session **owner;
	size_t pfd_cap;
	uint64_t accept_paused_until;
};

uint64_t listen_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

void listen_logf(struct listen_log *log, const char *fmt, ...)
{
	char stamp[32];
	struct tm tm;
	time_t now = time(NULL);
	va_list ap;

	if (!log->fp)
		return;
	localtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y-%m-%d %H:%M:%S", &tm);
	fprintf(log->fp, "%s ", stamp);
	va_start(ap, fmt);
	vfprintf(log->fp, fmt, ap);
	va_end(ap);
	fputc('\n', log->fp);
	fflush(log->fp);
}

static int open_listener(const struct listen_config *cfg, struct listen_log *log)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_PASSIVE };
	struct addrinfo *res, *rp;
	int fd = -1, one = 1, ret;

	ret = getaddrinfo(cfg->bind_addr, cfg->port, &hints, &res);
	if (ret) {
		fprintf(stderr, "ktrace listen: --bind %s -p %s: %s\n",
			cfg->bind_addr ? cfg->bind_addr : "(any)", cfg->port, gai_strerror(ret));
		return -EINVAL;
	}
	for (rp = res; rp; rp = rp->ai_next) {
		fd = socket(rp->ai_family, rp->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
		if (fd < 0)
			continue;
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (!bind(fd, rp->ai_addr, rp->ai_addrlen) && !listen(fd, 128))
			break;
		ret = -errno;
		close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	if (fd < 0)
		fprintf(stderr, "ktrace listen: cannot listen on %s port %s: %s\n",
			cfg->bind_addr ? cfg->bind_addr : "any address", cfg->port,
			strerror(ret ? -ret : EADDRNOTAVAIL));
	return fd < 0 ? (ret ? ret : -EADDRNOTAVAIL) : fd;
}

static void log_bound(const struct listen_config *cfg, int fd, struct listen_log *log)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	char host[NI_MAXHOST], serv[NI_MAXSERV];

	if (getsockname(fd, (struct sockaddr *)&ss, &len) ||
	    getnameinfo((struct sockaddr *)&ss, len, host, sizeof(host), serv, sizeof(serv),
			NI_NUMERICHOST | NI_NUMERICSERV))
		return;
	/* After daemon(): the pid is the one to signal. */
	listen_logf(log, "listening on %s port %s (pid %d)", host, serv, (int)getpid());
	if (cfg->debug)
		listen_logf(log, "Create listen port: %s fd:%d", serv, fd);
}

static int open_signals(void)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	if (sigprocmask(SIG_BLOCK, &set, NULL))
		return -errno;
	signal(SIGPIPE, SIG_IGN);
	return signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
}

static int allowed(const struct listen_config *cfg, const struct sockaddr *peer)
{
	unsigned int i;

	for (i = 0; i < cfg->nr_allow; i++)
		if (net_cidr_match(&cfg->allow[i], peer))
			return 1;
	return !cfg->nr_allow;
}

/* "HOST:PORT" of a peer, numeric: a refused client gets no name lookup. */
static void peer_name(const struct sockaddr *peer, socklen_t len, char *buf, size_t size)
{
	char host[NI_MAXHOST], serv[NI_MAXSERV];

	if (getnameinfo(peer, len, host, sizeof(host), serv, sizeof(serv),
			NI_NUMERICHOST | NI_NUMERICSERV))
		snprintf(buf, size, "(unknown)");
	else
		snprintf(buf, size, "%s:%s", host, serv);
}

static void accept_clients(struct server *srv)
{
	char name[NI_MAXHOST + NI_MAXSERV + 2];
	const struct listen_config *cfg = srv->ctx.cfg;
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	struct session *s;
	int fd;

	fd = accept4(srv->lfd, (struct sockaddr *)&ss, &len, SOCK_NONBLOCK | SOCK_CLOEXEC);
	if (fd < 0) {
		if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
			listen_logf(srv->ctx.log, "cannot accept a client: %s", strerror(errno));
			srv->accept_paused_until = listen_now_ms() + ACCEPT_PAUSE_MS;
		}
		return;
	}
	/* Before a byte is read or a name looked up. */
	if (!allowed(cfg, (struct sockaddr *)&ss)) {
		peer_name((struct sockaddr *)&ss, len, name, sizeof(name));
		listen_logf(srv->ctx.log, "%s: refused: outside every --allow range; nothing written", name);
		close(fd);
		return;
	}
	if (srv->nr >= cfg->max_clients) {
		listen_logf(srv->ctx.log, "refused a client: %u clients already (--max-clients)",
			    srv->nr);
		close(fd);
		return;
	}
	if (srv->nr == srv->cap) {
		unsigned int cap = srv->cap ? srv->cap * 2 : 16;
		struct session **n = realloc(srv->sessions, cap * sizeof(*n));

		if (!n) {
			close(fd);
			return;
		}
		srv->sessions = n;
		srv->cap = cap;
	}
	/* The session owns fd, even when it fails */
	s = session_new(&srv->ctx, fd, (struct sockaddr *)&ss, len);
	if (!s)
		return;
	srv->sessions[srv->nr++] = s;
}

static int grow_pollfds(struct server *srv, size_t want)
{
	if (want <= srv->pfd_cap)
		return 0;
	want *= 2;
	srv->pfd = realloc(srv->pfd, want * sizeof(*srv->pfd));
	srv->idx = realloc(srv->idx, want * sizeof(*srv->idx));
	srv->owner = realloc(srv->owner, want * sizeof(*srv->owner));
	if (!srv->pfd || !srv->idx || !srv->owner)
		return -ENOMEM;
	srv->pfd_cap = want;
	return 0;
}

/*
 * Index 0 is the signalfd, 1 the listening socket (or -1 while accepting is paused). *pending
 * is set when TLS holds decrypted bytes of a descriptor: poll() must not wait then.
 */
static int build_pollfds(struct server *srv, uint64_t now, int *pending)
{
	size_t want = 2, n = 2;
	unsigned int i;
	int k, got;

	for (i = 0; i < srv->nr; i++)
		want += (size_t)session_nr_fds(srv->sessions[i]);
	if (grow_pollfds(srv, want))
		return -ENOMEM;
	srv->pfd[0] = (struct pollfd){ .fd = srv->sigfd, .events = POLLIN };
	srv->pfd[1] = (struct pollfd){ .fd = now < srv->accept_paused_until ? -1 : srv->lfd,
				       .events = POLLIN };
	for (i = 0; i < srv->nr; i++) {
		got = session_pollfds(srv->sessions[i], srv->pfd + n, srv->idx + n,
				      (int)(srv->pfd_cap - n));
		for (k = 0; k < got; k++) {
			srv->owner[n + (size_t)k] = srv->sessions[i];
			*pending |= session_pending(srv->sessions[i], srv->idx[n + (size_t)k]);
		}
		n += (size_t)got;
	}
	return (int)n;
}

static void reap(struct server *srv, uint64_t now)
{
	unsigned int i = 0;

	while (i < srv->nr) {
		if (session_tick(srv->sessions[i], now)) {
			session_free(srv->sessions[i]);
			srv->sessions[i] = srv->sessions[--srv->nr];
		} else {
			i++;
		}
	}
}

static int serve(struct server *srv)
{
	int n, i, ret, pending;

	for (;;) {
		pending = 0;
		n = build_pollfds(srv, listen_now_ms(), &pending);
		if (n < 0)
			return n;
		ret = poll(srv->pfd, (nfds_t)n, pending ? 0 : TICK_MS);
		if (ret < 0 && errno != EINTR)
			return -errno;
		if (ret > 0 && srv->pfd[0].revents) {
			listen_logf(srv->ctx.log, "stopping on signal");
			return 0;
		}
		if (ret > 0 && srv->pfd[1].revents)
			accept_clients(srv);
		for (i = 2; (ret > 0 || pending) && i < n; i++) {
			if (pending && session_pending(srv->owner[i], srv->idx[i]))
				srv->pfd[i].revents |= POLLIN;
			if (srv->pfd[i].revents)
				session_event(srv->owner[i], srv->idx[i], srv->pfd[i].revents);
		}
		reap(srv, listen_now_ms());
	}
}

static void server_release(struct server *srv)
{
	unsigned int i;

	for (i = 0; i < srv->nr; i++) {
		session_stop(srv->sessions[i]);
		session_free(srv->sessions[i]);
	}
	free(srv->sessions);
	free(srv->pfd);
	free(srv->idx);
	free(srv->owner);
	free(srv->ctx.scratch);
	server_ctx_release_codecs(&srv->ctx);
	net_tls_free(srv->ctx.tls);
	if (srv->lfd >= 0)
		close(srv->lfd);
	if (srv->sigfd >= 0)
		close(srv->sigfd);
}

int listen_server_run(const struct listen_config *cfg, int dir_fd, struct listen_log *log)
{
	struct server srv = { .ctx = { .cfg = cfg, .dir_fd = dir_fd, .log = log,
				       .scratch_len = SCRATCH_LEN }, .lfd = -1, .sigfd = -1 };
	struct strbuf err = STRBUF_INIT;
	int ret;

	/* The certificates are checked before anything else: a typo fails at once. */
	if (net_tls_wanted(&cfg->tls) && (ret = net_tls_new(&cfg->tls, true, &srv.ctx.tls, &err))) {
		fprintf(stderr, "ktrace listen: %s\n", err.len ? strbuf_str(&err) : strerror(-ret));
		strbuf_release(&err);
		return ret;
	}
	srv.lfd = open_listener(cfg, log);
	if (srv.lfd < 0) {
		net_tls_free(srv.ctx.tls);
		return srv.lfd;
	}
	/* Once the port is ours, and while a daemon still has a terminal to say it on. */
	listen_recover_dir(dir_fd, log);
	srv.sigfd = open_signals();
	srv.ctx.scratch = malloc(SCRATCH_LEN);
	ret = srv.sigfd < 0 ? srv.sigfd : srv.ctx.scratch ? 0 : -ENOMEM;
	if (!ret && cfg->daemonize && daemon(1, 0))
		ret = -errno;
	if (!ret) {
		log_bound(cfg, srv.lfd, log);
		if (srv.ctx.tls)
			listen_logf(log, "clients must speak TLS%s", cfg->tls.psk ?
				    " with the pre-shared key" : cfg->tls.ca ?
				    " and show a certificate signed by --tls-ca" : "");
		ret = serve(&srv);
	}
	/* Every failure is reported here, once. */
	if (ret)
		fprintf(stderr, "ktrace listen: %s\n", strerror(-ret));
	server_release(&srv);
	return ret;
}
