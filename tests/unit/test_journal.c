/*
 * The journal and map file layout against vdbench 5.04.06's own files
 * (xxd dumps from reference/vdbench-5.04.06/validation/v3_journal_kill
 * and v4_journal_corrupt_after, copied to tests/data/dv/): headers, map
 * records and journal records decode to what vdbench reported and
 * encode back to the same bytes; and slave/journal.c's writer round
 * trip: dump, entries, recovery with a pending write, and the .map
 * fallback when the .jnl header is incomplete.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "dv.h"
#include "jnl_layout.h"
#include "journal.h"
#include "model.h"

#ifndef DATA_DIR
#error DATA_DIR must name tests/data/dv
#endif

/* An xxd dump: the bytes from offset base on, cap at most. */
static size_t
read_xxd(const char *name, uint64_t base, unsigned char *buf, size_t cap)
{
	char path[512], line[256];
	FILE *f;
	size_t n = 0;

	snprintf(path, sizeof(path), "%s/%s", DATA_DIR, name);
	f = fopen(path, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f) != NULL) {
		unsigned long off;
		char *p = line, *end;
		int i;

		off = strtoul(p, &end, 16);
		assert_true(*end == ':');
		assert_int_equal(off - base, n);
		p = end + 1;
		for (i = 0; i < 16 && n < cap; i++) {
			unsigned v;

			while (*p == ' ')
				p++;
			assert_int_equal(sscanf(p, "%2x", &v), 1);
			buf[n++] = (unsigned char)v;
			p += 2;
		}
	}
	fclose(f);
	return (n);
}

static void
check_header(const unsigned char *sec, uint64_t tod_ms)
{
	struct jnl_header h;
	unsigned char re[JNL_SECTOR];

	assert_int_equal(jnl_header_decode(sec, &h), 0);
	assert_true(h.complete);
	assert_int_equal(h.key_blocks, 8192);
	assert_int_equal(h.kb_bytes, 4096);
	assert_int_equal(h.tod_ms, tod_ms);
	assert_false(h.timestamps);
	/* the first 32 bytes are the header; vdbench leaves stale bytes
	 * after them in the sector */
	jnl_header_encode(re, &h);
	assert_memory_equal(re, sec, 32);
	assert_int_equal(jnl_map_records(8192), 18);
	assert_int_equal(jnl_first_record_off(8192), 0x2600);
}

/* v3: killed under -j; the map dumped at the rd's start is empty. */
static void
test_v3_after_kill(void **state)
{
	unsigned char buf[4096], re[JNL_SECTOR];
	uint8_t map[8192];
	uint64_t r, b;

	(void)state;
	assert_int_equal(read_xxd("v3_after_kill_sd1.jnl_first4k.xxd", 0, buf,
	    sizeof(buf)), 4096);
	check_header(buf, 0x1a22ed30f67ull);
	memset(map, 0xee, sizeof(map));
	for (r = 0; r < 7; r++) {
		assert_int_equal(jnl_map_record_decode(buf + 512 + r * 512, map,
		    8192, r), 0);
		jnl_map_record_encode(re, map, 8192, r);
		assert_memory_equal(re, buf + 512 + r * 512, JNL_SECTOR);
	}
	/* "Map contains 0 known blocks." */
	for (b = 0; b < 7 * JNL_MAP_PER_REC; b++)
		assert_int_equal(map[b], 0);
}

/* v3: the first journal records, full, rewritten byte for byte. */
static void
test_v3_records(void **state)
{
	unsigned char buf[1024], re[JNL_SECTOR];
	struct jnl_entry en[JNL_ENTRIES_PER_REC];
	int r, i, n, before = 0, after = 0;

	(void)state;
	assert_int_equal(read_xxd("v3_after_kill_sd1.jnl_0x2600_1k.xxd",
	    0x2600, buf, sizeof(buf)), 1024);
	for (r = 0; r < 2; r++) {
		uint64_t off = 0x2600 + 512u * (unsigned)r;

		n = jnl_record_decode(buf + 512 * r, off, en);
		assert_int_equal(n, JNL_ENTRIES_PER_REC);
		jnl_record_init(re, off, 0x1a22ed30f67ull);
		for (i = 0; i < n; i++) {
			jnl_record_put(re, i, &en[i]);
			if (en[i].key != 0)
				before++;
			else
				after++;
		}
		assert_memory_equal(re, buf + 512 * r, JNL_SECTOR);
		/* not the record of another offset */
		assert_int_equal(jnl_record_decode(buf + 512 * r, off + 512,
		    en), -1);
	}
	/* the first entries: BEFORE key 1 of block 0x1793, then its AFTER */
	n = jnl_record_decode(buf, 0x2600, en);
	assert_int_equal(en[0].key, 1);
	assert_int_equal(en[0].block, 0x1793);
	assert_int_equal(en[1].key, 0);
	assert_int_equal(en[1].block, 0x1793);
	assert_int_equal(before + after, 124);
	assert_true(before >= after - 2 && before <= after + 2);
}

