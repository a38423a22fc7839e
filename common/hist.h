/* SPDX-License-Identifier: MIT */
#ifndef COMMON_HIST_H
#define COMMON_HIST_H

#include <stdint.h>

#include <jansson.h>

#include "errmsg.h"

/*
 * Log-linear latency histogram: exact below 64 ns, then 64 sub-buckets per
 * power of two, so a percentile taken from a bucket midpoint is within
 * 0.8 % of the true sample at any magnitude (fio uses the same layout).
 * Single writer: each I/O worker owns one and adds with release stores
 * (so it can sit in a seqcount group, seqcount.h); a reader may take a
 * snapshot at any time without stopping it.
 */
#define HIST_SUB_BITS	6
#define HIST_SUB	(1u << HIST_SUB_BITS)
#define HIST_NBUCKETS	((64 - HIST_SUB_BITS + 1) * HIST_SUB)

struct hist;

struct hist	*hist_new(void);
void		 hist_free(struct hist *);
/* n empty histograms in one anonymous mapping whose pages the kernel
 * gives only when a histogram's used buckets reach them (a histogram is
 * 30 KiB, a run's latencies touch a page or two of it): many threads'
 * histograms cost what they hold. hist_array_at(a, i) is the i-th. */
struct hist	*hist_array_new(unsigned int n);
struct hist	*hist_array_at(struct hist *a, unsigned int i);
void		 hist_array_free(struct hist *a, unsigned int n);
/* Empty histograms i .. i + n - 1 of an array and give the kernel back
 * the pages that lie wholly inside them (they read as zero again). */
void		 hist_array_drop(struct hist *a, unsigned int i, unsigned int n);
void		 hist_reset(struct hist *);
void		 hist_add(struct hist *, uint64_t lat_ns);
/* dst += src (dst must not be written concurrently). */
void		 hist_merge(struct hist *dst, const struct hist *src);
/* dst = now - prev, bucket by bucket (for interval deltas); the max is
 * the interval's own: exact when it raised now's max, else the top of
 * the highest bucket the interval used (never above now's max). -1 (dst
 * empty) when a count or the max of now is below prev's: cumulative
 * histograms never shrink. */
int		 hist_delta(struct hist *dst, const struct hist *now,
		    const struct hist *prev);
/* Take max_ns as the max if it lies in h's highest used bucket (an exact
 * per-interval max counted beside the histogram); else leave it. */
void		 hist_exact_max(struct hist *, uint64_t max_ns);
/* Copy a histogram that its writer may be updating. */
void		 hist_snapshot(struct hist *dst, const struct hist *src);
/* The writer of src copies it into dst for readers that copy dst with
 * hist_snapshot (release stores, as hist_add). dst is empty or an
 * earlier copy of src: cumulative histograms only grow. */
void		 hist_publish(struct hist *dst, const struct hist *src);
uint64_t	 hist_count(const struct hist *);
uint64_t	 hist_max_ns(const struct hist *);
/* The sample at rank ceil(pct/100 * count), from its bucket's midpoint. */
uint64_t	 hist_percentile_ns(const struct hist *, double pct);

/* Bucket geometry, for tests and for the sparse wire form. */
unsigned int	 hist_bucket_of(uint64_t ns);
uint64_t	 hist_bucket_low_ns(unsigned int idx);
uint64_t	 hist_bucket_width_ns(unsigned int idx);

/* Sparse access (the INTERVAL codec): the used range [lo, hi), one
 * bucket's count, and adding n samples to bucket idx, which raises the
 * max to the top of that bucket; -1 when idx is out of range or the
 * count would overflow 64 bits. */
void		 hist_used(const struct hist *, unsigned int *lo,
		    unsigned int *hi);
uint64_t	 hist_bucket(const struct hist *, unsigned int idx);
int		 hist_add_bucket(struct hist *, unsigned int idx, uint64_t n);

/* Sparse JSON: {"n":count,"max_ns":m,"b":[[idx,count],...]}. */
json_t		*hist_to_json(const struct hist *);
int		 hist_from_json(struct hist *, const json_t *, struct errmsg *);

#endif /* COMMON_HIST_H */
