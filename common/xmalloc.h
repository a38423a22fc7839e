/* SPDX-License-Identifier: MIT */
#ifndef COMMON_XMALLOC_H
#define COMMON_XMALLOC_H

#include <stddef.h>

/*
 * Allocators that abort on out-of-memory (tmux xmalloc.c): a load generator
 * that cannot allocate has nothing useful left to do.
 */
void	*xmalloc(size_t);
void	*xcalloc(size_t, size_t);
void	*xreallocarray(void *, size_t, size_t);
char	*xstrdup(const char *);
char	*xstrndup(const char *, size_t);
int	 xasprintf(char **, const char *, ...)
	    __attribute__((format(printf, 2, 3)));

#endif /* COMMON_XMALLOC_H */
