/* SPDX-License-Identifier: MIT */
#ifndef PROTO_AUTH_H
#define PROTO_AUTH_H

#include <stdint.h>

#include "errmsg.h"

/*
 * Token files and the mutual HMAC-SHA256 challenge/response between a
 * master and a slave daemon (DESIGN.md "Processes", PROTOCOL.md "The
 * daemon"). A token file holds 64 hex digits (32 random bytes) and must
 * not be readable by group or others. The token never goes on the wire:
 * each side proves it knows it by an HMAC over both sides' fresh nonces,
 * with its role in the message so a proof cannot be sent back.
 * Also the random cookies a dialling-back slave presents in HELLO.
 */
#define AUTH_KEY_BYTES		32
#define AUTH_NONCE_HEX		32	/* 16 random bytes */
#define AUTH_PROOF_HEX		64

/* Write a new token file (mode 0600; never over an existing file). */
int	auth_gen_token(const char *path, struct errmsg *);
/* Read a token file into key; refuse one others can read. */
int	auth_load_token(const char *path, uint8_t key[AUTH_KEY_BYTES],
	    struct errmsg *);
/* A fresh random nonce or cookie: AUTH_NONCE_HEX hex digits + NUL. */
void	auth_nonce(char out[AUTH_NONCE_HEX + 1]);
/* The proof of role ("master" or "daemon") over its peer's nonce, then
 * its own: hex HMAC-SHA256, AUTH_PROOF_HEX digits + NUL. */
void	auth_proof(const uint8_t key[AUTH_KEY_BYTES], const char *role,
	    const char *peer_nonce, const char *own_nonce,
	    char out[AUTH_PROOF_HEX + 1]);
/* 1 when proof is right (constant-time compare), else 0. */
int	auth_check(const uint8_t key[AUTH_KEY_BYTES], const char *role,
	    const char *peer_nonce, const char *own_nonce, const char *proof);

#endif /* PROTO_AUTH_H */
