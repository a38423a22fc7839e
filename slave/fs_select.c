/* SPDX-License-Identifier: MIT */
/*
 * Which file a run thread works on next: its slice of the files,
 * the busy bitmap of an anchor shared by several fwgs,
 * fileselect=poisson, and waiting out the run when the work is done.
 */
#include "fs_int.h"

#include <dirent.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mtime.h"
#include "work.h"
#include "workload.h"

/* Files of this thread's slice: f = slice, slice + total, ... */
uint64_t
slice_count(const struct fwg *g, int slice)
{
	uint64_t n = g->tree.nfiles;

	return (n > (uint64_t)slice ? (n - (uint64_t)slice +
	    (uint64_t)g->total - 1) / (uint64_t)g->total : 0);
}

/*
 * A run thread found no more work in its share (every file created,
 * deleted, ... or fileselect=once went through it): it waits out the run
 * as vdbench's threads do. The last thread of the fwd says when, so the
 * rate while the work lasted can be told from the idle rest of the run.
 */
void
out_of_work(struct fthread *t)
{
	struct fwg *g = t->g;
	uint64_t ns = mtime_now_ns() - t->w->go_ns;

	if (__atomic_add_fetch(&g->exhausted, 1, __ATOMIC_ACQ_REL) !=
	    g->nthreads)
		;
	else if (g->select_once)
		fs_note(t->w, 0, "Reached 'fileselect=once' for anchor %s "
		    "(fwd=%s, operation=%s, after %.3f s of the run)",
		    g->anchor, g->fwd, op_words[g->op], (double)ns / 1e9);
	else
		fs_note(t->w, 0, "fwd=%s,fsd=%s: every thread's share of %s "
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
int
file_take(struct fwg *g, uint64_t fi)
{
	uint64_t bit = 1ull << (fi % 64);

	if (g->busy == NULL)
		return (1);
	return (!(__atomic_fetch_or(&g->busy[fi / 64], bit, __ATOMIC_ACQ_REL) &
	    bit));
}

void
file_give(struct fwg *g, uint64_t fi)
{
	if (g->busy != NULL)
		__atomic_fetch_and(&g->busy[fi / 64], ~(1ull << (fi % 64)),
		    __ATOMIC_RELEASE);
}

/*
 * fileselect=poisson (skewed, midpoint=N): a file of the thread's n as
 * vdbench's FileAnchor.getFile picks one, ownmath.distPoisson(files,
 * midpoint): the draw of seekpct=poisson (slave/workload.h).
 */
uint64_t
pick_poisson(struct fthread *t, uint64_t n)
{
	return (workload_poisson(&t->rng, t->g->poisson_mid, n));
}

/* files_state of an fwg: not known yet, being looked at, some file
 * exists (or one can be made), none exists and none can come. */
enum { FILES_UNKNOWN, FILES_PROBING, FILES_SOME, FILES_NONE };

int
op_needs_file(const struct fwg *g)
{
	switch (g->op) {
	case OP_READ:
		return (g->readpct < 0);	/* a mix writes: makes files */
	case OP_GETATTR:
	case OP_SETATTR:
	case OP_ACCESS:
	case OP_COPY:
	case OP_MOVE:
		return (1);
	default:
		return (0);
	}
}

/* Does any fwg of this slave make files in g's anchor (vdbench's
 * SlaveWorker.canWeExpectFileCreates; vdbc's operation=write makes a
 * missing file too, a copy or move fills its target)? */
static int
files_can_come(const struct fswork *w, const struct fwg *g)
{
	int i;

	for (i = 0; i < w->nfwgs; i++) {
		const struct fwg *x = &w->fwgs[i];

		if (x->op == OP_CREATE || (x->op == OP_WRITE &&
		    strcmp(x->anchor, g->anchor) == 0) || (x->op == OP_READ &&
		    x->readpct >= 0 && strcmp(x->anchor, g->anchor) == 0) ||
		    ((x->op == OP_COPY || x->op == OP_MOVE) && x->target !=
		    NULL && strcmp(x->target, g->anchor) == 0))
			return (1);
	}
	return (0);
}

/* Is there a file of the tree in holder directory h? One readdir. */
static int
holder_has_file(const struct fwg *g, uint64_t h)
{
	uint64_t fpd = g->tree.files_per_dir, first = h * fpd;
	char p[FS_PATH_MAX], *slash;
	struct dirent *de;
	int dfd, found = 0;
	DIR *d;

	file_path(g, first, p, sizeof(p));
	if ((slash = strrchr(p, '/')) != NULL)
		*slash = '\0';
	if ((dfd = open(p, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return (0);
	if ((d = fdopendir(dfd)) == NULL) {
		close(dfd);
		return (0);
	}
	while (!found && (de = readdir(d)) != NULL) {
		unsigned long long num;
		char tail[8];
		struct stat st;

		if (sscanf(de->d_name, "vdb_f%llu.fil%1s", &num, tail) == 2 &&
		    strcmp(tail, "e") == 0 && num >= 1 && num <= fpd &&
		    first + num - 1 < g->tree.nfiles &&
		    fstatat(dfd, de->d_name, &st, 0) == 0 &&
		    S_ISREG(st.st_mode))
			found = 1;
	}
	closedir(d);
	return (found);
}

/* vdbench's message, as its slave sends it to the console. */
static void
say_no_files(struct fswork *w, const struct fwg *g)
{
	int rd = g->op == OP_READ || g->op == OP_COPY || g->op == OP_MOVE;
	const char *what = rd ? "read from a file, but no files are "
	    "available, and no" : g->op == OP_SETATTR ? "change attributes "
	    "for a file, but there are no files" : "get attributes for a "
	    "file, but there are no files";

	fs_note(w, 0, "%cAnchor: %s", WORK_MESSAGE_MARK, g->anchor);
	fs_note(w, 0, "%cVdbench is trying to %s", WORK_MESSAGE_MARK, what);
	fs_note(w, 0, "%c%s", WORK_MESSAGE_MARK, rd ? "threads are currently "
	    "active creating new files" : "available, and there are no "
	    "threads currently active that can create new files.");
	fs_note(w, 0, "%cFwgThread.canWeGetMoreFiles(): Shutting down threads "
	    "for operation=%s", WORK_MESSAGE_MARK, op_words[g->op]);
	fs_note(w, 0, "%c", WORK_MESSAGE_MARK);
}

/*
 * vdbench's FwgThread.canWeGetMoreFiles: the file an operation needs is
 * missing. When no file of the anchor exists and no fwd of this slave
 * makes files, vdbench shuts the fwd's threads down, says so once
 * (SlaveJvm.sendMessageToConsole) and the run ends when every thread
 * has. The tree is looked at once per fwg and run, by the first thread
 * to miss; the others go on meanwhile. 1: this thread is to end.
 */
int
no_files_left(struct fthread *t)
{
	struct fwg *g = t->g;
	int st = FILES_UNKNOWN, found = 0;
	uint64_t h, holders;

	if (__atomic_compare_exchange_n(&g->files_state, &st, FILES_PROBING,
	    0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		holders = g->tree.files_per_dir == 0 ? 0 : (g->tree.nfiles +
		    g->tree.files_per_dir - 1) / g->tree.files_per_dir;
		found = files_can_come(t->w, g);
		for (h = 0; !found && h < holders && !stopping(t->w); h++)
			found = holder_has_file(g, h);
		st = found || stopping(t->w) ? FILES_SOME : FILES_NONE;
		if (st == FILES_NONE)
			say_no_files(t->w, g);
		__atomic_store_n(&g->files_state, st, __ATOMIC_RELEASE);
	} else if (st == FILES_PROBING)
		return (0);
	if (st != FILES_NONE)
		return (0);
	__atomic_add_fetch(&g->quit, 1, __ATOMIC_ACQ_REL);
	return (1);
}
