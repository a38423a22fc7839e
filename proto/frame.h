/* SPDX-License-Identifier: MIT */
#ifndef PROTO_FRAME_H
#define PROTO_FRAME_H

#include <stddef.h>
#include <stdint.h>

#include "errmsg.h"
#include "proto.h"

/*
 * The frame header codec, with explicit shifts (never a cast of a buffer
 * to a struct). Works on plain bytes so that it is tested and fuzzed
 * alone; the peer link feeds it from its evbuffer.
 */
struct frame_hdr {
	uint32_t	magic;
	uint16_t	major;
	uint16_t	type;		/* enum msg_type */
	uint32_t	len;		/* body bytes */
	uint32_t	tag;		/* sender's sequence, echoed in replies */
};

void	frame_encode(uint8_t out[PROTO_HDR_LEN], uint16_t type, uint32_t len,
	    uint32_t tag);
/*
 * Look at the first avail bytes of a stream: 1 when a whole frame (header
 * and body) is there, 0 when more bytes are needed, -1 when the header is
 * bad (magic, major version, unknown type, length over PROTO_MAX_LEN);
 * e says which. The header is checked as soon as its 16 bytes are there.
 */
int	frame_decode(const uint8_t *buf, size_t avail, struct frame_hdr *,
	    struct errmsg *);

#endif /* PROTO_FRAME_H */
