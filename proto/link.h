/* SPDX-License-Identifier: MIT */
#ifndef PROTO_LINK_H
#define PROTO_LINK_H

#include <stdint.h>
#include <sys/time.h>

#include <event2/event.h>
#include <jansson.h>

/*
 * A peer on one TCP connection, in the style of tmux's proc.c: frames are
 * read from a bufferevent, checked (header, JSON, required fields) and
 * handed to one dispatch callback. dispatch(link, 0, NULL, arg) means the
 * peer is gone (closed, sent something bad, or missed its deadline;
 * link_error() says what). The owner may call link_free() anywhere, also
 * inside its dispatch callback: the link then goes quiet and is freed
 * once that callback has returned. The link never exits and never logs:
 * the owner decides.
 */
struct link;
struct tls;

typedef void link_dispatch_fn(struct link *, uint16_t type, json_t *body,
    uint32_t tag, void *arg);

/* Take over a connected socket. */
struct link	*link_new(struct event_base *, int fd, link_dispatch_fn *,
		    void *arg);
/* The same over TLS 1.3 (proto/tls.h): client or server as tls says.
 * Frames flow once the handshake is done; a failed handshake, or a peer
 * that did not use our key, is dispatch(NULL) with link_error() saying
 * so. tls must outlive the link. */
struct link	*link_new_tls(struct event_base *, int fd, struct tls *,
		    link_dispatch_fn *, void *arg);
/* An accepted socket where local peers speak plain frames and remote ones
 * TLS (server side of tls): the first byte decides (a TLS record starts
 * with 0x16, a frame with 'V'); TLS then runs as a filter over the
 * plain bufferevent. */
struct link	*link_new_sniff(struct event_base *, int fd, struct tls *,
		    link_dispatch_fn *, void *arg);
/* 1 when the link runs TLS (0 until the first byte of a sniffed one). */
int		 link_is_tls(const struct link *);
void		 link_free(struct link *);
/*
 * Refuse frames whose body is over max bytes (at most PROTO_MAX_LEN, the
 * default): a peer that has not proved itself gets LINK_UNPROVED_MAX.
 */
#define LINK_UNPROVED_MAX	(64u * 1024)
void		 link_set_max_frame(struct link *, uint32_t max);
/*
 * The link goes down with why as its error unless the owner clears the
 * deadline (tv NULL) within tv. -1 when no timer can be made.
 */
int		 link_set_deadline(struct link *, const struct timeval *,
		    const char *why);
/* Hand the link to another owner (after HELLO names the peer). */
void		 link_set_dispatch(struct link *, link_dispatch_fn *, void *);
/*
 * Tell fn about every frame read or queued on any link (type as
 * proto_type_name() says it, body length, tag); NULL stops it. For a
 * role's --debug=proto: the link itself never logs.
 */
typedef void link_trace_fn(int fd, int out, const char *type,
    unsigned int len, unsigned int tag);
void		 link_set_trace(link_trace_fn *);
/* Queue a message; steals body (NULL = {}). -1 if the link is down. */
int		 link_send(struct link *, uint16_t type, json_t *body);
/* Queue a reply that echoes tag. */
int		 link_reply(struct link *, uint16_t type, json_t *body,
		    uint32_t tag);
/*
 * After the link went down because the peer broke the protocol (a bad
 * header, body or field): queue one ERROR frame saying so (link_error()
 * as its text). 0 when queued; the owner keeps the link a moment (until
 * it is written) before link_free(). -1 when the peer did not break the
 * protocol (it closed, the deadline passed) or it was already told.
 */
int		 link_tell_error(struct link *);
/* Why the link went down ("" while it is up). */
const char	*link_error(const struct link *);
/* Bytes still waiting to be written. */
size_t		 link_pending(const struct link *);

#endif /* PROTO_LINK_H */
