/* SPDX-License-Identifier: MIT */
#ifndef SLAVE_DV_H
#define SLAVE_DV_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

struct strlist;

/*
 * Data validation as vdbench 5.04.06 writes and checks it, byte for byte
 * (reference/vdbench-5.04.06/validation/README.md sections 1-3): the data
 * pattern buffer, the 512-byte sector (32-byte header + 480 pattern
 * bytes), the checks of a sector read back with vdbench's error flags,
 * the one-byte key map per key block, and the text of the corruption
 * report. Leaf code: no I/O, no logging; the report is returned as lines.
 */

#define DV_SECTOR	512u
#define DV_COMP_SPAN	(1u << 20)	/* key block lba modulo this */

/* Map values (DV_map.java): 0 never written, 1..126 keys, 127 error. */
#define DV_KEY_MAX	126
#define DV_KEY_ERROR	127
#define DV_KEY_BUSY	0x80	/* an I/O of this key block is in flight */

/* Sector check flags, in vdbench's report order (BadSector.java). */
#define DV_BAD_KEY	0x01u
#define DV_BAD_CHECKSUM	0x02u
#define DV_BAD_LBA	0x04u
#define DV_BAD_NAME	0x08u
#define DV_BAD_COMP	0x10u
#define DV_BAD_ZERO	0x20u
#define DV_BAD_DEDUPSET	0x40u	/* a duplicate's set word */

/*
 * The pattern every block's bytes come from is pattern.h's (wdata_init:
 * vdbench's Patterns.createPattern, zeroes per compratio=); a slave's
 * validation session makes it once (dv_session_pattern).
 */

/* What a write stamps into each sector besides lba and key. */
struct dv_stamp {
	uint64_t	ts_ms;		/* ms since 1970, taken before the write */
	uint32_t	pid;
	char		name[8];	/* sd/fsd name, blank padded */
};

/* name into 8 bytes, blank padded (longer names are cut). */
void		 dv_name8(char out[8], const char *name);
/* vdbench's checksum of a timestamp: the sum of its 8 bytes (sign off). */
uint8_t		 dv_checksum(uint64_t ts_ms);
/* The next key after k: 1, 2, ... 126, 1. */
int		 dv_next_key(int k);

/*
 * Fill the kb_bytes (a multiple of 512) of the key block at byte address
 * kb_lba with key's data: per sector the header, then the pattern bytes at
 * (kb_lba % 1 MiB) + 512 * sector + 32.
 */
void		 dv_fill(const unsigned char *pat, unsigned char *buf,
		    uint64_t kb_lba, uint32_t kb_bytes, int key,
		    const struct dv_stamp *);

/*
 * Check sector s of the key block at kb_lba against key and name: 0 when
 * good, else DV_BAD_* flags (BAD_ZERO with vdbench's "bytes & 1").
 */
unsigned	 dv_check_sector(const unsigned char *pat,
		    const unsigned char *sec, uint64_t kb_lba, unsigned s,
		    int key, const char name[8]);

/*
 * Dedup under validation as vdbench 5.04.06 does it for one sd
 * (Dedup.java, DedupBitMap.java, SdDedup.java; vdb_dv.c): the key block
 * is the dedupunit; a java.util.Random seeded with "sd=<name>".hashCode()
 * picks the unique units (runs of up to 32); the others are duplicates
 * of set ((unit + rel_units) % sets_used). Keys flip between 1 and
 * maxkey (flipflop).
 * A unique unit is the usual sector (pattern at lba % 1 MiB) with the
 * dedup type in byte 0x11 (dedupacross=no: only the lba, the pattern
 * from byte 8); a duplicate is the pattern at ((set * 347) << 2) % 1 MiB
 * with bytes 0-7 of each sector the dedup set word: key << 56 |
 * type << 32 | set, so the same set and key is the same data anywhere.
 */
struct dv_dedup {
	uint64_t	 unit_bytes;
	uint64_t	 units;		/* lun bytes / unit */
	uint64_t	 rel_units;	/* the sd's first unit in its group */
	uint64_t	 sets_used;	/* dedup_sets_used */
	uint64_t	 unique_units;	/* bits set */
	double		 adjusted_pct;	/* dedup_adjusted */
	uint8_t		*unique;	/* one bit per unit */
	int		 all_unique;	/* dedupratio=1 */
	int		 not_across;	/* dedupacross=no */
	uint32_t	 type;		/* dedup_type: 1 */
	int		 maxkey;	/* keys 1..maxkey (2) */
};

