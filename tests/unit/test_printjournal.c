/*
 * vdbc printjournal (master/printjournal.c): vdbench's real journal and map
 * files (tests/data/dv, rebuilt from the reference hexdumps) print as
 * vdbench's printjournal printed them; damaged files give an error naming
 * the file and the offset, never a crash.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "jnl_layout.h"
#include "printjournal.h"

#define REC	512

/* 01:02:03.456 in local time, whatever the zone. */
static struct timespec fixed;

struct run {
	char	*out, *err;
	size_t	 outlen, errlen;
	int	 rc;
};

static void
run_stream(FILE *in, const char *name, int64_t find_lba, struct run *r)
{
	struct pj_opts o = { .find_lba = find_lba, .fixed_now = &fixed };
	FILE *out = open_memstream(&r->out, &r->outlen);
	FILE *err = open_memstream(&r->err, &r->errlen);

	assert_non_null(out);
	assert_non_null(err);
	r->rc = printjournal_stream(in, name, &o, out, err);
	fclose(out);
	fclose(err);
}

static void
run_file(const char *path, int64_t find_lba, struct run *r)
{
	FILE *in = fopen(path, "rb");

	assert_non_null(in);
	run_stream(in, path, find_lba, r);
	fclose(in);
}

static void
run_buf(const unsigned char *buf, size_t len, struct run *r)
{
	FILE *in = fmemopen((void *)(uintptr_t)buf, len, "rb");

	assert_non_null(in);
	run_stream(in, "buf.jnl", -1, r);
	fclose(in);
}

static void
run_free(struct run *r)
{
	free(r->out);
	free(r->err);
}

static size_t
count_lines(const char *s)
{
	size_t n = 0;

	for (; *s != '\0'; s++)
		n += *s == '\n';
	return (n);
}

/* Line i (0-based) of s without its 13-character time prefix. */
static const char *
line_at(const char *s, size_t i, char *buf, size_t len)
{
	const char *nl;

	while (i-- > 0) {
		s = strchr(s, '\n');
		assert_non_null(s);
		s++;
	}
	nl = strchr(s, '\n');
	assert_non_null(nl);
	assert_true((size_t)(nl - s) > 13 && (size_t)(nl - s) - 13 < len);
	assert_int_equal(s[2], ':');
	assert_int_equal(s[8], '.');
	assert_int_equal(s[12], ' ');
	memcpy(buf, s + 13, (size_t)(nl - s) - 13);
	buf[nl - s - 13] = '\0';
	return (buf);
}

static void
put32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16);
	p[3] = (unsigned char)(v >> 24);
}

/*
 * A small journal: header (8 key blocks of 4 KiB) + one map record with
 * keys 1..8 + journal records; entries[] are (key, block) pairs.
 */
static size_t
build(unsigned char *buf, int nrecs, const int *counts,
    const uint32_t (*entries)[2])
{
	int r, j, k = 0, i;

	memset(buf, 0, (size_t)(2 + nrecs) * REC);
	memcpy(buf, ".PAM.PAM", 8);
	put32(buf + 12, 8);
	put32(buf + 16, 4096);
	memcpy(buf + REC, ".PAM.PAM", 8);
	for (i = 0; i < 8; i++)
		buf[REC + 32 + (i / 4) * 4 + 3 - i % 4] = (unsigned char)(i + 1);
	for (r = 0; r < nrecs; r++) {
		unsigned char *p = buf + (size_t)(2 + r) * REC;

		memcpy(p, ".LNJ", 4);
		put32(p + 4, (uint32_t)counts[r]);
		put32(p + 8, (uint32_t)(2 + r));
		for (j = 0; j < counts[r] && j < 62; j++, k++) {
			put32(p + 16 + 8 * j, entries[k][0] << 24);
			put32(p + 20 + 8 * j, entries[k][1]);
		}
	}
	return ((size_t)(2 + nrecs) * REC);
}

/*
 * The journal of v3 (a -j run killed with kill -9): the map lines and the
 * journal entries are the ones of vdbench's own printjournal excerpt.
 */
