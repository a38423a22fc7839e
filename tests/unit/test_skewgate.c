/* The skew gate: shares held whatever the members' speeds, ended members
 * hold no one back, and steer finds a member that may go. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "skewgate.h"

/*
 * Member 0 (skew 70) can start 1 I/O per round, member 1 (skew 30) 10:
 * the gate holds member 1 back to 30 % of the I/Os within the slack.
 */
static void
test_slow_member_sets_the_pace(void **state)
{
	struct skewgate *g = skewgate_new(2, 16);
	uint64_t n[2] = { 0, 0 };
	int round, k;

	(void)state;
	skewgate_member(g, 0, 70, NULL, 0, NULL, 0);
	skewgate_member(g, 1, 30, NULL, 0, NULL, 0);
	for (round = 0; round < 100000; round++) {
		n[0] += (uint64_t)skewgate_take(g, 0);
		for (k = 0; k < 10; k++)
			n[1] += (uint64_t)skewgate_take(g, 1);
	}
	assert_int_equal(n[0], 100000);
	assert_true(n[1] * 1000 / (n[0] + n[1]) >= 299 &&
	    n[1] * 1000 / (n[0] + n[1]) <= 301);
	skewgate_free(g);
}

/* A member at its end (its flag reaches at) no longer holds the others. */
static void
test_ended_member_drops_out(void **state)
{
	struct skewgate *g = skewgate_new(2, 16);
	int eof = 0, i, taken = 0;

	(void)state;
	skewgate_member(g, 0, 50, &eof, 1, NULL, 0);
	skewgate_member(g, 1, 50, NULL, 0, NULL, 0);
	for (i = 0; i < 1000; i++)
		taken += skewgate_take(g, 1);
	assert_true(taken < 100);	/* held by member 0 */
	eof = 1;
	for (i = 0; i < 1000; i++)
		taken += skewgate_take(g, 1);
	assert_true(taken > 1000);
	skewgate_free(g);
}

/* steer: the picked member when it may go, else the one furthest behind,
 * -1 when all of the list are ahead. */
static void
test_steer(void **state)
{
	struct skewgate *g = skewgate_new(3, 4);
	int list[2] = { 0, 1 }, i;

	(void)state;
	for (i = 0; i < 3; i++)
		skewgate_member(g, i, 1, NULL, 0, NULL, 0);
	assert_int_equal(skewgate_steer(g, list, 2, 1), 1);
	for (i = 0; skewgate_take(g, 0); i++)
		;
	assert_true(i >= 1 && i <= 3);	/* held within the slack */
	assert_true(skewgate_ahead(g, 0));
	assert_false(skewgate_ahead(g, 1));
	assert_int_equal(skewgate_steer(g, list, 2, 0), 1);
	while (skewgate_take(g, 1))
		;
	assert_int_equal(skewgate_steer(g, list, 2, 0), -1);
	assert_true(skewgate_take(g, 2));	/* the slowest goes */
	skewgate_free(g);
}

/* steer never hands a thread a member at its end in place of one that
 * is ahead (the thread would take it, find it at eof and spin). */
static void
test_steer_skips_ended(void **state)
{
	struct skewgate *g = skewgate_new(3, 4);
	int list[2] = { 0, 1 }, eof = 1;

	(void)state;
	skewgate_member(g, 0, 1, &eof, 1, NULL, 0);
	skewgate_member(g, 1, 1, NULL, 0, NULL, 0);
	skewgate_member(g, 2, 1, NULL, 0, NULL, 0);
	while (skewgate_take(g, 1))
		;
	assert_int_equal(skewgate_steer(g, list, 2, 1), -1);
	skewgate_free(g);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_slow_member_sets_the_pace),
		cmocka_unit_test(test_ended_member_drops_out),
		cmocka_unit_test(test_steer),
		cmocka_unit_test(test_steer_skips_ended),
	};
	return (cmocka_run_group_tests_name("skewgate", tests, NULL, NULL));
}
