/* SPDX-License-Identifier: MIT */
#ifndef COMMON_RNG_H
#define COMMON_RNG_H

#include <stdint.h>

/*
 * Seeded random numbers (xoshiro256**, seeded through splitmix64). Every
 * random choice in vdbc comes from one of these, so a run with --seed N can
 * be repeated. Not thread-safe: each I/O thread owns its own stream, made
 * from the run seed and a stream number (for example the thread index).
 * Embeddable: callers keep it in their own structs, no allocation.
 */
struct rng {
	uint64_t	s[4];
};

void		rng_init(struct rng *, uint64_t seed, uint64_t stream);
uint64_t	rng_u64(struct rng *);
double		rng_double(struct rng *);		/* [0, 1) */
uint64_t	rng_below(struct rng *, uint64_t n);	/* [0, n), n > 0 */
double		rng_exp(struct rng *, double mean);	/* exponential */

#endif /* COMMON_RNG_H */
