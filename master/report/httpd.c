/* SPDX-License-Identifier: MIT */
/* The bounded HTTP server of --metrics (see httpd.h). */
#include "httpd.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/queue.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include "log.h"
#include "mtime.h"
#include "xmalloc.h"

#define HTTPD_DRAIN_MS		1000	/* after the reply, before close */
#define HTTPD_PAUSE_MS		1000	/* out of fds: accepting waits */
#define HTTPD_TELL_NS		(60ull * 1000000000u)	/* one line a minute */

/* A page, shared by the server and the replies still sending it. */
struct page {
	unsigned int	 refs;
	size_t		 len;
	char		*data;
};

enum cstate { C_READ, C_SEND, C_DRAIN };

struct conn {
	struct httpd		*h;
	int			 fd;
	enum cstate		 state;
	struct event		*io;	/* read, then write, then read */
	struct event		*deadline;
	char			 req[HTTPD_HEADER_BYTES];
	size_t			 got;
	char			 head[512];	/* the reply's status and headers */
	size_t			 head_len;
	struct page		*page;	/* the body, or NULL */
	size_t			 sent;	/* of head, then of the body */
	TAILQ_ENTRY(conn)	 entry;
};
TAILQ_HEAD(conns, conn);

struct httpd {
	struct event_base	*base;
	int			 lfd;
	struct event		*accept_ev;
	struct event		*resume_ev;
	int			 paused;	/* out of fds */
	uint64_t		 told_ns;	/* the last out-of-fds line */
	unsigned long		 untold;	/* pauses since, not logged */
	struct conns		 conns;
	int			 nconns;
	char			 path[64];
	char			 type[128];
	struct page		*page;
};

static void	conn_io_cb(evutil_socket_t, short, void *);

static void
page_put(struct page *p)
{
	if (p != NULL && --p->refs == 0) {
		free(p->data);
		free(p);
	}
}

/* Accept again when there is room and no pause for fds. */
static void
accept_update(struct httpd *h)
{
	if (h->paused || h->nconns >= HTTPD_MAX_CONNS)
		event_del(h->accept_ev);
	else
		event_add(h->accept_ev, NULL);
}

static void
conn_free(struct conn *c)
{
	struct httpd *h = c->h;

	TAILQ_REMOVE(&h->conns, c, entry);
	h->nconns--;
	event_free(c->io);
	event_free(c->deadline);
	close(c->fd);
	page_put(c->page);
	free(c);
	accept_update(h);
}

static void
deadline_cb(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	conn_free(arg);
}

/* (Re)arm the connection's I/O event for what and its deadline. */
static void
conn_arm(struct conn *c, short what, int ms)
{
	struct timeval t = { ms / 1000, ms % 1000 * 1000 };

	if (c->io != NULL)
		event_free(c->io);
	c->io = event_new(c->h->base, c->fd, what | EV_PERSIST, conn_io_cb, c);
	event_add(c->io, NULL);
	evtimer_del(c->deadline);
	evtimer_add(c->deadline, &t);
}

/* Start the reply: status, headers, and the page unless HEAD. */
static void
reply(struct conn *c, int code, const char *reason, int body, int head)
{
	struct httpd *h = c->h;
	const char *type = code == 200 ? h->type : "text/plain; charset=utf-8";
	char msg[160];
	size_t len;

	if (code == 200) {
		c->page = h->page;
		c->page->refs++;
		len = c->page->len;
	} else {
		/* a short page of our own words; no echo of the request */
		snprintf(msg, sizeof(msg), "%d %s: vdbc serves GET %s\n", code,
		    reason, h->path);
		c->page = xcalloc(1, sizeof(*c->page));
		c->page->refs = 1;
		c->page->data = xstrdup(msg);
		c->page->len = strlen(msg);
		len = c->page->len;
	}
	c->head_len = (size_t)snprintf(c->head, sizeof(c->head),
	    "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n"
	    "%sConnection: close\r\n\r\n", code, reason, type, len,
	    code == 405 ? "Allow: GET, HEAD\r\n" : "");
	if (!body || head) {
		page_put(c->page);
		c->page = NULL;
	}
	c->sent = 0;
	c->state = C_SEND;
	conn_arm(c, EV_WRITE, HTTPD_SEND_MS);
}

