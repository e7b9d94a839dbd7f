// SPDX-License-Identifier: GPL-2.0-only
/*
 * One TLS end's configuration (net_conn.h): an OpenSSL context holding our certificate, the
 * CAs the peer must be signed by, or a pre-shared key.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/ssl.h>

#include "ktrace/net_conn.h"
#include "net_tls.h"

/* The one identity a pre-shared key is offered under: the key itself is the secret. */
#define PSK_IDENTITY	"ktrace"
/* A key file shorter than this is a password, not a key. */
#define PSK_MIN_BYTES	16
#define PSK_MAX_FILE	4096

bool net_tls_wanted(const struct net_tls_opts *o)
{
	return o->enabled || o->cert || o->key || o->ca || o->psk;
}

const char *net_tls_error_string(void)
{
	unsigned long e = ERR_peek_last_error();
	const char *r = e ? ERR_reason_error_string(e) : NULL;

	return r ? r : "unknown TLS error";
}

static int bad_file(struct strbuf *err, const char *flag, const char *file, const char *why)
{
	strbuf_addf(err, "%s %s: %s", flag, file, why);
	ERR_clear_error();
	return -EINVAL;
}

static unsigned int psk_client(SSL *ssl, const char *hint, char *identity,
			       unsigned int max_identity, unsigned char *psk, unsigned int max_psk)
{
	const struct net_tls *tls = SSL_CTX_get_app_data(SSL_get_SSL_CTX(ssl));

	if (sizeof(PSK_IDENTITY) > max_identity || tls->psk_len > max_psk)
		return 0;
	memcpy(identity, PSK_IDENTITY, sizeof(PSK_IDENTITY));
	memcpy(psk, tls->psk, tls->psk_len);
	return (unsigned int)tls->psk_len;
}

static unsigned int psk_server(SSL *ssl, const char *identity, unsigned char *psk,
			       unsigned int max_psk)
{
	const struct net_tls *tls = SSL_CTX_get_app_data(SSL_get_SSL_CTX(ssl));

	if (!identity || strcmp(identity, PSK_IDENTITY) || tls->psk_len > max_psk)
		return 0;
	memcpy(psk, tls->psk, tls->psk_len);
	return (unsigned int)tls->psk_len;
}

/* The key is the SHA-256 of the file: any random bytes, text or binary, make one. */
static int load_psk(struct net_tls *tls, const char *path, struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT;
	unsigned int len = 0;
	int ret = strbuf_read_file(&sb, path);

	if (ret) {
		strbuf_release(&sb);
		return bad_file(err, "--tls-psk", path, strerror(-ret));
	}
	if (sb.len < PSK_MIN_BYTES || sb.len > PSK_MAX_FILE)
		ret = bad_file(err, "--tls-psk", path, "a key file holds 16 to 4096 bytes "
			       "(e.g. head -c 32 /dev/urandom)");
	else if (!EVP_Digest(sb.buf, sb.len, tls->psk, &len, EVP_sha256(), NULL))
		ret = bad_file(err, "--tls-psk", path, net_tls_error_string());
	tls->psk_len = len;
	OPENSSL_cleanse(sb.buf, sb.len);
	strbuf_release(&sb);
	return ret;
}

static int check_opts(const struct net_tls_opts *o, bool server, struct strbuf *err)
{
	if (o->psk && (o->cert || o->key || o->ca)) {
		strbuf_addstr(err, "--tls-psk replaces certificates: drop --tls-cert, --tls-key "
			      "and --tls-ca");
		return -EINVAL;
	}
	if (!o->cert != !o->key) {
		strbuf_addstr(err, o->cert ? "--tls-cert needs --tls-key" :
					     "--tls-key needs --tls-cert");
		return -EINVAL;
	}
	if (server && !o->psk && !o->cert) {
		strbuf_addstr(err, "TLS needs --tls-cert and --tls-key (or --tls-psk)");
		return -EINVAL;
	}
	return 0;
}

