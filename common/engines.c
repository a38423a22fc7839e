/* SPDX-License-Identifier: MIT */
/*
 * The engine table (engines.h). A new engine is one row here and one
 * file in slave/ (engine_<name>.c, listed in slave/engine.c).
 */
#include "engines.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

static const struct engine_info engines[] = {
	{ "aio",	ENGINE_WANTS_DIRECT },
	{ "io_uring",	0 },
	{ "sync",	ENGINE_SYNC | ENGINE_THREADS },
	{ "null",	ENGINE_NOIO | ENGINE_THREADS },
};

#define NENGINES	(sizeof(engines) / sizeof(engines[0]))

/* Look a row up by name. */
const struct engine_info *
engines_find(const char *name)
{
	size_t i;

	for (i = 0; name != NULL && i < NENGINES; i++) {
		if (strcmp(engines[i].name, name) == 0)
			return (&engines[i]);
	}
	return (NULL);
}

/* The flags of name, 0 when there is no such engine. */
unsigned int
engines_flags(const char *name)
{
	const struct engine_info *e = engines_find(name);

	return (e != NULL ? e->flags : 0);
}

/* The default engine: with o_direct the first that wants it (libaio is
 * truly asynchronous only then), else the first synchronous one. */
const char *
engines_default(int direct)
{
	unsigned int want = direct ? ENGINE_WANTS_DIRECT : ENGINE_SYNC;
	size_t i;

	for (i = 0; i < NENGINES; i++) {
		if ((engines[i].flags & want) != 0 &&
		    (engines[i].flags & ENGINE_NOIO) == 0)
			return (engines[i].name);
	}
	return ("sync");
}

/* The names, for messages: "aio, io_uring, sync or null". */
const char *
engines_list(char *buf, size_t len)
{
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < NENGINES && n < len; i++) {
		const char *sep = i == 0 ? "" : i + 1 == NENGINES ? " or " :
		    ", ";
		int k = snprintf(buf + n, len - n, "%s%s", sep,
		    engines[i].name);

		if (k < 0)
			break;
		n += (size_t)k;
	}
	return (buf);
}
