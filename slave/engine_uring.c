/* SPDX-License-Identifier: MIT */
/*
 * The io_uring engine (liburing): queue fills a submission entry, commit
 * submits everything queued with one system call, getevents waits for
 * and reaps completions in a batch. One thread keeps threads= I/Os in
 * flight, buffered or with o_direct. io_uring may be switched off on a
 * host (sysctl kernel.io_uring_disabled, seccomp): init then fails and
 * the run stops naming why (work.c, io_error).
 */
#include "engine.h"

#include <errno.h>
#include <stdlib.h>

#include <liburing.h>

struct uring_data {
	int			  fd;
	int			  qd;
	struct io_uring		  ring;
	int			  ring_ok;
	struct io_uring_cqe	**cqes;		/* the last batch reaped */
	struct io_u		**events;
};

static void
uring_cleanup(void *data)
{
	struct uring_data *d = data;

	if (d == NULL)
		return;
	if (d->ring_ok)
		io_uring_queue_exit(&d->ring);
	free(d->cqes);
	free(d->events);
	free(d);
}

static int
uring_init(void **data, int fd, int qd)
{
	struct uring_data *d = calloc(1, sizeof(*d));
	int r;

	if (d == NULL)
		return (-ENOMEM);
	d->fd = fd;
	d->qd = qd;
	d->cqes = calloc((size_t)qd, sizeof(*d->cqes));
	d->events = calloc((size_t)qd, sizeof(*d->events));
	if (d->cqes == NULL || d->events == NULL) {
		uring_cleanup(d);
		return (-ENOMEM);
	}
	/* The submission ring holds qd entries; the completion ring twice
	 * that by default, so completions never overflow. */
	if ((r = io_uring_queue_init((unsigned int)qd, &d->ring, 0)) < 0) {
		uring_cleanup(d);
		return (r);
	}
	d->ring_ok = 1;
	*data = d;
	return (0);
}

/* Fill a submission entry for u; commit submits it. */
static int
uring_queue(void *data, struct io_u *u)
{
	struct uring_data *d = data;
	struct io_uring_sqe *sqe = io_uring_get_sqe(&d->ring);

	if (sqe == NULL) {
		/* full: the loop never has more than qd in flight, but an
		 * entry can still wait for its submission */
		if (io_uring_submit(&d->ring) < 0 ||
		    (sqe = io_uring_get_sqe(&d->ring)) == NULL) {
			u->res = -EBUSY;
			return (ENGINE_Q_COMPLETED);
		}
	}
	if (u->dir)
		io_uring_prep_write(sqe, d->fd, u->wbuf, (unsigned int)u->len,
		    u->off);
	else
		io_uring_prep_read(sqe, d->fd, u->buf, (unsigned int)u->len,
		    u->off);
	io_uring_sqe_set_data(sqe, u);
	return (ENGINE_Q_QUEUED);
}

/* Submit what is queued; a busy kernel keeps it for the next call. */
static int
uring_commit(void *data)
{
	struct uring_data *d = data;
	int r = io_uring_submit(&d->ring);

	if (r < 0 && r != -EAGAIN && r != -EBUSY && r != -EINTR)
		return (r);
	return (0);
}

static int
uring_getevents(void *data, int min, int max, uint64_t timeout_ns)
{
	struct uring_data *d = data;
	struct io_uring_cqe *cqe;
	struct __kernel_timespec ts;
	unsigned int i, n;
	int r;

	if (max > d->qd)
		max = d->qd;
	/* Entries a busy kernel refused before: submitted now. */
	if (io_uring_sq_ready(&d->ring) > 0 &&
	    (r = io_uring_submit(&d->ring)) < 0 && r != -EAGAIN &&
	    r != -EBUSY && r != -EINTR)
		return (r);
	if (min > 0) {
		ts.tv_sec = (long long)(timeout_ns / 1000000000u);
		ts.tv_nsec = (long long)(timeout_ns % 1000000000u);
		r = io_uring_wait_cqe_timeout(&d->ring, &cqe,
		    timeout_ns == ENGINE_WAIT_FOREVER ? NULL : &ts);
		if (r == -ETIME)
			return (0);
		if (r < 0)
			return (r);
	}
	n = io_uring_peek_batch_cqe(&d->ring, d->cqes, (unsigned int)max);
	for (i = 0; i < n; i++) {
		struct io_u *u = io_uring_cqe_get_data(d->cqes[i]);

		u->res = d->cqes[i]->res;
		d->events[i] = u;
	}
	io_uring_cq_advance(&d->ring, n);
	return ((int)n);
}

static struct io_u *
uring_event(void *data, int i)
{
	struct uring_data *d = data;

	return (d->events[i]);
}

const struct engine_ops engine_uring_ops = {
	.name = "io_uring",
	.init = uring_init,
	.queue = uring_queue,
	.commit = uring_commit,
	.getevents = uring_getevents,
	.event = uring_event,
	.init_hint = "io_uring may be switched off on this host (sysctl "
	    "kernel.io_uring_disabled, a seccomp filter) or limited by "
	    "ulimit -l; engine=aio does the same work",
	.cleanup = uring_cleanup,
};
