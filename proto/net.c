/* SPDX-License-Identifier: MIT */
/* TCP dial and listen (see net.h). */
#include "net.h"

#include <errno.h>
#include <stdarg.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <event2/event.h>
#include <event2/util.h>

#include "xmalloc.h"

#define NET_CONNECT_S	10
#define NET_PAUSE_MS	1000	/* accepting, when out of fds */

struct listener {
	struct event	*ev;
	struct event	*resume;
	listener_fn	*fn;
	void		*arg;
	int		 max;
	int		 unproved;
	int		 paused;	/* by the timer (out of fds) */
	int		 told;		/* fn heard of this shortage */
};

int
net_split(const char *hp, char *host, size_t hostlen, char *port,
    size_t portlen)
{
	const char *colon, *end;

	port[0] = '\0';
	if (hp[0] == '[') {
		if ((end = strchr(hp, ']')) == NULL)
			return (-1);
		snprintf(host, hostlen, "%.*s", (int)(end - hp - 1), hp + 1);
		if (end[1] == ':')
			snprintf(port, portlen, "%s", end + 2);
		else if (end[1] != '\0')
			return (-1);
		return (host[0] == '\0' ? -1 : 0);
	}
	colon = strrchr(hp, ':');
	if (colon != NULL && strchr(hp, ':') != colon)
		colon = NULL;		/* a bare IPv6 address */
	if (colon == NULL) {
		snprintf(host, hostlen, "%s", hp);
	} else {
		snprintf(host, hostlen, "%.*s", (int)(colon - hp), hp);
		snprintf(port, portlen, "%s", colon + 1);
		if (port[0] == '\0')
			return (-1);
	}
	return (host[0] == '\0' ? -1 : 0);
}

int
net_dial(const char *hostport, const char *default_port, struct errmsg *e)
{
	struct addrinfo hints, *res = NULL, *ai;
	struct timeval tv = { NET_CONNECT_S, 0 };
	char host[256], port[32];
	int fd = -1, rc, err = 0;

	if (net_split(hostport, host, sizeof(host), port, sizeof(port)) != 0 ||
	    (port[0] == '\0' && default_port == NULL)) {
		errmsg_set(e, NULL, 0, 0, "wanted HOST:PORT, not '%s'",
		    hostport);
		return (-1);
	}
	if (port[0] == '\0')
		snprintf(port, sizeof(port), "%s", default_port);
	memset(&hints, 0, sizeof(hints));
	hints.ai_socktype = SOCK_STREAM;
	if ((rc = getaddrinfo(host, port, &hints, &res)) != 0) {
		errmsg_set(e, NULL, 0, 0, "%s: %s", hostport,
		    gai_strerror(rc));
		return (-1);
	}
	for (ai = res; ai != NULL; ai = ai->ai_next) {
		fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, 0);
		if (fd < 0)
			continue;
		setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
		if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0) {
			net_keepalive(fd);
			break;
		}
		err = errno;
		close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	if (fd < 0)
		errmsg_set(e, NULL, 0, 0, "cannot connect to %s:%s: %s", host,
		    port, strerror(err == EINPROGRESS ? ETIMEDOUT : err));
	return (fd);
}

/* A non-blocking dial in progress (net_dial_start). */
struct dialing {
	struct event_base	*base;
	struct addrinfo		*res, *next;	/* addresses left to try */
	struct event		*ev;		/* the socket writable */
	struct event		*timer;		/* the window */
	dial_fn			*fn;
	void			*arg;
	int			 fd;
	int			 err;		/* the last address's errno */
	int			 window_s;
	int			 tried_all;	/* every address failed */
	char			 where[300];	/* host:port */
};

static void
dialing_free(struct dialing *d)
{
	if (d->ev != NULL)
		event_free(d->ev);
	if (d->timer != NULL)
		event_free(d->timer);
	if (d->fd >= 0)
		close(d->fd);
	if (d->res != NULL)
		freeaddrinfo(d->res);
	free(d);
}

