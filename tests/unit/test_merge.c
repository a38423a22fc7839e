/* SPDX-License-Identifier: MIT */
/* A slave's counters are checked before the master believes them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "merge.h"

#define SEC	1000000000ull

/* Plausible cumulative counters after t seconds at 1000 I/Os a second. */
static void
plausible(struct iostats *s, uint64_t t)
{
	memset(s, 0, sizeof(*s));
	s->side[0].ios = 1000 * t;
	s->side[0].bytes = 4096 * 1000 * t;
	s->side[0].resp_sum_ns = 1000 * t * 500000;	/* 0.5 ms each */
	s->side[0].resp_sumsq_us2 = 1000 * t * 500 * 500;
	s->side[0].resp_max_ns = 2000000;
	s->qdepth_ns = s->side[0].resp_sum_ns;
	s->busy_ns = t * SEC;
}

/* Each lie of attacker review #15 is refused, naming the field. */
static void
test_lies(void **state)
{
	struct iostats prev, now;
	struct errmsg e;

	(void)state;
	plausible(&prev, 2);
	plausible(&now, 3);
	assert_int_equal(merge_check_stats(&now, &prev, SEC, 3 * SEC, &e), 0);
	/* counters going backwards (printed as 1.8e19 IO/s) */
	now.side[0].ios = prev.side[0].ios - 1;
	assert_int_equal(merge_check_stats(&now, &prev, SEC, 3 * SEC, &e), -1);
	assert_non_null(strstr(e.text, "read ios went backwards"));
	/* ios = 2^63 - 1 */
	plausible(&now, 3);
	now.side[1].ios = INT64_MAX;
	assert_int_equal(merge_check_stats(&now, &prev, SEC, 3 * SEC, &e), -1);
	assert_non_null(strstr(e.text, "write ios grew by"));
	/* bytes = 2^63 - 1 for 1000 I/Os */
	plausible(&now, 3);
	now.side[0].bytes = INT64_MAX;
	assert_int_equal(merge_check_stats(&now, &prev, SEC, 3 * SEC, &e), -1);
	assert_non_null(strstr(e.text, "read bytes"));
	/* resp_max 4.6e12 ms after 3 s */
	plausible(&now, 3);
	now.side[0].resp_max_ns = 4600000000000000000ull;
	assert_int_equal(merge_check_stats(&now, &prev, SEC, 3 * SEC, &e), -1);
	assert_non_null(strstr(e.text, "read resp_max_ns"));
	/* a response-time sum no 1000 such responses reach */
	plausible(&now, 3);
	now.side[0].resp_sum_ns += 1000 * 5 * SEC;
	assert_int_equal(merge_check_stats(&now, &prev, SEC, 3 * SEC, &e), -1);
	assert_non_null(strstr(e.text, "read resp_sum_ns"));
	plausible(&now, 3);
	now.side[0].resp_sumsq_us2 = UINT64_MAX - 1;
	assert_int_equal(merge_check_stats(&now, &prev, SEC, 3 * SEC, &e), -1);
	assert_non_null(strstr(e.text, "read resp_sumsq_us2"));
	/* file-system counters too */
	plausible(&now, 3);
	now.op[FSOP_CREATE].n = 10;
	now.op[FSOP_CREATE].resp_sum_ns = 10 * 100 * SEC;
	assert_int_equal(merge_check_stats(&now, &prev, SEC, 3 * SEC, &e), -1);
	assert_non_null(strstr(e.text, "create resp_sum_ns"));
	plausible(&now, 3);
	prev.misc[FSM_FILE_CREATES] = 5;
	assert_int_equal(merge_check_stats(&now, &prev, SEC, 3 * SEC, &e), -1);
	assert_non_null(strstr(e.text, "went backwards"));
	prev.misc[FSM_FILE_CREATES] = 0;
	now.busy_ns = UINT64_MAX;
	assert_int_equal(merge_check_stats(&now, &prev, SEC, 3 * SEC, &e), -1);
	assert_non_null(strstr(e.text, "queue time integral"));
}

/* A histogram delta no slave can produce. */
static void
test_hist_lies(void **state)
{
	struct hist *h = hist_new();
	struct errmsg e;

	(void)state;
	hist_add(h, 1000000);
	assert_int_equal(merge_check_hist(h, SEC, 3 * SEC, &e), 0);
	hist_add(h, 3600 * SEC);		/* an hour, 3 s into the run */
	assert_int_equal(merge_check_hist(h, SEC, 3 * SEC, &e), -1);
	assert_non_null(strstr(e.text, "histogram max_ns"));
	hist_free(h);
}

