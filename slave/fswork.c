/* SPDX-License-Identifier: MIT */
/* File-system runs on a slave (see fswork.h). */
#include "fs_int.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fstree.h"
#include "hist.h"
#include "interval_json.h"
#include "iostats.h"
#include "model.h"
#include "mtime.h"
#include "oflags.h"
#include "rng.h"
#include "skewgate.h"
#include "vdbhist.h"
#include "workload.h"
#include "xmalloc.h"

/* A run thread: pick, operate, until stopped. */
static void
do_run(struct fthread *t)
{
	struct fwg *g = t->g;
	int dirs = g->op == OP_MKDIR || g->op == OP_RMDIR;
	uint64_t n = dirs ? g->tree.ndirs : g->shared_files ?
	    g->tree.nfiles : slice_count(g, t->slice);
	uint64_t k = 0, next = t->w->go_ns, fi, misses = 0, busy_in_row = 0;
	uint64_t nf;	/* FILE_NOT_FOUND before the operation */
	int needs = op_needs_file(g);
	char p[FS_PATH_MAX];

	if (dirs) {
		/* Directories are few: thread slices, deepest first for
		 * rmdir so parents empty out. */
		n = g->tree.ndirs > (uint64_t)t->slice ? (g->tree.ndirs -
		    (uint64_t)t->slice + (uint64_t)g->total - 1) /
		    (uint64_t)g->total : 0;
	}
	if (n == 0) {
		fs_note(t->w, 0, "fwd=%s: thread %d has no %s of anchor=%s to work "
		    "on", g->fwd, t->slice, dirs ? "directory" : "file",
		    g->anchor);
		/* out of work from the start (the skew gate and
		 * fileselect=once see it so) */
		__atomic_add_fetch(&g->exhausted, 1, __ATOMIC_ACQ_REL);
		return;
	}
	while (!stopping(t->w)) {
		uint64_t j;

		skew_wait(t);	/* fwdrate=max, skew held: no file held */
		j = g->poisson_mid > 0 ? pick_poisson(t, n) :
		    g->random_select ? rng_below(&t->rng, n) : k++ % n;

		if (g->select_once && k > n) {
			/* fileselect=once: every file of the slice had its
			 * turn; the thread is done (vdbench stops it). */
			out_of_work(t);
			break;
		}

		fi = g->shared_files ? j : (uint64_t)t->slice + j *
		    (uint64_t)g->total;
		if (dirs) {
			if (g->op == OP_RMDIR)
				fi = g->tree.ndirs - 1 - fi;
			dir_path(g, fi, p, sizeof(p));
		} else
			file_path(g, fi, p, sizeof(p));
		if (!dirs && !file_take(g, fi)) {
			count_misc(t, FSM_FILE_BUSY);
			if (++busy_in_row % 64 == 0)
				usleep(100);	/* all taken: let go */
			continue;
		}
		busy_in_row = 0;
		nf = t->st.io.misc[FSM_FILE_NOT_FOUND];
		if (g->op == OP_READ || g->op == OP_WRITE) {
			int rc = rw_file(t, p, fi, fstree_file_size(&g->tree,
			    fi), &next);

			file_give(g, fi);
			if (rc != 0)
				break;
			if (needs && t->st.io.misc[FSM_FILE_NOT_FOUND] != nf &&
			    no_files_left(t))
				break;	/* vdbench shuts the threads down */
			continue;
		}
		if (pace(t, &next) != 0) {
			file_give(g, fi);
			break;
		}
		misses = meta_op(t, p, fi) ? 0 : misses + 1;
		if (!dirs)
			file_give(g, fi);
		if (needs && t->st.io.misc[FSM_FILE_NOT_FOUND] != nf &&
		    no_files_left(t))
			break;
		/* Every file (or directory) of the slice is done: wait out
		 * the run instead of spinning (vdbench blocks the thread). */
		if ((g->op == OP_CREATE || g->op == OP_DELETE ||
		    g->op == OP_MKDIR || g->op == OP_RMDIR ||
		    g->op == OP_MOVE || g->op == OP_COPY) &&
		    misses >= (g->random_select ? 2 * n : n)) {
			out_of_work(t);
			break;
		}
	}
}

