/* SPDX-License-Identifier: MIT */
#ifndef SLAVE_WSTATS_H
#define SLAVE_WSTATS_H

/*
 * A raw run's counters: one struct wstat per (I/O thread, WG of its sd),
 * written by that thread alone and published whole through a seqcount
 * (common/seqcount.h), and the interval snapshot that sums them per WG
 * (work_stats_json, work.h). The types are in work_int.h.
 */
#include <stdint.h>

#include "work_int.h"

/* Close the intervals before k (work_int.h, struct wstat): inside the
 * thread's seqcount group. */
void	wstats_close(const struct work *w, struct wstat *st, uint64_t k);

/* Count one completed I/O into the thread's own counters, published
 * whole (seqcount.h): a snapshot sees all of this I/O or none of it. It
 * belongs to the interval it completed in (GO + k * interval). */
static inline void
wstats_count(struct work *w, struct wstat *st, int dir, uint64_t bytes,
    uint64_t lat_ns, uint64_t now_ns)
{
	struct dirstat *d = &st->d[dir];
	uint64_t us = (lat_ns + 500) / 1000;
	uint64_t k = (now_ns - w->go_ns) / w->interval_ns + 1;
	unsigned int slot = (unsigned int)(k % MAX_SLOTS);
	unsigned int b = vdbhist_bucket_of(&w->edges, lat_ns);

	seqcount_write_begin(&st->seq);
	if (k > st->open_k)
		wstats_close(w, st, k);
	seqcount_add(&d->ios, 1);
	seqcount_add(&d->bytes, bytes);
	seqcount_add(&d->resp_sum_ns, lat_ns);
	seqcount_add(&d->resp_sumsq_us2, us * us);
	seqcount_add(&d->vh.count[b], 1);
	hist_add(st->h[dir], lat_ns);
	if (ld64(&d->max_k[slot]) != k) {
		seqcount_put(&d->max_ns[slot], 0);
		seqcount_put(&d->max_k[slot], k);
	}
	if (lat_ns > ld64(&d->max_ns[slot]))
		seqcount_put(&d->max_ns[slot], lat_ns);
	seqcount_write_end(&st->seq);
}

/* A thread's counters for the nwgs WGs of its sd (and the lateness
 * histograms at a fixed rate); freed with wstats_thread_free. */
struct wstat	*wstats_thread_new(int nwgs, int fixed_rate);
void		 wstats_thread_free(struct wstat *, int nwgs);

#endif /* SLAVE_WSTATS_H */
