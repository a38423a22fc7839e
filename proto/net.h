/* SPDX-License-Identifier: MIT */
#ifndef PROTO_NET_H
#define PROTO_NET_H

#include <stddef.h>

#include "errmsg.h"

/*
 * TCP endpoints for the links: dialling "HOST:PORT" (or "HOST" with a
 * default port; "[v6]:PORT" too) and listening on "ADDR:PORT". Blocking
 * connect with a time limit, then the socket is handed to a link.
 */
/* Connect; the fd (close-on-exec, blocking) or -1 with e set. */
int	net_dial(const char *hostport, const char *default_port,
	    struct errmsg *);
/* Listen; the fd (non-blocking) or -1. *port gets the bound port. */
int	net_listen(const char *addr, int port, int *bound_port,
	    struct errmsg *);
/* "addr:port" of a socket's peer ("?" when unknown). */
void	net_peer_name(int fd, char *buf, size_t len);
/* Split "HOST:PORT" / "[v6]:PORT" / "HOST"; 0, or -1 when malformed. */
int	net_split(const char *hostport, char *host, size_t hostlen,
	    char *port, size_t portlen);

#endif /* PROTO_NET_H */
