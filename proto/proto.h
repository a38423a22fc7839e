/* SPDX-License-Identifier: MIT */
#ifndef PROTO_PROTO_H
#define PROTO_PROTO_H

/*
 * The master <-> slave protocol: a 16-byte big-endian frame header and a
 * JSON body (PROTOCOL.md is the normative text).
 *
 * Versioning rules (don't forget to bump):
 * 1. Adding an optional field: no bump. Receivers ignore unknown keys.
 * 2. Adding a message type or a required field: bump PROTO_MINOR. HELLO
 *    carries {major, minor}; each side uses only what min(minor) allows.
 * 3. Changing the frame, or the meaning or units of a field: bump
 *    PROTO_MAJOR.
 * 4. Any change to tests/data/proto/ (golden messages) comes with the
 *    matching change to PROTOCOL.md and, where the rules say so, a bump.
 */
#define PROTO_MAGIC		0x56444243u	/* "VDBC" */
#define PROTO_MAJOR		1
#define PROTO_MINOR		4
#define PROTO_HDR_LEN		16
#define PROTO_MAX_LEN		(16u * 1024 * 1024)	/* body bytes */

/* Message types, grouped in ranges. */
enum msg_type {
	MSG_HELLO	= 100,	/* handshake */
	MSG_AUTH	= 101,
	MSG_INFO	= 102,
	MSG_LAUNCH	= 103,	/* master -> daemon: start slaves */
	MSG_WORK	= 200,	/* run control */
	MSG_READY	= 201,
	MSG_GO		= 202,
	MSG_STOP	= 203,
	MSG_RUN_END	= 204,
	MSG_SHUTDOWN	= 205,
	MSG_HEARTBEAT	= 206,
	MSG_INTERVAL	= 300,	/* data */
	MSG_SKEW	= 301,	/* skew= across slaves */
	MSG_ERROR	= 900,	/* errors and log */
	MSG_LOG		= 901,
};

/* The name of a type ("HELLO"), or NULL when it is not one. */
const char	*proto_type_name(unsigned int type);

#endif /* PROTO_PROTO_H */
