/*
 * Data validation against vdbench 5.04.06's own bytes and words: sectors
 * dv.c fills equal the hex dumps of blocks vdbench wrote, and the
 * corruption report of the reference runs v2a (random overwrite), v2b
 * (zeroed block), v2c (one byte) and v5b (an FSD's file) comes out line
 * for line
 * (tests/data/dv/, copied from reference/vdbench-5.04.06/validation/).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "dv.h"
#include "model.h"
#include "pattern.h"

#ifndef DATA_DIR
#error DATA_DIR must name tests/data/dv
#endif

static struct wdata wd;
static unsigned char *pat;

static int
setup(void **state)
{
	(void)state;
	setenv("TZ", "UTC", 1);
	tzset();
	wdata_init(&wd, 1, 0, 0, 0);	/* vdbench's at compratio=1 */
	pat = wd.pat;
	return (0);
}

static int
teardown(void **state)
{
	(void)state;
	wdata_free(&wd);
	return (0);
}

/* An "od -A d -t x1" dump: its first offset and its bytes. */
static size_t
read_od(const char *name, uint64_t *first, unsigned char *buf, size_t cap)
{
	char path[512], line[256];
	FILE *f;
	size_t n = 0;
	int have = 0;

	snprintf(path, sizeof(path), "%s/%s", DATA_DIR, name);
	f = fopen(path, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f) != NULL) {
		char *p = line, *end;
		unsigned long long off = strtoull(p, &end, 10);

		if (end == p)
			continue;
		if (!have) {
			*first = off;
			have = 1;
		}
		p = end;
		for (;;) {
			unsigned long v = strtoul(p, &end, 16);

			if (end == p)
				break;
			assert_true(n < cap);
			buf[n++] = (unsigned char)v;
			p = end;
		}
	}
	fclose(f);
	return (n);
}

/* A reference report file as lines. */
static void
read_lines(const char *name, struct strlist *out)
{
	char path[512], line[1024];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", DATA_DIR, name);
	f = fopen(path, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f) != NULL) {
		n = strlen(line);
		if (n > 0 && line[n - 1] == '\n')
			line[--n] = '\0';
		strlist_add(out, line);
	}
	fclose(f);
}

static void
assert_lines(const struct strlist *want, const struct strlist *got)
{
	int i;

	for (i = 0; i < want->n && i < got->n; i++) {
		if (strcmp(want->v[i], got->v[i]) != 0)
			fail_msg("line %d:\nwant '%s'\ngot  '%s'", i + 1,
			    want->v[i], got->v[i]);
	}
	assert_int_equal(got->n, want->n);
}

static void
stamp(struct dv_stamp *st, uint64_t ts, uint32_t pid)
{
	st->ts_ms = ts;
	st->pid = pid;
	dv_name8(st->name, "sd1");
}

/* java.util.Random(0).nextDouble() * Integer.MAX_VALUE, as ints. */
static void
test_pattern_words(void **state)
{
	(void)state;
	/* new Random(0).nextDouble() = 0.730967787376657 */
	assert_int_equal(pat[0] | pat[1] << 8 | pat[2] << 16 |
	    (uint32_t)pat[3] << 24, (uint32_t)(0.730967787376657 *
	    2147483647.0));
	/* From the v2c dump of block 251: byte 0xfb020 of the buffer. */
	assert_int_equal(pat[0xfb020], 0xb3);
	assert_int_equal(pat[0xfb023], 0x38);
}

/* Block 251 of v2c as vdbench wrote it: lba 0xfb000, key 1. */
static void
test_fill_matches_vdbench(void **state)
{
	unsigned char want[4096], got[4096];
	uint64_t first = 0;
	size_t n;
	struct dv_stamp st;

	(void)state;
	n = read_od("v2c_block251_od.txt", &first, want, sizeof(want));
	assert_int_equal(first, 251 * 4096);
	assert_int_equal(n, 640);
	stamp(&st, 0x1a22ed2bfb1ull, 0x1bb8);
	dv_fill(pat, got, 251 * 4096, 4096, 1, &st);
	assert_memory_equal(got, want, n);

	/* Sector 2 of block 250, whose byte 0x100 the test flipped. */
	n = read_od("v2c_block250_sector2_od.txt", &first, want,
	    sizeof(want));
	assert_int_equal(first, 250 * 4096 + 1024);
	assert_int_equal(n, 512);
	dv_fill(pat, got, 250 * 4096, 4096, 1, &st);
	assert_int_equal(want[0x100], got[1024 + 0x100] ^ 0xff);
	want[0x100] ^= 0xff;
	assert_memory_equal(got + 1024, want, 512);
}

