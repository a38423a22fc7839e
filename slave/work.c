/* SPDX-License-Identifier: MIT */
/*
 * The I/O side of a slave. Hot path per I/O: pick a WG by skew, pick read
 * or write, size and address from the thread's own generator, one
 * engine call between two clock reads, then single-writer counter
 * updates. No lock and no allocation; the one shared datum is the
 * sequential cursor of a WG (DESIGN.md, "The I/O engine").
 */
#include "work.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fs.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "endsync.h"
#include "engine.h"
#include "hist.h"
#include "interval_json.h"
#include "iostats.h"
#include "model.h"
#include "model_json.h"
#include "mtime.h"
#include "oflags.h"
#include "pattern.h"
#include "rng.h"
#include "safety.h"
#include "sd_dv.h"
#include "seqcount.h"
#include "skewgate.h"
#include "fswork.h"
#include "workload.h"
#include "vdbhist.h"
#include "work_json.h"
#include "xmalloc.h"

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

/* One WG's counters on one thread: d[] and h[] are one seqcount group,
 * written in count() and copied whole by work_stats_json. */
struct wstat {
	struct seqcount	 seq;
	struct dirstat	 d[2];
	struct hist	*h[2];
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
	char				 error[1024];	/* why the run stops */
	int				 has_error;	/* atomic: 2 = error[] set */
	uint64_t			 max_errors;	/* data_errors= */
	int				 remove_device;	/* data_errors= */
	int				 nremoved;	/* atomic: sds out */
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
	int				 dv;	/* VALIDATE_* bits, 0 = off */
	int				 journal;	/* JOURNAL_* bits */
	char				 run[64];	/* rd name */
	struct sd_dv_run		*dvr;	/* validation (sd_dv.h),
						 * or NULL */
	struct strlist			 own_log;	/* for the slave's
							 * own log only */
	struct skewgate			*gate;	/* Controlled MAX across
						 * sds (skewgate.h), or NULL */
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

/* Free everything. NULL is fine. */
void
work_free(struct work *w)
{
	int i, k;

	if (w == NULL)
		return;
	if (w->fs != NULL) {
		fswork_free(w->fs);
		free(w);
		return;
	}
	work_stop(w);
	for (i = 0; w->threads != NULL && i < w->nthreads; i++) {
		struct thread *t = &w->threads[i];

		for (k = 0; t->slots != NULL && k < t->qd; k++) {
			free(t->slots[k].buf);
			free(t->slots[k].wbuf);
		}
		free(t->slots);
		if (t->ed != NULL)
			w->sds[t->sdi].ops->cleanup(t->ed);
		if (t->st != NULL) {
			for (k = 0; k < w->sds[t->sdi].nwgs; k++) {
				hist_free(t->st[k].h[0]);
				hist_free(t->st[k].h[1]);
				hist_free(t->st[k].sched);
			}
		}
		free(t->st);
		sd_dv_thread_free(t->dvt);
	}
	free(w->threads);
	for (i = 0; w->ibase != NULL && i < w->nwgs; i++)
		interval_base_free(&w->ibase[i]);
	free(w->ibase);
	for (i = 0; i < w->nwgs; i++) {
		free(w->wgs[i].wd);
		xfer_clear(&w->wgs[i].xfer);
		free(w->wgs[i].xfer_cum);
		workload_streams_free(&w->wgs[i]);
	}
	free(w->wgs);
	free(w->wg_slot);
	endsync_free(w->esync);		/* the syncs of the end are over */
	free(w->esync_sd);
	for (i = 0; i < w->nsds; i++) {
		if (w->sds[i].fd >= 0)
			close(w->sds[i].fd);
		free(w->sds[i].name);
		free(w->sds[i].lun);
		free(w->sds[i].jnl_dir);
		free(w->sds[i].wgs);
		free(w->sds[i].wg_cum);
		free(w->sds[i].prio_order);
		wdata_sd_free(&w->sds[i].wsd);
	}
	free(w->sds);
	sd_dv_free(w->dvr);
	strlist_clear(&w->err_queue);
	strlist_clear(&w->note_queue);
	free(w->pattern_file);
	free(w->pat);
	wdata_free(&w->wd);
	strlist_clear(&w->own_log);
	skewgate_free(w->gate);
	pthread_mutex_destroy(&w->err_mu);
	free(w);
}

/* The logical block size of a target: the device's, or 512 for files. */
static uint32_t
block_size(int fd)
{
	struct stat st;
	int bs = 512;

	if (fstat(fd, &st) == 0 && S_ISBLK(st.st_mode) &&
	    ioctl(fd, BLKSSZGET, &bs) == 0 && bs > 0)
		return ((uint32_t)bs);
	return (512);
}

/* Is fd a block device? */
static int
is_block(int fd)
{
	struct stat st;

	return (fstat(fd, &st) == 0 && S_ISBLK(st.st_mode));
}

/* Open one sd of the decoded WORK (work_json.c checked its fields). */
static int
sd_from_json(struct sdw *s, const struct work_sd *d, struct errmsg *e)
{
	const char *name = d->sd, *lun = d->lun, *engine = d->engine;
	const struct strlist *flags = &d->openflags;
	int create = d->create, direct, fl;
	double rate = d->rate_per_s;
	struct oflags of;
	struct stat st;
	char text[600];

	s->fd = -1;
	s->threads = d->threads;
	s->overwrite = d->overwrite;
	s->mounted_ok = d->mounted_ok;
	s->has_dd = d->has_dedup;
	s->dd_ratio = d->dedup_ratio;
	s->dd_sets = d->dedup_sets;
	s->dd_not_across = d->dedup_not_across;
	s->dd_group = d->dedup_group_bytes;
	s->dd_rel = d->dedup_rel_bytes;
	s->dv_kb = d->dv_kb_bytes;
	s->dv_size = d->dv_size_bytes;
	s->jnl_dir = d->journal_dir != NULL ? xstrdup(d->journal_dir) : NULL;
	s->name = xstrdup(name);
	s->lun = xstrdup(lun);
	s->rate_per_s = rate;
	s->ops = engine_find(engine != NULL ? engine : "sync");
	if (s->ops == NULL) {
		errmsg_set(e, NULL, 0, 0, "WORK: sd=%s: unknown engine '%s'",
		    name, engine);
		return (-1);
	}
	oflags_from_words(flags, &of);
	if (oflags_dev_refused(lun, &of, text, sizeof(text))) {
		/* before the open, as vdbench's slave aborts */
		errmsg_set(e, NULL, 0, 0, "%c%s", WORK_ABORT_ERROR, text);
		return (-1);
	}
	direct = of.direct;
	s->fsync_close = of.fsync_close;
	s->sync_end = of.fsync_close ? 2 : (of.flags & (O_DIRECT | O_DSYNC)) ?
	    0 : 1;
	/*
	 * A lun may be a link (/dev/disk/by-id, root's), but not one another
	 * user owns: planted in a shared directory it would have root write
	 * a file of that user's choosing. A lun made here is made with
	 * O_EXCL, which follows no link, dangling or not.
	 */
	if (lstat(lun, &st) == 0 && S_ISLNK(st.st_mode) &&
	    st.st_uid != geteuid() && st.st_uid != 0) {
		errmsg_set(e, NULL, 0, 0, "sd=%s,lun=%s: a symbolic link owned "
		    "by uid %u, another user: not followed", name, lun,
		    (unsigned int)st.st_uid);
		return (-1);
	}
	fl = of.flags | O_RDWR | O_CLOEXEC;
	s->fd = open(lun, fl, 0644);
	if (s->fd < 0 && errno == ENOENT && create) {
		s->fd = open(lun, fl | O_CREAT | O_EXCL, 0644);
		if (s->fd < 0 && errno == EEXIST)	/* another slave's */
			s->fd = open(lun, fl, 0644);
	}
	if (s->fd < 0) {
		int err = errno;

		errmsg_set(e, NULL, 0, 0, "sd=%s,lun=%s: open failed: %s%s",
		    name, lun, strerror(err), err == EINVAL && direct ?
		    " (this file system does not support o_direct, e.g. "
		    "tmpfs)" : "");
		return (-1);
	}
	/* Buffered I/O to a file takes any size; direct I/O and devices
	 * need whole logical blocks. */
	s->block_bytes = direct || is_block(s->fd) ? block_size(s->fd) : 1;
	return (0);
}

/* One WG of the decoded WORK (work_json.c checked types and ranges). */
static int
wg_from_json(struct work *w, struct wg *g, const struct work_wg *d,
    struct errmsg *e)
{
	const char *wd = d->wd, *sd = d->sd;
	int i;

