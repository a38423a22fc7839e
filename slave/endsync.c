/* SPDX-License-Identifier: MIT */
/*
 * The end of a run's writes (endsync.h): one thread fsyncs the targets
 * in turn and says when it is over.
 */
#include "endsync.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "xmalloc.h"

struct endsync {
	pthread_t	 tid;
	int		*fds;
	int		 n;
	void		(*failed)(void *, int, int);
	void		*arg;
	int		 wake_fd;
	int		 done;		/* atomic */
};

static void
sync_all(struct endsync *es)
{
	int i;

	for (i = 0; i < es->n; i++) {
		int r;

		while ((r = fsync(es->fds[i])) != 0 && errno == EINTR)
			;
		if (r != 0)
			es->failed(es->arg, i, errno);
	}
}

static void *
sync_main(void *arg)
{
	struct endsync *es = arg;

	sync_all(es);
	__atomic_store_n(&es->done, 1, __ATOMIC_RELEASE);
	if (es->wake_fd >= 0)
		(void)eventfd_write(es->wake_fd, 1);
	return (NULL);
}

struct endsync *
endsync_start(const int *fds, int n, void (*failed)(void *, int, int),
    void *arg, int wake_fd)
{
	struct endsync *es = xcalloc(1, sizeof(*es));

	es->fds = xcalloc((size_t)n, sizeof(*es->fds));
	memcpy(es->fds, fds, (size_t)n * sizeof(*fds));
	es->n = n;
	es->failed = failed;
	es->arg = arg;
	es->wake_fd = wake_fd;
	if (pthread_create(&es->tid, NULL, sync_main, es) == 0)
		return (es);
	sync_all(es);		/* no thread: here, blocking */
	free(es->fds);
	free(es);
	return (NULL);
}

int
endsync_done(struct endsync *es)
{
	return (es == NULL || __atomic_load_n(&es->done, __ATOMIC_ACQUIRE));
}

void
endsync_free(struct endsync *es)
{
	if (es == NULL)
		return;
	pthread_join(es->tid, NULL);
	free(es->fds);
	free(es);
}