/*
 * ratio >= 1; sets > 0 a count, < 0 a percentage (dedupsets=); -1 with
 * vdbench's words in err when there are more sets than duplicates.
 */
int		 dv_dedup_init(struct dv_dedup *, const char *sd_name,
		    uint64_t lun_bytes, uint64_t unit_bytes, double ratio,
		    double sets, int not_across, char *err, size_t errlen);
/*
 * The same for an sd in a group of sds that share the dedup parameters
 * (vdbench's SdDedup.adjustSdDedupValues()): the sets and the share of
 * unique units are counted over group_bytes (the group's sizes added),
 * and a duplicate's set is (unit + rel_bytes / unit) % sets, rel_bytes
 * the sizes of the sds before this one.
 */
int		 dv_dedup_init_group(struct dv_dedup *, const char *sd_name,
		    uint64_t lun_bytes, uint64_t group_bytes,
		    uint64_t rel_bytes, uint64_t unit_bytes, double ratio,
		    double sets, int not_across, char *err, size_t errlen);
void		 dv_dedup_free(struct dv_dedup *);
/* The next key of a dedup key block: 1, 2, ..., maxkey, 1. */
int		 dv_dedup_next_key(const struct dv_dedup *, int k);

/* What the key block at one lba holds with a key. */
enum dv_kb_kind {
	DV_KB_PLAIN,		/* no dedup */
	DV_KB_UNIQUE,		/* unique, dedupacross=yes */
	DV_KB_UNIQUE_LBA,	/* unique, dedupacross=no: lba only */
	DV_KB_DUP,		/* duplicate */
};
struct dv_kb {
	enum dv_kb_kind	 kind;
	uint32_t	 comp;		/* pattern offset */
	uint32_t	 type;		/* unique: byte 0x11 */
	uint64_t	 set;		/* vdbench's dedup_set */
};

/* The key block at kb_lba with key; dd NULL: no dedup. */
void		 dv_kb_of(const struct dv_dedup *dd, uint64_t kb_lba,
		    int key, struct dv_kb *);
/* dv_fill and dv_check_sector for a key block as dv_kb_of says. */
void		 dv_fill_kb(const unsigned char *pat, unsigned char *buf,
		    uint64_t kb_lba, uint32_t kb_bytes, int key,
		    const struct dv_kb *, const struct dv_stamp *);
unsigned	 dv_check_sector_kb(const unsigned char *pat,
		    const unsigned char *sec, uint64_t kb_lba, unsigned s,
		    int key, const char name[8], const struct dv_kb *);

/*
 * The key map: one byte per key block of an sd, shared by the sd's I/O
 * threads. A thread claims the key blocks of an I/O (busy bit) before it
 * starts and releases them after, so a key block has at most one I/O.
 */
struct dv_map {
	uint64_t		 nblocks;
	uint32_t		 kb_bytes;
	_Atomic uint8_t		*keys;
	_Atomic uint64_t	 validated;	/* key blocks read and checked */
	_Atomic uint64_t	 errors;	/* key blocks marked in error */
	_Atomic uint64_t	 reads[DV_KEY_MAX + 1];	/* per key */
	_Atomic uint64_t	 writes[DV_KEY_MAX + 1];
	/* validate=time (-vt): per key block the last good I/O, NULL
	 * without it (dv_map_time_init) */
	_Atomic uint64_t	*stamps;
};

/* -1 if the map cannot be allocated. */
int		 dv_map_init(struct dv_map *, uint64_t nblocks,
		    uint32_t kb_bytes);
void		 dv_map_free(struct dv_map *);
/* Set busy on [first, first + n): 0, or -1 (nothing held) if one is. */
int		 dv_map_claim(struct dv_map *, uint64_t first, uint64_t n);
/* A claimed block's key (0..127). */
int		 dv_map_key(const struct dv_map *, uint64_t block);
/* Store key (or keep the old one when key < 0) and clear busy. */
void		 dv_map_release(struct dv_map *, uint64_t block, int key);

/*
 * validate=time (-vt), vdbench's Timestamp.java: per key block the wall
 * time in ms of its last I/O that went well, with the kind of I/O in the
 * top byte (8 bytes a key block, only when time is on). 0: not used yet.
 */
