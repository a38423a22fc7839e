/* SPDX-License-Identifier: MIT */
/* Interval merging over report keys (see merge.h). */
#include "merge.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xmalloc.h"

/*
 * Key arrays of emptied slots kept for the next intervals. A slot holds
 * its array only while its interval waits to be printed: allocating all
 * MERGE_RING at the start made them resident one by one over the first
 * 64 intervals, 64 x nkeys x sizeof(struct kacc) in the end (14 MB at
 * 128 slaves, 105 MB at 1,024, read as RSS growing 1.6 KiB per slave per
 * interval); usually two or three slots are in use.
 */
#define MERGE_SPARE	2

/*
 * Histograms: each key array comes with a pool of 2 x nkeys + 1 in one
 * mapping (hist_array_new), read and write of key i at 2i and 2i + 1,
 * the total's sched last (only the total's is read: results.json's
 * "sched"). A key points into the pool once something is counted, and
 * an emptied array keeps its pool. Each key making and freeing its own
 * 30 KiB histograms every interval had the master zero 120 MB a second
 * at 1,024 slaves, half its CPU, and grew it to 400 MB (issue 28):
 * pages of the pool are resident only where counts fell, and stay so.
 */
#define POOL_N(nkeys)	(2 * (unsigned int)(nkeys) + 1)

struct merge {
	int		 nkeys;
	struct kacc	*spare[MERGE_SPARE];
	struct hist	*spare_pool[MERGE_SPARE];
	int		 nspare;
	struct iacc	 ring[MERGE_RING];
	struct iacc	 all;		/* every printed interval */
	struct iacc	 avg;		/* printed, from the avg's first */
};

/* Empty an accumulator, keeping its arrays and its pool. */
static void
iacc_clear(struct iacc *a)
{
	int i, d;

	for (i = 0; a->keys != NULL && i < a->nkeys; i++) {
		for (d = 0; d < 2; d++) {
			if (a->keys[i].h[d] != NULL)
				hist_reset(a->keys[i].h[d]);
		}
		if (a->keys[i].sched != NULL)
			hist_reset(a->keys[i].sched);
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
	for (i = 0; i < MERGE_RING; i++)
		m->ring[i].nkeys = nkeys;
	m->all.nkeys = m->avg.nkeys = nkeys;
	m->all.keys = xcalloc((size_t)nkeys, sizeof(struct kacc));
	m->avg.keys = xcalloc((size_t)nkeys, sizeof(struct kacc));
	m->all.pool = hist_array_new(POOL_N(nkeys));
	m->avg.pool = hist_array_new(POOL_N(nkeys));
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
		free(m->ring[i].keys);
		hist_array_free(m->ring[i].pool, POOL_N(m->nkeys));
	}
	for (i = 0; i < m->nspare; i++) {
		free(m->spare[i]);
		hist_array_free(m->spare_pool[i], POOL_N(m->nkeys));
	}
	free(m->all.keys);
	free(m->avg.keys);
	hist_array_free(m->all.pool, POOL_N(m->nkeys));
	hist_array_free(m->avg.pool, POOL_N(m->nkeys));
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
	if (a->k != k || a->keys == NULL) {
		iacc_clear(a);
		a->k = k;
	}
	if (a->keys == NULL) {
		if (m->nspare > 0) {
			m->nspare--;
			a->keys = m->spare[m->nspare];
			a->pool = m->spare_pool[m->nspare];
		} else {
			a->keys = xcalloc((size_t)m->nkeys,
			    sizeof(struct kacc));
			a->pool = hist_array_new(POOL_N(m->nkeys));
		}
	}
	return (a);
}

/* Add src into key i of a (counters, buckets and histograms; h[d] and
 * sched may be NULL, and sched counts only for the total, key 0). */
