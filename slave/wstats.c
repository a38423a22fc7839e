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
	struct hist *a = hist_array_new(4 * (unsigned int)nwgs);
	int g;

	for (g = 0; g < nwgs; g++) {
		st[g].h[0] = hist_array_at(a, 4 * (unsigned int)g);
		st[g].h[1] = hist_array_at(a, 4 * (unsigned int)g + 1);
		st[g].hc[0] = hist_array_at(a, 4 * (unsigned int)g + 2);
		st[g].hc[1] = hist_array_at(a, 4 * (unsigned int)g + 3);
		if (fixed_rate)
			st[g].sched = hist_new();
	}
	return (st);
}

void
wstats_thread_free(struct wstat *st, int nwgs)
{
	int g;

	if (st == NULL)
		return;
	for (g = 0; g < nwgs; g++)
		hist_free(st[g].sched);
	/* h[0] of the first WG is the start of their mapping */
	hist_array_free(nwgs > 0 ? st[0].h[0] : NULL, 4 * (unsigned int)nwgs);
	free(st);
}

/* The thread's first I/O of interval k: what it counted so far is the
 * counters at the end of every interval before k (wstats.h). */
void
wstats_close(const struct work *w, struct wstat *st, uint64_t k)
{
	unsigned int b;
	int d;

	if (st->open_k != 0) {
		for (d = 0; d < 2; d++) {
			const struct dirstat *x = &st->d[d];
			struct dirstat *c = &st->closed[d];

			seqcount_put(&c->ios, x->ios);
			seqcount_put(&c->bytes, x->bytes);
			seqcount_put(&c->resp_sum_ns, x->resp_sum_ns);
			seqcount_put(&c->resp_sumsq_us2, x->resp_sumsq_us2);
			for (b = 0; b <= w->edges.n; b++)
				seqcount_put(&c->vh.count[b], x->vh.count[b]);
			hist_publish(st->hc[d], st->h[d]);
		}
		seqcount_put(&st->closed_k, st->open_k);
	}
	seqcount_put(&st->open_k, k);
}

/*
 * One thread's counters of one WG at the end of interval k, copied whole
 * (seqcount.h) into side[], vh[] and h[] (which it resets), so bytes,
 * response times, buckets and the histogram always belong to the same
 * I/Os. A thread already in a later interval gives what it closed
 * (work_int.h, struct wstat); `final` (RUN_END) takes everything.
 */
static void
wstat_copy(const struct work *w, struct wstat *st, uint64_t k, int final,
    struct iostats_side side[2], struct vdbhist vh[2], struct hist *h[2])
{
	unsigned int slot = (unsigned int)(k % MAX_SLOTS), tries = 0, b;
	uint32_t seq;
	int d, closed;

	do {
		seq = seqcount_read_begin(&st->seq, tries);
		closed = !final && seqcount_get(&st->open_k) > k;
		for (d = 0; d < 2; d++) {
			struct dirstat *x = closed ? &st->closed[d] : &st->d[d];
			struct iostats_side *o = &side[d];

			o->ios = seqcount_get(&x->ios);
			o->bytes = seqcount_get(&x->bytes);
			o->resp_sum_ns = seqcount_get(&x->resp_sum_ns);
			o->resp_sumsq_us2 = seqcount_get(&x->resp_sumsq_us2);
			o->errors = ld64(&st->d[d].errors);
			o->resp_max_ns = seqcount_get(&st->d[d].max_k[slot]) ==
			    k ? seqcount_get(&st->d[d].max_ns[slot]) : 0;
			for (b = 0; b <= w->edges.n; b++)
				vh[d].count[b] = seqcount_get(&x->vh.count[b]);
			hist_snapshot(h[d], closed ? st->hc[d] : st->h[d]);
		}
	} while (seqcount_read_retry(&st->seq, seq, tries++));
}

/* Every WG's counters since the previous call (the INTERVAL "stats", and
 * RUN_END's tail after the last INTERVAL: final), summed over the threads
 * of its sd (the only ones that carry it), each thread's copied whole. */
json_t *
work_stats_json(struct work *w, uint64_t k, int final)
{
	json_t *out = json_array();
	struct hist *sum[2], *snap[2];
	struct hist *sched;
	int g, i, d, s;

	if (w->fs != NULL) {
		json_decref(out);
		return (fswork_stats_json(w->fs, k, final));
	}
	/* after a snapshot of everything, a closed half may hold less
	 * than it did: the counts would go back (a starved slave's
	 * INTERVAL 3 after its last interval, e2e 22) */
	if (final)
		w->stats_final = 1;
	final = w->stats_final;
	if (w->ibase == NULL) {
		w->ibase = xcalloc((size_t)w->nwgs, sizeof(*w->ibase));
		for (g = 0; g < w->nwgs; g++)
			interval_base_init(&w->ibase[g]);
		interval_scratch_init(&w->iscratch);
	}
	snap[0] = w->iscratch.snap[0];
	snap[1] = w->iscratch.snap[1];
	sched = w->iscratch.sched;
	sum[0] = w->iscratch.sum[0];
	sum[1] = w->iscratch.sum[1];

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
			wstat_copy(w, st, k, final, side, tvh, snap);
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
		json_array_append_new(out, interval_encode(&w->ibase[g],
		    &w->iscratch.out, &io, sum, sched, vh, w->edges.n + 1));
	}
	return (out);
}