/*
 * Key block 0xc000 (8 KiB, key 3) of an sd that the real vdbench 5.04.06
 * wrote with -v at compratio=4 (tests/data/dv/journal-fixtures.md): its
 * 480 pattern bytes per sector come from the compression pattern, with
 * vdbench's zeroes. vdbc fills the same bytes from the same stamp and
 * finds every sector good; the compratio=1 pattern (what -v used
 * before) finds every sector's pattern bad.
 */
static void
test_fill_matches_vdbench_compratio(void **state)
{
	unsigned char want[8192], got[8192];
	const uint64_t lba = 0xc000;
	struct wdata c4;
	struct dv_stamp st;
	struct dv_kb kb;
	char path[512];
	FILE *f;
	unsigned s;
	int key;

	(void)state;
	snprintf(path, sizeof(path), "%s/v6_c4_sd1_0xc000.bin", DATA_DIR);
	f = fopen(path, "rb");
	assert_non_null(f);
	assert_int_equal(fread(want, 1, sizeof(want), f), sizeof(want));
	fclose(f);
	key = want[19];
	assert_int_equal(key, 3);
	st.ts_ms = (uint64_t)(want[8] | want[9] << 8 | want[10] << 16 |
	    (uint32_t)want[11] << 24) << 32 | (want[12] | want[13] << 8 |
	    want[14] << 16 | (uint32_t)want[15] << 24);
	st.pid = want[28] | want[29] << 8 | want[30] << 16 |
	    (uint32_t)want[31] << 24;
	dv_name8(st.name, "sd1");
	wdata_init(&c4, 4, 0, 8192, 0);
	dv_kb_of(NULL, lba, key, &kb);
	dv_fill_kb(c4.pat, got, lba, sizeof(got), key, &kb, &st);
	assert_memory_equal(got, want, sizeof(want));
	for (s = 0; s < sizeof(want) / DV_SECTOR; s++) {
		assert_int_equal(dv_check_sector_kb(c4.pat,
		    want + s * DV_SECTOR, lba, s, key, st.name, &kb), 0);
		assert_int_equal(dv_check_sector_kb(pat,
		    want + s * DV_SECTOR, lba, s, key, st.name, &kb),
		    DV_BAD_COMP);
	}
	wdata_free(&c4);
}

static void
test_checksum_and_keys(void **state)
{
	(void)state;
	assert_int_equal(dv_checksum(0x1a22ed2bfb1ull), 0x13);
	/* Byte sum: 0x48e; the v2a report sums ts >> 8 ("should be 9a"). */
	assert_int_equal(dv_checksum(0x638b4678afd16ef4ull), 0x8e);
	assert_int_equal(dv_checksum(0x638b4678afd16eull), 0x9a);
	assert_int_equal(dv_next_key(0), 1);
	assert_int_equal(dv_next_key(1), 2);
	assert_int_equal(dv_next_key(125), 126);
	assert_int_equal(dv_next_key(126), 1);
}