static void *
thread_main(void *arg)
{
	struct fthread *t = arg;

	if (t->g->op == OP_FORMAT)
		do_format(t);
	else
		do_run(t);
	return (NULL);
}

/* One FWG of the decoded WORK (work_json.c checked types and ranges). */
static int
fwg_from_json(struct fwg *g, const struct work_fwg *d,
    const struct work_fs *fs, struct errmsg *e)
{
	const char *fwd = d->fwd, *fsd = d->fsd, *anchor = d->anchor;
	const char *op = d->operation;
	const char *fileio = d->fileio != NULL ? d->fileio : "sequential";
	const char *select = d->fileselect != NULL ? d->fileselect :
	    "sequential";
	const char *target = d->target_anchor;
	const struct strlist *flags = &d->openflags;
	struct fsd fsdv, *f = &fsdv;
	int k;

	g->readpct = d->readpct;
	g->stopafter = d->stopafter;
	g->nthreads = d->threads;
	g->first = d->thread_first;
	g->total = d->thread_total;
	g->rate_per_s = d->rate_per_s;
	g->skew_pct = d->skew_pct;
	/* the fsd's tree, as the master sent it (no model on the slave) */
	memset(&fsdv, 0, sizeof(fsdv));
	fsdv.name = (char *)fsd;
	fsdv.anchor = (char *)anchor;
	fsdv.depth = d->tree.depth;
	fsdv.width = d->tree.width;
	fsdv.files = d->tree.files;
	fsdv.dist_all = d->tree.dist_all;
	fsdv.nsizes = d->tree.nsizes;
	fsdv.size_bytes = d->tree.size_bytes;
	fsdv.size_pct = d->tree.size_pct;
	fsdv.size_avg = d->tree.size_avg;
	fsdv.totalsize_bytes = d->tree.totalsize_bytes;
	fsdv.wss_bytes = d->tree.wss_bytes;
	for (k = 0; op_words[k] != NULL && strcmp(op_words[k], op) != 0; k++)
		;
	if (op_words[k] == NULL || g->nthreads < 1 ||
	    g->nthreads > 4096 || g->total < g->nthreads || g->first < 0 ||
	    g->first + g->nthreads > g->total) {
		errmsg_set(e, NULL, 0, 0, "WORK: fwd=%s,fsd=%s: bad fsd, "
		    "operation or threads", fwd, fsd);
		return (-1);
	}
	if (fstree_init(&g->tree, f) != 0) {
		errmsg_set(e, NULL, 0, 0, "fsd=%s: more than 16 file sizes", fsd);
		return (-1);
	}
	/* data validation's map covers every file (fs_dv.c) */
	g->dv_nfiles = g->tree.nfiles;
	g->dv_kb = d->dv_kb_bytes;
	/* Runs (not the format) use only the working set of files. */
	if (strcmp(op, "format") != 0)
		g->tree.nfiles = g->tree.nfiles_wss;
	g->fwd = xstrdup(fwd);
	g->fsd = xstrdup(fsd);
	g->anchor = xstrdup(anchor);
	g->op = (enum fwg_op)k;
	if ((g->op == OP_COPY || g->op == OP_MOVE) && target == NULL) {
		errmsg_set(e, NULL, 0, 0, "fwd=%s: operation=%s needs target=",
		    fwd, op);
		return (-1);
	}
	g->target = target != NULL ? xstrdup(target) : NULL;
	xfer_copy(&g->xfer, &d->xfer);
	if (g->xfer.kind == XFER_RANGE) {
		errmsg_set(e, NULL, 0, 0, "fwd=%s: xfersize=(min,max,align) is "
		    "for raw workloads", fwd);
		return (-1);
	}
	if (g->xfer.kind == XFER_DIST) {
		double c = 0;

		g->xfer_cum = xcalloc((size_t)g->xfer.n, sizeof(double));
		for (k = 0; k < g->xfer.n; k++)
			g->xfer_cum[k] = c += g->xfer.pct[k];
	}
	g->random_io = strcmp(fileio, "random") == 0 ||
	    strcmp(fileio, "random,shared") == 0;
	g->shared_files = strcmp(fileio, "random,shared") == 0;
	g->delete_first = strcmp(fileio, "sequential,delete") == 0;
	g->random_select = strcmp(select, "random") == 0;
	g->select_once = strcmp(select, "once") == 0;
	if (strcmp(select, "poisson") == 0) {
		g->poisson_mid = d->has_poisson_midpoint ?
		    d->poisson_midpoint : 3;
		if (!(g->poisson_mid > 0 && g->poisson_mid <= 1000)) {
			errmsg_set(e, NULL, 0, 0, "WORK: fwd=%s: poisson "
			    "midpoint %g out of (0, 1000]", fwd, g->poisson_mid);
			return (-1);
		}
		g->random_select = 1;
	}
	{
		struct oflags of;

		oflags_from_words(flags, &of);
		g->oflags = of.flags;
		g->fsync_close = of.fsync_close;
	}
	g->format_clean = fs->clean;
	g->clean_first = d->clean_first;
	g->format_restart = fs->restart;
	g->dirs_only = fs->dirs_only;
	g->clean_only = fs->clean_only;
	g->create_anchors = fs->create_anchors;
	return (0);
}

