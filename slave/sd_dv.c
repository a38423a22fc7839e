/* SPDX-License-Identifier: MIT */
/*
 * Data validation of sds behind the worker loop's hooks (sd_dv.h): set
 * up per run, the phases of a validated I/O, the check of a read, the
 * corruption report and the run's verdict. vdbench's DV_map.java and
 * IO_task.java:561-592 are the model; dv.c makes and checks the bytes.
 */
#include "sd_dv.h"

#include <errno.h>
#include <linux/fs.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "dv.h"
#include "dv_session.h"
#include "engine.h"
#include "journal.h"
#include "model.h"
#include "mtime.h"
#include "work.h"
#include "workload.h"
#include "xmalloc.h"

/*
 * Validation's key maps outlive a run: the slave keeps one per sd (and
 * lun) for its whole life in its session (dv_session.h), as vdbench's
 * slave does, so a block written in one rd is validated in the next.
 * Only the slave's loop thread touches the list (setup, end).
 */
struct dv_sd {
	char		*sd;
	char		*lun;
	struct dv_map	 map;
	int		 has_jnl;
	struct journal	 jnl;
	struct dv_dedup	 dd;	/* dedup under validation */
	int		 has_dd;
	struct dv_sd	*next;
};

/* An sd of the run under validation. */
struct sdv {
	int			 sdi;
	char			*name;
	char			*lun;
	char			*jnl_dir;	/* journal=, or NULL */
	int			 fd;
	int			 has_own_dd;	/* sd dedupratio= */
	uint64_t		 size_bytes;	/* size=, or 0 */
	uint64_t		 kb_hint;	/* the master's key block */
	struct dv_map		*dvm;		/* its key map */
	const struct dv_dedup	*dvdd;		/* dedup, or NULL */
	struct journal		*jnl;		/* its journal, or NULL */
	char			 name8[8];	/* as sectors carry it */
	/* the map's per-key counts when this run began: vdbench counts
	 * per rd (DV_map.java: "Clear counters for next run") */
	uint64_t		 reads0[DV_KEY_MAX + 1];
	uint64_t		 writes0[DV_KEY_MAX + 1];
};

struct sd_dv_run {
	struct dv_session	*v;		/* the slave's */
	const unsigned char	*pat;		/* its pattern */
	struct sd_dv_cfg	 cfg;
	struct sd_dv_out	 out;
	int			 nsds;
	struct sdv		*sds;
	uint64_t		 dv_bad;	/* atomic: corrupted data
						 * blocks */
	uint64_t		 dv_start;	/* validated before */
	int			 ended;
};

/*
 * A validating thread's own counts of key blocks read and written per
 * key, added to its sd's map when the thread ends: no cache line shared
 * between the threads per I/O.
 */
struct dv_tally {
	uint64_t	validated;
	uint64_t	reads[DV_KEY_MAX + 1];
	uint64_t	writes[DV_KEY_MAX + 1];
};

/* The phases of a validated I/O (IO_task.java:561-592). */
enum dv_phase {
	PH_READ,		/* a workload read */
	PH_PREREAD,		/* a write's read of the blocks it replaces */
	PH_WRITE,
	PH_READBACK,		/* read after write (-vr) */
};

/* A slot's I/O: its key blocks (claimed until it is over) and keys. */
struct dv_slot {
	enum dv_phase	 phase;
	uint64_t	 first, n;
	int		*keys;		/* the blocks' keys */
	int		*nkeys;		/* a write's new keys */
};

struct sd_dv_thread {
	struct sd_dv_run	*r;
	struct sdv		*s;
	int			 qd;
	struct dv_slot		*slots;
	struct dv_tally		 ty;
	struct dv_stamp		 st;
};

/* A target's size in bytes: the device's, or the file's. */
static uint64_t
fd_size(int fd)
{
	struct stat st;
	uint64_t n = 0;

	if (fstat(fd, &st) != 0)
		return (0);
	if (S_ISBLK(st.st_mode))
		return (ioctl(fd, BLKGETSIZE64, &n) == 0 ? n : 0);
	return ((uint64_t)st.st_size);
}

static int	dv_journal_setup(struct sd_dv_run *, struct sdv *,
		    struct dv_sd *, int, struct errmsg *);

/* A line for the error queue (work_take_errors), marked as work.h says. */
static void
dv_queue(struct sd_dv_run *r, const char *text)
{
	pthread_mutex_lock(r->out.mu);
	strlist_add(r->out.errq, text);
	pthread_mutex_unlock(r->out.mu);
}

/* "HH:MM:SS.mmm " of now, the slave's time of day that vdbench puts
 * before each of its data validation lines (common.ptod). */
static const char *
dv_tod(char buf[16])
{
	return (mtime_tod(mtime_wall_ns(), buf));
}

/*
 * Dedup under validation for one sd's new key map (dv.h): vdbench's
 * unique-block bitmap, its slave log line, and the dedup keyword values
 * the master let through (the general ones: one dedup for the run).
 */
