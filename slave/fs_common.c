/* SPDX-License-Identifier: MIT */
/*
 * What the parts of a file-system run share (fs_int.h): the
 * operation words, notes and the stop flag, the per-thread counters,
 * rate pacing, paths in an fsd's tree, and writing a whole file
 * (format and create).
 */
#include "fs_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "mtime.h"
#include "skewgate.h"
#include "work.h"
#include "xmalloc.h"

const char *const op_words[] = {
	"format", "read", "write", "create", "delete", "mkdir", "rmdir",
	"open", "close", "getattr", "setattr", "access", "copy", "move", NULL,
};

/* A note for the console (progress), or the error that stops the run. */
void
fs_note(struct fswork *w, int is_error, const char *fmt, ...)
{
	char text[FS_PATH_MAX + 200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	pthread_mutex_lock(&w->mu);
	if (is_error) {
		/* published whole: fswork_error reads it unlocked */
		if (w->error == NULL)
			__atomic_store_n(&w->error, xstrdup(text),
			    __ATOMIC_RELEASE);
		__atomic_store_n(&w->stop, 1, __ATOMIC_RELAXED);
	} else
		strlist_add(&w->notes, text);
	pthread_mutex_unlock(&w->mu);
}

int
stopping(const struct fswork *w)
{
	return (__atomic_load_n(&w->stop, __ATOMIC_RELAXED));
}

static const enum fsop req_of[] = {
	[OP_CREATE] = FSOP_CREATE, [OP_DELETE] = FSOP_DELETE,
	[OP_MKDIR] = FSOP_MKDIR, [OP_RMDIR] = FSOP_RMDIR,
	[OP_OPEN] = FSOP_OPEN, [OP_CLOSE] = FSOP_CLOSE,
	[OP_GETATTR] = FSOP_GETATTR, [OP_SETATTR] = FSOP_SETATTR,
	[OP_ACCESS] = FSOP_ACCESS, [OP_COPY] = FSOP_COPY,
	[OP_MOVE] = FSOP_MOVE,
};

/*
 * Inside the group, before a count at now: the first count of a later
 * interval closes the ones before it (struct fstat).
 */
static void
fstat_at(struct fthread *t, uint64_t now)
{
	struct fstat *st = &t->st;
	struct fswork *w = t->w;
	uint64_t k;
	size_t q;
	int d;
	unsigned int b;

	if (w->interval_ns == 0 || now < w->go_ns)
		return;
	k = (now - w->go_ns) / w->interval_ns + 1;
	if (k <= st->open_k)
		return;
	if (st->open_k != 0) {
		const uint64_t *src = (const uint64_t *)&st->io;
		uint64_t *dst = (uint64_t *)&st->closed_io;

		/* relaxed loads: the loop takes the maxima apart with an
		 * exchange meanwhile (fswork_stats_json) */
		for (q = 0; q < sizeof(st->io) / sizeof(uint64_t); q++)
			seqcount_put(&dst[q], __atomic_load_n(&src[q],
			    __ATOMIC_RELAXED));
		for (d = 0; d < 2; d++) {
			for (b = 0; b <= w->edges.n; b++)
				seqcount_put(&st->closed_vh[d].count[b],
				    st->vh[d].count[b]);
			hist_publish(st->hc[d], st->h[d]);
		}
	}
	seqcount_put(&st->open_k, k);
}

/* An operation the fwd asked for (ReqstdOps); inside the group. */
static void
count_req(struct fthread *t, uint64_t ns)
{
	add64(&t->st.io.req_n, 1);
	add64(&t->st.io.req_resp_ns, ns);
}

/* Count an operation, published whole (struct fstat). */
void
count_op(struct fthread *t, enum fsop o, uint64_t t0)
{
	uint64_t now = mtime_now_ns(), ns = now - t0;

	seqcount_write_begin(&t->st.seq);
	fstat_at(t, now);
	if (t->g->op >= OP_CREATE && req_of[t->g->op] == o) {
		count_req(t, ns);
		/* the requested operation's time in vdbench's buckets, for
		 * its "Total of all requested operations" histogram (the
		 * master merges both sides for file-system runs) */
		add64(&t->st.vh[0].count[vdbhist_bucket_of(&t->w->edges, ns)],
		    1);
	}
	add64(&t->st.io.op[o].n, 1);
	add64(&t->st.io.op[o].resp_sum_ns, ns);
	max64(&t->st.io.op[o].resp_max_ns, ns);
	seqcount_write_end(&t->st.seq);
}

void
count_misc(struct fthread *t, enum fsmisc m)
{
	seqcount_write_begin(&t->st.seq);
	fstat_at(t, mtime_now_ns());
	add64(&t->st.io.misc[m], 1);
	seqcount_write_end(&t->st.seq);
}

/* Count a read or write begun at t0_ns and done at now_ns (the caller's
 * clock read), published whole (struct fstat). */
void
count_io(struct fthread *t, int dir, uint64_t bytes, uint64_t t0_ns,
    uint64_t now_ns)
{
	struct iostats_side *x = &t->st.io.side[dir];
	uint64_t ns = now_ns - t0_ns, us = (ns + 500) / 1000;

	seqcount_write_begin(&t->st.seq);
	fstat_at(t, now_ns);
	if (t->g->op == OP_READ || t->g->op == OP_WRITE ||
	    t->g->op == OP_FORMAT) {
		count_req(t, ns);
		/* vdbench's buckets hold the requested operations only:
		 * a create's writes are not among them */
		add64(&t->st.vh[dir].count[vdbhist_bucket_of(&t->w->edges,
		    ns)], 1);
	}
	add64(&x->ios, 1);
	add64(&x->bytes, bytes);
	add64(&x->resp_sum_ns, ns);
	add64(&x->resp_sumsq_us2, us * us);
	max64(&x->resp_max_ns, ns);
	hist_add(t->st.h[dir], ns);
	seqcount_write_end(&t->st.seq);
}

/*
 * fwdrate=max with the fwgs held to their skew (skewgate.h): wait while
 * this thread's fwg is ahead of the slowest. Called before a file is
 * taken, never while holding one, so the fwg it waits for can go.
 */
void
skew_wait(struct fthread *t)
{
	struct timespec ts;
	uint64_t backoff = 0;

	if (t->w->gate == NULL)
		return;
	while (!stopping(t->w) && skewgate_ahead(t->w->gate,
	    (int)(t->g - t->w->fwgs))) {
		ts.tv_sec = 0;
		ts.tv_nsec = (long)skewgate_backoff_ns(&backoff);
		nanosleep(&ts, NULL);
	}
}

/*
 * Fixed rate: wait for this thread's next arrival; at max with the fwgs
 * held to their skew, count the operation (skew_wait did the waiting);
 * -1 when stopping.
 */
int
pace(struct fthread *t, uint64_t *next_ns)
{
	double per = t->g->rate_per_s / t->g->nthreads;
	struct timespec ts;
	uint64_t now;

	if (per <= 0 && t->w->gate != NULL)
		skewgate_count(t->w->gate, (int)(t->g - t->w->fwgs));
	if (per <= 0)
		return (stopping(t->w) ? -1 : 0);
	*next_ns += (uint64_t)(rng_exp(&t->rng, 1e9 / per));
	while (!stopping(t->w) && (now = mtime_now_ns()) < *next_ns) {
		uint64_t wake = *next_ns - now > 100000000u ? now + 100000000u :
		    *next_ns;

		ts.tv_sec = (time_t)(wake / 1000000000u);
		ts.tv_nsec = (long)(wake % 1000000000u);
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
	}
	return (stopping(t->w) ? -1 : 0);
}

/* The anchor-relative path of file f, absolute. */
void
file_path(const struct fwg *g, uint64_t f, char *buf, size_t len)
{
	char rel[FS_PATH_MAX];

	fstree_file_path(&g->tree, f, rel, sizeof(rel));
	if (snprintf(buf, len, "%s/%s", g->anchor, rel) >= (int)len)
		buf[len - 1] = '\0';	/* too long: the open fails, says so */
}

void
dir_path(const struct fwg *g, uint64_t d, char *buf, size_t len)
{
	char rel[FS_PATH_MAX];

	fstree_dir_path(&g->tree, d, rel, sizeof(rel));
	if (snprintf(buf, len, "%s/%s", g->anchor, rel) >= (int)len)
		buf[len - 1] = '\0';
}

/* Close a file, counted as a close operation. */
void
close_counted(struct fthread *t, int fd)
{
	uint64_t t0 = mtime_now_ns();

	/* openflags=fsync: vdbench syncs a file before it closes it, and
	 * its slave aborts when that fails (Native.closeFile) */
	if (t->g->fsync_close && fsync(fd) != 0)
		fs_note(t->w, 1, "%cNative.closeFile(fhandle): fsync failed, "
		    "rc= %d", WORK_ABORT_ERROR, errno);
	close(fd);
	count_op(t, FSOP_CLOSE, t0);
	count_misc(t, FSM_FILE_CLOSES);
}

/* Write a whole file (or its missing tail); 0, or -1 on error. */
int
fill_file(struct fthread *t, const char *path, uint64_t fi, uint64_t size,
    int restart, int counted)
{
	struct fwg *g = t->g;
	uint64_t from = 0, t0 = mtime_now_ns(), xfer = g->xfer.size_bytes[0];
	struct stat st;
	int fd, created = 0;

	if (restart && stat(path, &st) == 0) {
		if ((uint64_t)st.st_size >= size)
			return (0);	/* complete already */
		from = (uint64_t)st.st_size / xfer * xfer;
		counted = 1;	/* it exists: completed, not created */
	}
	/* a tree's files are vdbc's own names: a link there is not ours */
	fd = open(path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW | g->oflags |
	    (from == 0 ? O_CREAT | O_TRUNC : 0), 0644);
	if (fd < 0) {
		fs_note(t->w, 1, "anchor=%s: create %s failed: %s", g->anchor,
		    path, strerror(errno));
		return (-1);
	}
	created = from == 0 && !counted;
	if (created) {
		count_op(t, FSOP_CREATE, t0);
		count_misc(t, FSM_FILE_CREATES);
	}
	count_op(t, FSOP_OPEN, t0);
	count_misc(t, FSM_WRITE_OPENS);
	while (from < size && !stopping(t->w)) {
		uint64_t n = size - from < xfer ? size - from : xfer, s;
		ssize_t r;

		if (g->dvm != NULL && fs_dv_format_fill(t, fi, from, n) != 0) {
			fs_note(t->w, 1, "anchor=%s: %s: Data Validation: "
			    "the blocks at offset %llu are busy or not whole "
			    "key blocks", g->anchor, path,
			    (unsigned long long)from);
			close(fd);
			return (-1);
		}
		if (g->dvm == NULL)
			wdata_block(&t->w->wd, NULL, (unsigned char *)t->buf,
			    from, n, (uint32_t)fd,
			    (uint32_t)(mtime_now_ns() / 1000));
		s = mtime_now_ns();
		r = pwrite(fd, t->buf, n, (off_t)from);
		if (r > 0 && r < (ssize_t)n) {
			/* A short write: the rest says why (ENOSPC, ...). */
			ssize_t r2 = pwrite(fd, t->buf + r, n - (size_t)r,
			    (off_t)(from + (uint64_t)r));

			if (r2 > 0)
				r += r2;
			else if (r2 < 0)
				r = -1;
		}
		if (g->dvm != NULL)
			fs_dv_format_done(t, fi, from, n, r == (ssize_t)n);
		if (r != (ssize_t)n) {
			fs_note(t->w, 1, "anchor=%s: write %s at offset %llu, "
			    "%llu bytes failed: %s", g->anchor, path,
			    (unsigned long long)from, (unsigned long long)n,
			    r < 0 ? strerror(errno) : "short write");
			close(fd);
			return (-1);
		}
		count_io(t, 1, n, s, mtime_now_ns());
		from += n;
	}
	close_counted(t, fd);
	return (0);
}
