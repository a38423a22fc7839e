/* SPDX-License-Identifier: MIT */
/*
 * Latency histogram. The hot path is one count-leading-zeros, a shift and
 * an add; percentiles are computed by readers.
 */
#include "hist.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "xmalloc.h"

/*
 * lo..hi-1 bounds the buckets that may be non-zero (hi 0: none), so
 * merges, deltas and scans on the master touch only the used part of the
 * 3,776 buckets: with many slaves the master merges thousands per second.
 */
struct hist {
	uint64_t	count;			/* samples */
	uint64_t	max_ns;			/* largest sample */
	uint32_t	lo, hi;			/* used buckets: [lo, hi) */
	uint64_t	bucket[HIST_NBUCKETS];	/* samples per bucket */
};

/* Widen h's used range to [lo, hi). */
static inline void
widen(struct hist *h, uint32_t lo, uint32_t hi)
{
	if (hi <= lo)
		return;
	if (h->hi == 0 || lo < h->lo)
		h->lo = lo;
	if (hi > h->hi)
		h->hi = hi;
}

/* Zero the used buckets and mark none used. */
static void
clear_used(struct hist *h)
{
	if (h->hi > h->lo)
		memset(&h->bucket[h->lo], 0, (h->hi - h->lo) *
		    sizeof(h->bucket[0]));
	h->lo = h->hi = 0;
}

/*
 * Single-writer increment, safe against a concurrent reader. A release
 * store, so a histogram can be a field of a seqcount group (seqcount.h:
 * the reader's acquire loads then order the group's count after it).
 */
