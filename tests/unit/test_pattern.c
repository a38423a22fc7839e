/* Write data (pattern.h): vdbench's pattern, stamps, dedup units. */
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

/* FNV-1a, 64 bits: a block's fingerprint. */
static uint64_t
fnv(const unsigned char *p, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;

	while (n-- > 0)
		h = (h ^ *p++) * 0x100000001b3ull;
	return (h);
}

static int
cmp64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x < y ? -1 : x > y);
}

/* An sd alone in its dedup group. */
static int
sd_init(struct wdata_sd *sd, const char *name, uint64_t lun, uint64_t unit,
    double ratio, double sets, int no, char *err, size_t errlen)
{
	return (wdata_sd_init(sd, name, lun, lun, 0, unit, ratio, sets, no,
	    err, errlen));
}

/* Distinct units of an n-unit lun of sd "name" written unit by unit. */
static size_t
distinct_units(const struct wdata *d, const struct wdata_sd *sd, uint64_t n)
{
	uint64_t u = sd->dd.unit_bytes, i, *h = calloc(n, 8);
	unsigned char *buf = malloc(u);
	size_t k = 0;

	for (i = 0; i < n; i++) {
		wdata_block(d, sd, buf, i * u, u, 3, 77);
		h[i] = fnv(buf, u);
	}
	qsort(h, n, 8, cmp64);
	for (i = 0; i < n; i++)
		k += i == 0 || h[i] != h[i - 1];
	free(h);
	free(buf);
	return (k);
}

/*
 * dedupratio=r: vdbench's unique units (its bitmap) plus the duplicate
 * sets, dedupsets=5% of all units by default: 20,000 units at r=2 are
 * 45 % unique + 1,000 sets; at r=4 20 % + 1,000; r=1 all distinct.
 */
static void
test_wdata_dedup_ratio(void **state)
{
	struct wdata d;
	struct wdata_sd sd;
	char err[256];
	size_t k;

	(void)state;
	wdata_init(&d, 1, 0, 65536, 4096);
	assert_int_equal(sd_init(&sd, "sd1", 20000 * 4096ull, 4096, 2,
	    -5, 0, err, sizeof(err)), 0);
	k = distinct_units(&d, &sd, 20000);
	assert_int_equal(k, 9000 + 1000);
	wdata_sd_free(&sd);
	assert_int_equal(sd_init(&sd, "sd1", 20000 * 4096ull, 4096, 4,
	    -5, 0, err, sizeof(err)), 0);
	assert_int_equal(distinct_units(&d, &sd, 20000), 4000 + 1000);
	wdata_sd_free(&sd);
	assert_int_equal(sd_init(&sd, "sd1", 2000 * 4096ull, 4096, 1,
	    -5, 0, err, sizeof(err)), 0);
	assert_int_equal(distinct_units(&d, &sd, 2000), 2000);
	wdata_sd_free(&sd);
	/* dedupsets=10 */
	assert_int_equal(sd_init(&sd, "sd1", 2000 * 4096ull, 4096, 2,
	    10, 0, err, sizeof(err)), 0);
	assert_int_equal(distinct_units(&d, &sd, 2000), 990 + 10);
	wdata_sd_free(&sd);
	/* dedupratio=20, dedupsets=10%: more sets than duplicates */
	assert_int_equal(sd_init(&sd, "sd1", 100000 * 4096ull, 4096, 20,
	    -10, 0, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "adjustDedupValue(): requesting more "
	    "dedupsets (10000) than we have non-unique data blocks (5000, "
	    "estimated)"));
	wdata_free(&d);
}

/*
 * A unit's bytes do not depend on how a write covers it: [4k, 28k) of
 * 8k units is the second half of unit 0, units 1 and 2, and the first
 * half of unit 3, as written whole; no time stamp, so a rewrite is the
 * same. A unique unit's sectors carry its lba; a duplicate's the set.
 */