/* Each kind of damage gives its flag and no other. */
static void
test_check_flags(void **state)
{
	unsigned char b[4096], c[4096];
	struct dv_stamp st;
	char name[8];

	(void)state;
	stamp(&st, 1796081893297ull, 42);
	dv_name8(name, "sd1");
	dv_fill(pat, b, 0x200000 + 8192, 4096, 5, &st);
	for (unsigned s = 0; s < 8; s++)
		assert_int_equal(dv_check_sector(pat, b + 512 * s,
		    0x200000 + 8192, s, 5, name), 0);
	assert_int_equal(dv_check_sector(pat, b, 0x200000 + 8192, 0, 6,
	    name), DV_BAD_KEY);
	assert_int_equal(dv_check_sector(pat, b, 0x200000 + 4096, 0, 5,
	    name), DV_BAD_LBA | DV_BAD_COMP);
	memcpy(c, b, sizeof(c));
	c[9] ^= 1;		/* timestamp */
	assert_int_equal(dv_check_sector(pat, c, 0x200000 + 8192, 0, 5,
	    name), DV_BAD_CHECKSUM);
	memcpy(c, b, sizeof(c));
	c[21] = 'x';
	assert_int_equal(dv_check_sector(pat, c, 0x200000 + 8192, 0, 5,
	    name), DV_BAD_NAME);
	memcpy(c, b, sizeof(c));
	c[511] ^= 0x80;
	assert_int_equal(dv_check_sector(pat, c, 0x200000 + 8192, 0, 5,
	    name), DV_BAD_COMP);
	/* Only bit 0 of the reserved bytes counts (vdbench's quirk). */
	memcpy(c, b, sizeof(c));
	c[16] = 2;
	assert_int_equal(dv_check_sector(pat, c, 0x200000 + 8192, 0, 5,
	    name), 0);
	c[16] = 1;
	assert_int_equal(dv_check_sector(pat, c, 0x200000 + 8192, 0, 5,
	    name), DV_BAD_ZERO);
	/* pid is not checked. */
	memcpy(c, b, sizeof(c));
	c[28] ^= 0xff;
	assert_int_equal(dv_check_sector(pat, c, 0x200000 + 8192, 0, 5,
	    name), 0);
}

static void
test_map(void **state)
{
	struct dv_map m;

	(void)state;
	assert_int_equal(dv_map_init(&m, 16, 4096), 0);
	assert_int_equal(dv_map_claim(&m, 2, 3), 0);
	assert_int_equal(dv_map_claim(&m, 4, 2), -1);
	/* The failed claim left block 5 free. */
	assert_int_equal(dv_map_claim(&m, 5, 1), 0);
	dv_map_release(&m, 5, -1);
	assert_int_equal(dv_map_key(&m, 2), 0);
	dv_map_release(&m, 2, 7);
	dv_map_release(&m, 3, -1);
	dv_map_release(&m, 4, DV_KEY_ERROR);
	assert_int_equal(dv_map_key(&m, 2), 7);
	assert_int_equal(dv_map_key(&m, 3), 0);
	assert_int_equal(dv_map_key(&m, 4), DV_KEY_ERROR);
	assert_int_equal(dv_map_claim(&m, 2, 3), 0);
	dv_map_free(&m);
}

/* A block's report against the reference's lines. */
static void
report_case(const char *file, const unsigned char *data, uint64_t lba,
    uint32_t pid, uint64_t found_ms, const char *lun)
{
	struct strlist want = { 0 }, got = { 0 };
	int keys[1] = { 1 };
	char name[8];
	struct dv_bad_block b = {
		.sd = "sd1", .lun = lun, .lba = lba, .xfer = 4096,
		.kb_bytes = 4096, .data = data, .keys = keys, .name8 = name,
		.pid = pid, .found_ms = found_ms, .why = DV_WHY_READ,
	};

	dv_name8(name, "sd1");
	assert_int_equal(dv_bad_keyblocks(pat, &b), 1);
	read_lines(file, &want);
	dv_report_block(&got, pat, &b);
	assert_lines(&want, &got);
	strlist_clear(&want);
	strlist_clear(&got);
}

/* v2c: one byte of sector 2 flipped. */
static void
test_report_onebyte(void **state)
{
	unsigned char b[4096];
	struct dv_stamp st;

	(void)state;
	stamp(&st, 0x1a22ed2bfb1ull, 0x1bb8);
	dv_fill(pat, b, 0xfa000, 4096, 1, &st);
	b[1024 + 0x100] ^= 0xff;
	report_case("v2c_fa000.txt", b, 0xfa000, 7096, 1796081895411ull,
	    "/tmp/dv/data/lun2c");
}

/* v2b: a zeroed block. */
static void
test_report_zero(void **state)
{
	unsigned char b[4096];

	(void)state;
	memset(b, 0, sizeof(b));
	report_case("v2b_96000.txt", b, 0x96000, 6734, 1796081884578ull,
	    "/tmp/dv/data/lun2b");
}

