/* SPDX-License-Identifier: MIT */
/*
 * vdbc printjournal (printjournal.h): vdbench's Data Validation journal
 * and map files printed as vdbench's printjournal prints them. Every
 * sector is decoded by common/jnl_layout.c, the decoders the slave's
 * journal recovery (slave/journal.c) uses: this file owns only the walk
 * and the printing.
 *
 * Layout (all ints little-endian, records of 512 bytes):
 *   record 0      map header: int[0] = int[1] = 0x4d41502e (".PAM" on
 *                 disk; int[1] = -1 while a dump is in progress),
 *                 int[2..3] key blocks (hi, lo), int[4] key block size,
 *                 int[5..6] dump time of day in ms (hi, lo), int[7] 1 when
 *                 journal entries carry a timestamp (vdbench -d111).
 *   map records   int[0] = int[1] = ".PAM", int[2..7] 0, then 120 ints of
 *                 4 keys each, key of the first block in the top byte.
 *   jnl records   int[0] = 0x4a4e4c2e (".LNJ"), int[1] entry count (0 =
 *                 EOF), int[2] record offset / 512, int[3] low 32 bits of
 *                 the dump time; then 62 entries of two ints (31 of four
 *                 with timestamps): key << 24 | block >> 32, block low 32
 *                 bits [, time ms hi, lo]. Key 0 is an AFTER entry.
 * The .map file holds the header and the map records only.
 *
 * Map records past those that hold key blocks, inside the map area the
 * header reserves, are skipped when they are zeros: vdbench reserves
 * (key blocks + 511) / 480 but writes (key blocks + 479) / 480.
 *
 * As vdbench's, the reader goes record by record: a ".PAM" record is map
 * (the first one the header), anything else a journal record; a journal
 * record with fewer than the full count of entries ends the journal
 * ("Found EOF after ..."), one with none ends it silently, and the end of
 * the file ends it with "Trying to go beyond journal file size". Where
 * vdbench would read garbage or throw (another eyecatcher, a count beyond
 * the record, a record cut short) this reader stops with an error naming
 * the file and the offset.
 */
#include "printjournal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "jnl_layout.h"
#include "units.h"

#define PJ_REC_BYTES		JNL_SECTOR

struct pj_state {
	FILE			*out, *err;
	const char		*name;
	const struct pj_opts	*o;
	int64_t			 key_blksize;	/* from the header; -1 before */
	uint64_t		 key_block;	/* next map key block */
	uint64_t		 map_recs;	/* map records after the header */
	uint64_t		 hdr_key_blocks;
	bool			 timestamps;	/* -d111 entries of 16 bytes */
	uint64_t		 entries_seen;	/* "journal records" in vdbench */
	uint64_t		 lbas_found;
};