	g->skew_pct = d->skew_pct;
	g->readpct = d->readpct;
	g->seekpct = d->seekpct;
	g->seek_eof = d->seek_eof;
	g->rhpct = d->rhpct;
	g->whpct = d->whpct;
	g->hot = d->hot;
	g->wd = xstrdup(wd);
	g->sdi = -1;
	for (i = 0; i < w->nsds; i++) {
		if (strcmp(w->sds[i].name, sd) == 0)
			g->sdi = i;
	}
	xfer_copy(&g->xfer, &d->xfer);
	if (xfer_max_bytes(&g->xfer) == 0 || (g->xfer.kind == XFER_RANGE &&
	    g->xfer.align_bytes == 0)) {
		errmsg_set(e, NULL, 0, 0, "WORK: wd=%s: bad xfersize", wd);
		return (-1);
	}
	if (xfer_max_bytes(&g->xfer) > WORK_MAX_XFER_BYTES) {
		errmsg_set(e, NULL, 0, 0, "WORK: wd=%s,sd=%s: xfersize=%llu "
		    "is over the limit of %llu bytes (1g) per I/O", wd, sd,
		    (unsigned long long)xfer_max_bytes(&g->xfer),
		    (unsigned long long)WORK_MAX_XFER_BYTES);
		return (-1);
	}
	if (g->xfer.kind == XFER_DIST) {
		double c = 0;

		g->xfer_cum = xcalloc((size_t)g->xfer.n, sizeof(double));
		for (i = 0; i < g->xfer.n; i++)
			g->xfer_cum[i] = c += g->xfer.pct[i];
	}
	g->low = d->low_bytes;
	g->high = d->high_bytes;
	g->hit_low = d->hit_low_bytes;
	g->hit_high = d->hit_high_bytes;
	g->align = d->align_bytes;
	g->stride_min = d->stride_min_bytes;
	g->stride_max = d->stride_max_bytes;
	g->stride_cursor = g->low;
	g->wrap_end = d->wrap_end_bytes;
	g->wrap_to = d->wrap_to_bytes;
	g->cursor = g->low;
	g->hit_cursor = g->hit_low;
	g->priority = d->priority;
	g->poisson_mid = d->poisson_mid;
	if (workload_streams_init(g, d->streams, g->align != 0 ? g->align :
	    xfer_max_bytes(&g->xfer)) != 0) {
		errmsg_set(e, NULL, 0, 0, "wd=%s,sd=%s: streams=%d: the range "
		    "(%llu bytes) cannot hold one transfer per stream", wd, sd,
		    d->streams, (unsigned long long)(g->high - g->low));
		return (-1);
	}
	return (0);
}

/* Check that every transfer and bound fits the target's block size. */
static int
check_blocks(struct work *w, struct errmsg *e)
{
	int i, k;

	for (i = 0; i < w->nwgs; i++) {
		struct wg *g = &w->wgs[i];
		struct sdw *s = &w->sds[g->sdi];
		uint32_t bs = s->block_bytes;
		uint64_t sizes[3] = { g->xfer.min_bytes, g->xfer.max_bytes,
		    g->xfer.align_bytes };
		int n = g->xfer.kind == XFER_RANGE ? 3 : g->xfer.n;

		for (k = 0; k < n; k++) {
			uint64_t v = g->xfer.kind == XFER_RANGE ? sizes[k] :
			    g->xfer.size_bytes[k];

			if (v % bs != 0) {
				errmsg_set(e, NULL, 0, 0, "sd=%s,lun=%s: "
				    "xfersize %llu is not a multiple of the "
				    "lun's block size of %u bytes", s->name,
				    s->lun, (unsigned long long)v, bs);
				return (-1);
			}
		}
		if (g->low % bs != 0) {
			errmsg_set(e, NULL, 0, 0, "sd=%s,lun=%s: offset %llu is "
			    "not a multiple of the lun's block size of %u "
			    "bytes", s->name, s->lun,
			    (unsigned long long)g->low, bs);
			return (-1);
		}
		if (xfer_max_bytes(&g->xfer) > s->max_xfer)
			s->max_xfer = xfer_max_bytes(&g->xfer);
	}
	return (0);
}

/* Refuse to write a block device that holds data (DESIGN.md, safety). */
static int
check_writes(struct work *w, struct errmsg *e)
{
	char why[2200];
	int i, k;

	for (i = 0; i < w->nsds; i++) {
		int writes = 0;

		for (k = 0; k < w->nwgs; k++)
			writes |= w->wgs[k].sdi == i && w->wgs[k].readpct < 100;
		if (!writes)
			continue;
		switch (safety_check_write(w->sds[i].lun, w->sds[i].overwrite,
		    w->sds[i].mounted_ok, why, sizeof(why))) {
		case SAFETY_OK:
			break;
		case SAFETY_NEEDS_OVERWRITE:
			errmsg_set(e, NULL, 0, 0, "sd=%s,lun=%s: refusing to "
			    "write: %s. If its data may be destroyed, add "
			    "overwrite_data=yes to sd=%s", w->sds[i].name,
			    w->sds[i].lun, why, w->sds[i].name);
			return (-1);
		case SAFETY_NEEDS_MOUNTED:
			errmsg_set(e, NULL, 0, 0, "sd=%s,lun=%s: refusing to "
			    "write: %s. Writing under a mounted file system "
			    "corrupts it; to do it anyway, add "
			    "overwrite_data=yes,allow_mounted_write=yes to "
			    "sd=%s", w->sds[i].name, w->sds[i].lun, why,
			    w->sds[i].name);
			return (-1);
		}
	}
	return (0);
}

/* Dedup works on whole units: every transfer size must hold some. */
static int
check_dedup(const struct work *w, struct errmsg *e)
{
	uint64_t u = w->dd_unit_bytes;
	int g, k;

	if (u == 0)
		return (0);
	for (g = 0; g < w->nwgs; g++) {
		const struct xfer *x = &w->wgs[g].xfer;
		uint64_t bad = 0;

		if (x->kind == XFER_RANGE) {
			if (x->min_bytes % u != 0 || x->max_bytes % u != 0 ||
			    (x->align_bytes != 0 && x->align_bytes % u != 0))
				bad = x->min_bytes % u != 0 ? x->min_bytes :
				    x->max_bytes % u != 0 ? x->max_bytes :
				    x->align_bytes;
		} else {
			for (k = 0; k < x->n; k++)
				if (x->size_bytes[k] % u != 0)
					bad = x->size_bytes[k];
		}
		if (bad != 0) {
			errmsg_set(e, NULL, 0, 0, "wd=%s: xfersize=%llu is not "
			    "a multiple of dedupunit=%llu; dedup needs whole "
			    "units", w->wgs[g].wd, (unsigned long long)bad,
			    (unsigned long long)u);
			return (-1);
		}
	}
	return (0);
}

/* The most a run's buffers and statistics may take on this host. */
static uint64_t
mem_budget(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);

	if (pages <= 0 || psz <= 0)
		return (UINT64_MAX);
	return ((uint64_t)pages / 100 * (uint64_t)psz * WORK_MAX_MEM_PCT);
}

/* Refuse more threads than a slave runs. */
static int
check_threads(const char *what, uint64_t n, struct errmsg *e)
{
	if (n <= WORK_MAX_THREADS)
		return (0);
	errmsg_set(e, NULL, 0, 0, "WORK: the %s of this slave ask for %llu "
	    "threads in all; a slave runs at most %d (threads=): lower "
	    "threads= or spread the work over more slaves (jvms=)", what,
	    (unsigned long long)n, WORK_MAX_THREADS);
	return (-1);
}

/* Refuse buffers and statistics beyond WORK_MAX_MEM_PCT of the RAM. */
static int
check_mem(uint64_t bytes, struct errmsg *e)
{
	uint64_t budget = mem_budget();

	if (bytes <= budget)
		return (0);
	errmsg_set(e, NULL, 0, 0, "WORK: the I/O buffers and statistics of "
	    "this slave would take %llu MiB, over the limit of %d %% of this "
	    "host's memory (%llu MiB): lower threads= or xfersize=",
	    (unsigned long long)(bytes >> 20), WORK_MAX_MEM_PCT,
	    (unsigned long long)(budget >> 20));
	return (-1);
}

/* A file-system WORK's limits, from its fwgs before anything is built:
 * threads in all, xfersize, and the threads' buffers. */
static int
check_fs_limits(const struct slave_work *sw, struct errmsg *e)
{
	uint64_t threads = 0, mem = 0;
	int i;

	for (i = 0; i < sw->nfwgs; i++) {
		int64_t n = sw->fwgs[i].threads;
		const char *fwd = sw->fwgs[i].fwd;
		uint64_t big = xfer_max_bytes(&sw->fwgs[i].xfer);

		if (big > WORK_MAX_XFER_BYTES) {
			errmsg_set(e, NULL, 0, 0, "WORK: fwd=%s: xfersize=%llu "
			    "is over the limit of %llu bytes (1g) per I/O",
			    fwd, (unsigned long long)big,
			    (unsigned long long)WORK_MAX_XFER_BYTES);
			return (-1);
		}
		if (n > 0) {
			threads += (uint64_t)n;
			if (threads <= WORK_MAX_THREADS)
				mem += (uint64_t)n * (big + 2 * HIST_NBUCKETS *
				    sizeof(uint64_t));
		}
	}
	if (check_threads("fwds", threads, e) != 0)
		return (-1);
	return (check_mem(mem, e));
}

