// SPDX-License-Identifier: GPL-2.0-only
/* A protocol connection over plain TCP or TLS (net_conn.h). */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <openssl/err.h>
#include <openssl/x509v3.h>

#include "ktrace/net.h"
#include "ktrace/net_conn.h"
#include "net_tls.h"

#define WHY_MAX		200

struct net_conn {
	int fd;
	SSL *ssl;		/* NULL: plaintext */
	bool nonblocking;
	bool handshaken;
	short want;		/* what the last TLS step waits for */
	char why[WHY_MAX];
	char desc[WHY_MAX];
};

/*
 * OpenSSL's socket BIO writes with write(): a listener gone away would raise SIGPIPE, which
 * kills record before it puts tracefs back. This one sends with MSG_NOSIGNAL.
 */
static int bio_write(BIO *b, const char *buf, int len)
{
	int fd = (int)(intptr_t)BIO_get_data(b);
	ssize_t n = send(fd, buf, (size_t)len, MSG_NOSIGNAL);

	BIO_clear_retry_flags(b);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		BIO_set_retry_write(b);
	return (int)n;
}

static int bio_read(BIO *b, char *buf, int len)
{
	int fd = (int)(intptr_t)BIO_get_data(b);
	ssize_t n = recv(fd, buf, (size_t)len, 0);

	BIO_clear_retry_flags(b);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		BIO_set_retry_read(b);
	return (int)n;
}

static long bio_ctrl(BIO *b, int cmd, long num, void *ptr)
{
	return cmd == BIO_CTRL_FLUSH;
}

BIO_METHOD *net_tls_bio_method(void)
{
	BIO_METHOD *m = BIO_meth_new(BIO_get_new_index() | BIO_TYPE_SOURCE_SINK, "ktrace socket");

	if (m && (!BIO_meth_set_write(m, bio_write) || !BIO_meth_set_read(m, bio_read) ||
		  !BIO_meth_set_ctrl(m, bio_ctrl))) {
		BIO_meth_free(m);
		m = NULL;
	}
	return m;
}

/* The listener's certificate must name the host the client dialled: a name or an address. */
static int set_peer_name(SSL *ssl, const char *host)
{
	unsigned char addr[16];

	if (inet_pton(AF_INET, host, addr) == 1 || inet_pton(AF_INET6, host, addr) == 1)
		return X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), host) == 1 ? 0 : -EINVAL;
	if (SSL_set1_host(ssl, host) != 1 || SSL_set_tlsext_host_name(ssl, host) != 1)
		return -EINVAL;
	return 0;
}

struct net_conn *net_conn_new(int fd, struct net_tls *tls, const char *host)
{
	struct net_conn *c = calloc(1, sizeof(*c));
	BIO *bio = NULL;

	if (!c)
		goto fail;
	c->fd = fd;
	c->want = POLLIN;
	c->nonblocking = (fcntl(fd, F_GETFL) & O_NONBLOCK) != 0;
	if (!tls) {
		c->handshaken = true;
		return c;
	}
	c->ssl = SSL_new(tls->ctx);
	bio = c->ssl ? BIO_new(tls->bio) : NULL;
	if (!bio)
		goto fail;
	BIO_set_data(bio, (void *)(intptr_t)fd);
	BIO_set_init(bio, 1);
	SSL_set_bio(c->ssl, bio, bio);
	if (tls->server) {
		SSL_set_accept_state(c->ssl);
	} else {
		SSL_set_connect_state(c->ssl);
		if (!tls->psk_mode && host && set_peer_name(c->ssl, host))
			goto fail;
	}
	return c;
fail:
	if (c && c->ssl)
		SSL_free(c->ssl);
	free(c);
	close(fd);
	return NULL;
}

/* Why the handshake or a record failed: the certificate check's verdict when there is one. */
static void describe_failure(struct net_conn *c)
{
	long v = SSL_get_verify_result(c->ssl);
	int reason = ERR_GET_REASON(ERR_peek_last_error());

	if (reason == SSL_R_BINDER_DOES_NOT_VERIFY)
		snprintf(c->why, sizeof(c->why), "wrong pre-shared key");
	else if (reason == SSL_R_NO_SUITABLE_SIGNATURE_ALGORITHM && SSL_is_server(c->ssl) &&
		 !SSL_get_certificate(c->ssl))
		snprintf(c->why, sizeof(c->why), "the client has no pre-shared key "
			 "(this listener has --tls-psk, no certificate)");
	else if (v != X509_V_OK)
		snprintf(c->why, sizeof(c->why), "certificate refused: %s",
			 X509_verify_cert_error_string(v));
	else
		snprintf(c->why, sizeof(c->why), "%s", net_tls_error_string());
}

/* Maps the result r of an SSL call to the byte count, 0 (end), or negative errno. */
static ssize_t ssl_result(struct net_conn *c, int r, size_t n)
{
	int saved = errno;
	unsigned long e;

	if (r == 1)
		return (ssize_t)n;
	switch (SSL_get_error(c->ssl, r)) {
	case SSL_ERROR_WANT_READ:
		c->want = POLLIN;
		return -EAGAIN;
	case SSL_ERROR_WANT_WRITE:
		c->want = POLLOUT;
		return -EAGAIN;
	case SSL_ERROR_ZERO_RETURN:
		return 0;
	case SSL_ERROR_SYSCALL:
		snprintf(c->why, sizeof(c->why), "%s", saved ? strerror(saved) :
			 "the peer closed the connection");
		return saved ? -saved : -ECONNRESET;
	default:
		e = ERR_peek_last_error();
		/* A peer that died without the TLS close: the end of its stream, as TCP's FIN. */
		if (ERR_GET_REASON(e) == SSL_R_UNEXPECTED_EOF_WHILE_READING && c->handshaken)
			return 0;
		describe_failure(c);
		return -EPROTO;
	}
}

