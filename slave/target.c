/* SPDX-License-Identifier: MIT */
/*
 * A raw run's targets: open the sds, copy and check the WGs (target.h).
 */
#include "target.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "engine.h"
#include "hist.h"
#include "oflags.h"
#include "safety.h"
#include "work.h"
#include "work_int.h"
#include "work_json.h"
#include "xmalloc.h"

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
int
target_is_block(int fd)
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
	int create = d->create, direct, fl, is_link;
	double rate = d->rate_per_s;
	struct oflags of;
	struct stat st, st2;
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
	is_link = lstat(lun, &st) == 0 && S_ISLNK(st.st_mode);
	if (is_link && st.st_uid != geteuid() && st.st_uid != 0) {
		errmsg_set(e, NULL, 0, 0, "sd=%s,lun=%s: a symbolic link owned "
		    "by uid %u, another user: not followed", name, lun,
		    (unsigned int)st.st_uid);
		return (-1);
	}
	/* What was no link when looked at is opened as no link: one
	 * planted between the lstat and the open is refused (ELOOP), not
	 * followed (attacker review of issue 28, 2026-12-06) */
	fl = of.flags | O_RDWR | O_CLOEXEC | (is_link ? 0 : O_NOFOLLOW);
	s->fd = open(lun, fl, 0644);
	if (s->fd < 0 && errno == ENOENT && create) {
		s->fd = open(lun, fl | O_CREAT | O_EXCL, 0644);
		if (s->fd < 0 && errno == EEXIST)	/* another slave's */
			s->fd = open(lun, fl, 0644);
	}
	if (s->fd < 0 && errno == ELOOP && !is_link) {
		errmsg_set(e, NULL, 0, 0, "sd=%s,lun=%s: became a symbolic "
		    "link while it was opened: not followed", name, lun);
		return (-1);
	}
	/* a link followed must be the one looked at, not a swapped one */
	if (s->fd >= 0 && is_link && (lstat(lun, &st2) != 0 ||
	    st2.st_ino != st.st_ino || st2.st_dev != st.st_dev)) {
		close(s->fd);
		s->fd = -1;
		errmsg_set(e, NULL, 0, 0, "sd=%s,lun=%s: the symbolic link "
		    "changed while it was opened: not followed", name, lun);
		return (-1);
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
	s->block_bytes = direct || target_is_block(s->fd) ? block_size(s->fd) : 1;
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
int
target_check_mem(uint64_t bytes, struct errmsg *e)
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
int
target_check_fs_limits(const struct slave_work *sw, struct errmsg *e)
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
	return (target_check_mem(mem, e));
}

/* The sds and WGs of a block run's WORK, with the limit on threads. */
int
target_sds_wgs(struct work *w, const struct slave_work *sw,
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
int
target_sd_index(struct work *w, int k, uint64_t *mem, struct errmsg *e)
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


/* The checks of a run's WGs against their luns (target.h). */
int
target_check(struct work *w, struct errmsg *e)
{
	if (check_blocks(w, e) != 0 || check_writes(w, e) != 0 ||
	    check_dedup(w, e) != 0)
		return (-1);
	return (0);
}