/* A file-system run's work: the limits, then slave/fswork.c builds it. */
static struct work *
fs_work_new(struct slave_work *sw, uint64_t run_id, uint64_t ins,
    uint64_t seed, const char *rd, struct dv_session *dvs, struct errmsg *e)
{
	struct work *w;

	if (check_fs_limits(sw, e) != 0) {
		slave_work_clear(sw);
		return (NULL);
	}
	w = xcalloc(1, sizeof(*w));
	w->run_id = run_id;
	w->interval_ns = ins;
	w->fs = fswork_new(sw, seed, dvs, e);
	slave_work_clear(sw);
	if (w->fs == NULL) {
		free(w);
		return (NULL);
	}
	fswork_set_run(w->fs, rd);
	return (w);
}

/* The sds and WGs of a block run's WORK, with the limit on threads. */
static int
sds_wgs_from_json(struct work *w, const struct slave_work *sw,
    struct errmsg *e)
{
	uint64_t threads = 0;
	size_t i;

	w->sds = xcalloc((size_t)sw->nsds + 1, sizeof(*w->sds));
	for (i = 0; i < (size_t)sw->nsds; i++) {
		w->sds[w->nsds].fd = -1;
		w->nsds++;
		if (sd_from_json(&w->sds[w->nsds - 1], &sw->sds[i], e) != 0)
			return (-1);
		threads += (uint64_t)w->sds[w->nsds - 1].threads;
	}
	if (check_threads("sds", threads, e) != 0)
		return (-1);
	w->wgs = xcalloc((size_t)sw->nwgs + 1, sizeof(*w->wgs));
	for (i = 0; i < (size_t)sw->nwgs; i++) {
		w->nwgs++;
		if (wg_from_json(w, &w->wgs[w->nwgs - 1], &sw->wgs[i], e) != 0)
			return (-1);
	}
	return (0);
}

/*
 * priority= (PARMFILE.md 12.8): an sd whose WGs have priorities keeps its
 * WG slots in priority order (1 first; insertion sort, a handful of WGs).
 */
static void
prio_index(struct work *w, struct sdw *s)
{
	int i, j, any = 0;

	for (i = 0; i < s->nwgs; i++)
		any |= w->wgs[s->wgs[i]].priority != 0;
	if (!any)
		return;
	s->prio_order = xcalloc((size_t)s->nwgs, sizeof(int));
	for (i = 0; i < s->nwgs; i++) {
		int p = w->wgs[s->wgs[i]].priority;

		for (j = i; j > 0 && w->wgs[s->wgs[s->prio_order[j - 1]]].
		    priority > p; j--)
			s->prio_order[j] = s->prio_order[j - 1];
		s->prio_order[j] = i;
	}
}

/*
 * Sd k's WGs and their cumulative skew (a WG's place in its sd's list is
 * also its stats slot in each of the sd's threads), its dedup and its
 * threads; *mem grows by its buffers and histograms.
 */
static int
sd_index(struct work *w, int k, uint64_t *mem, struct errmsg *e)
{
	struct sdw *s = &w->sds[k];
	double c = 0;
	uint64_t end = 0;
	int g;

	s->wgs = xcalloc((size_t)w->nwgs, sizeof(int));
	s->wg_cum = xcalloc((size_t)w->nwgs, sizeof(double));
	for (g = 0; g < w->nwgs; g++) {
		if (w->wgs[g].sdi != k)
			continue;
		c += w->wgs[g].skew_pct > 0 ? w->wgs[g].skew_pct : 1;
		w->wg_slot[g] = s->nwgs;
		s->wgs[s->nwgs] = g;
		s->wg_cum[s->nwgs++] = c;
		if (w->wgs[g].high > end)
			end = w->wgs[g].high;
		if (w->wgs[g].hit_high > end)
			end = w->wgs[g].hit_high;
	}
	prio_index(w, s);
	if (w->dd_unit_bytes > 0 && !w->dv) {
		/* an sd's own dedupratio=/dedupsets=/dedupacross= override
		 * the general ones (validation makes its own: dv_setup) */
		char err[256];

		if (wdata_sd_init(&s->wsd, s->name, end, s->dd_group > end ?
		    s->dd_group : end, s->dd_rel, w->dd_unit_bytes,
		    s->has_dd ? s->dd_ratio : w->dd_ratio,
		    s->has_dd && s->dd_sets != 0 ? s->dd_sets : w->dd_sets,
		    s->has_dd ? s->dd_not_across : w->dd_not_across, err,
		    sizeof(err)) != 0) {
			errmsg_set(e, NULL, 0, 0, "sd=%s: %s", s->name, err);
			return (-1);
		}
	}
	for (g = 0; g < s->nwgs; g++) {
		const struct wg *wg = &w->wgs[s->wgs[g]];

		if (wg->streams > 1 && s->threads % wg->streams != 0) {
			errmsg_set(e, NULL, 0, 0, "wd=%s,sd=%s: streams=%d "
			    "needs threads= a multiple of it; the sd has %d "
			    "threads here", wg->wd, s->name, wg->streams,
			    s->threads);
			return (-1);
		}
	}
	if (s->nwgs == 0) {
		errmsg_set(e, NULL, 0, 0, "WORK: sd=%s has no workload",
		    s->name);
		return (-1);
	}
	/* sync, null: threads= OS threads; aio, io_uring: one OS
	 * thread keeps threads= I/Os in flight. */
	s->first_thread = w->nthreads;
	s->nthreads = engine_threads(s->ops) ? s->threads : 1;
	w->nthreads += s->nthreads;
	/* Two buffers per I/O in flight; two or three histograms
	 * per (thread, WG). */
	*mem += (uint64_t)s->threads * 2 * ((s->max_xfer + 4095) / 4096 *
	    4096) + (uint64_t)s->nthreads * (uint64_t)s->nwgs *
	    (s->rate_per_s > 0 ? 3 : 2) * HIST_NBUCKETS *
	    sizeof(uint64_t);
	return (0);
}

/*
 * A thread's I/O slots: a read and a write buffer each, the write one
 * filled here with pattern=; other data is built per write (pattern.h).
 */
static int
thread_buffers(struct work *w, struct thread *th, const struct sdw *sd,
    struct errmsg *e)
{
	size_t align = sd->block_bytes > 4096 ? sd->block_bytes : 4096;
	uint64_t bufsize = (sd->max_xfer + 4095) / 4096 * 4096;
	int q;

	th->slots = xcalloc((size_t)th->qd, sizeof(*th->slots));
	for (q = 0; q < th->qd; q++) {
		void *b, *wb;

		if (posix_memalign(&b, align, bufsize) != 0 ||
		    posix_memalign(&wb, align, bufsize) != 0) {
			errmsg_set(e, NULL, 0, 0, "cannot "
			    "allocate a %llu byte buffer",
			    (unsigned long long)bufsize);
			return (-1);
		}
		th->slots[q].index = q;
		th->slots[q].buf = b;
		th->slots[q].wbuf = wb;
		memset(b, 0, bufsize);
		if (w->pat != NULL && w->pat_len >= bufsize)
			memcpy(wb, w->pat, bufsize);	/* pattern= */
		/* else: io_thread_main fills it per write */
	}
	return (0);
}

/* Thread i, of sd k: its random stream, buffers, engine and stats. */
static int
thread_init(struct work *w, size_t i, int k, struct errmsg *e)
{
	struct thread *th = &w->threads[i];
	const struct sdw *sd = &w->sds[k];
	int g, rc;

	th->w = w;
	th->sdi = k;
	th->index = (int)i;
	th->qd = engine_threads(sd->ops) ? 1 : sd->threads;
	rng_init(&th->rng, w->seed, w->run_id * 1000003u + i +
	    ((uint64_t)w->slave_index << 40));
	if (thread_buffers(w, th, sd, e) != 0)
		return (-1);
	/* The engine now, so one that cannot start (io_uring
	 * switched off, no aio contexts left) stops the run
	 * before any I/O, saying why. */
	if ((rc = sd->ops->init(&th->ed, sd->fd, th->qd)) < 0) {
		th->ed = NULL;
		errmsg_set(e, NULL, 0, 0, "sd=%s,lun=%s: "
		    "engine=%s cannot start: %s%s%s",
		    sd->name, sd->lun, sd->ops->name, strerror(-rc),
		    sd->ops->init_hint != NULL ? "; " : "",
		    sd->ops->init_hint != NULL ? sd->ops->init_hint : "");
		return (-1);
	}
	if (w->dvr != NULL)
		th->dvt = sd_dv_thread_new(w->dvr, k, th->qd, sd->max_xfer);
	/* Stats for the WGs this thread can run only. */
	th->st = xcalloc((size_t)sd->nwgs, sizeof(*th->st));
	for (g = 0; g < sd->nwgs; g++) {
		th->st[g].h[0] = hist_new();
		th->st[g].h[1] = hist_new();
		if (sd->rate_per_s > 0)
			th->st[g].sched = hist_new();
	}
	return (0);
}

