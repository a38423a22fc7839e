/* SPDX-License-Identifier: MIT */
/*
 * Data validation of file-system runs (-v on fsd/fwd), as vdbench
 * 5.04.06 does it (reference validation/ v5, v5b): one key map per fsd
 * covering all its files back to back, file f starting at the FSD lba
 * of the sum of the sizes of the files before it ((f-1) * size when
 * they are of one size); each sector's "lba" is that FSD lba plus the
 * offset in the file and its name field the fsd's name. The format
 * erases the map and writes every block with the next key (1); a
 * read of known blocks is validated; a write of a known block first
 * reads and validates it (not with -vw), then writes the next key's
 * data, then (-vr) reads it back. The maps live for the slave's life,
 * so a later rd validates what an earlier one (the format) wrote. This
 * module owns the maps and the per-run DV state of struct fswork.
 */
#include "fs_int.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "dv.h"
#include "dv_session.h"
#include "model.h"
#include "mtime.h"
#include "work.h"
#include "xmalloc.h"

/* One fsd's map, kept from run to run. */
struct fs_dvmap {
	char		*fsd, *anchor;
	struct dv_map	 map;
	char		 name8[8];
	uint64_t	 nfiles;
	uint64_t	*file_start;	/* nfiles + 1: FSD lba of each file */
	struct fs_dvmap	*next;
};

/* The maps are the slave's session's (dv_session.h): made and looked
 * up on the slave's loop thread (fswork_new) only; the I/O threads use
 * the maps their fwgs point to. */

/* Milliseconds since 1970, as System.currentTimeMillis(). */
static uint64_t
wall_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ((uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u);
}

/* A line for the master: console, and errorlog.html when detail. */
static void
queue(struct fswork *w, int detail, const char *text)
{
	char *l;

	pthread_mutex_lock(&w->mu);
	if (w->dv_errs.n < 1000000) {
		if (detail) {
			/* 2: errorlog.html and the slave's log only */
			xasprintf(&l, "%c%s", detail == 2 ? WORK_ERRLOG_MARK :
			    WORK_DETAIL_MARK, text);
			strlist_add(&w->dv_errs, l);
			free(l);
		} else
			strlist_add(&w->dv_errs, text);
	}
	pthread_mutex_unlock(&w->mu);
}

/* The same after the slave's time of day, as vdbench's data validation
 * lines (common.ptod; the sd's in work.c too). */
static void
queue_tod(struct fswork *w, int detail, const char *text)
{
	char tod[16], *l;

	xasprintf(&l, "%s %s", mtime_tod(mtime_wall_ns(), tod), text);
	queue(w, detail, l);
	free(l);
}

static struct fs_dvmap *
map_find(struct dv_session *v, const char *fsd, const char *anchor)
{
	struct fs_dvmap *d;

	for (d = v->fsds; d != NULL; d = d->next)
		if (strcmp(d->fsd, fsd) == 0 && strcmp(d->anchor, anchor) == 0)
			return (d);
	return (NULL);
}

