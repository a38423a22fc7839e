/* SPDX-License-Identifier: MIT */
#ifndef SLAVE_FS_INT_H
#define SLAVE_FS_INT_H

/*
 * What the parts of a file-system run (fs*.c) share and nothing else
 * includes: the fwg, thread and run structs, the counters and the
 * helpers. fswork.c decodes the work, runs the threads and is the
 * public API (fswork.h); fs_common.c has the shared helpers,
 * fs_format.c the format run, fs_ops.c one operation on a file and
 * fs_select.c the choice of the next file, fs_dv.c data validation
 * (-v: the fsds' key maps).
 */
#include "fswork.h"

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "fstree.h"
#include "hist.h"
#include "interval_json.h"
#include "iostats.h"
#include "pattern.h"
#include "rng.h"
#include "seqcount.h"
#include "vdbhist.h"
#include "workload.h"

#define FS_PATH_MAX	4096

enum fwg_op {
	OP_FORMAT, OP_READ, OP_WRITE, OP_CREATE, OP_DELETE, OP_MKDIR,
	OP_RMDIR, OP_OPEN, OP_CLOSE, OP_GETATTR, OP_SETATTR, OP_ACCESS,
	OP_COPY, OP_MOVE,
};

/* The operation words, NULL-terminated (fs_common.c). */
extern const char *const op_words[];

struct fs_dvmap;
struct slave_work;

/* One file workload: an fwd on an fsd. */
struct fwg {
	char		*fwd, *fsd, *anchor;
	char		*target;	/* copy/move: the target fsd's anchor */
	struct fstree	 tree;
	enum fwg_op	 op;
	double		 readpct;	/* < 0: the operation decides */
	struct xfer	 xfer;
	double		*xfer_cum;
	int		 random_io, random_select;
	int		 shared_files;	/* fileio=(random,shared) */
	uint64_t	*busy;		/* files in use; shared by the fwgs
					 * of one anchor, NULL when alone */
	int		 busy_owner;	/* this fwg frees busy */
	int		 delete_first;	/* fileio=(sequential,delete) */
	int		 select_once;	/* fileselect=once */
	double		 poisson_mid;	/* fileselect=poisson: midpoint, or 0 */
	double		 stopafter;	/* 0 file size, > 0 blocks, < 0 pct */
	int		 nthreads, first, total;	/* slices: first..+n of total */
	double		 rate_per_s;	/* 0 = max */
	double		 skew_pct;	/* its share (skewgate.h) */
	int		 oflags;
	int		 fsync_close;	/* openflags=fsync: fsync() first */
	int		 format_clean, format_restart, dirs_only;
	int		 clean_first;	/* -c: delete the old tree first */
	int		 clean_only;
	int		 create_anchors;	/* make the anchor's parents */
	pthread_barrier_t barrier;	/* format: clean and mkdir first */
	int		 finished;	/* threads done (format); atomic */
	int		 exhausted;	/* run threads out of work; atomic */
	int		 files_state;	/* FILES_*: any file to work on; atomic */
	int		 quit;		/* threads shut down: no files; atomic */
	/* data validation (fs_dv.c): the fsd's map, NULL when off */
	struct fs_dvmap	*dvm;
	uint64_t	 dv_kb;		/* key block from the WORK */
	uint64_t	 dv_nfiles;	/* the fsd's files (before wss) */
};

/* A thread's counters, written by it alone: one seqcount group
 * (seqcount.h), copied whole by fswork_stats_json; the maxima are
 * taken apart with an exchange. As a block thread's (struct wstat), the
 * thread closes its own intervals: its first count that lands in a
 * later interval (GO + k x interval) copies what it counted so far into
 * closed_io, closed_vh and hc, so a snapshot of interval k taken late
 * (a starved loop) still ends at k's end. */
struct fstat {
	struct seqcount	 seq;
	struct iostats	 io;
	struct hist	*h[2];
	struct vdbhist	 vh[2];
	uint64_t	 open_k;	/* interval of the last count */
	struct iostats	 closed_io;	/* at the end of open_k - 1; its
					 * maxima unused */
	struct vdbhist	 closed_vh[2];
	struct hist	*hc[2];
};

struct fthread {
	struct fswork	*w;
	struct fwg	*g;
	int		 slice;		/* this thread's file slice */
	pthread_t	 tid;
	int		 started;
	struct rng	 rng;
	struct fstat	 st;
	char		*buf;
	size_t		 buflen;
	/* data validation: reads land here, keys of the I/O's blocks */
	char		*dv_rbuf;
	int		*dv_keys, *dv_nkeys_buf;
	uint64_t	 dv_nkeys;
};

