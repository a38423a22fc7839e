/* Seeded generator: repeatable, independent streams, sane moments. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>

#include <cmocka.h>

#include "rng.h"

static void
test_repeatable(void **state)
{
	struct rng a, b, c;
	int i, same = 0;

	(void)state;
	rng_init(&a, 1, 0);
	rng_init(&b, 1, 0);
	rng_init(&c, 1, 1);
	for (i = 0; i < 1000; i++) {
		uint64_t x = rng_u64(&a);

		assert_int_equal(x, rng_u64(&b));
		same += x == rng_u64(&c);
	}
	assert_int_equal(same, 0);
}

static void
test_moments(void **state)
{
	struct rng r;
	double sum = 0, esum = 0;
	uint64_t below[10] = { 0 };
	int i, n = 200000;

	(void)state;
	rng_init(&r, 12345, 3);
	for (i = 0; i < n; i++) {
		double d = rng_double(&r);

		assert_true(d >= 0 && d < 1);
		sum += d;
		esum += rng_exp(&r, 50.0);
		below[rng_below(&r, 10)]++;
	}
	assert_true(fabs(sum / n - 0.5) < 0.005);
	assert_true(fabs(esum / n - 50.0) < 0.5);
	for (i = 0; i < 10; i++)
		assert_true(fabs((double)below[i] / n - 0.1) < 0.005);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_repeatable),
		cmocka_unit_test(test_moments),
	};
	return (cmocka_run_group_tests_name("rng", tests, NULL, NULL));
}