static void
test_v3_after_kill(void **state)
{
	char buf[256], want[256];
	struct run r;
	FILE *ex;
	size_t start = 0, i = 0, n;
	int section = 0;

	(void)state;
	run_file(DATA_DIR "/v3_after_kill_sd1.jnl", -1, &r);
	assert_int_equal(r.rc, 0);
	/* 18 map records of 480 keys, 2 full journal records of 62. */
	n = count_lines(r.out);
	assert_int_equal(n, 18 * 480 + 2 * 62 + 1);
	assert_string_equal(line_at(r.out, n - 1, buf, sizeof(buf)),
	    "Trying to go beyond journal file size");
	assert_int_equal(r.errlen, 0);

	ex = fopen(DATA_DIR "/v3_printjournal_excerpt.txt", "r");
	assert_non_null(ex);
	while (fgets(want, sizeof(want), ex) != NULL && section < 2) {
		want[strcspn(want, "\n")] = '\0';
		if (strncmp(want, "...", 3) == 0) {
			/* Section 2 begins at the first journal entry. */
			section++;
			start = 18 * 480;
			i = 0;
			continue;
		}
		assert_string_equal(line_at(r.out, start + i, buf,
		    sizeof(buf)), want + 13);
		i++;
	}
	fclose(ex);
	assert_int_equal(section, 2);
	/* The last map key block and the last entry of record 0x2800. */
	assert_string_equal(line_at(r.out, 18 * 480 - 1, buf, sizeof(buf)),
	    "Starting lba: 0x0000021bf000 key: 0x00");
	assert_string_equal(line_at(r.out, 18 * 480 + 123, buf, sizeof(buf)),
	    "After:   lba: 0x000001e43000 ");
	run_free(&r);
}

/* v4's map after a clean -j run: real keys, the file cut after 4 KiB. */
static void
test_v4_map_first4k(void **state)
{
	char buf[256];
	struct run r;

	(void)state;
	run_file(DATA_DIR "/v4_clean_sd1.map.first4k", -1, &r);
	assert_int_equal(r.rc, 0);
	assert_int_equal(count_lines(r.out), 7 * 480 + 1);
	/* On disk 02 03 03 04 at 0x220: the int 0x04030302, keys 4 3 3 2. */
	assert_string_equal(line_at(r.out, 0, buf, sizeof(buf)),
	    "Starting lba: 0x000000000000 key: 0x04");
	assert_string_equal(line_at(r.out, 1, buf, sizeof(buf)),
	    "Starting lba: 0x000000001000 key: 0x03");
	assert_string_equal(line_at(r.out, 3, buf, sizeof(buf)),
	    "Starting lba: 0x000000003000 key: 0x02");
	/* 0xffc: 03 03 02 02 -> keys 2 2 3 3 for blocks 3356..3359. */
	assert_string_equal(line_at(r.out, 7 * 480 - 2, buf, sizeof(buf)),
	    "Starting lba: 0x000000d1e000 key: 0x03");
	assert_string_equal(line_at(r.out, 7 * 480 - 3, buf, sizeof(buf)),
	    "Starting lba: 0x000000d1d000 key: 0x02");
	/* 7 map records where the header's 8192 key blocks take 18. */
	assert_non_null(strstr(r.err, "7 map records"));
	run_free(&r);

	/* -l: only that lba, from the map. */
	run_file(DATA_DIR "/v4_clean_sd1.map.first4k", 0x1000, &r);
	assert_int_equal(r.rc, 0);
	assert_int_equal(count_lines(r.out), 2);
	assert_string_equal(line_at(r.out, 0, buf, sizeof(buf)),
	    "Starting lba: 0x000000001000 key: 0x03");
	run_free(&r);
	run_file(DATA_DIR "/v4_clean_sd1.map.first4k", 0x7fff000, &r);
	assert_int_equal(count_lines(r.out), 2);
	assert_string_equal(line_at(r.out, 1, buf, sizeof(buf)),
	    "Logical byte addres 0x07fff000 not found");
	run_free(&r);
}

/*
 * A journal ending with a partial record: vdbench's "Found EOF" line,
 * with the last entries of its excerpt (the record at 0xbbe00).
 */