/* The map of fwg g's fsd, found or made; -1 with e set. */
static int
map_setup(struct fswork *w, struct fwg *g, struct errmsg *e)
{
	uint64_t kb = g->dv_kb, f, lba = 0, x;
	struct fs_dvmap *d = map_find(w->dvs, g->fsd, g->anchor);
	char text[256], made[300];
	int j;

	if (d != NULL && kb != d->map.kb_bytes)
		kb = d->map.kb_bytes;	/* the map's, from an earlier run */
	if (kb == 0 || kb % DV_SECTOR != 0 || kb > DV_COMP_SPAN) {
		errmsg_set(e, NULL, 0, 0, "fsd=%s: Data Validation needs "
		    "xfersizes that are multiples of 512 bytes and at most 1m "
		    "(key block %llu)", g->fsd, (unsigned long long)kb);
		return (-1);
	}
	for (j = 0; j < g->xfer.n; j++) {
		x = g->xfer.size_bytes[j];
		if (x % kb != 0) {
			errmsg_set(e, NULL, 0, 0, "fwd=%s,fsd=%s: Data "
			    "Validation: xfersize=%llu must be a multiple of "
			    "the key block size %llu (the smallest xfersize "
			    "used on the fsd)", g->fwd, g->fsd,
			    (unsigned long long)x, (unsigned long long)kb);
			return (-1);
		}
	}
	if (d == NULL) {
		d = xcalloc(1, sizeof(*d));
		d->nfiles = g->dv_nfiles;
		d->file_start = xcalloc(d->nfiles + 1, sizeof(uint64_t));
		for (f = 0; f < d->nfiles; f++) {
			x = fstree_file_size(&g->tree, f);
			if (x % kb != 0) {
				errmsg_set(e, NULL, 0, 0, "fsd=%s: Data "
				    "Validation: file size %llu (file %llu) "
				    "is not a multiple of the key block size "
				    "%llu", g->fsd, (unsigned long long)x,
				    (unsigned long long)f + 1,
				    (unsigned long long)kb);
				free(d->file_start);
				free(d);
				return (-1);
			}
			d->file_start[f] = lba;
			lba += x;
		}
		d->file_start[d->nfiles] = lba;
		if (dv_map_init(&d->map, lba / kb, (uint32_t)kb) != 0) {
			errmsg_set(e, NULL, 0, 0, "fsd=%s: cannot allocate the "
			    "Data Validation map of %llu entries", g->fsd,
			    (unsigned long long)(lba / kb));
			free(d->file_start);
			free(d);
			return (-1);
		}
		d->fsd = xstrdup(g->fsd);
		d->anchor = xstrdup(g->anchor);
		dv_name8(d->name8, g->fsd);
		d->next = w->dvs->fsds;
		w->dvs->fsds = d;
		/* vdbench's lines (errorlog.html, DV_map.java:149) */
		dv_map_lines(g->fsd, lba / kb, kb, text, sizeof(text), made,
		    sizeof(made));
		queue(w, 2, text);
		queue(w, 2, made);
	} else if (g->dv_nfiles > d->nfiles) {
		errmsg_set(e, NULL, 0, 0, "fsd=%s: Data Validation: the fsd "
		    "has more files than when its map was made", g->fsd);
		return (-1);
	}
	g->dvm = d;
	return (0);
}

int
fs_dv_setup(struct fswork *w, const struct slave_work *sw,
    struct errmsg *e)
{
	int i, k, seen;

	w->dv = sw->validate;
	w->max_errors = sw->max_errors >= 0 ? (uint64_t)sw->max_errors : 50;
	if (w->dv == 0)
		return (0);
	{
		uint64_t big = 0;

		for (i = 0; i < w->nfwgs; i++)
			if (xfer_max_bytes(&w->fwgs[i].xfer) > big)
				big = xfer_max_bytes(&w->fwgs[i].xfer);
		w->dv_pat = dv_session_pattern(w->dvs, sw->has_compseed ?
		    (int64_t)sw->compseed : 0, sw->compratio, big, 0);
	}
	for (i = 0; i < w->nfwgs; i++) {
		struct fwg *g = &w->fwgs[i];

		switch (g->op) {
		case OP_CREATE:
		case OP_DELETE:
		case OP_COPY:
		case OP_MOVE:
			/* the master refuses these (master/fsdv.c) */
			errmsg_set(e, NULL, 0, 0, "fwd=%s: Data Validation "
			    "with operation=%s is not supported by vdbc",
			    g->fwd, op_words[g->op]);
			return (-1);
		default:
			break;
		}
		if (g->delete_first) {
			/* the master refuses it too (master/fsdv.c) */
			errmsg_set(e, NULL, 0, 0, "fwd=%s: Data Validation "
			    "with fileio=(sequential,delete) is not supported "
			    "by vdbc", g->fwd);
			return (-1);
		}
		if (map_setup(w, g, e) != 0)
			return (-1);
	}
	/* what was validated before this run, for the "none" check */
	for (i = 0; i < w->nfwgs; i++) {
		for (seen = 0, k = 0; k < i; k++)
			seen |= w->fwgs[k].dvm == w->fwgs[i].dvm;
		if (!seen)
			w->dv_start += atomic_load(&w->fwgs[i].dvm->map.
			    validated);
	}
	return (0);
}

void
fs_dv_erase(struct fswork *w, struct fwg *g)
{
	struct dv_map *m;
	uint64_t i;
	char text[128];

	if (g->dvm == NULL)
		return;
	m = &g->dvm->map;
	for (i = 0; i < m->nblocks; i++)
		atomic_store_explicit(&m->keys[i], 0, memory_order_relaxed);
	snprintf(text, sizeof(text), "Erasing Data Validation map: %s",
	    g->fsd);
	pthread_mutex_lock(&w->mu);
	strlist_add(&w->dv_own, text);
	pthread_mutex_unlock(&w->mu);
}

