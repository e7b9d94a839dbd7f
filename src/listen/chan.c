// SPDX-License-Identifier: GPL-2.0-only
/*
 * Per-CPU data channels of a `record -N` session. The client streams raw ring-buffer pages
 * over one TCP connection or UDP socket per CPU; they go to a hidden file in the output
 * directory, named after the session's ".part" file, until the file is assembled: a listener
 * killed mid-stream leaves them for the next one to recover (recover.c).
 */
#define _FILE_OFFSET_BITS 64
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/param.h>
#include <sys/socket.h>
#include <unistd.h>

#include "listen.h"

#define UDP_RCVBUF	(8 << 20)

int chan_file_open(int dir_fd, const char *name)
{
	char tmp[96];
	int fd;

	if (name) {
		/* The session holds its ".part" lock: a file of this name is a stale one. */
		unlinkat(dir_fd, name, 0);
		fd = openat(dir_fd, name, O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC | O_NOFOLLOW, 0600);
		return fd >= 0 ? fd : -errno;
	}
	fd = openat(dir_fd, ".", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd >= 0 || (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL))
		return fd >= 0 ? fd : -errno;
	/* No O_TMPFILE here: a hidden name, unlinked at once. */
	snprintf(tmp, sizeof(tmp), ".ktrace-listen.%d.%p.tmp", (int)getpid(), (void *)&fd);
	fd = openat(dir_fd, tmp, O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		return -errno;
	unlinkat(dir_fd, tmp, 0);
	return fd;
}

static int bind_like(int fd, int ctl_fd, unsigned int *port)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);

	if (getsockname(ctl_fd, (struct sockaddr *)&ss, &len))
		return -errno;
	if (ss.ss_family == AF_INET)
		((struct sockaddr_in *)&ss)->sin_port = 0;
	else if (ss.ss_family == AF_INET6)
		((struct sockaddr_in6 *)&ss)->sin6_port = 0;
	else
		return -EAFNOSUPPORT;
	if (bind(fd, (struct sockaddr *)&ss, len))
		return -errno;
	len = sizeof(ss);
	if (getsockname(fd, (struct sockaddr *)&ss, &len))
		return -errno;
	*port = ntohs(ss.ss_family == AF_INET ? ((struct sockaddr_in *)&ss)->sin_port :
			((struct sockaddr_in6 *)&ss)->sin6_port);
	return 0;
}

int chan_open(struct chan *c, struct server_ctx *srv, int ctl_fd, int udp, uint32_t page,
	      const char *path)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	int fd, ret, rcvbuf = UDP_RCVBUF;

	memset(c, 0, sizeof(*c));
	c->lfd = c->fd = c->tmp = -1;
	c->udp = udp;
	c->page = page;
	c->tls = srv->tls;
	if (getsockname(ctl_fd, (struct sockaddr *)&ss, &len))
		return -errno;
	fd = socket(ss.ss_family, (udp ? SOCK_DGRAM : SOCK_STREAM) | SOCK_NONBLOCK | SOCK_CLOEXEC,
		    0);
	if (fd < 0)
		return -errno;
	ret = bind_like(fd, ctl_fd, &c->port);
	if (!ret && !udp && listen(fd, 1))
		ret = -errno;
	/* UDP loses what does not fit: ask for room for bursts (the kernel caps it). */
	if (!ret && udp)
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	if (ret) {
		close(fd);
		return ret;
	}
	if (udp)
		c->fd = fd;
	else
		c->lfd = fd;
	c->path = strdup(path);
	if (!c->path)
		return -ENOMEM;
	c->tmp = chan_file_open(srv->dir_fd, c->path);
	return c->tmp < 0 ? c->tmp : 0;
}

static int same_host(const struct sockaddr *a, const struct sockaddr_storage *b)
{
	if (a->sa_family != b->ss_family)
		return 0;
	if (a->sa_family == AF_INET)
		return ((const struct sockaddr_in *)a)->sin_addr.s_addr ==
		       ((const struct sockaddr_in *)b)->sin_addr.s_addr;
	return !memcmp(&((const struct sockaddr_in6 *)a)->sin6_addr,
		       &((const struct sockaddr_in6 *)b)->sin6_addr, sizeof(struct in6_addr));
}

static int accept_data(struct chan *c, const struct sockaddr *peer, const char **why)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	int fd = accept4(c->lfd, (struct sockaddr *)&ss, &len, SOCK_NONBLOCK | SOCK_CLOEXEC);

	if (fd < 0)
		return errno == EAGAIN || errno == EINTR || errno == ECONNABORTED ? 0 : -errno;
	if (!same_host(peer, &ss)) {
		close(fd);
		*why = "refused a data connection from another host";
		return 0;
	}
	close(c->lfd);
	c->lfd = -1;
	c->conn = net_conn_new(fd, c->tls, NULL);
	if (!c->conn)
		return -ENOMEM;
	c->fd = fd;
	return 0;
}

