/* vdbench buckets: exact at their edges, histogram= parsing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "vdbhist.h"

static void
test_default_edges(void **state)
{
	struct vdbhist_edges ed;

	(void)state;
	vdbhist_edges_default(&ed);
	assert_int_equal(ed.n, 26);	/* 27 buckets with the open one */
	assert_int_equal(ed.edge_us[0], 20);
	assert_int_equal(ed.edge_us[9], 1000);
	assert_int_equal(ed.edge_us[25], 2000000);
}

static void
test_exact_at_edges(void **state)
{
	struct vdbhist_edges ed;
	unsigned int i;

	(void)state;
	vdbhist_edges_default(&ed);
	assert_int_equal(vdbhist_bucket_of(&ed, 0), 0);
	assert_int_equal(vdbhist_bucket_of(&ed, 19999), 0);
	assert_int_equal(vdbhist_bucket_of(&ed, 20000), 1);	/* 20 us */
	assert_int_equal(vdbhist_bucket_of(&ed, 39999), 1);
	assert_int_equal(vdbhist_bucket_of(&ed, 40000), 2);
	for (i = 0; i < ed.n; i++) {
		uint64_t edge_ns = ed.edge_us[i] * 1000;

		assert_int_equal(vdbhist_bucket_of(&ed, edge_ns - 1), i);
		assert_int_equal(vdbhist_bucket_of(&ed, edge_ns), i + 1);
	}
	assert_int_equal(vdbhist_bucket_of(&ed, UINT64_MAX / 2), 26);
}

static void
test_counts(void **state)
{
	struct vdbhist_edges ed;
	struct vdbhist h = { { 0 } };

	(void)state;
	vdbhist_edges_default(&ed);
	vdbhist_add(&h, &ed, 20000);
	vdbhist_add(&h, &ed, 20001);
	vdbhist_add(&h, &ed, 5);
	assert_int_equal(h.count[0], 1);
	assert_int_equal(h.count[1], 2);
}

static void
test_parse(void **state)
{
	const char *w1[] = { "default", "100", "200", "100", "1000" };
	const char *w2[] = { "default", "1m", "2s", "suppress" };
	const char *w3[] = { "default", "0" };
	const char *w4[] = { "default" };
	const char *w5[] = { "default", "1", "1", "100" };
	struct vdbhist_edges ed;
	struct errmsg e;

	(void)state;
	assert_int_equal(vdbhist_edges_parse(&ed, 5, w1, &e), 0);
	assert_int_equal(ed.n, 10);	/* 100,200,...,1000 */
	assert_int_equal(ed.edge_us[2], 300);
	assert_int_equal(ed.edge_us[9], 1000);
	assert_int_equal(vdbhist_edges_parse(&ed, 4, w2, &e), 0);
	assert_int_equal(ed.n, 2);
	assert_int_equal(ed.edge_us[0], 1000);
	assert_int_equal(ed.edge_us[1], 2000000);
	assert_true(ed.suppress);
	assert_int_equal(vdbhist_edges_parse(&ed, 2, w3, &e), -1);
	assert_string_equal(e.text, "First bucket may not be zero: 0");
	assert_int_equal(vdbhist_edges_parse(&ed, 1, w4, &e), -1);
	assert_int_equal(vdbhist_edges_parse(&ed, 4, w5, &e), -1);
	assert_string_equal(e.text, "Histogram bucket list may not contain "
	    "more than 64 buckets");
}

/* suppress: one empty bucket kept each side of the counted ones. */
static void
test_shown(void **state)
{
	struct vdbhist_edges ed;
	struct vdbhist h = { { 0 } };
	unsigned int from, to;

	(void)state;
	vdbhist_edges_default(&ed);
	vdbhist_add(&h, &ed, 150000);	/* 150 us: [100,200) = bucket 5 */
	vdbhist_add(&h, &ed, 3000000);	/* 3 ms: [2,4) = bucket 11 */
	vdbhist_shown(&ed, h.count, &from, &to);
	assert_int_equal(from, 0);
	assert_int_equal(to, 26);
	ed.suppress = 1;
	vdbhist_shown(&ed, h.count, &from, &to);
	assert_int_equal(from, 4);
	assert_int_equal(to, 12);
	/* at the ends nothing is added past the list */
	memset(&h, 0, sizeof(h));
	vdbhist_add(&h, &ed, 5000);
	vdbhist_add(&h, &ed, 9000000000ull);
	vdbhist_shown(&ed, h.count, &from, &to);
	assert_int_equal(from, 0);
	assert_int_equal(to, 26);
	memset(&h, 0, sizeof(h));
	vdbhist_add(&h, &ed, 9000000000ull);
	vdbhist_shown(&ed, h.count, &from, &to);
	assert_int_equal(from, 25);
	assert_int_equal(to, 26);
	/* nothing counted: the whole list */
	memset(&h, 0, sizeof(h));
	vdbhist_shown(&ed, h.count, &from, &to);
	assert_int_equal(from, 0);
	assert_int_equal(to, 26);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_edges),
		cmocka_unit_test(test_exact_at_edges),
		cmocka_unit_test(test_counts),
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_shown),
	};
	return (cmocka_run_group_tests_name("vdbhist", tests, NULL, NULL));
}
