/* SPDX-License-Identifier: MIT */
/*
 * The peer link. Every length is checked before anything is read; a bad
 * frame or body kills the link and the owner hears dispatch(NULL) once.
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
	link_dispatch_fn	*dispatch;
	void			*arg;
	uint32_t		 next_tag;
	int			 dead;
	char			 error[1100];
};

/* Mark the link dead and tell the owner, once. */
static void
link_down(struct link *l, const char *why)
{
	if (l->dead)
		return;
	l->dead = 1;
	snprintf(l->error, sizeof(l->error), "%s", why);
	bufferevent_disable(l->bev, EV_READ | EV_WRITE);
	l->dispatch(l, 0, NULL, 0, l->arg);
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
			link_down(l, e.text);
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
			link_down(l, why);
			return;
		}
		if (msg_validate(h.type, body, &e) != 0) {
			json_decref(body);
			link_down(l, e.text);
			return;
		}
		l->dispatch(l, h.type, body, h.tag, l->arg);
		json_decref(body);
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
	bufferevent_setcb(l->bev, link_read_cb, NULL, link_event_cb, l);
	bufferevent_enable(l->bev, EV_READ | EV_WRITE);
	return (l);
}

/* Free a link and close its socket. NULL is fine. */
void
link_free(struct link *l)
{
	if (l == NULL)
		return;
	bufferevent_free(l->bev);
	free(l);
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
