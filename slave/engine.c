/* SPDX-License-Identifier: MIT */
/*
 * The engines: sync (one pread/pwrite per I/O, threads=N threads) and null
 * (no I/O at all: measures the tool itself). libaio comes with the engine
 * work; it is one more row here.
 */
#include "engine.h"

#include <string.h>
#include <unistd.h>

/* pread or pwrite, retried on EINTR, short transfers completed. */
static long
sync_io(int fd, void *buf, size_t len, uint64_t off, int is_write)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = is_write ?
		    pwrite(fd, (char *)buf + done, len - done,
		    (off_t)(off + done)) :
		    pread(fd, (char *)buf + done, len - done,
		    (off_t)(off + done));

		if (n < 0)
			return (-1);
		if (n == 0)
			break;		/* read past the end of a file */
		done += (size_t)n;
	}
	return ((long)done);
}

/* No I/O: every request completes at once. */
static long
null_io(int fd, void *buf, size_t len, uint64_t off, int is_write)
{
	(void)fd;
	(void)buf;
	(void)off;
	(void)is_write;
	return ((long)len);
}

static const struct engine_ops engine_sync = { "sync", sync_io };
static const struct engine_ops engine_null = { "null", null_io };

static const struct engine_ops *const engines[] = {
	&engine_sync,
	&engine_null,
};

/* Look an engine up by name. */
const struct engine_ops *
engine_find(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(engines) / sizeof(engines[0]); i++) {
		if (strcmp(engines[i]->name, name) == 0)
			return (engines[i]);
	}
	return (NULL);
}
