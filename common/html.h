/* SPDX-License-Identifier: MIT */
#ifndef COMMON_HTML_H
#define COMMON_HTML_H

#include <stddef.h>
#include <stdio.h>

/*
 * Text that comes from parmfiles, the command line or slaves, made safe
 * for where it goes (DESIGN.md "Reports"): HTML-escaped in every .html
 * file (& < > " ' become entities, control characters other than tab and
 * newline become '?'), stripped of control characters on the console.
 */
/* s escaped into buf (cut at a whole entity); returns buf. */
const char	*html_esc(char *buf, size_t len, const char *s);
/* s escaped onto f. */
void		 html_put(FILE *f, const char *s);
/*
 * s with control characters (C0 but tab, DEL, and UTF-8-encoded C1 such
 * as the 8-bit CSI) replaced by '?', in place; keep_nl: newlines stay.
 */
char		*text_clean(char *s, int keep_nl);

#endif /* COMMON_HTML_H */
