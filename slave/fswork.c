/* SPDX-License-Identifier: MIT */
/* File-system runs on a slave (see fswork.h). */
#include "fswork.h"

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
#include "rng.h"
#include "vdbhist.h"
#include "workload.h"
#include "xmalloc.h"

#define FS_PATH_MAX	4096

enum fwg_op {
	OP_FORMAT, OP_READ, OP_WRITE, OP_CREATE, OP_DELETE, OP_MKDIR,
	OP_RMDIR, OP_OPEN, OP_CLOSE, OP_GETATTR, OP_SETATTR, OP_ACCESS,
	OP_COPY, OP_MOVE,
};

static const char *const op_words[] = {
	"format", "read", "write", "create", "delete", "mkdir", "rmdir",
	"open", "close", "getattr", "setattr", "access", "copy", "move", NULL,
};

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
	int		 oflags;
	int		 format_clean, format_restart, dirs_only;
	int		 clean_only;
	pthread_barrier_t barrier;	/* format: clean and mkdir first */
	int		 finished;	/* threads done (format); atomic */
	int		 exhausted;	/* run threads out of work; atomic */
};

/* A thread's counters; written by it alone with relaxed stores. */
struct fstat {
	struct iostats	 io;
	struct hist	*h[2];
	struct vdbhist	 vh[2];
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
};

struct fswork {
	int		 nfwgs;
	struct fwg	*fwgs;
	int		 nthreads;
	struct fthread	*threads;
	struct vdbhist_edges edges;
	uint64_t	 seed, go_ns;
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
	int		 walk_wake;	/* eventfd written when it ends */
	json_t		*walk_out;
	/* test hook: VDBC_TEST_STAT_DELAY_US, a sleep after each file's
	 * stat in the walk (e2e 24 makes a slow walk with it) */
	unsigned	 walk_delay_us;
	struct interval_base *ibase;	/* per fwg: last INTERVAL */
};

/* Relaxed single-writer add, safe against the snapshotting loop. */
static inline void
add64(uint64_t *p, uint64_t v)
{
	__atomic_store_n(p, __atomic_load_n(p, __ATOMIC_RELAXED) + v,
	    __ATOMIC_RELAXED);
}

static inline void
max64(uint64_t *p, uint64_t v)
{
	if (v > __atomic_load_n(p, __ATOMIC_RELAXED))
		__atomic_store_n(p, v, __ATOMIC_RELAXED);
}

