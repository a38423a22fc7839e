/* SPDX-License-Identifier: MIT */
#ifndef MASTER_MERGE_H
#define MASTER_MERGE_H

#include <stdint.h>

#include "errmsg.h"
#include "hist.h"
#include "iostats.h"
#include "vdbhist.h"

/*
 * Interval merging for one run: each slave's per-WG deltas are summed
 * into every report key the WG belongs to (total, host, slave, sd, wd).
 * Intervals not printed yet wait in a small ring; printed ones are added
 * to the run's sums (all intervals, and those the avg line names).
 * Counters only, never rates, so every sum is exact.
 */
#define MERGE_RING	64	/* intervals a slave may run ahead */
#define MERGE_KEYS_PER_WG 7	/* total, host, slave, sd, wd, host.sd, slave.sd */

struct kacc {
	struct iostats	 st;
	struct vdbhist	 vdb[2];	/* vdbench buckets, read/write */
	struct hist	*h[2];		/* log-linear, read/write */
	struct hist	*sched;		/* delay from scheduled start */
	uint64_t	 cpu[7];	/* a host key: its own /proc/stat
					 * tick deltas (merge_add_cpu) */
	int		 cpu_valid;
};

struct iacc {
	unsigned int	 k;		/* interval number */
	int		 nrep;		/* slaves that reported it */
	uint64_t	 dur_sum_ns;	/* summed over those slaves */
	uint64_t	 cpu[7];	/* /proc/stat tick deltas */
	int		 cpu_valid;
	int		 nkeys;
	struct kacc	*keys;
	struct hist	*pool;		/* the keys' histograms (merge.c) */
};

struct merge;

struct merge	*merge_new(int nkeys);
void		 merge_free(struct merge *);
/* The slot of interval k; NULL when k is printed or too far ahead. */
struct iacc	*merge_slot(struct merge *, unsigned int k,
		    unsigned int next_print);
/* Add one WG's interval deltas to the keys it belongs to. */
void		 merge_add(struct iacc *, const int keys[MERGE_KEYS_PER_WG],
		    const struct iostats *, struct hist *const dh[2],
		    const struct vdbhist dvdb[2], const struct hist *dsched);
/* One host's CPU tick deltas into its key (a host's report shows its
 * own CPU, not every host's). */
void		 merge_add_cpu(struct iacc *, int key, const uint64_t d[7]);
/* Interval a was printed: add it to the sums, then empty its slot. */
void		 merge_printed(struct merge *, struct iacc *, int in_avg);
/* The run's sums: the avg intervals, or all when none was measured. */
const struct iacc *merge_sum(const struct merge *);
/* The sums of every printed interval. */
const struct iacc *merge_all(const struct merge *);
/*
 * A slave's word is checked before it is believed: one WG's cumulative
 * counters now against prev, for an interval of dur_ns ending elapsed_ns
 * after GO. -1 with the field named in e when a counter went backwards,
 * or a delta is beyond anything a slave can do: more than
 * MERGE_MAX_PER_NS events per nanosecond, more than MERGE_MAX_XFER bytes
 * per I/O (Linux moves at most 2 GiB - 4 KiB per call), a response
 * longer than the run so far (plus MERGE_SLACK_NS), a response-time sum
 * or sum of squares that n such responses cannot reach.
 */
#define MERGE_MAX_PER_NS	4
#define MERGE_MAX_XFER		(1ull << 31)
#define MERGE_SLACK_NS		1000000000ull
int		 merge_check_stats(const struct iostats *now,
		    const struct iostats *prev, uint64_t dur_ns,
		    uint64_t elapsed_ns, struct errmsg *e);
/* The same for a histogram delta d (of dur_ns, elapsed_ns after GO). */
int		 merge_check_hist(const struct hist *d, uint64_t dur_ns,
		    uint64_t elapsed_ns, struct errmsg *e);
/* The mean duration of an interval over the slaves that reported it. */
uint64_t	 merge_duration_ns(const struct iacc *);

#endif /* MASTER_MERGE_H */