static int
dv_dedup_setup(struct sd_dv_run *r, struct sdv *s, struct dv_sd *d,
    uint64_t size, uint64_t kb, struct errmsg *e)
{
	char err[200], a[32], b[32], text[200];

	if (s->has_own_dd) {
		errmsg_set(e, NULL, 0, 0, "sd=%s: Data Validation with an "
		    "sd's own dedup parameters is not built", s->name);
		return (-1);
	}
	if (kb != r->cfg.dd_unit_bytes) {
		errmsg_set(e, NULL, 0, 0, "sd=%s: Data Validation with dedup "
		    "needs the key block (%llu) to be dedupunit=%llu",
		    s->name, (unsigned long long)kb,
		    (unsigned long long)r->cfg.dd_unit_bytes);
		return (-1);
	}
	if (dv_dedup_init(&d->dd, s->name, size, r->cfg.dd_unit_bytes,
	    r->cfg.dd_ratio, r->cfg.dd_sets, r->cfg.dd_not_across, err,
	    sizeof(err)) != 0) {
		dv_dedup_free(&d->dd);
		errmsg_set(e, NULL, 0, 0, "%s", err);
		return (-1);
	}
	d->has_dd = 1;
	/* DedupBitMap.createMapForUniques() */
	snprintf(text, sizeof(text), "Creating bitmap for unique blocks for "
	    "sd=%s. 1 bitmaps for a total of %s bits, identifying %s unique "
	    "blocks", s->name, dv_commas(a, sizeof(a), d->dd.units),
	    dv_commas(b, sizeof(b), d->dd.unique_units));
	strlist_add(r->out.notes, text);
	return (0);
}

/*
 * The transfer sizes that set and must be multiples of the key block:
 * a list's sizes; a range's min (the smallest), max and align (every
 * size is min + n * align).
 */
static int
dv_xfer_n(const struct xfer *x)
{
	return (x->kind == XFER_RANGE ? 3 : x->n);
}

static uint64_t
dv_xfer(const struct xfer *x, int j)
{
	if (x->kind != XFER_RANGE)
		return (x->size_bytes[j]);
	return (j == 0 ? x->min_bytes : j == 1 ? x->max_bytes :
	    x->align_bytes);
}

/*
 * Every transfer, alignment and range start of sd k's workloads a whole
 * number of key blocks (kb), and every range inside the lun's size.
 * earlier: kb is the key block of an earlier run's map.
 */
static int
wgs_fit(const struct sdv *s, int k, const struct wg *wgs, int nwgs,
    uint64_t kb, uint64_t size, int earlier, struct errmsg *e)
{
	uint64_t v;
	int i, j;

	for (i = 0; i < nwgs; i++) {
		const struct wg *g = &wgs[i];

		if (g->sdi != k)
			continue;
		for (j = 0; j < dv_xfer_n(&g->xfer); j++) {
			v = dv_xfer(&g->xfer, j);
			if (v % kb != 0 || (g->align != 0 && g->align % kb
			    != 0) || g->low % kb != 0 || g->hit_low % kb
			    != 0) {
				errmsg_set(e, NULL, 0, 0, "sd=%s: Data "
				    "Validation: xfersize=%llu, align= and "
				    "the range must be multiples of the key "
				    "block size %llu (the smallest xfersize "
				    "%s)", s->name, (unsigned long long)v,
				    (unsigned long long)kb, earlier ?
				    "of an earlier run on this sd" : "used");
				return (-1);
			}
		}
		if (g->high > size || g->hit_high > size) {
			errmsg_set(e, NULL, 0, 0, "sd=%s,lun=%s: Data "
			    "Validation: the range ends past the lun's %llu "
			    "bytes", s->name, s->lun,
			    (unsigned long long)size);
			return (-1);
		}
	}
	return (0);
}

/* A new key map for sd s (size bytes in blocks of kb), kept in the
 * session's registry for later runs; NULL with e set. */
static struct dv_sd *
map_new(struct sd_dv_run *r, struct sdv *s, uint64_t size, uint64_t kb,
    struct errmsg *e)
{
	struct dv_sd *d = xcalloc(1, sizeof(*d));

	if (dv_map_init(&d->map, size / kb, (uint32_t)kb) != 0) {
		free(d);
		errmsg_set(e, NULL, 0, 0, "sd=%s: cannot allocate the "
		    "Data Validation map of %llu entries", s->name,
		    (unsigned long long)(size / kb));
		return (NULL);
	}
	if (r->cfg.dd_unit_bytes > 0 && dv_dedup_setup(r, s, d, size,
	    kb, e) != 0) {
		dv_map_free(&d->map);
		free(d);
		return (NULL);
	}
	d->sd = xstrdup(s->name);
	d->lun = xstrdup(s->lun);
	d->next = r->v->sds;
	r->v->sds = d;
	/* -jr: these lines come among the recovery's (as vdbench's map
	 * is made while it restores it: dv_journal_setup) */
	if (!((r->cfg.journal & JOURNAL_ON) &&
	    (r->cfg.journal & JOURNAL_RECOVER))) {
		char alloc[200], line[300], text[310];

		/* errorlog.html and the slave's log, not the console */
		dv_map_lines(s->name, size / kb, kb, alloc, sizeof(alloc),
		    line, sizeof(line));
		snprintf(text, sizeof(text), "%c%s", WORK_ERRLOG_MARK, alloc);
		dv_queue(r, text);
		snprintf(text, sizeof(text), "%c%s", WORK_ERRLOG_MARK, line);
		dv_queue(r, text);
	}
	return (d);
}

