/* SPDX-License-Identifier: MIT */
#ifndef COMMON_JRANDOM_H
#define COMMON_JRANDOM_H

#include <stdint.h>

/*
 * java.util.Random, exactly: the 48-bit LCG and its next(bits),
 * nextInt(bound), nextDouble and nextLong, for the places where vdbc must draw what
 * vdbench draws (its data pattern, its dedup bitmap, its setsofN
 * shuffle). A generator is its
 * 48-bit state, made by jr_seed from Java's long seed.
 */
#define JR_MULT		0x5DEECE66Dull
#define JR_MASK		((1ull << 48) - 1)

static inline uint64_t
jr_seed(int64_t seed)
{
	return (((uint64_t)seed ^ JR_MULT) & JR_MASK);
}

static inline uint32_t
jr_next(uint64_t *seed, int bits)
{
	*seed = (*seed * JR_MULT + 0xBull) & JR_MASK;
	return ((uint32_t)(*seed >> (48 - bits)));
}

/* nextInt(bound), bound > 0. */
static inline int
jr_next_int(uint64_t *seed, int bound)
{
	int32_t bits, val;

	if ((bound & -bound) == bound)
		return ((int)(((int64_t)bound * (int64_t)jr_next(seed, 31)) >>
		    31));
	do {
		bits = (int32_t)jr_next(seed, 31);
		val = bits % bound;
	} while ((int64_t)bits - val + (bound - 1) > INT32_MAX);
	return ((int)val);
}

static inline double
jr_next_double(uint64_t *seed)
{
	uint64_t hi = jr_next(seed, 26), lo = jr_next(seed, 27);

	return ((double)((hi << 27) + lo) * (1.0 / (double)(1ull << 53)));
}

static inline int64_t
jr_next_long(uint64_t *seed)
{
	int32_t hi = (int32_t)jr_next(seed, 32), lo = (int32_t)jr_next(seed,
	    32);

	return ((int64_t)((uint64_t)(int64_t)hi << 32) + (int64_t)lo);
}

#endif /* COMMON_JRANDOM_H */