/* One busy bitmap per anchor that more than one run fwg works on. */
static void
share_busy(struct fswork *w)
{
	int a, b;

	for (a = 0; a < w->nfwgs; a++) {
		struct fwg *g = &w->fwgs[a];

		if (g->op == OP_FORMAT || g->op == OP_MKDIR || g->op ==
		    OP_RMDIR || g->shared_files || g->busy != NULL)
			continue;
		for (b = a + 1; b < w->nfwgs; b++) {
			struct fwg *x = &w->fwgs[b];

			if (x->op == OP_FORMAT || x->op == OP_MKDIR ||
			    x->op == OP_RMDIR || x->shared_files ||
			    strcmp(x->anchor, g->anchor) != 0)
				continue;
			if (g->busy == NULL) {
				g->busy = xcalloc((size_t)(g->tree.nfiles / 64 +
				    1), sizeof(uint64_t));
				g->busy_owner = 1;
			}
			x->busy = g->busy;
		}
	}
}

struct fswork *
fswork_new(const struct slave_work *sw, uint64_t seed,
    struct dv_session *dvs, struct errmsg *e)
{
	struct fswork *w;
	int i, k, t = 0, slave_index = sw->slave_index;

	if (sw->nfwgs == 0) {
		errmsg_set(e, NULL, 0, 0, "WORK: no fwgs");
		return (NULL);
	}
	w = xcalloc(1, sizeof(*w));
	w->dvs = dvs;
	pthread_mutex_init(&w->mu, NULL);
	vdbhist_edges_default(&w->edges);
	w->seed = seed;
	w->complete = sw->fs.complete;
	w->fwgs = xcalloc((size_t)sw->nfwgs, sizeof(*w->fwgs));
	for (i = 0; i < sw->nfwgs; i++) {
		if (fwg_from_json(&w->fwgs[w->nfwgs++], &sw->fwgs[i], &sw->fs,
		    e) != 0) {
			fswork_free(w);
			return (NULL);
		}
		w->nthreads += w->fwgs[i].nthreads;
	}
	share_busy(w);
	w->dv = sw->validate;	/* the threads' read buffers below */
	w->threads = xcalloc((size_t)w->nthreads, sizeof(*w->threads));
	for (k = 0; k < w->nfwgs; k++) {
		struct fwg *g = &w->fwgs[k];
		uint64_t big = xfer_max_bytes(&g->xfer);
		int j;

		if (g->op == OP_FORMAT)
			pthread_barrier_init(&g->barrier, NULL,
			    (unsigned)g->nthreads);
		for (j = 0; j < g->nthreads; j++, t++) {
			struct fthread *th = &w->threads[t];

			th->w = w;
			th->g = g;
			th->slice = g->first + j;
			rng_init(&th->rng, w->seed, (uint64_t)t + 1 +
			    ((uint64_t)slave_index << 40));
			th->st.h[0] = hist_new();
			th->st.h[1] = hist_new();
			th->st.hc[0] = hist_new();
			th->st.hc[1] = hist_new();
			th->buflen = big;
			if (posix_memalign((void **)&th->buf, 4096, big) != 0)
				th->buf = NULL;
			if (th->buf == NULL) {
				errmsg_set(e, NULL, 0, 0, "out of memory");
				fswork_free(w);
				return (NULL);
			}
			memset(th->buf, 0, big);
			if (w->dv && posix_memalign((void **)&th->dv_rbuf,
			    4096, big) != 0) {
				th->dv_rbuf = NULL;
				errmsg_set(e, NULL, 0, 0, "out of memory");
				fswork_free(w);
				return (NULL);
			}
		}
	}
	/* writes without validation (an fwg without a key map): vdbench's
	 * data (pattern.h) */
	{
		uint64_t big = 0;

		for (k = 0; k < w->nfwgs; k++)
			if (xfer_max_bytes(&w->fwgs[k].xfer) > big)
				big = xfer_max_bytes(&w->fwgs[k].xfer);
		wdata_init(&w->wd, sw->compratio, sw->has_compseed ?
		    (int64_t)sw->compseed : 0, big, 0);
	}
	/* -v: each fwg's map (fs_dv.c), once everything can be freed */
	if (fs_dv_setup(w, sw, e) != 0) {
		fswork_free(w);
		return (NULL);
	}
	if ((sw->hold_skew || sw->skew_sync_ms > 0) &&
	    w->fwgs[0].op != OP_FORMAT) {
		/* fwdrate=max: each fwg at its skew, out once every thread
		 * of it is out of work; slack as the block runs'; across
		 * slaves the master's line too (skewgate.h) */
		w->gate = skewgate_new(w->nfwgs, w->nthreads * 2 > 256 ?
		    (uint64_t)w->nthreads * 2 : 256);
		for (k = 0; k < w->nfwgs; k++)
			skewgate_member(w->gate, k, w->fwgs[k].skew_pct,
			    &w->fwgs[k].exhausted, w->fwgs[k].nthreads, NULL,
			    0);
		if (sw->skew_sync_ms > 0)
			skewgate_remote_on(w->gate);
	}
	return (w);
}

