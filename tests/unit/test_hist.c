/* Log-linear histogram: percentiles within 1 %, merge, wire form. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#include "hist.h"
#include "rng.h"

#define NSAMPLES	200000

/* Sort helper. */
static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x < y ? -1 : x > y);
}

/* Generated latencies: log-normal-ish from 1 us to ~100 ms. */
static uint64_t *
samples(uint64_t seed)
{
	uint64_t *s = malloc(NSAMPLES * sizeof(*s));
	struct rng r;
	int i;

	rng_init(&r, seed, 0);
	for (i = 0; i < NSAMPLES; i++)
		s[i] = (uint64_t)exp(7.0 + 4.5 * rng_double(&r) +
		    rng_exp(&r, 0.5));
	return (s);
}

static void
test_bucket_geometry(void **state)
{
	unsigned int i;

	(void)state;
	for (i = 0; i < 64; i++)
		assert_int_equal(hist_bucket_of(i), i);
	for (i = 0; i < HIST_NBUCKETS; i++) {
		uint64_t lo = hist_bucket_low_ns(i);
		uint64_t hi = lo + hist_bucket_width_ns(i) - 1;

		assert_int_equal(hist_bucket_of(lo), i);
		assert_int_equal(hist_bucket_of(hi), i);
		/* Half a bucket is under 1 % of its low edge. */
		if (i >= 64)
			assert_true((double)hist_bucket_width_ns(i) / 2 <
			    0.01 * (double)lo);
	}
	assert_int_equal(hist_bucket_of(UINT64_MAX), HIST_NBUCKETS - 1);
}

static void
test_percentiles_within_1pct(void **state)
{
	static const double pcts[] = { 1, 10, 50, 90, 95, 99, 99.9, 99.99 };
	uint64_t *s = samples(42);
	struct hist *h = hist_new();
	size_t i;

	(void)state;
	for (i = 0; i < NSAMPLES; i++)
		hist_add(h, s[i]);
	qsort(s, NSAMPLES, sizeof(*s), cmp_u64);
	assert_int_equal(hist_count(h), NSAMPLES);
	assert_int_equal(hist_max_ns(h), s[NSAMPLES - 1]);
	for (i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++) {
		size_t rank = (size_t)ceil(pcts[i] / 100 * NSAMPLES);
		double exact = (double)s[rank - 1];
		double got = (double)hist_percentile_ns(h, pcts[i]);

		assert_true(fabs(got - exact) <= 0.01 * exact);
	}
	assert_int_equal(hist_percentile_ns(h, 100), s[NSAMPLES - 1]);
	hist_free(h);
	free(s);
}

/* Uniform and bimodal samples: percentiles within 1 % as well. */
static void
test_other_distributions(void **state)
{
	static const double pcts[] = { 1, 25, 50, 75, 90, 99, 99.9 };
	uint64_t *s = malloc(NSAMPLES * sizeof(*s));
	struct rng r;
	int shape, i;
	size_t k;

	(void)state;
	for (shape = 0; shape < 2; shape++) {
		struct hist *h = hist_new();

		rng_init(&r, 99, (uint64_t)shape);
		for (i = 0; i < NSAMPLES; i++) {
			if (shape == 0)		/* uniform 10 us .. 10 ms */
				s[i] = 10000 + rng_below(&r, 9990000);
			else			/* cache hits and misses */
				s[i] = rng_double(&r) < 0.7 ?
				    2000 + rng_below(&r, 3000) :
				    4000000 + rng_below(&r, 6000000);
			hist_add(h, s[i]);
		}
		qsort(s, NSAMPLES, sizeof(*s), cmp_u64);
		for (k = 0; k < sizeof(pcts) / sizeof(pcts[0]); k++) {
			size_t rank = (size_t)ceil(pcts[k] / 100 * NSAMPLES);
			double exact = (double)s[rank - 1];
			double got = (double)hist_percentile_ns(h, pcts[k]);

			assert_true(fabs(got - exact) <= 0.01 * exact);
		}
		hist_free(h);
	}
	free(s);
}