static void
test_wdata_dedup_parts(void **state)
{
	unsigned char whole[4 * 8192], part[3 * 8192];
	struct wdata d;
	struct wdata_sd sd;
	char err[256];
	uint64_t i, lba;
	uint32_t v;

	(void)state;
	wdata_init(&d, 2, 0, 65536, 8192);
	assert_int_equal(sd_init(&sd, "sd1", 1000 * 8192ull, 8192, 2,
	    -5, 0, err, sizeof(err)), 0);
	for (i = 0; i < 4; i++)
		wdata_block(&d, &sd, whole + i * 8192, i * 8192, 8192, 3, 1);
	wdata_block(&d, &sd, part, 4096, sizeof(part), 3, 2);
	assert_memory_equal(part, whole + 4096, sizeof(part));
	for (lba = 0; lba < 1000 * 8192; lba += 8192) {
		struct dv_kb kb;

		wdata_block(&d, &sd, whole, lba, 8192, 3, 1);
		dv_kb_of(&sd.dd, lba, 0, &kb);
		memcpy(&v, whole + 512 + 4, 4);
		if (kb.kind == DV_KB_UNIQUE)
			assert_int_equal(v, (uint32_t)(lba + 512));
		else
			assert_int_equal(v, (uint32_t)kb.set);
	}
	wdata_sd_free(&sd);
	wdata_free(&d);
}

/*
 * dedupacross=no: each sd's unique units come from its own bitmap (the
 * sd's name seeds it) and hold the lba alone, so the units unique on both
 * sds at the same lba are the same bytes and the others differ; yes: the
 * name is in every sector, no unique unit is the same on two sds.
 */
static void
test_wdata_dedup_across(void **state)
{
	const uint64_t u = 4096, n = 2000;
	unsigned char a[4096], b[4096];
	struct wdata d;
	struct wdata_sd s1, s2;
	char err[256];
	uint64_t i, both = 0, same = 0;
	int no;

	(void)state;
	wdata_init(&d, 1, 0, 65536, u);
	for (no = 0; no <= 1; no++) {
		assert_int_equal(sd_init(&s1, "sd1", n * u, u, 2, -5,
		    no, err, sizeof(err)), 0);
		assert_int_equal(sd_init(&s2, "sd2", n * u, u, 2, -5,
		    no, err, sizeof(err)), 0);
		both = same = 0;
		for (i = 0; i < n; i++) {
			struct dv_kb k1, k2;

			dv_kb_of(&s1.dd, i * u, 0, &k1);
			dv_kb_of(&s2.dd, i * u, 0, &k2);
			wdata_block(&d, &s1, a, i * u, u, 3, 1);
			wdata_block(&d, &s2, b, i * u, u, 4, 1);
			if (k1.kind == DV_KB_DUP || k2.kind == DV_KB_DUP)
				continue;
			both++;
			same += memcmp(a, b, u) == 0;
		}
		/* 45 % unique each: about a fifth unique on both */
		assert_true(both > n / 10 && both < n * 3 / 10);
		assert_int_equal(same, no ? both : 0);
		wdata_sd_free(&s1);
		wdata_sd_free(&s2);
	}
	wdata_free(&d);
}

/*
 * An sd in a dedup group (vdbench's SdDedup): the sets are counted over
 * the group, and its duplicate unit b is of set (b + rel / unit) % sets,
 * so unit b of an sd that starts 100 units in is unit b + 100 of one
 * that starts at 0.
 */
