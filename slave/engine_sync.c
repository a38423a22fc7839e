/* SPDX-License-Identifier: MIT */
/*
 * The sync engine: one pread or pwrite per I/O, done in queue (fio's
 * psync). threads= runs that many threads, one I/O in flight each.
 */
#include "engine.h"

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

struct sync_data {
	int	fd;
};

static int
sync_init(void **data, int fd, int qd)
{
	struct sync_data *d = calloc(1, sizeof(*d));

	(void)qd;
	if (d == NULL)
		return (-ENOMEM);
	d->fd = fd;
	*data = d;
	return (0);
}

/* pread or pwrite, retried on EINTR, short transfers completed; a read
 * past the end of a file stops short. */
static int
sync_queue(void *data, struct io_u *u)
{
	struct sync_data *d = data;
	size_t done = 0, len = (size_t)u->len;

	while (done < len) {
		ssize_t n = u->dir ?
		    pwrite(d->fd, (char *)u->wbuf + done, len - done,
		    (off_t)(u->off + done)) :
		    pread(d->fd, (char *)u->buf + done, len - done,
		    (off_t)(u->off + done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			u->res = -errno;
			return (ENGINE_Q_COMPLETED);
		}
		if (n == 0)
			break;
		done += (size_t)n;
	}
	u->res = (long)done;
	return (ENGINE_Q_COMPLETED);
}

static void
sync_cleanup(void *data)
{
	free(data);
}

const struct engine_ops engine_sync_ops = {
	.name = "sync",
	.init = sync_init,
	.queue = sync_queue,
	.cleanup = sync_cleanup,
};