static int load_certs(struct net_tls *tls, const struct net_tls_opts *o, bool server,
		      struct strbuf *err)
{
	SSL_CTX *ctx = tls->ctx;

	/* OpenSSL says "system lib" for a missing file: say what the system said. */
	if (o->cert && access(o->cert, R_OK))
		return bad_file(err, "--tls-cert", o->cert, strerror(errno));
	if (o->key && access(o->key, R_OK))
		return bad_file(err, "--tls-key", o->key, strerror(errno));
	if (o->ca && access(o->ca, R_OK))
		return bad_file(err, "--tls-ca", o->ca, strerror(errno));
	if (o->cert && SSL_CTX_use_certificate_chain_file(ctx, o->cert) != 1)
		return bad_file(err, "--tls-cert", o->cert, net_tls_error_string());
	if (o->key && SSL_CTX_use_PrivateKey_file(ctx, o->key, SSL_FILETYPE_PEM) != 1)
		return bad_file(err, "--tls-key", o->key, net_tls_error_string());
	if (o->key && SSL_CTX_check_private_key(ctx) != 1)
		return bad_file(err, "--tls-key", o->key, "does not match --tls-cert");
	if (o->ca && SSL_CTX_load_verify_locations(ctx, o->ca, NULL) != 1)
		return bad_file(err, "--tls-ca", o->ca, net_tls_error_string());
	if (server && o->ca) {
		STACK_OF(X509_NAME) *names = SSL_load_client_CA_file(o->ca);

		if (names)
			SSL_CTX_set_client_CA_list(ctx, names);
		SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT, NULL);
	} else if (!server) {
		/* Never unverified: without --tls-ca, the CAs the system trusts. */
		if (!o->ca && SSL_CTX_set_default_verify_paths(ctx) != 1)
			return bad_file(err, "--tls", "", "cannot load the system's CAs");
		SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, NULL);
	}
	return 0;
}

int net_tls_new(const struct net_tls_opts *o, bool server, struct net_tls **out,
		struct strbuf *err)
{
	struct net_tls *tls;
	int ret = check_opts(o, server, err);

	if (ret)
		return ret;
	tls = calloc(1, sizeof(*tls));
	if (!tls)
		return -ENOMEM;
	tls->server = server;
	tls->psk_mode = o->psk != NULL;
	tls->ctx = SSL_CTX_new(server ? TLS_server_method() : TLS_client_method());
	tls->bio = net_tls_bio_method();
	if (!tls->ctx || !tls->bio) {
		net_tls_free(tls);
		return -ENOMEM;
	}
	SSL_CTX_set_app_data(tls->ctx, tls);
	/* A pre-shared key is used as TLS 1.3 has it: with a fresh (EC)DHE exchange. */
	SSL_CTX_set_min_proto_version(tls->ctx, o->psk ? TLS1_3_VERSION : TLS1_2_VERSION);
	SSL_CTX_set_mode(tls->ctx, SSL_MODE_ENABLE_PARTIAL_WRITE |
			 SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
	/*
	 * No session tickets: the client reads nothing from the listener once the setup is over
	 * and takes anything readable on the control connection for the listener hanging up.
	 */
	SSL_CTX_set_num_tickets(tls->ctx, 0);
	SSL_CTX_set_session_cache_mode(tls->ctx, SSL_SESS_CACHE_OFF);
	if (o->psk) {
		ret = load_psk(tls, o->psk, err);
		if (server)
			SSL_CTX_set_psk_server_callback(tls->ctx, psk_server);
		else
			SSL_CTX_set_psk_client_callback(tls->ctx, psk_client);
	} else {
		ret = load_certs(tls, o, server, err);
	}
	if (ret) {
		net_tls_free(tls);
		return ret;
	}
	*out = tls;
	return 0;
}

void net_tls_free(struct net_tls *tls)
{
	if (!tls)
		return;
	SSL_CTX_free(tls->ctx);
	BIO_meth_free(tls->bio);
	OPENSSL_cleanse(tls->psk, sizeof(tls->psk));
	free(tls);
}