/* v4: after a clean -j run the map is full and the journal empty. */
static void
test_v4_after_clean(void **state)
{
	unsigned char buf[4096], mbuf[4096], rec[1024], re[JNL_SECTOR];
	struct jnl_entry en[JNL_ENTRIES_PER_REC];
	uint8_t map[8192];
	uint64_t r, b;

	(void)state;
	assert_int_equal(read_xxd("v4_after_clean_sd1.jnl_first4k.xxd", 0, buf,
	    sizeof(buf)), 4096);
	assert_int_equal(read_xxd("v4_after_clean_sd1.map_first4k.xxd", 0,
	    mbuf, sizeof(mbuf)), 4096);
	check_header(buf, 0x1a22ed3e8c2ull);
	memset(map, 0, sizeof(map));
	for (r = 0; r < 7; r++) {
		assert_int_equal(jnl_map_record_decode(buf + 512 + r * 512, map,
		    8192, r), 0);
		jnl_map_record_encode(re, map, 8192, r);
		assert_memory_equal(re, buf + 512 + r * 512, JNL_SECTOR);
		/* the .map holds the same records */
		assert_memory_equal(re, mbuf + 512 + r * 512, JNL_SECTOR);
	}
	/* "Map contains 8,192 known blocks.": every one has a key */
	for (b = 0; b < 7 * JNL_MAP_PER_REC; b++)
		assert_true(map[b] >= 1 && map[b] <= DV_KEY_MAX);
	/* the first map bytes, on disk 02 03 03 04 */
	assert_int_equal(map[0], 4);
	assert_int_equal(map[1], 3);
	assert_int_equal(map[2], 3);
	assert_int_equal(map[3], 2);
	/* "Completed apply of journal records (before/after): 0/0" */
	assert_int_equal(read_xxd("v4_after_clean_sd1.jnl_0x2600_1k.xxd",
	    0x2600, rec, sizeof(rec)), 1024);
	assert_int_equal(jnl_record_decode(rec, 0x2600, en), 0);
	assert_int_equal(jnl_get32(rec, 3), (uint32_t)0x1a22ed3e8c2ull);
}

static char tmpdir[64];

static void
rm_dir(void)
{
	char p[256];

	snprintf(p, sizeof(p), "%s/sdx.jnl", tmpdir);
	unlink(p);
	snprintf(p, sizeof(p), "%s/sdx.map", tmpdir);
	unlink(p);
	rmdir(tmpdir);
}