/* A whole request header is in c->req: answer it. */
static void
request(struct conn *c)
{
	struct httpd *h = c->h;
	char method[16], target[HTTPD_HEADER_BYTES];
	size_t plen, n;
	int head;

	c->req[c->got < sizeof(c->req) ? c->got : sizeof(c->req) - 1] = '\0';
	n = strcspn(c->req, " \r\n");
	if (n == 0 || n >= sizeof(method) || c->req[n] != ' ') {
		reply(c, 400, "Bad Request", 1, 0);
		return;
	}
	memcpy(method, c->req, n);
	method[n] = '\0';
	plen = strcspn(c->req + n + 1, " \r\n");
	memcpy(target, c->req + n + 1, plen);
	target[plen] = '\0';
	head = strcmp(method, "HEAD") == 0;
	if (strcmp(method, "GET") != 0 && !head) {
		reply(c, 405, "Method Not Allowed", 1, 0);
		return;
	}
	/* a query string (Prometheus' params:, a proxy's) is ignored */
	target[strcspn(target, "?#")] = '\0';
	if (strcmp(target, h->path) != 0 && strcmp(target, "/") != 0) {
		reply(c, 404, "Not Found", 1, head);
		return;
	}
	reply(c, 200, "OK", 1, head);
}

/* Read what came; answer once the header ended, or refuse it. */
static void
conn_read(struct conn *c)
{
	size_t from;
	ssize_t n;
	char *end;

	for (;;) {
		if (c->got == sizeof(c->req)) {
			reply(c, 431, "Request Header Fields Too Large", 1, 0);
			return;
		}
		n = recv(c->fd, c->req + c->got, sizeof(c->req) - c->got, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return;
		if (n <= 0) {
			conn_free(c);
			return;
		}
		/* only the new bytes (and 3 before) are searched: linear */
		from = c->got > 3 ? c->got - 3 : 0;
		c->got += (size_t)n;
		if ((end = memmem(c->req + from, c->got - from, "\r\n\r\n",
		    4)) != NULL || (end = memmem(c->req + from, c->got - from,
		    "\n\n", 2)) != NULL) {
			request(c);
			return;
		}
	}
}

/* Send what is left of the reply; then drain and close. */
static void
conn_send(struct conn *c)
{
	struct iovec v[2];
	struct msghdr mh;
	ssize_t n;
	int nv;

	for (;;) {
		size_t body = c->page != NULL ? c->page->len : 0;

		if (c->sent >= c->head_len + body)
			break;
		memset(&mh, 0, sizeof(mh));
		nv = 0;
		if (c->sent < c->head_len) {
			v[nv].iov_base = c->head + c->sent;
			v[nv++].iov_len = c->head_len - c->sent;
			if (body > 0) {
				v[nv].iov_base = c->page->data;
				v[nv++].iov_len = body;
			}
		} else {
			v[nv].iov_base = c->page->data + (c->sent -
			    c->head_len);
			v[nv++].iov_len = body - (c->sent - c->head_len);
		}
		mh.msg_iov = v;
		mh.msg_iovlen = (size_t)nv;
		n = sendmsg(c->fd, &mh, MSG_NOSIGNAL);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return;
		if (n <= 0) {
			conn_free(c);
			return;
		}
		c->sent += (size_t)n;
	}
	/*
	 * All sent: no more from us. Closing with unread bytes of the
	 * client's (a second request) would reset the connection and could
	 * lose the reply's end there, so read and drop until its close.
	 */
	page_put(c->page);
	c->page = NULL;
	shutdown(c->fd, SHUT_WR);
	c->state = C_DRAIN;
	conn_arm(c, EV_READ, HTTPD_DRAIN_MS);
}

static void
conn_drain(struct conn *c)
{
	ssize_t n;

	for (;;) {
		n = recv(c->fd, c->req, sizeof(c->req), 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return;
		conn_free(c);	/* its close, or an error */
		return;
	}
}

static void
conn_io_cb(evutil_socket_t fd, short what, void *arg)
{
	struct conn *c = arg;

	(void)fd;
	(void)what;
	if (c->state == C_READ)
		conn_read(c);
	else if (c->state == C_SEND)
		conn_send(c);
	else
		conn_drain(c);
}

static void
resume_cb(evutil_socket_t fd, short what, void *arg)
{
	struct httpd *h = arg;

	(void)fd;
	(void)what;
	h->paused = 0;
	accept_update(h);
}

/* Out of fds (or memory): pause a second; say so once a minute. */
static void
accept_pause(struct httpd *h, int err)
{
	struct timeval t = { HTTPD_PAUSE_MS / 1000, HTTPD_PAUSE_MS % 1000 *
	    1000 };
	uint64_t now = mtime_now_ns();

	h->paused = 1;
	evtimer_add(h->resume_ev, &t);
	if (h->told_ns != 0 && now - h->told_ns < HTTPD_TELL_NS) {
		h->untold++;
		return;
	}
	if (h->untold > 0)
		log_warn("--metrics: cannot accept a connection: %s; accepting "
		    "pauses a second (%lu more pauses in the last minute)",
		    strerror(err), h->untold);
	else
		log_warn("--metrics: cannot accept a connection: %s; accepting "
		    "pauses a second (said at most once a minute)",
		    strerror(err));
	h->told_ns = now;
	h->untold = 0;
}

static void
accept_cb(evutil_socket_t lfd, short what, void *arg)
{
	struct httpd *h = arg;
	struct conn *c;
	int fd, err;

	(void)what;
	while (h->nconns < HTTPD_MAX_CONNS && !h->paused) {
		fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
		if (fd < 0) {
			err = errno;
			if (err == EINTR || err == ECONNABORTED)
				continue;
			if (err == EMFILE || err == ENFILE || err == ENOBUFS ||
			    err == ENOMEM)
				accept_pause(h, err);
			break;		/* EAGAIN: all taken */
		}
		c = xcalloc(1, sizeof(*c));
		c->h = h;
		c->fd = fd;
		c->state = C_READ;
		c->deadline = evtimer_new(h->base, deadline_cb, c);
		TAILQ_INSERT_TAIL(&h->conns, c, entry);
		h->nconns++;
		conn_arm(c, EV_READ, HTTPD_HEADER_MS);
	}
	accept_update(h);
}

struct httpd *
httpd_new(struct event_base *base, int lfd, const char *path,
    const char *content_type)
{
	struct httpd *h = xcalloc(1, sizeof(*h));

	h->base = base;
	h->lfd = lfd;
	TAILQ_INIT(&h->conns);
	snprintf(h->path, sizeof(h->path), "%s", path);
	snprintf(h->type, sizeof(h->type), "%s", content_type);
	h->page = xcalloc(1, sizeof(*h->page));
	h->page->refs = 1;
	h->page->data = xstrdup("");
	h->accept_ev = event_new(base, lfd, EV_READ | EV_PERSIST, accept_cb,
	    h);
	h->resume_ev = evtimer_new(base, resume_cb, h);
	if (h->accept_ev == NULL || h->resume_ev == NULL) {
		httpd_free(h);
		return (NULL);
	}
	event_add(h->accept_ev, NULL);
	return (h);
}

void
httpd_set_page(struct httpd *h, char *page, size_t len)
{
	struct page *p = xcalloc(1, sizeof(*p));

	p->refs = 1;
	p->data = page;
	p->len = len;
	page_put(h->page);
	h->page = p;
}

void
httpd_free(struct httpd *h)
{
	struct conn *c;

	if (h == NULL)
		return;
	while ((c = TAILQ_FIRST(&h->conns)) != NULL)
		conn_free(c);
	if (h->accept_ev != NULL)
		event_free(h->accept_ev);
	if (h->resume_ev != NULL)
		event_free(h->resume_ev);
	close(h->lfd);
	page_put(h->page);
	free(h);
}

int
httpd_conns(const struct httpd *h)
{
	return (h->nconns);
}