/*
 * A corrupted data block of file fi at file offset off: its report
 * (vdbench's banner first, once per slave), its key blocks marked in
 * error, and data_errors=.
 */
static void
corrupt(struct fthread *t, const char *path, uint64_t fi, uint64_t off,
    struct dv_bad_block *b, int *keys)
{
	struct fswork *w = t->w;
	struct fs_dvmap *d = t->g->dvm;
	struct strlist lines = { 0, NULL, 0 };
	struct dv_fsd_where where;
	uint32_t i, n = b->xfer / b->kb_bytes;
	uint64_t nbad;
	int k;

	where.file = path;
	where.file_start = d->file_start[fi];
	b->fsd = &where;
	/* the error line: the file and the FILE lba (v5b) */
	dv_session_report(w->dvs, b, path, off, wall_ms(), &lines);
	for (k = 0; k < lines.n; k++)
		queue(w, 0, lines.v[k]);
	strlist_clear(&lines);
	for (i = 0; i < n; i++) {
		if (keys[i] != DV_KEY_ERROR)
			atomic_fetch_add(&d->map.errors, 1);
		keys[i] = DV_KEY_ERROR;
	}
	__atomic_add_fetch(&w->dv_bad, 1, __ATOMIC_ACQ_REL);
	nbad = __atomic_add_fetch(&w->dv_nerrors, 1, __ATOMIC_ACQ_REL);
	if (nbad >= w->max_errors)
		fs_note(w, 1, "'data_errors=%llu' requested. Abort rd=%s "
		    "after last error.", (unsigned long long)w->max_errors,
		    w->run);
}

/* Check a data block read at file offset off against keys; 1 when
 * corrupted (reported, keys now in error). */
static int
validate(struct fthread *t, const char *path, uint64_t fi, uint64_t off,
    const unsigned char *buf, uint64_t len, int *keys, enum dv_why why)
{
	struct fs_dvmap *d = t->g->dvm;
	struct dv_map *m = &d->map;
	uint32_t n = (uint32_t)(len / m->kb_bytes), i, known = 0;
	const struct fswork *w = t->w;
	struct dv_bad_block b;

	for (i = 0; i < n; i++) {
		if (keys[i] < 1 || keys[i] > DV_KEY_MAX)
			continue;
		known++;
		atomic_fetch_add_explicit(&m->reads[keys[i]], 1,
		    memory_order_relaxed);
	}
	if (known == 0)
		return (0);
	atomic_fetch_add_explicit(&m->validated, known, memory_order_relaxed);
	memset(&b, 0, sizeof(b));
	b.sd = d->fsd;
	b.lun = path;
	b.lba = d->file_start[fi] + off;
	b.xfer = (uint32_t)len;
	b.kb_bytes = m->kb_bytes;
	b.data = buf;
	b.keys = keys;
	b.name8 = d->name8;
	b.pid = w->dvs->pid;
	b.why = why;
	if (dv_bad_keyblocks(w->dv_pat, &b) == 0)
		return (0);
	b.found_ms = wall_ms();
	corrupt(t, path, fi, off, &b, keys);
	return (1);
}

/* One read or write, counted; 0, or -1 after the note that stops the
 * run. */
static int
xfer_io(struct fthread *t, int fd, const char *path, int dir, void *buf,
    uint64_t len, uint64_t off)
{
	uint64_t s = mtime_now_ns();
	ssize_t r = dir ? pwrite(fd, buf, len, (off_t)off) :
	    pread(fd, buf, len, (off_t)off);

	if (r != (ssize_t)len) {
		fs_note(t->w, 1, "anchor=%s: %s %s at offset %llu, %llu bytes "
		    "failed: %s", t->g->anchor, dir ? "write" : "read", path,
		    (unsigned long long)off, (unsigned long long)len,
		    r < 0 ? strerror(errno) : "short transfer");
		return (-1);
	}
	count_io(t, dir, len, s, mtime_now_ns());
	return (0);
}