static void
kacc_add(struct iacc *a, int i, const struct iostats *st,
    struct hist *const h[2], const struct vdbhist vdb[2],
    const struct hist *sched)
{
	struct kacc *dst = &a->keys[i];
	int d, b;

	if (i == 0 && sched != NULL && hist_count(sched) > 0) {
		if (dst->sched == NULL)
			dst->sched = hist_array_at(a->pool,
			    POOL_N(a->nkeys) - 1);
		hist_merge(dst->sched, sched);
	}
	iostats_merge(&dst->st, st);
	for (d = 0; d < 2; d++) {
		for (b = 0; b < VDBHIST_MAX_BUCKETS; b++)
			dst->vdb[d].count[b] += vdb[d].count[b];
		if (h != NULL && h[d] != NULL && hist_count(h[d]) > 0) {
			if (dst->h[d] == NULL)
				dst->h[d] = hist_array_at(a->pool,
				    2 * (unsigned int)i + (unsigned int)d);
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
			kacc_add(a, keys[i], st, dh, dvdb, dsched);
	}
}

void
merge_add_cpu(struct iacc *a, int key, const uint64_t d[7])
{
	int j;

	if (key < 0 || key >= a->nkeys)
		return;
	for (j = 0; j < 7; j++)
		a->keys[key].cpu[j] += d[j];
	a->keys[key].cpu_valid = 1;
}

/* A printed interval goes into the sums; key_hists: how many keys from
 * the total on take its histograms. */
static void
sum_into(struct iacc *sum, const struct iacc *a, int key_hists)
{
	int i, j;

	if (sum->nrep++ == 0)
		sum->cpu_valid = 1;
	sum->dur_sum_ns += merge_duration_ns(a);
	sum->cpu_valid &= a->cpu_valid;
	for (j = 0; j < 7; j++)
		sum->cpu[j] += a->cpu[j];
	for (i = 0; i < a->nkeys; i++) {
		kacc_add(sum, i, &a->keys[i].st, i < key_hists ?
		    a->keys[i].h : NULL, a->keys[i].vdb, a->keys[i].sched);
		if (a->keys[i].cpu_valid)
			merge_add_cpu(sum, i, a->keys[i].cpu);
	}
}

/* Interval a was printed. */
void
merge_printed(struct merge *m, struct iacc *a, int in_avg)
{
	int i;

	/*
	 * The sums of every interval stand for the run only while no
	 * interval is in the average (merge_sum): then only the total's
	 * histograms are read (the results' all-interval percentiles).
	 */
	if (in_avg && m->avg.nrep == 0) {
		for (i = 1; i < m->nkeys; i++)
			memset(m->all.keys[i].h, 0, sizeof(m->all.keys[i].h));
		hist_array_drop(m->all.pool, 2, POOL_N(m->nkeys) - 3);
	}
	sum_into(&m->all, a, in_avg || m->avg.nrep > 0 ? 1 : a->nkeys);
	if (in_avg)
		sum_into(&m->avg, a, a->nkeys);
	iacc_clear(a);		/* its array is zero again */
	if (m->nspare < MERGE_SPARE) {
		m->spare[m->nspare] = a->keys;
		m->spare_pool[m->nspare++] = a->pool;
	} else {
		free(a->keys);
		hist_array_free(a->pool, POOL_N(m->nkeys));
	}
	a->keys = NULL;
	a->pool = NULL;
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

/* v > n * per, without overflow (a bound past 2^64 holds any v). */
static int
over(uint64_t v, uint64_t n, uint64_t per)
{
	uint64_t lim;

	if (__builtin_mul_overflow(n, per, &lim))
		return (0);
	return (v > lim);
}

/*
 * Check a cumulative counter's step: -1 with e set when it is a lie. A
 * count (dur_ns > 0) also grows by at most MERGE_MAX_PER_NS per ns.
 */
static int
step(struct errmsg *e, const char *field, uint64_t now, uint64_t prev,
    uint64_t dur_ns)
{
	if (now < prev) {
		errmsg_set(e, NULL, 0, 0, "%s went backwards (from %llu to "
		    "%llu)", field, (unsigned long long)prev,
		    (unsigned long long)now);
		return (-1);
	}
	if (dur_ns > 0 && over(now - prev, dur_ns, MERGE_MAX_PER_NS)) {
		errmsg_set(e, NULL, 0, 0, "%s grew by %llu in %.3f s, more "
		    "than %d per nanosecond", field,
		    (unsigned long long)(now - prev), (double)dur_ns / 1e9,
		    MERGE_MAX_PER_NS);
		return (-1);
	}
	return (0);
}

/* A response-time maximum no longer than the run so far. */
static int
max_ok(struct errmsg *e, const char *field, uint64_t max_ns,
    uint64_t bound_ns)
{
	if (max_ns > bound_ns) {
		errmsg_set(e, NULL, 0, 0, "%s %.3f ms is longer than the run "
		    "so far (%.3f s)", field, (double)max_ns / 1e6,
		    (double)(bound_ns - MERGE_SLACK_NS) / 1e9);
		return (-1);
	}
	return (0);
}

/* n responses of at most bound_ns each cannot sum to more. */
static int
sum_ok(struct errmsg *e, const char *field, uint64_t sum, uint64_t n,
    uint64_t bound_ns)
{
	if (over(sum, n, bound_ns)) {
		errmsg_set(e, NULL, 0, 0, "%s grew by %llu ns over %llu "
		    "operations, more than the run so far allows", field,
		    (unsigned long long)sum, (unsigned long long)n);
		return (-1);
	}
	return (0);
}

/* Check one WG's counters (see merge.h). */
int
merge_check_stats(const struct iostats *now, const struct iostats *prev,
    uint64_t dur_ns, uint64_t elapsed_ns, struct errmsg *e)
{
	static const char *const dn[2] = { "read", "write" };
	uint64_t bound = elapsed_ns + MERGE_SLACK_NS;
	uint64_t bound_us = bound / 1000 + 1;
	char f[64];
	int d;

	e->text[0] = '\0';

	for (d = 0; d < 2; d++) {
		const struct iostats_side *a = &now->side[d],
		    *b = &prev->side[d];
		uint64_t n = a->ios - b->ios;

#define	STEP(x, dur) (snprintf(f, sizeof(f), "%s " #x, dn[d]), \
		    step(e, f, a->x, b->x, dur))
		if (STEP(ios, dur_ns) != 0 || STEP(bytes, 0) != 0 ||
		    STEP(resp_sum_ns, 0) != 0 || STEP(resp_sumsq_us2, 0) != 0 ||
		    STEP(errors, dur_ns) != 0)
			return (-1);
#undef STEP
		if (over(a->bytes - b->bytes, n, MERGE_MAX_XFER)) {
			errmsg_set(e, NULL, 0, 0, "%s bytes: %llu for %llu "
			    "I/Os, more than 2 GiB each", dn[d],
			    (unsigned long long)(a->bytes - b->bytes),
			    (unsigned long long)n);
			return (-1);
		}
		snprintf(f, sizeof(f), "%s resp_max_ns", dn[d]);
		if (max_ok(e, f, a->resp_max_ns, bound) != 0)
			return (-1);
		snprintf(f, sizeof(f), "%s resp_sum_ns", dn[d]);
		if (sum_ok(e, f, a->resp_sum_ns - b->resp_sum_ns, n, bound) !=
		    0)
			return (-1);
		/* each square at most bound_us^2 */
		if ((double)(a->resp_sumsq_us2 - b->resp_sumsq_us2) >
		    (double)n * (double)bound_us * (double)bound_us) {
			errmsg_set(e, NULL, 0, 0, "%s resp_sumsq_us2 grew by "
			    "%llu over %llu I/Os, more than the run so far "
			    "allows", dn[d], (unsigned long long)
			    (a->resp_sumsq_us2 - b->resp_sumsq_us2),
			    (unsigned long long)n);
			return (-1);
		}
	}
	/* time integrals: at most 2^20 I/Os outstanding all the time */
	if (step(e, "qdepth_ns", now->qdepth_ns, prev->qdepth_ns, 0) != 0 ||
	    over(now->qdepth_ns - prev->qdepth_ns, dur_ns, 1u << 20) ||
	    step(e, "busy_ns", now->busy_ns, prev->busy_ns, 0) != 0 ||
	    over(now->busy_ns - prev->busy_ns, dur_ns, 1u << 20)) {
		if (e->text[0] == '\0')
			errmsg_set(e, NULL, 0, 0, "a queue time integral grew "
			    "by more than 2^20 I/Os outstanding for %.3f s",
			    (double)dur_ns / 1e9);
		return (-1);
	}
	if (step(e, "req count", now->req_n, prev->req_n, dur_ns) != 0 ||
	    step(e, "req resp_ns", now->req_resp_ns, prev->req_resp_ns,
	    0) != 0 ||
	    sum_ok(e, "req resp_ns", now->req_resp_ns - prev->req_resp_ns,
	    now->req_n - prev->req_n, bound) != 0)
		return (-1);
	for (d = 0; d < FSOP_N; d++) {
		const struct fsop_side *a = &now->op[d], *b = &prev->op[d];

		snprintf(f, sizeof(f), "%s count", fsop_name((enum fsop)d));
		if (step(e, f, a->n, b->n, dur_ns) != 0)
			return (-1);
		snprintf(f, sizeof(f), "%s resp_sum_ns",
		    fsop_name((enum fsop)d));
		if (step(e, f, a->resp_sum_ns, b->resp_sum_ns, 0) != 0 ||
		    sum_ok(e, f, a->resp_sum_ns - b->resp_sum_ns, a->n - b->n,
		    bound) != 0)
			return (-1);
		snprintf(f, sizeof(f), "%s resp_max_ns",
		    fsop_name((enum fsop)d));
		if (max_ok(e, f, a->resp_max_ns, bound) != 0)
			return (-1);
	}
	for (d = 0; d < FSM_N; d++) {
		if (step(e, fsmisc_name((enum fsmisc)d), now->misc[d],
		    prev->misc[d], dur_ns) != 0)
			return (-1);
	}
	return (0);
}

/* Check a histogram delta (see merge.h). */
int
merge_check_hist(const struct hist *d, uint64_t dur_ns, uint64_t elapsed_ns,
    struct errmsg *e)
{
	if (over(hist_count(d), dur_ns, MERGE_MAX_PER_NS)) {
		errmsg_set(e, NULL, 0, 0, "histogram count grew by %llu in "
		    "%.3f s, more than %d per nanosecond",
		    (unsigned long long)hist_count(d), (double)dur_ns / 1e9,
		    MERGE_MAX_PER_NS);
		return (-1);
	}
	return (max_ok(e, "histogram max_ns", hist_max_ns(d), elapsed_ns +
	    MERGE_SLACK_NS));
}
