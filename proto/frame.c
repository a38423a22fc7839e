/* SPDX-License-Identifier: MIT */
/*
 * Frame header: magic(4) major(2) type(2) len(4) tag(4), big-endian.
 * A peer that sends a bad header is not a peer: the caller closes it.
 */
#include "frame.h"

#include <assert.h>
#include <stddef.h>

static_assert(PROTO_HDR_LEN == 16, "the frame header is 16 bytes");
static_assert(PROTO_MAX_LEN <= UINT32_MAX, "length fits the header");

/* The name of a message type, or NULL. */
const char *
proto_type_name(unsigned int type)
{
	switch (type) {
	case MSG_HELLO:		return ("HELLO");
	case MSG_AUTH:		return ("AUTH");
	case MSG_INFO:		return ("INFO");
	case MSG_LAUNCH:	return ("LAUNCH");
	case MSG_WORK:		return ("WORK");
	case MSG_READY:		return ("READY");
	case MSG_GO:		return ("GO");
	case MSG_STOP:		return ("STOP");
	case MSG_RUN_END:	return ("RUN_END");
	case MSG_SHUTDOWN:	return ("SHUTDOWN");
	case MSG_HEARTBEAT:	return ("HEARTBEAT");
	case MSG_INTERVAL:	return ("INTERVAL");
	case MSG_SKEW:		return ("SKEW");
	case MSG_ERROR:		return ("ERROR");
	case MSG_LOG:		return ("LOG");
	default:		return (NULL);
	}
}

/* Store big-endian. */
static void
put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

/* Load big-endian. */
static uint32_t
get32(const uint8_t *p)
{
	return ((uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | (uint32_t)p[3]);
}

/* Write a header for a body of len bytes. */
void
frame_encode(uint8_t out[PROTO_HDR_LEN], uint16_t type, uint32_t len,
    uint32_t tag)
{
	put32(out, PROTO_MAGIC);
	out[4] = (uint8_t)(PROTO_MAJOR >> 8);
	out[5] = (uint8_t)PROTO_MAJOR;
	out[6] = (uint8_t)(type >> 8);
	out[7] = (uint8_t)type;
	put32(out + 8, len);
	put32(out + 12, tag);
}

/* Check a header and say whether its body is complete. */
int
frame_decode(const uint8_t *buf, size_t avail, struct frame_hdr *h,
    struct errmsg *e)
{
	if (avail < PROTO_HDR_LEN) {
		/* A wrong magic is caught as early as its bytes arrive. */
		size_t i, n = avail < 4 ? avail : 4;
		uint8_t m[4];

		put32(m, PROTO_MAGIC);
		for (i = 0; i < n; i++) {
			if (buf[i] != m[i]) {
				errmsg_set(e, NULL, 0, 0, "protocol: bad magic "
				    "(not a vdbc peer)");
				return (-1);
			}
		}
		return (0);
	}
	h->magic = get32(buf);
	h->major = (uint16_t)(buf[4] << 8 | buf[5]);
	h->type = (uint16_t)(buf[6] << 8 | buf[7]);
	h->len = get32(buf + 8);
	h->tag = get32(buf + 12);
	if (h->magic != PROTO_MAGIC) {
		errmsg_set(e, NULL, 0, 0, "protocol: bad magic 0x%08x (not a "
		    "vdbc peer)", h->magic);
		return (-1);
	}
	if (h->major != PROTO_MAJOR) {
		errmsg_set(e, NULL, 0, 0, "protocol: version %u.x of the peer "
		    "does not match version %u.%u of this vdbc", h->major,
		    PROTO_MAJOR, PROTO_MINOR);
		return (-1);
	}
	if (proto_type_name(h->type) == NULL) {
		errmsg_set(e, NULL, 0, 0, "protocol: unknown message type %u",
		    h->type);
		return (-1);
	}
	if (h->len > PROTO_MAX_LEN) {
		errmsg_set(e, NULL, 0, 0, "protocol: %s body of %u bytes is "
		    "over the limit of %u", proto_type_name(h->type), h->len,
		    PROTO_MAX_LEN);
		return (-1);
	}
	return (avail - PROTO_HDR_LEN >= h->len ? 1 : 0);
}
