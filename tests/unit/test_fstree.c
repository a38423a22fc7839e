/* fsd tree geometry: vdbench's names and counts (the reference tree of
 * c_fsd_format_read), size distributions, totalsize=, our own names. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "fstree.h"
#include "model.h"

static void
fsd_init(struct fsd *f, int depth, int width, uint64_t files)
{
	static uint64_t one_m = 1048576;

	memset(f, 0, sizeof(*f));
	f->depth = depth;
	f->width = width;
	f->files = files;
	f->nsizes = 1;
	f->size_bytes = &one_m;
}

/* depth=2,width=2,files=20,size=1m: 6 dirs, 80 files, 80m. */
static void
test_reference_tree(void **state)
{
	struct fstree t;
	struct fsd f;
	char p[256];

	(void)state;
	fsd_init(&f, 2, 2, 20);
	assert_int_equal(fstree_init(&t, &f), 0);
	assert_int_equal(t.ndirs, 6);
	assert_int_equal(t.nfiles, 80);
	assert_int_equal(t.total_bytes, 80ull * 1048576);
	fstree_dir_path(&t, 0, p, sizeof(p));
	assert_string_equal(p, "vdb.1_1.dir");
	fstree_dir_path(&t, 1, p, sizeof(p));
	assert_string_equal(p, "vdb.1_2.dir");
	fstree_dir_path(&t, 2, p, sizeof(p));
	assert_string_equal(p, "vdb.1_1.dir/vdb.2_1.dir");
	fstree_dir_path(&t, 5, p, sizeof(p));
	assert_string_equal(p, "vdb.1_2.dir/vdb.2_2.dir");
	fstree_file_path(&t, 0, p, sizeof(p));
	assert_string_equal(p, "vdb.1_1.dir/vdb.2_1.dir/vdb_f0001.file");
	fstree_file_path(&t, 19, p, sizeof(p));
	assert_string_equal(p, "vdb.1_1.dir/vdb.2_1.dir/vdb_f0020.file");
	fstree_file_path(&t, 20, p, sizeof(p));
	assert_string_equal(p, "vdb.1_1.dir/vdb.2_2.dir/vdb_f0001.file");
	fstree_file_path(&t, 79, p, sizeof(p));
	assert_string_equal(p, "vdb.1_2.dir/vdb.2_2.dir/vdb_f0020.file");
	assert_int_equal(fstree_file_size(&t, 42), 1048576);
}

/*
 * Counts that do not fit 64 bits are refused, never wrapped (issue 13, 7:
 * depth=10,width=100,files=100 printed 18446744073709551516 files).
 */
static void
test_overflow_refused(void **state)
{
	static uint64_t avg = 1048576, one = 1;
	struct fstree t;
	struct fsd f;

	(void)state;
	fsd_init(&f, 10, 100, 100);
	assert_int_equal(fstree_init(&t, &f), -2);
	fsd_init(&f, 20, 10, 1);	/* dirs alone: 1.1e20 */
	assert_int_equal(fstree_init(&t, &f), -2);
	fsd_init(&f, 1, 4, 1ull << 62);	/* 4 x 2^62 files */
	assert_int_equal(fstree_init(&t, &f), -2);
	fsd_init(&f, 1, 2, 1ull << 50);	/* 2^51 files x 1 MiB */
	assert_int_equal(fstree_init(&t, &f), -2);
	fsd_init(&f, 1, 2, 1ull << 50);	/* sizes=(1m,0): same bound */
	f.size_avg = 1;
	f.size_bytes = &avg;
	assert_int_equal(fstree_init(&t, &f), -2);
	/* the largest that fits still works: 9 levels of 100, 1 file of
	 * 1 byte each */
	fsd_init(&f, 9, 100, 1);
	f.size_bytes = &one;
	assert_int_equal(fstree_init(&t, &f), 0);
	assert_true(t.ndirs == 1010101010101010100ull);
	assert_true(t.nfiles == 1000000000000000000ull);
}

/*
 * totalsize= and workingsetsize= with one file size are a division, not
 * a walk of every file on the slave's event loop (review 2, 4): 10^10
 * files, half of them kept, took 10+ s; now well under a second.
 */
