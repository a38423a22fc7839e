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

struct iostats {
	struct iostats_side	side[IOSTATS_NDIR];
	uint64_t		qdepth_ns;	/* integral of outstanding I/Os */
	uint64_t		busy_ns;	/* time with >= 1 outstanding */
};

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

json_t	*iostats_to_json(const struct iostats *);
int	 iostats_from_json(struct iostats *, const json_t *, struct errmsg *);

#endif /* COMMON_IOSTATS_H */
