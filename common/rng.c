/* SPDX-License-Identifier: MIT */
/*
 * xoshiro256** by Blackman and Vigna (public domain algorithm), written
 * here from its published description. Fast enough for the I/O hot path:
 * a few shifts and multiplies per number.
 */
#include "rng.h"

#include <math.h>

/* One step of splitmix64, used only to spread a seed over the state. */
static uint64_t
splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return (z ^ (z >> 31));
}

/* Rotate left. */
static inline uint64_t
rotl(uint64_t x, int k)
{
	return ((x << k) | (x >> (64 - k)));
}

/* Seed a stream; different stream numbers give unrelated sequences. */
void
rng_init(struct rng *r, uint64_t seed, uint64_t stream)
{
	uint64_t x = seed ^ (stream * 0xd1342543de82ef95ull);
	int i;

	x = splitmix64(&x) ^ stream;
	for (i = 0; i < 4; i++)
		r->s[i] = splitmix64(&x);
}

/* The next 64 random bits. */
uint64_t
rng_u64(struct rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return (result);
}

/* Uniform in [0, 1) with 53 random bits. */
double
rng_double(struct rng *r)
{
	return ((double)(rng_u64(r) >> 11) * 0x1.0p-53);
}

/* Uniform integer in [0, n) without modulo bias (Lemire's method). */
uint64_t
rng_below(struct rng *r, uint64_t n)
{
	unsigned __int128 m = (unsigned __int128)rng_u64(r) * n;
	uint64_t low = (uint64_t)m;

	if (low < n) {
		uint64_t threshold = -n % n;

		while (low < threshold) {
			m = (unsigned __int128)rng_u64(r) * n;
			low = (uint64_t)m;
		}
	}
	return ((uint64_t)(m >> 64));
}

/* Exponentially distributed with the given mean. */
double
rng_exp(struct rng *r, double mean)
{
	return (-mean * log1p(-rng_double(r)));
}