static void
test_merge_equals_union(void **state)
{
	uint64_t *s = samples(7);
	struct hist *a = hist_new(), *b = hist_new(), *all = hist_new();
	struct hist *d = hist_new();
	size_t i;

	(void)state;
	/* Three "slaves" each get a part; their merge is the union. */
	struct hist *c = hist_new();

	for (i = 0; i < NSAMPLES; i++) {
		hist_add(i % 3 == 0 ? a : i % 3 == 1 ? b : c, s[i]);
		hist_add(all, s[i]);
	}
	hist_merge(b, c);
	hist_free(c);
	hist_merge(a, b);
	assert_int_equal(hist_count(a), hist_count(all));
	assert_int_equal(hist_max_ns(a), hist_max_ns(all));
	for (i = 0; i <= 1000; i++)
		assert_int_equal(hist_percentile_ns(a, i / 10.0),
		    hist_percentile_ns(all, i / 10.0));
	/* The delta of the union and one part is the other part. */
	hist_delta(d, all, b);
	assert_int_equal(hist_count(d), NSAMPLES - hist_count(b));
	hist_free(a);
	hist_free(b);
	hist_free(all);
	hist_free(d);
	free(s);
}

static void
test_json_round_trip(void **state)
{
	struct hist *h = hist_new(), *back = hist_new();
	struct errmsg e;
	json_t *j;
	int i;

	(void)state;
	for (i = 1; i < 5000; i++)
		hist_add(h, (uint64_t)i * 997);
	j = hist_to_json(h);
	assert_int_equal(hist_from_json(back, j, &e), 0);
	assert_int_equal(hist_count(back), hist_count(h));
	assert_int_equal(hist_percentile_ns(back, 99), hist_percentile_ns(h,
	    99));
	json_decref(j);
	/* A bucket index out of range is refused. */
	j = json_pack("{s:I,s:I,s:[[I,I]]}", "n", (json_int_t)1, "max_ns",
	    (json_int_t)1, "b", (json_int_t)HIST_NBUCKETS, (json_int_t)1);
	assert_int_equal(hist_from_json(back, j, &e), -1);
	json_decref(j);
	/* A count that does not match its buckets is refused. */
	j = json_pack("{s:I,s:I,s:[[I,I]]}", "n", (json_int_t)5, "max_ns",
	    (json_int_t)1, "b", (json_int_t)1, (json_int_t)1);
	assert_int_equal(hist_from_json(back, j, &e), -1);
	json_decref(j);
	hist_free(h);
	hist_free(back);
}

static void
test_empty(void **state)
{
	struct hist *h = hist_new();

	(void)state;
	assert_int_equal(hist_percentile_ns(h, 50), 0);
	hist_free(h);
	hist_free(NULL);
}

/* The used-bucket range: reused histograms (reset, decoded, deltas into
 * a dirty destination) give the same answers as fresh ones. */