/*
 * Validation of sd k: its key block (the smallest transfer size of its
 * workloads, or the one of its map from an earlier run), every transfer
 * and address a whole number of key blocks, and its key map, found or
 * made.
 */
int
sd_dv_sd_setup(struct sd_dv_run *r, int k, const struct sd_dv_sd *in,
    const struct wg *wgs, int nwgs, struct errmsg *e)
{
	struct sdv *s = &r->sds[k];
	uint64_t kb = 0, size;
	uint32_t jkb;
	struct dv_sd *d;
	int i, j, made = 0;

	s->sdi = k;
	s->name = xstrdup(in->name);
	s->lun = xstrdup(in->lun);
	s->jnl_dir = in->jnl_dir != NULL ? xstrdup(in->jnl_dir) : NULL;
	s->fd = in->fd;
	s->has_own_dd = in->has_own_dd;
	s->size_bytes = in->size_bytes;
	s->kb_hint = in->kb_bytes;
	/* the map spans the sd's size (size=), not the file's length */
	size = s->size_bytes > 0 ? s->size_bytes : fd_size(s->fd);

	for (i = 0; i < nwgs; i++) {
		const struct wg *g = &wgs[i];

		if (g->sdi != k)
			continue;
		for (j = 0; j < dv_xfer_n(&g->xfer); j++)
			if (kb == 0 || dv_xfer(&g->xfer, j) < kb)
				kb = dv_xfer(&g->xfer, j);
	}
	for (d = r->v->sds; d != NULL; d = d->next)
		if (strcmp(d->sd, s->name) == 0 && strcmp(d->lun, s->lun) == 0)
			break;
	if (d != NULL)
		kb = d->map.kb_bytes;
	else if ((r->cfg.journal & JOURNAL_RECOVER) &&
	    journal_peek_kb(s->jnl_dir, s->name, &jkb) == 0)
		kb = jkb;		/* the journaled map's */
	else if (r->cfg.dd_unit_bytes > 0)
		kb = r->cfg.dd_unit_bytes;	/* dedup: the unit */
	else if (s->kb_hint > 0)
		kb = s->kb_hint;	/* the master's, over every run */
	if (kb == 0 || kb % DV_SECTOR != 0 || kb > DV_COMP_SPAN) {
		errmsg_set(e, NULL, 0, 0, "sd=%s: Data Validation needs "
		    "xfersizes that are multiples of 512 bytes and at most "
		    "1m (key block %llu)", s->name, (unsigned long long)kb);
		return (-1);
	}
	if (wgs_fit(s, k, wgs, nwgs, kb, size, d != NULL, e) != 0)
		return (-1);
	if (d != NULL && d->map.nblocks < size / kb) {
		errmsg_set(e, NULL, 0, 0, "sd=%s,lun=%s: Data Validation: "
		    "the lun grew since the key map was made", s->name,
		    s->lun);
		return (-1);
	}
	if (d == NULL) {
		made = 1;
		if ((d = map_new(r, s, size, kb, e)) == NULL)
			return (-1);
	}
	if ((r->cfg.validate & VALIDATE_TIME) && d->map.stamps == NULL) {
		char a[32], text[200];

		if (dv_map_time_init(&d->map) != 0) {
			errmsg_set(e, NULL, 0, 0, "sd=%s: cannot allocate the "
			    "Data Validation timestamp map of %llu entries "
			    "(validate=time)", s->name,
			    (unsigned long long)d->map.nblocks);
			return (-1);
		}
		/* vdbench's line (Timestamp.java), in the slave's log */
		snprintf(text, sizeof(text), "Data Validation. Allocating "
		    "timestamp map requiring 8 * %s = %.3fMB of memory.",
		    dv_commas(a, sizeof(a), d->map.nblocks),
		    (double)d->map.nblocks * 8. / 1024. / 1024.);
		strlist_add(r->out.own_log, text);
	}
	if (r->cfg.dd_unit_bytes > 0 && !d->has_dd) {
		errmsg_set(e, NULL, 0, 0, "sd=%s: Data Validation: dedup "
		    "cannot start on a key map made without it", s->name);
		return (-1);
	}
	s->dvm = &d->map;
	s->dvdd = d->has_dd ? &d->dd : NULL;
	dv_name8(s->name8, s->name);
	if (dv_journal_setup(r, s, d, made, e) != 0)
		return (-1);
	r->dv_start += atomic_load(&d->map.validated);
	for (i = 0; i <= DV_KEY_MAX; i++) {
		s->reads0[i] = atomic_load(&d->map.reads[i]);
		s->writes0[i] = atomic_load(&d->map.writes[i]);
	}
	return (0);
}

/* Queue lines for the master, each after mark (WORK_DETAIL_MARK:
 * console and errorlog.html; WORK_ELOG_MARK: errorlog.html only); tod
 * puts the slave's time of day first, as vdbench's slave does. */
static void
queue_marked(struct strlist *q, char mark, int tod, const struct strlist *l)
{
	char t[32] = "";
	int i;

	if (tod) {
		struct timespec ts;
		struct tm tm;
		char hms[10];

		clock_gettime(CLOCK_REALTIME, &ts);
		localtime_r(&ts.tv_sec, &tm);
		strftime(hms, sizeof(hms), "%H:%M:%S", &tm);
		snprintf(t, sizeof(t), "%s.%03d ", hms,
		    (int)(ts.tv_nsec / 1000000));
	}
	for (i = 0; i < l->n; i++) {
		char *x;

		xasprintf(&x, "%c%s%s", mark, t, l->v[i]);
		strlist_add(q, x);
		free(x);
	}
}

