/* SPDX-License-Identifier: MIT */
/*
 * A raw run's counters and their snapshot (wstats.h).
 */
#include "wstats.h"

#include <string.h>

#include <jansson.h>

#include "fswork.h"
#include "iostats.h"
#include "work.h"
#include "xmalloc.h"

/* A thread's counters (wstats.h). */
struct wstat *
wstats_thread_new(int nwgs, int fixed_rate)
{
	struct wstat *st = xcalloc((size_t)nwgs, sizeof(*st));
	int g;

	for (g = 0; g < nwgs; g++) {
		st[g].h[0] = hist_new();
		st[g].h[1] = hist_new();
		if (fixed_rate)
			st[g].sched = hist_new();
	}
	return (st);
}

void
wstats_thread_free(struct wstat *st, int nwgs)
{
	int g;

	for (g = 0; st != NULL && g < nwgs; g++) {
		hist_free(st[g].h[0]);
		hist_free(st[g].h[1]);
		hist_free(st[g].sched);
	}
	free(st);
}

/*
 * One thread's counters of one WG for interval k, copied whole (seqcount.h)
 * into side[], vh[] and h[] (which it resets), so bytes, response times,
 * buckets and the histogram always belong to the same I/Os.
 */
static void
wstat_copy(const struct work *w, struct wstat *st, uint64_t k,
    struct iostats_side side[2], struct vdbhist vh[2], struct hist *h[2])
{
	unsigned int slot = (unsigned int)(k % MAX_SLOTS), tries = 0, b;
	uint32_t seq;
	int d;

	do {
		seq = seqcount_read_begin(&st->seq, tries);
		for (d = 0; d < 2; d++) {
			struct dirstat *x = &st->d[d];
			struct iostats_side *o = &side[d];

			o->ios = seqcount_get(&x->ios);
			o->bytes = seqcount_get(&x->bytes);
			o->resp_sum_ns = seqcount_get(&x->resp_sum_ns);
			o->resp_sumsq_us2 = seqcount_get(&x->resp_sumsq_us2);
			o->errors = ld64(&x->errors);
			o->resp_max_ns = seqcount_get(&x->max_k[slot]) == k ?
			    seqcount_get(&x->max_ns[slot]) : 0;
			for (b = 0; b <= w->edges.n; b++)
				vh[d].count[b] = seqcount_get(&x->vh.count[b]);
			hist_snapshot(h[d], st->h[d]);
		}
	} while (seqcount_read_retry(&st->seq, seq, tries++));
}

/* Every WG's counters since the previous call (the INTERVAL "stats", and
 * RUN_END's tail after the last INTERVAL), summed over the threads of
 * its sd (the only ones that carry it), each thread's copied whole. */
json_t *
work_stats_json(struct work *w, uint64_t k)
{
	json_t *out = json_array();
	struct hist *sum[2], *snap[2];
	struct hist *sched;
	int g, i, d, s;

	if (w->fs != NULL) {
		json_decref(out);
		return (fswork_stats_json(w->fs, k));
	}
	if (w->ibase == NULL) {
		w->ibase = xcalloc((size_t)w->nwgs, sizeof(*w->ibase));
		for (g = 0; g < w->nwgs; g++)
			interval_base_init(&w->ibase[g]);
	}
	snap[0] = hist_new();
	snap[1] = hist_new();
	sched = hist_new();
	sum[0] = hist_new();
	sum[1] = hist_new();

	for (g = 0; g < w->nwgs; g++) {
		struct iostats io;
		struct vdbhist vh[2];

		memset(&io, 0, sizeof(io));
		memset(vh, 0, sizeof(vh));
		hist_reset(sum[0]);
		hist_reset(sum[1]);
		hist_reset(sched);
		s = w->wgs[g].sdi;
		for (i = w->sds[s].first_thread; i < w->sds[s].first_thread +
		    w->sds[s].nthreads; i++) {
			struct wstat *st = &w->threads[i].st[w->wg_slot[g]];
			struct iostats_side side[2];
			struct vdbhist tvh[2];
			unsigned int b;

			if (st->sched != NULL) {
				hist_snapshot(snap[0], st->sched);
				hist_merge(sched, snap[0]);
			}
			wstat_copy(w, st, k, side, tvh, snap);
			for (d = 0; d < 2; d++) {
				struct iostats_side *o = &io.side[d];

				o->ios += side[d].ios;
				o->bytes += side[d].bytes;
				o->resp_sum_ns += side[d].resp_sum_ns;
				o->resp_sumsq_us2 += side[d].resp_sumsq_us2;
				o->errors += side[d].errors;
				if (side[d].resp_max_ns > o->resp_max_ns)
					o->resp_max_ns = side[d].resp_max_ns;
				for (b = 0; b <= w->edges.n; b++)
					vh[d].count[b] += tvh[d].count[b];
				hist_merge(sum[d], snap[d]);
			}
		}
		/* A sync thread has one I/O outstanding while it waits. */
		io.qdepth_ns = io.side[0].resp_sum_ns + io.side[1].resp_sum_ns;
		json_array_append_new(out, interval_encode(&w->ibase[g], &io,
		    sum, sched, vh, w->edges.n + 1));
	}
	hist_free(sum[0]);
	hist_free(sum[1]);
	hist_free(snap[0]);
	hist_free(snap[1]);
	hist_free(sched);
	return (out);
}