static void
test_totalsize_one_size_fast(void **state)
{
	static uint64_t one = 1, four_k = 4096;
	struct timespec t0, t1;
	struct fstree t;
	struct fsd f;

	(void)state;
	fsd_init(&f, 2, 100, 1000000);		/* 10^10 files of 1 byte */
	f.size_bytes = &one;
	f.totalsize_bytes = 5000000000ull;
	f.wss_bytes = 1000;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	assert_int_equal(fstree_init(&t, &f), 0);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	assert_true(t.nfiles == 5000000000ull);
	assert_true(t.total_bytes == 5000000000ull);
	assert_true(t.nfiles_wss == 1000);
	assert_true((double)(t1.tv_sec - t0.tv_sec) +
	    (double)(t1.tv_nsec - t0.tv_nsec) / 1e9 < 1.0);
	/* the first files that fit, as the walk counted them */
	fsd_init(&f, 1, 2, 10);
	f.size_bytes = &four_k;
	f.totalsize_bytes = 10000;		/* 2 files, 8k */
	assert_int_equal(fstree_init(&t, &f), 0);
	assert_int_equal(t.nfiles, 2);
	assert_int_equal(t.total_bytes, 8192);
	f.totalsize_bytes = 0;
	f.wss_bytes = 100;			/* less than one: one file */
	assert_int_equal(fstree_init(&t, &f), 0);
	assert_int_equal(t.nfiles, 20);
	assert_int_equal(t.nfiles_wss, 1);
}

/* distribution=all: files in every directory. */
static void
test_distribution_all(void **state)
{
	struct fstree t;
	struct fsd f;
	char p[256];

	(void)state;
	fsd_init(&f, 2, 3, 4);
	f.dist_all = 1;
	assert_int_equal(fstree_init(&t, &f), 0);
	assert_int_equal(t.ndirs, 12);
	assert_int_equal(t.nfiles, 48);
	fstree_file_path(&t, 0, p, sizeof(p));
	assert_string_equal(p, "vdb.1_1.dir/vdb_f0001.file");
	fstree_file_path(&t, 47, p, sizeof(p));
	assert_string_equal(p, "vdb.1_3.dir/vdb.2_3.dir/vdb_f0004.file");
}

/* sizes=(4k,50,64k,30,1m,20) over 1,000 files: exact counts, mixed
 * through the tree; totalsize= keeps the first files that fit. */
static void
test_sizes_and_totalsize(void **state)
{
	static uint64_t sz[3] = { 4096, 65536, 1048576 };
	static double pct[3] = { 50, 30, 20 };
	uint64_t n[3] = { 0 }, i, sum = 0, first_half = 0;
	struct fstree t;
	struct fsd f;

	(void)state;
	fsd_init(&f, 1, 10, 100);
	f.nsizes = 3;
	f.size_bytes = sz;
	f.size_pct = pct;
	assert_int_equal(fstree_init(&t, &f), 0);
	for (i = 0; i < t.nfiles; i++) {
		uint64_t s = fstree_file_size(&t, i);

		n[s == 4096 ? 0 : s == 65536 ? 1 : 2]++;
		sum += s;
		if (i < 500)
			first_half += s == 1048576;
	}
	assert_int_equal(n[0], 500);
	assert_int_equal(n[1], 300);
	assert_int_equal(n[2], 200);
	assert_int_equal(sum, t.total_bytes);
	assert_true(first_half > 80 && first_half < 120);	/* spread */
	f.totalsize_bytes = t.total_bytes / 2;
	assert_int_equal(fstree_init(&t, &f), 0);
	assert_true(t.total_bytes <= f.totalsize_bytes);
	assert_true(t.nfiles > 300 && t.nfiles < 700);
	assert_int_equal(t.nfiles_all, 1000);
	/* workingsetsize=: the first files that fit, within totalsize= */
	f.wss_bytes = 10 * 1048576;
	assert_int_equal(fstree_init(&t, &f), 0);
	sum = 0;
	for (i = 0; i < t.nfiles_wss; i++)
		sum += fstree_file_size(&t, i);
	assert_true(sum <= f.wss_bytes);
	assert_true(sum + 1048576 > f.wss_bytes || t.nfiles_wss == t.nfiles);
	assert_true(t.nfiles_wss < t.nfiles);
}

static void
test_is_ours(void **state)
{
	(void)state;
	assert_true(fstree_is_ours("vdb.1_2.dir"));
	assert_true(fstree_is_ours("vdb_f0001.file"));
	assert_true(fstree_is_ours("vdb_f12345.file"));
	assert_true(fstree_is_ours("vdb_control.file"));
	assert_false(fstree_is_ours("vdb_f1.file"));
	assert_false(fstree_is_ours("vdb.1_2.dirx"));
	assert_false(fstree_is_ours("notes.txt"));
	assert_false(fstree_is_ours("vdb_f0001.file.bak"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reference_tree),
		cmocka_unit_test(test_distribution_all),
		cmocka_unit_test(test_sizes_and_totalsize),
		cmocka_unit_test(test_is_ours),
		cmocka_unit_test(test_overflow_refused),
		cmocka_unit_test(test_totalsize_one_size_fast),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
