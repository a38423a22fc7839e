/* SPDX-License-Identifier: MIT */
/* fsd tree geometry (see fstree.h). */
#include "fstree.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* width^n, saturating. */
static uint64_t
upow(uint64_t w, int n)
{
	uint64_t r = 1;

	while (n-- > 0)
		r = r > UINT64_MAX / (w ? w : 1) ? UINT64_MAX : r * w;
	return (r);
}

static uint64_t
gcd(uint64_t a, uint64_t b)
{
	while (b != 0) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return (a);
}

/* A multiplier coprime to n, so f -> f * m mod n is a permutation. */
static uint64_t
spread(uint64_t n)
{
	uint64_t m = 2654435761u % (n ? n : 1);

	if (n <= 2)
		return (1);
	while (gcd(m, n) != 1)
		m++;
	return (m);
}

/* Size of file f among all n (before totalsize=); m is spread(n),
 * computed once by the callers that go through every file. */
static uint64_t
size_of_m(const struct fstree *t, uint64_t f, uint64_t n, uint64_t m)
{
	uint64_t pos, seen = 0, h;
	int i;

	if (t->size_avg) {
		/* sizes=(avg,0): uniform in [avg/2, 1.5 avg), rounded */
		uint64_t avg = t->size_bytes[0], s, g;

		h = (f + 1) * 0x9e3779b97f4a7c15ull;
		h ^= h >> 31;
		h *= 0xbf58476d1ce4e5b9ull;
		h ^= h >> 29;
		s = avg / 2 + (avg > 0 ? h % avg : 0);
		g = avg >= 10485760 ? 1048576 : avg >= 1048576 ? 102400 :
		    avg >= 102400 ? 10240 : 1024;
		s = s / g * g;
		return (s > 0 ? s : g);
	}
	if (t->nsizes == 1)
		return (t->size_bytes[0]);
	pos = (uint64_t)(((unsigned __int128)f * m) % n);
	for (i = 0; i < t->nsizes; i++) {
		seen += t->size_count[i];
		if (pos < seen)
			return (t->size_bytes[i]);
	}
	return (t->size_bytes[t->nsizes - 1]);
}

static uint64_t
size_of(const struct fstree *t, uint64_t f, uint64_t n)
{
	return (size_of_m(t, f, n, t->nsizes > 1 && !t->size_avg ?
	    spread(n) : 1));
}

/*
 * How many of the first files (of n) fit in limit bytes, their bytes in
 * *bytes. One size: a division, not a walk of every file (a tree can
 * have 10^12); else one size_of per file, spread() computed once.
 */
static uint64_t
first_fitting(const struct fstree *t, uint64_t n, uint64_t limit,
    uint64_t *bytes)
{
	uint64_t all = t->nholders * t->files_per_dir, m, i, b = 0;

	if (t->nsizes == 1 && !t->size_avg) {
		i = t->size_bytes[0] == 0 ? n : limit / t->size_bytes[0];
		if (i > n)
			i = n;
		*bytes = i * t->size_bytes[0];
		return (i);
	}
	m = t->nsizes > 1 && !t->size_avg ? spread(all) : 1;
	for (i = 0; i < n; i++) {
		uint64_t s = size_of_m(t, i, all, m);

		if (b + s > limit)
			break;
		b += s;
	}
	*bytes = b;
	return (i);
}

/* workingsetsize=: the runs use the first files that fit in it. */
static int
wss_limit(struct fstree *t, uint64_t wss)
{
	uint64_t i, bytes;

	t->nfiles_wss = t->nfiles;
	if (wss == 0)
		return (0);
	i = first_fitting(t, t->nfiles, wss, &bytes);
	t->nfiles_wss = i > 0 ? i : 1;
	return (0);
}

