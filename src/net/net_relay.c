// SPDX-License-Identifier: GPL-2.0-only
/*
 * A relay thread (net_conn.h): what the recorders splice into the local end of a socket pair
 * goes through the connection. A relay that cannot send closes its end of the pair, so that
 * the recorder writing to it fails with EPIPE instead of blocking.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ktrace/net_conn.h"

#define RELAY_BUF	(256 * 1024)

struct net_relay {
	struct net_conn *conn;
	int far;		/* the relay's end of the pair */
	pthread_t thread;
	int err;
	char why[256];
};

static void *relay_main(void *arg)
{
	struct net_relay *r = arg;
	char *buf = malloc(RELAY_BUF);
	ssize_t n = buf ? 1 : -ENOMEM;
	int ret = 0;

	while (n > 0 && !ret) {
		n = read(r->far, buf, RELAY_BUF);
		if (n < 0 && errno == EINTR) {
			n = 1;
			continue;
		}
		if (n < 0)
			n = -errno;
		if (n > 0)
			ret = net_conn_write_all(r->conn, buf, (size_t)n);
	}
	ret = ret ? ret : (int)n;
	if (ret)
		snprintf(r->why, sizeof(r->why), "%s",
			 net_conn_why(r->conn)[0] ? net_conn_why(r->conn) : strerror(-ret));
	r->err = ret;
	close(r->far);
	r->far = -1;
	net_conn_close(r->conn);
	r->conn = NULL;
	free(buf);
	return NULL;
}

int net_relay_start(struct net_conn *conn, int *local_fd, struct net_relay **out)
{
	struct net_relay *r = calloc(1, sizeof(*r));
	sigset_t all, old;
	int pair[2], ret;

	if (!r || socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair)) {
		ret = r ? -errno : -ENOMEM;
		free(r);
		net_conn_close(conn);
		return ret;
	}
	r->conn = conn;
	r->far = pair[1];
	/* Signals stay with the main thread, which owns the stop logic. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	ret = -pthread_create(&r->thread, NULL, relay_main, r);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (ret) {
		close(pair[0]);
		close(pair[1]);
		net_conn_close(conn);
		free(r);
		return ret;
	}
	*local_fd = pair[0];
	*out = r;
	return 0;
}

int net_relay_finish(struct net_relay *r, struct strbuf *err)
{
	int ret;

	if (!r)
		return 0;
	pthread_join(r->thread, NULL);
	ret = r->err;
	if (ret && err)
		strbuf_addstr(err, r->why);
	free(r);
	return ret;
}