/* One WG's delta of n reads of 4 KiB into keys of interval slot a. */
static void
add_reads(struct iacc *a, const int keys[MERGE_KEYS_PER_WG], uint64_t n,
    uint64_t resp_ns)
{
	struct hist *h[2] = { hist_new(), NULL };
	struct vdbhist v[2];
	struct iostats st;
	uint64_t i;

	memset(&st, 0, sizeof(st));
	memset(v, 0, sizeof(v));
	st.side[0].ios = n;
	st.side[0].bytes = 4096 * n;
	st.side[0].resp_sum_ns = n * resp_ns;
	for (i = 0; i < n; i++)
		hist_add(h[0], resp_ns);
	v[0].count[3] = n;
	merge_add(a, keys, &st, h, v, NULL);
	hist_free(h[0]);
}

/*
 * The ring: a slave may run at most MERGE_RING intervals ahead of the
 * next one printed; a printed interval has no slot; a slot reused for
 * k + MERGE_RING starts empty.
 */
static void
test_ring(void **state)
{
	const int keys[MERGE_KEYS_PER_WG] = { 0, 1, -1, 2, 99, -1, -1 };
	struct merge *m = merge_new(3);
	struct iacc *a, *b;

	(void)state;
	assert_null(merge_slot(m, 4, 5));		/* printed */
	assert_non_null(a = merge_slot(m, 5, 5));
	assert_int_equal(a->k, 5);
	assert_ptr_equal(merge_slot(m, 5, 5), a);	/* same slot */
	assert_non_null(merge_slot(m, 5 + MERGE_RING - 1, 5));
	assert_null(merge_slot(m, 5 + MERGE_RING, 5));	/* too far ahead */
	/* keys -1 and out of range are skipped */
	add_reads(a, keys, 10, 1000000);
	assert_int_equal(a->keys[0].st.side[0].ios, 10);
	assert_int_equal(a->keys[1].st.side[0].ios, 10);
	assert_int_equal(a->keys[2].st.side[0].ios, 10);
	assert_int_equal(a->keys[2].vdb[0].count[3], 10);
	assert_int_equal(hist_count(a->keys[2].h[0]), 10);
	add_reads(a, keys, 5, 1000000);
	assert_int_equal(a->keys[0].st.side[0].ios, 15);
	assert_int_equal(hist_count(a->keys[0].h[0]), 15);
	/* interval 5 printed: its slot, now for 5 + MERGE_RING, is empty */
	a->nrep = 1;
	a->dur_sum_ns = SEC;
	merge_printed(m, a, 1);
	assert_non_null(b = merge_slot(m, 5 + MERGE_RING, 6));
	assert_ptr_equal(a, b);
	assert_int_equal(b->k, 5 + MERGE_RING);
	assert_int_equal(b->keys[0].st.side[0].ios, 0);
	assert_null(b->keys[0].h[0]);
	assert_int_equal(merge_all(m)->keys[0].st.side[0].ios, 15);
	merge_free(m);
}

/*
 * The sums: every printed interval in merge_all; those in the avg window
 * in merge_sum (all of them when none was in the window); durations are
 * the mean over the reporting slaves.
 */
static void
test_avg_window(void **state)
{
	const int keys[MERGE_KEYS_PER_WG] = { 0, -1, -1, -1, -1, -1, -1 };
	struct merge *m = merge_new(1);
	const struct iacc *sum;
	struct iacc *a;
	unsigned int k;

	(void)state;
	/* before any avg interval, the sum is all printed intervals */
	assert_non_null(a = merge_slot(m, 1, 1));
	add_reads(a, keys, 100, 2000000);	/* warmup: 100 at 2 ms */
	a->nrep = 2;
	a->dur_sum_ns = 2 * SEC + 2 * 1000000;	/* 1.001 s mean */
	assert_int_equal(merge_duration_ns(a), SEC + 1000000);
	merge_printed(m, a, 0);
	sum = merge_sum(m);
	assert_ptr_equal(sum, merge_all(m));
	assert_int_equal(sum->keys[0].st.side[0].ios, 100);
	/* intervals 2 and 3 are the avg window: 10 and 20 at 1 ms */
	for (k = 2; k <= 3; k++) {
		assert_non_null(a = merge_slot(m, k, k));
		add_reads(a, keys, 10 * (k - 1), 1000000);
		a->nrep = 1;
		a->dur_sum_ns = SEC;
		a->cpu_valid = 1;
		a->cpu[0] = 7;
		merge_printed(m, a, 1);
	}
	sum = merge_sum(m);
	assert_ptr_not_equal(sum, merge_all(m));
	assert_int_equal(sum->nrep, 2);
	assert_int_equal(sum->keys[0].st.side[0].ios, 30);
	assert_int_equal(sum->keys[0].st.side[0].resp_sum_ns, 30 * 1000000);
	assert_int_equal(hist_count(sum->keys[0].h[0]), 30);
	assert_int_equal(sum->dur_sum_ns, 2 * SEC);
	assert_int_equal(sum->cpu[0], 14);
	assert_int_equal(sum->cpu_valid, 1);
	assert_int_equal(merge_all(m)->nrep, 3);
	assert_int_equal(merge_all(m)->keys[0].st.side[0].ios, 130);
	/* interval 1 had no CPU sample: the whole run's CPU is not valid */
	assert_int_equal(merge_all(m)->cpu_valid, 0);
	merge_free(m);
}