int net_conn_handshake(struct net_conn *c)
{
	ssize_t ret;

	if (c->handshaken)
		return 0;
	ERR_clear_error();
	errno = 0;
	ret = ssl_result(c, SSL_do_handshake(c->ssl), 0);
	if (!ret) {
		c->handshaken = true;
		c->want = POLLIN;
	} else if (ret == -ECONNRESET && !c->why[0]) {
		snprintf(c->why, sizeof(c->why), "the peer closed during the TLS handshake");
	}
	ERR_clear_error();
	return ret > 0 ? 0 : (int)ret;
}

short net_conn_events(const struct net_conn *c)
{
	return c->want;
}

ssize_t net_conn_read(struct net_conn *c, void *buf, size_t len)
{
	size_t got = 0, n;
	ssize_t ret;
	int r;

	if (!c->ssl) {
		ret = recv(c->fd, buf, len, 0);
		return ret < 0 ? -errno : ret;
	}
	/* One TLS record per call at most: go on while more is at hand. */
	do {
		ERR_clear_error();
		errno = 0;
		n = 0;
		r = SSL_read_ex(c->ssl, (char *)buf + got, len - got, &n);
		ret = ssl_result(c, r, n);
		if (ret > 0)
			got += (size_t)ret;
	} while (ret > 0 && got < len && (c->nonblocking || SSL_pending(c->ssl)));
	ERR_clear_error();
	if (ret == -EAGAIN)
		c->want = POLLIN;
	return got ? (ssize_t)got : ret;
}

ssize_t net_conn_write(struct net_conn *c, const void *buf, size_t len)
{
	size_t n = 0;
	ssize_t ret;
	int r;

	if (!c->ssl) {
		ret = send(c->fd, buf, len, MSG_NOSIGNAL);
		return ret < 0 ? -errno : ret;
	}
	ERR_clear_error();
	errno = 0;
	r = SSL_write_ex(c->ssl, buf, len, &n);
	ret = ssl_result(c, r, n);
	ERR_clear_error();
	return ret ? ret : -EPIPE;
}

int net_conn_write_all(struct net_conn *c, const void *buf, size_t len)
{
	const char *p = buf;
	ssize_t n;

	while (len) {
		n = net_conn_write(c, p, len);
		if (n == -EINTR)
			continue;
		if (n < 0)
			return (int)n;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int net_conn_read_all(struct net_conn *c, void *buf, size_t len)
{
	char *p = buf;
	ssize_t n;

	while (len) {
		n = net_conn_read(c, p, len);
		if (n == -EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? (int)n : -ECONNRESET;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int net_conn_recv_msg(struct net_conn *c, uint8_t *buf, struct net_msg *msg)
{
	uint32_t size;
	int ret = net_conn_read_all(c, buf, NET_MSG_HDR_LEN);

	if (ret)
		return ret;
	size = (uint32_t)buf[0] << 24 | (uint32_t)buf[1] << 16 | (uint32_t)buf[2] << 8 | buf[3];
	if (size < NET_MSG_HDR_LEN || size > NET_MSG_MAX_LEN)
		return -EMSGSIZE;
	ret = net_conn_read_all(c, buf + NET_MSG_HDR_LEN, size - NET_MSG_HDR_LEN);
	if (!ret)
		ret = net_msg_parse(buf, size, msg);
	return ret < 0 ? ret : 0;
}

size_t net_conn_pending(const struct net_conn *c)
{
	return c->ssl ? (size_t)SSL_pending(c->ssl) : 0;
}

int net_conn_fd(const struct net_conn *c)
{
	return c->fd;
}

bool net_conn_is_tls(const struct net_conn *c)
{
	return c->ssl != NULL;
}

const char *net_conn_why(const struct net_conn *c)
{
	return c->why;
}

const char *net_conn_describe(struct net_conn *c)
{
	X509 *peer;
	char cn[128] = "";

	if (!c->ssl)
		return "plaintext";
	peer = SSL_get1_peer_certificate(c->ssl);
	if (peer)
		X509_NAME_get_text_by_NID(X509_get_subject_name(peer), NID_commonName, cn,
					  sizeof(cn));
	if (peer)
		snprintf(c->desc, sizeof(c->desc), "%s, peer certificate CN=%s",
			 SSL_get_version(c->ssl), cn[0] ? cn : "(none)");
	else
		snprintf(c->desc, sizeof(c->desc), "%s, %s", SSL_get_version(c->ssl),
			 SSL_get_psk_identity(c->ssl) || SSL_session_reused(c->ssl) ?
			 "pre-shared key" : "no peer certificate");
	X509_free(peer);
	return c->desc;
}

void net_conn_close(struct net_conn *c)
{
	if (!c)
		return;
	if (c->ssl) {
		/* The TLS close tells the peer the stream ended here and was not cut. */
		if (c->handshaken)
			SSL_shutdown(c->ssl);
		SSL_free(c->ssl);
		ERR_clear_error();
	}
	if (c->fd >= 0)
		close(c->fd);
	free(c);
}
