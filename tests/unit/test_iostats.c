/* I/O counters: add, merge, delta, stddev, JSON. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>

#include <cmocka.h>

#include "iostats.h"

static void
test_add_merge_delta(void **state)
{
	struct iostats a = { 0 }, b = { 0 }, d = { 0 };

	(void)state;
	iostats_add(&a, IOSTATS_READ, 4096, 100000);
	iostats_add(&a, IOSTATS_WRITE, 8192, 300000);
	b = a;
	iostats_add(&b, IOSTATS_READ, 4096, 50000);
	iostats_delta(&d, &b, &a);
	assert_int_equal(d.side[IOSTATS_READ].ios, 1);
	assert_int_equal(d.side[IOSTATS_READ].bytes, 4096);
	assert_int_equal(d.side[IOSTATS_WRITE].ios, 0);
	iostats_merge(&a, &b);
	assert_int_equal(a.side[IOSTATS_READ].ios, 3);
	assert_int_equal(a.side[IOSTATS_WRITE].resp_max_ns, 300000);
}

static void
test_stddev(void **state)
{
	struct iostats s = { 0 };
	const struct iostats_side *r = &s.side[IOSTATS_READ];

	(void)state;
	/* 100 us and 300 us: sample stddev 141.42 us = 0.14142 ms. */
	iostats_add(&s, IOSTATS_READ, 512, 100000);
	iostats_add(&s, IOSTATS_READ, 512, 300000);
	assert_true(fabs(iostats_stddev_ms(r->ios, r->resp_sum_ns,
	    r->resp_sumsq_us2) - 0.141421) < 1e-5);
	assert_true(iostats_stddev_ms(1, 5, 25) == 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_add_merge_delta),
		cmocka_unit_test(test_stddev),
	};
	return (cmocka_run_group_tests_name("iostats", tests, NULL, NULL));
}
