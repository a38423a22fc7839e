/* SPDX-License-Identifier: MIT */
#ifndef SLAVE_WORK_INT_H
#define SLAVE_WORK_INT_H

/*
 * The types of a raw (sd) run on this slave, shared by the modules that
 * make one (work.h is the outside's view):
 *   work.c    builds and frees a run, starts and stops its threads; the
 *             worker loop (io_thread_main) and data validation's set-up;
 *   target.c  opens the sds and checks the WORK's sds and WGs against
 *             them and the slave's limits (target.h);
 *   pace.c    when the next I/O is due: arrivals, priority=, waits
 *             (pace.h);
 *   wstats.c  the per-thread counters and their snapshot (wstats.h);
 *   werr.c    I/O errors, data_errors= and the queues of lines for the
 *             slave's loop (werr.h).
 * Who writes what: a struct work is built by one thread (work_new);
 * once GO, the I/O threads write only their own struct thread (and its
 * counters), the atomics marked so, and the queues under err_mu.
 */
#include <pthread.h>
#include <stdint.h>

#include "engine.h"
#include "hist.h"
#include "interval_json.h"
#include "model.h"
#include "pattern.h"
#include "rng.h"
#include "seqcount.h"
#include "vdbhist.h"
#include "workload.h"

struct endsync;
struct fswork;
struct sd_dv_run;
struct sd_dv_thread;
struct skewgate;

#define MAX_SLOTS	4	/* interval maxima kept per direction */

/* A target and the threads it has on this slave. */
struct sdw {
	char		*name;
	char		*lun;
	int		 fd;
	int		 threads;
	double		 rate_per_s;	/* all its WGs here; 0 = max */
	int		 nwgs;
	int		*wgs;		/* indexes into work->wgs */
	int		 first_thread;	/* its threads: first_thread.. */
	int		 nthreads;	/* ..+nthreads in work->threads */
	double		*wg_cum;	/* cumulative skew of those WGs */
	int		*prio_order;	/* priority=: its WG slots, highest
					 * priority first; NULL without */
	uint32_t	 block_bytes;	/* alignment the target needs */
	int		 overwrite;	/* overwrite_data=yes on the sd */
	int		 mounted_ok;	/* allow_mounted_write=yes on the sd */
	int		 removed;	/* atomic: data_errors=remove_device
					 * took it out of the run */
	int		 fsync_close;	/* openflags=fsync: fsync() first */
	int		 sync_end;	/* fsync at the end of the run: 2
					 * always (openflags=fsync), 1 after
					 * buffered writes, 0 never */
	const struct engine_ops *ops;	/* its engine (engine.h) */
	uint64_t	 max_xfer;
	struct wdata_sd	 wsd;		/* dedupratio= data on this sd */
	int		 has_dd;	/* sd dedupratio=/dedupsets= */
	double		 dd_ratio, dd_sets;	/* override the work's */
	int		 dd_not_across;
	uint64_t	 dd_group, dd_rel;	/* its dedup group: bytes */
	uint64_t	 dv_kb;		/* key block from the WORK, or 0 */
	uint64_t	 dv_size;	/* the sd's size from the WORK, or 0 */
	char		*jnl_dir;	/* sd journal=, or NULL */
};

/* Counters of one direction of one WG, written by one thread. */
struct dirstat {
	uint64_t	ios, bytes, resp_sum_ns, resp_sumsq_us2, errors;
	uint64_t	max_k[MAX_SLOTS], max_ns[MAX_SLOTS];
	struct vdbhist	vh;
};

/*
 * One WG's counters on one thread: d[] and h[] are one seqcount group,
 * written in wstats_count() and copied whole by work_stats_json, with
 * the interval they have reached. The thread closes an interval itself:
 * its first I/O completed past an interval's end copies the counters
 * into closed[] and hc[] (all of them cumulative) before counting it, so
 * an interval holds the I/Os that completed inside it, however late the
 * slave's interval timer fires (a starved slave's first interval held
 * 112 % of its rate, its second 91 %, before).
 */
struct wstat {
	struct seqcount	 seq;
	struct dirstat	 d[2];
	struct hist	*h[2];
	uint64_t	 open_k;	/* interval of the I/Os counted last */
	uint64_t	 closed_k;	/* closed[] and hc[] are the counters
					 * at the end of intervals closed_k
					 * to open_k - 1 (0: none yet) */
	struct dirstat	 closed[2];	/* the counts; max_* unused */
	struct hist	*hc[2];
	struct hist	*sched;		/* delay from scheduled start; only
					 * at fixed rates, else NULL */
};

