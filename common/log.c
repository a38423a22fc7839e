/* SPDX-License-Identifier: MIT */
/*
 * The diagnostic log: one stderr line per event, with a monotonic stamp so
 * lines of the master and its slaves can be ordered. Message text may come
 * from parmfiles or peers: control characters never reach the terminal,
 * and a slave whose stderr is an .html page (VDBC_LOG_HTML=1, set by the
 * master that starts it) writes it HTML-escaped.
 */
#include "log.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "html.h"
#include "mtime.h"

unsigned int log_debug_mask;
static char log_role[32] = "vdbc";
static char log_host[64] = "";
static int log_as_html;

/* Name the role and host that prefix every line. */
void
log_open(const char *role, const char *host)
{
	snprintf(log_role, sizeof(log_role), "%s", role);
	snprintf(log_host, sizeof(log_host), "%s", host != NULL ? host : "");
	log_as_html = getenv("VDBC_LOG_HTML") != NULL &&
	    strcmp(getenv("VDBC_LOG_HTML"), "1") == 0;
}

const char *
log_text(char *buf, size_t len, const char *s)
{
	char tmp[1024];

	snprintf(tmp, sizeof(tmp), "%s", s);
	text_clean(tmp, 0);
	if (log_as_html)
		return (html_esc(buf, len, tmp));
	snprintf(buf, len, "%s", tmp);
	return (buf);
}

/* Debug categories from a comma list. */
int
log_debug_parse(const char *list, unsigned int *maskp)
{
	static const struct { const char *name; unsigned int bit; } cats[] = {
		{ "net", LOG_NET }, { "proto", LOG_PROTO },
		{ "plan", LOG_PLAN }, { "aio", LOG_AIO },
	};
	char buf[256], *word, *save = NULL;
	unsigned int mask = 0;
	size_t i;

	if (strlen(list) >= sizeof(buf) || list[0] == '\0' ||
	    list[0] == ',' || list[strlen(list) - 1] == ',' ||
	    strstr(list, ",,") != NULL)
		return (-1);
	snprintf(buf, sizeof(buf), "%s", list);
	for (word = strtok_r(buf, ",", &save); word != NULL;
	    word = strtok_r(NULL, ",", &save)) {
		if (strcmp(word, "all") == 0) {
			mask = ~0u;
			continue;
		}
		for (i = 0; i < sizeof(cats) / sizeof(cats[0]); i++) {
			if (strcmp(word, cats[i].name) == 0)
				break;
		}
		if (i == sizeof(cats) / sizeof(cats[0]))
			return (-1);
		mask |= cats[i].bit;
	}
	*maskp = mask;
	return (0);
}

/* Turn on debug categories from a comma list. */
int
log_set_debug(const char *list)
{
	unsigned int mask;

	if (log_debug_parse(list, &mask) != 0)
		return (-1);
	log_debug_mask = mask;
	return (0);
}

/* Write one line with its prefix. */
static void __attribute__((format(printf, 2, 0)))
log_vline(const char *level, const char *fmt, va_list ap)
{
	uint64_t ns = mtime_now_ns();
	char msg[2048], line[2200], html[8192];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	snprintf(line, sizeof(line), "%llu.%06llu %s%s%s %s: %s",
	    (unsigned long long)(ns / 1000000000u),
	    (unsigned long long)(ns % 1000000000u / 1000u), log_role,
	    log_host[0] != '\0' ? "@" : "", log_host, level, msg);
	text_clean(line, 0);
	fprintf(stderr, "%s\n", log_as_html ? html_esc(html, sizeof(html),
	    line) : line);
}

/* An error: something failed. */
void
log_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_vline("error", fmt, ap);
	va_end(ap);
}

/* A warning: something is off but work goes on. */
void
log_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_vline("warn", fmt, ap);
	va_end(ap);
}

/* Information worth keeping. */
void
log_info(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_vline("info", fmt, ap);
	va_end(ap);
}

/* One frame through a link (link_set_trace). */
void
log_frame(int fd, int out, const char *type, unsigned int len,
    unsigned int tag)
{
	log_debug(LOG_PROTO, "fd %d %s %s, %u bytes, tag %u", fd, out ?
	    "sent" : "received", type, len, tag);
}

/* A debug line; callers use the log_debug() macro. */
void
log_debug_line(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_vline("debug", fmt, ap);
	va_end(ap);
}