int
fstree_init(struct fstree *t, const struct fsd *f)
{
	uint64_t all, counted = 0, bytes = 0, i;
	int k;

	memset(t, 0, sizeof(*t));
	if (f->nsizes < 1 || f->nsizes > 16)
		return (-1);
	if (f->depth < 0 || f->width < 0)
		return (-2);
	t->depth = f->depth;
	t->width = f->width;
	t->files_per_dir = f->files;
	t->dist_all = f->dist_all;
	t->size_avg = f->size_avg;
	/* a tree whose counts do not fit 64 bits cannot exist: refused,
	 * never wrapped (upow saturates at UINT64_MAX) */
	for (k = 1; k <= t->depth; k++) {
		uint64_t level = upow((uint64_t)t->width, k);

		if (level == UINT64_MAX ||
		    __builtin_add_overflow(t->ndirs, level, &t->ndirs))
			return (-2);
	}
	t->nholders = t->dist_all ? t->ndirs : upow((uint64_t)t->width,
	    t->depth);
	if (t->depth == 0)
		t->nholders = 1;	/* the anchor itself */
	if (__builtin_mul_overflow(t->nholders, t->files_per_dir, &all) ||
	    all == UINT64_MAX)
		return (-2);
	t->nsizes = f->nsizes;
	for (k = 0; k < f->nsizes; k++) {
		t->size_bytes[k] = f->size_bytes[k];
		t->size_count[k] = f->size_pct == NULL ? all :
		    (uint64_t)llround((double)all * f->size_pct[k] / 100.0);
		counted += t->size_count[k];
	}
	/* Rounding: the last size takes what is left (or gives back). */
	if (counted != all && t->nsizes > 1) {
		uint64_t last = t->size_count[t->nsizes - 1];

		t->size_count[t->nsizes - 1] = counted > all ? (last >
		    counted - all ? last - (counted - all) : 0) :
		    last + (all - counted);
	}
	t->nfiles = t->nfiles_all = all;
	if (!t->size_avg) {
		for (k = 0; k < t->nsizes; k++) {
			uint64_t b;

			if (__builtin_mul_overflow(t->size_count[k],
			    t->size_bytes[k], &b) ||
			    __builtin_add_overflow(bytes, b, &bytes))
				return (-2);
		}
	} else {
		/* every size is under 1.5 avg: the sum fits when this does */
		if (__builtin_mul_overflow(all, t->size_bytes[0] / 2 * 3 +
		    1048576, &bytes))
			return (-2);
		bytes = 0;
		for (i = 0; i < all; i++)
			bytes += size_of(t, i, all);
	}
	t->total_bytes = t->bytes_all = bytes;
	t->nfiles_wss = all;
	if (f->totalsize_bytes == 0 || f->totalsize_bytes >= bytes)
		return (wss_limit(t, f->wss_bytes));
	i = first_fitting(t, all, f->totalsize_bytes, &bytes);
	t->nfiles = t->nfiles_wss = i;
	t->total_bytes = bytes;
	return (wss_limit(t, f->wss_bytes));
}

/* "vdb.1_2.dir/vdb.2_1.dir" for index k of level lvl (1-based). */
static void
level_path(const struct fstree *t, int lvl, uint64_t k, char *buf,
    size_t len)
{
	size_t n = 0;
	int j;

	buf[0] = '\0';
	for (j = 1; j <= lvl && n < len; j++) {
		uint64_t digit = (k / upow((uint64_t)t->width, lvl - j)) %
		    (uint64_t)t->width;

		n += (size_t)snprintf(buf + n, len - n, "%svdb.%d_%llu.dir",
		    j > 1 ? "/" : "", j, (unsigned long long)digit + 1);
	}
}

void
fstree_dir_path(const struct fstree *t, uint64_t d, char *buf, size_t len)
{
	int lvl;

	for (lvl = 1; lvl <= t->depth; lvl++) {
		uint64_t here = upow((uint64_t)t->width, lvl);

		if (d < here) {
			level_path(t, lvl, d, buf, len);
			return;
		}
		d -= here;
	}
	buf[0] = '\0';
}

void
fstree_file_path(const struct fstree *t, uint64_t f, char *buf, size_t len)
{
	uint64_t holder = f / t->files_per_dir, num = f % t->files_per_dir + 1;
	char dir[4096] = "";

	if (t->depth > 0) {
		if (t->dist_all)
			fstree_dir_path(t, holder, dir, sizeof(dir));
		else
			level_path(t, t->depth, holder, dir, sizeof(dir));
	}
	snprintf(buf, len, "%s%svdb_f%04llu.file", dir, dir[0] ? "/" : "",
	    (unsigned long long)num);
}

uint64_t
fstree_file_size(const struct fstree *t, uint64_t f)
{
	return (size_of(t, f, t->nholders * t->files_per_dir));
}

int
fstree_is_ours(const char *name)
{
	unsigned int a, b;
	char tail[8];

	if (strcmp(name, "vdb_control.file") == 0)
		return (1);
	if (sscanf(name, "vdb.%u_%u.di%1s", &a, &b, tail) == 3 &&
	    strcmp(tail, "r") == 0) {
		char again[64];

		snprintf(again, sizeof(again), "vdb.%u_%u.dir", a, b);
		return (strcmp(again, name) == 0);
	}
	if (sscanf(name, "vdb_f%u.fil%1s", &a, tail) == 2 &&
	    strcmp(tail, "e") == 0) {
		char again[64];

		snprintf(again, sizeof(again), "vdb_f%04u.file", a);
		return (strcmp(again, name) == 0);
	}
	return (0);
}