/* The key buffers of a thread: the largest transfer's key blocks. */
static void
keys_ready(struct fthread *t, uint64_t n)
{
	if (n <= t->dv_nkeys)
		return;
	free(t->dv_keys);
	free(t->dv_nkeys_buf);
	t->dv_keys = xcalloc(n, sizeof(int));
	t->dv_nkeys_buf = xcalloc(n, sizeof(int));
	t->dv_nkeys = n;
}

int
fs_dv_rw(struct fthread *t, int fd, const char *path, uint64_t fi,
    int dir, uint64_t off, uint64_t len)
{
	struct fswork *w = t->w;
	struct fs_dvmap *d = t->g->dvm;
	struct dv_map *m = &d->map;
	uint64_t kb = m->kb_bytes, lba = d->file_start[fi] + off;
	uint64_t first = lba / kb, n = len / kb, i;
	struct dv_stamp st;
	int known = 0, bad = 0, rc = 0, *keys, *nkeys;

	keys_ready(t, n);
	keys = t->dv_keys;
	nkeys = t->dv_nkeys_buf;
	if (dv_map_claim(m, first, n) != 0)
		return (1);		/* another I/O has one of them */
	for (i = 0; i < n; i++) {
		keys[i] = dv_map_key(m, first + i);
		known += keys[i] != 0;
		bad += keys[i] == DV_KEY_ERROR;
	}
	if (bad > 0) {
		/* blocks in error are never used again */
		for (i = 0; i < n; i++)
			dv_map_release(m, first + i, -1);
		return (1);
	}
	if (dir == 0) {
		rc = xfer_io(t, fd, path, 0, t->dv_rbuf, len, off);
		if (rc == 0)
			(void)validate(t, path, fi, off,
			    (const unsigned char *)t->dv_rbuf, len, keys,
			    DV_WHY_READ);
		for (i = 0; i < n; i++)
			dv_map_release(m, first + i, keys[i]);
		return (rc);
	}
	if (known > 0 && !(w->dv & VALIDATE_NO_PREREAD)) {
		rc = xfer_io(t, fd, path, 0, t->dv_rbuf, len, off);
		if (rc == 0 && validate(t, path, fi, off,
		    (const unsigned char *)t->dv_rbuf, len, keys,
		    DV_WHY_PREREAD) != 0)
			rc = 1;		/* not written over */
	}
	if (rc == 0) {
		st.ts_ms = wall_ms();
		st.pid = t->w->dvs->pid;
		memcpy(st.name, d->name8, 8);
		for (i = 0; i < n; i++) {
			nkeys[i] = dv_next_key(keys[i]);
			dv_fill(t->w->dv_pat, (unsigned char *)t->buf + i * kb,
			    lba + i * kb, (uint32_t)kb, nkeys[i], &st);
		}
		rc = xfer_io(t, fd, path, 1, t->buf, len, off);
		if (rc == 0) {
			for (i = 0; i < n; i++) {
				atomic_fetch_add_explicit(
				    &m->writes[nkeys[i]], 1,
				    memory_order_relaxed);
				keys[i] = nkeys[i];
			}
			if ((w->dv & VALIDATE_AFTER_WRITE) && xfer_io(t, fd,
			    path, 0, t->dv_rbuf, len, off) == 0)
				(void)validate(t, path, fi, off,
				    (const unsigned char *)t->dv_rbuf, len,
				    keys, DV_WHY_AFTER_WRITE);
		}
	}
	for (i = 0; i < n; i++)
		dv_map_release(m, first + i, keys[i]);
	return (rc < 0 ? -1 : 0);
}

int
fs_dv_format_fill(struct fthread *t, uint64_t fi, uint64_t from,
    uint64_t len)
{
	struct fs_dvmap *d = t->g->dvm;
	struct dv_map *m = &d->map;
	uint64_t kb = m->kb_bytes, lba = d->file_start[fi] + from, i, n;
	uint64_t first = lba / kb;
	struct dv_stamp st;

	n = len / kb;
	if (len % kb != 0 || dv_map_claim(m, first, n) != 0)
		return (-1);
	st.ts_ms = wall_ms();
	st.pid = t->w->dvs->pid;
	memcpy(st.name, d->name8, 8);
	for (i = 0; i < n; i++) {
		int k = dv_map_key(m, first + i);

		dv_fill(t->w->dv_pat, (unsigned char *)t->buf + i * kb,
		    lba + i * kb, (uint32_t)kb, k == DV_KEY_ERROR ? 1 :
		    dv_next_key(k), &st);
	}
	return (0);
}