/*
 * v2a: 4 KiB of random bytes. The report prints every found word of
 * every sector (all 16-byte lines differ), so the block is rebuilt from
 * the report's right-hand columns.
 */
static void
test_report_random(void **state)
{
	struct strlist want = { 0 };
	unsigned char b[4096];
	int i, sector = -1, w;
	unsigned off, v[4];

	(void)state;
	memset(b, 0, sizeof(b));
	read_lines("v2a_c8000.txt", &want);
	for (i = 0; i < want.n; i++) {
		const char *l = want.v[i];

		if (strstr(l, "Data Validation error for") != NULL)
			sector++;
		if (strncmp(l, "0x", 2) != 0 || sector < 0)
			continue;
		assert_int_equal(sscanf(l + 2, "%x", &off), 1);
		assert_int_equal(sscanf(l + 8 + 39 - 3, " %x %x %x %x",
		    &v[0], &v[1], &v[2], &v[3]), 4);
		for (w = 0; w < 4; w++) {
			unsigned char *p = b + 512 * sector + off + 4 * w;

			p[0] = (unsigned char)v[w];
			p[1] = (unsigned char)(v[w] >> 8);
			p[2] = (unsigned char)(v[w] >> 16);
			p[3] = (unsigned char)(v[w] >> 24);
		}
	}
	assert_int_equal(sector, 7);
	strlist_clear(&want);
	report_case("v2a_c8000.txt", b, 0xc8000, 6370, 1796081866483ull,
	    "/tmp/dv/data/lun2");
}

/* The report of a block with -vt stamps: its lines from "Timeline: ". */
static void
time_report(const unsigned char *data, uint64_t lba, uint64_t stamp_v,
    struct strlist *tl, struct strlist *all)
{
	int keys[1] = { 1 };
	uint64_t st[1] = { stamp_v };
	char name[8];
	struct dv_bad_block b = {
		.sd = "sd1", .lun = "/l", .lba = lba, .xfer = 4096,
		.kb_bytes = 4096, .data = data, .keys = keys, .name8 = name,
		.pid = 7, .found_ms = 1796081895411ull, .why = DV_WHY_PREREAD,
		.stamps = st,
	};
	int i, on = 0;

	dv_name8(name, "sd1");
	dv_report_block(all, pat, &b);
	for (i = 0; i < all->n; i++) {
		if (strcmp(all->v[i], "   Timeline: ") == 0)
			on = 1;
		if (on && all->v[i][0] == '\0')
			break;
		if (on)
			strlist_add(tl, all->v[i]);
	}
}

/*
 * validate=time (BadKeyBlock.reportTimeLine): the block's last use goes
 * between the other dated lines by time; a block not used yet says so
 * first; the all-same form adds when the block was last used.
 */
