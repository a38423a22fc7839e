/* SPDX-License-Identifier: MIT */
/* TLS 1.3 with external pre-shared keys (see tls.h), through OpenSSL. */
#include "tls.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "xmalloc.h"

#define TLS_IDENTITY_MAX	128

struct tls {
	SSL_CTX		*ctx;
	int		 server;
	char		 identity[TLS_IDENTITY_MAX];	/* client */
	uint8_t		 psk[TLS_PSK_BYTES];		/* client */
	tls_lookup_fn	*lookup;			/* server */
	void		*arg;
};

/* TLS_AES_128_GCM_SHA256, the one suite both ends allow. */
static const unsigned char tls_suite_id[2] = { 0x13, 0x01 };

void
tls_psk_derive(const void *secret, size_t len, const char *label,
    uint8_t psk[TLS_PSK_BYTES])
{
	unsigned int n = 0;

	HMAC(EVP_sha256(), secret, (int)len, (const unsigned char *)label,
	    strlen(label), psk, &n);
}

/* A session that carries only the key: what OpenSSL wants for a PSK. */
static SSL_SESSION *
psk_session(SSL *ssl, const uint8_t psk[TLS_PSK_BYTES])
{
	const SSL_CIPHER *c = SSL_CIPHER_find(ssl, tls_suite_id);
	SSL_SESSION *s;

	if (c == NULL || (s = SSL_SESSION_new()) == NULL)
		return (NULL);
	if (!SSL_SESSION_set1_master_key(s, psk, TLS_PSK_BYTES) ||
	    !SSL_SESSION_set_cipher(s, c) ||
	    !SSL_SESSION_set_protocol_version(s, TLS1_3_VERSION)) {
		SSL_SESSION_free(s);
		return (NULL);
	}
	return (s);
}

/* Client: offer our identity and key. */
static int
use_session_cb(SSL *ssl, const EVP_MD *md, const unsigned char **id,
    size_t *idlen, SSL_SESSION **sessp)
{
	struct tls *t = SSL_CTX_get_app_data(SSL_get_SSL_CTX(ssl));
	const SSL_CIPHER *c = SSL_CIPHER_find(ssl, tls_suite_id);

	*sessp = NULL;
	*id = NULL;
	*idlen = 0;
	if (c == NULL)
		return (0);
	if (md != NULL && md != SSL_CIPHER_get_handshake_digest(c))
		return (1);
	if ((*sessp = psk_session(ssl, t->psk)) == NULL)
		return (0);
	*id = (const unsigned char *)t->identity;
	*idlen = strlen(t->identity);
	return (1);
}

/* Server: the key for the identity the client offers, or abort. */
static int
find_session_cb(SSL *ssl, const unsigned char *id, size_t idlen,
    SSL_SESSION **sessp)
{
	struct tls *t = SSL_CTX_get_app_data(SSL_get_SSL_CTX(ssl));
	char name[TLS_IDENTITY_MAX];
	uint8_t psk[TLS_PSK_BYTES];

	*sessp = NULL;
	if (idlen == 0 || idlen >= sizeof(name) || memchr(id, '\0', idlen))
		return (0);
	memcpy(name, id, idlen);
	name[idlen] = '\0';
	if (t->lookup(name, psk, t->arg) != 0)
		return (0);
	*sessp = psk_session(ssl, psk);
	OPENSSL_cleanse(psk, sizeof(psk));
	return (*sessp != NULL);
}

/* A context for TLS 1.3, PSK only. */
static struct tls *
tls_new(int server, struct errmsg *e)
{
	struct tls *t = xcalloc(1, sizeof(*t));

	t->server = server;
	t->ctx = SSL_CTX_new(server ? TLS_server_method() :
	    TLS_client_method());
	if (t->ctx == NULL ||
	    !SSL_CTX_set_min_proto_version(t->ctx, TLS1_3_VERSION) ||
	    !SSL_CTX_set_max_proto_version(t->ctx, TLS1_3_VERSION) ||
	    !SSL_CTX_set_ciphersuites(t->ctx, "TLS_AES_128_GCM_SHA256")) {
		char why[256];

		tls_err_text(ERR_get_error(), why, sizeof(why));
		errmsg_set(e, NULL, 0, 0, "TLS: cannot set up OpenSSL: %s",
		    why);
		tls_free(t);
		return (NULL);
	}
	SSL_CTX_set_app_data(t->ctx, t);
	/* A peer that closes without close_notify is a lost peer, seen as
	 * EOF (every session ends with its own message anyway). */
	SSL_CTX_set_options(t->ctx, SSL_OP_NO_TICKET |
	    SSL_OP_IGNORE_UNEXPECTED_EOF);
	SSL_CTX_set_session_cache_mode(t->ctx, SSL_SESS_CACHE_OFF);
	if (server) {
		SSL_CTX_set_num_tickets(t->ctx, 0);
		SSL_CTX_set_session_id_context(t->ctx,
		    (const unsigned char *)"vdbc", 4);
		SSL_CTX_set_psk_find_session_callback(t->ctx, find_session_cb);
	} else {
		/* No trusted certificate at all: a server that answers with
		 * one instead of the key fails the handshake. */
		SSL_CTX_set_verify(t->ctx, SSL_VERIFY_PEER, NULL);
		SSL_CTX_set_psk_use_session_callback(t->ctx, use_session_cb);
	}
	return (t);
}

struct tls *
tls_client_new(const char *identity, const uint8_t psk[TLS_PSK_BYTES],
    struct errmsg *e)
{
	struct tls *t;

	if (strlen(identity) == 0 || strlen(identity) >= TLS_IDENTITY_MAX) {
		errmsg_set(e, NULL, 0, 0, "TLS: identity '%.60s' must have 1 "
		    "to %d characters", identity, TLS_IDENTITY_MAX - 1);
		return (NULL);
	}
	if ((t = tls_new(0, e)) == NULL)
		return (NULL);
	snprintf(t->identity, sizeof(t->identity), "%s", identity);
	memcpy(t->psk, psk, TLS_PSK_BYTES);
	return (t);
}

struct tls *
tls_server_new(tls_lookup_fn *lookup, void *arg, struct errmsg *e)
{
	struct tls *t;

	if ((t = tls_new(1, e)) == NULL)
		return (NULL);
	t->lookup = lookup;
	t->arg = arg;
	return (t);
}

void
tls_free(struct tls *t)
{
	if (t == NULL)
		return;
	SSL_CTX_free(t->ctx);
	OPENSSL_cleanse(t->psk, sizeof(t->psk));
	free(t);
}

SSL *
tls_ssl_new(struct tls *t)
{
	return (SSL_new(t->ctx));
}

int
tls_is_server(const struct tls *t)
{
	return (t->server);
}

int
tls_used_psk(SSL *ssl)
{
	return (SSL_version(ssl) == TLS1_3_VERSION &&
	    SSL_session_reused(ssl) == 1);
}

void
tls_err_text(unsigned long err, char *buf, size_t len)
{
	const char *r = ERR_reason_error_string(err);

	if (err == 0)
		snprintf(buf, len, "unknown error");
	else if (r != NULL)
		snprintf(buf, len, "%s", r);
	else
		ERR_error_string_n(err, buf, len);
}
