/* SPDX-License-Identifier: MIT */
#ifndef PROTO_AUTH_H
#define PROTO_AUTH_H

#include <stdint.h>

#include "errmsg.h"

/*
 * Token files of the slave daemons (DESIGN.md "Processes", PROTOCOL.md
 * "The daemon"). A token file holds 64 hex digits (32 random bytes, not
 * all zero) and must not be readable by group or others. The token never
 * goes on the wire: the TLS pre-shared key of the daemon link is derived
 * from it (proto/tls.h), and the TLS handshake is the proof.
 * Also the random cookies a dialling-back slave presents in HELLO (a
 * remote slave's TLS key is derived from its cookie).
 */
#define AUTH_KEY_BYTES		32
#define AUTH_NONCE_HEX		32	/* 16 random bytes */

/* Write a new token file (mode 0600; never over an existing file). */
int	auth_gen_token(const char *path, struct errmsg *);
/* Read a token file into key; refuse one others can read, or all zero. */
int	auth_load_token(const char *path, uint8_t key[AUTH_KEY_BYTES],
	    struct errmsg *);
/* A fresh random nonce or cookie: AUTH_NONCE_HEX hex digits + NUL. */
void	auth_nonce(char out[AUTH_NONCE_HEX + 1]);

#endif /* PROTO_AUTH_H */
