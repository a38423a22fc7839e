/* Write data: dedup units and their distinct count, the compratio fill. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <stdio.h>
#include <unistd.h>

#include <cmocka.h>

#include "pattern.h"

static int
cmp16(const void *a, const void *b)
{
	return (memcmp(a, b, 16));
}

/* Distinct units among n after writing each one (twice for rewrites). */
static size_t
distinct_units(double ratio, double sets, uint64_t n, int rewrites)
{
	const uint64_t unit = 8192;
	unsigned char *buf, *keys;
	struct dedup d;
	struct rng r, pr;
	size_t i, distinct = 0;
	int pass;

	buf = malloc(unit);
	keys = calloc(n, 16);
	rng_init(&pr, 9, 1);
	pattern_fill(buf, unit, 1, unit, &pr);
	dedup_init(&d, ratio, unit, sets, n, 9);
	rng_init(&r, 9, 2);
	for (pass = 0; pass <= rewrites; pass++) {
		for (i = 0; i < n; i++) {
			dedup_stamp(&d, buf, i * unit, unit, &r);
			/* Every sector carries the unit's stamp. */
			assert_memory_equal(buf, buf + unit - 512, 16);
			memcpy(keys + i * 16, buf, 16);
		}
	}
	qsort(keys, n, 16, cmp16);
	for (i = 0; i < n; i++)
		if (i == 0 || memcmp(keys + i * 16, keys + (i - 1) * 16, 16))
			distinct++;
	free(keys);
	free(buf);
	return (distinct);
}

static void
test_dedup_ratio(void **state)
{
	size_t d;

	(void)state;
	d = distinct_units(2, -5, 100000, 1);
	assert_true(d >= 49000 && d <= 51000);
	d = distinct_units(4, -5, 100000, 0);
	assert_true(d >= 24500 && d <= 25500);
	d = distinct_units(1, -5, 10000, 0);
	assert_int_equal(d, 10000);
	/* dedupsets=10: every duplicate is one of ten. */
	d = distinct_units(2, 10, 10000, 0);
	assert_true(d >= 4900 && d <= 5100);
}

/*
 * dedupsets=5% is 5 % of all the lun's units (vdbench: blocks * 5 / 100),
 * not of the distinct ones; more sets than distinct units is refused.
 */
static void
test_dedup_sets_pct(void **state)
{
	struct dedup d;

	(void)state;
	assert_int_equal(dedup_init(&d, 2, 4096, -5, 100000, 1), 0);
	assert_int_equal(d.sets, 5000);
	assert_int_equal(dedup_init(&d, 2, 4096, -10, 2048, 1), 0);
	assert_int_equal(d.sets, 204);		/* 204.8 cut */
	assert_int_equal(dedup_init(&d, 4, 4096, 1, 100, 1), 0);
	assert_int_equal(d.sets, 1);
	/* dedupratio=20, dedupsets=10%: 10,000 sets, 5,000 distinct */
	assert_int_equal(dedup_init(&d, 20, 4096, -10, 100000, 1), -1);
	assert_int_equal(dedup_init(&d, 2, 4096, 60000, 100000, 1), -1);
}

static void
test_unaligned_write_stamps_whole_units_only(void **state)
{
	unsigned char buf[3 * 8192], ref[3 * 8192];
	struct dedup d;
	struct rng r;

	(void)state;
	memset(buf, 0xaa, sizeof(buf));
	memcpy(ref, buf, sizeof(ref));
	dedup_init(&d, 2, 8192, -5, 1000, 1);
	rng_init(&r, 1, 0);
	/* [4k, 28k): the units at 8k and 16k are whole, the one at 24k is
	 * not (its first 4k are the end of the buffer). */
	dedup_stamp(&d, buf, 4096, 3 * 8192, &r);
	assert_memory_equal(buf, ref, 4096);
	assert_memory_not_equal(buf + 4096, ref, 16);
	assert_memory_not_equal(buf + 4096 + 8192, ref, 16);
	assert_memory_equal(buf + 4096 + 16384, ref, 4096);
}