int
fswork_start(struct fswork *w, struct errmsg *e)
{
	int i, rc;

	w->go_ns = mtime_now_ns();
	for (i = 0; i < w->nthreads; i++) {
		if ((rc = pthread_create(&w->threads[i].tid, NULL, thread_main,
		    &w->threads[i])) != 0) {
			errmsg_set(e, NULL, 0, 0, "cannot start file thread %d: "
			    "%s", i, strerror(rc));
			fswork_stop(w);
			return (-1);
		}
		w->threads[i].started = 1;
	}
	return (0);
}

void
fswork_stop(struct fswork *w)
{
	int i;

	__atomic_store_n(&w->stop, 1, __ATOMIC_RELAXED);
	for (i = 0; i < w->nthreads; i++) {
		if (w->threads[i].started) {
			pthread_join(w->threads[i].tid, NULL);
			w->threads[i].started = 0;
		}
	}
	fs_dv_end(w);	/* -v: the run's totals and verdict, once */
}

static void	walk_end(struct fswork *);

void
fswork_free(struct fswork *w)
{
	int i;

	if (w == NULL)
		return;
	walk_end(w);
	fswork_stop(w);
	for (i = 0; i < w->nthreads; i++) {
		hist_free(w->threads[i].st.h[0]);
		hist_free(w->threads[i].st.h[1]);
		hist_free(w->threads[i].st.hc[0]);
		hist_free(w->threads[i].st.hc[1]);
		free(w->threads[i].buf);
		free(w->threads[i].dv_rbuf);
		free(w->threads[i].dv_keys);
		free(w->threads[i].dv_nkeys_buf);
	}
	for (i = 0; i < w->nfwgs; i++) {
		struct fwg *g = &w->fwgs[i];

		if (g->op == OP_FORMAT && g->nthreads > 0)
			pthread_barrier_destroy(&g->barrier);
		free(g->fwd);
		free(g->fsd);
		free(g->anchor);
		free(g->target);
		if (g->busy_owner)
			free(g->busy);
		free(g->xfer_cum);
		xfer_clear(&g->xfer);
	}
	for (i = 0; w->ibase != NULL && i < w->nfwgs; i++)
		interval_base_free(&w->ibase[i]);
	if (w->ibase != NULL)
		interval_scratch_free(&w->iscratch);
	free(w->ibase);
	free(w->threads);
	free(w->fwgs);
	wdata_free(&w->wd);
	free(w->error);
	strlist_clear(&w->notes);
	strlist_clear(&w->dv_errs);
	strlist_clear(&w->dv_own);
	skewgate_free(w->gate);
	pthread_mutex_destroy(&w->mu);
	free(w);
}