static inline void
bump(uint64_t *p, uint64_t by)
{
	__atomic_store_n(p, __atomic_load_n(p, __ATOMIC_RELAXED) + by,
	    __ATOMIC_RELEASE);
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

/* n histograms in one mapping (hist.h); NULL only for n = 0. */
struct hist *
hist_array_new(unsigned int n)
{
	void *p;

	if (n == 0)
		return (NULL);
	p = mmap(NULL, (size_t)n * sizeof(struct hist), PROT_READ |
	    PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {		/* as xmalloc.c does */
		fprintf(stderr, "vdbc: out of memory mapping %zu bytes\n",
		    (size_t)n * sizeof(struct hist));
		abort();
	}
	return (p);
}

struct hist *
hist_array_at(struct hist *a, unsigned int i)
{
	return (&a[i]);
}

void
hist_array_free(struct hist *a, unsigned int n)
{
	if (a != NULL)
		munmap(a, (size_t)n * sizeof(struct hist));
}

void
hist_array_drop(struct hist *a, unsigned int i, unsigned int n)
{
	long pg = sysconf(_SC_PAGESIZE);
	uintptr_t lo, hi;
	unsigned int j;

	if (a == NULL || n == 0)
		return;
	/* empty first (a write only where something was counted, so an
	 * untouched page stays untouched), then give back whole pages */
	for (j = i; j < i + n; j++) {
		if (a[j].hi != 0 || a[j].count != 0 || a[j].max_ns != 0)
			hist_reset(&a[j]);
	}
	if (pg <= 0)
		return;
	lo = ((uintptr_t)&a[i] + (uintptr_t)pg - 1) & ~((uintptr_t)pg - 1);
	hi = (uintptr_t)&a[i + n] & ~((uintptr_t)pg - 1);
	if (hi > lo)
		(void)madvise((void *)lo, hi - lo, MADV_DONTNEED);
}

/* Empty a histogram. */
void
hist_reset(struct hist *h)
{
	clear_used(h);
	h->count = h->max_ns = 0;
}

/* Count one sample; only the owning thread calls this. */
void
hist_add(struct hist *h, uint64_t lat_ns)
{
	uint32_t idx = hist_bucket_of(lat_ns);

	/* The range first, so a reader that sees the count sees the range. */
	if (idx < __atomic_load_n(&h->lo, __ATOMIC_RELAXED) ||
	    __atomic_load_n(&h->hi, __ATOMIC_RELAXED) == 0)
		__atomic_store_n(&h->lo, idx, __ATOMIC_RELEASE);
	if (idx >= __atomic_load_n(&h->hi, __ATOMIC_RELAXED))
		__atomic_store_n(&h->hi, idx + 1, __ATOMIC_RELEASE);
	bump(&h->bucket[idx], 1);
	bump(&h->count, 1);
	if (lat_ns > __atomic_load_n(&h->max_ns, __ATOMIC_RELAXED))
		__atomic_store_n(&h->max_ns, lat_ns, __ATOMIC_RELEASE);
}

/* Add src's counts into dst. */
void
hist_merge(struct hist *dst, const struct hist *src)
{
	unsigned int i;

	for (i = src->lo; i < src->hi; i++)
		dst->bucket[i] += src->bucket[i];
	widen(dst, src->lo, src->hi);
	dst->count += src->count;
	if (src->max_ns > dst->max_ns)
		dst->max_ns = src->max_ns;
}

/*
 * dst = now - prev. A cumulative max has no delta: when it grew, the new
 * max came in this interval and is exact; else the interval's largest
 * sample lies in its highest non-empty bucket, and the top of that bucket
 * (within 1/64 of the sample) stands for it.
 */
int
hist_delta(struct hist *dst, const struct hist *now, const struct hist *prev)
{
	uint32_t lo = now->lo, hi = now->hi;
	unsigned int i, top;
	uint64_t m;

	if (prev->hi > 0 && (hi == 0 || prev->lo < lo))
		lo = prev->lo;
	if (prev->hi > hi)
		hi = prev->hi;
	clear_used(dst);
	widen(dst, lo, hi);
	dst->count = dst->max_ns = 0;
	/* Cumulative counts never go down: a smaller one is a lie. */
	if (now->count < prev->count || now->max_ns < prev->max_ns)
		return (-1);
	for (i = lo; i < hi; i++) {
		if (now->bucket[i] < prev->bucket[i]) {
			clear_used(dst);
			return (-1);
		}
		dst->bucket[i] = now->bucket[i] - prev->bucket[i];
	}
	dst->count = now->count - prev->count;
	if (dst->count == 0)
		return (0);
	if (now->max_ns > prev->max_ns) {
		dst->max_ns = now->max_ns;
		return (0);
	}
	for (top = hi; top > lo && dst->bucket[top - 1] == 0; top--)
		;
	if (top == lo)
		return (0);
	m = hist_bucket_low_ns(top - 1) + hist_bucket_width_ns(top - 1) - 1;
	dst->max_ns = m < now->max_ns ? m : now->max_ns;
	return (0);
}

/* An exact max known elsewhere replaces the estimate if it fits. */
void
hist_exact_max(struct hist *h, uint64_t max_ns)
{
	unsigned int top;

	if (h->count == 0 || max_ns > h->max_ns)
		return;
	for (top = h->hi; top > h->lo && h->bucket[top - 1] == 0; top--)
		;
	if (top > h->lo && hist_bucket_of(max_ns) == top - 1)
		h->max_ns = max_ns;
}

/* Copy with relaxed loads, while the owner may still be adding. */
void
hist_snapshot(struct hist *dst, const struct hist *src)
{
	uint32_t hi = __atomic_load_n(&src->hi, __ATOMIC_ACQUIRE);
	uint32_t lo = __atomic_load_n(&src->lo, __ATOMIC_ACQUIRE);
	uint64_t n = 0;
	unsigned int i;

	clear_used(dst);
	if (lo > hi)
		lo = hi;
	for (i = lo; i < hi; i++) {
		dst->bucket[i] = __atomic_load_n(&src->bucket[i],
		    __ATOMIC_ACQUIRE);
		n += dst->bucket[i];
	}
	widen(dst, lo, hi);
	/* The count is the sum of what was copied, so the copy is coherent. */
	dst->count = n;
	dst->max_ns = __atomic_load_n(&src->max_ns, __ATOMIC_ACQUIRE);
}

/* Copy as src's own writer (hist.h): an earlier copy's used range lies
 * inside src's, so every bucket it used is overwritten. */
void
hist_publish(struct hist *dst, const struct hist *src)
{
	unsigned int i;

	__atomic_store_n(&dst->lo, src->lo, __ATOMIC_RELEASE);
	__atomic_store_n(&dst->hi, src->hi, __ATOMIC_RELEASE);
	for (i = src->lo; i < src->hi; i++)
		__atomic_store_n(&dst->bucket[i], src->bucket[i],
		    __ATOMIC_RELEASE);
	__atomic_store_n(&dst->count, src->count, __ATOMIC_RELEASE);
	__atomic_store_n(&dst->max_ns, src->max_ns, __ATOMIC_RELEASE);
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
	for (i = h->lo; i < h->hi; i++) {
		seen += h->bucket[i];
		if (seen >= rank)
			break;
	}
	if (i >= h->hi)
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

	for (i = h->lo; i < h->hi; i++) {
		if (h->bucket[i] != 0)
			json_array_append_new(b, json_pack("[I,I]",
			    (json_int_t)i, (json_int_t)h->bucket[i]));
	}
	return (json_pack("{s:I,s:I,s:o}", "n", (json_int_t)h->count,
	    "max_ns", (json_int_t)h->max_ns, "b", b));
}

void
hist_used(const struct hist *h, unsigned int *lo, unsigned int *hi)
{
	*lo = h->lo;
	*hi = h->hi;
}

uint64_t
hist_bucket(const struct hist *h, unsigned int idx)
{
	return (idx < HIST_NBUCKETS ? h->bucket[idx] : 0);
}

int
hist_add_bucket(struct hist *h, unsigned int idx, uint64_t n)
{
	uint64_t top;

	if (idx >= HIST_NBUCKETS || __builtin_add_overflow(h->count, n,
	    &h->count))
		return (-1);
	h->bucket[idx] += n;
	widen(h, idx, idx + 1);
	top = hist_bucket_low_ns(idx) + hist_bucket_width_ns(idx) - 1;
	if (n > 0 && top > h->max_ns)
		h->max_ns = top;
	return (0);
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
		widen(h, (uint32_t)idx, (uint32_t)idx + 1);
		if (__builtin_add_overflow(sum, (uint64_t)cnt, &sum)) {
			errmsg_set(e, NULL, 0, 0, "histogram: bucket counts "
			    "overflow 64 bits at entry %zu", k);
			return (-1);
		}
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
