/* SPDX-License-Identifier: MIT */
/* Interval merging over report keys (see merge.h). */
#include "merge.h"

#include <stdlib.h>
#include <string.h>

#include "xmalloc.h"

struct merge {
	int		nkeys;
	struct iacc	ring[MERGE_RING];
	struct iacc	all;		/* every printed interval */
	struct iacc	avg;		/* printed, from the avg's first */
};

/* Empty an accumulator, keeping its arrays (hists are freed). */
static void
iacc_clear(struct iacc *a)
{
	int i, d;

	for (i = 0; a->keys != NULL && i < a->nkeys; i++) {
		for (d = 0; d < 2; d++)
			hist_free(a->keys[i].h[d]);
		hist_free(a->keys[i].sched);
	}
	if (a->keys != NULL)
		memset(a->keys, 0, (size_t)a->nkeys * sizeof(*a->keys));
	a->k = 0;
	a->nrep = 0;
	a->dur_sum_ns = 0;
	memset(a->cpu, 0, sizeof(a->cpu));
	a->cpu_valid = 0;
}

/* A run's merger for nkeys keys. */
struct merge *
merge_new(int nkeys)
{
	struct merge *m = xcalloc(1, sizeof(*m));
	int i;

	m->nkeys = nkeys;
	for (i = 0; i < MERGE_RING; i++) {
		m->ring[i].nkeys = nkeys;
		m->ring[i].keys = xcalloc((size_t)nkeys, sizeof(struct kacc));
	}
	m->all.nkeys = m->avg.nkeys = nkeys;
	m->all.keys = xcalloc((size_t)nkeys, sizeof(struct kacc));
	m->avg.keys = xcalloc((size_t)nkeys, sizeof(struct kacc));
	return (m);
}

/* Free a merger. NULL is fine. */
void
merge_free(struct merge *m)
{
	int i;

	if (m == NULL)
		return;
	for (i = 0; i < MERGE_RING; i++) {
		iacc_clear(&m->ring[i]);
		free(m->ring[i].keys);
	}
	iacc_clear(&m->all);
	iacc_clear(&m->avg);
	free(m->all.keys);
	free(m->avg.keys);
	free(m);
}

/* The slot of interval k. */
struct iacc *
merge_slot(struct merge *m, unsigned int k, unsigned int next_print)
{
	struct iacc *a;

	if (k < next_print || k >= next_print + MERGE_RING)
		return (NULL);
	a = &m->ring[k % MERGE_RING];
	if (a->k != k) {
		iacc_clear(a);
		a->k = k;
	}
	return (a);
}

/* Add src into dst (a key's counters, buckets and histograms). */
static void
kacc_add(struct kacc *dst, const struct iostats *st,
    struct hist *const h[2], const struct vdbhist vdb[2],
    const struct hist *sched)
{
	int d, b;

	if (sched != NULL && hist_count(sched) > 0) {
		if (dst->sched == NULL)
			dst->sched = hist_new();
		hist_merge(dst->sched, sched);
	}
	iostats_merge(&dst->st, st);
	for (d = 0; d < 2; d++) {
		for (b = 0; b < VDBHIST_MAX_BUCKETS; b++)
			dst->vdb[d].count[b] += vdb[d].count[b];
		if (h[d] != NULL && hist_count(h[d]) > 0) {
			if (dst->h[d] == NULL)
				dst->h[d] = hist_new();
			hist_merge(dst->h[d], h[d]);
		}
	}
}

/* One WG's deltas into each of its keys. */
void
merge_add(struct iacc *a, const int keys[MERGE_KEYS_PER_WG],
    const struct iostats *st, struct hist *const dh[2],
    const struct vdbhist dvdb[2], const struct hist *dsched)
{
	int i;

	for (i = 0; i < MERGE_KEYS_PER_WG; i++) {
		if (keys[i] >= 0 && keys[i] < a->nkeys)
			kacc_add(&a->keys[keys[i]], st, dh, dvdb, dsched);
	}
}

/* A printed interval goes into the sums. */
static void
sum_into(struct iacc *sum, const struct iacc *a)
{
	int i, j;

	if (sum->nrep++ == 0)
		sum->cpu_valid = 1;
	sum->dur_sum_ns += merge_duration_ns(a);
	sum->cpu_valid &= a->cpu_valid;
	for (j = 0; j < 7; j++)
		sum->cpu[j] += a->cpu[j];
	for (i = 0; i < a->nkeys; i++)
		kacc_add(&sum->keys[i], &a->keys[i].st, a->keys[i].h,
		    a->keys[i].vdb, a->keys[i].sched);
}

/* Interval a was printed. */
void
merge_printed(struct merge *m, struct iacc *a, int in_avg)
{
	sum_into(&m->all, a);
	if (in_avg)
		sum_into(&m->avg, a);
	iacc_clear(a);
}

/* The run's sums. */
const struct iacc *
merge_sum(const struct merge *m)
{
	return (m->avg.nrep > 0 ? &m->avg : &m->all);
}

/* Every printed interval of the run. */
const struct iacc *
merge_all(const struct merge *m)
{
	return (&m->all);
}

/* Mean interval length over the reporting slaves. */
uint64_t
merge_duration_ns(const struct iacc *a)
{
	return (a->nrep > 0 ? a->dur_sum_ns / (uint64_t)a->nrep : 0);
}