json_t *
fswork_stats_json(struct fswork *w, uint64_t k, int final)
{
	json_t *out = json_array();
	struct hist *sum[2], *snap[2];
	int g, i, d, closed;
	size_t q;

	/* after a snapshot of everything, a closed half may hold less
	 * than it did: the counts would go back (wstats.c) */
	if (final)
		w->stats_final = 1;
	if (w->ibase == NULL) {
		w->ibase = xcalloc((size_t)w->nfwgs, sizeof(*w->ibase));
		for (g = 0; g < w->nfwgs; g++)
			interval_base_init(&w->ibase[g]);
		interval_scratch_init(&w->iscratch);
	}
	sum[0] = w->iscratch.sum[0];
	sum[1] = w->iscratch.sum[1];
	snap[0] = w->iscratch.snap[0];
	snap[1] = w->iscratch.snap[1];
	for (g = 0; g < w->nfwgs; g++) {
		struct iostats io;
		struct vdbhist vh[2];

		memset(&io, 0, sizeof(io));
		memset(vh, 0, sizeof(vh));
		hist_reset(sum[0]);
		hist_reset(sum[1]);
		for (i = 0; i < w->nthreads; i++) {
			struct fthread *t = &w->threads[i];
			uint64_t *dst = (uint64_t *)&io;
			uint64_t cp[sizeof(io) / sizeof(uint64_t)];
			struct vdbhist tvh[2];
			unsigned int tries = 0;
			uint32_t seq;

			if (t->g != &w->fwgs[g])
				continue;
			/* the thread's group copied whole (struct fstat) */
			/* a thread already in a later interval gives what
			 * it closed at k's end (struct fstat) */
			do {
				const uint64_t *src;

				seq = seqcount_read_begin(&t->st.seq, tries);
				closed = !w->stats_final &&
				    seqcount_get(&t->st.open_k) > k;
				src = (const uint64_t *)(closed ?
				    &t->st.closed_io : &t->st.io);
				for (q = 0; q < sizeof(io) / sizeof(uint64_t);
				    q++)
					cp[q] = seqcount_get(&src[q]);
				for (d = 0; d < 2; d++) {
					const struct vdbhist *x = closed ?
					    &t->st.closed_vh[d] : &t->st.vh[d];
					unsigned int b;

					for (b = 0; b <= w->edges.n; b++)
						tvh[d].count[b] = seqcount_get(
						    &x->count[b]);
					hist_snapshot(snap[d], closed ?
					    t->st.hc[d] : t->st.h[d]);
				}
			} while (seqcount_read_retry(&t->st.seq, seq,
			    tries++));
			/* iostats is all uint64_t: sum field by field;
			 * maxima are fields too, and a sum of maxima
			 * would lie, so take those apart below. */
			for (q = 0; q < sizeof(io) / sizeof(uint64_t); q++)
				dst[q] += cp[q];
			for (d = 0; d < 2; d++) {
				unsigned int b;

				for (b = 0; b <= w->edges.n; b++)
					vh[d].count[b] += tvh[d].count[b];
				hist_merge(sum[d], snap[d]);
			}
		}
		/* maxima since the previous snapshot (iostats.h): taken and
		 * reset, or every interval would show the run's running max
		 * (a sample racing the reset shows in the next interval) */
		for (d = 0; d < 2; d++) {
			io.side[d].resp_max_ns = 0;
			for (i = 0; i < w->nthreads; i++)
				if (w->threads[i].g == &w->fwgs[g])
					max64(&io.side[d].resp_max_ns,
					    __atomic_exchange_n(&w->threads[i].
					    st.io.side[d].resp_max_ns, 0,
					    __ATOMIC_RELAXED));
		}
		for (d = 0; d < FSOP_N; d++) {
			io.op[d].resp_max_ns = 0;
			for (i = 0; i < w->nthreads; i++)
				if (w->threads[i].g == &w->fwgs[g])
					max64(&io.op[d].resp_max_ns,
					    __atomic_exchange_n(&w->threads[i].
					    st.io.op[d].resp_max_ns, 0,
					    __ATOMIC_RELAXED));
		}
		io.qdepth_ns = io.side[0].resp_sum_ns + io.side[1].resp_sum_ns;
		json_array_append_new(out, interval_encode(&w->ibase[g],
		    &w->iscratch.out, &io, sum, NULL, vh, w->edges.n + 1));
	}
	return (out);
}

