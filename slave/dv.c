/* SPDX-License-Identifier: MIT */
/*
 * Data validation, vdbench's bytes and vdbench's words. Sources named
 * below are vdbench 5.04.06's; the layout is described in
 * reference/vdbench-5.04.06/validation/README.md.
 */
#include "dv.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "jrandom.h"
#include "model.h"
#include "xmalloc.h"

static void
put32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16);
	p[3] = (unsigned char)(v >> 24);
}

static uint32_t
get32(const unsigned char *p)
{
	return ((uint32_t)p[0] | (uint32_t)p[1] << 8 |
	    (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
}

void
dv_name8(char out[8], const char *name)
{
	size_t i, n = strlen(name);

	for (i = 0; i < 8; i++)
		out[i] = i < n ? name[i] : ' ';
}

uint8_t
dv_checksum(uint64_t ts_ms)
{
	uint64_t t = ts_ms & 0x7fffffffffffffffull;
	unsigned sum = 0;
	int i;

	for (i = 0; i < 8; i++)
		sum += (unsigned)(t >> (8 * i)) & 0xff;
	return ((uint8_t)sum);
}

int
dv_next_key(int k)
{
	return (k >= DV_KEY_MAX || k < 1 ? 1 : k + 1);
}

void
dv_fill(const unsigned char *pat, unsigned char *buf, uint64_t kb_lba,
    uint32_t kb_bytes, int key, const struct dv_stamp *st)
{
	struct dv_kb kb;

	dv_kb_of(NULL, kb_lba, key, &kb);
	dv_fill_kb(pat, buf, kb_lba, kb_bytes, key, &kb, st);
}

void
dv_fill_kb(const unsigned char *pat, unsigned char *buf, uint64_t kb_lba,
    uint32_t kb_bytes, int key, const struct dv_kb *kb,
    const struct dv_stamp *st)
{
	uint32_t word = (uint32_t)key << 24 |
	    (uint32_t)dv_checksum(st->ts_ms) << 16;
	uint32_t off;

	/* vdb_dv.c fill_compression_pattern: one copy from the pattern */
	memcpy(buf, pat + kb->comp, kb_bytes);
	if (kb->kind == DV_KB_UNIQUE)
		word |= kb->type << 8;		/* fill_dv_pattern */
	for (off = 0; off < kb_bytes; off += DV_SECTOR) {
		unsigned char *s = buf + off;
		uint64_t lba = kb_lba + off;

		if (kb->kind == DV_KB_DUP) {	/* store_dedup_set */
			put32(s, (uint32_t)(kb->set >> 32));
			put32(s + 4, (uint32_t)kb->set);
			continue;
		}
		put32(s, (uint32_t)(lba >> 32));
		put32(s + 4, (uint32_t)lba);
		if (kb->kind == DV_KB_UNIQUE_LBA)
			continue;
		put32(s + 8, (uint32_t)(st->ts_ms >> 32));
		put32(s + 12, (uint32_t)st->ts_ms);
		put32(s + 16, word);
		memcpy(s + 20, st->name, 8);
		put32(s + 28, st->pid);
	}
}

unsigned
dv_check_sector(const unsigned char *pat, const unsigned char *sec,
    uint64_t kb_lba, unsigned s, int key, const char name[8])
{
	struct dv_kb kb;

	dv_kb_of(NULL, kb_lba, key, &kb);
	return (dv_check_sector_kb(pat, sec, kb_lba, s, key, name, &kb));
}

unsigned
dv_check_sector_kb(const unsigned char *pat, const unsigned char *sec,
    uint64_t kb_lba, unsigned s, int key, const char name[8],
    const struct dv_kb *kb)
{
	uint64_t lba = kb_lba + (uint64_t)s * DV_SECTOR;
	const unsigned char *exp = pat + kb->comp + (size_t)s * DV_SECTOR;
	uint64_t ts;
	uint32_t word;
	unsigned flags = 0;

	switch (kb->kind) {
	case DV_KB_DUP:		/* vdb_dv.c validate_duplicate_sector */
		if (memcmp(sec + 8, exp + 8, DV_SECTOR - 8) != 0)
			flags |= DV_BAD_COMP;
		if (get32(sec) != (uint32_t)(kb->set >> 32) ||
		    get32(sec + 4) != (uint32_t)kb->set)
			flags |= DV_BAD_DEDUPSET;
		return (flags);
	case DV_KB_UNIQUE_LBA:	/* validate_comp_sector, across no */
		if (get32(sec) != (uint32_t)(lba >> 32) ||
		    get32(sec + 4) != (uint32_t)lba)
			flags |= DV_BAD_LBA;
		if (memcmp(sec + 8, exp + 8, DV_SECTOR - 8) != 0)
			flags |= DV_BAD_COMP;
		return (flags);
	default:
		break;
	}
	ts = (uint64_t)get32(sec + 8) << 32 | get32(sec + 12);
	word = get32(sec + 16);
	if ((int)(word >> 24) != key)
		flags |= DV_BAD_KEY;
	if (((word >> 16) & 0xff) != dv_checksum(ts))
		flags |= DV_BAD_CHECKSUM;
	if (get32(sec) != (uint32_t)(lba >> 32) ||
	    get32(sec + 4) != (uint32_t)lba)
		flags |= DV_BAD_LBA;
	if (memcmp(sec + 20, name, 8) != 0)
		flags |= DV_BAD_NAME;
	if (memcmp(sec + 32, exp + 32, DV_SECTOR - 32) != 0)
		flags |= DV_BAD_COMP;
	/* vdb_dv.c:564 "bytes &0xffff != 0" parses as bytes & 1. */
	if (word & 1)
		flags |= DV_BAD_ZERO;
	return (flags);
}

/* Dedup (dv.h). */

/* Java's String.hashCode. */
static int32_t
java_hash(const char *a, const char *b)
{
	uint32_t h = 0;

	for (; *a != '\0'; a++)
		h = 31 * h + (unsigned char)*a;
	for (; *b != '\0'; b++)
		h = 31 * h + (unsigned char)*b;
	return ((int32_t)h);
}

#define UNIQUE_ACROSS_YES	0x00C0000000000000ull
#define UNIQUE_ACROSS_NO	0x00E0000000000000ull

int
dv_dedup_init(struct dv_dedup *d, const char *sd_name, uint64_t lun_bytes,
    uint64_t unit_bytes, double ratio, double sets_req, int not_across,
    char *err, size_t errlen)
{
	return (dv_dedup_init_group(d, sd_name, lun_bytes, lun_bytes, 0,
	    unit_bytes, ratio, sets_req, not_across, err, errlen));
}

int
dv_dedup_init_group(struct dv_dedup *d, const char *sd_name,
    uint64_t lun_bytes, uint64_t group_bytes, uint64_t rel_bytes,
    uint64_t unit_bytes, double ratio, double sets_req, int not_across,
    char *err, size_t errlen)
{
	double blocks, sets, pct, adj;
	uint64_t want, uniques = 0, seed, j;

	memset(d, 0, sizeof(*d));
	d->unit_bytes = unit_bytes;
	d->units = unit_bytes > 0 ? lun_bytes / unit_bytes : 0;
	d->rel_units = unit_bytes > 0 ? rel_bytes / unit_bytes : 0;
	d->type = 1;
	d->maxkey = 2;
	d->not_across = not_across;
	if (d->units == 0 || ratio < 1) {
		snprintf(err, errlen, "sd=%s: Data Validation with dedup needs "
		    "a lun of at least one dedupunit=", sd_name);
		return (-1);
	}
	/* Dedup.adjustSdDedupValue(), over the sds of the group */
	blocks = group_bytes / unit_bytes > d->units ?
	    (double)(group_bytes / unit_bytes) : (double)d->units;
	sets = sets_req > 0 ? sets_req : blocks * -sets_req / 100;
	pct = 100.0 / ratio;
	adj = pct - sets * 100.0 / blocks;
	if (adj < 0)
		adj = 0;
	if (pct == 100)
		adj = 100;
	d->adjusted_pct = adj;
	d->sets_used = sets >= 1 ? (uint64_t)sets : 1;
	d->all_unique = pct == 100;
	if (sets > blocks * pct / 100) {
		snprintf(err, errlen, "adjustDedupValue(): requesting more "
		    "dedupsets (%.0f) than we have non-unique data blocks "
		    "(%.0f, estimated)", sets, blocks * pct / 100);
		return (-1);
	}
	/* DedupBitMap.createMapForUniques() */
	want = (uint64_t)((double)d->units * adj / 100.);
	d->unique = xcalloc(d->units / 8 + 1, 1);
	d->unique_units = want;
	if (ratio == 1)
		return (0);
	seed = jr_seed(java_hash("sd=", sd_name));
	while (uniques < want) {
		int64_t r = jr_next_long(&seed) % (int64_t)d->units;
		uint64_t block = (uint64_t)(r < 0 ? -r : r);

		for (j = 0; j < 32 && uniques < want; j++) {
			uint64_t b = block + j;

			if (b >= d->units)
				break;
			if (d->unique[b / 8] & (1u << (b % 8)))
				continue;
			d->unique[b / 8] |= (uint8_t)(1u << (b % 8));
			uniques++;
		}
	}
	return (0);
}

void
dv_dedup_free(struct dv_dedup *d)
{
	free(d->unique);
	d->unique = NULL;
}

int
dv_dedup_next_key(const struct dv_dedup *d, int k)
{
	return (k >= d->maxkey || k < 1 ? 1 : k + 1);
}

void
dv_kb_of(const struct dv_dedup *dd, uint64_t kb_lba, int key,
    struct dv_kb *kb)
{
	uint64_t blk, set;

	kb->comp = (uint32_t)(kb_lba % DV_COMP_SPAN);
	kb->type = 0;
	kb->set = 0;
	if (dd == NULL) {
		kb->kind = DV_KB_PLAIN;
		return;
	}
	/* Dedup.dedupSdBlock() */
	blk = kb_lba / dd->unit_bytes;
	kb->type = dd->type;
	if (dd->all_unique || (blk < dd->units &&
	    (dd->unique[blk / 8] & (1u << (blk % 8))))) {
		kb->kind = dd->not_across ? DV_KB_UNIQUE_LBA : DV_KB_UNIQUE;
		set = dd->not_across ? UNIQUE_ACROSS_NO : UNIQUE_ACROSS_YES;
	} else {
		kb->kind = DV_KB_DUP;
		set = (blk + dd->rel_units) % dd->sets_used;
		kb->comp = (uint32_t)(((set * 347) << 2) & (DV_COMP_SPAN - 1));
	}
	kb->set = set | (uint64_t)key << 56 | (uint64_t)dd->type << 32;
}

int
dv_map_init(struct dv_map *m, uint64_t nblocks, uint32_t kb_bytes)
{
	memset(m, 0, sizeof(*m));
	m->keys = calloc(nblocks > 0 ? nblocks : 1, 1);
	if (m->keys == NULL)
		return (-1);
	m->nblocks = nblocks;
	m->kb_bytes = kb_bytes;
	return (0);
}

void
dv_map_free(struct dv_map *m)
{
	free((void *)m->keys);
	m->keys = NULL;
	free((void *)m->stamps);
	m->stamps = NULL;
}

int
dv_map_time_init(struct dv_map *m)
{
	if (m->stamps != NULL)
		return (0);
	m->stamps = calloc(m->nblocks > 0 ? m->nblocks : 1,
	    sizeof(*m->stamps));
	return (m->stamps != NULL ? 0 : -1);
}

/* The key blocks are claimed by the caller: no other writer. */
void
dv_map_stamp(struct dv_map *m, uint64_t first, uint64_t n, unsigned op,
    uint64_t ms)
{
	uint64_t i, v = (ms & DV_TS_MS_MASK) | (uint64_t)op << 56;

	if (m->stamps == NULL)
		return;
	for (i = 0; i < n && first + i < m->nblocks; i++)
		atomic_store_explicit(&m->stamps[first + i], v,
		    memory_order_relaxed);
}

/* Timestamp.getLastOperation (its spelling of unknown kept). */
const char *
dv_stamp_op(uint64_t stamp)
{
	switch ((unsigned)(stamp >> 56)) {
	case DV_TS_READ:
		return ("read");
	case DV_TS_PREREAD:
		return ("pre_read");
	case DV_TS_AFTER_WRITE:
		return ("read_after_write");
	case DV_TS_WRITE:
		return ("written");
	default:
		return ("unkown_operation");
	}
}

int
dv_map_claim(struct dv_map *m, uint64_t first, uint64_t n)
{
	uint64_t i;

	for (i = 0; i < n; i++) {
		uint8_t old = atomic_fetch_or_explicit(&m->keys[first + i],
		    DV_KEY_BUSY, memory_order_acquire);

		if (old & DV_KEY_BUSY) {
			while (i-- > 0)
				atomic_fetch_and_explicit(
				    &m->keys[first + i],
				    (uint8_t)~DV_KEY_BUSY,
				    memory_order_release);
			return (-1);
		}
	}
	return (0);
}

int
dv_map_key(const struct dv_map *m, uint64_t block)
{
	return (atomic_load_explicit(&m->keys[block],
	    memory_order_relaxed) & ~DV_KEY_BUSY);
}

void
dv_map_release(struct dv_map *m, uint64_t block, int key)
{
	if (key < 0)
		key = dv_map_key(m, block);
	atomic_store_explicit(&m->keys[block], (uint8_t)key,
	    memory_order_release);
}

/* The report. */

static void
addf(struct strlist *out, const char *fmt, ...)
{
	char buf[8192];	/* FSD lines carry a file path */
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	strlist_add(out, buf);
}

/* 1234567 -> "1,234,567" (Java's %,d). */
const char *
dv_commas(char *buf, size_t len, uint64_t v)
{
	char tmp[32];
	size_t n, i, o = 0;

	n = (size_t)snprintf(tmp, sizeof(tmp), "%" PRIu64, v);
	for (i = 0; i < n && o + 2 < len; i++) {
		if (i > 0 && (n - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = tmp[i];
	}
	buf[o] = '\0';
	return (buf);
}

/* Floor division and modulo. */
static int64_t
fdiv(int64_t a, int64_t b)
{
	return (a / b - (a % b != 0 && (a < 0) != (b < 0)));
}

/*
 * Before 15 Oct 1582 Java's GregorianCalendar counts Julian dates, and
 * "yyyy" prints the year of the era (1 BC, 2 BC, ...): random bytes read
 * as a timestamp land there (v2a: "Tue Jun 12 37877732").
 */
static void
julian_time(char *buf, size_t len, int64_t ms, long gmtoff)
{
	static const char *const wday[] = { "Sun", "Mon", "Tue", "Wed",
	    "Thu", "Fri", "Sat" };
	static const char *const mon[] = { "Jan", "Feb", "Mar", "Apr", "May",
	    "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec" };
	int64_t t = ms + (int64_t)gmtoff * 1000;
	int64_t days = fdiv(t, 86400000), msday = t - days * 86400000;
	int64_t c = days + 2440588 + 32082, d, e, m, day, month, year;
	char zone[16];
	time_t now = 0;
	struct tm tm;

	d = fdiv(4 * c + 3, 1461);
	e = c - fdiv(1461 * d, 4);
	m = fdiv(5 * e + 2, 153);
	day = e - fdiv(153 * m + 2, 5) + 1;
	month = m + 3 - 12 * fdiv(m, 10);
	year = d - 4800 + fdiv(m, 10);
	if (year <= 0)
		year = 1 - year;
	zone[0] = '\0';
	if (localtime_r(&now, &tm) != NULL)
		strftime(zone, sizeof(zone), "%Z", &tm);
	snprintf(buf, len, "%s %s %02d %04" PRId64 " %02d:%02d:%02d.%03d %s",
	    wday[(days % 7 + 7 + 4) % 7], mon[month - 1], (int)day, year,
	    (int)(msday / 3600000), (int)(msday / 60000 % 60),
	    (int)(msday / 1000 % 60), (int)(msday % 1000), zone);
}

void
dv_format_time(char *buf, size_t len, int64_t ms)
{
	int64_t sec = fdiv(ms, 1000), rem = ms - sec * 1000;
	char day[64], zone[16];
	time_t t = (time_t)sec;
	struct tm tm;

	if (ms < -12219292800000ll || localtime_r(&t, &tm) == NULL) {
		t = 0;
		julian_time(buf, len, ms, localtime_r(&t, &tm) != NULL ?
		    tm.tm_gmtoff : 0);
		return;
	}
	strftime(day, sizeof(day), "%a %b %d %Y %H:%M:%S", &tm);
	strftime(zone, sizeof(zone), "%Z", &tm);
	snprintf(buf, len, "%s.%03d %s", day, (int)rem, zone);
}

static const char *const banner[] = {
	"",
	NULL,	/* Time of first corruption */
	"",
	"At least one Data Validation error has been detected.                               ",
	"",
	"Terminology:                                                                        ",
	"- Data block: a block of xfersize= bytes.                                           ",
	"- Key block:  the smallest xfersize specified by the user which is the unit of      ",
	"              data that Data Validation keeps track of.                             ",
	"- Sector:     512 bytes of disk storage, regardless of actual storage sector size.  ",
	"- Lba:        Logical Byte Address, not to be confused with Logical Block Address.  ",
	"",
	"",
	"The output starts with a summary of a data block, followed by a summary of each     ",
	"key block. If all sectors in a key block show a similar type of data corruption     ",
	"only the FIRST sector of the key block will be reported.                            ",
	"For all other cases, ALL sectors will be reported.                                  ",
	"",
	"Contents of the first 32 bytes of each sector:                                      ",
	"",
	"Byte 0x00 -  0x07: Byte offset of this disk block ",
	"Byte 0x08 -  0x0f: Timestamp: number of milliseconds since 1/1/1970 ",
	"Byte 0x10        : Data Validation key from 1 - 126 ",
	"Byte 0x11        : Checksum of timestamp ",
	"Byte 0x12 -  0x13: Reserved ",
	"Byte 0x14 -  0x1b: SD or FSD name in ASCII hexadecimal ",
	"Byte 0x1c -  0x1f: Process-id when written ",
	"Byte 0x20 - 0x1ff: 480 bytes of compression data pattern",
	"",
	"On the left:  the data that was expected ('.' marks unknown value).",
	"On the right: the data that was found.",
	"",
};

void
dv_report_banner(struct strlist *out, uint64_t first_ms)
{
	char when[96];
	size_t i;

	for (i = 0; i < sizeof(banner) / sizeof(banner[0]); i++) {
		if (banner[i] != NULL) {
			strlist_add(out, banner[i]);
			continue;
		}
		dv_format_time(when, sizeof(when), (int64_t)first_ms);
		addf(out, "Time of first corruption: %s", when);
	}
}

/* Flag texts for the "Error type counts" lines, in flag bit order. */
static const char *const count_text[] = {
	"===> Data Validation Key miscompare:",
	"===> Checksum error on timestamp:",
	"===> Logical byte address miscompare:",
	"===> SD or FSD name miscompare:",
	"===> Compression pattern miscompare:",
	"===> Bad reserved field contents (mbz):",
	"===> Bad dedup set value:",
};
#define DV_NFLAGS	7
/* The bits in vdbench's report order (BadSector.getFlagText). */
static const int count_order[DV_NFLAGS] = { 0, 1, 2, 3, 4, 6, 5 };

static const char *const why_text[] = {
	"workload requested read",
	"read-before-write",
	"read-after-write",
};

/* The name as found: trimmed, or garbage1 when not printable. */
static void
found_name(char out[9], const unsigned char *p)
{
	int i, n = 8;

	for (i = 0; i < 8; i++) {
		if (p[i] < 0x20 || p[i] > 0x7e) {
			strcpy(out, "garbage1");
			return;
		}
	}
	while (n > 0 && p[n - 1] == ' ')
		n--;
	memcpy(out, p, (size_t)n);
	out[n] = '\0';
}

/* The "===> ..." lines of one sector's flags. */
static void
flag_lines(struct strlist *out, const char *indent, unsigned flags,
    const unsigned char *sec, uint64_t lba, int key, const char *name8,
    const struct dv_kb *kb)
{
	uint64_t ts = (uint64_t)get32(sec + 8) << 32 | get32(sec + 12);
	uint64_t flba = (uint64_t)get32(sec) << 32 | get32(sec + 4);
	uint32_t word = get32(sec + 16);
	char fname[9];

	if (flags & DV_BAD_KEY)
		addf(out, "%s===> Data Validation Key miscompare. Expecting "
		    "key=0x%02x received key=0x%02x (%d/%d)", indent, key,
		    word >> 24, key, (int)(word >> 24));
	if (flags & DV_BAD_CHECKSUM)
		addf(out, "%s===> Checksum error on timestamp. Checksum: "
		    "0x%02x, timestamp: 0x%016" PRIx64, indent,
		    (word >> 16) & 0xff, ts);
	if (flags & DV_BAD_LBA)
		addf(out, "%s===> Logical byte address miscompare. Expecting "
		    "0x%08" PRIx64 ", receiving 0x%08" PRIx64, indent, lba,
		    flba);
	if (flags & DV_BAD_NAME) {
		found_name(fname, sec + 20);
		if (strcmp(fname, "garbage1") != 0)
			snprintf(fname, sizeof(fname), "%.8s",
			    (const char *)sec + 20);
		addf(out, "%s===> SD or FSD name miscompare. Expecting "
		    "'%.8s', receiving '%s' (0x%08x%08x)", indent, name8,
		    fname, get32(sec + 20), get32(sec + 24));
	}
	if (flags & DV_BAD_COMP)
		addf(out, "%s===> Compression pattern miscompare.", indent);
	if (flags & DV_BAD_DEDUPSET)
		addf(out, "%s===> Bad dedup set value.", indent);
	if (flags & DV_BAD_ZERO)
		addf(out, "%s===> Bad reserved field contents (mbz).",
		    indent);
	if (kb->kind == DV_KB_UNIQUE || kb->kind == DV_KB_UNIQUE_LBA)
		addf(out, "%s===> This is a unique (dedup) block.", indent);
	else if (kb->kind == DV_KB_DUP)
		addf(out, "%s===> This is a duplicate (dedup) block.", indent);
}

/* One sector in full (BadSector.printOneSector). */
static void
sector_lines(struct strlist *out, const unsigned char *pat,
    const struct dv_bad_block *b, uint64_t kb_lba, unsigned s, int key,
    unsigned flags, const unsigned char *sec)
{
	uint64_t ts = (uint64_t)get32(sec + 8) << 32 | get32(sec + 12);
	uint64_t lba = kb_lba + (uint64_t)s * DV_SECTOR;
	char when[96], want[9], got[9], line[160];
	const unsigned char *exp;
	struct dv_kb kb;
	unsigned off, w;
	size_t n;

	dv_kb_of(b->dd, kb_lba, key, &kb);
	exp = pat + kb.comp + (uint64_t)s * DV_SECTOR;

	if (b->fsd != NULL) {
		/* BadSector.java:255-260: no "( n)", no pid */
		addf(out, "        Data Validation error for fsd=%s; FSD lba: "
		    "0x%08" PRIx64 "; Key block size: %u; relative sector in "
		    "data block: 0x%02x ", b->sd, lba, b->kb_bytes, s);
		addf(out, "        File name: %s; file block lba: 0x%08" PRIx64
		    "; bad sector file lba: 0x%08" PRIx64, b->fsd->file,
		    kb_lba - b->fsd->file_start, lba - b->fsd->file_start);
	} else {
		addf(out, "        Data Validation error for sd=%s,lun=%s ",
		    b->sd, b->lun);
		addf(out, "        Block lba: 0x%08" PRIx64 "; sector lba: "
		    "0x%08" PRIx64 "; Key block size: %u; relative sector in "
		    "data block: 0x%02x (%2u); current pid: %u (0x%x)",
		    kb_lba, lba, b->kb_bytes, s, s, b->pid, b->pid);
	}
	flag_lines(out, "        ", flags, sec, lba, key, b->name8, &kb);
	if (flags & DV_BAD_NAME) {
		snprintf(want, sizeof(want), "%.8s", b->name8);
		n = strlen(want);
		while (n > 0 && want[n - 1] == ' ')
			want[--n] = '\0';
		found_name(got, sec + 20);
		addf(out, "        SD or FSD name in block expected: '%s'; "
		    "received: '%s'.", want, got);
	}
	/* with dedup vdbench compares the whole set word with the bare
	 * UNIQUE_BLOCK_ACROSS_YES, which never matches: no timestamp line */
	if (b->dd == NULL) {
		dv_format_time(when, sizeof(when), (int64_t)ts);
		addf(out, "        Timestamp found in sector: %s", when);
	}
	/*
	 * vdbench's report shows and sums at most the first 14 digits of
	 * the timestamp's hex (v2a: 0x01eff1c764bb33bf shows as
	 * "0x1eff1c764bb33b; ... should be e8").
	 */
	if (flags & DV_BAD_CHECKSUM) {
		char hex[24];

		snprintf(hex, sizeof(hex), "%" PRIx64, ts);
		hex[14] = '\0';
		addf(out, "        Checksum on timestamp failed. Timestamp: "
		    "0x%s; checksum %02x; should be %x", hex,
		    (get32(sec + 16) >> 16) & 0xff,
		    dv_checksum(strtoull(hex, NULL, 16)));
	}
	if (kb.kind == DV_KB_PLAIN || kb.kind == DV_KB_UNIQUE) {
		addf(out, "0x000%s  %08x %08x ........ ........   %08x %08x "
		    "%08x %08x", (flags & DV_BAD_LBA) ? "*" : " ",
		    (uint32_t)(lba >> 32), (uint32_t)lba, get32(sec),
		    get32(sec + 4), get32(sec + 8), get32(sec + 12));
		addf(out, "0x010   %02x..0000 %08x %08x 00000000   %08x %08x "
		    "%08x %08x", key, get32((const unsigned char *)b->name8),
		    get32((const unsigned char *)b->name8 + 4),
		    get32(sec + 16), get32(sec + 20), get32(sec + 24),
		    get32(sec + 28));
	} else {
		/* BadSector.printFirstLine/printSecondLine for dedup */
		uint64_t w0 = kb.kind == DV_KB_DUP ? kb.set : lba;
		unsigned star = kb.kind == DV_KB_DUP ?
		    (flags & DV_BAD_DEDUPSET) : (flags & DV_BAD_LBA);

		addf(out, "0x000%s  %08x %08x %08x %08x   %08x %08x %08x %08x",
		    star ? "*" : " ", (uint32_t)(w0 >> 32), (uint32_t)w0,
		    get32(exp + 8), get32(exp + 12), get32(sec),
		    get32(sec + 4), get32(sec + 8), get32(sec + 12));
		addf(out, "0x010%s  %08x %08x %08x %08x   %08x %08x %08x %08x",
		    memcmp(exp + 16, sec + 16, 16) != 0 ? "*" : " ",
		    get32(exp + 16), get32(exp + 20), get32(exp + 24),
		    get32(exp + 28), get32(sec + 16), get32(sec + 20),
		    get32(sec + 24), get32(sec + 28));
	}
	for (off = 32; off < DV_SECTOR; off += 16) {
		if (memcmp(exp + off, sec + off, 16) == 0)
			continue;
		n = (size_t)snprintf(line, sizeof(line), "0x%03x*  ", off);
		for (w = 0; w < 4; w++)
			n += (size_t)snprintf(line + n, sizeof(line) - n,
			    w ? " %08x" : "%08x", get32(exp + off + 4 * w));
		n += (size_t)snprintf(line + n, sizeof(line) - n, "  ");
		for (w = 0; w < 4; w++)
			n += (size_t)snprintf(line + n, sizeof(line) - n,
			    " %08x", get32(sec + off + 4 * w));
		snprintf(line + n, sizeof(line) - n, " ");
		strlist_add(out, line);
	}
}

/* Is key block k of b known and holding a bad sector? */
static int
keyblock_bad(const unsigned char *pat, const struct dv_bad_block *b,
    uint32_t k)
{
	const unsigned char *data = b->data + (size_t)k * b->kb_bytes;
	uint64_t kb_lba = b->lba + (uint64_t)k * b->kb_bytes;
	struct dv_kb kb;
	uint32_t s;

	if (b->keys[k] == 0 || b->keys[k] == DV_KEY_ERROR)
		return (0);
	dv_kb_of(b->dd, kb_lba, b->keys[k], &kb);
	for (s = 0; s < b->kb_bytes / DV_SECTOR; s++)
		if (dv_check_sector_kb(pat, data + s * DV_SECTOR, kb_lba, s,
		    b->keys[k], b->name8, &kb) != 0)
			return (1);
	return (0);
}

unsigned
dv_bad_keyblocks(const unsigned char *pat, const struct dv_bad_block *b)
{
	uint32_t nkb = b->xfer / b->kb_bytes, k;
	unsigned bad = 0;

	for (k = 0; k < nkb; k++)
		bad += (unsigned)keyblock_bad(pat, b, k);
	return (bad);
}

/* A timeline entry: vdbench sorts "%032d%04d text" strings. */
struct tl_line {
	char	key[48];
	char	text[300];
};

static int
tl_cmp(const void *a, const void *b)
{
	return (strcmp(((const struct tl_line *)a)->key,
	    ((const struct tl_line *)b)->key));
}

/*
 * The timeline of key block k (BadKeyBlock.reportTimeLine): the lines
 * vdbench prints first, then the dated ones sorted by time (the sector's
 * write, with -vt the block's last use, the discovery), ties in that
 * order.
 */
static void
timeline(struct strlist *out, const struct dv_bad_block *b, uint32_t k,
    const unsigned char *sec, int bad_checksum, int no_sector_time)
{
	struct tl_line tl[3];
	char when[96];
	size_t n = 0, i;
	int64_t ts;

	strlist_add(out, "   Timeline: ");
	if (bad_checksum)
		strlist_add(out, "   No valid timestamp found in first "
		    "corrupted sector");
	if (b->stamps != NULL && (b->stamps[k] & DV_TS_MS_MASK) == 0)
		strlist_add(out, "   This key block has not been used (yet) "
		    "during this vdbench test.");
	else if (b->stamps != NULL) {
		ts = (int64_t)(b->stamps[k] & DV_TS_MS_MASK);
		dv_format_time(when, sizeof(when), ts);
		snprintf(tl[n].key, sizeof(tl[n].key), "%032" PRId64 "0001",
		    ts);
		snprintf(tl[n++].text, sizeof(tl[0].text), "%s Key block was "
		    "last %s. (Timestamp is taken just AFTER the actual read "
		    "or write).", when, dv_stamp_op(b->stamps[k]));
	}
	if (!bad_checksum && !no_sector_time) {
		ts = (int64_t)((uint64_t)get32(sec + 8) << 32 |
		    get32(sec + 12));
		dv_format_time(when, sizeof(when), ts);
		snprintf(tl[n].key, sizeof(tl[n].key), "%032" PRId64 "0000",
		    ts);
		snprintf(tl[n++].text, sizeof(tl[0].text), "%s Sector last "
		    "written. (As found in the first corrupted sector, "
		    "timestamp is taken just BEFORE the actual write).", when);
	}
	dv_format_time(when, sizeof(when), (int64_t)b->found_ms);
	snprintf(tl[n].key, sizeof(tl[n].key), "%032" PRId64 "0002",
	    (int64_t)b->found_ms);
	snprintf(tl[n++].text, sizeof(tl[0].text), "%s Key block first "
	    "found to be corrupted during a %s.", when, why_text[b->why]);
	qsort(tl, n, sizeof(tl[0]), tl_cmp);
	for (i = 0; i < n; i++)
		addf(out, "   %s", tl[i].text);
	strlist_add(out, "");
}

/* One corrupted key block (BadKeyBlock.java). */
static void
keyblock_lines(struct strlist *out, const unsigned char *pat,
    const struct dv_bad_block *b, uint32_t k)
{
	const unsigned char *kb = b->data + (size_t)k * b->kb_bytes;
	uint64_t kb_lba = b->lba + (uint64_t)k * b->kb_bytes;
	uint32_t nsec = b->kb_bytes / DV_SECTOR, s, nbad = 0;
	unsigned flags[DV_SECTOR * 8], first = 0, all_same = 1, f;
	int counts[DV_NFLAGS] = { 0 }, key = b->keys[k], i;
	char when[96], num[32];
	struct dv_kb kbd;

	dv_kb_of(b->dd, kb_lba, key, &kbd);
	if (nsec > DV_SECTOR * 8)
		nsec = DV_SECTOR * 8;
	for (s = 0; s < nsec; s++) {
		flags[s] = dv_check_sector_kb(pat, kb + s * DV_SECTOR, kb_lba,
		    s, key, b->name8, &kbd);
		if (flags[s] == 0)
			continue;
		if (nbad++ == 0)
			first = s;
		else if (flags[s] != flags[first])
			all_same = 0;
		for (i = 0; i < DV_NFLAGS; i++)
			counts[i] += (flags[s] >> count_order[i]) & 1;
	}
	addf(out, "Key block lba: 0x%08" PRIx64, kb_lba);
	addf(out, "   Key block of %s bytes has %u 512-byte sectors.",
	    dv_commas(num, sizeof(num), b->kb_bytes), nsec);
	/* a duplicate (dedup) has no write time */
	timeline(out, b, k, kb + first * DV_SECTOR,
	    (flags[first] & DV_BAD_CHECKSUM) != 0, kbd.kind == DV_KB_DUP);
	if (nbad == nsec && all_same) {
		addf(out, "   All %u sectors in this key block are "
		    "corrupted.", nsec);
		strlist_add(out, "   All corruptions are of the same type: ");
		flag_lines(out, "   ", flags[first], kb + first * DV_SECTOR,
		    kb_lba + first * DV_SECTOR, key, b->name8, &kbd);
		strlist_add(out, "   Only the FIRST sector will be reported:");
		strlist_add(out, "");
		sector_lines(out, pat, b, kb_lba, first, key, flags[first],
		    kb + first * DV_SECTOR);
		/* BadKeyBlock.java: with -vt, when the block was last used */
		if (b->stamps != NULL &&
		    (b->stamps[k] & DV_TS_MS_MASK) != 0) {
			dv_format_time(when, sizeof(when),
			    (int64_t)(b->stamps[k] & DV_TS_MS_MASK));
			addf(out, "Time that this key block 0x%08" PRIx64
			    " was last used for %s: %s", kb_lba,
			    dv_stamp_op(b->stamps[k]), when);
		}
		return;
	}
	if (nbad == nsec) {
		addf(out, "   All %u sectors in this key block are "
		    "corrupted.", nsec);
		strlist_add(out, "   Corruption types do not match. Reporting "
		    "all sectors: ");
		strlist_add(out, "   Error type counts:");
		for (i = 0; i < DV_NFLAGS; i++)
			if (counts[i] > 0)
				addf(out, "   %-40s %3d",
				    count_text[count_order[i]], counts[i]);
	} else {
		addf(out, "   %u of %u sectors are corrupted.", nbad, nsec);
		addf(out, "   All %u corrupted sectors will be reported.",
		    nbad);
	}
	for (s = 0; s < nsec; s++) {
		f = flags[s];
		if (f == 0)
			continue;
		strlist_add(out, "");
		sector_lines(out, pat, b, kb_lba, s, key, f,
		    kb + s * DV_SECTOR);
	}
}

void
dv_report_block(struct strlist *out, const unsigned char *pat,
    const struct dv_bad_block *b)
{
	uint32_t nkb = b->xfer / b->kb_bytes, k;
	unsigned nbad = dv_bad_keyblocks(pat, b);
	char num[32];

	strlist_add(out, "");
	strlist_add(out, "");
	strlist_add(out, "");
	if (b->fsd != NULL)
		addf(out, "Corrupted data block for fsd=%s,file=%s; file lba: "
		    "0x%08" PRIx64 " xfersize=%u", b->sd, b->fsd->file,
		    b->lba - b->fsd->file_start, b->xfer);
	else
		addf(out, "Corrupted data block for sd=%s,lun=%s; lba: %s "
		    "(0x%08" PRIx64 ") xfersize=%u", b->sd, b->lun,
		    dv_commas(num, sizeof(num), b->lba), b->lba, b->xfer);
	strlist_add(out, "");
	addf(out, "Data block has %u key block(s) of %u bytes each.", nkb,
	    b->kb_bytes);
	if (nbad == nkb)
		strlist_add(out, "All key blocks are corrupted.");
	else
		addf(out, "%u of %u key blocks are corrupted.", nbad, nkb);
	for (k = 0; k < nkb; k++)
		if (keyblock_bad(pat, b, k))
			keyblock_lines(out, pat, b, k);
}

unsigned
dv_bad_sectors(const unsigned char *pat, const struct dv_bad_block *b,
    struct dv_bad_sector *out, unsigned max)
{
	uint32_t nkb = b->xfer / b->kb_bytes, k, s;
	unsigned n = 0, f;

	for (k = 0; k < nkb; k++) {
		const unsigned char *kb = b->data + (size_t)k * b->kb_bytes;
		uint64_t kb_lba = b->lba + (uint64_t)k * b->kb_bytes;

		if (b->keys[k] == 0 || b->keys[k] == DV_KEY_ERROR)
			continue;
		for (s = 0; s < b->kb_bytes / DV_SECTOR; s++) {
			f = dv_check_sector(pat, kb + s * DV_SECTOR, kb_lba, s,
			    b->keys[k], b->name8);
			if (f == 0)
				continue;
			if (n < max) {
				out[n].kb_lba = kb_lba;
				out[n].sector = s;
				out[n].flags = f;
			}
			n++;
		}
	}
	return (n);
}

const char *
dv_flag_name(unsigned bit)
{
	switch (bit) {
	case DV_BAD_KEY:
		return ("key");
	case DV_BAD_CHECKSUM:
		return ("checksum");
	case DV_BAD_LBA:
		return ("lba");
	case DV_BAD_NAME:
		return ("name");
	case DV_BAD_COMP:
		return ("compression");
	case DV_BAD_ZERO:
		return ("reserved");
	default:
		return ("?");
	}
}

/* The sectors a corrupted block's record lists; the count says the rest. */
#define DV_REC_SECTORS	16

static const char *const dv_why_words[] = {
	"workload requested read", "read-before-write", "read-after-write",
};

/*
 * A corrupted data block as results.json records it (docs/results-
 * schema.md "validation"), as JSON text (caller frees).
 */
char *
dv_block_json(const unsigned char *pat, const struct dv_bad_block *b)
{
	struct dv_bad_sector sec[DV_REC_SECTORS];
	unsigned total = dv_bad_sectors(pat, b, sec, DV_REC_SECTORS), i, f;
	json_t *o, *a = json_array();
	char *text;

	for (i = 0; i < total && i < DV_REC_SECTORS; i++) {
		json_t *fl = json_array();

		for (f = 1; f <= DV_BAD_ZERO; f <<= 1)
			if (sec[i].flags & f)
				json_array_append_new(fl,
				    json_string(dv_flag_name(f)));
		json_array_append_new(a, json_pack("{s:I,s:I,s:i,s:o}",
		    "lba", (json_int_t)(sec[i].kb_lba + (uint64_t)
		    sec[i].sector * DV_SECTOR), "key_block_lba",
		    (json_int_t)sec[i].kb_lba, "sector", (int)sec[i].sector,
		    "flags", fl));
	}
	o = json_pack("{s:s,s:s,s:I,s:I,s:I,s:I,s:I,s:I,s:s,s:I,s:o}",
	    "sd", b->sd, "lun", b->lun, "lba", (json_int_t)b->lba,
	    "xfersize", (json_int_t)b->xfer, "key_block_bytes",
	    (json_int_t)b->kb_bytes, "key_blocks", (json_int_t)(b->xfer /
	    b->kb_bytes), "bad_key_blocks",
	    (json_int_t)dv_bad_keyblocks(pat, b), "found_ms",
	    (json_int_t)b->found_ms, "found_during", dv_why_words[b->why],
	    "bad_sectors", (json_int_t)total, "sectors", a);
	if (b->stamps != NULL && total > 0) {
		/* -vt: the first corrupted key block's last use before */
		uint64_t v = b->stamps[(sec[0].kb_lba - b->lba) / b->kb_bytes];

		if ((v & DV_TS_MS_MASK) != 0)
			json_object_set_new(o, "last_used", json_pack("{s:I,"
			    "s:s}", "ms", (json_int_t)(v & DV_TS_MS_MASK),
			    "op", dv_stamp_op(v)));
	}
	text = json_dumps(o, JSON_COMPACT);
	json_decref(o);
	return (text != NULL ? text : xstrdup("{}"));
}

void
dv_map_lines(const char *name, uint64_t nblocks, uint64_t kb_bytes,
    char *alloc, size_t alen, char *made, size_t mlen)
{
	char a[32], b[32], c[32];

	snprintf(alloc, alen, "Allocating Data Validation map: %s one-byte "
	    "entries for each %s-byte block.", dv_commas(a, sizeof(a),
	    nblocks), dv_commas(b, sizeof(b), kb_bytes));
	snprintf(made, mlen, "Created new DV map: %s size: %s bytes; key "
	    "block size: %llu; entries: %s", name, dv_commas(c, sizeof(c),
	    nblocks * kb_bytes), (unsigned long long)kb_bytes, dv_commas(a,
	    sizeof(a), nblocks));
}