struct fswork {
	int		 nfwgs;
	struct fwg	*fwgs;
	int		 nthreads;
	struct fthread	*threads;
	struct vdbhist_edges edges;
	uint64_t	 seed, go_ns;
	uint64_t	 interval_ns;	/* the run's (fstat's intervals) */
	int		 stats_final;	/* a snapshot took the live
					 * counters: every later one does */
	int		 complete;	/* format=complete: trust the tree */
	int		 stop;		/* atomic */
	pthread_mutex_t	 mu;		/* error, notes, walk_out */
	char		*error;
	struct strlist	 notes;
	/* the walk of what exists (anchors.html), on a thread of its own
	 * so the event loop keeps the link alive however large the tree */
	pthread_t	 walk_tid;
	int		 walking;	/* walk_tid to join (loop's own) */
	int		 walk_done;	/* under mu, with walk_out */
	int		 walk_cancel;	/* atomic */
	int		 force_cleaned;	/* -c's clean-up done (walk thread) */
	int		 walk_wake;	/* eventfd written when it ends */
	json_t		*walk_out;
	/* test hook: VDBC_TEST_STAT_DELAY_US, a sleep after each file's
	 * stat in the walk (e2e 24 makes a slow walk with it) */
	unsigned	 walk_delay_us;
	struct interval_base *ibase;	/* per fwg: last INTERVAL */
	struct interval_scratch iscratch; /* made with ibase */
	/* data validation (fs_dv.c); the lists under mu */
	int		 dv;		/* VALIDATE_* bits, 0 = off */
	struct dv_session *dvs;	/* the slave's (dv_session.h) */
	const unsigned char *dv_pat;	/* its pattern */
	/* the data of writes without validation: compratio=,
	 * compressionseed= (pattern.h) */
	struct wdata	 wd;
	char		 run[64];	/* rd name */
	uint64_t	 max_errors;	/* data_errors= */
	uint64_t	 dv_nerrors;	/* atomic: counted for data_errors= */
	uint64_t	 dv_bad;	/* atomic: corrupted data blocks */
	uint64_t	 dv_start;	/* validated before the run */
	int		 dv_ended;
	struct strlist	 dv_errs;	/* report lines for the master */
	struct strlist	 dv_own;	/* the slave's own log */
	struct skewgate	*gate;		/* fwdrate=max: the fwgs held to
					 * their skew (skewgate.h), or NULL */
};

/* Single-writer add inside a thread's seqcount group (seqcount.h). */
static inline void
add64(uint64_t *p, uint64_t v)
{
	seqcount_add(p, v);
}

static inline void
max64(uint64_t *p, uint64_t v)
{
	if (v > __atomic_load_n(p, __ATOMIC_RELAXED))
		__atomic_store_n(p, v, __ATOMIC_RELEASE);
}

/* fs_common.c */
void	 fs_note(struct fswork *, int is_error, const char *, ...)
	    __attribute__((format(printf, 3, 4)));
int	 stopping(const struct fswork *);
void	 count_op(struct fthread *, enum fsop, uint64_t t0);
void	 count_misc(struct fthread *, enum fsmisc);
void	 count_io(struct fthread *, int dir, uint64_t bytes, uint64_t t0_ns,
	    uint64_t now_ns);
int	 pace(struct fthread *, uint64_t *next_ns);
void	 skew_wait(struct fthread *);
void	 file_path(const struct fwg *, uint64_t f, char *, size_t);
void	 dir_path(const struct fwg *, uint64_t d, char *, size_t);
void	 close_counted(struct fthread *, int fd);
int	 fill_file(struct fthread *, const char *path, uint64_t fi,
	    uint64_t size, int restart, int counted);

/* fs_format.c */
void	 do_format(struct fthread *);
/* -c: the old trees of the fwgs marked clean_first, on the walk thread. */
void	 fs_force_clean(struct fswork *);

/* fs_ops.c */
int	 rw_file(struct fthread *, const char *path, uint64_t fi,
	    uint64_t size, uint64_t *next);
int	 meta_op(struct fthread *, const char *path, uint64_t fi);

/* fs_dv.c */
/* After the fwgs are built: each fwg's map (found or made), checks. */
int	 fs_dv_setup(struct fswork *, const struct slave_work *,
	    struct errmsg *);
/* The format's clean-up: the fsd's map forgets every block. */
void	 fs_dv_erase(struct fswork *, struct fwg *);
/* A read or write of len bytes at off of file fi with vdbench's DV
 * steps; 0 done, 1 skipped (blocks busy or in error), -1 failed. */
int	 fs_dv_rw(struct fthread *, int fd, const char *path, uint64_t fi,
	    int dir, uint64_t off, uint64_t len);
/* Format: claim and fill t->buf for [from, from + len) of file fi
 * (-1: cannot), then done once written (or not). */
int	 fs_dv_format_fill(struct fthread *, uint64_t fi, uint64_t from,
	    uint64_t len);
void	 fs_dv_format_done(struct fthread *, uint64_t fi, uint64_t from,
	    uint64_t len, int written);
/* After the threads stopped: counters, totals, the run's verdict. */
void	 fs_dv_end(struct fswork *);

/* fs_select.c */
uint64_t slice_count(const struct fwg *, int slice);
void	 out_of_work(struct fthread *);
int	 file_take(struct fwg *, uint64_t fi);
void	 file_give(struct fwg *, uint64_t fi);
uint64_t pick_poisson(struct fthread *, uint64_t n);
/* An operation that needs a file found it missing: 1 when no file of
 * the anchor exists and none can come (this thread is to end). */
int	 no_files_left(struct fthread *);
/* Does this operation need an existing file (vdbench's FILE_MUST_EXIST)? */
int	 op_needs_file(const struct fwg *);

#endif /* SLAVE_FS_INT_H */
