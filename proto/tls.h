/* SPDX-License-Identifier: MIT */
#ifndef PROTO_TLS_H
#define PROTO_TLS_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/ssl.h>

#include "errmsg.h"

/*
 * TLS 1.3 with an external pre-shared key for every link that leaves the
 * host (DESIGN.md "Processes" item 3): the master's link to a slave
 * daemon (the key comes from the daemon's token) and the dial-back link
 * of a remote slave (the key comes from the one-time cookie the master
 * gave that slave, inside the daemon's TLS session or on ssh's standard
 * input). Owns the OpenSSL contexts, the key derivation and the words for
 * TLS errors; proto/link.c wraps the socket. The handshake itself is the
 * proof: the client's PSK binder shows it knows the key, the server's
 * Finished shows the server does, and every record after it is encrypted
 * and authenticated (AES-128-GCM), so a relay can neither read nor alter
 * the session. Only TLS 1.3, only PSK with (EC)DHE: no certificates, no
 * session tickets, no 0-RTT. Leaf code: never logs, never exits.
 */
#define TLS_PSK_BYTES		32
#define TLS_DAEMON_IDENTITY	"vdbc-daemon"
#define TLS_LABEL_DAEMON	"vdbc daemon link v1"
#define TLS_LABEL_SLAVE		"vdbc slave link v1"

struct tls;

/* The server's key for a client identity: 0, or -1 for an unknown one. */
typedef int tls_lookup_fn(const char *identity, uint8_t psk[TLS_PSK_BYTES],
    void *arg);

/* The key for a link: HMAC-SHA256(secret, label). */
void		 tls_psk_derive(const void *secret, size_t len,
		    const char *label, uint8_t psk[TLS_PSK_BYTES]);
/* A client that offers identity with psk (both copied). */
struct tls	*tls_client_new(const char *identity,
		    const uint8_t psk[TLS_PSK_BYTES], struct errmsg *);
/* A server that asks lookup for the key of each client identity. */
struct tls	*tls_server_new(tls_lookup_fn *, void *arg, struct errmsg *);
/* Free after every link made from it (NULL is fine). */
void		 tls_free(struct tls *);
/* A new connection's SSL object, or NULL. */
SSL		*tls_ssl_new(struct tls *);
int		 tls_is_server(const struct tls *);
/* 1 when the finished handshake used our pre-shared key (a peer that
 * answered with a certificate instead is not one of ours). */
int		 tls_used_psk(SSL *);
/* Words for an OpenSSL error code ("bad record mac"). */
void		 tls_err_text(unsigned long err, char *buf, size_t len);

#endif /* PROTO_TLS_H */