/*
 * pattern=: the file's data, read here on the slave's host (as vdbench's
 * slaves read it) before any lun is opened, as long as the largest write
 * buffer.
 */
static int
load_pattern(struct work *w, const struct slave_work *sw, struct errmsg *e)
{
	uint64_t len = 4096, got = 0, used = 0, x;
	char abs[PATH_MAX], *t;
	int k;

	if (w->pattern_file == NULL)
		return (0);
	for (k = 0; k < sw->nwgs; k++) {
		x = (xfer_max_bytes(&sw->wgs[k].xfer) + 4095) / 4096 * 4096;
		if (x > len && x <= WORK_MAX_XFER_BYTES)
			len = x;
	}
	w->pat = xmalloc(len);
	if (pattern_load(w->pattern_file, w->pat, len, &got, &used, e) != 0)
		return (-1);
	w->pat_len = len;
	if (realpath(w->pattern_file, abs) == NULL)
		snprintf(abs, sizeof(abs), "%s", w->pattern_file);
	if (used != got) {
		xasprintf(&t, "Data pattern length for file '%s' must be a "
		    "multiple of 4. Input length of %llu truncated. Possible "
		    "cr/lf? ", abs, (unsigned long long)got);
		strlist_add(&w->note_queue, t);
		free(t);
	}
	xasprintf(&t, "Successfully loaded data pattern from %s", abs);
	strlist_add(&w->note_queue, t);
	free(t);
	return (0);
}

static void	io_error_text(struct work *, struct sdw *, const char *);
static void	dv_recovery_range(struct work *);
static int	dv_setup(struct work *, struct dv_session *,
		    struct errmsg *);

/* Build a run's work. */
/*
 * Controlled MAX: each WG a member of the gate at its skew, out once at
 * its end (seekpct=eof) or its sd taken out (remove_device). The slack:
 * what every I/O in flight could add at once, and at least 256 I/Os.
 */
static struct skewgate *
skew_gate(struct work *w)
{
	struct skewgate *g;
	uint64_t slack = 0;
	int k;

	for (k = 0; k < w->nsds; k++)
		slack += 2 * (uint64_t)w->sds[k].threads;
	g = skewgate_new(w->nwgs, slack > 256 ? slack : 256);
	for (k = 0; k < w->nwgs; k++)
		skewgate_member(g, k, w->wgs[k].skew_pct, &w->wgs[k].eof, 1,
		    &w->sds[w->wgs[k].sdi].removed, 1);
	return (g);
}

struct work *
work_new(const json_t *body, struct dv_session *dvs, struct errmsg *e)
{
	json_t *wk;
	json_int_t run_id, ins, seed;
	struct slave_work sw;
	struct work *w;
	json_error_t je;
	uint64_t mem = 0;
	size_t i;
	int k, hold;

	if (json_unpack_ex((json_t *)body, &je, 0, "{s:I,s:I,s:I,s:o}",
	    "run_id", &run_id, "interval_ns", &ins, "seed", &seed, "work",
	    &wk) != 0) {
		errmsg_set(e, NULL, 0, 0, "WORK: %s", je.text);
		return (NULL);
	}
	if (ins <= 0) {
		errmsg_set(e, NULL, 0, 0, "WORK: interval_ns: not above 0");
		return (NULL);
	}
	if (work_from_json(&sw, wk, e) != 0)
		return (NULL);
	if (sw.is_fs && sw.pattern_file != NULL) {
		/* file-system writes: compratio=, compressionseed= (pattern.h) */
		errmsg_set(e, NULL, 0, 0, "'pattern=' is not built for "
		    "file-system workloads (fsd/fwd) in vdbc");
		slave_work_clear(&sw);
		return (NULL);
	}
	if (sw.compratio > 25) {	/* Patterns.createCompressionPattern() */
		errmsg_set(e, NULL, 0, 0, "'compratio=25' is the largest value "
		    "Vdbench supports. Are you sure your request is valid, "
		    "asking for compratio=%.2f? ", sw.compratio);
		slave_work_clear(&sw);
		return (NULL);
	}
	if (sw.is_fs)
		return (fs_work_new(&sw, (uint64_t)run_id, (uint64_t)ins,
		    (uint64_t)seed, json_string_value(json_object_get(body,
		    "run")), dvs, e));
	w = xcalloc(1, sizeof(*w));
	w->wake_fd = -1;
	pthread_mutex_init(&w->err_mu, NULL);
	w->max_errors = (uint64_t)sw.max_errors;
	w->remove_device = sw.remove_device;
	w->compratio = sw.compratio;
	w->dist = sw.distribution;
	w->slave_index = sw.slave_index;
	if (sw.has_dedup) {
		w->dd_ratio = sw.dedup.ratio;
		w->dd_unit_bytes = sw.dedup.unit_bytes;
		w->dd_sets = sw.dedup.sets;
		w->dd_not_across = sw.dedup.not_across;
	}
	w->has_compseed = sw.has_compseed;
	w->compseed = sw.compseed;
	if (sw.pattern_file != NULL)
		w->pattern_file = xstrdup(sw.pattern_file);
	if (load_pattern(w, &sw, e) != 0)
		goto fail;
	w->run_id = (uint64_t)run_id;
	w->dv = sw.validate;
	w->journal = sw.journal;
	if (json_is_string(json_object_get(body, "run")))
		snprintf(w->run, sizeof(w->run), "%s",
		    json_string_value(json_object_get(body, "run")));
	w->interval_ns = (uint64_t)ins;
	w->seed = (uint64_t)seed;
	w->edges = sw.edges;
	hold = sw.hold_skew;
	if (sds_wgs_from_json(w, &sw, e) != 0)
		goto fail;
	slave_work_clear(&sw);
	if (check_blocks(w, e) != 0 || check_writes(w, e) != 0 ||
	    check_dedup(w, e) != 0 || dv_setup(w, dvs, e) != 0)
		goto fail;
	dv_recovery_range(w);
	w->wg_slot = xcalloc((size_t)w->nwgs + 1, sizeof(int));
	for (k = 0; k < w->nsds; k++) {
		if (sd_index(w, k, &mem, e) != 0)
			goto fail;
	}
	if (check_mem(mem, e) != 0)
		goto fail;
	/* The data of writes without pattern= or validation: one pattern
	 * for the run (pattern.h). */
	if (w->pat == NULL && !w->dv) {
		uint64_t big = 0;

		for (k = 0; k < w->nsds; k++)
			big = w->sds[k].max_xfer > big ? w->sds[k].max_xfer : big;
		wdata_init(&w->wd, w->compratio, w->has_compseed ?
		    (int64_t)w->compseed : 0, big, w->dd_unit_bytes);
	}
	w->threads = xcalloc((size_t)w->nthreads, sizeof(*w->threads));
	for (k = 0, i = 0; k < w->nsds; k++) {
		int t;

		for (t = 0; t < w->sds[k].nthreads; t++, i++) {
			if (thread_init(w, i, k, e) != 0)
				goto fail;
		}
	}
	if (hold)
		w->gate = skew_gate(w);
	return (w);
fail:
	slave_work_clear(&sw);
	work_free(w);
	return (NULL);
}

/* Count one completed I/O into the thread's own counters, published
 * whole (seqcount.h): a snapshot sees all of this I/O or none of it. */
static void
count(struct work *w, struct wstat *st, int dir, uint64_t bytes,
    uint64_t lat_ns, uint64_t now_ns)
{
	struct dirstat *d = &st->d[dir];
	uint64_t us = (lat_ns + 500) / 1000;
	uint64_t k = (now_ns - w->go_ns) / w->interval_ns + 1;
	unsigned int slot = (unsigned int)(k % MAX_SLOTS);
	unsigned int b = vdbhist_bucket_of(&w->edges, lat_ns);

	seqcount_write_begin(&st->seq);
	seqcount_add(&d->ios, 1);
	seqcount_add(&d->bytes, bytes);
	seqcount_add(&d->resp_sum_ns, lat_ns);
	seqcount_add(&d->resp_sumsq_us2, us * us);
	seqcount_add(&d->vh.count[b], 1);
	hist_add(st->h[dir], lat_ns);
	if (ld64(&d->max_k[slot]) != k) {
		seqcount_put(&d->max_ns[slot], 0);
		seqcount_put(&d->max_k[slot], k);
	}
	if (lat_ns > ld64(&d->max_ns[slot]))
		seqcount_put(&d->max_ns[slot], lat_ns);
	seqcount_write_end(&st->seq);
}

