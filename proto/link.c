/* SPDX-License-Identifier: MIT */
/*
 * The peer link. Every length is checked before anything is read; a bad
 * frame or body kills the link and the owner hears dispatch(NULL) once.
 * The owner may link_free() from inside its dispatch callback: the link
 * is only marked there, and freed when the callback that called dispatch
 * is done with it (as tmux's proc.c does with PEER_BAD).
 */
#include "link.h"

#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/bufferevent_ssl.h>
#include <openssl/err.h>

#include "frame.h"
#include "msg.h"
#include "tls.h"
#include "xmalloc.h"

struct link {
	struct bufferevent	*bev;
	struct event		*deadline;	/* NULL until one is set */
	link_dispatch_fn	*dispatch;
	void			*arg;
	uint32_t		 next_tag;
	uint32_t		 max_frame;	/* body bytes accepted */
	int			 dead;
	int			 dispatching;	/* depth of dispatch calls */
	int			 freed;		/* link_free() while in one */
	int			 broke;		/* down on a protocol error */
	char			 why_late[200];	/* the deadline's reason */
	char			 error[1100];
	struct tls		*tls;	/* TLS (or may be, when sniffing) */
	int			 is_tls;
	int			 handshaken;	/* TLS: the handshake is done */
	int			 sniffing;	/* the first byte decides */
};

/* Set once by the role's main before any link exists. */
static link_trace_fn *link_trace;

/* Every frame to fn (link.h). */
void
link_set_trace(link_trace_fn *fn)
{
	link_trace = fn;
}

/* Really free: nothing of ours is on the stack any more. */
static void
link_destroy(struct link *l)
{
	if (l->deadline != NULL)
		event_free(l->deadline);
	bufferevent_free(l->bev);
	free(l);
}

/*
 * Hand a message (or NULL: down) to the owner. 0 while the link lives,
 * -1 when the owner freed it in there: then it is gone, touch nothing.
 */
static int
link_deliver(struct link *l, uint16_t type, json_t *body, uint32_t tag)
{
	l->dispatching++;
	l->dispatch(l, type, body, tag, l->arg);
	l->dispatching--;
	if (l->dispatching == 0 && l->freed) {
		link_destroy(l);
		return (-1);
	}
	return (0);
}

/* Mark the link dead and tell the owner, once; -1 if it was freed. */
static int
link_down(struct link *l, const char *why)
{
	if (l->dead)
		return (0);
	l->dead = 1;
	snprintf(l->error, sizeof(l->error), "%s", why);
	bufferevent_disable(l->bev, EV_READ | EV_WRITE);
	if (l->deadline != NULL)
		event_del(l->deadline);
	return (link_deliver(l, 0, NULL, 0));
}

/* The peer broke the protocol: down, but its socket still works. */
static int
link_broke(struct link *l, const char *why)
{
	if (!l->dead)
		l->broke = 1;
	return (link_down(l, why));
}

static int	link_sniff(struct link *);

/* Read every complete frame in the input buffer. */
static void
link_read_cb(struct bufferevent *bev, void *arg)
{
	struct link *l = arg;
	struct evbuffer *in = bufferevent_get_input(bev);

	if (l->sniffing && evbuffer_get_length(in) > 0 && link_sniff(l))
		return;
	while (!l->dead) {
		size_t avail = evbuffer_get_length(in);
		struct frame_hdr h;
		struct errmsg e;
		json_error_t je;
		uint8_t *p;
		json_t *body;
		int rc;

		if (avail == 0)
			return;
		p = evbuffer_pullup(in, avail < PROTO_HDR_LEN ? (ssize_t)avail :
		    PROTO_HDR_LEN);
		rc = frame_decode(p, avail, &h, &e);
		if (rc < 0) {
			link_broke(l, e.text);
			return;
		}
		if (avail >= PROTO_HDR_LEN && h.len > l->max_frame) {
			char why[200];

			snprintf(why, sizeof(why), "protocol: %s body of %u "
			    "bytes is over the limit of %u for this peer",
			    proto_type_name(h.type), h.len, l->max_frame);
			link_broke(l, why);
			return;
		}
		if (rc == 0)
			return;
		p = evbuffer_pullup(in, PROTO_HDR_LEN + (ssize_t)h.len);
		body = h.len == 0 ? json_object() : json_loadb((const char *)p +
		    PROTO_HDR_LEN, h.len, JSON_REJECT_DUPLICATES, &je);
		evbuffer_drain(in, PROTO_HDR_LEN + h.len);
		if (body == NULL) {
			char why[400];

			snprintf(why, sizeof(why), "protocol: %s body is not "
			    "JSON: %s", proto_type_name(h.type), je.text);
			link_broke(l, why);
			return;
		}
		if (msg_validate(h.type, body, &e) != 0) {
			json_decref(body);
			link_broke(l, e.text);
			return;
		}
		if (link_trace != NULL)
			link_trace(bufferevent_getfd(l->bev), 0,
			    proto_type_name(h.type), h.len, h.tag);
		rc = link_deliver(l, h.type, body, h.tag);
		json_decref(body);
		if (rc != 0)
			return;
	}
}