static void
queue_one(struct strlist *q, char mark, int tod, const char *text)
{
	struct strlist l = { 0, NULL, 0 };

	strlist_add(&l, text);
	queue_marked(q, mark, tod, &l);
	strlist_clear(&l);
}

/*
 * The writes a journal left pending (a BEFORE without its AFTER): read
 * each key block; it holds the new key's data (the write was done) or
 * the old key's (it was not), and the map takes that key. A block that
 * holds neither keeps the new key, so the journal_recovery rd reports
 * it; one never written before that does not hold the new key is not
 * known (nothing was written).
 */
static void
jnl_pending(struct sd_dv_run *r, struct sdv *s, uint8_t *map,
    const struct jnl_recovery *rec, struct strlist *log)
{
	uint32_t kb = s->dvm->kb_bytes, sec;
	unsigned char *buf = NULL;
	char line[160];
	size_t i;

	if (rec->npending == 0 || posix_memalign((void **)&buf, 4096, kb) != 0)
		return;
	for (i = 0; i < rec->npending; i++) {
		const struct jnl_pending *p = &rec->pending[i];
		uint64_t lba = p->block * kb;
		int flag = p->old_key != 0 ? 0x81 : 0x80, ok_new = 1,
		    ok_old = p->old_key != 0;

		snprintf(line, sizeof(line), "Requesting read of pending key "
		    "block at lba 0x%08llx key 0x%02x flag 0x%02x",
		    (unsigned long long)lba, p->new_key, flag);
		strlist_add(log, line);
		if (pread(s->fd, buf, kb, (off_t)lba) != (ssize_t)kb) {
			r->out.io_error(r->out.arg, s->sdi, 0, lba, kb, errno);
			map[p->block] = (uint8_t)p->new_key;
			continue;
		}
		for (sec = 0; sec < kb / DV_SECTOR; sec++) {
			const unsigned char *d = buf + sec * DV_SECTOR;

			if (ok_new && dv_check_sector(r->pat, d, lba, sec,
			    p->new_key, s->name8) != 0)
				ok_new = 0;
			if (ok_old && dv_check_sector(r->pat, d, lba, sec,
			    p->old_key, s->name8) != 0)
				ok_old = 0;
		}
		if (ok_new || ok_old || p->old_key == 0) {
			map[p->block] = (uint8_t)(ok_new ? p->new_key :
			    p->old_key);
			snprintf(line, sizeof(line), "Pending key block at lba "
			    "0x%08llx key 0x%02x is OK.",
			    (unsigned long long)lba, p->new_key);
			strlist_add(log, line);
		} else
			map[p->block] = (uint8_t)p->new_key;
	}
	free(buf);
}

/*
 * The recovery's lines with the map's own where vdbench has them
 * (v3, v4 errorlog.html): the map is allocated and made as it is
 * restored, and a second (the before-images') before the journal's
 * records are applied.
 */
static void
recovery_log(const struct sdv *s, const struct dv_sd *d, struct strlist *log)
{
	struct strlist out = { 0, NULL, 0 };
	char alloc[200], made[300];
	int i;

	dv_map_lines(s->name, d->map.nblocks, d->map.kb_bytes, alloc,
	    sizeof(alloc), made, sizeof(made));
	for (i = 0; i < log->n; i++) {
		if (strncmp(log->v[i], "Applying journal records", 24) == 0)
			strlist_add(&out, alloc);
		strlist_add(&out, log->v[i]);
		if (strncmp(log->v[i], "Restoring Data Validation map", 29) ==
		    0) {
			strlist_add(&out, alloc);
			strlist_add(&out, made);
		}
	}
	strlist_clear(log);
	*log = out;
}

/*
 * The journal of sd s (map d): a new map is first recovered from the
 * journal when asked (journal=recover, -jr), then the journal is opened;
 * the map is written to it at the start of each run (but the one right
 * after a recovery: the journal still holds what was recovered) and at
 * its end (sd_dv_end).
 */