struct skewgate *
fswork_gate(const struct fswork *w, int *nfwgs)
{
	*nfwgs = w->nfwgs;
	return (w->gate);
}

void
fswork_set_interval(struct fswork *w, uint64_t interval_ns)
{
	w->interval_ns = interval_ns;
}

uint64_t
fswork_go_ns(const struct fswork *w)
{
	return (w->go_ns);
}

int
fswork_done(const struct fswork *w)
{
	int g, any = 0;

	for (g = 0; g < w->nfwgs; g++) {
		const struct fwg *x = &w->fwgs[g];

		if (x->op == OP_FORMAT) {
			if (__atomic_load_n(&x->finished, __ATOMIC_ACQUIRE) <
			    x->nthreads)
				return (0);
			any = 1;
		} else if (x->select_once) {
			/* vdbench ends the run when the last 'once'
			 * workload is through, whatever else runs. */
			if (__atomic_load_n(&x->exhausted, __ATOMIC_ACQUIRE) <
			    x->nthreads)
				return (0);
			any = 1;
		}
	}
	return (any);
}

/*
 * Every run thread has ended, some because no file of their anchor
 * exists (vdbench's canWeGetMoreFiles shutdown; the others out of work):
 * vdbench's slave then ends the run (Task_num.checkAllInTermination).
 */
int
fswork_idle(const struct fswork *w)
{
	int g, quit = 0;

	for (g = 0; g < w->nfwgs; g++) {
		const struct fwg *x = &w->fwgs[g];
		int q = __atomic_load_n(&x->quit, __ATOMIC_ACQUIRE);

		if (x->op == OP_FORMAT || q + __atomic_load_n(&x->exhausted,
		    __ATOMIC_ACQUIRE) < x->nthreads)
			return (0);
		quit += q;
	}
	return (quit > 0);
}

const char *
fswork_error(const struct fswork *w)
{
	return (__atomic_load_n(&w->error, __ATOMIC_ACQUIRE));
}

void
fswork_set_run(struct fswork *w, const char *rd)
{
	snprintf(w->run, sizeof(w->run), "%s", rd != NULL ? rd : "");
}

int
fswork_validates(const struct fswork *w)
{
	return (w->dv != 0);
}

