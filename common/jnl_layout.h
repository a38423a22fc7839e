/* SPDX-License-Identifier: MIT */
#ifndef COMMON_JNL_LAYOUT_H
#define COMMON_JNL_LAYOUT_H

#include <stdint.h>

/*
 * The on-disk layout of vdbench 5.04.06's data validation journal and
 * map files (reference/vdbench-5.04.06/validation/README.md section 5;
 * Jnl_entry.java): <dir>/<sd>.jnl = a map header sector, the map records,
 * then the journal records; <dir>/<sd>.map = the header and map records
 * only (a backup used when the .jnl header is incomplete). Every sector
 * is 512 bytes of little-endian int32. Leaf code, no I/O: it encodes and
 * decodes sectors, so the slave's journal and its recovery
 * (slave/journal.c) and `vdbc printjournal` (master/tools/printjournal.c)
 * read the format through these functions only: the printjournal fuzz
 * target guards the decoders recovery uses.
 */

#define JNL_SECTOR		512u
#define JNL_MAP_EYE		0x4d41502eu	/* ".PAM" on disk */
#define JNL_REC_EYE		0x4a4e4c2eu	/* ".LNJ" on disk */
#define JNL_MAP_PER_REC		480u	/* map bytes per map record */
#define JNL_ENTRIES_PER_REC	62	/* 8-byte entries per record */

/* The map header, sector 0 of both files. */
struct jnl_header {
	uint64_t	key_blocks;
	uint32_t	kb_bytes;	/* key block size */
	uint64_t	tod_ms;		/* when the map was dumped */
	int		complete;	/* int[1] holds the eye catcher */
	int		timestamps;	/* int[7]: entries carry times */
};

/* One journal entry: key != 0 BEFORE a write (the new key), 0 AFTER. */
struct jnl_entry {
	int		key;
	uint64_t	block;		/* lba / key block size */
	int64_t		tod_ms;		/* with timestamps (vdbench -d111) */
};

/* What a sector is, by its first word. */
enum jnl_kind {
	JNL_KIND_MAP,		/* ".PAM": the header or a map record */
	JNL_KIND_RECORD,	/* ".LNJ": a journal record */
	JNL_KIND_OTHER,
};
enum jnl_kind	jnl_kind_of(const unsigned char sec[JNL_SECTOR]);
/* Entries a journal record holds: 62, or 31 with timestamps. */
int		jnl_entries_per_rec(int timestamps);

/* Map records after the header: (key_blocks + 511) / 480, vdbench's. */
uint64_t	jnl_map_records(uint64_t key_blocks);
/* Byte offset of the first journal record in the .jnl. */
uint64_t	jnl_first_record_off(uint64_t key_blocks);

/* 32-bit little-endian word i of a sector. */
uint32_t	jnl_get32(const unsigned char *sec, unsigned i);
void		jnl_put32(unsigned char *sec, unsigned i, uint32_t v);

/* The header sector; complete = 0 writes -1 in int[1] (dump running). */
void		jnl_header_encode(unsigned char sec[JNL_SECTOR],
		    const struct jnl_header *);
/* 0, or -1 when the sector is not a map header. */
int		jnl_header_decode(const unsigned char sec[JNL_SECTOR],
		    struct jnl_header *);

/* Map record rec (0-based) from/into map (key_blocks bytes). */
void		jnl_map_record_encode(unsigned char sec[JNL_SECTOR],
		    const uint8_t *map, uint64_t key_blocks, uint64_t rec);
/* 0, or -1 when the sector is not a map record. */
int		jnl_map_record_decode(const unsigned char sec[JNL_SECTOR],
		    uint8_t *map, uint64_t key_blocks, uint64_t rec);
/* The 480 keys of a map record as stored (past the map's end too): 0,
 * or -1 when the sector does not start with ".PAM". */
int		jnl_map_record_keys(const unsigned char sec[JNL_SECTOR],
		    uint8_t keys[JNL_MAP_PER_REC]);

/* An empty (EOF) journal record at byte offset off of the file. */
void		jnl_record_init(unsigned char sec[JNL_SECTOR], uint64_t off,
		    uint64_t tod_ms);
/* Entry i (0..61) of a record; the count becomes i + 1. */
void		jnl_record_put(unsigned char sec[JNL_SECTOR], int i,
		    const struct jnl_entry *);
/*
 * A journal record: its entry count (0 = EOF) with the entries in out,
 * or -1 when the sector is not the record of off (no eye catcher, a
 * wrong offset or count).
 */
int		jnl_record_decode(const unsigned char sec[JNL_SECTOR],
		    uint64_t off, struct jnl_entry out[JNL_ENTRIES_PER_REC]);
/*
 * The entries of a journal record, whatever its offset field says, of
 * 2 ints each or 4 with timestamps: the count (0 = EOF), or -1 when the
 * sector is not a journal record, -2 when its count is negative or over
 * jnl_entries_per_rec(). Recovery (jnl_record_decode) and printjournal
 * both read records through it.
 */
int		jnl_record_entries(const unsigned char sec[JNL_SECTOR],
		    int timestamps, struct jnl_entry out[JNL_ENTRIES_PER_REC]);

#endif /* COMMON_JNL_LAYOUT_H */