/* A note for the console (progress), or the error that stops the run. */
static void
note(struct fswork *w, int is_error, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void
note(struct fswork *w, int is_error, const char *fmt, ...)
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

static int
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

static void count_req(struct fthread *, uint64_t);

/* Count an operation. */
static void
count_op(struct fthread *t, enum fsop o, uint64_t t0)
{
	uint64_t ns = mtime_now_ns() - t0;

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
}

static void
count_misc(struct fthread *t, enum fsmisc m)
{
	add64(&t->st.io.misc[m], 1);
}

/* An operation the fwd asked for (ReqstdOps). */
static void
count_req(struct fthread *t, uint64_t ns)
{
	add64(&t->st.io.req_n, 1);
	add64(&t->st.io.req_resp_ns, ns);
}

/* Count a read or write. */
static void
count_io(struct fthread *t, int dir, uint64_t bytes, uint64_t ns)
{
	struct iostats_side *x = &t->st.io.side[dir];
	uint64_t us = (ns + 500) / 1000;

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
}

/* Fixed rate: wait for this thread's next arrival; -1 when stopping. */
static int
pace(struct fthread *t, uint64_t *next_ns)
{
	double per = t->g->rate_per_s / t->g->nthreads;
	struct timespec ts;
	uint64_t now;

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
static void
file_path(const struct fwg *g, uint64_t f, char *buf, size_t len)
{
	char rel[FS_PATH_MAX];

	fstree_file_path(&g->tree, f, rel, sizeof(rel));
	if (snprintf(buf, len, "%s/%s", g->anchor, rel) >= (int)len)
		buf[len - 1] = '\0';	/* too long: the open fails, says so */
}

static void
dir_path(const struct fwg *g, uint64_t d, char *buf, size_t len)
{
	char rel[FS_PATH_MAX];

	fstree_dir_path(&g->tree, d, rel, sizeof(rel));
	if (snprintf(buf, len, "%s/%s", g->anchor, rel) >= (int)len)
		buf[len - 1] = '\0';
}

/* Files of this thread's slice: f = slice, slice + total, ... */
static uint64_t
slice_count(const struct fwg *g, int slice)
{
	uint64_t n = g->tree.nfiles;

	return (n > (uint64_t)slice ? (n - (uint64_t)slice +
	    (uint64_t)g->total - 1) / (uint64_t)g->total : 0);
}

/* Remove what vdbc's naming made under dir; foreign entries stay. */
static void
clean_dir(struct fthread *t, const char *dir, uint64_t n[2])
{
	struct dirent *de;
	DIR *d = opendir(dir);
	char p[FS_PATH_MAX];

	if (d == NULL)
		return;
	while ((de = readdir(d)) != NULL && !stopping(t->w)) {
		struct stat st;
		uint64_t t0;

		if (!fstree_is_ours(de->d_name))
			continue;
		if (snprintf(p, sizeof(p), "%s/%s", dir, de->d_name) >=
		    (int)sizeof(p) || lstat(p, &st) != 0)
			continue;
		if (S_ISDIR(st.st_mode)) {
			clean_dir(t, p, n);
			t0 = mtime_now_ns();
			if (rmdir(p) == 0) {
				count_op(t, FSOP_RMDIR, t0);
				count_misc(t, FSM_DIRECTORY_DELETES);
				n[1]++;
			}
		} else if (strcmp(de->d_name, "vdb_control.file") == 0) {
			/* not one of the tree's files: not counted */
			(void)unlink(p);
		} else if (S_ISREG(st.st_mode)) {
			t0 = mtime_now_ns();
			if (unlink(p) == 0) {
				count_op(t, FSOP_DELETE, t0);
				count_misc(t, FSM_FILE_DELETES);
				n[0]++;
			}
		}
	}
	closedir(d);
}

/* Close a file, counted as a close operation. */
static void
close_counted(struct fthread *t, int fd)
{
	uint64_t t0 = mtime_now_ns();

	close(fd);
	count_op(t, FSOP_CLOSE, t0);
	count_misc(t, FSM_FILE_CLOSES);
}

/* Write a whole file (or its missing tail); 0, or -1 on error. */
static int
fill_file(struct fthread *t, const char *path, uint64_t size, int restart,
    int counted)
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
	fd = open(path, O_WRONLY | O_CLOEXEC | g->oflags | (from == 0 ?
	    O_CREAT | O_TRUNC : 0), 0644);
	if (fd < 0) {
		note(t->w, 1, "anchor=%s: create %s failed: %s", g->anchor,
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
		if (r != (ssize_t)n) {
			note(t->w, 1, "anchor=%s: write %s at offset %llu, %llu "
			    "bytes failed: %s", g->anchor, path,
			    (unsigned long long)from, (unsigned long long)n,
			    r < 0 ? strerror(errno) : "short write");
			close(fd);
			return (-1);
		}
		count_io(t, 1, n, mtime_now_ns() - s);
		from += n;
	}
	close_counted(t, fd);
	return (0);
}

/* vdb_control.file: what the tree is, in vdbench's layout. */
static void
write_control(struct fwg *g)
{
	char p[FS_PATH_MAX], when[64];
	time_t now = time(NULL);
	struct tm tm;
	FILE *f;

	if (snprintf(p, sizeof(p), "%s/vdb_control.file", g->anchor) >=
	    (int)sizeof(p) || (f = fopen(p, "w")) == NULL)
		return;
	localtime_r(&now, &tm);
	strftime(when, sizeof(when), "%a %b %d %H:%M:%S %Z %Y", &tm);
	fprintf(f, "when  end %s\ndepth %d\nwidth %d\nfiles %llu\ndist  %s\n"
	    "size  %llu\ndirectory status %llu\n", when, g->tree.depth,
	    g->tree.width, (unsigned long long)g->tree.files_per_dir,
	    g->tree.dist_all ? "all" : "bottom",
	    (unsigned long long)g->tree.size_bytes[0],
	    (unsigned long long)g->tree.ndirs);
	if (g->tree.ndirs > 0)
		fprintf(f, "y\n= %llu\n", (unsigned long long)g->tree.ndirs - 1);
	fprintf(f, "file status %llu\n", (unsigned long long)g->tree.nfiles);
	if (g->tree.nfiles > 0 && !g->dirs_only)
		fprintf(f, "f\n= %llu\n", (unsigned long long)g->tree.nfiles -
		    1);
	fprintf(f, "written by vdbc: its own layout of vdbench's file\n");
	fclose(f);
}

/* The format run of one fsd: clean, anchor, directories, files. */
static void
do_format(struct fthread *t)
{
	struct fwg *g = t->g;
	uint64_t f, n, d, t0;
	char p[FS_PATH_MAX];
	struct stat st;

	if (t->slice == g->first) {
		/* One thread of the slave prepares the tree. */
		if (stat(g->anchor, &st) != 0) {
			t0 = mtime_now_ns();
			if (mkdir(g->anchor, 0755) != 0 && errno != EEXIST) {
				note(t->w, 1, "anchor=%s: cannot create the "
				    "anchor directory: %s%s", g->anchor,
				    strerror(errno), errno == ENOENT ?
				    " (its parent must exist)" : "");
			} else {
				/* vdbench does not count the anchor. */
				(void)t0;
				note(t->w, 0, "Created anchor directory: %s",
				    g->anchor);
			}
		} else if (!S_ISDIR(st.st_mode))
			note(t->w, 1, "anchor=%s: not a directory", g->anchor);
		/* A shared fsd: only the slave with slice 0 cleans (the
		 * master lets a shared fsd clean only in a clean-only run) */
		if (!stopping(t->w) && g->format_clean && g->first == 0) {
			uint64_t gone[2] = { 0, 0 }, c0 = mtime_now_ns();
			double secs;

			note(t->w, 0, "Starting cleanup for anchor=%s",
			    g->anchor);
			clean_dir(t, g->anchor, gone);
			/* vdbench's words after its clean-up */
			secs = (double)(mtime_now_ns() - c0) / 1e9;
			if (gone[0] > 0)
				note(t->w, 0, "anchor=%s deleted %llu files; "
				    "%d/sec", g->anchor,
				    (unsigned long long)gone[0], secs > 0 ?
				    (int)((double)gone[0] / secs) : 0);
			if (gone[1] > 0)
				note(t->w, 0, "anchor=%s deleted %llu "
				    "directories; %d/sec", g->anchor,
				    (unsigned long long)gone[1], secs > 0 ?
				    (int)((double)gone[1] / secs) : 0);
		}
		for (d = 0; d < g->tree.ndirs && !stopping(t->w) &&
		    !g->clean_only; d++) {
			dir_path(g, d, p, sizeof(p));
			t0 = mtime_now_ns();
			if (mkdir(p, 0755) == 0) {
				count_op(t, FSOP_MKDIR, t0);
				count_misc(t, FSM_DIRECTORY_CREATES);
			} else if (errno == EEXIST) {
				count_misc(t, FSM_DIR_EXISTS);
			} else {
				note(t->w, 1, "anchor=%s: mkdir %s failed: %s",
				    g->anchor, p, strerror(errno));
			}
		}
		if (!stopping(t->w))
			note(t->w, 0, "anchor=%s %s complete.", g->anchor,
			    g->clean_only ? "clean" : "mkdir");
	}
	pthread_barrier_wait(&g->barrier);
	n = slice_count(g, t->slice);
	for (f = 0; f < n && !stopping(t->w) && !g->dirs_only &&
	    !g->clean_only; f++) {
		uint64_t fi = (uint64_t)t->slice + f * (uint64_t)g->total;

		file_path(g, fi, p, sizeof(p));
		if (fill_file(t, p, fstree_file_size(&g->tree, fi),
		    g->format_restart, 0) != 0)
			break;
	}
	if (__atomic_add_fetch(&g->finished, 1, __ATOMIC_ACQ_REL) ==
	    g->nthreads && !stopping(t->w) && !g->clean_only) {
		write_control(g);
		note(t->w, 0, "anchor=%s %s complete.", g->anchor,
		    g->dirs_only ? "mkdir" : "create");
	}
}

/* Read or write one selected file: open, stopafter worth, close. */
static int
rw_file(struct fthread *t, const char *path, uint64_t size, uint64_t *next)
{
	struct fwg *g = t->g;
	int writes = g->op == OP_WRITE || g->readpct >= 0;
	uint64_t t0 = mtime_now_ns(), done = 0, want, off = 0;
	int fd = -1, mode = (writes ? (g->readpct >= 0 ? O_RDWR : O_WRONLY) :
	    O_RDONLY) | O_CLOEXEC | g->oflags;

	if (g->delete_first && g->op == OP_WRITE) {
		/* fileio=(sequential,delete): a new file each time */
		if (unlink(path) == 0) {
			count_op(t, FSOP_DELETE, t0);
			count_misc(t, FSM_FILE_DELETES);
		}
		t0 = mtime_now_ns();
	} else
		fd = open(path, mode);
	if (fd < 0 && g->op == OP_WRITE && (g->delete_first ||
	    errno == ENOENT)) {
		/* operation=write makes a missing file (a create) */
		if ((fd = open(path, mode | O_CREAT | O_EXCL, 0644)) >= 0) {
			count_op(t, FSOP_CREATE, t0);
			count_misc(t, FSM_FILE_CREATES);
		}
	}
	if (fd < 0) {
		count_misc(t, errno == EEXIST ? FSM_FILE_BUSY :
		    FSM_FILE_NOT_FOUND);
		return (errno == ENOENT || errno == EEXIST ? 0 : -1);
	}
	count_op(t, FSOP_OPEN, t0);
	count_misc(t, writes ? FSM_WRITE_OPENS : FSM_READ_OPENS);
	want = g->stopafter == 0 ? size : g->stopafter > 0 ?
	    (uint64_t)g->stopafter * g->xfer.size_bytes[0] :
	    (uint64_t)(-g->stopafter / 100 * (double)size);
	while (done < want && !stopping(t->w)) {
		uint64_t x = g->xfer.kind == XFER_DIST ? g->xfer.size_bytes[
		    workload_pick(g->xfer_cum, g->xfer.n, &t->rng)] :
		    g->xfer.size_bytes[0], s;
		int dir = g->readpct >= 0 ? rng_double(&t->rng) * 100 >=
		    g->readpct : g->op == OP_WRITE;
		ssize_t r;

		if (x > size)
			x = size;
		if (x == 0)
			break;
		if (g->random_io)
			off = rng_below(&t->rng, size / x) * x;
		else if (off + x > size)
			break;		/* sequential: stop at end of file */
		if (pace(t, next) != 0)
			break;
		s = mtime_now_ns();
		r = dir ? pwrite(fd, t->buf, x, (off_t)off) :
		    pread(fd, t->buf, x, (off_t)off);
		if (r < 0) {
			note(t->w, 1, "anchor=%s: %s %s at offset %llu failed: %s",
			    g->anchor, dir ? "write" : "read", path,
			    (unsigned long long)off, strerror(errno));
			close(fd);
			return (-1);
		}
		count_io(t, dir, (uint64_t)r, mtime_now_ns() - s);
		if (!g->random_io)
			off += x;
		done += x;
	}
	close_counted(t, fd);
	return (0);
}

/* The same file in the target fsd's tree; its directory made if need be. */
static void
target_path(const struct fwg *g, uint64_t f, char *buf, size_t len)
{
	char rel[FS_PATH_MAX], *slash;

	fstree_file_path(&g->tree, f, rel, sizeof(rel));
	if (snprintf(buf, len, "%s/%s", g->target, rel) >= (int)len)
		buf[len - 1] = '\0';
	if ((slash = strrchr(buf, '/')) != NULL && slash > buf) {
		*slash = '\0';
		if (mkdir(buf, 0755) != 0 && errno == ENOENT) {
			/* the target anchor itself may be missing */
			char *up = strrchr(buf, '/');

			if (up != NULL && up > buf) {
				*up = '\0';
				mkdir(buf, 0755);
				*up = '/';
			}
			mkdir(buf, 0755);
		}
		*slash = '/';
	}
}

/* copy: the file to the target tree; move: rename it there. 0 when the
 * source is gone (already moved). */
static int
copy_move(struct fthread *t, const char *path, uint64_t fi)
{
	struct fwg *g = t->g;
	char dst[FS_PATH_MAX];
	uint64_t t0 = mtime_now_ns();
	int in, out;
	ssize_t r;

	target_path(g, fi, dst, sizeof(dst));
	if (g->op == OP_MOVE) {
		if (rename(path, dst) != 0) {
			count_misc(t, FSM_FILE_NOT_FOUND);
			return (0);
		}
		count_op(t, FSOP_MOVE, t0);
		return (1);
	}
	if ((in = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		count_misc(t, FSM_FILE_NOT_FOUND);
		return (0);
	}
	if ((out = open(dst, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
	    0644)) < 0) {
		note(t->w, 1, "copy %s to %s: %s", path, dst, strerror(errno));
		close(in);
		return (0);
	}
	/* A copy finishes its file even when the run stops: a half copy
	 * would leave the target tree short. */
	while ((r = read(in, t->buf, t->buflen)) > 0) {
		if (write(out, t->buf, (size_t)r) != r) {
			note(t->w, 1, "copy %s to %s: %s", path, dst,
			    strerror(errno));
			break;
		}
	}
	close(in);
	close(out);
	count_op(t, FSOP_COPY, t0);
	return (1);
}

/* One metadata operation on a file or directory; 0 when there was
 * nothing to do (the file exists for create, is gone for delete, ...). */
static int
meta_op(struct fthread *t, const char *path, uint64_t fi)
{
	struct fwg *g = t->g;
	uint64_t t0 = mtime_now_ns();
	struct stat st;
	int fd;

	switch (g->op) {
	case OP_CREATE:
		if ((fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
		    0644)) < 0) {
			count_misc(t, errno == EEXIST ? FSM_FILE_BUSY :
			    FSM_FILE_NOT_FOUND);
			return (0);
		}
		count_op(t, FSOP_CREATE, t0);
		count_misc(t, FSM_FILE_CREATES);
		close(fd);
		fill_file(t, path, fstree_file_size(&g->tree, fi), 0, 1);
		break;
	case OP_DELETE:
		if (unlink(path) == 0) {
			count_op(t, FSOP_DELETE, t0);
			count_misc(t, FSM_FILE_DELETES);
		} else {
			count_misc(t, FSM_FILE_NOT_FOUND);
			return (0);
		}
		break;
	case OP_OPEN:
	case OP_CLOSE:
		if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
			count_misc(t, FSM_FILE_NOT_FOUND);
			return (0);
		}
		count_op(t, FSOP_OPEN, t0);
		count_misc(t, FSM_READ_OPENS);
		close_counted(t, fd);
		break;
	case OP_GETATTR:
		if (stat(path, &st) == 0)
			count_op(t, FSOP_GETATTR, t0);
		else
			count_misc(t, FSM_FILE_NOT_FOUND);
		break;
	case OP_SETATTR:
		if (chmod(path, fi % 2 ? 0640 : 0644) == 0)
			count_op(t, FSOP_SETATTR, t0);
		else
			count_misc(t, FSM_FILE_NOT_FOUND);
		break;
	case OP_COPY:
	case OP_MOVE:
		return (copy_move(t, path, fi));
	case OP_ACCESS:
		if (access(path, R_OK) == 0)
			count_op(t, FSOP_ACCESS, t0);
		else
			count_misc(t, FSM_FILE_NOT_FOUND);
		break;
	case OP_MKDIR:
		if (mkdir(path, 0755) == 0) {
			count_op(t, FSOP_MKDIR, t0);
			count_misc(t, FSM_DIRECTORY_CREATES);
		} else {
			count_misc(t, FSM_DIR_EXISTS);
			return (0);
		}
		break;
	case OP_RMDIR:
		if (rmdir(path) == 0) {
			count_op(t, FSOP_RMDIR, t0);
			count_misc(t, FSM_DIRECTORY_DELETES);
		} else {
			count_misc(t, FSM_FILE_BUSY);
			return (0);
		}
		break;
	default:
		break;
	}
	return (1);
}

/*
 * A run thread found no more work in its share (every file created,
 * deleted, ... or fileselect=once went through it): it waits out the run
 * as vdbench's threads do. The last thread of the fwd says when, so the
 * rate while the work lasted can be told from the idle rest of the run.
 */
static void
out_of_work(struct fthread *t)
{
	struct fwg *g = t->g;
	uint64_t ns = mtime_now_ns() - t->w->go_ns;

	if (__atomic_add_fetch(&g->exhausted, 1, __ATOMIC_ACQ_REL) !=
	    g->nthreads)
		;
	else if (g->select_once)
		note(t->w, 0, "Reached 'fileselect=once' for anchor %s "
		    "(fwd=%s, operation=%s, after %.3f s of the run)",
		    g->anchor, g->fwd, op_words[g->op], (double)ns / 1e9);
	else
		note(t->w, 0, "fwd=%s,fsd=%s: every thread's share of %s "
		    "is done after %.3f s of the run (operation=%s); the "
		    "threads wait for the run's end", g->fwd, g->fsd,
		    g->op == OP_MKDIR || g->op == OP_RMDIR ? "directories" :
		    "files", (double)ns / 1e9, op_words[g->op]);
	while (!stopping(t->w))
		usleep(20000);
}

/*
 * Several fwgs on one anchor (two fwds, or rd operations=) share a bitmap
 * of the files in use, so no two threads work on one file at once, as
 * vdbench's busy flag; one fwg alone needs none (its threads' slices do
 * not overlap). fileio=(random,shared) opts out.
 */
static int
file_take(struct fwg *g, uint64_t fi)
{
	uint64_t bit = 1ull << (fi % 64);

	if (g->busy == NULL)
		return (1);
	return (!(__atomic_fetch_or(&g->busy[fi / 64], bit, __ATOMIC_ACQ_REL) &
	    bit));
}

static void
file_give(struct fwg *g, uint64_t fi)
{
	if (g->busy != NULL)
		__atomic_fetch_and(&g->busy[fi / 64], ~(1ull << (fi % 64)),
		    __ATOMIC_RELEASE);
}

/*
 * fileselect=poisson: the thread's n files in 4*mid+1 equal buckets; the
 * bucket is a Poisson(mid) draw (redrawn past the last), the file uniform
 * within it. Selections pile up around bucket mid, about mid/(4*mid+1) of
 * the way into the list, and thin out on both sides.
 */
static uint64_t
pick_poisson(struct fthread *t, uint64_t n)
{
	double mid = t->g->poisson_mid, limit = exp(-mid), p;
	uint64_t nb = (uint64_t)(4 * mid) + 1, b, lo, hi;
	int tries = 0;

	if (nb > n)
		nb = n;		/* fewer files than buckets */
	do {	/* Knuth's product of uniforms; mid is small */
		b = 0;
		p = rng_double(&t->rng);
		while (p > limit) {
			b++;
			p *= rng_double(&t->rng);
		}
		/* with few files the tail may be all there is: give up
		 * on the shape rather than loop */
		if (b >= nb && ++tries > 64)
			b = rng_below(&t->rng, nb);
	} while (b >= nb);
	lo = b * n / nb;
	hi = (b + 1) * n / nb;
	return (lo + rng_below(&t->rng, hi > lo ? hi - lo : 1));
}

/* A run thread: pick, operate, until stopped. */
static void
do_run(struct fthread *t)
{
	struct fwg *g = t->g;
	int dirs = g->op == OP_MKDIR || g->op == OP_RMDIR;
	uint64_t n = dirs ? g->tree.ndirs : g->shared_files ?
	    g->tree.nfiles : slice_count(g, t->slice);
	uint64_t k = 0, next = t->w->go_ns, fi, misses = 0, busy_in_row = 0;
	char p[FS_PATH_MAX];

	if (dirs) {
		/* Directories are few: thread slices, deepest first for
		 * rmdir so parents empty out. */
		n = g->tree.ndirs > (uint64_t)t->slice ? (g->tree.ndirs -
		    (uint64_t)t->slice + (uint64_t)g->total - 1) /
		    (uint64_t)g->total : 0;
	}
	if (n == 0) {
		note(t->w, 0, "fwd=%s: thread %d has no %s of anchor=%s to work "
		    "on", g->fwd, t->slice, dirs ? "directory" : "file",
		    g->anchor);
		return;
	}
	while (!stopping(t->w)) {
		uint64_t j = g->poisson_mid > 0 ? pick_poisson(t, n) :
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
		if (g->op == OP_READ || g->op == OP_WRITE) {
			int rc = rw_file(t, p, fstree_file_size(&g->tree, fi),
			    &next);

			file_give(g, fi);
			if (rc != 0)
				break;
			continue;
		}
		if (pace(t, &next) != 0) {
			file_give(g, fi);
			break;
		}
		misses = meta_op(t, p, fi) ? 0 : misses + 1;
		if (!dirs)
			file_give(g, fi);
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
	int i, k;

	g->readpct = d->readpct;
	g->stopafter = d->stopafter;
	g->nthreads = d->threads;
	g->first = d->thread_first;
	g->total = d->thread_total;
	g->rate_per_s = d->rate_per_s;
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
	for (i = 0; i < flags->n; i++) {
		const char *fl = flags->v[i];

		if (strcasecmp(fl, "o_direct") == 0 ||
		    strcasecmp(fl, "directio") == 0)
			g->oflags |= O_DIRECT;
		else if (strcasecmp(fl, "o_sync") == 0)
			g->oflags |= O_SYNC;
		else if (strcasecmp(fl, "o_dsync") == 0)
			g->oflags |= O_DSYNC;
	}
	g->format_clean = fs->clean;
	g->format_restart = fs->restart;
	g->dirs_only = fs->dirs_only;
	g->clean_only = fs->clean_only;
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
fswork_new(const struct slave_work *sw, uint64_t seed, struct errmsg *e)
{
	struct fswork *w;
	int i, k, t = 0, slave_index = sw->slave_index;

	if (sw->nfwgs == 0) {
		errmsg_set(e, NULL, 0, 0, "WORK: no fwgs");
		return (NULL);
	}
	w = xcalloc(1, sizeof(*w));
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
			th->buflen = big;
			if (posix_memalign((void **)&th->buf, 4096, big) != 0)
				th->buf = NULL;
			if (th->buf == NULL) {
				errmsg_set(e, NULL, 0, 0, "out of memory");
				fswork_free(w);
				return (NULL);
			}
			memset(th->buf, 0, big);
			{
				uint64_t q;

				for (q = 0; q + 8 <= big; q += 8) {
					uint64_t r = rng_u64(&th->rng);

					memcpy(th->buf + q, &r, 8);
				}
			}
		}
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
		free(w->threads[i].buf);
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
	free(w->ibase);
	free(w->threads);
	free(w->fwgs);
	free(w->error);
	strlist_clear(&w->notes);
	pthread_mutex_destroy(&w->mu);
	free(w);
}


json_t *
fswork_stats_json(struct fswork *w, uint64_t k)
{
	json_t *out = json_array();
	struct hist *sum[2] = { hist_new(), hist_new() }, *snap = hist_new();
	int g, i, d;
	size_t q;

	(void)k;
	if (w->ibase == NULL) {
		w->ibase = xcalloc((size_t)w->nfwgs, sizeof(*w->ibase));
		for (g = 0; g < w->nfwgs; g++)
			interval_base_init(&w->ibase[g]);
	}
	for (g = 0; g < w->nfwgs; g++) {
		struct iostats io;
		struct vdbhist vh[2];

		memset(&io, 0, sizeof(io));
		memset(vh, 0, sizeof(vh));
		hist_reset(sum[0]);
		hist_reset(sum[1]);
		for (i = 0; i < w->nthreads; i++) {
			struct fthread *t = &w->threads[i];
			const uint64_t *src = (const uint64_t *)&t->st.io;
			uint64_t *dst = (uint64_t *)&io;

			if (t->g != &w->fwgs[g])
				continue;
			/* iostats is all uint64_t: sum field by field;
			 * maxima are fields too, and a sum of maxima
			 * would lie, so take those apart below. */
			for (q = 0; q < sizeof(io) / sizeof(uint64_t); q++)
				dst[q] += __atomic_load_n(&src[q],
				    __ATOMIC_RELAXED);
			for (d = 0; d < 2; d++) {
				unsigned int b;

				for (b = 0; b <= w->edges.n; b++)
					vh[d].count[b] += __atomic_load_n(
					    &t->st.vh[d].count[b],
					    __ATOMIC_RELAXED);
				hist_snapshot(snap, t->st.h[d]);
				hist_merge(sum[d], snap);
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
		json_array_append_new(out, interval_encode(&w->ibase[g], &io,
		    sum, NULL, vh, w->edges.n + 1));
	}
	hist_free(sum[0]);
	hist_free(sum[1]);
	hist_free(snap);
	return (out);
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

const char *
fswork_error(const struct fswork *w)
{
	return (__atomic_load_n(&w->error, __ATOMIC_ACQUIRE));
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