static void
test_reuse_ranges(void **state)
{
	struct hist *a = hist_new(), *b = hist_new(), *d = hist_new();
	struct hist *fresh = hist_new(), *sum = hist_new();
	struct errmsg e;
	json_t *j;
	int i;

	(void)state;
	for (i = 0; i < 1000; i++)
		hist_add(d, 5000000 + (uint64_t)i * 1000);	/* dirty, high */
	for (i = 1; i <= 100; i++) {
		hist_add(a, (uint64_t)i * 10);		/* low */
		hist_add(b, (uint64_t)i * 10);
		hist_add(b, 1000000 + (uint64_t)i);	/* and higher */
		hist_add(fresh, 1000000 + (uint64_t)i);
	}
	hist_delta(d, b, a);		/* d = b - a = the higher part */
	assert_int_equal(hist_count(d), 100);
	assert_int_equal(hist_percentile_ns(d, 50),
	    hist_percentile_ns(fresh, 50));
	assert_int_equal(hist_percentile_ns(d, 1), hist_percentile_ns(fresh,
	    1));
	/* decode into a used histogram */
	j = hist_to_json(a);
	assert_int_equal(hist_from_json(d, j, &e), 0);
	json_decref(j);
	assert_int_equal(hist_count(d), 100);
	assert_int_equal(hist_percentile_ns(d, 99), hist_percentile_ns(a, 99));
	/* reset, then add: the range starts again */
	hist_reset(d);
	assert_int_equal(hist_count(d), 0);
	hist_add(d, 777);
	assert_int_equal(hist_percentile_ns(d, 50), hist_percentile_ns(d, 1));
	assert_true(hist_percentile_ns(d, 50) >= 770 &&
	    hist_percentile_ns(d, 50) <= 784);
	/* merge of disjoint ranges */
	hist_merge(sum, fresh);
	hist_merge(sum, a);
	assert_int_equal(hist_count(sum), 200);
	assert_int_equal(hist_percentile_ns(sum, 25), hist_percentile_ns(a,
	    50));
	hist_free(a);
	hist_free(b);
	hist_free(d);
	hist_free(fresh);
	hist_free(sum);
}

/* Resident pages of [p, p + len) (p page-aligned). */
static size_t
resident_pages(void *p, size_t len)
{
	long pg = sysconf(_SC_PAGESIZE);
	size_t n = (len + (size_t)pg - 1) / (size_t)pg, i, r = 0;
	unsigned char *v = calloc(n, 1);

	assert_non_null(v);
	assert_int_equal(mincore(p, len, v), 0);
	for (i = 0; i < n; i++)
		r += v[i] & 1;
	free(v);
	return (r);
}

/* hist_array_drop: the dropped histograms read empty and take new
 * samples, their neighbours keep theirs, and the pages wholly inside the
 * dropped ones go back to the kernel (merge.c drops the per-key sums
 * once only the total's are read). */
static void
test_array_drop(void **state)
{
	struct hist *a = hist_array_new(6);
	size_t sz = (size_t)((char *)hist_array_at(a, 1) - (char *)a);
	uint64_t p50[6];
	size_t before, after;
	unsigned int j, i;

	(void)state;
	for (j = 0; j < 6; j++) {
		/* 1 us to ~17 s: buckets on most pages of each histogram */
		for (i = 0; i < 200; i++)
			hist_add(hist_array_at(a, j), (1000ull + j) << (i % 25));
		p50[j] = hist_percentile_ns(hist_array_at(a, j), 50);
	}
	before = resident_pages(a, 6 * sz);
	hist_array_drop(a, 1, 4);
	after = resident_pages(a, 6 * sz);
	for (j = 1; j <= 4; j++) {
		assert_int_equal(hist_count(hist_array_at(a, j)), 0);
		assert_int_equal(hist_max_ns(hist_array_at(a, j)), 0);
	}
	assert_int_equal(hist_count(hist_array_at(a, 0)), 200);
	assert_int_equal(hist_count(hist_array_at(a, 5)), 200);
	assert_int_equal(hist_percentile_ns(hist_array_at(a, 0), 50), p50[0]);
	assert_int_equal(hist_percentile_ns(hist_array_at(a, 5), 50), p50[5]);
	/* each histogram's samples touched some of its pages: those of
	 * 1-4 that lie wholly inside them are gone */
	if (after >= before)
		fail_msg("resident pages: %zu before the drop, %zu after",
		    before, after);
	hist_add(hist_array_at(a, 2), 5000);
	assert_int_equal(hist_count(hist_array_at(a, 2)), 1);
	assert_true(hist_percentile_ns(hist_array_at(a, 2), 50) >= 4900 &&
	    hist_percentile_ns(hist_array_at(a, 2), 50) <= 5100);
	hist_array_free(a, 6);
}

/* An interval's max is its own, not the running max of the cumulative
 * histograms it is the delta of (results.json showed the run's max in
 * every interval). */