static int
dv_journal_setup(struct sd_dv_run *r, struct sdv *s, struct dv_sd *d,
    int made, struct errmsg *e)
{
	struct strlist log = { 0, NULL, 0 }, pend = { 0, NULL, 0 };
	int recovered = 0;
	char text[200];

	if (!(r->cfg.journal & JOURNAL_ON))
		return (0);
	dv_name8(s->name8, s->name);
	if (made && (r->cfg.journal & JOURNAL_RECOVER)) {
		struct jnl_recovery rec;
		uint8_t *map = xcalloc(d->map.nblocks ? d->map.nblocks : 1, 1);
		uint64_t b;

		snprintf(text, sizeof(text), "Starting journal recovery for %s",
		    s->name);
		queue_one(r->out.notes, WORK_DETAIL_MARK, 1, text);
		if (journal_recover(s->jnl_dir, s->name, map, d->map.nblocks,
		    d->map.kb_bytes, &rec, &log, e) != 0) {
			queue_marked(r->out.notes, WORK_ELOG_MARK, 0, &log);
			strlist_clear(&log);
			free(map);
			return (-1);
		}
		s->dvm = &d->map;
		jnl_pending(r, s, map, &rec, &pend);
		for (b = 0; b < d->map.nblocks; b++)
			atomic_store_explicit(&d->map.keys[b], map[b],
			    memory_order_relaxed);
		free(map);
		free(rec.pending);
		recovery_log(s, d, &log);
		queue_marked(r->out.notes, WORK_ELOG_MARK, 0, &log);
		strlist_clear(&log);
		snprintf(text, sizeof(text), "Completed journal recovery for "
		    "%s. Starting data validation.", s->name);
		queue_one(r->out.notes, WORK_DETAIL_MARK, 1, text);
		/* the pending blocks' reads after it, as vdbench's (its
		 * journal_recovery rd reads them) */
		queue_marked(r->out.notes, WORK_ELOG_MARK, 0, &pend);
		strlist_clear(&pend);
		recovered = 1;
	}
	if (!d->has_jnl) {
		if (journal_open(&d->jnl, s->jnl_dir, s->name, d->map.nblocks,
		    d->map.kb_bytes, (r->cfg.journal & JOURNAL_NOFLUSH) != 0,
		    (r->cfg.journal & JOURNAL_MAPONLY) != 0, e) != 0)
			return (-1);
		d->has_jnl = 1;
		snprintf(text, sizeof(text), "Allocating a new Journal file "
		    "for sd=%s", s->name);
		strlist_add(r->out.own_log, text);
	}
	s->jnl = &d->jnl;
	if (recovered)
		return (0);
	if (journal_dump(&d->jnl, d->map.keys, &log, e) != 0) {
		strlist_clear(&log);
		return (-1);
	}
	queue_marked(r->out.notes, WORK_ELOG_MARK, 0, &log);
	strlist_clear(&log);
	return (0);
}

/* A run's validation (sd_dv.h). */
struct sd_dv_run *
sd_dv_new(struct dv_session *v, const struct sd_dv_cfg *cfg,
    const struct sd_dv_out *out, int nsds)
{
	struct sd_dv_run *r = xcalloc(1, sizeof(*r));

	r->cfg = *cfg;
	r->out = *out;
	r->nsds = nsds;
	r->sds = xcalloc((size_t)nsds + 1, sizeof(*r->sds));
	r->v = v;
	r->pat = dv_session_pattern(v, cfg->has_compseed ?
	    (int64_t)cfg->compseed : 0, cfg->compratio, cfg->max_xfer_bytes,
	    cfg->dd_unit_bytes);
	return (r);
}

void
sd_dv_free(struct sd_dv_run *r)
{
	int k;

	if (r == NULL)
		return;
	for (k = 0; k < r->nsds; k++) {
		free(r->sds[k].name);
		free(r->sds[k].lun);
		free(r->sds[k].jnl_dir);
	}
	free(r->sds);
	free(r);
}

/* Milliseconds since 1970, as System.currentTimeMillis(). */
static uint64_t
wall_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ((uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u);
}

/* vdbench marks every key block of a corrupted data block in error. */
static void
dv_mark_error(struct sdv *s, int *keys, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		if (keys[i] != DV_KEY_ERROR)
			atomic_fetch_add(&s->dvm->errors, 1);
		keys[i] = DV_KEY_ERROR;
	}
}

/*
 * A corrupted data block: its report (after vdbench's banner, once per
 * slave) into the error queue, its key blocks marked in error, and the
 * count that data_errors= limits.
 */
static void
dv_corrupt(struct sd_dv_run *r, struct sdv *s, struct dv_bad_block *b,
    int *keys)
{
	struct strlist lines = { 0, NULL, 0 };
	uint32_t n = b->xfer / b->kb_bytes;
	uint64_t nbad;
	char text[700];
	int i;

	/* the report is built under the lock that orders the reports, so
	 * they come in the order the blocks were found (a whole-sector
	 * report takes longer to build than a one-sector one: v4's two
	 * blocks came out swapped), and the banner before any of them */
	pthread_mutex_lock(r->out.mu);
	/* data_errors=0 ends the rd at the first error as 1 does
	 * (vdbench's errors >= max); its text says 0 */
	if (__atomic_load_n(r->out.nerrors, __ATOMIC_ACQUIRE) >=
	    (r->out.max_errors > 0 ? r->out.max_errors : 1)) {
		/* data_errors= is reached (another thread's block): vdbench
		 * reports no block after the one that stops the run */
		pthread_mutex_unlock(r->out.mu);
		dv_mark_error(s, keys, n);
		return;
	}
	dv_session_report(r->v, b, s->lun, b->lba, wall_ms(), &lines);
	for (i = 0; i < lines.n && r->out.errq->n < 1000000; i++)
		strlist_add(r->out.errq, lines.v[i]);
	__atomic_add_fetch(&r->dv_bad, 1, __ATOMIC_ACQ_REL);
	nbad = __atomic_add_fetch(r->out.nerrors, 1, __ATOMIC_ACQ_REL);
	pthread_mutex_unlock(r->out.mu);
	strlist_clear(&lines);
	dv_mark_error(s, keys, n);
	if (nbad >= r->out.max_errors) {
		snprintf(text, sizeof(text), "%c'data_errors=%llu' "
		    "requested. Abort rd=%s after last error.",
		    WORK_PLAIN_ERROR, (unsigned long long)r->out.max_errors,
		    r->out.run);
		r->out.stop(r->out.arg, text);
	}
}