static void
test_eof_record(void **state)
{
	static const uint32_t e[][2] = {
		{ 0, 0x1259 }, { 7, 0x1edd }, { 5, 0xfd }, { 0, 0xfd },
		{ 0, 0x1edd }, { 7, 0x1fd3 }, { 3, 0x11c8 }, { 0, 0x1fd3 },
		{ 7, 0x4d2 }, { 0, 0x11c8 }, { 0, 0x4d2 }, { 8, 0x93e },
		{ 7, 0xa51 }, { 0, 0x93e },
	};
	unsigned char b[4 * REC];
	int counts[] = { 14 };
	char buf[256], want[256];
	struct run r;
	FILE *ex;
	size_t len = build(b, 1, counts, e), i = 0;
	int section = 0;

	(void)state;
	run_buf(b, len, &r);
	assert_int_equal(r.rc, 0);
	assert_int_equal(count_lines(r.out), 480 + 14 + 1);
	assert_string_equal(line_at(r.out, 0, buf, sizeof(buf)),
	    "Starting lba: 0x000000000000 key: 0x01");
	assert_string_equal(line_at(r.out, 7, buf, sizeof(buf)),
	    "Starting lba: 0x000000007000 key: 0x08");
	/* The excerpt's last section, entry for entry. */
	ex = fopen(DATA_DIR "/v3_printjournal_excerpt.txt", "r");
	assert_non_null(ex);
	while (fgets(want, sizeof(want), ex) != NULL) {
		want[strcspn(want, "\n")] = '\0';
		if (strncmp(want, "...", 3) == 0) {
			section++;
			continue;
		}
		if (section < 2 || strncmp(want, "/opt", 4) == 0)
			continue;
		if (strncmp(want + 13, "Found EOF", 9) == 0) {
			assert_string_equal(line_at(r.out, 480 + i, buf,
			    sizeof(buf)), "Found EOF after     14 journal "
			    "records at seek: 00000400 ");
			/* vdbench's own line, 92047 entries at 0xbbe00. */
			assert_string_equal(want + 13, "Found EOF after  92047 "
			    "journal records at seek: 000bbe00 ");
		} else
			assert_string_equal(line_at(r.out, 480 + i, buf,
			    sizeof(buf)), want + 13);
		i++;
	}
	fclose(ex);
	assert_int_equal(i, 15);
	assert_int_equal(r.errlen, 0);
	run_free(&r);
}

/*
 * Key blocks a multiple of 480 (a 300m sd of 8k blocks: 38,400 = 80 x
 * 480): vdbench reserves (kb + 511) / 480 map records but writes only
 * those that hold key blocks, so the last reserved one is zeros in its
 * journals; printjournal, as recovery, reads the journal after it. It
 * stopped there before ("eyecatcher 0x00000000 is neither ...").
 */
static void
test_map_records_full(void **state)
{
	unsigned char b[4 * REC];
	uint8_t map[480];
	struct jnl_header h = { 480, 8192, 1, 1, 0 };
	struct jnl_entry en = { 5, 7, 0 };
	char buf[256];
	struct run r;
	unsigned i;

	(void)state;
	assert_int_equal(jnl_map_records(480), 2);
	assert_int_equal(jnl_first_record_off(480), 3 * REC);
	for (i = 0; i < 480; i++)
		map[i] = (uint8_t)(1 + i % 126);
	memset(b, 0, sizeof(b));
	jnl_header_encode(b, &h);
	jnl_map_record_encode(b + REC, map, 480, 0);
	jnl_record_init(b + 3 * REC, 3 * REC, 1);
	jnl_record_put(b + 3 * REC, 0, &en);
	en.key = 0;
	jnl_record_put(b + 3 * REC, 1, &en);
	run_buf(b, sizeof(b), &r);
	assert_int_equal(r.rc, 0);
	assert_int_equal(r.errlen, 0);
	assert_int_equal(count_lines(r.out), 480 + 2 + 1);
	assert_string_equal(line_at(r.out, 479, buf, sizeof(buf)),
	    "Starting lba: 0x0000003be000 key: 0x66");
	assert_string_equal(line_at(r.out, 480, buf, sizeof(buf)),
	    "Before:  lba: 0x00000000e000 key: 0x05  ");
	assert_string_equal(line_at(r.out, 481, buf, sizeof(buf)),
	    "After:   lba: 0x00000000e000 ");
	run_free(&r);
}

/* An EOF record with no entries ends the journal without a word. */
static void
test_empty_eof(void **state)
{
	static const uint32_t e[70][2];	/* every entry of every record */
	unsigned char b[5 * REC];
	int counts[] = { 62, 0, 5 };
	char buf[256];
	struct run r;
	size_t len = build(b, 3, counts, e);

	(void)state;
	run_buf(b, len, &r);
	assert_int_equal(r.rc, 0);
	assert_int_equal(count_lines(r.out), 480 + 62);
	assert_string_equal(line_at(r.out, 480, buf, sizeof(buf)),
	    "After:   lba: 0x000000000000 ");
	run_free(&r);
}

/* A 40-bit block number prints in full (vdbench keeps 31 bits). */
static void
test_big_block(void **state)
{
	static const uint32_t e[][2] = { { 9, 0x0 } };
	unsigned char b[3 * REC];
	int counts[] = { 1 };
	char buf[256];
	struct run r;
	size_t len = build(b, 1, counts, e);

	(void)state;
	b[2 * REC + 16] = 0x12;		/* block bits 32..39 */
	put32(b + 2 * REC + 20, 0x80000000u);
	run_buf(b, len, &r);
	assert_int_equal(r.rc, 0);
	assert_string_equal(line_at(r.out, 480, buf, sizeof(buf)),
	    "Before:  lba: 0x1280000000000 key: 0x09  ");
	run_free(&r);
}