static void
test_delta_max_is_the_intervals(void **state)
{
	struct hist *prev = hist_new(), *now = hist_new(), *d = hist_new();
	uint64_t top;
	int i;

	(void)state;
	hist_add(prev, 82040000);		/* warm-up: 82.04 ms */
	for (i = 0; i < 100; i++)
		hist_add(prev, 1000000);
	hist_merge(now, prev);
	for (i = 1; i <= 100; i++)
		hist_add(now, 2000000 + (uint64_t)i * 1000);	/* <= 2.1 ms */
	hist_delta(d, now, prev);
	assert_int_equal(hist_count(d), 100);
	top = hist_max_ns(d);
	/* the top of the bucket of 2.1 ms: at most 1/64 above it */
	assert_true(top >= 2100000 && top <= 2100000 + 2100000 / 64);
	/* an exact max from the counters replaces the estimate */
	hist_exact_max(d, 2100000);
	assert_int_equal(hist_max_ns(d), 2100000);
	/* ... but not one outside the interval's top bucket */
	hist_exact_max(d, 82040000);
	assert_int_equal(hist_max_ns(d), 2100000);
	hist_exact_max(d, 1000000);
	assert_int_equal(hist_max_ns(d), 2100000);
	/* a new max in the interval is exact */
	hist_add(now, 90000000);
	hist_reset(prev);
	hist_add(prev, 82040000);
	hist_delta(d, now, prev);
	assert_int_equal(hist_max_ns(d), 90000000);
	/* an empty interval has no max */
	hist_delta(d, now, now);
	assert_int_equal(hist_count(d), 0);
	assert_int_equal(hist_max_ns(d), 0);
	hist_free(prev);
	hist_free(now);
	hist_free(d);
}

/* A lying peer's histograms are refused, not believed: bucket counts
 * whose sum wraps 64 bits back to n, and cumulative counts that shrink. */
static void
test_lies_refused(void **state)
{
	struct hist *a = hist_new(), *b = hist_new(), *d = hist_new();
	struct errmsg e;
	json_t *j;
	int i;

	(void)state;
	/* 2^63 + 2^63 + 5 wraps to 5 */
	j = json_pack("{s:I,s:I,s:[[I,I],[I,I],[I,I]]}", "n", (json_int_t)5,
	    "max_ns", (json_int_t)10, "b", (json_int_t)1, INT64_MAX,
	    (json_int_t)2, INT64_MAX, (json_int_t)3, (json_int_t)7);
	assert_int_equal(hist_from_json(a, j, &e), -1);
	assert_non_null(strstr(e.text, "overflow"));
	json_decref(j);
	for (i = 0; i < 10; i++)
		hist_add(a, 1000);
	hist_merge(b, a);
	hist_add(b, 5000);
	assert_int_equal(hist_delta(d, b, a), 0);
	assert_int_equal(hist_count(d), 1);
	/* a bucket going backwards (the total still grows) */
	hist_reset(b);
	for (i = 0; i < 5; i++)
		hist_add(b, 1000);
	for (i = 0; i < 50; i++)
		hist_add(b, 9000);
	assert_int_equal(hist_delta(d, b, a), -1);
	assert_int_equal(hist_count(d), 0);
	/* the count going backwards */
	assert_int_equal(hist_delta(d, a, b), -1);
	hist_free(a);
	hist_free(b);
	hist_free(d);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bucket_geometry),
		cmocka_unit_test(test_percentiles_within_1pct),
		cmocka_unit_test(test_other_distributions),
		cmocka_unit_test(test_merge_equals_union),
		cmocka_unit_test(test_delta_max_is_the_intervals),
		cmocka_unit_test(test_lies_refused),
		cmocka_unit_test(test_json_round_trip),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_reuse_ranges),
		cmocka_unit_test(test_array_drop),
	};
	return (cmocka_run_group_tests_name("hist", tests, NULL, NULL));
}