static void
dv_tally_flush(struct dv_map *m, const struct dv_tally *ty)
{
	int k;

	atomic_fetch_add(&m->validated, ty->validated);
	for (k = 0; k <= DV_KEY_MAX; k++) {
		if (ty->reads[k] != 0)
			atomic_fetch_add(&m->reads[k], ty->reads[k]);
		if (ty->writes[k] != 0)
			atomic_fetch_add(&m->writes[k], ty->writes[k]);
	}
}

/* Check a data block read at off against keys (0: not known, nothing to
 * compare); 1 when it is corrupted (reported, keys now in error). */
static int
dv_validate(struct sd_dv_run *r, struct sdv *s, struct dv_tally *ty,
    const unsigned char *buf, uint64_t off, uint64_t len, int *keys,
    enum dv_why why)
{
	struct dv_map *m = s->dvm;
	uint32_t n = (uint32_t)(len / m->kb_bytes), i, known = 0;
	struct dv_bad_block b;

	for (i = 0; i < n; i++) {
		if (keys[i] < 1 || keys[i] > DV_KEY_MAX)
			continue;
		known++;
		ty->reads[keys[i]]++;
	}
	if (known == 0)
		return (0);
	memset(&b, 0, sizeof(b));
	b.sd = s->name;
	b.lun = s->lun;
	b.lba = off;
	b.xfer = (uint32_t)len;
	b.kb_bytes = m->kb_bytes;
	b.data = buf;
	b.keys = keys;
	b.name8 = s->name8;
	b.pid = r->v->pid;
	b.why = why;
	/* vdbench counts the key blocks of good data blocks only (v4:
	 * 8,192 known, two bad 128k blocks, 8,128 validated) */
	b.dd = s->dvdd;
	if (dv_bad_keyblocks(r->pat, &b) == 0) {
		ty->validated += known;
		return (0);
	}
	b.found_ms = wall_ms();
	if (m->stamps != NULL) {
		/* -vt: the blocks' last use before this read */
		uint64_t *st = xcalloc(n, sizeof(*st));
		uint64_t first = off / m->kb_bytes;

		for (i = 0; i < n; i++)
			st[i] = atomic_load_explicit(&m->stamps[first + i],
			    memory_order_relaxed);
		b.stamps = st;
	}
	dv_corrupt(r, s, &b, keys);
	free((void *)b.stamps);
	return (1);
}

/* A journal write failed: the run stops (what is not journaled cannot
 * be recovered). */
static void
jnl_failed(struct sd_dv_run *r, struct sdv *s)
{
	char text[1000];

	snprintf(text, sizeof(text), "sd=%s: cannot write the journal %.800s: %s",
	    s->name, s->jnl->jnl_path, strerror(errno));
	r->out.stop(r->out.arg, text);
}

/*
 * The end of a validated run (DV_map.java:887-948): the slave's totals
 * line; the run fails when it found corrupted blocks, or when it
 * validated nothing though it could have (not a write-only run that
 * wrote each block once, seekpct=eof).
 */
