/* SPDX-License-Identifier: MIT */
#ifndef SLAVE_WORKLOAD_H
#define SLAVE_WORKLOAD_H

#include <stdint.h>

#include "model.h"
#include "rng.h"

/*
 * The generators of one I/O (PARMFILE.md 12.7): which workload, read or
 * write, how many bytes, where. Pure functions of a WG and the calling
 * thread's random stream, except the sequential cursor, which the threads
 * of a WG share through one atomic (DESIGN.md). Unit-tested for ranges,
 * alignment, evenness and the requested mixes.
 */
/* A workload generator: one (wd, sd) pair on this slave. */
struct wg {
	char		*wd;
	int		 sdi;
	double		 skew_pct;
	double		 readpct, seekpct, rhpct, whpct;
	int		 seek_eof;
	struct xfer	 xfer;
	double		*xfer_cum;	/* cumulative pct, XFER_DIST */
	uint64_t	 low, high;	/* miss area, bytes */
	uint64_t	 hit_low, hit_high;
	uint64_t	 align;		/* 0 = on xfersize */
	int		 hot;		/* hotband: random lbas skewed low */
	uint64_t	 stride_min, stride_max;	/* stride=; max 0 = off */
	uint64_t	 wrap_end, wrap_to;	/* hotband past the end; 0 = off */
	uint64_t	 stride_cursor;	/* previous stride lba; atomic */
	uint64_t	 cursor;	/* next sequential address; atomic */
	uint64_t	 hit_cursor;	/* same in the hit area; atomic */
	int		 eof;		/* reached the end; atomic */
	int		 priority;	/* wd priority=; 0 = none, 1 first */
	double		 poisson_mid;	/* seekpct=poisson: > 0 */
	int		 streams;	/* streams=: 0 or >= 2 */
	uint64_t	*stream_low;	/* streams entries each: its part */
	uint64_t	*stream_high;	/* of the miss area, and its */
	uint64_t	*stream_cursor;	/* sequential cursor (atomic) */
};

/* Index in [0, n) picked by cumulative weights cum (cum[n-1] = total). */
int		workload_pick(const double *cum, int n, struct rng *);
/* 0 = read, 1 = write, by the WG's readpct. */
int		workload_dir(const struct wg *, struct rng *);
/* A transfer size: single, distribution or (min,max,align). */
uint64_t	workload_xfer(const struct wg *, struct rng *);
/*
 * An address for *len bytes in the hit or miss area: random (aligned to
 * the transfer size, or to align=; uniform, or with hotband skewed to the
 * low end of the band, or with stride= a step from the previous random
 * lba) or sequential through the shared cursor; *len may shrink at the
 * end of the area. UINT64_MAX: a seekpct=eof WG has reached the end.
 *
 * The hotband curve is vdbc's own (vdbench publishes none): the block
 * index is floor(u^3 * blocks) for a uniform u, so the lowest fraction f
 * of the band gets f^(1/3) of the random I/Os (1 % of it: 21.5 %, 10 %:
 * 46.4 %); a cache of any size sees a hit ratio that grows slower than
 * linearly with it, as vdbench describes hotband.
 */
uint64_t	workload_addr(struct wg *, struct rng *, int hit, uint64_t *len);
/*
 * The same for the I/O lane'th of the sd's threads= (its OS thread, or
 * its slot of an engine with one thread). With streams=n the miss area
 * is cut into n parts, aligned to unit, and lane k works in part k % n
 * with a sequential cursor of its own: n independent sequential streams
 * (random I/Os stay inside the part too).
 */
uint64_t	workload_addr_lane(struct wg *, struct rng *, int hit,
		    uint64_t *len, int lane);
/* streams=n on g's miss area, parts aligned to unit; -1: too small. */
int		workload_streams_init(struct wg *, int n, uint64_t unit);
void		workload_streams_free(struct wg *);
/*
 * seekpct=poisson: a block below n as vdbench 5.04.06 draws it
 * (ownmath.distPoisson, called from WG_entry.blockBoundarySeek):
 * (long)(-ln(U) * n/mid) % n, U uniform in [0,1) and 0 when U is 0. An
 * exponential with its mean at n/mid (a third of the range at vdbench's
 * default midpoint 3) wrapped over the range: most I/O at the start, a
 * tail over all of it. fileselect=poisson picks a file the same way
 * (slave/fs_select.c).
 */
uint64_t	workload_poisson(struct rng *, double mid, uint64_t n);

#endif /* SLAVE_WORKLOAD_H */
