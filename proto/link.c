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

#include <event2/buffer.h>
#include <event2/bufferevent.h>

#include "frame.h"
#include "msg.h"
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
};

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

/* Read every complete frame in the input buffer. */
static void
link_read_cb(struct bufferevent *bev, void *arg)
{
	struct link *l = arg;
	struct evbuffer *in = bufferevent_get_input(bev);

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
		rc = link_deliver(l, h.type, body, h.tag);
		json_decref(body);
		if (rc != 0)
			return;
	}
}

/* Connection closed or failed. */
static void
link_event_cb(struct bufferevent *bev, short what, void *arg)
{
	struct link *l = arg;

	(void)bev;
	if (what & BEV_EVENT_EOF)
		link_down(l, "connection closed by the peer");
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

/* Wrap a connected socket. */
struct link *
link_new(struct event_base *base, int fd, link_dispatch_fn *dispatch,
    void *arg)
{
	struct link *l = xcalloc(1, sizeof(*l));

	l->bev = bufferevent_socket_new(base, fd, BEV_OPT_CLOSE_ON_FREE);
	if (l->bev == NULL) {
		free(l);
		return (NULL);
	}
	l->dispatch = dispatch;
	l->arg = arg;
	l->next_tag = 1;
	l->max_frame = PROTO_MAX_LEN;
	bufferevent_setcb(l->bev, link_read_cb, NULL, link_event_cb, l);
	bufferevent_enable(l->bev, EV_READ | EV_WRITE);
	return (l);
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

/* Encode and queue one frame. */
int
link_reply(struct link *l, uint16_t type, json_t *body, uint32_t tag)
{
	struct evbuffer *out;
	uint8_t hdr[PROTO_HDR_LEN];
	char *text;
	size_t len;

	if (body == NULL)
		body = json_object();
	if (l->dead) {
		json_decref(body);
		return (-1);
	}
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
	out = bufferevent_get_output(l->bev);
	evbuffer_add(out, hdr, sizeof(hdr));
	evbuffer_add(out, text, len);
	free(text);
	return (0);
}

/* After a protocol error: queue ERROR {text: why} for the peer. */
int
link_tell_error(struct link *l)
{
	uint8_t hdr[PROTO_HDR_LEN];
	json_t *body;
	char *text;
	size_t len;

	if (!l->broke || l->freed ||
	    (body = json_pack("{s:s}", "text", l->error)) == NULL)
		return (-1);
	text = json_dumps(body, JSON_COMPACT);
	json_decref(body);
	if (text == NULL)
		return (-1);
	len = strlen(text);
	frame_encode(hdr, MSG_ERROR, (uint32_t)len, l->next_tag++);
	evbuffer_add(bufferevent_get_output(l->bev), hdr, sizeof(hdr));
	evbuffer_add(bufferevent_get_output(l->bev), text, len);
	free(text);
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