void
sd_dv_end(struct sd_dv_run *r, const struct wg *wgs, int nwgs)
{
	static const char *const none[] = {
		"No read validations done during a Data Validation run.",
		"This means very likely that your run was not long enough to",
		"access the same data block twice. ",
		"There are several solutions to this: ",
		"- increase elapsed time. ",
		"- use larger xfersize. ",
		"- use only a subset of your lun by using the 'sd=...,size=' ",
		"  parameter or the 'sd=...,range=' parameter.",
		"Or, you never did any writes so Vdbench does not know what to ",
		"compare the data with. In that case, change the rdpct= "
		    "parameter.",
	};
	uint64_t validated = 0, errors = 0;
	char a[32], text[400], now[16];
	int k, eof_writes = 1;
	size_t i;

	if (r->ended)
		return;
	r->ended = 1;
	for (k = 0; k < r->nsds; k++) {
		validated += atomic_load(&r->sds[k].dvm->validated);
		errors += atomic_load(&r->sds[k].dvm->errors);
	}
	for (k = 0; k < nwgs; k++)
		eof_writes &= wgs[k].seek_eof && wgs[k].readpct <= 0;
	/* the per-key counters: the slave's log (DV_map.java:887-897) */
	for (k = 0; k < r->nsds; k++) {
		const struct dv_map *m = r->sds[k].dvm;
		int key;

		if (k > 0 && r->sds[k - 1].dvm == m)
			continue;
		strlist_add(r->out.own_log, "Data Validation counters: ");
		for (key = 1; key <= DV_KEY_MAX; key++) {
			uint64_t rd = atomic_load(&m->reads[key]) -
			    r->sds[k].reads0[key];
			uint64_t wr = atomic_load(&m->writes[key]) -
			    r->sds[k].writes0[key];

			if (rd == 0 && wr == 0)
				continue;
			snprintf(text, sizeof(text), "Key %3d: reads: %8llu "
			    "writes: %8llu ", key, (unsigned long long)rd,
			    (unsigned long long)wr);
			strlist_add(r->out.own_log, text);
		}
	}
	/* the journals: the map as the run leaves it */
	for (k = 0; k < r->nsds; k++) {
		struct strlist log = { 0, NULL, 0 };
		struct errmsg e;

		if (r->sds[k].jnl == NULL || (k > 0 && r->sds[k - 1].jnl ==
		    r->sds[k].jnl))
			continue;
		if (journal_dump(r->sds[k].jnl, r->sds[k].dvm->keys, &log,
		    &e) != 0)
			r->out.stop(r->out.arg, e.text);
		pthread_mutex_lock(r->out.mu);
		queue_marked(r->out.errq, WORK_ELOG_MARK, 0, &log);
		pthread_mutex_unlock(r->out.mu);
		strlist_clear(&log);
	}
	/*
	 * console, errorlog.html and the slave's log, as vdbench's
	 * (DV_map.java:921), after the slave's time of day; not with
	 * ignore_zero_reads. results.json's record rides along.
	 */
	if (r->cfg.validate & VALIDATE_IGNORE_ZERO)
		snprintf(text, sizeof(text), "%c", WORK_TOTAL_MARK);
	else {
		snprintf(text, sizeof(text), "%c%s Total amount of key blocks "
		    "read and validated: %8s; key blocks marked in error: "
		    "%4llu ", WORK_TOTAL_MARK, dv_tod(now), dv_commas(a,
		    sizeof(a), validated - r->dv_start), (unsigned long long)
		    errors);
		strlist_add(r->out.own_log, text + 1);
	}
	{
		char *l;

		xasprintf(&l, "%s%c{\"key_blocks_validated\":%llu,"
		    "\"key_blocks_in_error\":%llu,\"corrupted_data_blocks\":"
		    "%llu}", text, WORK_DV_SEP,
		    (unsigned long long)(validated - r->dv_start),
		    (unsigned long long)errors, (unsigned long long)
		    __atomic_load_n(&r->dv_bad, __ATOMIC_ACQUIRE));
		dv_queue(r, l);
		free(l);
	}
	if (__atomic_load_n(&r->dv_bad, __ATOMIC_ACQUIRE) > 0) {
		/* the master's words at the end of the rd (Reporter.java:
		 * 412-425), after its error count */
		snprintf(text, sizeof(text), "%cVdbench terminating due to "
		    "Data Validation or I/O errors. See errorlog.html.",
		    WORK_PLAIN_ERROR);
		r->out.stop(r->out.arg, text);
	} else if (validated == r->dv_start && !eof_writes &&
	    !(r->cfg.validate & VALIDATE_IGNORE_ZERO) &&
	    r->out.error(r->out.arg) == NULL) {
		/* vdbench's slave sends them to the master's console
		 * (sendMessageToConsole), then aborts */
		for (i = 0; i < sizeof(none) / sizeof(none[0]); i++) {
			snprintf(text, sizeof(text), "%c%s", WORK_MESSAGE_MARK,
			    none[i]);
			strlist_add(r->out.own_log, text + 1);
			dv_queue(r, text);
		}
		snprintf(text, sizeof(text), "%c%s", WORK_ABORT_ERROR,
		    none[0]);
		r->out.stop(r->out.arg, text);
	}
}


/* An I/O thread's validation of sd sdi (sd_dv.h). */
struct sd_dv_thread *
sd_dv_thread_new(struct sd_dv_run *r, int sdi, int qd, uint64_t max_xfer)
{
	struct sd_dv_thread *t = xcalloc(1, sizeof(*t));
	uint64_t nk;
	int i;

	t->r = r;
	t->s = &r->sds[sdi];
	t->qd = qd;
	nk = max_xfer / t->s->dvm->kb_bytes + 1;
	t->slots = xcalloc((size_t)qd, sizeof(*t->slots));
	for (i = 0; i < qd; i++) {
		t->slots[i].keys = xcalloc(nk, sizeof(int));
		t->slots[i].nkeys = xcalloc(nk, sizeof(int));
	}
	t->st.pid = r->v->pid;
	memcpy(t->st.name, t->s->name8, 8);
	return (t);
}

void
sd_dv_thread_end(struct sd_dv_thread *t)
{
	dv_tally_flush(t->s->dvm, &t->ty);
	memset(&t->ty, 0, sizeof(t->ty));
}

void
sd_dv_thread_free(struct sd_dv_thread *t)
{
	int i;

	if (t == NULL)
		return;
	for (i = 0; i < t->qd; i++) {
		free(t->slots[i].keys);
		free(t->slots[i].nkeys);
	}
	free(t->slots);
	free(t);
}

/* Release a slot's key blocks, each with its key now (-1: unchanged). */
static void
slot_release(struct sd_dv_thread *t, struct dv_slot *sl, int unchanged)
{
	uint64_t i;

	for (i = 0; i < sl->n; i++)
		dv_map_release(t->s->dvm, sl->first + i, unchanged ? -1 :
		    sl->keys[i]);
}

/*
 * A write's data: each key block gets its next key (the dedup's with
 * dedup), and the journal's BEFORE entries (the new keys) are on disk
 * before the write starts. -1 when the journal failed (the run stops).
 */