static void
test_wdata_dedup_group(void **state)
{
	const uint64_t u = 4096, n = 1000;
	unsigned char a[4096], b[4096];
	struct wdata d;
	struct wdata_sd s1, s2;
	char err[256];
	uint64_t i, dups = 0;

	(void)state;
	wdata_init(&d, 1, 0, 65536, u);
	assert_int_equal(wdata_sd_init(&s1, "sd1", n * u, 2 * n * u, 100 * u,
	    u, 2, -5, 0, err, sizeof(err)), 0);
	assert_int_equal(wdata_sd_init(&s2, "sd1", 2 * n * u, 2 * n * u, 0,
	    u, 2, -5, 0, err, sizeof(err)), 0);
	assert_int_equal(s1.dd.sets_used, 100);		/* 5 % of 2000 */
	for (i = 0; i < n; i++) {
		struct dv_kb k1;

		dv_kb_of(&s1.dd, i * u, 0, &k1);
		if (k1.kind != DV_KB_DUP)
			continue;
		dups++;
		wdata_block(&d, &s1, a, i * u, u, 3, 1);
		wdata_block(&d, &s2, b, (i + 100) * u, u, 3, 1);
		dv_kb_of(&s2.dd, (i + 100) * u, 0, &k1);
		if (k1.kind == DV_KB_DUP)
			assert_memory_equal(a, b, u);
	}
	assert_true(dups > n * 40 / 100);
	wdata_sd_free(&s1);
	wdata_sd_free(&s2);
	wdata_free(&d);
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

/* vdbench's compratio table: the first row at or above, else the last. */
static void
test_wdata_zero_limit(void **state)
{
	(void)state;
	assert_true(wdata_zero_limit(1) == 0);
	assert_true(wdata_zero_limit(2) == 7000);	/* 2.02 */
	assert_true(wdata_zero_limit(4) == 8700);	/* 4.06 */
	assert_true(wdata_zero_limit(8) == 9460);	/* 8.07 */
	assert_true(wdata_zero_limit(1.05) == 3500);	/* 1.10 */
	assert_true(wdata_zero_limit(30) == 9990);	/* past the table */
}

/*
 * The pattern is java.util.Random(seed)'s: new Random(0).nextDouble() is
 * 0.730967787376657, so the first int is 1569741369 at compratio=1; at
 * compratio=4 about 87 % of the ints are zero; 1 MiB span, 2 MiB long.
 */
static void
test_wdata_pattern(void **state)
{
	struct wdata d;
	uint32_t v;
	uint64_t i, zeros = 0;

	(void)state;
	wdata_init(&d, 1, 0, 4096, 0);
	assert_int_equal(d.span, 1 << 20);
	assert_int_equal(d.pat_bytes, 2 << 20);
	memcpy(&v, d.pat, 4);
	assert_int_equal(v, 1569741369);
	for (i = 0; i < d.pat_bytes; i += 4)
		zeros += memcmp(d.pat + i, "\0\0\0\0", 4) == 0;
	assert_true(zeros < 10);
	wdata_free(&d);
	wdata_init(&d, 4, 0, 3 << 20, 8192);
	assert_int_equal(d.span, 3 << 20);
	assert_int_equal(d.pat_bytes, (6 << 20) + 16384);
	memcpy(&v, d.pat, 4);
	assert_true(v == 0 || v == 1569741369);	/* the same ints */
	for (i = zeros = 0; i < d.pat_bytes; i += 4)
		zeros += memcmp(d.pat + i, "\0\0\0\0", 4) == 0;
	assert_true(zeros > d.pat_bytes / 4 * 86 / 100 &&
	    zeros < d.pat_bytes / 4 * 88 / 100);
	wdata_free(&d);
}

/*
 * A write copies the pattern from lba % span and stamps each 4k piece:
 * (lba / 4096) ^ fhandle << 16, then the time; 1,024 blocks of one
 * sequential pass are all different, and only in those 8 bytes.
 */
static void
test_wdata_block(void **state)
{
	struct wdata d;
	unsigned char *lun, buf[16384];
	uint32_t w[2];
	uint64_t i, j, same = 0;

	(void)state;
	wdata_init(&d, 2, 5, 16384, 0);
	lun = malloc(1024 * 4096);
	for (i = 0; i < 1024; i++)
		wdata_block(&d, NULL, lun + i * 4096, i * 4096, 4096, 7, 1000);
	for (i = 0; i < 1024; i++) {
		assert_memory_equal(lun + i * 4096 + 8, d.pat + (i * 4096) %
		    d.span + 8, 4096 - 8);
		for (j = 0; j < i; j++)
			same += memcmp(lun + i * 4096, lun + j * 4096,
			    4096) == 0;
	}
	assert_int_equal(same, 0);
	memcpy(w, lun + 5 * 4096, 8);
	assert_int_equal(w[0], 5 ^ 7 << 16);
	assert_int_equal(w[1], 1000);
	/* 16k at 1 MiB + 8k: the pattern of 8k, a stamp each 4k */
	wdata_block(&d, NULL, buf, (1 << 20) + 8192, sizeof(buf), 3, 9);
	for (i = 0; i < sizeof(buf); i += 4096) {
		memcpy(w, buf + i, 8);
		assert_int_equal(w[0], ((1 << 20) + 8192 + i) / 4096 ^ 3 << 16);
		assert_int_equal(w[1], 9);
		assert_memory_equal(buf + i + 8, d.pat + 8192 + i + 8,
		    4096 - 8);
	}
	/* a 512-byte write: one stamp */
	wdata_block(&d, NULL, buf, 512, 512, 0, 4);
	memcpy(w, buf, 8);
	assert_int_equal(w[0], 0);
	assert_int_equal(w[1], 4);
	assert_memory_equal(buf + 8, d.pat + 512 + 8, 512 - 8);
	free(lun);
	wdata_free(&d);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wdata_dedup_ratio),
		cmocka_unit_test(test_wdata_dedup_parts),
		cmocka_unit_test(test_wdata_dedup_across),
		cmocka_unit_test(test_wdata_dedup_group),
		cmocka_unit_test(test_pattern_file),
		cmocka_unit_test(test_wdata_zero_limit),
		cmocka_unit_test(test_wdata_pattern),
		cmocka_unit_test(test_wdata_block),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