/* Write a journal, recover it: the map, the counts, a pending write. */
static void
test_roundtrip(void **state)
{
	enum { NB = 2000 };
	_Atomic uint8_t *keys = calloc(NB, 1);
	uint8_t got[NB], want[NB];
	struct journal j;
	struct jnl_recovery r;
	struct strlist log = { 0, NULL, 0 };
	struct errmsg e;
	struct stat st;
	char p[256];
	int k, i;
	uint64_t b;

	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/vdbc-jnl-XXXXXX");
	assert_non_null(mkdtemp(tmpdir));
	for (b = 0; b < NB; b++) {
		want[b] = (uint8_t)(b % 3 == 0 ? 0 : 1 + b % DV_KEY_MAX);
		atomic_store(&keys[b], want[b]);
	}
	atomic_store(&keys[5], (uint8_t)(want[5] | DV_KEY_BUSY));
	assert_int_equal(journal_open(&j, tmpdir, "sdx", NB, 4096, 1, 0, &e),
	    0);
	assert_int_equal(journal_dump(&j, keys, &log, &e), 0);
	assert_int_equal(log.n, 2);
	/* 150 writes: BEFORE, then AFTER (three records and some) */
	for (i = 0; i < 150; i++) {
		b = (uint64_t)(i * 7) % NB;
		k = dv_next_key(want[b]);
		assert_int_equal(journal_add(&j, b, 1, &k), 0);
		assert_int_equal(journal_add(&j, b, 1, NULL), 0);
		want[b] = (uint8_t)k;
	}
	/* one in flight: BEFORE only; the map keeps its old key */
	k = dv_next_key(want[11]);
	assert_int_equal(journal_add(&j, 11, 1, &k), 0);
	journal_close(&j);
	snprintf(p, sizeof(p), "%s/sdx.map", tmpdir);
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(st.st_size, 512 + jnl_map_records(NB) * 512 + 512);
	assert_int_equal(journal_recover(tmpdir, "sdx", got, NB, 4096, &r,
	    &log, &e), 0);
	assert_int_equal(r.befores, 151);
	assert_int_equal(r.afters, 150);
	assert_int_equal(r.npending, 1);
	assert_int_equal(r.pending[0].block, 11);
	assert_int_equal(r.pending[0].old_key, want[11]);
	assert_int_equal(r.pending[0].new_key, k);
	assert_memory_equal(got, want, NB);
	free(r.pending);
	/* another geometry is refused */
	assert_int_equal(journal_recover(tmpdir, "sdx", got, NB, 8192, &r,
	    &log, &e), -1);
	/* a .jnl header cut short: the .map holds the map, no entries */
	{
		FILE *f;
		unsigned char ff[4] = { 0xff, 0xff, 0xff, 0xff };

		snprintf(p, sizeof(p), "%s/sdx.jnl", tmpdir);
		f = fopen(p, "r+");
		assert_non_null(f);
		fseek(f, 4, SEEK_SET);
		fwrite(ff, 1, 4, f);
		fclose(f);
	}
	assert_int_equal(journal_recover(tmpdir, "sdx", got, NB, 4096, &r,
	    &log, &e), 0);
	assert_true(r.from_map);
	assert_int_equal(r.befores, 0);
	for (b = 0; b < NB; b++)
		assert_int_equal(got[b], b % 3 == 0 ? 0 : 1 + b % DV_KEY_MAX);
	free(r.pending);
	strlist_clear(&log);
	free((void *)keys);
	rm_dir();
}

/*
 * A map whose key blocks fill its records exactly (960 = 2 x 480): vdbench
 * reserves (960 + 511) / 480 = 3 records but writes only the 2 that hold
 * key blocks, so the third is zeros in its journals (a 300m sd of 8k
 * blocks, 38,400 = 80 x 480, did so); recovery reads such a journal.
 */
static void
test_exact_records(void **state)
{
	enum { NB = 960 };
	_Atomic uint8_t *keys = calloc(NB, 1);
	uint8_t got[NB];
	unsigned char zero[512] = { 0 };
	struct journal j;
	struct jnl_recovery r;
	struct strlist log = { 0, NULL, 0 };
	struct errmsg e;
	const char *ext[] = { "jnl", "map" };
	char p[256];
	uint64_t b;
	int i;

	(void)state;
	assert_int_equal(jnl_map_records(NB), 3);
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/vdbc-jnl-XXXXXX");
	assert_non_null(mkdtemp(tmpdir));
	for (b = 0; b < NB; b++)
		atomic_store(&keys[b], (uint8_t)(1 + b % DV_KEY_MAX));
	assert_int_equal(journal_open(&j, tmpdir, "sdx", NB, 8192, 1, 0, &e),
	    0);
	assert_int_equal(journal_dump(&j, keys, &log, &e), 0);
	journal_close(&j);
	for (i = 0; i < 2; i++) {
		FILE *f;

		snprintf(p, sizeof(p), "%s/sdx.%s", tmpdir, ext[i]);
		f = fopen(p, "r+");
		assert_non_null(f);
		fseek(f, 512 + 2 * 512, SEEK_SET);
		fwrite(zero, 1, sizeof(zero), f);
		fclose(f);
	}
	assert_int_equal(journal_recover(tmpdir, "sdx", got, NB, 8192, &r,
	    &log, &e), 0);
	for (b = 0; b < NB; b++)
		assert_int_equal(got[b], 1 + b % DV_KEY_MAX);
	free(r.pending);
	strlist_clear(&log);
	free((void *)keys);
	rm_dir();
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_v3_after_kill),
		cmocka_unit_test(test_v3_records),
		cmocka_unit_test(test_v4_after_clean),
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_exact_records),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