struct thread {
	struct work	*w;
	pthread_t	 tid;
	int		 started;
	int		 sdi;
	int		 index;
	struct rng	 rng;
	int		 qd;		/* I/Os in flight: 1, or threads= of
					 * an engine with one thread */
	struct io_u	*slots;		/* qd of them */
	void		*ed;		/* its engine's, from init */
	struct wstat	*st;		/* one per WG of its own sd, in the
					 * order of sdw->wgs (DESIGN.md,
					 * Memory: never one per WG of the
					 * run) */
	struct skewgate	*gate;		/* work->gate in io_thread_main,
					 * else NULL: next_io holds skew */
	struct sd_dv_thread *dvt;	/* validation's hooks, or NULL */
};

struct work {
	struct fswork		*fs;	/* a file-system run instead */
	uint64_t			 run_id;
	uint64_t			 interval_ns;
	uint64_t			 seed;
	int				 slave_index;	/* its streams */
	struct vdbhist_edges		 edges;
	int				 nwgs;
	struct wg			*wgs;
	int				*wg_slot;	/* WG g is slot
							 * wg_slot[g] of
							 * its sd's threads'
							 * st */
	int				 nsds;
	struct sdw			*sds;
	int				 nthreads;
	struct thread			*threads;
	uint64_t			 go_ns;
	uint64_t			 run_ns;	/* 0 = until STOP */
	uint64_t			 end_ns;	/* GO + run_ns, or 0 */
	int				 stop;		/* atomic */
	/* The I/O threads start at WORK (work_prepare) and wait here for
	 * GO: starting thousands at GO kept the slave's loop from its
	 * heartbeats for seconds on a loaded machine. go_state: 0 wait,
	 * 1 go (go_ns and end_ns set), 2 stop; under go_mu. */
	pthread_mutex_t			 go_mu;
	pthread_cond_t			 go_cv;
	int				 go_state;
	int				 prepared;
	char				 error[1024];	/* why the run stops */
	int				 has_error;	/* atomic: 2 = error[] set */
	uint64_t			 max_errors;	/* data_errors= */
	int				 remove_device;	/* data_errors= */
	double				 compratio;	/* >= 1 */
	double				 dd_ratio;	/* 0 = no dedup */
	uint64_t			 dd_unit_bytes;
	double				 dd_sets;	/* < 0: percent */
	int				 dd_not_across;	/* dedupacross=no */
	int				 has_compseed;
	uint64_t			 compseed;	/* compressionseed= */
	char				*pattern_file;	/* pattern=, or NULL */
	unsigned char			*pat;	/* its data, pat_len bytes */
	uint64_t			 pat_len;
	struct wdata			 wd;	/* the data of other writes */
	int				 dist;	/* 0 exponential, 1 uniform,
						 * 2 deterministic */
	uint64_t			 nerrors;	/* atomic */
	int				 wake_fd;	/* eventfd, or -1 */
	pthread_mutex_t			 err_mu;	/* guards the queues */
	struct strlist			 err_queue;	/* texts to report */
	struct strlist			 note_queue;	/* info lines */
	struct interval_base		*ibase;	/* per WG: last INTERVAL */
	struct interval_scratch		 iscratch; /* with ibase */
	int				 stats_final;	/* a snapshot took the
					 * live counters whole: every
					 * later one does (wstats.c) */
	int				 dv;	/* VALIDATE_* bits, 0 = off */
	int				 journal;	/* JOURNAL_* bits */
	int				 recovery;	/* the journal_recovery
							 * rd (WORK) */
	char				 run[64];	/* rd name */
	struct sd_dv_run		*dvr;	/* validation (sd_dv.h),
						 * or NULL */
	struct strlist			 own_log;	/* for the slave's
							 * own log only */
	struct skewgate			*gate;	/* Controlled MAX across
						 * sds (skewgate.h), or NULL */
	int				 skew_sync_ms;	/* and across
						 * slaves: SKEW this often */
	struct endsync			*esync;	/* the end's fsyncs */
	int				*esync_sd;	/* their sds */
	int				 esync_begun;
};

/* Relaxed single-writer add. */
static inline void
add64(uint64_t *p, uint64_t v)
{
	__atomic_store_n(p, __atomic_load_n(p, __ATOMIC_RELAXED) + v,
	    __ATOMIC_RELAXED);
}

/* Relaxed read. */
static inline uint64_t
ld64(const uint64_t *p)
{
	return (__atomic_load_n(p, __ATOMIC_RELAXED));
}

#endif /* SLAVE_WORK_INT_H */
