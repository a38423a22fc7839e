/* SPDX-License-Identifier: MIT */
/* TCP dial and listen (see net.h). */
#include "net.h"

#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <event2/util.h>

#define NET_CONNECT_S	10

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
		if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0)
			break;
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

int
net_listen(const char *addr, int port, int *bound_port, struct errmsg *e)
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
		    listen(fd, 64) == 0 &&
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
