/* SPDX-License-Identifier: MIT */
/*
 * The engines of this slave, one file each (engine_<name>.c), found by
 * the names of the engine table (common/engines.c), which also gives
 * their flags: a new engine is one file, one line here and one row there.
 */
#include "engine.h"

#include <string.h>

#include "engines.h"

static const struct engine_ops *const engines[] = {
	&engine_aio_ops,
	&engine_uring_ops,
	&engine_null_ops,
	&engine_sync_ops,
};

/* Look an engine up by name: a row of the table with ops here. */
const struct engine_ops *
engine_find(const char *name)
{
	size_t i;

	if (engines_find(name) == NULL)
		return (NULL);
	for (i = 0; i < sizeof(engines) / sizeof(engines[0]); i++) {
		if (strcmp(engines[i]->name, name) == 0)
			return (engines[i]);
	}
	return (NULL);
}

/* threads= OS threads, or one thread with threads= in flight. */
int
engine_threads(const struct engine_ops *ops)
{
	return ((engines_flags(ops->name) & ENGINE_THREADS) != 0);
}
