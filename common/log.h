/* SPDX-License-Identifier: MIT */
#ifndef COMMON_LOG_H
#define COMMON_LOG_H

#include <stddef.h>

/*
 * Diagnostic log of the master and slave roles (not the vdbench console,
 * which master/console writes). Leaf code in common/ and proto/ never calls
 * these: it fills a struct errmsg instead. Each line carries a monotonic
 * timestamp, the role and host, and the level.
 */
enum log_cat {
	LOG_NET		= 1 << 0,
	LOG_PROTO	= 1 << 1,
	LOG_PLAN	= 1 << 2,
	LOG_AIO		= 1 << 3,
};

extern unsigned int log_debug_mask;	/* written only by log_set_debug() */

/* The categories --debug= takes, for usage and error texts. */
#define LOG_DEBUG_WORDS	"net,proto,plan,aio or all"

void	log_open(const char *role, const char *host);
/* Parse "net,proto,plan,aio" or "all" into mask; -1 on an unknown or
 * empty word. */
int	log_debug_parse(const char *list, unsigned int *mask);
/* Turn on the categories of list (log_debug_parse); -1 as it. */
int	log_set_debug(const char *list);
void	log_error(const char *, ...) __attribute__((format(printf, 1, 2)));
void	log_warn(const char *, ...) __attribute__((format(printf, 1, 2)));
void	log_info(const char *, ...) __attribute__((format(printf, 1, 2)));
void	log_debug_line(const char *, ...)
	    __attribute__((format(printf, 1, 2)));
/*
 * Text from outside (a name) as log lines carry it: control characters
 * as '?', HTML-escaped when this process logs into a page. Returns buf.
 */
const char *log_text(char *buf, size_t len, const char *);
/*
 * A frame in or out on the link of socket fd (LOG_PROTO): the shape of
 * proto/link.h's link_trace_fn, so a role hands it to link_set_trace().
 */
void	log_frame(int fd, int out, const char *type, unsigned int len,
	    unsigned int tag);

/* The enable test happens before any formatting (redis serverLog). */
#define log_debug(cat, ...) do {					\
	if (log_debug_mask & (cat))					\
		log_debug_line(__VA_ARGS__);				\
} while (0)

#endif /* COMMON_LOG_H */
