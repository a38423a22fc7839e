/* SPDX-License-Identifier: MIT */
/*
 * Number parsing and printing exactly as vdbench does it, since parmfiles
 * depend on its quirks (no "s" suffix; "m" is minutes only for times).
 */
#include "units.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Parse a plain decimal number filling the whole string (Java-like). */
static int
parse_plain(const char *s, size_t len, double *out)
{
	char buf[128], *end;
	size_t i;
	double v;

	if (len == 0 || len >= sizeof(buf))
		return (-1);
	memcpy(buf, s, len);
	buf[len] = '\0';
	/* Java parseDouble takes no hex, inf or nan words here. */
	for (i = 0; i < len; i++) {
		char c = buf[i];

		if (!isdigit((unsigned char)c) && c != '.' && c != 'e' &&
		    c != 'E' && c != '+' && c != '-')
			return (-1);
	}
	errno = 0;
	v = strtod(buf, &end);
	if (end != buf + len || errno == ERANGE || !isfinite(v))
		return (-1);
	*out = v;
	return (0);
}

/* Numeric value of s, or -1 when s is alpha in this mode. */
int
units_parse(const char *s, enum units_mode mode, double *out)
{
	size_t len = strlen(s);
	double v, mult;
	char c;

	if (parse_plain(s, len, out) == 0)
		return (0);
	if (mode == UNITS_PLAIN || len < 2)
		return (-1);
	c = (char)tolower((unsigned char)s[len - 1]);
	if (c == 'b' && len > 2) {
		len--;
		c = (char)tolower((unsigned char)s[len - 1]);
	}
	switch (c) {
	case 'k':
		mult = 1024.0;
		break;
	case 'm':
		mult = mode == UNITS_TIME ? 60.0 : 1024.0 * 1024;
		break;
	case 'g':
		mult = 1024.0 * 1024 * 1024;
		break;
	case 't':
		mult = 1024.0 * 1024 * 1024 * 1024;
		break;
	case 'h':
		mult = 3600.0;
		break;
	case '%':
		mult = -1.0;
		break;
	default:
		return (-1);
	}
	if (parse_plain(s, len - 1, &v) != 0)
		return (-1);
	*out = v * mult;
	return (0);
}

/* Print a size or count the way vdbench's run lines show it. */
const char *
units_whatsize(double v, char *buf, size_t len)
{
	static const char suffix[] = "kmgtp";
	size_t i;
	char *dot;

	if (v < 1024) {
		snprintf(buf, len, "%lld", (long long)v);
		return (buf);
	}
	for (i = 0; i < sizeof(suffix) - 2 && v / 1024 >= 1024; i++)
		v /= 1024;
	snprintf(buf, len, "%.3f%c", v / 1024, suffix[i]);
	if ((dot = strstr(buf, ".000")) != NULL)
		memmove(dot, dot + 4, strlen(dot + 4) + 1);
	return (buf);
}

/* 1234567 as "1,234,567" (vdbench's "#,###"). */
const char *
units_grouped(uint64_t v, char *buf, size_t len)
{
	char tmp[32];
	size_t n, i, o = 0;

	snprintf(tmp, sizeof(tmp), "%llu", (unsigned long long)v);
	n = strlen(tmp);
	for (i = 0; i < n && o + 2 < len; i++) {
		if (i > 0 && (n - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = tmp[i];
	}
	buf[o] = '\0';
	return (buf);
}