static void
test_report_time(void **state)
{
	struct strlist tl = { 0 }, all = { 0 };
	unsigned char b[4096];
	struct dv_stamp st;
	int i, found = 0;

	(void)state;
	/* sector written at ...893.297, last used ...894.000, found 895.411 */
	stamp(&st, 0x1a22ed2bfb1ull, 0x1bb8);
	dv_fill(pat, b, 0xfa000, 4096, 1, &st);
	b[1024 + 0x100] ^= 0xff;
	time_report(b, 0xfa000, 1796081894000ull | (uint64_t)DV_TS_WRITE << 56,
	    &tl, &all);
	assert_int_equal(tl.n, 4);
	assert_string_equal(tl.v[1], "   Mon Nov 30 2026 23:38:13.297 UTC "
	    "Sector last written. (As found in the first corrupted sector, "
	    "timestamp is taken just BEFORE the actual write).");
	assert_string_equal(tl.v[2], "   Mon Nov 30 2026 23:38:14.000 UTC "
	    "Key block was last written. (Timestamp is taken just AFTER the "
	    "actual read or write).");
	assert_string_equal(tl.v[3], "   Mon Nov 30 2026 23:38:15.411 UTC "
	    "Key block first found to be corrupted during a "
	    "read-before-write.");
	strlist_clear(&tl);
	strlist_clear(&all);
	/* last used before the sector's write time (another clock): first */
	time_report(b, 0xfa000, 1796081890000ull |
	    (uint64_t)DV_TS_AFTER_WRITE << 56, &tl, &all);
	assert_int_equal(tl.n, 4);
	assert_string_equal(tl.v[1], "   Mon Nov 30 2026 23:38:10.000 UTC "
	    "Key block was last read_after_write. (Timestamp is taken just "
	    "AFTER the actual read or write).");
	strlist_clear(&tl);
	strlist_clear(&all);
	/* zeros: no valid timestamp? (checksum of 0 is 0: valid, 1970) and
	 * a block never used yet */
	memset(b, 0, sizeof(b));
	time_report(b, 0x96000, 0, &tl, &all);
	assert_int_equal(tl.n, 4);
	assert_string_equal(tl.v[1], "   This key block has not been used "
	    "(yet) during this vdbench test.");
	assert_string_equal(tl.v[2], "   Thu Jan 01 1970 00:00:00.000 UTC "
	    "Sector last written. (As found in the first corrupted sector, "
	    "timestamp is taken just BEFORE the actual write).");
	for (i = 0; i < all.n; i++)
		found |= strncmp(all.v[i], "Time that this key block", 24) == 0;
	assert_false(found);
	strlist_clear(&tl);
	strlist_clear(&all);
	/* the all-same form says when the block was last used, and how */
	time_report(b, 0x96000, 1796081894000ull |
	    (uint64_t)DV_TS_PREREAD << 56, &tl, &all);
	assert_string_equal(all.v[all.n - 1], "Time that this key block "
	    "0x00096000 was last used for pre_read: Mon Nov 30 2026 "
	    "23:38:14.000 UTC");
	strlist_clear(&tl);
	strlist_clear(&all);
}

/* The stamps: only with time on; the sectors listed for results. */
static void
test_stamps_and_sectors(void **state)
{
	struct dv_map m;
	struct dv_bad_sector sec[4];
	unsigned char b[8192];
	struct dv_stamp st;
	int keys[2] = { 1, 1 };
	char name[8];
	struct dv_bad_block bb = {
		.sd = "sd1", .lun = "/l", .lba = 0x2000, .xfer = 8192,
		.kb_bytes = 4096, .data = b, .keys = keys, .name8 = name,
	};

	(void)state;
	assert_int_equal(dv_map_init(&m, 16, 4096), 0);
	assert_null(m.stamps);
	dv_map_stamp(&m, 0, 2, DV_TS_WRITE, 5);	/* no table: nothing */
	assert_int_equal(dv_map_time_init(&m), 0);
	dv_map_stamp(&m, 3, 2, DV_TS_READ, 1234);
	assert_int_equal(m.stamps[3], 1234 | (uint64_t)DV_TS_READ << 56);
	assert_int_equal(m.stamps[5], 0);
	assert_string_equal(dv_stamp_op(m.stamps[4]), "read");
	assert_string_equal(dv_stamp_op((uint64_t)DV_TS_WRITE << 56),
	    "written");
	dv_map_free(&m);
	assert_null(m.stamps);

	dv_name8(name, "sd1");
	stamp(&st, 0x1a22ed2bfb1ull, 7);
	dv_fill(pat, b, 0x2000, 4096, 1, &st);
	dv_fill(pat, b + 4096, 0x3000, 4096, 1, &st);
	b[4096 + 512 * 3 + 0x40] ^= 1;		/* key block 1, sector 3 */
	b[4096 + 512 * 6 + 0x13] = 9;		/* sector 6: the key */
	assert_int_equal(dv_bad_sectors(pat, &bb, sec, 1), 2);
	assert_int_equal(dv_bad_sectors(pat, &bb, sec, 4), 2);
	assert_int_equal(sec[0].kb_lba, 0x3000);
	assert_int_equal(sec[0].sector, 3);
	assert_int_equal(sec[0].flags, DV_BAD_COMP);
	assert_int_equal(sec[1].sector, 6);
	assert_int_equal(sec[1].flags, DV_BAD_KEY);
	assert_string_equal(dv_flag_name(DV_BAD_KEY), "key");
	assert_string_equal(dv_flag_name(DV_BAD_ZERO), "reserved");
	assert_string_equal(dv_flag_name(DV_BAD_COMP), "compression");
}

