/* SPDX-License-Identifier: MIT */
/*
 * Latency histogram. The hot path is one count-leading-zeros, a shift and
 * an add; percentiles are computed by readers.
 */
#include "hist.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "xmalloc.h"

struct hist {
	uint64_t	count;			/* samples */
	uint64_t	max_ns;			/* largest sample */
	uint64_t	bucket[HIST_NBUCKETS];	/* samples per bucket */
};

/* Relaxed single-writer increment, safe against a concurrent reader. */
static inline void
bump(uint64_t *p, uint64_t by)
{
	__atomic_store_n(p, __atomic_load_n(p, __ATOMIC_RELAXED) + by,
	    __ATOMIC_RELAXED);
}

/* Map a latency to its bucket index. */
unsigned int
hist_bucket_of(uint64_t ns)
{
	unsigned int msb, shift;

	if (ns < HIST_SUB)
		return ((unsigned int)ns);
	msb = 63u - (unsigned int)__builtin_clzll(ns);
	shift = msb - HIST_SUB_BITS;
	return ((shift + 1) * HIST_SUB +
	    (unsigned int)((ns >> shift) & (HIST_SUB - 1)));
}

/* Smallest latency that lands in bucket idx. */
uint64_t
hist_bucket_low_ns(unsigned int idx)
{
	unsigned int group = idx / HIST_SUB, sub = idx % HIST_SUB;

	if (group == 0)
		return (idx);
	return ((uint64_t)(HIST_SUB + sub) << (group - 1));
}

/* Number of distinct nanosecond values in bucket idx. */
uint64_t
hist_bucket_width_ns(unsigned int idx)
{
	unsigned int group = idx / HIST_SUB;

	return (group == 0 ? 1 : (uint64_t)1 << (group - 1));
}

/* Allocate an empty histogram. Never returns NULL. */
struct hist *
hist_new(void)
{
	return (xcalloc(1, sizeof(struct hist)));
}

/* Free a histogram. NULL is fine. */
void
hist_free(struct hist *h)
{
	free(h);
}

/* Empty a histogram. */
void
hist_reset(struct hist *h)
{
	memset(h, 0, sizeof(*h));
}

/* Count one sample; only the owning thread calls this. */
void
hist_add(struct hist *h, uint64_t lat_ns)
{
	bump(&h->bucket[hist_bucket_of(lat_ns)], 1);
	bump(&h->count, 1);
	if (lat_ns > __atomic_load_n(&h->max_ns, __ATOMIC_RELAXED))
		__atomic_store_n(&h->max_ns, lat_ns, __ATOMIC_RELAXED);
}

/* Add src's counts into dst. */
void
hist_merge(struct hist *dst, const struct hist *src)
{
	unsigned int i;

	for (i = 0; i < HIST_NBUCKETS; i++)
		dst->bucket[i] += src->bucket[i];
	dst->count += src->count;
	if (src->max_ns > dst->max_ns)
		dst->max_ns = src->max_ns;
}

/* dst = now - prev; the max is now's (a cumulative max has no delta). */
void
hist_delta(struct hist *dst, const struct hist *now, const struct hist *prev)
{
	unsigned int i;

	for (i = 0; i < HIST_NBUCKETS; i++)
		dst->bucket[i] = now->bucket[i] - prev->bucket[i];
	dst->count = now->count - prev->count;
	dst->max_ns = now->max_ns;
}

/* Copy with relaxed loads, while the owner may still be adding. */
void
hist_snapshot(struct hist *dst, const struct hist *src)
{
	uint64_t n = 0;
	unsigned int i;

	for (i = 0; i < HIST_NBUCKETS; i++) {
		dst->bucket[i] = __atomic_load_n(&src->bucket[i],
		    __ATOMIC_RELAXED);
		n += dst->bucket[i];
	}
	/* The count is the sum of what was copied, so the copy is coherent. */
	dst->count = n;
	dst->max_ns = __atomic_load_n(&src->max_ns, __ATOMIC_RELAXED);
}

/* Number of samples. */
uint64_t
hist_count(const struct hist *h)
{
	return (h->count);
}

/* Largest sample, exact. */
uint64_t
hist_max_ns(const struct hist *h)
{
	return (h->max_ns);
}

/* Percentile from bucket midpoints; 0 for an empty histogram. */
uint64_t
hist_percentile_ns(const struct hist *h, double pct)
{
	uint64_t rank, seen = 0, mid;
	unsigned int i;

	if (h->count == 0)
		return (0);
	if (pct <= 0)
		pct = 0;
	if (pct >= 100)
		return (h->max_ns);
	rank = (uint64_t)ceil(pct / 100.0 * (double)h->count);
	if (rank == 0)
		rank = 1;
	for (i = 0; i < HIST_NBUCKETS; i++) {
		seen += h->bucket[i];
		if (seen >= rank)
			break;
	}
	if (i == HIST_NBUCKETS)
		return (h->max_ns);
	mid = hist_bucket_low_ns(i) + (hist_bucket_width_ns(i) - 1) / 2;
	return (mid > h->max_ns ? h->max_ns : mid);
}

/* Encode the non-empty buckets only. */
json_t *
hist_to_json(const struct hist *h)
{
	json_t *b = json_array();
	unsigned int i;

	for (i = 0; i < HIST_NBUCKETS; i++) {
		if (h->bucket[i] != 0)
			json_array_append_new(b, json_pack("[I,I]",
			    (json_int_t)i, (json_int_t)h->bucket[i]));
	}
	return (json_pack("{s:I,s:I,s:o}", "n", (json_int_t)h->count,
	    "max_ns", (json_int_t)h->max_ns, "b", b));
}

/* Decode and check the sparse form; -1 with e filled on any bad field. */
int
hist_from_json(struct hist *h, const json_t *j, struct errmsg *e)
{
	json_int_t n, max_ns, idx, cnt;
	json_t *b, *pair;
	json_error_t je;
	uint64_t sum = 0;
	size_t k;

	hist_reset(h);
	if (json_unpack_ex((json_t *)j, &je, 0, "{s:I,s:I,s:o}", "n", &n,
	    "max_ns", &max_ns, "b", &b) != 0 || !json_is_array(b)) {
		errmsg_set(e, NULL, 0, 0, "histogram: %s", je.text);
		return (-1);
	}
	json_array_foreach(b, k, pair) {
		if (json_unpack(pair, "[I,I]", &idx, &cnt) != 0 || idx < 0 ||
		    idx >= (json_int_t)HIST_NBUCKETS || cnt < 0) {
			errmsg_set(e, NULL, 0, 0,
			    "histogram: bad bucket entry %zu", k);
			return (-1);
		}
		h->bucket[idx] += (uint64_t)cnt;
		sum += (uint64_t)cnt;
	}
	if (n < 0 || max_ns < 0 || sum != (uint64_t)n) {
		errmsg_set(e, NULL, 0, 0,
		    "histogram: count %lld does not match its buckets",
		    (long long)n);
		return (-1);
	}
	h->count = (uint64_t)n;
	h->max_ns = (uint64_t)max_ns;
	return (0);
}
