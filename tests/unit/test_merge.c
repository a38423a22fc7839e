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

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lies),
		cmocka_unit_test(test_hist_lies),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
