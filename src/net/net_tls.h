/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_NET_TLS_PRIV_H
#define KTRACE_NET_TLS_PRIV_H

/* Private to src/net: what net_tls.c and net_conn.c share of struct net_tls. */
#include <stdbool.h>
#include <stdlib.h>
#include <openssl/ssl.h>

struct net_tls {
	SSL_CTX *ctx;
	BIO_METHOD *bio;	/* sockets read and written without SIGPIPE (net_conn.c) */
	bool server;
	bool psk_mode;
	unsigned char psk[32];
	size_t psk_len;
};

/* The BIO every connection's socket is wrapped in; NULL when out of memory. */
BIO_METHOD *net_tls_bio_method(void);
/* The reason of OpenSSL's last error on this thread, in words. */
const char *net_tls_error_string(void);

#endif