/* TLS: why the connection failed, in OpenSSL's words. */
static void
tls_down(struct link *l, struct bufferevent *bev)
{
	unsigned long err, first = 0;
	char text[300], why[600];
	int sys = EVUTIL_SOCKET_ERROR();

	while ((err = bufferevent_get_openssl_error(bev)) != 0) {
		if (first == 0)
			first = err;
	}
	/* only the TLS library's own errors (alerts, bad records) say
	 * anything of keys; a system error or lib 0 is the socket's */
	if (first != 0 && ERR_GET_LIB(first) != ERR_LIB_SSL)
		first = 0;
	if (first != 0)
		tls_err_text(first, text, sizeof(text));
	else
		snprintf(text, sizeof(text), "%s", sys != 0 ? strerror(sys) :
		    "the peer closed the connection");
	if (!l->handshaken && ERR_GET_REASON(first) ==
	    SSL_R_CERTIFICATE_VERIFY_FAILED)
		snprintf(why, sizeof(why), "TLS handshake failed: %s (the peer "
		    "showed a certificate instead of using the key: not a vdbc "
		    "peer)", text);
	else if (!l->handshaken && first == 0)
		/* no alert, the peer just went: a wrong key would have
		 * been answered with one; a daemon drops a peer that has
		 * not finished its handshake within 5 s (a stalled master),
		 * so do not blame the token (hosts review 2026-12-04) */
		snprintf(why, sizeof(why), "TLS handshake failed: %s before "
		    "the handshake ended (it ran out of time at the other "
		    "end, or the peer went away)", text);
	else if (!l->handshaken)
		snprintf(why, sizeof(why), "TLS handshake failed: %s (not the "
		    "same token or key at both ends?)", text);
	else
		snprintf(why, sizeof(why), "TLS: %s%s", text, first != 0 ?
		    " (the stream was damaged or changed in transit)" : "");
	link_down(l, why);
}

/* Connection closed or failed; for TLS also the handshake done. */
static void
link_event_cb(struct bufferevent *bev, short what, void *arg)
{
	struct link *l = arg;

	if (l->is_tls && (what & BEV_EVENT_CONNECTED)) {
		if (!tls_used_psk(bufferevent_openssl_get_ssl(bev)))
			link_down(l, "TLS handshake failed: the peer did not "
			    "use the pre-shared key");
		else
			l->handshaken = 1;
		return;
	}
	if (l->is_tls && !l->handshaken && (what & (BEV_EVENT_EOF |
	    BEV_EVENT_ERROR)))
		tls_down(l, bev);
	else if (what & BEV_EVENT_EOF)
		link_down(l, "connection closed by the peer");
	else if (l->is_tls && (what & BEV_EVENT_ERROR))
		tls_down(l, bev);
	else if (what & BEV_EVENT_ERROR)
		link_down(l, "connection error");
}

/* The deadline passed before the owner cleared it. */
static void
link_deadline_cb(evutil_socket_t fd, short what, void *arg)
{
	struct link *l = arg;

	(void)fd;
	(void)what;
	link_down(l, l->why_late);
}