/*
 * Is t_ns past the end of a timed run? Arrivals come at GO + gap, GO + 2
 * gaps, ...: the one at GO + elapsed is the run's last (rate x elapsed
 * of them in all).
 */
static int
past_end(const struct work *w, uint64_t t_ns)
{
	return (w->end_ns != 0 && t_ns > w->end_ns);
}

/* Wait until an absolute monotonic time, or until stop (-1). */
static int
wait_until(struct work *w, uint64_t t_ns)
{
	struct timespec ts;

	while (!__atomic_load_n(&w->stop, __ATOMIC_RELAXED)) {
		uint64_t now = mtime_now_ns(), wake;

		if (now >= t_ns)
			return (0);
		/* Sleep in slices of at most 100 ms, to see a stop. */
		wake = t_ns - now > 100000000u ? now + 100000000u : t_ns;
		ts.tv_sec = (time_t)(wake / 1000000000u);
		ts.tv_nsec = (long)(wake % 1000000000u);
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
	}
	return (-1);
}

/*
 * data_errors=remove_device: the sd's threads stop using it (once), the
 * others go on. When it was the last sd of this slave, the run stops
 * with the text that says so.
 */
static void
remove_sd(struct work *w, struct sdw *s, const char *text)
{
	int expected = 0, n;
	char note[800], tod[16];

	if (!__atomic_compare_exchange_n(&s->removed, &expected, 1, 0,
	    __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
		return;			/* already out */
	n = __atomic_add_fetch(&w->nremoved, 1, __ATOMIC_ACQ_REL);
	/* vdbench's words (IO_task.java:200), on the console and in
	 * errorlog.html, before the error's own line */
	snprintf(note, sizeof(note), "%c%s 'data_errors=remove_device' "
	    "requested for sd=%s No longer issuing i/o against this SD",
	    WORK_DETAIL_MARK, mtime_tod(mtime_wall_ns(), tod), s->name);
	pthread_mutex_lock(&w->err_mu);
	strlist_add(&w->err_queue, note);
	pthread_mutex_unlock(&w->err_mu);
	if (n < w->nsds)
		return;
	expected = 0;
	if (__atomic_compare_exchange_n(&w->has_error, &expected, 1, 0,
	    __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
		snprintf(w->error, sizeof(w->error), "data_errors=remove_device:"
		    " every sd has been removed after I/O errors; no sd is "
		    "left for the run. The last: %s", text);
		__atomic_store_n(&w->has_error, 2, __ATOMIC_RELEASE);
		if (w->wake_fd >= 0)
			(void)eventfd_write(w->wake_fd, 1);
	}
	__atomic_store_n(&w->stop, 1, __ATOMIC_RELAXED);
}

/*
 * An I/O error: queue its text for the master (off the hot path: errors
 * are rare, so a mutex is fine) and stop the run once data_errors= of
 * them have happened (vdbench's rule).
 */
static void
io_error(struct work *w, struct sdw *s, int dir, uint64_t off, uint64_t len,
    int err)
{
	char text[600];

	snprintf(text, sizeof(text), "sd=%s,lun=%s: %s of %llu bytes at "
	    "offset %llu failed: %s%s", s->name, s->lun, dir ? "write" : "read",
	    (unsigned long long)len, (unsigned long long)off, err ?
	    strerror(err) : "short transfer (end of file)", "");
	io_error_text(w, s, text);
}

/* An I/O error (io_error) by its text. */
static void
io_error_text(struct work *w, struct sdw *s, const char *text)
{
	uint64_t n = __atomic_add_fetch(&w->nerrors, 1, __ATOMIC_ACQ_REL);
	int expected = 0;

	if (w->remove_device && n < w->max_errors)
		remove_sd(w, s, text);	/* its line first, as vdbench's */
	pthread_mutex_lock(&w->err_mu);
	if (w->err_queue.n < 100)
		strlist_add(&w->err_queue, text);
	pthread_mutex_unlock(&w->err_mu);
	if (n < w->max_errors)
		return;
	/* claim (1), write the text, then publish it (2): the main thread
	 * reads the text only once it sees 2, so never half of it */
	if (__atomic_compare_exchange_n(&w->has_error, &expected, 1, 0,
	    __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
		/* vdbench's words, printed as the master's (the master
		 * says the same when its count gets there first) */
		snprintf(w->error, sizeof(w->error), "%c'data_errors=%llu' "
		    "requested. Abort rd=%s after last error.",
		    WORK_PLAIN_ERROR, (unsigned long long)w->max_errors,
		    w->run);
		__atomic_store_n(&w->has_error, 2, __ATOMIC_RELEASE);
		/* wake the slave's loop: it sends the ERROR now */
		if (w->wake_fd >= 0)
			(void)eventfd_write(w->wake_fd, 1);
	}
	__atomic_store_n(&w->stop, 1, __ATOMIC_RELAXED);
}

/* Lines for the slave's own log only (the caller frees the list). */
void
work_take_own_log(struct work *w, struct strlist *out)
{
	memset(out, 0, sizeof(*out));
	if (w->fs == NULL) {
		*out = w->own_log;
		memset(&w->own_log, 0, sizeof(w->own_log));
	} else
		fswork_take_own_log(w->fs, out);
}

/* Take the queued error texts (the caller frees the list). */
void
work_take_errors(struct work *w, struct strlist *out)
{
	if (w->fs != NULL) {
		fswork_take_errors(w->fs, out);	/* -v on fsds */
		return;
	}
	pthread_mutex_lock(&w->err_mu);
	*out = w->err_queue;
	memset(&w->err_queue, 0, sizeof(w->err_queue));
	pthread_mutex_unlock(&w->err_mu);
}

/* The walk of what exists of the anchors (file-system runs); its end
 * is signalled on the eventfd wake_fd. */
int
work_anchors_begin(struct work *w, int wake_fd, struct errmsg *e)
{
	return (w->fs != NULL ? fswork_anchors_begin(w->fs, wake_fd, e) : 0);
}

json_t *
work_anchors_take(struct work *w)
{
	return (w->fs != NULL ? fswork_anchors_take(w->fs) : NULL);
}

/* Whether this is a file-system run. */
int
work_is_fs(const struct work *w)
{
	return (w != NULL && w->fs != NULL);
}

/* Whether this is a file-system run under data validation. */
int
work_is_fs_dv(const struct work *w)
{
	return (work_is_fs(w) && fswork_validates(w->fs));
}

/* Progress lines of a file-system run. */
void
work_take_notes(struct work *w, struct strlist *out)
{
	memset(out, 0, sizeof(*out));
	if (w->fs != NULL) {
		fswork_take_notes(w->fs, out);
		return;
	}
	pthread_mutex_lock(&w->err_mu);
	*out = w->note_queue;
	memset(&w->note_queue, 0, sizeof(w->note_queue));
	pthread_mutex_unlock(&w->err_mu);
}

/* Pick the next I/O of an sd for a thread: workload (its slot in the
 * sd's list, which is also its slot in t->st; want >= 0: that one),
 * direction, size and address. -1 when every workload of the sd (or
 * the wanted one) is at its end; 1 when the skew gate holds them all
 * back for now. lane: the thread's queue slot in the sd, for
 * streams=. */
static int
next_io(struct work *w, struct thread *t, struct sdw *s, int want,
    int lane, int *wi_out, int *dir_out, uint64_t *len_out,
    uint64_t *off_out)
{
	for (;;) {
		struct wg *g;
		int wi, k, live = 0, hit, dir;
		uint64_t len, off;

		wi = want >= 0 ? want : workload_pick(s->wg_cum, s->nwgs,
		    &t->rng);
		/* skew= at max: a WG ahead of the slowest gives way */
		if (t->gate != NULL && want < 0 && (wi = skewgate_steer(t->gate,
		    s->wgs, s->nwgs, wi)) < 0)
			return (1);
		g = &w->wgs[s->wgs[wi]];
		if (want >= 0 && __atomic_load_n(&g->eof, __ATOMIC_RELAXED))
			return (-1);
		if (__atomic_load_n(&g->eof, __ATOMIC_RELAXED)) {
			for (k = 0; k < s->nwgs; k++)
				live += !__atomic_load_n(&w->wgs[s->wgs[k]].eof,
				    __ATOMIC_RELAXED);
			if (live == 0)
				return (-1);
			continue;
		}
		dir = workload_dir(g, &t->rng);
		len = workload_xfer(g, &t->rng);
		hit = (dir == 0 ? g->rhpct : g->whpct) > 0 &&
		    g->hit_high > g->hit_low &&
		    rng_double(&t->rng) * 100 < (dir == 0 ? g->rhpct : g->whpct);
		off = workload_addr_lane(g, &t->rng, hit, &len, lane);
		if (off == UINT64_MAX) {
			__atomic_store_n(&g->eof, 1, __ATOMIC_RELAXED);
			continue;
		}
		*wi_out = wi;
		*dir_out = dir;
		*len_out = len;
		*off_out = off;
		return (0);
	}
}

/* The gap to the next arrival (PARMFILE.md 12.5), mean mean_ns. */
static uint64_t
next_gap(struct work *w, struct rng *r, double mean_ns)
{
	switch (w->dist) {
	case 1:
		return ((uint64_t)(rng_double(r) * 2 * mean_ns));
	case 2:
		return ((uint64_t)mean_ns);
	default:
		return ((uint64_t)rng_exp(r, mean_ns));
	}
}

/* An I/O is over: count it, or report its error. */
static void
complete(struct work *w, struct thread *t, struct sdw *s, struct io_u *u,
    uint64_t now)
{
	/* a failed I/O is an I/O of the interval too, with its response
	 * time, as vdbench counts it (UPDATE_WORKLOAD_STATS) */
	count(w, &t->st[u->wi], u->dir, u->len, now - u->t0_ns, now);
	if (u->res != (long)u->len) {
		add64(&t->st[u->wi].d[u->dir].errors, 1);
		io_error(w, s, u->dir, u->off, u->len, u->res < 0 ?
		    (int)-u->res : 0);
	}
}

/* The run stops with text (the first one wins; work_error). */
static void
set_error(struct work *w, const char *text)
{
	int expected = 0;

	if (__atomic_compare_exchange_n(&w->has_error, &expected, 1, 0,
	    __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
		snprintf(w->error, sizeof(w->error), "%s", text);
		__atomic_store_n(&w->has_error, 2, __ATOMIC_RELEASE);
		if (w->wake_fd >= 0)
			(void)eventfd_write(w->wake_fd, 1);
	}
	__atomic_store_n(&w->stop, 1, __ATOMIC_RELAXED);
}

/*
 * priority= (PARMFILE.md 12.8): each WG of the sd has its own arrivals
 * (its share of the sd's rate; none at max) and the thread serves the
 * highest priority WG that has one due, so a lower priority gets what is
 * left. A thread's view: per WG slot, the next arrival and mean gap.
 */
struct prio_sched {
	uint64_t	*next_ns;	/* next arrival per WG slot */
	double		*mean_ns;	/* per WG slot; 0 = always due */
	unsigned char	*dead;		/* at its end (seekpct=eof) */
};

static void
prio_init(struct prio_sched *p, const struct sdw *s, struct thread *t,
    uint64_t go_ns)
{
	int j;

	p->next_ns = xcalloc((size_t)s->nwgs, sizeof(uint64_t));
	p->mean_ns = xcalloc((size_t)s->nwgs, sizeof(double));
	p->dead = xcalloc((size_t)s->nwgs, 1);
	for (j = 0; j < s->nwgs; j++) {
		double share = (s->wg_cum[j] - (j > 0 ? s->wg_cum[j - 1] : 0)) /
		    s->wg_cum[s->nwgs - 1];

		p->mean_ns[j] = s->rate_per_s > 0 && share > 0 ? 1e9 *
		    s->nthreads / (s->rate_per_s * share) : 0;
		p->next_ns[j] = go_ns + (p->mean_ns[j] > 0 ?
		    next_gap(t->w, &t->rng, p->mean_ns[j]) : 0);
	}
}

static void
prio_free(struct prio_sched *p)
{
	free(p->next_ns);
	free(p->mean_ns);
	free(p->dead);
}

/*
 * The slot of the highest priority WG with an arrival due at now, or -1:
 * then *due is the earliest coming arrival (UINT64_MAX when every WG is
 * at its end).
 */
static int
prio_pick(const struct prio_sched *p, const struct sdw *s, uint64_t now,
    uint64_t *due)
{
	int i;

	*due = UINT64_MAX;
	for (i = 0; i < s->nwgs; i++) {
		int j = s->prio_order[i];

		if (p->dead[j])
			continue;
		if (p->mean_ns[j] == 0 || p->next_ns[j] <= now)
			return (j);
		if (p->next_ns[j] < *due)
			*due = p->next_ns[j];
	}
	return (-1);
}

/*
 * u is over: count it (or report its error); under validation, its
 * next phase on the same slot (sd_dv_done), queued again at once. 1: u
 * is in flight again; 0: its slot is free.
 */
static int
finish(struct work *w, struct thread *t, struct sdw *s, struct io_u *u,
    uint64_t now)
{
	for (;;) {
		complete(w, t, s, u, now);
		if (t->dvt == NULL || sd_dv_done(t->dvt, u, u->res ==
		    (long)u->len, __atomic_load_n(&w->stop, __ATOMIC_RELAXED))
		    != SD_DV_AGAIN)
			return (0);
		if (s->ops->prep != NULL)
			s->ops->prep(t->ed, u);
		u->t0_ns = mtime_now_ns();
		if (s->ops->queue(t->ed, u) != ENGINE_Q_COMPLETED)
			return (1);
		now = mtime_now_ns();
	}
}

/*
 * An I/O thread, the one loop of every engine: keep up to qd I/Os in
 * flight (one for the sync and null engines, which run threads= of
 * these; threads= for aio and io_uring, which run one), starting each as
 * a slot frees up, or as its fixed-rate arrival comes due, then reap.
 * A synchronous engine completes the I/O in queue. Before the buffers
 * go, what is in flight is drained. Under data validation (sd_dv.h) an
 * I/O passes sd_dv_prep before it is queued and may take its slot
 * through more phases when it is over (finish).
 */
static void *
io_thread_main(void *arg)
{
	struct thread *t = arg;
	struct work *w = t->w;
	struct sdw *s = &w->sds[t->sdi];
	const struct engine_ops *ops = s->ops;
	double mean_ns = s->rate_per_s > 0 ? 1e9 * s->nthreads /
	    s->rate_per_s : 0;
	uint64_t next_ns = w->go_ns;
	int *freeq = xcalloc((size_t)t->qd, sizeof(int));
	int nfree = t->qd, inflight = 0, done = 0, requeued = 0, i, r;
	void *ed = t->ed;
	struct prio_sched ps;
	uint64_t due = 0, last_ns = 0;	/* the latest completion */
	uint64_t backoff = 0;	/* skew gate (skewgate_backoff_ns) */
	int want = -1;

	t->gate = w->gate;
	for (i = 0; i < t->qd; i++)
		freeq[i] = i;
	memset(&ps, 0, sizeof(ps));
	if (s->prio_order != NULL)
		prio_init(&ps, s, t, w->go_ns);
	else if (mean_ns > 0)
		next_ns += next_gap(w, &t->rng, mean_ns);
	for (;;) {
		uint64_t now, wait_ns = 100000000u;
		int queued = 0, held = 0;

		if (__atomic_load_n(&s->removed, __ATOMIC_RELAXED))
			done = 1;	/* data_errors=remove_device */
		while (!__atomic_load_n(&w->stop, __ATOMIC_RELAXED) && !done &&
		    nfree > 0) {
			struct io_u *u;

			if (s->prio_order != NULL) {
				now = mtime_now_ns();
				if ((want = prio_pick(&ps, s, now, &due)) < 0) {
					if (due == UINT64_MAX) {
						done = 1;	/* all ended */
						break;
					}
					wait_ns = due - now < wait_ns ?
					    due - now : wait_ns;
					break;
				}
				if (past_end(w, ps.mean_ns[want] > 0 ?
				    ps.next_ns[want] : now)) {
					ps.dead[want] = 1;	/* run over */
					continue;
				}
			} else if (mean_ns > 0 && past_end(w, next_ns)) {
				done = 1;	/* the run's last arrival */
				break;
			} else if (mean_ns > 0 &&
			    next_ns > (now = mtime_now_ns())) {
				wait_ns = next_ns - now < wait_ns ?
				    next_ns - now : wait_ns;
				break;
			} else if (mean_ns == 0 && past_end(w, last_ns)) {
				done = 1;	/* max rate: the run is over */
				break;
			}
			u = &t->slots[freeq[nfree - 1]];
			if ((r = next_io(w, t, s, want, (t->index -
			    s->first_thread) * t->qd + u->index, &u->wi, &u->dir,
			    &u->len, &u->off)) > 0) {
				/* skew= at max: this sd is ahead; wait a
				 * little (or for a completion) */
				wait_ns = skewgate_backoff_ns(&backoff);
				held = 1;
				break;
			}
			backoff = 0;
			if (r != 0) {
				if (want >= 0) {
					ps.dead[want] = 1;	/* at its end */
					continue;
				}
				done = 1;	/* every workload at its end */
				break;
			}
			if (t->dvt != NULL && sd_dv_prep(t->dvt, u) != 0) {
				if (inflight > 0)
					break;	/* its blocks are busy: reap */
				continue;
			}
			/* the data of a write: not with pattern=, nor under
			 * validation (sd_dv_prep filled it) */
			if (u->dir && t->dvt == NULL && w->wd.pat != NULL)
				wdata_block(&w->wd, &s->wsd, u->wbuf, u->off,
				    u->len, (uint32_t)s->fd,
				    (uint32_t)(mtime_now_ns() / 1000));
			if (ops->prep != NULL)
				ops->prep(ed, u);
			nfree--;
			u->t0_ns = mtime_now_ns();
			/* Fixed rates: how late the I/O started (coordinated
			 * omission made visible; not in the response time). */
			if (want >= 0 && ps.mean_ns[want] > 0) {
				hist_add(t->st[u->wi].sched, u->t0_ns >
				    ps.next_ns[want] ? u->t0_ns -
				    ps.next_ns[want] : 0);
				ps.next_ns[want] += next_gap(w, &t->rng,
				    ps.mean_ns[want]);
			} else if (want < 0 && mean_ns > 0) {
				hist_add(t->st[u->wi].sched, u->t0_ns >
				    next_ns ? u->t0_ns - next_ns : 0);
				next_ns += next_gap(w, &t->rng, mean_ns);
			}
			if (ops->queue(ed, u) == ENGINE_Q_COMPLETED) {
				last_ns = mtime_now_ns();
				if (finish(w, t, s, u, last_ns)) {
					inflight++;
					queued++;
				} else
					freeq[nfree++] = u->index;
				continue;
			}
			inflight++;
			queued++;
		}
		if (queued + requeued > 0 && ops->commit != NULL &&
		    (r = ops->commit(ed)) < 0) {
			io_error(w, s, 0, 0, 0, -r);
			break;
		}
		requeued = 0;
		if (inflight == 0) {
			if (__atomic_load_n(&w->stop, __ATOMIC_RELAXED) || done)
				break;
			if (s->prio_order != NULL) {
				if (due != 0 && wait_until(w, due) != 0)
					break;
				due = 0;
				continue;
			}
			if (mean_ns > 0 && wait_until(w, next_ns) != 0)
				break;
			if (held && wait_until(w, mtime_now_ns() + wait_ns) != 0)
				break;
			continue;
		}
		r = ops->getevents(ed, 1, inflight, wait_ns);
		now = last_ns = mtime_now_ns();
		if (r < 0) {
			if (r == -EINTR)
				continue;
			io_error(w, s, 0, 0, 0, -r);
			break;
		}
		for (i = 0; i < r; i++) {
			struct io_u *u = ops->event(ed, i);

			inflight--;
			if (finish(w, t, s, u, now)) {
				inflight++;
				requeued++;
			} else
				freeq[nfree++] = u->index;
		}
	}
	/* Drain what is still in flight before the buffers go away (and
	 * validation's key blocks are released: no next phase). */
	while (inflight > 0 && (r = ops->getevents(ed, 1, inflight,
	    ENGINE_WAIT_FOREVER)) > 0) {
		for (i = 0; i < r && t->dvt != NULL; i++) {
			struct io_u *u = ops->event(ed, i);

			(void)sd_dv_done(t->dvt, u, u->res == (long)u->len, 1);
		}
		inflight -= r;
	}
	if (t->dvt != NULL)
		sd_dv_thread_end(t->dvt);
	free(freeq);
	prio_free(&ps);
	return (NULL);
}

/* Validation's calls back (struct sd_dv_out). */
static void
dv_stop(void *arg, const char *text)
{
	set_error(arg, text);
}

static void
dv_io_error(void *arg, int sdi, int dir, uint64_t off, uint64_t len,
    int err)
{
	struct work *w = arg;

	io_error(w, &w->sds[sdi], dir, off, len, err);
}

static const char *
dv_error(void *arg)
{
	return (work_error(arg));
}

/* Validation (-v, -j) for every sd of the run (sd_dv.h). */
static int
dv_setup(struct work *w, struct dv_session *dvs, struct errmsg *e)
{
	struct sd_dv_cfg cfg;
	struct sd_dv_out out;
	int k;

	if (w->dv == 0)
		return (0);
	if (dvs == NULL) {
		errmsg_set(e, NULL, 0, 0, "WORK: Data Validation needs the "
		    "slave's validation session");
		return (-1);
	}
	memset(&cfg, 0, sizeof(cfg));
	cfg.validate = w->dv;
	cfg.journal = w->journal;
	cfg.dd_unit_bytes = w->dd_unit_bytes;
	cfg.dd_ratio = w->dd_ratio;
	cfg.dd_sets = w->dd_sets;
	cfg.dd_not_across = w->dd_not_across;
	cfg.has_compseed = w->has_compseed;
	cfg.compseed = w->compseed;
	memset(&out, 0, sizeof(out));
	out.mu = &w->err_mu;
	out.errq = &w->err_queue;
	out.notes = &w->note_queue;
	out.own_log = &w->own_log;
	out.nerrors = &w->nerrors;
	out.max_errors = w->max_errors;
	out.run = w->run;
	out.arg = w;
	out.stop = dv_stop;
	out.io_error = dv_io_error;
	out.error = dv_error;
	w->dvr = sd_dv_new(dvs, &cfg, &out, w->nsds);
	for (k = 0; k < w->nsds; k++) {
		const struct sdw *s = &w->sds[k];
		struct sd_dv_sd in;

		memset(&in, 0, sizeof(in));
		in.name = s->name;
		in.lun = s->lun;
		in.jnl_dir = s->jnl_dir;
		in.fd = s->fd;
		in.size_bytes = s->dv_size;
		in.kb_bytes = s->dv_kb;
		in.has_own_dd = s->has_dd;
		if (sd_dv_sd_setup(w->dvr, k, &in, w->wgs, w->nwgs, e) != 0)
			return (-1);
	}
	return (0);
}

/*
 * -jr's journal_recovery rd (master/journal_rd.c; vdbench's
 * Jnl_entry.recoverSDJournalsIfNeeded sets it on its slave as here):
 * its sequential read of each sd covers every key block the map knows,
 * from the lun's start (a raw device's: its first key block, which no
 * run writes) to the map's end. The master started it after its largest
 * xfersize (128k) on a raw lun and ended it at a multiple of it, and
 * the key blocks there were never validated.
 */
static void
dv_recovery_range(struct work *w)
{
	uint64_t low, end;
	uint32_t kb;
	int i;

	if (w->dvr == NULL || !(w->journal & JOURNAL_RECOVER) ||
	    strcmp(w->run, "journal_recovery") != 0)
		return;
	for (i = 0; i < w->nwgs; i++) {
		struct wg *g = &w->wgs[i];
		const struct sdw *s = &w->sds[g->sdi];

		if (!g->seek_eof || g->readpct < 100 || g->streams > 1)
			continue;
		sd_dv_extent(w->dvr, g->sdi, &kb, &end);
		low = is_block(s->fd) ? kb : 0;
		if (g->low > low)
			g->low = g->cursor = g->stride_cursor = low;
		if (end > g->high)
			g->high = end;
	}
}

/* GO: start the threads. */
int
work_start(struct work *w, struct errmsg *e)
{
	int i, rc;

	if (w->fs != NULL)
		return (fswork_start(w->fs, e));
	w->go_ns = mtime_now_ns();
	w->end_ns = w->run_ns != 0 ? w->go_ns + w->run_ns : 0;
	for (i = 0; i < w->nthreads; i++) {
		if ((rc = pthread_create(&w->threads[i].tid, NULL,
		    io_thread_main, &w->threads[i])) != 0) {
			errmsg_set(e, NULL, 0, 0, "cannot start I/O thread %d: "
			    "%s", i, strerror(rc));
			work_stop(w);
			return (-1);
		}
		w->threads[i].started = 1;
	}
	return (0);
}

uint64_t
work_go_ns(const struct work *w)
{
	return (w->fs != NULL ? fswork_go_ns(w->fs) : w->go_ns);
}

/* A sync of the run's end failed: an I/O error of its sd (the sync
 * thread; io_error_text is thread-safe). */
static void
sync_failed(void *arg, int i, int err)
{
	struct work *w = arg;
	struct sdw *s = &w->sds[w->esync_sd[i]];
	char text[600];

	if (s->fsync_close) {
		/* openflags=fsync: vdbench's slave aborts (Native.closeFile) */
		snprintf(text, sizeof(text), "%cNative.closeFile(fhandle): "
		    "fsync failed, rc= %d", WORK_ABORT_ERROR, err);
		set_error(w, text);
		return;
	}
	snprintf(text, sizeof(text), "sd=%s,lun=%s: fsync at the end of the "
	    "run failed: %s; written data did not all reach the lun",
	    s->name, s->lun, strerror(err));
	io_error_text(w, s, text);
}

/*
 * Once the threads are joined: the sds whose writes may still sit in the
 * page cache (buffered, written in the run) and those with
 * openflags=fsync are synced on a thread of their own (endsync.h); a
 * write lost in writeback is an I/O error of the run.
 */
static void
sync_begin(struct work *w)
{
	int *fds = xcalloc((size_t)w->nsds + 1, sizeof(int)), i, k, n = 0;

	w->esync_begun = 1;
	w->esync_sd = xcalloc((size_t)w->nsds + 1, sizeof(int));
	for (i = 0; i < w->nsds; i++) {
		const struct sdw *s = &w->sds[i];
		int wrote = 0;

		if (s->fd < 0 || s->sync_end == 0 ||
		    __atomic_load_n(&s->removed, __ATOMIC_ACQUIRE))
			continue;
		for (k = 0; k < s->nwgs; k++)
			wrote |= w->wgs[s->wgs[k]].readpct < 100;
		if (s->sync_end == 1 && !wrote)
			continue;
		w->esync_sd[n] = i;
		fds[n++] = s->fd;
	}
	if (n > 0)
		w->esync = endsync_start(fds, n, sync_failed, w, w->wake_fd);
	free(fds);
}

/* Are the syncs of the run's end over (work.h)? */
int
work_sync_done(struct work *w)
{
	return (w->fs != NULL || endsync_done(w->esync));
}

/* STOP: threads finish their I/O in flight and end. */
void
work_stop(struct work *w)
{
	int i;

	if (w->fs != NULL) {
		fswork_stop(w->fs);
		return;
	}
	__atomic_store_n(&w->stop, 1, __ATOMIC_RELAXED);
	for (i = 0; w->threads != NULL && i < w->nthreads; i++) {
		if (w->threads[i].started) {
			pthread_join(w->threads[i].tid, NULL);
			w->threads[i].started = 0;
		}
	}
	if (w->go_ns != 0 && !w->esync_begun)
		sync_begin(w);
	if (w->go_ns != 0 && w->dvr != NULL)
		sd_dv_end(w->dvr, w->wgs, w->nwgs);
}

/* The loop's eventfd (work.h). */
void
work_set_wake(struct work *w, int fd)
{
	if (w->fs == NULL)
		w->wake_fd = fd;
}

/* The run's length (work.h); file-system runs end at STOP. */
void
work_set_length(struct work *w, uint64_t run_ns)
{
	w->run_ns = run_ns;
}

/* Accessors. */
uint64_t
work_run_id(const struct work *w)
{
	return (w->run_id);
}

uint64_t
work_interval_ns(const struct work *w)
{
	return (w->interval_ns);
}

const char *
work_error(const struct work *w)
{
	if (w->fs != NULL)
		return (fswork_error(w->fs));
	return (__atomic_load_n(&w->has_error, __ATOMIC_ACQUIRE) == 2 ?
	    w->error : NULL);
}

/* Have all eof workloads ended (and is there at least one)? */
int
work_eof_done(const struct work *w)
{
	int i, any = 0;

	if (w->fs != NULL)
		return (fswork_done(w->fs));
	for (i = 0; i < w->nwgs; i++) {
		if (!w->wgs[i].seek_eof)
			continue;
		any = 1;
		if (!__atomic_load_n(&w->wgs[i].eof, __ATOMIC_RELAXED))
			return (0);
	}
	return (any);
}


/*
 * One thread's counters of one WG for interval k, copied whole (seqcount.h)
 * into side[], vh[] and h[] (which it resets), so bytes, response times,
 * buckets and the histogram always belong to the same I/Os.
 */
static void
wstat_copy(const struct work *w, struct wstat *st, uint64_t k,
    struct iostats_side side[2], struct vdbhist vh[2], struct hist *h[2])
{
	unsigned int slot = (unsigned int)(k % MAX_SLOTS), tries = 0, b;
	uint32_t seq;
	int d;

	do {
		seq = seqcount_read_begin(&st->seq, tries);
		for (d = 0; d < 2; d++) {
			struct dirstat *x = &st->d[d];
			struct iostats_side *o = &side[d];

			o->ios = seqcount_get(&x->ios);
			o->bytes = seqcount_get(&x->bytes);
			o->resp_sum_ns = seqcount_get(&x->resp_sum_ns);
			o->resp_sumsq_us2 = seqcount_get(&x->resp_sumsq_us2);
			o->errors = ld64(&x->errors);
			o->resp_max_ns = seqcount_get(&x->max_k[slot]) == k ?
			    seqcount_get(&x->max_ns[slot]) : 0;
			for (b = 0; b <= w->edges.n; b++)
				vh[d].count[b] = seqcount_get(&x->vh.count[b]);
			hist_snapshot(h[d], st->h[d]);
		}
	} while (seqcount_read_retry(&st->seq, seq, tries++));
}

/* Every WG's counters since the previous call (the INTERVAL "stats", and
 * RUN_END's tail after the last INTERVAL), summed over the threads of
 * its sd (the only ones that carry it), each thread's copied whole. */
json_t *
work_stats_json(struct work *w, uint64_t k)
{
	json_t *out = json_array();
	struct hist *sum[2], *snap[2];
	struct hist *sched;
	int g, i, d, s;

	if (w->fs != NULL) {
		json_decref(out);
		return (fswork_stats_json(w->fs, k));
	}
	if (w->ibase == NULL) {
		w->ibase = xcalloc((size_t)w->nwgs, sizeof(*w->ibase));
		for (g = 0; g < w->nwgs; g++)
			interval_base_init(&w->ibase[g]);
	}
	snap[0] = hist_new();
	snap[1] = hist_new();
	sched = hist_new();
	sum[0] = hist_new();
	sum[1] = hist_new();

	for (g = 0; g < w->nwgs; g++) {
		struct iostats io;
		struct vdbhist vh[2];

		memset(&io, 0, sizeof(io));
		memset(vh, 0, sizeof(vh));
		hist_reset(sum[0]);
		hist_reset(sum[1]);
		hist_reset(sched);
		s = w->wgs[g].sdi;
		for (i = w->sds[s].first_thread; i < w->sds[s].first_thread +
		    w->sds[s].nthreads; i++) {
			struct wstat *st = &w->threads[i].st[w->wg_slot[g]];
			struct iostats_side side[2];
			struct vdbhist tvh[2];
			unsigned int b;

			if (st->sched != NULL) {
				hist_snapshot(snap[0], st->sched);
				hist_merge(sched, snap[0]);
			}
			wstat_copy(w, st, k, side, tvh, snap);
			for (d = 0; d < 2; d++) {
				struct iostats_side *o = &io.side[d];

				o->ios += side[d].ios;
				o->bytes += side[d].bytes;
				o->resp_sum_ns += side[d].resp_sum_ns;
				o->resp_sumsq_us2 += side[d].resp_sumsq_us2;
				o->errors += side[d].errors;
				if (side[d].resp_max_ns > o->resp_max_ns)
					o->resp_max_ns = side[d].resp_max_ns;
				for (b = 0; b <= w->edges.n; b++)
					vh[d].count[b] += tvh[d].count[b];
				hist_merge(sum[d], snap[d]);
			}
		}
		/* A sync thread has one I/O outstanding while it waits. */
		io.qdepth_ns = io.side[0].resp_sum_ns + io.side[1].resp_sum_ns;
		json_array_append_new(out, interval_encode(&w->ibase[g], &io,
		    sum, sched, vh, w->edges.n + 1));
	}
	hist_free(sum[0]);
	hist_free(sum[1]);
	hist_free(snap[0]);
	hist_free(snap[1]);
	hist_free(sched);
	return (out);
}

/* Facts about luns for INFO: exists, size, block size, type. */
json_t *
work_lun_info(const json_t *luns)
{
	json_t *out = json_array(), *v;
	size_t i;

	json_array_foreach(luns, i, v) {
		const char *lun = json_string_value(v);
		struct stat st;
		uint64_t size = 0;
		uint32_t bs = 512;
		const char *type = "missing";
		int exists, fd;

		if (lun == NULL)
			continue;
		exists = stat(lun, &st) == 0;
		if (exists) {
			if (S_ISBLK(st.st_mode)) {
				type = "block";
				if ((fd = open(lun, O_RDONLY | O_CLOEXEC)) >= 0) {
					ioctl(fd, BLKGETSIZE64, &size);
					bs = block_size(fd);
					close(fd);
				}
			} else if (S_ISREG(st.st_mode)) {
				type = "file";
				size = (uint64_t)st.st_size;
			} else
				type = "other";
		}
		json_array_append_new(out, json_pack("{s:s,s:b,s:I,s:i,s:s}",
		    "lun", lun, "exists", exists, "size_bytes",
		    (json_int_t)size, "block_bytes", (int)bs, "type", type));
	}
	return (out);
}
