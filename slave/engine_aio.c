/* SPDX-License-Identifier: MIT */
/*
 * The aio engine: Linux native asynchronous I/O through libaio, one
 * io_submit per I/O in queue, io_getevents to reap. Truly asynchronous
 * only with o_direct (ENGINE_WANTS_DIRECT), so it is the default engine
 * of an sd with openflags=o_direct. One thread keeps threads= I/Os in
 * flight.
 */
#include "engine.h"

#include <errno.h>
#include <stdlib.h>
#include <time.h>

#include <libaio.h>

struct aio_data {
	int		 fd;
	io_context_t	 ctx;
	struct iocb	*cbs;		/* one per io_u, by its index */
	struct io_event	*ev;
};

static void
aio_cleanup(void *data)
{
	struct aio_data *d = data;

	if (d == NULL)
		return;
	if (d->ctx != 0)
		io_destroy(d->ctx);
	free(d->cbs);
	free(d->ev);
	free(d);
}

static int
aio_init(void **data, int fd, int qd)
{
	struct aio_data *d = calloc(1, sizeof(*d));
	int r;

	if (d == NULL)
		return (-ENOMEM);
	d->fd = fd;
	d->cbs = calloc((size_t)qd, sizeof(*d->cbs));
	d->ev = calloc((size_t)qd, sizeof(*d->ev));
	if (d->cbs == NULL || d->ev == NULL) {
		aio_cleanup(d);
		return (-ENOMEM);
	}
	if ((r = io_setup(qd, &d->ctx)) < 0) {
		d->ctx = 0;
		aio_cleanup(d);
		return (r);
	}
	*data = d;
	return (0);
}

/* Submit u alone; a refused submission completes it with the error. */
static int
aio_queue(void *data, struct io_u *u)
{
	struct aio_data *d = data;
	struct iocb *cb = &d->cbs[u->index];
	int r;

	if (u->dir)
		io_prep_pwrite(cb, d->fd, u->wbuf, u->len, (long long)u->off);
	else
		io_prep_pread(cb, d->fd, u->buf, u->len, (long long)u->off);
	cb->data = u;
	if ((r = io_submit(d->ctx, 1, &cb)) != 1) {
		u->res = r < 0 ? r : -EAGAIN;
		return (ENGINE_Q_COMPLETED);
	}
	return (ENGINE_Q_QUEUED);
}

static int
aio_getevents(void *data, int min, int max, uint64_t timeout_ns)
{
	struct aio_data *d = data;
	struct timespec to;

	to.tv_sec = (time_t)(timeout_ns / 1000000000u);
	to.tv_nsec = (long)(timeout_ns % 1000000000u);
	return (io_getevents(d->ctx, min, max, d->ev,
	    timeout_ns == ENGINE_WAIT_FOREVER ? NULL : &to));
}

static struct io_u *
aio_event(void *data, int i)
{
	struct aio_data *d = data;
	struct io_u *u = d->ev[i].data;

	u->res = (long)d->ev[i].res;
	return (u);
}

const struct engine_ops engine_aio_ops = {
	.name = "aio",
	.init = aio_init,
	.queue = aio_queue,
	.getevents = aio_getevents,
	.event = aio_event,
	.init_hint = "each I/O in flight takes one of the host's aio "
	    "requests (sysctl fs.aio-max-nr)",
	.cleanup = aio_cleanup,
};
