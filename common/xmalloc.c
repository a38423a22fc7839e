/* SPDX-License-Identifier: MIT */
/* Allocation wrappers that never return NULL. */
#include "xmalloc.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Report an allocation failure and abort. */
static void
oom(size_t n)
{
	fprintf(stderr, "vdbc: out of memory allocating %zu bytes\n", n);
	abort();
}

/* malloc that aborts on failure; zero bytes still gives a pointer. */
void *
xmalloc(size_t n)
{
	void *p = malloc(n == 0 ? 1 : n);

	if (p == NULL)
		oom(n);
	return (p);
}

/* calloc that aborts on failure. */
void *
xcalloc(size_t nmemb, size_t size)
{
	void *p;

	if (nmemb == 0 || size == 0)
		nmemb = size = 1;
	if ((p = calloc(nmemb, size)) == NULL)
		oom(nmemb * size);
	return (p);
}

/* reallocarray that aborts on failure or overflow. */
void *
xreallocarray(void *ptr, size_t nmemb, size_t size)
{
	void *p;

	if (size != 0 && nmemb > SIZE_MAX / size)
		oom(SIZE_MAX);
	if ((p = realloc(ptr, nmemb * size == 0 ? 1 : nmemb * size)) == NULL)
		oom(nmemb * size);
	return (p);
}

/* strdup that aborts on failure. */
char *
xstrdup(const char *s)
{
	char *p = strdup(s);

	if (p == NULL)
		oom(strlen(s) + 1);
	return (p);
}

/* strndup that aborts on failure. */
char *
xstrndup(const char *s, size_t n)
{
	char *p = strndup(s, n);

	if (p == NULL)
		oom(n + 1);
	return (p);
}

/* asprintf that aborts on failure; returns the length. */
int
xasprintf(char **ret, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(ret, fmt, ap);
	va_end(ap);
	if (n < 0)
		oom(0);
	return (n);
}
