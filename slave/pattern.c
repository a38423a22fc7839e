/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pattern.h"

void
pattern_fill(unsigned char *b, uint64_t len, double compratio,
    uint64_t period_bytes, struct rng *r)
{
	size_t rnd = (size_t)ceil(512.0 / (compratio >= 1 ? compratio : 1));
	uint64_t i, k, fill = len;

	if (rnd > 512)
		rnd = 512;
	if (period_bytes > 0 && period_bytes < len)
		fill = period_bytes;
	for (i = 0; i + 512 <= fill; i += 512) {
		for (k = 0; k < 512; k += 8) {
			uint64_t v = k < rnd ? rng_u64(r) : 0;

			memcpy(b + i + k, &v, 8);
		}
	}
	for (i = fill; i + fill <= len && fill > 0; i += fill)
		memcpy(b + i, b, fill);
}

int
dedup_init(struct dedup *d, double ratio, uint64_t unit_bytes, double sets,
    uint64_t lun_units, uint64_t seed)
{
	double distinct, want;

	memset(d, 0, sizeof(*d));
	if (unit_bytes == 0 || ratio < 1)
		return (0);
	if (lun_units == 0)
		lun_units = 1;
	distinct = (double)lun_units / ratio;
	want = sets < 0 ? (double)lun_units * -sets / 100.0 : sets;
	d->sets = want >= 1 ? (uint64_t)want : 1;
	if (ratio <= 1) {
		d->unique = 1;
	} else {
		d->unique = (distinct - (double)d->sets) / (double)lun_units;
		if (d->unique < 0)
			d->unique = 0;
	}
	d->unit_bytes = unit_bytes;
	d->salt = seed * 0x9e3779b97f4a7c15ull + 0x632be59bd9b4e019ull;
	d->phase = (double)(d->salt >> 11) / 9007199254740992.0;
	return (want > distinct ? -1 : 0);
}

/* splitmix64's finaliser. */
static uint64_t
mix64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebull;
	return (x ^ (x >> 31));
}

void
dedup_stamp(const struct dedup *d, unsigned char *buf, uint64_t off,
    uint64_t len, struct rng *r)
{
	uint64_t u = d->unit_bytes, p;

	if (u == 0)
		return;
	p = (off + u - 1) / u * u;
	for (; p + u <= off + len; p += u) {
		uint64_t b = p / u, tag[2], k;
		double x;

		/* A Weyl sequence: the unique units are spread evenly. */
		x = d->phase + (double)b * 0.6180339887498949;
		x -= floor(x);
		if (x < d->unique) {
			tag[0] = b ^ d->salt;
			/* odd: own data; fixed per block without across */
			tag[1] = (d->not_across ? mix64(tag[0]) : rng_u64(r)) |
			    1;
		} else {
			tag[0] = mix64(b ^ d->salt) % d->sets;
			tag[1] = 0;			/* a set's data */
		}
		/* Every sector: no 512-byte run repeats between units. */
		for (k = 0; k + 512 <= u; k += 512)
			memcpy(buf + (p - off) + k, tag, sizeof(tag));
	}
}

/* pattern=file (pattern.h). */
int
pattern_load(const char *path, unsigned char *buf, uint64_t len,
    uint64_t *got, uint64_t *used, struct errmsg *e)
{
	char abs[PATH_MAX];
	unsigned char *raw;
	uint64_t n = 0, i;
	ssize_t r;
	int fd;

	if (realpath(path, abs) == NULL)
		snprintf(abs, sizeof(abs), "%s", path);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		errmsg_set(e, NULL, 0, 0, "readPattern() pattern file does not "
		    "exist: %s%s%s", abs, errno == ENOENT ? "" : ": ",
		    errno == ENOENT ? "" : strerror(errno));
		return (-1);
	}
	raw = malloc(len > 0 ? len : 1);
	if (raw == NULL) {
		close(fd);
		errmsg_set(e, NULL, 0, 0, "pattern=%s: no memory", abs);
		return (-1);
	}
	while (n < len && (r = read(fd, raw + n, len - n)) > 0)
		n += (uint64_t)r;
	close(fd);
	*got = n;
	if (n == 0) {
		free(raw);
		errmsg_set(e, NULL, 0, 0, "Pattern file empty: %s", abs);
		return (-1);
	}
	n -= n % 4;
	*used = n;
	if (n == 0) {
		free(raw);
		errmsg_set(e, NULL, 0, 0, "Data pattern length for file '%s' "
		    "must be a minimum of 4 bytes ", abs);
		return (-1);
	}
	for (i = 0; i + 4 <= len; i += 4) {
		uint32_t w = (uint32_t)raw[i % n] << 24 |
		    (uint32_t)raw[(i + 1) % n] << 16 |
		    (uint32_t)raw[(i + 2) % n] << 8 | raw[(i + 3) % n];

		memcpy(buf + i, &w, 4);
	}
	free(raw);
	return (0);
}
