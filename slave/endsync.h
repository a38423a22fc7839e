/* SPDX-License-Identifier: MIT */
#ifndef SLAVE_ENDSYNC_H
#define SLAVE_ENDSYNC_H

/*
 * The end of a run's writes: fsync() of each target that took buffered
 * writes (and of each with openflags=fsync, as vdbench syncs before it
 * closes), on a thread of its own, so the slave's loop keeps answering
 * the master while the page cache drains (gigabytes can take minutes).
 * A write the kernel lost in writeback shows up here, as the fsync's
 * error; the caller's failed() hears of each, on the sync thread, and
 * the loop is woken through wake_fd when all are done. Only the caller's
 * thread calls these functions.
 */
struct endsync;

/* Sync fds[0..n) (n > 0); failed(arg, i, errno) for each that fails.
 * NULL when the thread cannot start: then it was done here and now. */
struct endsync	*endsync_start(const int *fds, int n,
		    void (*failed)(void *, int, int), void *arg, int wake_fd);
/* Are all the syncs over? NULL is over. */
int		 endsync_done(struct endsync *);
/* Wait for the syncs and free. NULL is fine. */
void		 endsync_free(struct endsync *);

#endif /* SLAVE_ENDSYNC_H */
