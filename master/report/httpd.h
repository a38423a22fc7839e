/* SPDX-License-Identifier: MIT */
#ifndef MASTER_HTTPD_H
#define MASTER_HTTPD_H

#include <stddef.h>

#include <event2/event.h>

/*
 * A small HTTP/1.x server bounded like one facing strangers, for
 * --metrics (docs/metrics.md): it serves one page, GET or HEAD of its
 * path or "/", one request per connection (Connection: close). Owns the
 * listening socket, the connections and the pages still being sent.
 * Whatever a client does, it costs the master at most:
 * - HTTPD_MAX_CONNS connections at a time (then accepting waits, the
 *   kernel's queue holds the rest);
 * - HTTPD_HEADER_BYTES of request header each (then 431 and close), the
 *   whole header within HTTPD_HEADER_MS of the accept (then close);
 * - one reply each, the page shared by reference, taken by the client
 *   within HTTPD_SEND_MS (then close);
 * - out of file descriptors: accepting pauses for a second, and one log
 *   line a minute at most says so.
 * It never logs per connection.
 */
#define HTTPD_MAX_CONNS		64
#define HTTPD_HEADER_BYTES	8192
#define HTTPD_HEADER_MS		5000
#define HTTPD_SEND_MS		10000

struct httpd;

/*
 * Serve on lfd (bound, listening, non-blocking; owned from here on) the
 * page at path ("/metrics") with content_type; NULL when out of memory.
 */
struct httpd	*httpd_new(struct event_base *, int lfd, const char *path,
		    const char *content_type);
/* The page from now on (malloc'ed, owned from here on). */
void		 httpd_set_page(struct httpd *, char *page, size_t len);
/* Close every connection and the listening socket. */
void		 httpd_free(struct httpd *);
/* Connections open now (for tests and the log). */
int		 httpd_conns(const struct httpd *);

#endif /* MASTER_HTTPD_H */
