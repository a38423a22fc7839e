/* SPDX-License-Identifier: MIT */
#ifndef SLAVE_ENGINE_H
#define SLAVE_ENGINE_H

#include <stddef.h>
#include <stdint.h>

/*
 * I/O engines behind one ops table of fio's shape (ioengines.h): init
 * with the queue depth, prep, queue, commit, getevents, event, cleanup.
 * One worker loop (work.c) drives every engine and owns the timing, the
 * addresses, the counters and the drain; an engine only moves bytes. A
 * synchronous engine (ENGINE_SYNC in common/engines.h) completes the I/O
 * in queue, as fio's FIO_Q_COMPLETED. The names and flags are the rows
 * of common/engines.c; each row has one file here, engine_<name>.c.
 * Engines never log, never exit and never allocate per I/O.
 */

/* One I/O: the worker loop fills it, the engine does it. */
struct io_u {
	int		 index;		/* 0..qd-1 in its thread */
	int		 wi, dir;	/* wi: the WG's slot; dir 1 = write */
	void		*buf;		/* reads land here */
	void		*wbuf;		/* writes come from here (pattern) */
	uint64_t	 len, off;
	uint64_t	 t0_ns;		/* issued */
	long		 res;		/* bytes done, or -errno */
};

/* What queue says of an I/O. */
#define ENGINE_Q_QUEUED		0	/* in flight: getevents returns it */
#define ENGINE_Q_COMPLETED	1	/* done now: res is set */

/* getevents: wait without a time limit. */
#define ENGINE_WAIT_FOREVER	UINT64_MAX

struct engine_ops {
	const char	*name;		/* a row of common/engines.c, which
					 * holds its flags */
	/* Set up for up to qd I/Os in flight on fd: 0, or -errno. Called
	 * when the WORK is built; the rest on the I/O thread. */
	int		(*init)(void **data, int fd, int qd);
	/* Optional: get u ready before it is queued. */
	void		(*prep)(void *data, struct io_u *u);
	/* Start u: ENGINE_Q_QUEUED, or ENGINE_Q_COMPLETED with u->res
	 * set (a synchronous engine, or a submission that failed). */
	int		(*queue)(void *data, struct io_u *u);
	/* Optional: submit what queue gathered: 0, or -errno (fatal). */
	int		(*commit)(void *data);
	/* Wait up to timeout_ns for at least min (and take at most max)
	 * completions: how many (0 on time out), or -errno. */
	int		(*getevents)(void *data, int min, int max,
			    uint64_t timeout_ns);
	/* Completion i (0..getevents' count - 1), its res set. */
	struct io_u	*(*event)(void *data, int i);
	/* Optional: why init may fail on a host, for the message. */
	const char	*init_hint;
	/* Undo init; nothing is in flight any more. */
	void		(*cleanup)(void *data);
};

/* The engine called name, or NULL. */
const struct engine_ops	*engine_find(const char *name);
/* Does the engine run threads= OS threads, one I/O in flight each (sync,
 * null), rather than one thread keeping threads= I/Os in flight? */
int		 engine_threads(const struct engine_ops *);

/* The rows (engine_<name>.c). */
extern const struct engine_ops engine_sync_ops;
extern const struct engine_ops engine_null_ops;
extern const struct engine_ops engine_aio_ops;
extern const struct engine_ops engine_uring_ops;

#endif /* SLAVE_ENGINE_H */
