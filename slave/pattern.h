/* SPDX-License-Identifier: MIT */
#ifndef SLAVE_PATTERN_H
#define SLAVE_PATTERN_H

#include <stdint.h>

#include "errmsg.h"
#include "rng.h"

/*
 * Write data (PARMFILE.md 4: compratio, dedupratio, dedupunit, dedupsets).
 * Buffers are filled once before the run. With dedup on, every write
 * buffer holds the same dedupunit-sized pattern repeated, and a write only
 * stamps 16 bytes at the start of each 512-byte sector of each whole unit
 * it covers (no sector repeats between distinct units): a unit either
 * gets data of its own (its block number and a fresh random value) or the
 * data of one of the duplicate sets. Which, is a fixed function of the
 * unit's block number, so the target holds about 1/dedupratio distinct
 * units however often it is rewritten.
 *
 * dedupacross=no (not_across): a unique unit's data is a fixed function
 * of its block number alone, the same on every sd, so the units with own
 * data are unique within an sd but the same lba of two sds holds the same
 * data (vdbench's UNIQUE_BLOCK_ACROSS_NO); dedupacross=yes (the default):
 * every write of a unique unit gets data of its own, unique everywhere.
 */
struct dedup {
	uint64_t	unit_bytes;	/* 0 = dedup off */
	double		unique;		/* fraction of units with own data */
	uint64_t	sets;		/* duplicate sets, >= 1 */
	double		phase;		/* where the unit sequence starts */
	uint64_t	salt;
	int		not_across;	/* dedupacross=no */
};

/*
 * Fill len bytes: in every 512-byte sector the first 512/compratio bytes
 * are random and the rest zeros (compresses by about compratio). With
 * period_bytes > 0 the first period_bytes are repeated over the buffer.
 */
void	pattern_fill(unsigned char *, uint64_t len, double compratio,
	    uint64_t period_bytes, struct rng *);
/*
 * Dedup for a lun of lun_units units: ratio >= 1; sets > 0 a count,
 * sets < 0 a percentage of all the lun's units (vdbench's dedupsets=5%:
 * blocks * 5 / 100, cut to a whole number, at least 1). -1 when there
 * are more sets than distinct units (lun_units / ratio), which vdbench
 * refuses ("requesting more dedupsets ... than we have non-unique data
 * blocks"); d is filled all the same.
 */
int	dedup_init(struct dedup *, double ratio, uint64_t unit_bytes,
	    double sets, uint64_t lun_units, uint64_t seed);
/*
 * pattern=file: fill len bytes from the file as vdbench does: its first
 * len bytes, cut to a multiple of 4 (*used; *got what was read), repeated,
 * each 4 bytes taken as a big-endian word and stored in the host's order
 * (vdbench's int pattern array copied to the I/O buffer: on x86 the bytes
 * of each word come out reversed). -1 with e: missing, empty, < 4 bytes.
 */
int	pattern_load(const char *path, unsigned char *buf, uint64_t len,
	    uint64_t *got, uint64_t *used, struct errmsg *e);
/* Stamp the whole units of a write of len bytes at off in buf. */
void	dedup_stamp(const struct dedup *, unsigned char *buf, uint64_t off,
	    uint64_t len, struct rng *);

#endif /* SLAVE_PATTERN_H */