/* Tell the owner (once) and go. */
static void
dialing_end(struct dialing *d, int fd, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void
dialing_end(struct dialing *d, int fd, const char *fmt, ...)
{
	char why[600] = "";
	va_list ap;

	if (fmt != NULL) {
		va_start(ap, fmt);
		vsnprintf(why, sizeof(why), fmt, ap);
		va_end(ap);
	}
	if (fd >= 0)
		d->fd = -1;		/* the owner's now */
	d->fn(fd, fd >= 0 ? NULL : why, d->arg);
	dialing_free(d);
}

static void dialing_ready_cb(evutil_socket_t, short, void *);

/*
 * Start a connect to the next address; its answer comes to
 * dialing_ready_cb. A connect refused at once moves on to the next one.
 */
static void
dialing_next(struct dialing *d)
{
	struct timeval now = { 0, 0 };
	struct addrinfo *ai;

	while ((ai = d->next) != NULL) {
		d->next = ai->ai_next;
		d->fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC |
		    SOCK_NONBLOCK, 0);
		if (d->fd < 0) {
			d->err = errno;
			continue;
		}
		if (connect(d->fd, ai->ai_addr, ai->ai_addrlen) == 0 ||
		    errno == EINPROGRESS) {
			if (d->ev != NULL)
				event_free(d->ev);
			d->ev = event_new(d->base, d->fd, EV_WRITE,
			    dialing_ready_cb, d);
			if (d->ev != NULL && event_add(d->ev, NULL) == 0)
				return;
			d->err = ENOMEM;
		} else
			d->err = errno;
		close(d->fd);
		d->fd = -1;
	}
	/* said from the timer, never from inside net_dial_start */
	d->tried_all = 1;
	evtimer_add(d->timer, &now);
}

/* The connect ended: connected, or this address failed. */
static void
dialing_ready_cb(evutil_socket_t fd, short what, void *arg)
{
	struct dialing *d = arg;
	socklen_t len = sizeof(d->err);
	int err = 0;

	(void)what;
	if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) != 0)
		err = errno;
	if (err == 0) {
		net_keepalive(d->fd);
		dialing_end(d, d->fd, NULL);
		return;
	}
	d->err = err;
	close(d->fd);
	d->fd = -1;
	dialing_next(d);
}

/* The window passed with no answer: packets dropped on the way. */
static void
dialing_late_cb(evutil_socket_t fd, short what, void *arg)
{
	struct dialing *d = arg;

	(void)fd;
	(void)what;
	if (d->tried_all)
		dialing_end(d, -1, "cannot connect to %s: %s", d->where,
		    strerror(d->err != 0 ? d->err : EHOSTUNREACH));
	else
		dialing_end(d, -1, "cannot connect to %s: timed out (no answer "
	    "within %d s: the host is down, or something on the way drops "
	    "the packets)", d->where, d->window_s);
}

struct dialing *
net_dial_start(struct event_base *base, const char *hostport,
    const char *default_port, int window_s, dial_fn *fn, void *arg,
    struct errmsg *e)
{
	struct addrinfo hints;
	struct timeval tv = { window_s, 0 };
	struct dialing *d;
	char host[256], port[32];
	int rc;

	if (net_split(hostport, host, sizeof(host), port, sizeof(port)) != 0 ||
	    (port[0] == '\0' && default_port == NULL)) {
		errmsg_set(e, NULL, 0, 0, "wanted HOST:PORT, not '%s'",
		    hostport);
		return (NULL);
	}
	if (port[0] == '\0')
		snprintf(port, sizeof(port), "%s", default_port);
	d = xcalloc(1, sizeof(*d));
	d->base = base;
	d->fn = fn;
	d->arg = arg;
	d->fd = -1;
	d->window_s = window_s;
	snprintf(d->where, sizeof(d->where), strchr(host, ':') != NULL ?
	    "[%s]:%s" : "%s:%s", host, port);
	memset(&hints, 0, sizeof(hints));
	hints.ai_socktype = SOCK_STREAM;
	/* names are looked up here, before the loop runs on: system= was
	 * resolved once already when the parmfile was read */
	if ((rc = getaddrinfo(host, port, &hints, &d->res)) != 0) {
		errmsg_set(e, NULL, 0, 0, "%s: %s", hostport,
		    gai_strerror(rc));
		d->res = NULL;
		dialing_free(d);
		return (NULL);
	}
	d->next = d->res;
	if ((d->timer = evtimer_new(base, dialing_late_cb, d)) == NULL ||
	    evtimer_add(d->timer, &tv) != 0) {
		errmsg_set(e, NULL, 0, 0, "%s: out of memory", hostport);
		dialing_free(d);
		return (NULL);
	}
	dialing_next(d);
	return (d);
}

void
net_dial_cancel(struct dialing *d)
{
	if (d != NULL)
		dialing_free(d);
}

int
net_listen(const char *addr, int port, int backlog, int *bound_port,
    struct errmsg *e)
{
	struct addrinfo hints, *res = NULL, *ai;
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	char ps[16];
	int fd = -1, one = 1, rc, err = 0;

