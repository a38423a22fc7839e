/* SPDX-License-Identifier: MIT */
/* One I/O's choices (see workload.h); no lock, no allocation past setup. */
#include <math.h>
#include <stdlib.h>

#include "workload.h"
#include "xmalloc.h"

/* Index by cumulative weight. */
int
workload_pick(const double *cum, int n, struct rng *r)
{
	double u;
	int k;

	if (n <= 1)
		return (0);
	u = rng_double(r) * cum[n - 1];
	for (k = 0; k < n - 1 && u >= cum[k]; k++)
		;
	return (k);
}

/* Read or write. */
int
workload_dir(const struct wg *g, struct rng *r)
{
	if (g->readpct >= 100)
		return (0);
	if (g->readpct <= 0)
		return (1);
	return (rng_double(r) * 100 >= g->readpct);
}

/* Next sequential address in [low, high), or UINT64_MAX at eof. */
static uint64_t
next_seq(struct wg *g, uint64_t *cursor, uint64_t low, uint64_t high,
    uint64_t *len)
{
	uint64_t cur = __atomic_load_n(cursor, __ATOMIC_RELAXED), o, next;

	for (;;) {
		o = cur;
		if (o >= high || o + *len > high) {
			if (o < high && (g->xfer.kind != XFER_SINGLE ||
			    g->seek_eof)) {
				*len = high - o;	/* shortened to fit */
			} else if (g->seek_eof) {
				return (UINT64_MAX);
			} else {
				o = low;
			}
		}
		next = o + *len;
		if (__atomic_compare_exchange_n(cursor, &cur, next, 0,
		    __ATOMIC_RELAXED, __ATOMIC_RELAXED))
			return (o);
	}
}

/* Pick a transfer size. */
uint64_t
workload_xfer(const struct wg *g, struct rng *r)
{
	double u;
	int i;

	switch (g->xfer.kind) {
	case XFER_SINGLE:
		return (g->xfer.size_bytes[0]);
	case XFER_DIST:
		u = rng_double(r) * g->xfer_cum[g->xfer.n - 1];
		for (i = 0; i < g->xfer.n - 1 && u >= g->xfer_cum[i]; i++)
			;
		return (g->xfer.size_bytes[i]);
	default:
		return (g->xfer.min_bytes + g->xfer.align_bytes *
		    rng_below(r, (g->xfer.max_bytes - g->xfer.min_bytes) /
		    g->xfer.align_bytes + 1));
	}
}

/*
 * stride=(min,max): the previous random lba plus min plus a random multiple
 * of the transfer size below max - min; back to low past the end.
 */
static uint64_t
next_stride(struct wg *g, struct rng *r, uint64_t low, uint64_t high,
    uint64_t len)
{
	uint64_t step = g->stride_min, span = g->stride_max - g->stride_min;
	uint64_t cur = __atomic_load_n(&g->stride_cursor, __ATOMIC_RELAXED), o;

	if (span >= len)
		step += rng_below(r, span / len) * len;
	do {
		o = cur + step;
		if (o < low || o + len > high)
			o = low;
	} while (!__atomic_compare_exchange_n(&g->stride_cursor, &cur, o, 0,
	    __ATOMIC_RELAXED, __ATOMIC_RELAXED));
	return (o);
}

/* seekpct=poisson's block (workload.h): vdbench's ownmath.distPoisson. */
uint64_t
workload_poisson(struct rng *r, double mid, uint64_t n)
{
	double u, x;

	if (n == 0)
		return (0);
	u = rng_double(r);
	if (u == 0)
		return (0);
	x = -log(u) * ((double)n / mid);
	/* Java's (long) saturates; a tiny midpoint can get there */
	if (!(x < 0x1p63))
		return ((uint64_t)INT64_MAX % n);
	return ((uint64_t)x % n);
}

/* Block index below n: uniform, Poisson, or skewed low for hotband. */
static uint64_t
pick_block(const struct wg *g, struct rng *r, uint64_t n)
{
	double u;
	uint64_t k;

	if (g->poisson_mid > 0)
		return (workload_poisson(r, g->poisson_mid, n));
	if (!g->hot)
		return (rng_below(r, n));
	u = rng_double(r);
	k = (uint64_t)(u * u * u * (double)n);
	return (k < n ? k : n - 1);
}

/* streams=n: n parts of the miss area, each on unit boundaries. */
int
workload_streams_init(struct wg *g, int n, uint64_t unit)
{
	uint64_t w = g->high - g->low;
	int k;

	if (n < 2)
		return (0);
	if (unit == 0)
		unit = 512;
	if (w / unit < (uint64_t)n)
		return (-1);
	g->streams = n;
	g->stream_low = xcalloc((size_t)n, sizeof(uint64_t));
	g->stream_high = xcalloc((size_t)n, sizeof(uint64_t));
	g->stream_cursor = xcalloc((size_t)n, sizeof(uint64_t));
	for (k = 0; k < n; k++) {
		g->stream_low[k] = g->low + w / unit * (uint64_t)k /
		    (uint64_t)n * unit;
		g->stream_high[k] = k == n - 1 ? g->high : g->low + w / unit *
		    (uint64_t)(k + 1) / (uint64_t)n * unit;
		g->stream_cursor[k] = g->stream_low[k];
	}
	return (0);
}

void
workload_streams_free(struct wg *g)
{
	free(g->stream_low);
	free(g->stream_high);
	free(g->stream_cursor);
	g->stream_low = g->stream_high = g->stream_cursor = NULL;
	g->streams = 0;
}

uint64_t
workload_addr(struct wg *g, struct rng *r, int hit, uint64_t *len)
{
	return (workload_addr_lane(g, r, hit, len, 0));
}

/* Pick an address in [low, high) for len bytes (12.7 step 5). */
uint64_t
workload_addr_lane(struct wg *g, struct rng *r, int hit, uint64_t *len,
    int lane)
{
	int st = g->streams > 1 && !hit ? lane % g->streams : -1;
	uint64_t low = hit ? g->hit_low : st >= 0 ? g->stream_low[st] : g->low;
	uint64_t high = hit ? g->hit_high : st >= 0 ? g->stream_high[st] :
	    g->high;
	uint64_t *cursor = hit ? &g->hit_cursor : st >= 0 ?
	    &g->stream_cursor[st] : &g->cursor;
	uint64_t o, width = high - low;
	int random = g->seekpct >= 100 ||
	    (g->seekpct > 0 && rng_double(r) * 100 < g->seekpct);

	if (!random || g->seek_eof) {
		o = next_seq(g, cursor, low, high, len);
		goto wrap;
	}
	if (width < *len)
		*len = width;
	if (g->stride_max != 0 && !hit && st < 0)
		o = next_stride(g, r, low, high, *len);
	else if (g->align != 0)
		o = low + pick_block(g, r, (width - *len) / g->align + 1) *
		    g->align;
	else
		o = low + pick_block(g, r, width / *len) * *len;
	if (g->seekpct < 100)
		__atomic_store_n(cursor, o + *len, __ATOMIC_RELAXED);
wrap:
	/* A hotband such as (90,110) goes on at the start of the lun. */
	if (g->wrap_end != 0 && o != UINT64_MAX && o + *len > g->wrap_end)
		o = o >= g->wrap_end ? o - g->wrap_end + g->wrap_to : g->wrap_to;
	return (o);
}