static int
write_prep(struct sd_dv_thread *t, struct dv_slot *sl, struct io_u *u)
{
	struct sdv *s = t->s;
	uint32_t kb = s->dvm->kb_bytes;
	uint64_t i;

	t->st.ts_ms = wall_ms();
	for (i = 0; i < sl->n; i++) {
		struct dv_kb kbd;

		sl->nkeys[i] = s->dvdd != NULL ? dv_dedup_next_key(s->dvdd,
		    sl->keys[i]) : dv_next_key(sl->keys[i]);
		dv_kb_of(s->dvdd, u->off + i * kb, sl->nkeys[i], &kbd);
		dv_fill_kb(t->r->pat, (unsigned char *)u->wbuf + i * kb,
		    u->off + i * kb, kb, sl->nkeys[i], &kbd, &t->st);
	}
	if (s->jnl != NULL && journal_add(s->jnl, sl->first, sl->n,
	    sl->nkeys) != 0) {
		jnl_failed(t->r, s);
		return (-1);
	}
	sl->phase = PH_WRITE;
	u->dir = 1;
	return (0);
}

/* The hook before an I/O is queued (sd_dv.h). */
int
sd_dv_prep(struct sd_dv_thread *t, struct io_u *u)
{
	struct dv_map *m = t->s->dvm;
	struct dv_slot *sl = &t->slots[u->index];
	uint64_t i;
	int known = 0, bad = 0;

	sl->first = u->off / m->kb_bytes;
	sl->n = u->len / m->kb_bytes;
	if (dv_map_claim(m, sl->first, sl->n) != 0)
		return (-1);	/* another I/O has one of them */
	for (i = 0; i < sl->n; i++) {
		sl->keys[i] = dv_map_key(m, sl->first + i);
		known += sl->keys[i] != 0;
		bad += sl->keys[i] == DV_KEY_ERROR;
	}
	if (bad > 0) {
		slot_release(t, sl, 1);	/* never used again */
		return (-1);
	}
	if (u->dir == 0) {
		sl->phase = PH_READ;
		return (0);
	}
	if (known > 0 && !(t->r->cfg.validate & VALIDATE_NO_PREREAD)) {
		sl->phase = PH_PREREAD;
		u->dir = 0;
		return (0);
	}
	if (write_prep(t, sl, u) != 0) {
		slot_release(t, sl, 1);
		return (-1);
	}
	return (0);
}

/* Stamp a slot's blocks (-vt). */
static void
slot_stamp(struct sd_dv_thread *t, struct dv_slot *sl, unsigned op)
{
	struct dv_map *m = t->s->dvm;

	dv_map_stamp(m, sl->first, sl->n, op, m->stamps != NULL ?
	    wall_ms() : 0);
}

/* An sd's key block and map span (sd_dv.h). */
void
sd_dv_extent(const struct sd_dv_run *r, int sdi, uint32_t *kb_bytes,
    uint64_t *map_bytes)
{
	const struct dv_map *m = r->sds[sdi].dvm;

	*kb_bytes = m->kb_bytes;
	*map_bytes = m->nblocks * m->kb_bytes;
}

/* The hook when an I/O is over (sd_dv.h). */
int
sd_dv_done(struct sd_dv_thread *t, struct io_u *u, int ok, int last)
{
	struct dv_slot *sl = &t->slots[u->index];
	struct sdv *s = t->s;
	uint64_t i;

	switch (sl->phase) {
	case PH_READ:
		if (ok && dv_validate(t->r, s, &t->ty, u->buf, u->off, u->len,
		    sl->keys, DV_WHY_READ) == 0)
			slot_stamp(t, sl, DV_TS_READ);
		break;
	case PH_PREREAD:
		if (!ok || dv_validate(t->r, s, &t->ty, u->buf, u->off, u->len,
		    sl->keys, DV_WHY_PREREAD) != 0)
			break;
		slot_stamp(t, sl, DV_TS_PREREAD);
		if (last || write_prep(t, sl, u) != 0)
			break;
		return (SD_DV_AGAIN);	/* the write, blocks still held */
	case PH_WRITE:
		if (!ok)
			break;		/* the blocks keep their keys */
		/* the journal's AFTER entries (a failure stops the run;
		 * the block holds the new key all the same) */
		if (s->jnl != NULL && journal_add(s->jnl, sl->first, sl->n,
		    NULL) != 0)
			jnl_failed(t->r, s);
		for (i = 0; i < sl->n; i++) {
			t->ty.writes[sl->nkeys[i]]++;
			sl->keys[i] = sl->nkeys[i];
		}
		slot_stamp(t, sl, DV_TS_WRITE);
		if (last || !(t->r->cfg.validate & VALIDATE_AFTER_WRITE))
			break;
		sl->phase = PH_READBACK;
		u->dir = 0;
		return (SD_DV_AGAIN);
	case PH_READBACK:
		if (ok && dv_validate(t->r, s, &t->ty, u->buf, u->off, u->len,
		    sl->keys, DV_WHY_AFTER_WRITE) == 0)
			slot_stamp(t, sl, DV_TS_AFTER_WRITE);
		break;
	}
	slot_release(t, sl, 0);
	return (0);
}

/* The session's sd maps go (the slave ends). */
void
sd_dv_forget(struct dv_session *v)
{
	struct dv_sd *d, *next;

	for (d = v->sds; d != NULL; d = next) {
		next = d->next;
		if (d->has_jnl)
			journal_close(&d->jnl);
		if (d->has_dd)
			dv_dedup_free(&d->dd);
		dv_map_free(&d->map);
		free(d->sd);
		free(d->lun);
		free(d);
	}
	v->sds = NULL;
}