void
fs_dv_format_done(struct fthread *t, uint64_t fi, uint64_t from,
    uint64_t len, int written)
{
	struct fs_dvmap *d = t->g->dvm;
	struct dv_map *m = &d->map;
	uint64_t kb = m->kb_bytes, first = (d->file_start[fi] + from) / kb;
	uint64_t i, n = len / kb;

	for (i = 0; i < n; i++) {
		int k = dv_map_key(m, first + i);

		if (written) {
			k = k == DV_KEY_ERROR ? 1 : dv_next_key(k);
			atomic_fetch_add_explicit(&m->writes[k], 1,
			    memory_order_relaxed);
		}
		dv_map_release(m, first + i, written ? k : -1);
	}
}

/*
 * The end of a validated run (DV_map.java:887-948): the per-key
 * counters into the slave's log, the totals line, and the run's error
 * when it found corrupted blocks, or when it validated nothing though it
 * could have (not a format run).
 */
void
fs_dv_end(struct fswork *w)
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
	char a[32], text[400];
	int i, k, key, seen, format = 0;
	size_t j;

	if (w->dv == 0 || w->dv_ended || w->go_ns == 0)
		return;
	w->dv_ended = 1;
	for (i = 0; i < w->nfwgs; i++) {
		const struct dv_map *m = &w->fwgs[i].dvm->map;

		format |= w->fwgs[i].op == OP_FORMAT;
		for (seen = 0, k = 0; k < i; k++)
			seen |= w->fwgs[k].dvm == w->fwgs[i].dvm;
		if (seen)
			continue;
		validated += atomic_load(&m->validated);
		errors += atomic_load(&m->errors);
		pthread_mutex_lock(&w->mu);
		strlist_add(&w->dv_own, "Data Validation counters: ");
		for (key = 1; key <= DV_KEY_MAX; key++) {
			uint64_t r = atomic_load(&m->reads[key]);
			uint64_t wr = atomic_load(&m->writes[key]);

			if (r == 0 && wr == 0)
				continue;
			snprintf(text, sizeof(text), "Key %3d: reads: %8llu "
			    "writes: %8llu ", key, (unsigned long long)r,
			    (unsigned long long)wr);
			strlist_add(&w->dv_own, text);
		}
		pthread_mutex_unlock(&w->mu);
	}
	snprintf(text, sizeof(text), "Total amount of key blocks read and "
	    "validated: %8s; key blocks marked in error: %4llu ",
	    dv_commas(a, sizeof(a), validated), (unsigned long long)errors);
	{
		char *l;

		/* results.json's per-run totals ride along */
		xasprintf(&l, "%s%c{\"key_blocks_validated\":%llu,"
		    "\"key_blocks_in_error\":%llu,\"corrupted_data_blocks\":"
		    "%llu}", text, WORK_DV_SEP, (unsigned long long)(validated -
		    w->dv_start), (unsigned long long)errors,
		    (unsigned long long)__atomic_load_n(&w->dv_bad,
		    __ATOMIC_ACQUIRE));
		queue_tod(w, 1, l);
		free(l);
	}
	if (__atomic_load_n(&w->dv_bad, __ATOMIC_ACQUIRE) > 0) {
		fs_note(w, 1, "Total Data Validation or I/O error count: "
		    "%llu. Vdbench terminating due to Data Validation or I/O "
		    "errors. See errorlog.html.", (unsigned long long)
		    __atomic_load_n(&w->dv_bad, __ATOMIC_ACQUIRE));
	} else if (validated == w->dv_start && !format &&
	    fswork_error(w) == NULL) {
		for (j = 0; j < sizeof(none) / sizeof(none[0]); j++)
			queue(w, 1, none[j]);
		fs_note(w, 1, "%s", none[0]);
	}
}

/* The session's fsd maps go (the slave ends). */
void
fs_dv_forget(struct dv_session *v)
{
	struct fs_dvmap *d, *next;

	for (d = v->fsds; d != NULL; d = next) {
		next = d->next;
		dv_map_free(&d->map);
		free(d->fsd);
		free(d->anchor);
		free(d->file_start);
		free(d);
	}
	v->fsds = NULL;
}