/*
 * A printed interval's slot and histograms go back to the spares and are
 * taken again by a later interval: that interval's percentiles are its
 * own (1 ms before, 10 ms after), none of the earlier latencies left.
 */
static void
test_reused_slot_percentiles(void **state)
{
	const int keys[MERGE_KEYS_PER_WG] = { 0, 1, -1, -1, -1, -1, -1 };
	const int total[MERGE_KEYS_PER_WG] = { 0, -1, -1, -1, -1, -1, -1 };
	struct merge *m = merge_new(2);
	struct iacc *a, *b;
	unsigned int k;

	(void)state;
	for (k = 1; k <= 3; k++) {	/* more than the spares */
		assert_non_null(a = merge_slot(m, k, k));
		add_reads(a, keys, 50, 1000000);
		a->nrep = 1;
		a->dur_sum_ns = SEC;
		merge_printed(m, a, 1);
	}
	assert_non_null(b = merge_slot(m, 4, 4));
	add_reads(b, total, 7, 10000000);
	assert_int_equal(hist_count(b->keys[0].h[0]), 7);
	assert_int_equal(hist_percentile_ns(b->keys[0].h[0], 1) / 1000000,
	    10);
	assert_int_equal(hist_max_ns(b->keys[0].h[0]) / 1000000, 10);
	assert_null(b->keys[1].h[0]);		/* key 1 had nothing */
	b->nrep = 1;
	b->dur_sum_ns = SEC;
	merge_printed(m, b, 1);
	/* the avg holds all four: 150 at 1 ms, then 7 at 10 ms */
	assert_int_equal(hist_count(merge_sum(m)->keys[0].h[0]), 157);
	assert_int_equal(hist_count(merge_sum(m)->keys[1].h[0]), 150);
	assert_int_equal(hist_percentile_ns(merge_sum(m)->keys[0].h[0],
	    99.9) / 1000000, 10);
	merge_free(m);
}

/*
 * Once an interval is in the average, the sums of every interval keep
 * only the total's histograms (the results' all-interval percentiles);
 * the other keys' counters still add up, and the average keeps every
 * key's histograms.
 */
static void
test_all_sums_total_only(void **state)
{
	const int keys[MERGE_KEYS_PER_WG] = { 0, 1, -1, -1, -1, -1, -1 };
	struct merge *m = merge_new(2);
	struct iacc *a;
	unsigned int k;

	(void)state;
	assert_non_null(a = merge_slot(m, 1, 1));	/* warm-up */
	add_reads(a, keys, 20, 2000000);
	a->nrep = 1;
	a->dur_sum_ns = SEC;
	merge_printed(m, a, 0);
	assert_int_equal(hist_count(merge_all(m)->keys[1].h[0]), 20);
	for (k = 2; k <= 3; k++) {
		assert_non_null(a = merge_slot(m, k, k));
		add_reads(a, keys, 10, 1000000);
		a->nrep = 1;
		a->dur_sum_ns = SEC;
		merge_printed(m, a, 1);
	}
	assert_int_equal(hist_count(merge_all(m)->keys[0].h[0]), 40);
	assert_null(merge_all(m)->keys[1].h[0]);
	assert_int_equal(merge_all(m)->keys[1].st.side[0].ios, 40);
	assert_int_equal(hist_count(merge_sum(m)->keys[1].h[0]), 20);
	assert_int_equal(hist_percentile_ns(merge_sum(m)->keys[1].h[0],
	    100) / 1000000, 1);
	merge_free(m);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lies),
		cmocka_unit_test(test_hist_lies),
		cmocka_unit_test(test_ring),
		cmocka_unit_test(test_avg_window),
		cmocka_unit_test(test_reused_slot_percentiles),
		cmocka_unit_test(test_all_sums_total_only),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