/* TLS sends its handshake in small writes that wait for each other:
 * without this, Nagle and delayed ACKs add 40 ms to it. */
static void
link_nodelay(int fd)
{
	int one = 1;

	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

/* A link on a new bufferevent: plain, or TLS over tls. */
static struct link *
link_make(struct event_base *base, int fd, struct tls *tls,
    link_dispatch_fn *dispatch, void *arg)
{
	struct link *l = xcalloc(1, sizeof(*l));
	SSL *ssl = NULL;

	if (tls != NULL && (ssl = tls_ssl_new(tls)) == NULL) {
		free(l);
		return (NULL);
	}
	if (ssl != NULL)
		l->bev = bufferevent_openssl_socket_new(base, fd, ssl,
		    tls_is_server(tls) ? BUFFEREVENT_SSL_ACCEPTING :
		    BUFFEREVENT_SSL_CONNECTING, BEV_OPT_CLOSE_ON_FREE);
	else
		l->bev = bufferevent_socket_new(base, fd,
		    BEV_OPT_CLOSE_ON_FREE);
	if (l->bev == NULL) {
		SSL_free(ssl);
		free(l);
		return (NULL);
	}
	if (ssl != NULL) {
		link_nodelay(fd);
		l->tls = tls;
		l->is_tls = 1;
		/* A peer that just closes is a lost peer, not an attack:
		 * every session ends with its own message. */
		bufferevent_openssl_set_allow_dirty_shutdown(l->bev, 1);
	}
	l->dispatch = dispatch;
	l->arg = arg;
	l->next_tag = 1;
	l->max_frame = PROTO_MAX_LEN;
	bufferevent_setcb(l->bev, link_read_cb, NULL, link_event_cb, l);
	bufferevent_enable(l->bev, EV_READ | EV_WRITE);
	return (l);
}

/* Wrap a connected socket. */
struct link *
link_new(struct event_base *base, int fd, link_dispatch_fn *dispatch,
    void *arg)
{
	return (link_make(base, fd, NULL, dispatch, arg));
}

/* Wrap a connected socket in TLS. */
struct link *
link_new_tls(struct event_base *base, int fd, struct tls *tls,
    link_dispatch_fn *dispatch, void *arg)
{
	return (link_make(base, fd, tls, dispatch, arg));
}

/* Plain until the first byte says TLS (see link_sniff). */
struct link *
link_new_sniff(struct event_base *base, int fd, struct tls *tls,
    link_dispatch_fn *dispatch, void *arg)
{
	struct link *l = link_make(base, fd, NULL, dispatch, arg);

	if (l != NULL) {
		l->tls = tls;
		l->sniffing = tls != NULL;
	}
	return (l);
}

/*
 * The first byte of a sniffed link is in: a frame goes on plain (0); a
 * TLS record (0x16) puts a TLS filter over the plain bufferevent, which
 * reads what already came, and the link reads from the filter (1).
 */
static int
link_sniff(struct link *l)
{
	struct bufferevent *under = l->bev, *f;
	unsigned char b = 0;
	SSL *ssl;

	l->sniffing = 0;
	evbuffer_copyout(bufferevent_get_input(under), &b, 1);
	if (b != 0x16)
		return (0);
	if ((ssl = tls_ssl_new(l->tls)) == NULL) {
		link_down(l, "TLS: out of memory");
		return (1);
	}
	f = bufferevent_openssl_filter_new(bufferevent_get_base(under), under,
	    ssl, BUFFEREVENT_SSL_ACCEPTING, BEV_OPT_CLOSE_ON_FREE);
	if (f == NULL) {
		SSL_free(ssl);
		link_down(l, "TLS: out of memory");
		return (1);
	}
	l->bev = f;
	l->is_tls = 1;
	link_nodelay(bufferevent_getfd(under));
	bufferevent_openssl_set_allow_dirty_shutdown(f, 1);
	bufferevent_setcb(f, link_read_cb, NULL, link_event_cb, l);
	bufferevent_enable(f, EV_READ | EV_WRITE);
	/* The ClientHello is already buffered: no new read would come. */
	bufferevent_trigger(under, EV_READ, BEV_TRIG_IGNORE_WATERMARKS |
	    BEV_TRIG_DEFER_CALLBACKS);
	return (1);
}

int
link_is_tls(const struct link *l)
{
	return (l->is_tls);
}

/*
 * Free a link and close its socket. NULL is fine. Inside a dispatch
 * callback of this link it only goes quiet: the link is freed when that
 * callback returns, and the owner never hears from it again.
 */
void
link_free(struct link *l)
{
	if (l == NULL)
		return;
	if (l->dispatching > 0) {
		l->freed = 1;
		l->dead = 1;
		bufferevent_disable(l->bev, EV_READ | EV_WRITE);
		if (l->deadline != NULL)
			event_del(l->deadline);
		return;
	}
	link_destroy(l);
}

/* Cap the body of the frames this peer may send. */
void
link_set_max_frame(struct link *l, uint32_t max)
{
	l->max_frame = max < PROTO_MAX_LEN ? max : PROTO_MAX_LEN;
}

/* Arm (or with NULL clear) the deadline. */
int
link_set_deadline(struct link *l, const struct timeval *tv, const char *why)
{
	if (tv == NULL) {
		if (l->deadline != NULL)
			event_del(l->deadline);
		return (0);
	}
	if (l->deadline == NULL && (l->deadline = evtimer_new(
	    bufferevent_get_base(l->bev), link_deadline_cb, l)) == NULL)
		return (-1);
	snprintf(l->why_late, sizeof(l->why_late), "%s", why);
	return (evtimer_add(l->deadline, tv));
}

/* Change who hears the messages. */
void
link_set_dispatch(struct link *l, link_dispatch_fn *dispatch, void *arg)
{
	l->dispatch = dispatch;
	l->arg = arg;
}

/* Encode body (stolen) and queue it, dead link or not; -1 if it cannot. */
static int
link_queue(struct link *l, uint16_t type, json_t *body, uint32_t tag)
{
	struct evbuffer *out = bufferevent_get_output(l->bev);
	uint8_t hdr[PROTO_HDR_LEN];
	char *text;
	size_t len;

	text = json_dumps(body, JSON_COMPACT);
	json_decref(body);
	if (text == NULL)
		return (-1);
	len = strlen(text);
	if (len > PROTO_MAX_LEN) {
		free(text);
		return (-1);
	}
	frame_encode(hdr, type, (uint32_t)len, tag);
	if (link_trace != NULL)
		link_trace(bufferevent_getfd(l->bev), 1, proto_type_name(type),
		    (unsigned int)len, tag);
	evbuffer_add(out, hdr, sizeof(hdr));
	evbuffer_add(out, text, len);
	free(text);
	return (0);
}

/* Encode and queue one frame. */
int
link_reply(struct link *l, uint16_t type, json_t *body, uint32_t tag)
{
	if (body == NULL)
		body = json_object();
	if (l->dead) {
		json_decref(body);
		return (-1);
	}
	return (link_queue(l, type, body, tag));
}

/* After a protocol error: queue ERROR {text: why} for the peer. */
int
link_tell_error(struct link *l)
{
	json_t *body;

	if (!l->broke || l->freed ||
	    (body = json_pack("{s:s}", "text", l->error)) == NULL ||
	    link_queue(l, MSG_ERROR, body, l->next_tag++) != 0)
		return (-1);
	l->broke = 0;		/* once */
	bufferevent_enable(l->bev, EV_WRITE);
	return (0);
}

/* Queue a message with the next tag. */
int
link_send(struct link *l, uint16_t type, json_t *body)
{
	return (link_reply(l, type, body, l->next_tag++));
}

/* Why the link is down. */
const char *
link_error(const struct link *l)
{
	return (l->error);
}

/* Bytes not yet written. */
size_t
link_pending(const struct link *l)
{
	return (evbuffer_get_length(bufferevent_get_output(l->bev)));
}