/* Take a list under the lock (moved to out). */
static void
take_list(struct fswork *w, struct strlist *from, struct strlist *out)
{
	pthread_mutex_lock(&w->mu);
	*out = *from;
	memset(from, 0, sizeof(*from));
	pthread_mutex_unlock(&w->mu);
}

void
fswork_take_errors(struct fswork *w, struct strlist *out)
{
	take_list(w, &w->dv_errs, out);
}

void
fswork_take_own_log(struct fswork *w, struct strlist *out)
{
	take_list(w, &w->dv_own, out);
}

void
fswork_take_notes(struct fswork *w, struct strlist *out)
{
	int i;

	pthread_mutex_lock(&w->mu);
	for (i = 0; i < w->notes.n; i++)
		strlist_add(out, w->notes.v[i]);
	strlist_clear(&w->notes);
	pthread_mutex_unlock(&w->mu);
}

/*
 * Files of the tree in holder directory h that exist: the directory is
 * read and its entries with the tree's names are stat'ed, so the cost is
 * what exists (a stat of every name the tree could have would fill the
 * dentry cache with millions of misses: 20 s for a 10M-file tree half a
 * million of whose files exist). Sums into c[]: files, bytes, full files,
 * full bytes. -1 when cancelled.
 */
static int
walk_holder(const struct fswork *w, const struct fwg *x, uint64_t h,
    uint64_t c[4])
{
	uint64_t fpd = x->tree.files_per_dir, first = h * fpd, n = 0;
	char p[FS_PATH_MAX], *slash;
	struct dirent *de;
	DIR *d;
	int dfd;

	/* the holder's path: its first file's, less the name */
	file_path(x, first, p, sizeof(p));
	if ((slash = strrchr(p, '/')) != NULL)
		*slash = '\0';
	if ((dfd = open(p, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return (0);
	if ((d = fdopendir(dfd)) == NULL) {
		close(dfd);
		return (0);
	}
	while ((de = readdir(d)) != NULL) {
		unsigned long long num;
		char again[64], tail[8];
		struct stat st;
		uint64_t f;

		if ((++n & 1023) == 0 && __atomic_load_n(&w->walk_cancel,
		    __ATOMIC_RELAXED)) {
			closedir(d);
			return (-1);
		}
		/* vdb_f0001.file .. vdb_f<files>.file of the used files */
		if (sscanf(de->d_name, "vdb_f%llu.fil%1s", &num, tail) != 2 ||
		    strcmp(tail, "e") != 0 || num < 1 || num > fpd)
			continue;
		snprintf(again, sizeof(again), "vdb_f%04llu.file", num);
		if (strcmp(again, de->d_name) != 0 ||
		    (f = first + num - 1) >= x->tree.nfiles)
			continue;
		if (fstatat(dfd, de->d_name, &st, 0) != 0 ||
		    !S_ISREG(st.st_mode))
			continue;
		if (w->walk_delay_us > 0)
			usleep(w->walk_delay_us);
		c[0]++;
		c[1] += (uint64_t)st.st_size;
		if ((uint64_t)st.st_size >= fstree_file_size(&x->tree, f)) {
			c[2]++;
			c[3] += (uint64_t)st.st_size;
		}
	}
	closedir(d);
	return (0);
}

/* What exists of each fsd tree of this slave's fwgs (anchors.html);
 * NULL when cancelled. Runs on the walk thread. */
static json_t *
anchors_json(const struct fswork *w)
{
	json_t *out = json_array();
	char p[FS_PATH_MAX];
	int g, h;

	for (g = 0; g < w->nfwgs; g++) {
		const struct fwg *x = &w->fwgs[g];
		uint64_t c[4] = { 0, 0, 0, 0 }, dirs = 0, i, holders;
		struct stat st;
		int seen = 0;

		for (h = 0; h < g; h++)
			seen |= strcmp(w->fwgs[h].anchor, x->anchor) == 0;
		if (seen)
			continue;
		if (w->complete) {
			/* format=complete: the user vouches for the tree;
			 * no stat of every file (vdbench skips its checks) */
			json_array_append_new(out, json_pack("{s:s,s:I,s:I,"
			    "s:I,s:I,s:I,s:b}", "anchor", x->anchor, "files",
			    (json_int_t)x->tree.nfiles, "dirs",
			    (json_int_t)x->tree.ndirs, "bytes",
			    (json_int_t)x->tree.total_bytes, "full_files",
			    (json_int_t)x->tree.nfiles, "full_bytes",
			    (json_int_t)x->tree.total_bytes, "assumed", 1));
			continue;
		}
		for (i = 0; i < x->tree.ndirs; i++) {
			if ((i & 1023) == 0 && __atomic_load_n(&w->walk_cancel,
			    __ATOMIC_RELAXED))
				goto cancelled;
			dir_path(x, i, p, sizeof(p));
			dirs += stat(p, &st) == 0 && S_ISDIR(st.st_mode);
		}
		holders = x->tree.files_per_dir == 0 ? 0 : (x->tree.nfiles +
		    x->tree.files_per_dir - 1) / x->tree.files_per_dir;
		for (i = 0; i < holders; i++)
			if (__atomic_load_n(&w->walk_cancel, __ATOMIC_RELAXED) ||
			    walk_holder(w, x, i, c) != 0)
				goto cancelled;
		json_array_append_new(out, json_pack("{s:s,s:I,s:I,s:I,s:I,"
		    "s:I}", "anchor", x->anchor, "files", (json_int_t)c[0],
		    "dirs", (json_int_t)dirs, "bytes", (json_int_t)c[1],
		    "full_files", (json_int_t)c[2], "full_bytes",
		    (json_int_t)c[3]));
	}
	return (out);
cancelled:
	json_decref(out);
	return (NULL);
}

static void *
walk_main(void *arg)
{
	struct fswork *w = arg;
	const char *delay = getenv("VDBC_TEST_STAT_DELAY_US");
	uint64_t one = 1;
	json_t *out;

	/* a test hook (docs/threads.md): only the walk reads it */
	w->walk_delay_us = delay != NULL ? (unsigned)strtoul(delay, NULL, 10) :
	    0;
	fs_force_clean(w);	/* -c, before the tree is counted */
	out = anchors_json(w);
	pthread_mutex_lock(&w->mu);
	w->walk_out = out;
	w->walk_done = 1;
	pthread_mutex_unlock(&w->mu);
	/* after the result is published: the loop wakes and takes it */
	while (write(w->walk_wake, &one, sizeof(one)) < 0 && errno == EINTR)
		;
	return (NULL);
}

/* Cancel and join a walk in progress; drop a result not taken. */
static void
walk_end(struct fswork *w)
{
	if (!w->walking)
		return;
	__atomic_store_n(&w->walk_cancel, 1, __ATOMIC_RELAXED);
	pthread_join(w->walk_tid, NULL);
	json_decref(w->walk_out);
	w->walk_out = NULL;
	w->walk_done = w->walking = 0;
	__atomic_store_n(&w->walk_cancel, 0, __ATOMIC_RELAXED);
}

int
fswork_anchors_begin(struct fswork *w, int wake_fd, struct errmsg *e)
{
	int rc;

	walk_end(w);
	w->walk_wake = wake_fd;
	if ((rc = pthread_create(&w->walk_tid, NULL, walk_main, w)) != 0) {
		errmsg_set(e, NULL, 0, 0, "cannot start the anchor walk: %s",
		    strerror(rc));
		return (-1);
	}
	w->walking = 1;
	return (0);
}

json_t *
fswork_anchors_take(struct fswork *w)
{
	json_t *out = NULL;
	int done;

	if (!w->walking)
		return (NULL);
	pthread_mutex_lock(&w->mu);
	if ((done = w->walk_done)) {
		out = w->walk_out;
		w->walk_out = NULL;
	}
	pthread_mutex_unlock(&w->mu);
	if (!done)
		return (NULL);
	pthread_join(w->walk_tid, NULL);
	w->walk_done = w->walking = 0;
	return (out != NULL ? out : json_array());
}