/* The first datagram's sender must be the client's host; then the socket is tied to it. */
static int udp_check_peer(struct chan *c, const struct sockaddr *peer,
			  const struct sockaddr_storage *ss, socklen_t len, const char **why)
{
	if (c->peer_set)
		return 1;
	if (!same_host(peer, ss)) {
		*why = "dropped a datagram from another host";
		return 0;
	}
	/* From now on the kernel drops datagrams from anyone else. */
	if (connect(c->fd, (const struct sockaddr *)ss, len))
		return -errno;
	c->peer_set = 1;
	return 1;
}

/*
 * Every datagram waiting, up to the scratch buffer, stored in one go: one datagram per turn of
 * the event loop loses most of the data once a few dozen sockets are busy.
 */
static int64_t recv_udp(struct chan *c, struct server_ctx *srv, const struct sockaddr *peer,
			uint64_t room, const char **why)
{
	struct sockaddr_storage ss;
	socklen_t len;
	size_t got = 0, tries;
	ssize_t n;
	int ret;

	/*
	 * Room for one byte more than a page tells a longer datagram from a page; pages larger
	 * than scratch cannot come as datagrams, but the first read still takes one off.
	 */
	for (tries = 0; tries < 128 && (!tries || got + c->page < srv->scratch_len); tries++) {
		len = sizeof(ss);
		n = recvfrom(c->fd, srv->scratch + got, MIN(c->page + 1, srv->scratch_len - got), 0,
			     (struct sockaddr *)&ss, &len);
		if (n < 0 && (errno == EAGAIN || errno == EINTR || errno == ECONNREFUSED))
			break;
		if (n < 0)
			return -errno;
		ret = udp_check_peer(c, peer, &ss, len, why);
		if (ret < 0)
			return ret;
		if (!ret)
			continue;
		if ((uint64_t)n != c->page) {
			/* Pages must stay whole and aligned: a datagram that is not one page is noise. */
			if (!c->bad_datagrams++)
				*why = "dropped a datagram that is not one page (logged once per CPU)";
			continue;
		}
		got += c->page;
	}
	if (!got)
		return 0;
	if (got > room)
		return -EFBIG;
	return chan_store(c, srv, srv->scratch, got) ?: (int64_t)got;
}

int64_t chan_event(struct chan *c, struct server_ctx *srv, const struct sockaddr *peer,
		   uint64_t room, const char **why)
{
	ssize_t n;
	int ret;

	*why = NULL;
	if (c->lfd >= 0)
		return accept_data(c, peer, why);
	if (c->fd < 0)
		return 0;
	if (c->udp)
		return recv_udp(c, srv, peer, room, why);
	ret = net_conn_handshake(c->conn);
	if (ret == -EAGAIN)
		return 0;
	if (ret) {
		*why = net_conn_why(c->conn);
		return ret;
	}
	n = net_conn_read(c->conn, srv->scratch, srv->scratch_len);
	if (n == -EPROTO)
		*why = net_conn_why(c->conn);
	if (n < 0)
		return n == -EAGAIN || n == -EINTR ? 0 : n;
	if (!n) {
		net_conn_close(c->conn);
		c->conn = NULL;
		c->fd = -1;
		c->done = 1;
		return 0;
	}
	if ((uint64_t)n > room)
		return -EFBIG;
	ret = chan_store(c, srv, srv->scratch, (size_t)n);
	return ret ? ret : n;
}

int chan_settled(struct chan *c, const struct sockaddr *peer)
{
	const char *why = NULL;

	if (c->done || c->udp)
		return c->done;
	if (c->lfd >= 0) {
		/* A connection still in the backlog carries data: read it first. */
		if (accept_data(c, peer, &why) < 0 || c->fd < 0)
			c->done = 1;
	}
	return c->done;
}

void chan_close(struct chan *c)
{
	if (c->lfd >= 0)
		close(c->lfd);
	if (c->conn)
		net_conn_close(c->conn);
	else if (c->fd >= 0)
		close(c->fd);
	c->conn = NULL;
	if (c->tmp >= 0)
		close(c->tmp);
	c->lfd = c->fd = c->tmp = -1;
}

void chan_remove(struct chan *c, int dir_fd)
{
	if (c->path)
		unlinkat(dir_fd, c->path, 0);
	free(c->path);
	c->path = NULL;
}
