/* The skew gate: shares held whatever the members' speeds, ended members
 * hold no one back, and steer finds a member that may go. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "mtime.h"
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

/*
 * Across slaves: a lone member (skew 1, the run's other members on
 * another slave) starts no more than the master's line allows: 256 I/Os
 * of the run before the first line, then base + rate x now; open lifts
 * it, and its own gate still counts.
 */
static void
test_remote_line(void **state)
{
	struct skewgate *g = skewgate_new(1, 256);
	uint64_t n = 0, now;
	int k;

	(void)state;
	skewgate_member(g, 0, 1, NULL, 0, NULL, 0);
	skewgate_remote_on(g);
	for (k = 0; k < 1000; k++)
		n += (uint64_t)skewgate_take(g, 0);
	/* progress 2.56 (256 I/Os of the run at a 1 % share): 3 I/Os */
	assert_int_equal(n, 3);
	now = mtime_now_ns();
	/* the line at 50 now, not rising: 50 I/Os of this member in all */
	skewgate_remote(g, 50 - 0 * (double)now, 0, 0);
	for (k = 0; k < 1000; k++)
		n += (uint64_t)skewgate_take(g, 0);
	assert_int_equal(n, 51);
	assert_int_equal(skewgate_issued(g, 0), 51);
	assert_true(skewgate_ahead(g, 0));
	/* rising at 1 per ns from long ago: far ahead of the member */
	skewgate_remote(g, 50, 1, 0);
	assert_false(skewgate_ahead(g, 0));
	skewgate_remote(g, 0, 0, 1);
	for (k = 0; k < 1000; k++)
		n += (uint64_t)skewgate_take(g, 0);
	assert_int_equal(n, 1051);
	assert_false(skewgate_gone(g, 0));
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
		cmocka_unit_test(test_remote_line),
	};
	return (cmocka_run_group_tests_name("skewgate", tests, NULL, NULL));
}
