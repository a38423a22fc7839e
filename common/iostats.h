/* SPDX-License-Identifier: MIT */
#ifndef COMMON_IOSTATS_H
#define COMMON_IOSTATS_H

#include <stdint.h>

#include <jansson.h>

#include "errmsg.h"

/*
 * Counters of one (slave, sd, wd) key, reads and writes apart (DESIGN.md,
 * stats contract). All fields are cumulative since GO except max, which is
 * the largest response since the previous snapshot: a cumulative maximum
 * has no interval delta. The master takes deltas and merges.
 */
enum iostats_dir {
	IOSTATS_READ,
	IOSTATS_WRITE,
	IOSTATS_NDIR,
};

struct iostats_side {
	uint64_t	ios;		/* completed I/Os */
	uint64_t	bytes;
	uint64_t	resp_sum_ns;
	uint64_t	resp_sumsq_us2;	/* sum of (resp in us)^2 */
	uint64_t	resp_max_ns;
	uint64_t	errors;
};

/* File-system operations besides read and write (FORMATS.md 5.1). */
enum fsop {
	FSOP_MKDIR, FSOP_RMDIR, FSOP_CREATE, FSOP_OPEN, FSOP_CLOSE,
	FSOP_DELETE, FSOP_GETATTR, FSOP_SETATTR, FSOP_ACCESS, FSOP_COPY,
	FSOP_MOVE, FSOP_N,
};

/* vdbench's "Miscellaneous statistics" counters (Blocked.java). */
enum fsmisc {
	FSM_FILE_CREATES, FSM_DIRECTORY_CREATES, FSM_FILE_DELETES,
	FSM_DIRECTORY_DELETES, FSM_READ_OPENS, FSM_WRITE_OPENS,
	FSM_DIR_EXISTS, FSM_FILE_BUSY, FSM_FILE_NOT_FOUND, FSM_FILE_CLOSES,
	FSM_N,
};

struct fsop_side {
	uint64_t	n;
	uint64_t	resp_sum_ns;
	uint64_t	resp_max_ns;
};

struct iostats {
	struct iostats_side	side[IOSTATS_NDIR];
	uint64_t		qdepth_ns;	/* integral of outstanding I/Os */
	uint64_t		busy_ns;	/* time with >= 1 outstanding */
	/* File-system runs only (all zero, and absent on the wire, else). */
	struct fsop_side	op[FSOP_N];
	uint64_t		misc[FSM_N];
	uint64_t		req_n;		/* the operations fwds asked for */
	uint64_t		req_resp_ns;
};

/* Names: "mkdir", ...; "FILE_CREATES", ... and their descriptions. */
const char	*fsop_name(enum fsop);
const char	*fsmisc_name(enum fsmisc);
const char	*fsmisc_text(enum fsmisc);
/* Count one file-system operation. */
void	iostats_op(struct iostats *, enum fsop, uint64_t resp_ns);

/* Count one completed I/O. */
void	iostats_add(struct iostats *, enum iostats_dir, uint64_t bytes,
	    uint64_t resp_ns);
/* dst += src; maxima are maxima. */
void	iostats_merge(struct iostats *dst, const struct iostats *src);
/* dst = now - prev; the max is now's (see above). */
void	iostats_delta(struct iostats *dst, const struct iostats *now,
	    const struct iostats *prev);
/* Sample standard deviation in ms from n, sum and sum of squares. */
double	iostats_stddev_ms(uint64_t n, uint64_t sum_ns, uint64_t sumsq_us2);

#endif /* COMMON_IOSTATS_H */