/*
 * v5b: the FSD form. File block 10 of vdb_f0002.file (FSD lba 0x10a000:
 * the second 1 MiB file starts at 0x100000) overwritten with random
 * bytes, rebuilt from the report's right-hand columns as for v2a.
 */
static void
test_report_fsd(void **state)
{
	struct strlist want = { 0 }, got = { 0 };
	unsigned char b[4096];
	int i, sector = -1, w, keys[1] = { 1 };
	unsigned off, v[4];
	char name[8];
	struct dv_fsd_where where = {
		.file = "/tmp/dv/data/fsd5b/vdb.1_1.dir/vdb_f0002.file",
		.file_start = 0x100000,
	};
	struct dv_bad_block bb = {
		.sd = "fsd1", .lun = where.file, .lba = 0x10a000,
		.xfer = 4096, .kb_bytes = 4096, .data = b, .keys = keys,
		.name8 = name, .pid = 11875, .found_ms = 1796082040427ull,
		.why = DV_WHY_READ, .fsd = &where,
	};

	(void)state;
	memset(b, 0, sizeof(b));
	read_lines("v5b_10a000.txt", &want);
	for (i = 0; i < want.n; i++) {
		const char *l = want.v[i];

		if (strstr(l, "Data Validation error for") != NULL)
			sector++;
		if (strncmp(l, "0x", 2) != 0 || sector < 0)
			continue;
		assert_int_equal(sscanf(l + 2, "%x", &off), 1);
		assert_int_equal(sscanf(l + 8 + 39 - 3, " %x %x %x %x",
		    &v[0], &v[1], &v[2], &v[3]), 4);
		for (w = 0; w < 4; w++) {
			unsigned char *p = b + 512 * sector + off + 4 * w;

			p[0] = (unsigned char)v[w];
			p[1] = (unsigned char)(v[w] >> 8);
			p[2] = (unsigned char)(v[w] >> 16);
			p[3] = (unsigned char)(v[w] >> 24);
		}
	}
	assert_int_equal(sector, 7);
	dv_name8(name, "fsd1");
	assert_int_equal(dv_bad_keyblocks(pat, &bb), 1);
	dv_report_block(&got, pat, &bb);
	assert_lines(&want, &got);
	strlist_clear(&want);
	strlist_clear(&got);
}

/*
 * vdbench's own check of written blocks (the reference's
 * scripts/jrandom_check.py, a Python model of its pattern) passes on a
 * lun dv.c wrote, and fails on a flipped byte.
 */
static void
test_jrandom_check(void **state)
{
	char dir[] = "/tmp/test_dv.XXXXXX", path[600], cmd[1400];
	unsigned char buf[4096];
	struct dv_stamp st;
	FILE *f, *p;
	int b, ok = 0, nok = 0;
	char line[512];

	(void)state;
	if (system("python3 -c 1 >/dev/null 2>&1") != 0)
		skip();
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/lun", dir);
	f = fopen(path, "wb");
	assert_non_null(f);
	for (b = 0; b < 300; b++) {
		stamp(&st, 1796081893297ull + (uint64_t)b, 4242);
		dv_fill(pat, buf, (uint64_t)b * 4096, 4096, 1 + b % 126, &st);
		if (b == 299)
			buf[4000] ^= 1;
		assert_int_equal(fwrite(buf, 1, sizeof(buf), f), sizeof(buf));
	}
	fclose(f);
	snprintf(cmd, sizeof(cmd), "python3 %s/jrandom_check.py %s 0 1 255 "
	    "256 298 299", DATA_DIR, path);
	p = popen(cmd, "r");
	assert_non_null(p);
	while (fgets(line, sizeof(line), p) != NULL) {
		ok += strstr(line, "match model: True") != NULL;
		nok += strstr(line, "match model: False") != NULL;
	}
	assert_int_equal(pclose(p), 0);
	assert_int_equal(ok, 5);
	assert_int_equal(nok, 1);
	unlink(path);
	rmdir(dir);
}