	snprintf(ps, sizeof(ps), "%d", port);
	memset(&hints, 0, sizeof(hints));
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_PASSIVE;
	if ((rc = getaddrinfo(addr, ps, &hints, &res)) != 0) {
		errmsg_set(e, NULL, 0, 0, "%s: %s", addr != NULL ? addr : "*",
		    gai_strerror(rc));
		return (-1);
	}
	for (ai = res; ai != NULL; ai = ai->ai_next) {
		fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, 0);
		if (fd < 0)
			continue;
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (bind(fd, ai->ai_addr, ai->ai_addrlen) == 0 &&
		    listen(fd, backlog) == 0 &&
		    getsockname(fd, (struct sockaddr *)&ss, &len) == 0)
			break;
		err = errno;
		close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	if (fd < 0) {
		errmsg_set(e, NULL, 0, 0, "cannot listen on %s:%d: %s",
		    addr != NULL ? addr : "*", port, strerror(err));
		return (-1);
	}
	evutil_make_socket_nonblocking(fd);
	if (bound_port != NULL)
		*bound_port = ss.ss_family == AF_INET6 ?
		    ntohs(((struct sockaddr_in6 *)&ss)->sin6_port) :
		    ntohs(((struct sockaddr_in *)&ss)->sin_port);
	return (fd);
}

void
net_peer_name(int fd, char *buf, size_t len)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	char h[NI_MAXHOST], p[NI_MAXSERV];

	snprintf(buf, len, "?");
	if (getpeername(fd, (struct sockaddr *)&ss, &sl) == 0 &&
	    getnameinfo((struct sockaddr *)&ss, sl, h, sizeof(h), p,
	    sizeof(p), NI_NUMERICHOST | NI_NUMERICSERV) == 0)
		snprintf(buf, len, "%.100s:%.10s", h, p);
}

void
net_keepalive(int fd)
{
	int one = 1, idle = 10, intvl = 5, cnt = 3;

	setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof(one));
	setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof(idle));
	setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &intvl, sizeof(intvl));
	setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &cnt, sizeof(cnt));
}

/* Listen again if the owner has room. */
static void
listener_update(struct listener *ls)
{
	if (ls->paused || ls->unproved >= ls->max)
		event_del(ls->ev);
	else
		event_add(ls->ev, NULL);
}

/* The pause for fds is over. */
static void
listener_resume_cb(evutil_socket_t fd, short what, void *arg)
{
	struct listener *ls = arg;

	(void)fd;
	(void)what;
	ls->paused = 0;
	listener_update(ls);
}

/* Accept what is waiting, up to the cap. */
static void
listener_accept_cb(evutil_socket_t lfd, short what, void *arg)
{
	struct listener *ls = arg;
	struct timeval t = { NET_PAUSE_MS / 1000, NET_PAUSE_MS % 1000 * 1000 };
	char peer[128];
	int fd, err;

	(void)what;
	while (ls->unproved < ls->max) {
		if ((fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC |
		    SOCK_NONBLOCK)) < 0) {
			err = errno;
			if (err == EINTR || err == ECONNABORTED)
				continue;
			if (err != EMFILE && err != ENFILE && err != ENOBUFS &&
			    err != ENOMEM)
				break;		/* EAGAIN: all taken */
			ls->paused = 1;
			evtimer_add(ls->resume, &t);
			if (!ls->told) {
				ls->told = 1;
				errno = err;
				ls->fn(-1, NULL, ls->arg);
			}
			break;
		}
		ls->told = 0;
		ls->unproved++;
		net_keepalive(fd);
		net_peer_name(fd, peer, sizeof(peer));
		ls->fn(fd, peer, ls->arg);
	}
	listener_update(ls);
}

struct listener *
listener_new(struct event_base *base, int lfd, int max, listener_fn *fn,
    void *arg)
{
	struct listener *ls = xcalloc(1, sizeof(*ls));

	ls->fn = fn;
	ls->arg = arg;
	ls->max = max > 0 ? max : 1;
	ls->ev = event_new(base, lfd, EV_READ | EV_PERSIST, listener_accept_cb,
	    ls);
	ls->resume = evtimer_new(base, listener_resume_cb, ls);
	if (ls->ev == NULL || ls->resume == NULL) {
		listener_free(ls);
		return (NULL);
	}
	event_add(ls->ev, NULL);
	return (ls);
}

void
listener_done(struct listener *ls)
{
	if (ls->unproved > 0)
		ls->unproved--;
	listener_update(ls);
}

int
listener_unproved(const struct listener *ls)
{
	return (ls->unproved);
}

void
listener_free(struct listener *ls)
{
	if (ls == NULL)
		return;
	if (ls->ev != NULL)
		event_free(ls->ev);
	if (ls->resume != NULL)
		event_free(ls->resume);
	free(ls);
}