/* vdbench's ptod prefix: the time of day, "HH:MM:SS.mmm ". */
static void
ptod(struct pj_state *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
ptod(struct pj_state *s, const char *fmt, ...)
{
	struct timespec ts;
	struct tm tm;
	va_list ap;

	if (s->o->fixed_now != NULL)
		ts = *s->o->fixed_now;
	else
		clock_gettime(CLOCK_REALTIME, &ts);
	localtime_r(&ts.tv_sec, &tm);
	fprintf(s->out, "%02d:%02d:%02d.%03ld ", tm.tm_hour, tm.tm_min,
	    tm.tm_sec, ts.tv_nsec / 1000000L);
	va_start(ap, fmt);
	vfprintf(s->out, fmt, ap);
	va_end(ap);
	fputc('\n', s->out);
}

static int
pj_error(struct pj_state *s, uint64_t off, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int
pj_error(struct pj_state *s, uint64_t off, const char *fmt, ...)
{
	va_list ap;

	fflush(s->out);
	fprintf(s->err, "vdbc printjournal: %s: offset 0x%08" PRIx64 ": ",
	    s->name, off);
	va_start(ap, fmt);
	vfprintf(s->err, fmt, ap);
	va_end(ap);
	fputc('\n', s->err);
	return (1);
}

/* The header: key block size and the timestamp flag. */
static int
pj_header(struct pj_state *s, const unsigned char *rec)
{
	struct jnl_header h;

	if (jnl_header_decode(rec, &h) != 0)
		return (pj_error(s, 0, "eyecatcher 0x%08x: not a vdbench "
		    "journal or map file (expected 0x%08x \".PAM\" in the "
		    "first record)", jnl_get32(rec, 0), JNL_MAP_EYE));
	if (!h.complete)
		fprintf(s->err, "vdbc printjournal: %s: note: the map header "
		    "is incomplete (second eyecatcher 0x%08x): the map dump "
		    "did not finish; vdbench's recovery takes the .map file\n",
		    s->name, jnl_get32(rec, 1));
	if ((int32_t)h.kb_bytes <= 0 || h.kb_bytes % 512 != 0)
		return (pj_error(s, 16, "key block size %" PRId32 " in the "
		    "map header: not a positive multiple of 512",
		    (int32_t)h.kb_bytes));
	s->key_blksize = h.kb_bytes;
	s->hdr_key_blocks = h.key_blocks;
	return (0);
}

static bool
pj_show(const struct pj_state *s, uint64_t lba)
{
	return (s->o->find_lba < 0 || (uint64_t)s->o->find_lba == lba);
}

/* One map record after the header: 480 keys, all printed as vdbench. */
static int
pj_map_record(struct pj_state *s, const unsigned char *rec, uint64_t off)
{
	uint8_t keys[JNL_MAP_PER_REC];
	unsigned i;

	if (jnl_map_record_keys(rec, keys) != 0)
		return (pj_error(s, off, "not a map record"));
	for (i = 0; i < JNL_MAP_PER_REC; i++) {
		uint64_t lba;

		if (s->key_block > UINT64_MAX / (uint64_t)s->key_blksize)
			return (pj_error(s, off, "map too large: key "
			    "block %" PRIu64 " overflows the lba",
			    s->key_block));
		lba = s->key_block++ * (uint64_t)s->key_blksize;
		if (!pj_show(s, lba))
			continue;
		s->lbas_found++;
		ptod(s, "Starting lba: 0x%012" PRIx64 " key: 0x%02x", lba,
		    keys[i]);
	}
	s->map_recs++;
	return (0);
}

/* The -d111 timestamp as vdbench's "MM/dd/yyyy HH:mm:ss.SSS zzz". */
static void
pj_date(int64_t tod_ms, char *buf, size_t len)
{
	time_t sec = (time_t)(tod_ms / 1000);
	long ms = (long)(tod_ms % 1000);
	struct tm tm;
	char zone[16];

	if (ms < 0) {
		ms += 1000;
		sec--;
	}
	if (localtime_r(&sec, &tm) == NULL) {
		snprintf(buf, len, "(time %" PRId64 " ms)", tod_ms);
		return;
	}
	strftime(zone, sizeof(zone), "%Z", &tm);
	snprintf(buf, len, "%02d/%02d/%04d %02d:%02d:%02d.%03ld %s",
	    tm.tm_mon + 1, tm.tm_mday, tm.tm_year + 1900, tm.tm_hour,
	    tm.tm_min, tm.tm_sec, ms, zone);
}

/*
 * One journal record. Returns 0 to go on, 2 at the end of the journal,
 * 1 on an error.
 */
static int
pj_jnl_record(struct pj_state *s, const unsigned char *rec, uint64_t off)
{
	struct jnl_entry en[JNL_ENTRIES_PER_REC];
	int max_entries = jnl_entries_per_rec(s->timestamps);
	int entries = jnl_record_entries(rec, s->timestamps, en);
	int j;

	if (entries == -1)
		return (pj_error(s, off, "eyecatcher 0x%08x is neither a map "
		    "record's (0x%08x \".PAM\") nor a journal record's "
		    "(0x%08x \".LNJ\")", jnl_get32(rec, 0), JNL_MAP_EYE,
		    JNL_REC_EYE));
	if (entries == -2)
		return (pj_error(s, off + 4, "journal record with %" PRId32
		    " entries; a record holds at most %d",
		    (int32_t)jnl_get32(rec, 1), max_entries));
	if (entries == 0)
		return (2);
	for (j = 0; j < entries; j++) {
		unsigned key = (unsigned)en[j].key;
		uint64_t lba;

		s->entries_seen++;
		if (en[j].block > UINT64_MAX / (uint64_t)s->key_blksize)
			return (pj_error(s, off + 16 + (uint64_t)j *
			    (s->timestamps ? 16 : 8), "journal entry block %"
			    PRIu64 " overflows the lba", en[j].block));
		lba = en[j].block * (uint64_t)s->key_blksize;
		if (!pj_show(s, lba))
			continue;
		s->lbas_found++;
		if (s->timestamps) {
			char date[64];

			pj_date(en[j].tod_ms, date, sizeof(date));
			if (key != 0)
				ptod(s, "Before:  lba: 0x%012" PRIx64 " key: "
				    "0x%02x tod: %s", lba, key, date);
			else
				ptod(s, "After:   lba: 0x%012" PRIx64
				    "           tod: %s", lba, date);
		} else if (key != 0)
			ptod(s, "Before:  lba: 0x%012" PRIx64 " key: 0x%02x  ",
			    lba, key);
		else
			ptod(s, "After:   lba: 0x%012" PRIx64 " ", lba);
	}
	if (entries != max_entries) {
		ptod(s, "Found EOF after %6" PRIu64 " journal records at "
		    "seek: %08" PRIx64 " ", s->entries_seen, off);
		return (2);
	}
	return (0);
}

/*
 * The map records that hold key blocks: vdbench reserves
 * jnl_map_records() after the header but writes only these, so with key
 * blocks a multiple of 480 the last reserved record is zeros.
 */
static uint64_t
pj_keyed_recs(uint64_t key_blocks)
{
	return ((key_blocks + JNL_MAP_PER_REC - 1) / JNL_MAP_PER_REC);
}

static bool
pj_zero(const unsigned char *rec)
{
	unsigned i;

	for (i = 0; i < PJ_REC_BYTES; i++)
		if (rec[i] != 0)
			return (false);
	return (true);
}

int
printjournal_stream(FILE *in, const char *name, const struct pj_opts *o,
    FILE *out, FILE *err)
{
	unsigned char rec[PJ_REC_BYTES];
	struct pj_state s;
	uint64_t off;
	int rc = 0;

	memset(&s, 0, sizeof(s));
	s.out = out;
	s.err = err;
	s.name = name;
	s.o = o;
	s.key_blksize = -1;
	for (off = 0;; off += PJ_REC_BYTES) {
		size_t got = fread(rec, 1, sizeof(rec), in);

		if (got == 0 && ferror(in))
			return (pj_error(&s, off, "read error: %s",
			    strerror(errno)));
		if (got == 0) {
			if (off == 0)
				return (pj_error(&s, 0, "empty file: not a "
				    "journal or map file"));
			ptod(&s, "Trying to go beyond journal file size");
			break;
		}
		if (got < sizeof(rec))
			return (pj_error(&s, off, "record cut short: %zu of "
			    "%d bytes (file truncated)", got, PJ_REC_BYTES));
		if (off == 0 && jnl_kind_of(rec) != JNL_KIND_MAP)
			return (pj_header(&s, rec));
		if (off > 0 && off < jnl_first_record_off(s.hdr_key_blocks) &&
		    s.map_recs >= pj_keyed_recs(s.hdr_key_blocks) &&
		    pj_zero(rec))
			continue;	/* reserved, never written (480 x n) */
		if (jnl_kind_of(rec) == JNL_KIND_MAP) {
			/* vdbench: a timestamp flag in any map record. */
			if (jnl_get32(rec, 7) == 1)
				s.timestamps = true;
			if (off == 0)
				rc = pj_header(&s, rec);
			else
				rc = pj_map_record(&s, rec, off);
			if (rc != 0)
				return (rc);
			continue;
		}
		rc = pj_jnl_record(&s, rec, off);
		if (rc == 1)
			return (1);
		if (rc == 2)
			break;
	}
	fflush(out);
	if (s.map_recs < pj_keyed_recs(s.hdr_key_blocks))
		fprintf(err, "vdbc printjournal: %s: note: %" PRIu64 " map "
		    "records; the header's %" PRIu64 " key blocks take %"
		    PRIu64 "\n", name, s.map_recs, s.hdr_key_blocks,
		    pj_keyed_recs(s.hdr_key_blocks));
	if (o->find_lba >= 0 && s.lbas_found == 0)
		ptod(&s, "Logical byte addres 0x%08" PRIx64 " not found",
		    (uint64_t)o->find_lba);
	return (0);
}

static int
usage(const char *why)
{
	if (why != NULL)
		fprintf(stderr, "vdbc printjournal: %s\n", why);
	fprintf(stderr,
	    "usage: vdbc printjournal xxx.jnl [-l nnn]\n"
	    "          xxx.jnl:      your .jnl (or .map) file\n"
	    "          -l 4096       logical byte address\n"
	    "          -l 4k         k/m/g logical byte address\n"
	    "          -l 0x1000     Hex logical byte address\n");
	return (2);
}

/* -l: decimal, with a k/m/g/t suffix, or 0x hex, as vdbench's. */
static int
parse_lba(const char *s, int64_t *out)
{
	char *end;
	double v;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		unsigned long long x;

		errno = 0;
		x = strtoull(s + 2, &end, 16);
		if (errno != 0 || end == s + 2 || *end != '\0' ||
		    x > INT64_MAX)
			return (-1);
		*out = (int64_t)x;
		return (0);
	}
	if (units_parse(s, UNITS_SIZE, &v) != 0 || v < 0 ||
	    v >= 9.2e18 || v != (double)(int64_t)v)
		return (-1);
	*out = (int64_t)v;
	return (0);
}

int
printjournal_main(int argc, char *argv[])
{
	struct pj_opts o = { .find_lba = -1, .fixed_now = NULL };
	const char *file = NULL;
	FILE *in;
	int i, rc;

	for (i = 2; i < argc; i++) {
		if (strcmp(argv[i], "-l") == 0) {
			if (i + 1 >= argc)
				return (usage("-l needs a logical byte "
				    "address"));
			if (parse_lba(argv[++i], &o.find_lba) != 0) {
				fprintf(stderr, "vdbc printjournal: -l %s: "
				    "not a logical byte address\n", argv[i]);
				return (usage(NULL));
			}
		} else if (strcmp(argv[i], "-h") == 0 ||
		    strcmp(argv[i], "--help") == 0) {
			usage(NULL);
			return (0);
		} else if (argv[i][0] == '-' && argv[i][1] != '\0')
			return (usage("unknown option"));
		else if (file == NULL)
			file = argv[i];
		else
			return (usage("one file at a time"));
	}
	if (file == NULL)
		return (usage("Input parameter required with .jnl file name"));
	if ((in = fopen(file, "rb")) == NULL) {
		fprintf(stderr, "vdbc printjournal: %s: %s\n", file,
		    strerror(errno));
		return (1);
	}
	rc = printjournal_stream(in, file, &o, stdout, stderr);
	fclose(in);
	return (rc);
}
