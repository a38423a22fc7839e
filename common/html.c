/* SPDX-License-Identifier: MIT */
/* Escaping of outside text for the report pages and the console. */
#include "html.h"

#include <string.h>

/* The entity for c, or NULL when c stands for itself. */
static const char *
entity(unsigned char c)
{
	switch (c) {
	case '&':
		return ("&amp;");
	case '<':
		return ("&lt;");
	case '>':
		return ("&gt;");
	case '"':
		return ("&quot;");
	case '\'':
		return ("&#39;");
	default:
		return (c < 0x20 && c != '\t' && c != '\n') || c == 0x7f ?
		    "?" : NULL;
	}
}

const char *
html_esc(char *buf, size_t len, const char *s)
{
	size_t o = 0;

	if (len == 0)
		return (buf);
	for (; s != NULL && *s != '\0'; s++) {
		const char *e = entity((unsigned char)*s);
		size_t n = e != NULL ? strlen(e) : 1;

		if (o + n >= len)
			break;
		if (e != NULL)
			memcpy(buf + o, e, n);
		else
			buf[o] = *s;
		o += n;
	}
	buf[o] = '\0';
	return (buf);
}

void
html_put(FILE *f, const char *s)
{
	for (; s != NULL && *s != '\0'; s++) {
		const char *e = entity((unsigned char)*s);

		if (e != NULL)
			fputs(e, f);
		else
			fputc(*s, f);
	}
}

char *
text_clean(char *s, int keep_nl)
{
	unsigned char *p;

	for (p = (unsigned char *)s; *p != '\0'; p++) {
		if ((*p < 0x20 && *p != '\t' && (*p != '\n' || !keep_nl)) ||
		    *p == 0x7f)
			*p = '?';
		else if (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f) {
			/* U+0080..U+009F: two bytes become "??" */
			p[0] = '?';
			p[1] = '?';
			p++;
		} else if (*p >= 0x80 && *p <= 0x9f && (p == (unsigned char *)s ||
		    p[-1] < 0x80))
			*p = '?';	/* a lone 8-bit C1 byte, not inside UTF-8 */
	}
	return (s);
}
