/* SPDX-License-Identifier: MIT */
/*
 * The null engine: no I/O at all, to measure the tool itself. Like
 * fio's engines/null.c it is asynchronous: queue holds the I/O, and
 * getevents hands it back complete, so the tests that use it go through
 * the same queue and reap path as aio and io_uring.
 */
#include "engine.h"

#include <errno.h>
#include <stdlib.h>

struct null_data {
	int		  qd;
	int		  nqueued;	/* queued, not yet reaped */
	int		  nevents;	/* handed out by the last getevents */
	struct io_u	**queued;
	struct io_u	**events;
};

static void
null_cleanup(void *data)
{
	struct null_data *d = data;

	if (d == NULL)
		return;
	free(d->queued);
	free(d->events);
	free(d);
}

static int
null_init(void **data, int fd, int qd)
{
	struct null_data *d = calloc(1, sizeof(*d));

	(void)fd;
	if (d == NULL)
		return (-ENOMEM);
	d->qd = qd;
	d->queued = calloc((size_t)qd, sizeof(*d->queued));
	d->events = calloc((size_t)qd, sizeof(*d->events));
	if (d->queued == NULL || d->events == NULL) {
		null_cleanup(d);
		return (-ENOMEM);
	}
	*data = d;
	return (0);
}

/* Hold u; it completes whole at the next getevents. */
static int
null_queue(void *data, struct io_u *u)
{
	struct null_data *d = data;

	if (d->nqueued == d->qd) {
		u->res = -EBUSY;	/* more in flight than init allowed */
		return (ENGINE_Q_COMPLETED);
	}
	d->queued[d->nqueued++] = u;
	return (ENGINE_Q_QUEUED);
}

/* Everything queued is complete: never waits. */
static int
null_getevents(void *data, int min, int max, uint64_t timeout_ns)
{
	struct null_data *d = data;
	int i, n = d->nqueued < max ? d->nqueued : max;

	(void)min;
	(void)timeout_ns;
	for (i = 0; i < n; i++) {
		d->events[i] = d->queued[i];
		d->events[i]->res = (long)d->events[i]->len;
	}
	for (i = n; i < d->nqueued; i++)
		d->queued[i - n] = d->queued[i];
	d->nqueued -= n;
	d->nevents = n;
	return (n);
}

static struct io_u *
null_event(void *data, int i)
{
	struct null_data *d = data;

	return (d->events[i]);
}

const struct engine_ops engine_null_ops = {
	.name = "null",
	.init = null_init,
	.queue = null_queue,
	.getevents = null_getevents,
	.event = null_event,
	.cleanup = null_cleanup,
};