/* -d111 journals: 31 entries of 16 bytes with a time of day. */
static void
test_timestamps(void **state)
{
	unsigned char b[3 * REC];
	int counts[] = { 0 };
	char buf[256];
	struct run r;
	size_t len = build(b, 1, counts, NULL);
	unsigned char *p = b + 2 * REC;
	uint64_t tod = 1764547200123ull;	/* 12/01/2025 00:00:00.123 UTC */

	(void)state;
	put32(b + 28, 1);
	put32(p + 4, 2);
	put32(p + 16, 3u << 24);
	put32(p + 20, 5);
	put32(p + 24, (uint32_t)(tod >> 32));
	put32(p + 28, (uint32_t)tod);
	put32(p + 36, 5);
	put32(p + 40, (uint32_t)(tod >> 32));
	put32(p + 44, (uint32_t)tod);
	setenv("TZ", "UTC", 1);
	tzset();
	run_buf(b, len, &r);
	assert_int_equal(r.rc, 0);
	assert_string_equal(line_at(r.out, 480, buf, sizeof(buf)),
	    "Before:  lba: 0x000000005000 key: 0x03 tod: 12/01/2025 "
	    "00:00:00.123 UTC");
	assert_string_equal(line_at(r.out, 481, buf, sizeof(buf)),
	    "After:   lba: 0x000000005000           tod: 12/01/2025 "
	    "00:00:00.123 UTC");
	assert_string_equal(line_at(r.out, 482, buf, sizeof(buf)),
	    "Found EOF after      2 journal records at seek: 00000400 ");
	run_free(&r);
	/* 32 entries do not fit a record of 16-byte entries. */
	put32(p + 4, 32);
	run_buf(b, len, &r);
	assert_int_equal(r.rc, 1);
	assert_non_null(strstr(r.err, "32 entries; a record holds at most "
	    "31"));
	run_free(&r);
}

static void
expect_error(const unsigned char *b, size_t len, const char *what)
{
	struct run r;

	run_buf(b, len, &r);
	assert_int_equal(r.rc, 1);
	assert_non_null(strstr(r.err, "vdbc printjournal: buf.jnl: offset "));
	if (strstr(r.err, what) == NULL)
		fail_msg("error \"%s\" lacks \"%s\"", r.err, what);
	run_free(&r);
}

/* Damaged files: an error with the file and the offset, no crash. */
static void
test_bad_files(void **state)
{
	static const uint32_t e[70][2];	/* every entry of every record */
	unsigned char b[4 * REC];
	int counts[] = { 62, 3 };
	size_t len = build(b, 2, counts, e);

	(void)state;
	expect_error(b, 0, "offset 0x00000000: empty file");
	expect_error(b, 100, "offset 0x00000000: record cut short: 100 of "
	    "512");
	expect_error(b, len - 1, "offset 0x00000600: record cut short: 511");
	b[0] = 'X';
	expect_error(b, len, "offset 0x00000000: eyecatcher 0x4d415058: not "
	    "a vdbench journal or map file");
	b[0] = '.';
	put32(b + 16, 0);
	expect_error(b, len, "offset 0x00000010: key block size 0");
	put32(b + 16, 4096);
	put32(b + 3 * REC + 4, 63);
	expect_error(b, len, "offset 0x00000604: journal record with 63 "
	    "entries; a record holds at most 62");
	put32(b + 3 * REC + 4, 0xffffffffu);
	expect_error(b, len, "journal record with -1 entries");
	put32(b + 3 * REC + 4, 3);
	memcpy(b + 3 * REC, "JUNK", 4);
	expect_error(b, len, "offset 0x00000600: eyecatcher 0x4b4e554a is "
	    "neither");
	/* A 56-bit block times a 2 GiB key block overflows the lba. */
	memcpy(b + 3 * REC, ".LNJ", 4);
	put32(b + 16, 0x7ffffe00);
	put32(b + 3 * REC + 16, 0x00ffffffu);
	expect_error(b, len, "offset 0x00000610: journal entry block");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_v3_after_kill),
		cmocka_unit_test(test_v4_map_first4k),
		cmocka_unit_test(test_eof_record),
		cmocka_unit_test(test_empty_eof),
		cmocka_unit_test(test_map_records_full),
		cmocka_unit_test(test_big_block),
		cmocka_unit_test(test_timestamps),
		cmocka_unit_test(test_bad_files),
	};
	struct tm tm = { .tm_hour = 1, .tm_min = 2, .tm_sec = 3,
	    .tm_mday = 1, .tm_mon = 0, .tm_year = 126, .tm_isdst = -1 };

	fixed.tv_sec = mktime(&tm);
	fixed.tv_nsec = 456000000L;
	return (cmocka_run_group_tests(tests, NULL, NULL));
}
