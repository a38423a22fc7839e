/* SPDX-License-Identifier: MIT */
#ifndef COMMON_INTERVAL_JSON_H
#define COMMON_INTERVAL_JSON_H

#include <jansson.h>

#include "errmsg.h"
#include "hist.h"
#include "iostats.h"
#include "vdbhist.h"

/*
 * The INTERVAL body's per-WG stats (proto/PROTOCOL.md "Counters on the
 * wire"): one codec, the slave encodes with it and the master decodes.
 * An entry carries what happened in the interval only (deltas since the
 * previous INTERVAL), histograms sparse, nothing static (the WG is known
 * by its position in WORK order). Every key is optional; absent is zero:
 *   "io": [read ios, bytes, resp_sum_ns, resp_sumsq_us2, resp_max_ns,
 *          errors, the same six for write, qdepth_ns, busy_ns]
 *   "fs": {"req": [n, resp_ns], "ops": {op: [n, resp_sum_ns, resp_max_ns]},
 *          "misc": {counter: n}}			(file-system runs)
 *   "hr", "hw", "hs": read, write and scheduling-delay histograms,
 *          [bucket, count, bucket, count, ...], buckets ascending,
 *          counts > 0 (common/hist.h buckets)
 *   "vr", "vw": vdbench buckets, the same flat form
 */
struct interval_wg {
	struct iostats	 io;	/* deltas; resp_max_ns of the interval */
	struct hist	*h[2];	/* read, write (the caller's) */
	struct hist	*sched;	/* delay from scheduled start (the caller's) */
	struct vdbhist	 vdb[2];
	unsigned int	 nvdb;	/* vdbench buckets in use (edges + 1) */
};

/* The sender's cumulative counters of one WG at its previous INTERVAL. */
struct interval_base {
	struct iostats	 io;
	struct hist	*h[2];
	struct hist	*sched;
	struct vdbhist	 vdb[2];
};

void	 interval_base_init(struct interval_base *);
void	 interval_base_free(struct interval_base *);

/*
 * A sender's working histograms, made once per run and reused by every
 * INTERVAL: sum and snap for summing threads, sched, and out for
 * interval_encode. A 30 KiB histogram is a mapping of its own in a slave
 * (slave/main.c's M_MMAP_THRESHOLD), so making them per INTERVAL cost
 * every slave eight mmap/munmap pairs a second, each munmap a TLB
 * shootdown across the cores its threads ran on: a fifth of an idle
 * slave's CPU at 256 slaves (issue 28).
 */
struct interval_scratch {
	struct hist		*sum[2];
	struct hist		*snap[2];
	struct hist		*sched;
	struct interval_wg	 out;
};

void	 interval_scratch_init(struct interval_scratch *);
void	 interval_scratch_free(struct interval_scratch *);
/*
 * out = now - base, then base = now. now's resp_max_ns (and the fs
 * operations' maxima) are already the interval's own; now_sched may be
 * NULL. out's histograms must be allocated by the caller.
 */
void	 interval_delta(struct interval_wg *out, struct interval_base *base,
	    const struct iostats *now, struct hist *const now_h[2],
	    const struct hist *now_sched, const struct vdbhist now_vdb[2],
	    unsigned int nvdb);

json_t	*interval_wg_to_json(const struct interval_wg *);
/* The sender's step: interval_delta into out (histograms the caller's:
 * interval_scratch's), then interval_wg_to_json. */
json_t	*interval_encode(struct interval_base *, struct interval_wg *out,
	    const struct iostats *now,
	    struct hist *const now_h[2], const struct hist *now_sched,
	    const struct vdbhist now_vdb[2], unsigned int nvdb);
/* Decode one entry into w (its h[] and sched allocated by the caller,
 * reset here); -1 with e naming the field on anything malformed. */
int	 interval_wg_from_json(struct interval_wg *w, const json_t *,
	    struct errmsg *e);

#endif /* COMMON_INTERVAL_JSON_H */