/* The banner, as v2a's console shows it. */
static void
test_banner(void **state)
{
	struct strlist got = { 0 };

	(void)state;
	dv_report_banner(&got, 1796081866548ull);
	assert_int_equal(got.n, 32);
	assert_string_equal(got.v[0], "");
	assert_string_equal(got.v[1],
	    "Time of first corruption: Mon Nov 30 2026 23:37:46.548 UTC");
	assert_string_equal(got.v[27],
	    "Byte 0x20 - 0x1ff: 480 bytes of compression data pattern");
	strlist_clear(&got);
}

/*
 * Dedup under validation, the v6 numbers (32m, dedupratio=2, 4k units,
 * 5% sets): vdbench's 3,686 unique units and 409 sets; the first unit
 * picked by Random("sd=sd1".hashCode()) run, duplicates carry the set
 * word and the pattern at (set * 347) << 2, keys flip 1, 2, 1.
 */
static void
test_dedup(void **state)
{
	struct dv_dedup dd;
	unsigned char b[4096], c[4096];
	struct dv_stamp st;
	struct dv_kb kb;
	char err[200], name[8];
	uint64_t u, nunique = 0, lba = 0;

	(void)state;
	stamp(&st, 1796081893297ull, 42);
	dv_name8(name, "sd1");
	assert_int_equal(dv_dedup_init(&dd, "sd1", 32 << 20, 4096, 2, -5, 0,
	    err, sizeof(err)), 0);
	assert_int_equal(dd.units, 8192);
	assert_int_equal(dd.sets_used, 409);
	assert_int_equal(dd.unique_units, 3686);
	for (u = 0; u < dd.units; u++) {
		dv_kb_of(&dd, u * 4096, 1, &kb);
		if (kb.kind == DV_KB_UNIQUE)
			nunique++;
		else if (lba == 0 && u > 0)
			lba = u * 4096;		/* a duplicate */
	}
	assert_int_equal(nunique, 3686);
	dv_kb_of(&dd, lba, 2, &kb);
	assert_int_equal(kb.kind, DV_KB_DUP);
	assert_int_equal(kb.set, 2ull << 56 | 1ull << 32 | (lba / 4096) % 409);
	assert_int_equal(kb.comp, (((lba / 4096) % 409 * 347) << 2) %
	    (1u << 20));
	dv_fill_kb(pat, b, lba, 4096, 2, &kb, &st);
	assert_memory_equal(b + 512 + 8, pat + kb.comp + 512 + 8, 504);
	assert_int_equal(b[512 + 4], (lba / 4096) % 409 & 0xff);
	assert_int_equal(b[512 + 3], 2);
	assert_int_equal(b[512 + 0], 1);
	for (unsigned s = 0; s < 8; s++)
		assert_int_equal(dv_check_sector_kb(pat, b + 512 * s, lba, s, 2,
		    name, &kb), 0);
	memcpy(c, b, sizeof(c));
	c[3] = 1;				/* key 1: a lost write */
	assert_int_equal(dv_check_sector_kb(pat, c, lba, 0, 2, name, &kb),
	    DV_BAD_DEDUPSET);
	c[100] ^= 1;
	assert_int_equal(dv_check_sector_kb(pat, c, lba, 0, 2, name, &kb),
	    DV_BAD_DEDUPSET | DV_BAD_COMP);
	assert_int_equal(dv_dedup_next_key(&dd, 0), 1);
	assert_int_equal(dv_dedup_next_key(&dd, 1), 2);
	assert_int_equal(dv_dedup_next_key(&dd, 2), 1);
	dv_dedup_free(&dd);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pattern_words),
		cmocka_unit_test(test_fill_matches_vdbench),
		cmocka_unit_test(test_fill_matches_vdbench_compratio),
		cmocka_unit_test(test_checksum_and_keys),
		cmocka_unit_test(test_check_flags),
		cmocka_unit_test(test_map),
		cmocka_unit_test(test_report_onebyte),
		cmocka_unit_test(test_report_zero),
		cmocka_unit_test(test_report_random),
		cmocka_unit_test(test_report_fsd),
		cmocka_unit_test(test_banner),
		cmocka_unit_test(test_report_time),
		cmocka_unit_test(test_stamps_and_sectors),
		cmocka_unit_test(test_jrandom_check),
		cmocka_unit_test(test_dedup),
	};

	return (cmocka_run_group_tests(tests, setup, teardown));
}
