/* SPDX-License-Identifier: MIT */
/*
 * Which file a run thread works on next: its slice of the files,
 * the busy bitmap of an anchor shared by several fwgs,
 * fileselect=poisson, and waiting out the run when the work is done.
 */
#include "fs_int.h"

#include <math.h>
#include <unistd.h>

#include "mtime.h"
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