#define DV_TS_READ		0x10	/* "read" */
#define DV_TS_PREREAD		0x20	/* "pre_read" */
#define DV_TS_AFTER_WRITE	0x30	/* "read_after_write" */
#define DV_TS_WRITE		0x40	/* "written" */
#define DV_TS_MS_MASK		0x00ffffffffffffffull

/* Allocate the stamps of a map (once): -1 if they cannot be. */
int		 dv_map_time_init(struct dv_map *);
/* Stamp [first, first + n) with op (DV_TS_*) at ms; no-op without. */
void		 dv_map_stamp(struct dv_map *, uint64_t first, uint64_t n,
		    unsigned op, uint64_t ms);
/* vdbench's word for a stamp's op ("written", ...). */
const char	*dv_stamp_op(uint64_t stamp);

/* Why a block was read (vdbench's "during a ..." texts). */
enum dv_why {
	DV_WHY_READ,		/* workload requested read */
	DV_WHY_PREREAD,		/* read-before-write */
	DV_WHY_AFTER_WRITE,	/* read-after-write */
};

/*
 * Where an FSD's data block is (file-system runs): the report then takes
 * vdbench's FSD form (BadDataBlock.java:213, BadSector.java:255-260).
 * The block's lba is the FSD lba: the file's start in the FSD (its files
 * back to back) plus the offset in the file.
 */
struct dv_fsd_where {
	const char	*file;		/* the file's path */
	uint64_t	 file_start;	/* FSD lba of the file's byte 0 */
};

/* A corrupted data block as the report needs it. */
struct dv_bad_block {
	const char		*sd;
	const char		*lun;
	uint64_t		 lba;		/* of the data block */
	uint32_t		 xfer;
	uint32_t		 kb_bytes;
	const unsigned char	*data;		/* xfer bytes as read */
	const int		*keys;		/* expected key per key block */
	const char		*name8;		/* expected name, 8 bytes */
	uint32_t		 pid;		/* this slave's */
	uint64_t		 found_ms;	/* when the read completed */
	enum dv_why		 why;
	/* -vt: per key block its stamp (dv_map_stamp) before this
	 * read; NULL without validate=time */
	const uint64_t		*stamps;
	const struct dv_fsd_where *fsd;	/* NULL: an sd (sd, lun above);
					 * else sd is the fsd's name */
	const struct dv_dedup	*dd;		/* NULL without dedup */
};

/* One corrupted sector, for results (slave/work.c sends them). */
struct dv_bad_sector {
	uint64_t	kb_lba;		/* its key block's byte address */
	unsigned	sector;		/* its index in the key block */
	unsigned	flags;		/* DV_BAD_* */
};

/*
 * The corrupted sectors of a data block, in order: the first max into
 * out, the number of them all returned.
 */
unsigned	 dv_bad_sectors(const unsigned char *pat,
		    const struct dv_bad_block *, struct dv_bad_sector *out,
		    unsigned max);
/* A DV_BAD_* bit's short name: "key", "checksum", "lba", "name",
 * "compression", "reserved". */
const char	*dv_flag_name(unsigned bit);

/* Does the block hold any bad sector? The number of bad key blocks. */
unsigned	 dv_bad_keyblocks(const unsigned char *pat,
		    const struct dv_bad_block *);
/* A corrupted data block as results.json records it (docs/results-
 * schema.md "validation"): JSON text, the caller frees it. */
char		*dv_block_json(const unsigned char *pat,
		    const struct dv_bad_block *b);
/* vdbench's two lines for a new key map of nblocks key blocks
 * (DV_map.java:149,361: "Allocating Data Validation map: ..." and
 * "Created new DV map: ..."), the sd's or fsd's name in the second. */
void		 dv_map_lines(const char *name, uint64_t nblocks,
		    uint64_t kb_bytes, char *alloc, size_t alen, char *made,
		    size_t mlen);
/* vdbench's banner, printed before a slave's first report. */
void		 dv_report_banner(struct strlist *, uint64_t first_ms);
/* The report of one corrupted data block (README section 3). */
void		 dv_report_block(struct strlist *, const unsigned char *pat,
		    const struct dv_bad_block *);
/* v with Java's %,d grouping: "1,234,567". */
const char	*dv_commas(char *, size_t, uint64_t v);
/* "EEE MMM dd yyyy HH:mm:ss.SSS zzz" in the local time zone. */
void		 dv_format_time(char *, size_t, int64_t ms);

#endif /* SLAVE_DV_H */
