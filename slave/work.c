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
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "endsync.h"
#include "engine.h"
#include "fswork.h"
#include "mtime.h"
#include "pace.h"
#include "pattern.h"
#include "sd_dv.h"
#include "skewgate.h"
#include "target.h"
#include "werr.h"
#include "work_int.h"
#include "work_json.h"
#include "workload.h"
#include "wstats.h"
#include "xmalloc.h"

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
		wstats_thread_free(t->st, w->sds[t->sdi].nwgs);
		sd_dv_thread_free(t->dvt);
	}
	free(w->threads);
	for (i = 0; w->ibase != NULL && i < w->nwgs; i++)
		interval_base_free(&w->ibase[i]);
	if (w->ibase != NULL)
		interval_scratch_free(&w->iscratch);
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
	pthread_mutex_destroy(&w->go_mu);
	pthread_cond_destroy(&w->go_cv);
	free(w);
}

/* A file-system run's work: the limits, then slave/fswork.c builds it. */
static struct work *
fs_work_new(struct slave_work *sw, uint64_t run_id, uint64_t ins,
    uint64_t seed, const char *rd, struct dv_session *dvs, struct errmsg *e)
{
	struct work *w;
	int sync_ms;

	if (target_check_fs_limits(sw, e) != 0) {
		slave_work_clear(sw);
		return (NULL);
	}
	w = xcalloc(1, sizeof(*w));
	w->run_id = run_id;
	w->interval_ns = ins;
	sync_ms = sw->skew_sync_ms;
	w->fs = fswork_new(sw, seed, dvs, e);
	slave_work_clear(sw);
	if (w->fs == NULL) {
		free(w);
		return (NULL);
	}
	fswork_set_run(w->fs, rd);
	fswork_set_interval(w->fs, ins);
	w->skew_sync_ms = sync_ms;
	return (w);
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
	int rc;

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
	th->st = wstats_thread_new(sd->nwgs, sd->rate_per_s > 0);
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

static void	dv_recovery_range(struct work *);
static int	dv_setup(struct work *, struct dv_session *,
		    struct errmsg *);

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

/* Does any WG of the run write? */
static int
work_writes(const struct work *w)
{
	int k;

	for (k = 0; k < w->nwgs; k++)
		if (w->wgs[k].readpct < 100)
			return (1);
	return (0);
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
	pthread_mutex_init(&w->go_mu, NULL);
	pthread_cond_init(&w->go_cv, NULL);
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
	w->recovery = sw.recovery;
	if (json_is_string(json_object_get(body, "run")))
		snprintf(w->run, sizeof(w->run), "%s",
		    json_string_value(json_object_get(body, "run")));
	w->interval_ns = (uint64_t)ins;
	w->seed = (uint64_t)seed;
	w->edges = sw.edges;
	hold = sw.hold_skew || sw.skew_sync_ms > 0;
	w->skew_sync_ms = sw.skew_sync_ms;
	if (target_sds_wgs(w, &sw, e) != 0)
		goto fail;
	slave_work_clear(&sw);
	if (target_check(w, e) != 0 || dv_setup(w, dvs, e) != 0)
		goto fail;
	dv_recovery_range(w);
	w->wg_slot = xcalloc((size_t)w->nwgs + 1, sizeof(int));
	for (k = 0; k < w->nsds; k++) {
		if (target_sd_index(w, k, &mem, e) != 0)
			goto fail;
	}
	if (target_check_mem(mem, e) != 0)
		goto fail;
	/* The data of writes without pattern= or validation: one pattern
	 * for the run (pattern.h), built only when a WG writes (2 MiB and
	 * 0.5 M draws in each slave: a third of two cores for 6 s when
	 * 1,024 slaves set up a read run at once). */
	if (w->pat == NULL && !w->dv && work_writes(w)) {
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
	if (w->skew_sync_ms > 0)
		skewgate_remote_on(w->gate);
	return (w);
fail:
	slave_work_clear(&sw);
	work_free(w);
	return (NULL);
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

/* An I/O is over: count it, or report its error. */
static void
complete(struct work *w, struct thread *t, struct sdw *s, struct io_u *u,
    uint64_t now)
{
	/* a failed I/O is an I/O of the interval too, with its response
	 * time, as vdbench counts it (UPDATE_WORKLOAD_STATS) */
	wstats_count(w, &t->st[u->wi], u->dir, u->len, now - u->t0_ns, now);
	if (u->res != (long)u->len) {
		add64(&t->st[u->wi].d[u->dir].errors, 1);
		werr_io(w, s, u->dir, u->off, u->len, u->res < 0 ?
		    (int)-u->res : 0);
	}
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

/* The state of one I/O thread's loop (io_thread_main), shared with the
 * half that starts I/Os (issue). */
struct ioloop {
	double		 mean_ns;	/* the sd's mean gap; 0 = max */
	uint64_t	 next_ns;	/* the next arrival (no priority=) */
	int		*freeq;		/* free slots, nfree of them */
	int		 nfree, inflight, done;
	struct prio_sched ps;		/* priority='s arrivals */
	uint64_t	 due;		/* priority=: the next arrival */
	uint64_t	 last_ns;	/* the latest completion */
	uint64_t	 backoff;	/* skew gate (skewgate_backoff_ns) */
	int		 want;		/* priority=: the WG slot, or -1 */
	uint64_t	 wait_ns;	/* how long to wait for events */
	int		 held;		/* the skew gate holds this sd */
	int		 queued;	/* I/Os queued in this round */
};

/*
 * Start I/Os while slots are free and arrivals due (the first half of
 * io_thread_main): pick each one (next_io), pass it through
 * validation's prep, fill a write's data, note its lateness at a fixed
 * rate and queue it; a synchronous engine's I/O is finished here.
 */
static void
issue(struct thread *t, struct ioloop *l)
{
	struct work *w = t->w;
	struct sdw *s = &w->sds[t->sdi];
	const struct engine_ops *ops = s->ops;
	void *ed = t->ed;
	uint64_t now;
	int r;

	while (!__atomic_load_n(&w->stop, __ATOMIC_RELAXED) && !l->done &&
	    l->nfree > 0) {
		struct io_u *u;

		if (s->prio_order != NULL) {
			now = mtime_now_ns();
			if ((l->want = pace_prio_pick(&l->ps, s, now, &l->due)) < 0) {
				if (l->due == UINT64_MAX) {
					l->done = 1;	/* all ended */
					break;
				}
				l->wait_ns = l->due - now < l->wait_ns ?
				    l->due - now : l->wait_ns;
				break;
			}
			if (pace_past_end(w, l->ps.mean_ns[l->want] > 0 ?
			    l->ps.next_ns[l->want] : now)) {
				l->ps.dead[l->want] = 1;	/* run over */
				continue;
			}
		} else if (l->mean_ns > 0 && pace_past_end(w, l->next_ns)) {
			l->done = 1;	/* the run's last arrival */
			break;
		} else if (l->mean_ns > 0 &&
		    l->next_ns > (now = mtime_now_ns())) {
			l->wait_ns = l->next_ns - now < l->wait_ns ?
			    l->next_ns - now : l->wait_ns;
			break;
		} else if (l->mean_ns == 0 && pace_past_end(w, l->last_ns)) {
			l->done = 1;	/* max rate: the run is over */
			break;
		}
		u = &t->slots[l->freeq[l->nfree - 1]];
		if ((r = next_io(w, t, s, l->want, (t->index -
		    s->first_thread) * t->qd + u->index, &u->wi, &u->dir,
		    &u->len, &u->off)) > 0) {
			/* skew= at max: this sd is ahead; wait a
			 * little (or for a completion) */
			l->wait_ns = skewgate_backoff_ns(&l->backoff);
			l->held = 1;
			break;
		}
		l->backoff = 0;
		if (r != 0) {
			if (l->want >= 0) {
				l->ps.dead[l->want] = 1;	/* at its end */
				continue;
			}
			l->done = 1;	/* every workload at its end */
			break;
		}
		if (t->dvt != NULL && sd_dv_prep(t->dvt, u) != 0) {
			if (l->inflight > 0)
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
		l->nfree--;
		u->t0_ns = mtime_now_ns();
		/* Fixed rates: how late the I/O started (coordinated
		 * omission made visible; not in the response time). */
		if (l->want >= 0 && l->ps.mean_ns[l->want] > 0) {
			hist_add(t->st[u->wi].sched, u->t0_ns >
			    l->ps.next_ns[l->want] ? u->t0_ns -
			    l->ps.next_ns[l->want] : 0);
			l->ps.next_ns[l->want] += pace_next_gap(w, &t->rng,
			    l->ps.mean_ns[l->want]);
		} else if (l->want < 0 && l->mean_ns > 0) {
			hist_add(t->st[u->wi].sched, u->t0_ns >
			    l->next_ns ? u->t0_ns - l->next_ns : 0);
			l->next_ns += pace_next_gap(w, &t->rng, l->mean_ns);
		}
		if (ops->queue(ed, u) == ENGINE_Q_COMPLETED) {
			l->last_ns = mtime_now_ns();
			if (finish(w, t, s, u, l->last_ns)) {
				l->inflight++;
				l->queued++;
			} else
				l->freeq[l->nfree++] = u->index;
			continue;
		}
		l->inflight++;
		l->queued++;
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
	void *ed = t->ed;
	struct ioloop l;
	uint64_t now;
	int requeued = 0, i, r, go;

	/* started at WORK: wait for GO (or a stop before it) */
	pthread_mutex_lock(&w->go_mu);
	while (w->go_state == 0)
		pthread_cond_wait(&w->go_cv, &w->go_mu);
	go = w->go_state == 1;
	pthread_mutex_unlock(&w->go_mu);
	if (!go)
		return (NULL);
	memset(&l, 0, sizeof(l));
	l.mean_ns = s->rate_per_s > 0 ? 1e9 * s->nthreads / s->rate_per_s : 0;
	l.next_ns = w->go_ns;
	l.freeq = xcalloc((size_t)t->qd, sizeof(int));
	l.nfree = t->qd;
	l.want = -1;
	t->gate = w->gate;
	for (i = 0; i < t->qd; i++)
		l.freeq[i] = i;
	if (s->prio_order != NULL)
		pace_prio_init(&l.ps, s, t, w->go_ns);
	else if (l.mean_ns > 0)
		l.next_ns += pace_next_gap(w, &t->rng, l.mean_ns);
	for (;;) {
		if (__atomic_load_n(&s->removed, __ATOMIC_RELAXED))
			l.done = 1;	/* data_errors=remove_device */
		l.wait_ns = 100000000u;
		l.held = 0;
		l.queued = 0;
		if (!l.done)
			issue(t, &l);
		if (l.queued + requeued > 0 && ops->commit != NULL &&
		    (r = ops->commit(ed)) < 0) {
			werr_io(w, s, 0, 0, 0, -r);
			break;
		}
		requeued = 0;
		if (l.inflight == 0) {
			if (__atomic_load_n(&w->stop, __ATOMIC_RELAXED) ||
			    l.done)
				break;
			if (s->prio_order != NULL) {
				if (l.due != 0 && pace_wait_until(w, l.due) != 0)
					break;
				l.due = 0;
				continue;
			}
			if (l.mean_ns > 0 && pace_wait_until(w, l.next_ns) != 0)
				break;
			if (l.held && pace_wait_until(w, mtime_now_ns() +
			    l.wait_ns) != 0)
				break;
			continue;
		}
		r = ops->getevents(ed, 1, l.inflight, l.wait_ns);
		now = l.last_ns = mtime_now_ns();
		if (r < 0) {
			if (r == -EINTR)
				continue;
			werr_io(w, s, 0, 0, 0, -r);
			break;
		}
		for (i = 0; i < r; i++) {
			struct io_u *u = ops->event(ed, i);

			l.inflight--;
			if (finish(w, t, s, u, now)) {
				l.inflight++;
				requeued++;
			} else
				l.freeq[l.nfree++] = u->index;
		}
	}
	/* Drain what is still in flight before the buffers go away (and
	 * validation's key blocks are released: no next phase). */
	while (l.inflight > 0 && (r = ops->getevents(ed, 1, l.inflight,
	    ENGINE_WAIT_FOREVER)) > 0) {
		for (i = 0; i < r && t->dvt != NULL; i++) {
			struct io_u *u = ops->event(ed, i);

			(void)sd_dv_done(t->dvt, u, u->res == (long)u->len, 1);
		}
		l.inflight -= r;
	}
	if (t->dvt != NULL)
		sd_dv_thread_end(t->dvt);
	free(l.freeq);
	pace_prio_free(&l.ps);
	return (NULL);
}

/* Validation's calls back (struct sd_dv_out). */
static void
dv_stop(void *arg, const char *text)
{
	werr_stop(arg, text);
}

static void
dv_io_error(void *arg, int sdi, int dir, uint64_t off, uint64_t len,
    int err)
{
	struct work *w = arg;

	werr_io(w, &w->sds[sdi], dir, off, len, err);
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
	cfg.compratio = w->compratio;
	for (k = 0; k < w->nsds; k++)
		if (w->sds[k].max_xfer > cfg.max_xfer_bytes)
			cfg.max_xfer_bytes = w->sds[k].max_xfer;
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
 * -jr's journal_recovery rd (WORK's "recovery", master/plan/journal_rd.c;
 * vdbench's
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
	    !w->recovery)
		return;
	for (i = 0; i < w->nwgs; i++) {
		struct wg *g = &w->wgs[i];
		const struct sdw *s = &w->sds[g->sdi];

		if (!g->seek_eof || g->readpct < 100 || g->streams > 1)
			continue;
		sd_dv_extent(w->dvr, g->sdi, &kb, &end);
		low = target_is_block(s->fd) ? kb : 0;
		if (g->low > low)
			g->low = g->cursor = g->stride_cursor = low;
		if (end > g->high)
			g->high = end;
	}
}

/* Start the I/O threads, which wait for GO (work.h). */
int
work_prepare(struct work *w, struct errmsg *e)
{
	int i, rc;

	if (w->fs != NULL || w->prepared)
		return (0);
	w->prepared = 1;
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

/* GO: the threads go, from now. */
int
work_start(struct work *w, struct errmsg *e)
{
	if (w->fs != NULL)
		return (fswork_start(w->fs, e));
	if (work_prepare(w, e) != 0)
		return (-1);
	pthread_mutex_lock(&w->go_mu);
	if (w->go_state != 0) {		/* stopped before GO */
		pthread_mutex_unlock(&w->go_mu);
		errmsg_set(e, NULL, 0, 0, "GO after the run stopped");
		return (-1);
	}
	w->go_ns = mtime_now_ns();
	w->end_ns = w->run_ns != 0 ? w->go_ns + w->run_ns : 0;
	w->go_state = 1;
	pthread_cond_broadcast(&w->go_cv);
	pthread_mutex_unlock(&w->go_mu);
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
		werr_stop(w, text);
		return;
	}
	snprintf(text, sizeof(text), "sd=%s,lun=%s: fsync at the end of the "
	    "run failed: %s; written data did not all reach the lun",
	    s->name, s->lun, strerror(err));
	werr_io_text(w, s, text);
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
	pace_stop(w);
	pthread_mutex_lock(&w->go_mu);
	if (w->go_state == 0) {
		w->go_state = 2;	/* threads waiting for GO: leave */
		pthread_cond_broadcast(&w->go_cv);
	}
	pthread_mutex_unlock(&w->go_mu);
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

/* The run's skew gate and its members (WGs, or fwgs), or NULL. */
static struct skewgate *
gate_of(const struct work *w, int *n)
{
	if (w->fs != NULL)
		return (fswork_gate(w->fs, n));
	*n = w->nwgs;
	return (w->gate);
}

unsigned int
work_skew_sync_ms(const struct work *w)
{
	int n;

	return (w != NULL && gate_of(w, &n) != NULL ?
	    (unsigned int)w->skew_sync_ms : 0);
}

json_t *
work_skew_report(const struct work *w)
{
	json_t *issued = json_array(), *gone = json_array();
	struct skewgate *g;
	int k, n;

	g = gate_of(w, &n);
	for (k = 0; g != NULL && k < n; k++) {
		json_array_append_new(issued, json_integer((json_int_t)
		    skewgate_issued(g, k)));
		json_array_append_new(gone, json_boolean(skewgate_gone(g, k)));
	}
	/* when the counts were taken: the master's rates are over the
	 * slave's clock, not over the arrivals, which bunch up */
	return (json_pack("{s:I,s:I,s:o,s:o}", "run_id", (json_int_t)w->run_id,
	    "at_ns", (json_int_t)mtime_now_ns(), "issued", issued, "gone",
	    gone));
}

int
work_skew_apply(struct work *w, const json_t *body, uint64_t now_ns,
    struct errmsg *e)
{
	double base = 0, rate = 0;
	json_int_t id = -1;
	int open = 0, n;

	if (work_skew_sync_ms(w) == 0) {
		errmsg_set(e, NULL, 0, 0, "SKEW: this run holds no skew "
		    "across slaves");
		return (-1);
	}
	if (json_unpack((json_t *)body, "{s:I,s?b,s?F,s?F}", "run_id", &id,
	    "open", &open, "base", &base, "rate_per_s", &rate) != 0 ||
	    !isfinite(base) || !isfinite(rate) || rate < 0) {
		errmsg_set(e, NULL, 0, 0, "SKEW: expected run_id, and open or "
		    "base and rate_per_s (finite, rate >= 0)");
		return (-1);
	}
	if ((uint64_t)id != w->run_id)
		return (0);		/* the last run's, late */
	/* the line in the slave's own clock: base now, rising at rate */
	skewgate_remote(gate_of(w, &n), base - rate / 1e9 * (double)now_ns,
	    rate / 1e9, open);
	return (0);
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

int
work_idle(const struct work *w)
{
	return (w->fs != NULL && fswork_idle(w->fs));
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

