/* SPDX-License-Identifier: MIT */
#ifndef SLAVE_PATTERN_H
#define SLAVE_PATTERN_H

#include <stdint.h>

#include "dv.h"
#include "errmsg.h"

/*
 * The data of a write without validation, as vdbench 5.04.06 builds it
 * (Patterns.java createCompressionPattern; vdb_dv.c
 * fill_compression_pattern and prevent_dedup):
 *
 * - one pattern per run: int32s (int)(nextDouble() * Integer.MAX_VALUE)
 *   from java.util.Random(compressionseed=, default 0), then a second
 *   pass of the same generator zeroes each int with the probability
 *   vdbench's table gives for compratio= (limit / 10000, the first row
 *   whose ratio is >= compratio). span is 1 MiB, or the largest
 *   transfer rounded up to MiB; the pattern is 2 * span bytes long
 *   (+ 2 * dedupunit), so a block copies in one piece.
 * - a write of len bytes at byte address lba copies the pattern from
 *   lba % span, then the first 8 bytes of each 4 KiB piece of it get
 *   (uint32)((lba + piece) / 4096 ^ fhandle << 16) and the low 32 bits
 *   of the time in microseconds: every 4 KiB block written differs from
 *   every other one (the lba, the sd's file handle, the time), and the
 *   rest compresses as vdbench's does.
 * - with dedup (dedupratio=, an sd's wdata_sd.dd), each dedupunit of the
 *   write is the block vdbench's Dedup.dedupSdBlock() and vdb_dv.c
 *   fill_key_block() make without validation (dv.h dv_kb_of and
 *   dv_fill_kb, key 0, time 0): a unique unit (vdbench's DedupBitMap,
 *   seeded by the sd's name) is the pattern at lba % 1 MiB with a 32-byte
 *   header of its lba, the dedup type, the sd's name and the pid in each
 *   512-byte sector (dedupacross=no: the lba alone, so the same unique
 *   lba of two sds is the same block); a duplicate is the pattern at its
 *   set's offset with the set's word in each sector. No time stamp: the
 *   same unit is rewritten with the same bytes, as vdbench does.
 *
 * fsds (fs_common.c format fills, fs_ops.c fwd writes) build theirs
 * here too, sd NULL: lba is the offset in the file, fhandle the file's
 * descriptor (vdbench stamps its fd the same way).
 *
 * This is the one writer of non-validated sd and fsd write data;
 * validation writes its blocks itself (dv.h, fs_dv.c).
 */
struct wdata {
	unsigned char	*pat;		/* pat_bytes, shared by the run */
	uint64_t	 pat_bytes;
	uint64_t	 span;		/* a block's pattern starts at
					 * lba % span */
};

/* vdbench's share of zero ints for compratio (of 10000; 0 at 1). */
double	wdata_zero_limit(double compratio);
/* The run's pattern; max_xfer_bytes the largest write, unit_bytes the
 * dedupunit (0 without dedup). */
void	wdata_init(struct wdata *, double compratio, int64_t seed,
	    uint64_t max_xfer_bytes, uint64_t unit_bytes);
void	wdata_free(struct wdata *);
/* One sd's dedup: its unique units and the name in their headers. */
struct wdata_sd {
	struct dv_dedup	 dd;		/* dd.unit_bytes 0: no dedup */
	char		 name8[8];	/* the sd's name, blank padded */
	uint32_t	 pid;
};

/*
 * An sd's dedup (ratio, sets as dv_dedup_init takes them), for a lun of
 * lun_bytes in a group of group_bytes (the sds that share the dedup
 * parameters) that starts rel_bytes into it (dv_dedup_init_group): -1
 * with vdbench's words in err (more sets than duplicates).
 */
int	wdata_sd_init(struct wdata_sd *, const char *sd_name,
	    uint64_t lun_bytes, uint64_t group_bytes, uint64_t rel_bytes,
	    uint64_t unit_bytes, double ratio, double sets, int not_across,
	    char *err, size_t errlen);
void	wdata_sd_free(struct wdata_sd *);
/*
 * The data of a write of len bytes (len <= span) at lba into buf; sd NULL
 * or without dedup: the pattern and the stamps. With dedup, lba and len
 * are multiples of 512.
 */
void	wdata_block(const struct wdata *, const struct wdata_sd *sd,
	    unsigned char *buf, uint64_t lba, uint64_t len, uint32_t fhandle,
	    uint32_t tod_us);

/*
 * pattern=file: fill len bytes from the file as vdbench does: its first
 * len bytes, cut to a multiple of 4 (*used; *got what was read), repeated,
 * each 4 bytes taken as a big-endian word and stored in the host's order
 * (vdbench's int pattern array copied to the I/O buffer: on x86 the bytes
 * of each word come out reversed). -1 with e: missing, empty, < 4 bytes.
 */
int	pattern_load(const char *path, unsigned char *buf, uint64_t len,
	    uint64_t *got, uint64_t *used, struct errmsg *e);
#endif /* SLAVE_PATTERN_H */
