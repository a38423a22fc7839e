/* SPDX-License-Identifier: MIT */
/*
 * I/O counters: sums, not rates, so that merging slaves and intervals is
 * exact and the master derives every rate itself.
 */
#include "iostats.h"

#include <math.h>
#include <string.h>

/* Count one I/O. */
void
iostats_add(struct iostats *s, enum iostats_dir d, uint64_t bytes,
    uint64_t resp_ns)
{
	struct iostats_side *x = &s->side[d];
	uint64_t us = (resp_ns + 500) / 1000;

	x->ios++;
	x->bytes += bytes;
	x->resp_sum_ns += resp_ns;
	x->resp_sumsq_us2 += us * us;
	if (resp_ns > x->resp_max_ns)
		x->resp_max_ns = resp_ns;
}

/* Add src into dst. */
void
iostats_merge(struct iostats *dst, const struct iostats *src)
{
	int d;

	for (d = 0; d < IOSTATS_NDIR; d++) {
		struct iostats_side *a = &dst->side[d];
		const struct iostats_side *b = &src->side[d];

		a->ios += b->ios;
		a->bytes += b->bytes;
		a->resp_sum_ns += b->resp_sum_ns;
		a->resp_sumsq_us2 += b->resp_sumsq_us2;
		a->errors += b->errors;
		if (b->resp_max_ns > a->resp_max_ns)
			a->resp_max_ns = b->resp_max_ns;
	}
	dst->qdepth_ns += src->qdepth_ns;
	dst->busy_ns += src->busy_ns;
}

/* Interval delta of two cumulative snapshots. */
void
iostats_delta(struct iostats *dst, const struct iostats *now,
    const struct iostats *prev)
{
	int d;

	for (d = 0; d < IOSTATS_NDIR; d++) {
		struct iostats_side *o = &dst->side[d];
		const struct iostats_side *a = &now->side[d];
		const struct iostats_side *b = &prev->side[d];

		o->ios = a->ios - b->ios;
		o->bytes = a->bytes - b->bytes;
		o->resp_sum_ns = a->resp_sum_ns - b->resp_sum_ns;
		o->resp_sumsq_us2 = a->resp_sumsq_us2 - b->resp_sumsq_us2;
		o->errors = a->errors - b->errors;
		o->resp_max_ns = a->resp_max_ns;
	}
	dst->qdepth_ns = now->qdepth_ns - prev->qdepth_ns;
	dst->busy_ns = now->busy_ns - prev->busy_ns;
}

/* sqrt((n*Q - S^2) / (n*(n-1))) with S and Q in microseconds, in ms. */
double
iostats_stddev_ms(uint64_t n, uint64_t sum_ns, uint64_t sumsq_us2)
{
	double dn = (double)n, s = (double)sum_ns / 1000.0, v;

	if (n <= 1)
		return (0.0);
	v = (dn * (double)sumsq_us2 - s * s) / (dn * (dn - 1));
	return (v > 0 ? sqrt(v) / 1000.0 : 0.0);
}

/* One direction as JSON. */
static json_t *
side_to_json(const struct iostats_side *x)
{
	return (json_pack("{s:I,s:I,s:I,s:I,s:I,s:I}",
	    "ios", (json_int_t)x->ios, "bytes", (json_int_t)x->bytes,
	    "resp_sum_ns", (json_int_t)x->resp_sum_ns,
	    "resp_sumsq_us2", (json_int_t)x->resp_sumsq_us2,
	    "resp_max_ns", (json_int_t)x->resp_max_ns,
	    "errors", (json_int_t)x->errors));
}

/* Encode: {"read":{...},"write":{...},"qdepth_ns":..,"busy_ns":..}. */
json_t *
iostats_to_json(const struct iostats *s)
{
	return (json_pack("{s:o,s:o,s:I,s:I}",
	    "read", side_to_json(&s->side[IOSTATS_READ]),
	    "write", side_to_json(&s->side[IOSTATS_WRITE]),
	    "qdepth_ns", (json_int_t)s->qdepth_ns,
	    "busy_ns", (json_int_t)s->busy_ns));
}

/* Decode one direction; all fields required and non-negative. */
static int
side_from_json(struct iostats_side *x, const json_t *j, const char *name,
    struct errmsg *e)
{
	json_int_t v[6];
	json_error_t je;
	int i;

	if (json_unpack_ex((json_t *)j, &je, 0, "{s:I,s:I,s:I,s:I,s:I,s:I}",
	    "ios", &v[0], "bytes", &v[1], "resp_sum_ns", &v[2],
	    "resp_sumsq_us2", &v[3], "resp_max_ns", &v[4],
	    "errors", &v[5]) != 0) {
		errmsg_set(e, NULL, 0, 0, "stats %s: %s", name, je.text);
		return (-1);
	}
	for (i = 0; i < 6; i++) {
		if (v[i] < 0) {
			errmsg_set(e, NULL, 0, 0, "stats %s: negative counter",
			    name);
			return (-1);
		}
	}
	x->ios = (uint64_t)v[0];
	x->bytes = (uint64_t)v[1];
	x->resp_sum_ns = (uint64_t)v[2];
	x->resp_sumsq_us2 = (uint64_t)v[3];
	x->resp_max_ns = (uint64_t)v[4];
	x->errors = (uint64_t)v[5];
	return (0);
}

/* Decode and check. */
int
iostats_from_json(struct iostats *s, const json_t *j, struct errmsg *e)
{
	json_t *r, *w;
	json_int_t q, b;
	json_error_t je;

	memset(s, 0, sizeof(*s));
	if (json_unpack_ex((json_t *)j, &je, 0, "{s:o,s:o,s:I,s:I}",
	    "read", &r, "write", &w, "qdepth_ns", &q, "busy_ns", &b) != 0) {
		errmsg_set(e, NULL, 0, 0, "stats: %s", je.text);
		return (-1);
	}
	if (q < 0 || b < 0) {
		errmsg_set(e, NULL, 0, 0, "stats: negative time integral");
		return (-1);
	}
	if (side_from_json(&s->side[IOSTATS_READ], r, "read", e) != 0 ||
	    side_from_json(&s->side[IOSTATS_WRITE], w, "write", e) != 0)
		return (-1);
	s->qdepth_ns = (uint64_t)q;
	s->busy_ns = (uint64_t)b;
	return (0);
}
