/* SPDX-License-Identifier: MIT */
/*
 * Caller-owned errors: leaf code fills one and returns -1; the caller decides
 * whether to print it, send it to a peer or abort.
 */
#include "errmsg.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Reset an error to "no error". */
void
errmsg_clear(struct errmsg *e)
{
	memset(e, 0, sizeof(*e));
}

/* Fill an error with a location (file may be NULL) and a message. */
void
errmsg_set(struct errmsg *e, const char *file, int line, int col,
    const char *fmt, ...)
{
	va_list ap;

	if (e == NULL)
		return;
	snprintf(e->file, sizeof(e->file), "%s", file != NULL ? file : "");
	e->line = line;
	e->col = col;
	va_start(ap, fmt);
	vsnprintf(e->text, sizeof(e->text), fmt, ap);
	va_end(ap);
}

/* Format an error for people: location first, then the message. */
const char *
errmsg_str(const struct errmsg *e, char *buf, unsigned long len)
{
	if (e->file[0] != '\0' && e->line > 0 && e->col > 0)
		snprintf(buf, len, "%s:%d:%d: %s", e->file, e->line, e->col,
		    e->text);
	else if (e->file[0] != '\0' && e->line > 0)
		snprintf(buf, len, "%s:%d: %s", e->file, e->line, e->text);
	else
		snprintf(buf, len, "%s", e->text);
	return (buf);
}
