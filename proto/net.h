/* SPDX-License-Identifier: MIT */
#ifndef PROTO_NET_H
#define PROTO_NET_H

#include <stddef.h>

#include "errmsg.h"

/*
 * TCP endpoints for the links: dialling "HOST:PORT" (or "HOST" with a
 * default port; "[v6]:PORT" too) and listening on "ADDR:PORT". A slave
 * dials its one master with a blocking connect and a time limit; the
 * master dials its daemons without blocking, all at once. Then the socket
 * is handed to a link. The
 * listener accepts for its owner with a cap on the peers that have not
 * proved themselves yet, and pauses (never spins) when out of fds.
 */
struct event_base;
struct listener;
/* Connect; the fd (close-on-exec, blocking) or -1 with e set. */
int	net_dial(const char *hostport, const char *default_port,
	    struct errmsg *);
/*
 * Connect without blocking: each address of HOST[:PORT] in turn, all
 * within window_s. fn hears once, from the event loop (never from inside
 * net_dial_start): the fd (connected, non-blocking, close-on-exec,
 * keepalive), or -1 and why ("cannot connect to H:P: Connection refused",
 * "... timed out (no answer within 10 s ...)"). The dial frees itself
 * after fn; net_dial_cancel() drops one fn has not heard of yet. NULL
 * with e set when HOST[:PORT] is malformed or does not resolve.
 */
struct dialing;
typedef void dial_fn(int fd, const char *why, void *arg);
struct dialing	*net_dial_start(struct event_base *, const char *hostport,
		    const char *default_port, int window_s, dial_fn *,
		    void *arg, struct errmsg *);
void		 net_dial_cancel(struct dialing *);
/* Listen with room for backlog connections not yet accepted (the kernel
 * caps it at net.core.somaxconn); the fd (non-blocking) or -1. *port
 * gets the bound port. */
int	net_listen(const char *addr, int port, int backlog, int *bound_port,
	    struct errmsg *);
/* Turn on TCP keepalive (a peer whose host vanished is noticed). */
void	net_keepalive(int fd);
/*
 * Accepted sockets (non-blocking, close-on-exec, keepalive) go to fn with
 * the peer's "addr:port". Each counts as unproved until the owner calls
 * listener_done() for it (it proved itself, or it is gone); at max of
 * them accepting stops until one is done. When accept fails for lack of
 * fds or memory, accepting pauses for a second and fn hears fd -1 with
 * errno set (once, until an accept succeeds again).
 */
typedef void listener_fn(int fd, const char *peer, void *arg);
struct listener	*listener_new(struct event_base *, int lfd, int max,
		    listener_fn *, void *arg);
void		 listener_done(struct listener *);
/* Connections accepted and not yet done. */
int		 listener_unproved(const struct listener *);
void		 listener_free(struct listener *);
/* "addr:port" of a socket's peer ("?" when unknown). */
void	net_peer_name(int fd, char *buf, size_t len);
/* Split "HOST:PORT" / "[v6]:PORT" / "HOST"; 0, or -1 when malformed. */
int	net_split(const char *hostport, char *host, size_t hostlen,
	    char *port, size_t portlen);

#endif /* PROTO_NET_H */