static void
test_fill_period(void **state)
{
	unsigned char b[4 * 8192];
	struct rng r;

	(void)state;
	rng_init(&r, 3, 0);
	pattern_fill(b, sizeof(b), 2, 8192, &r);
	assert_memory_equal(b, b + 3 * 8192, 8192);
	/* compratio=2: the second half of each sector is zeros. */
	assert_int_equal(b[511], 0);
	assert_memory_not_equal(b, b + 300, 16);
}

/*
 * dedupacross=no: a unit with its own data holds the same bytes at the
 * same block of every sd (and on every rewrite); yes: new bytes each
 * write, so never the same on two sds.
 */
static void
test_dedup_across(void **state)
{
	const uint64_t unit = 4096, n = 2000;
	unsigned char a[4096], b[4096];
	struct dedup d;
	struct rng r1, r2;
	uint64_t i, uniq = 0, same = 0;
	int across;

	(void)state;
	for (across = 1; across >= 0; across--) {
		dedup_init(&d, 2, unit, -5, n, 7);
		d.not_across = !across;
		rng_init(&r1, 7, 1);	/* sd1's thread */
		rng_init(&r2, 7, 2);	/* sd2's thread */
		uniq = same = 0;
		for (i = 0; i < n; i++) {
			memset(a, 0, sizeof(a));
			memset(b, 0, sizeof(b));
			dedup_stamp(&d, a, i * unit, unit, &r1);
			dedup_stamp(&d, b, i * unit, unit, &r2);
			if (a[8] & 1) {		/* a unit with own data */
				uniq++;
				same += memcmp(a, b, sizeof(a)) == 0;
			}
		}
		assert_true(uniq > n * 40 / 100);
		assert_int_equal(same, across ? 0 : uniq);
	}
}

/* Write bytes to a new temporary file; its name in path. */
static void
temp_file(char *path, size_t size, const char *bytes, size_t n)
{
	FILE *f;
	int fd;

	snprintf(path, size, "/tmp/vdbc-pattern.XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(bytes, 1, n, f), n);
	fclose(f);
}

/*
 * pattern=file: vdbench reads the file into big-endian words and writes
 * them in the host's order, repeated; a tail short of 4 bytes is cut.
 */
static void
test_pattern_file(void **state)
{
	unsigned char buf[32], want[32];
	uint64_t got = 0, used = 0, i;
	const uint32_t one = 1;
	int little = *(const unsigned char *)&one == 1;
	char path[64];
	struct errmsg e;

	(void)state;
	temp_file(path, sizeof(path), "ABCDEFGH\n", 9);
	assert_int_equal(pattern_load(path, buf, sizeof(buf), &got, &used,
	    &e), 0);
	assert_int_equal(got, 9);
	assert_int_equal(used, 8);
	for (i = 0; i < sizeof(want); i++)
		want[i] = (unsigned char)"ABCDEFGH"[(i & ~3ull) % 8 +
		    (little ? 3 - i % 4 : i % 4)];
	assert_memory_equal(buf, want, sizeof(want));
	assert_memory_equal(buf, little ? "DCBAHGFEDCBA" : "ABCDEFGHABCD", 12);
	unlink(path);
	temp_file(path, sizeof(path), "AB", 2);
	assert_int_equal(pattern_load(path, buf, sizeof(buf), &got, &used,
	    &e), -1);
	assert_non_null(strstr(e.text, "must be a minimum of 4 bytes"));
	unlink(path);
	temp_file(path, sizeof(path), "", 0);
	assert_int_equal(pattern_load(path, buf, sizeof(buf), &got, &used,
	    &e), -1);
	assert_non_null(strstr(e.text, "Pattern file empty: "));
	unlink(path);
	assert_int_equal(pattern_load(path, buf, sizeof(buf), &got, &used,
	    &e), -1);
	assert_non_null(strstr(e.text, "readPattern() pattern file does not "
	    "exist: /tmp/vdbc-pattern."));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dedup_ratio),
		cmocka_unit_test(test_dedup_sets_pct),
		cmocka_unit_test(test_unaligned_write_stamps_whole_units_only),
		cmocka_unit_test(test_fill_period),
		cmocka_unit_test(test_dedup_across),
		cmocka_unit_test(test_pattern_file),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
