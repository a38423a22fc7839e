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
	for (d = 0; d < FSOP_N; d++) {
		dst->op[d].n += src->op[d].n;
		dst->op[d].resp_sum_ns += src->op[d].resp_sum_ns;
		if (src->op[d].resp_max_ns > dst->op[d].resp_max_ns)
			dst->op[d].resp_max_ns = src->op[d].resp_max_ns;
	}
	for (d = 0; d < FSM_N; d++)
		dst->misc[d] += src->misc[d];
	dst->req_n += src->req_n;
	dst->req_resp_ns += src->req_resp_ns;
}

static const char *const op_names[FSOP_N] = {
	"mkdir", "rmdir", "create", "open", "close", "delete", "getattr",
	"setattr", "access", "copy", "move",
};

static const char *const misc_names[FSM_N][2] = {
	{ "FILE_CREATES", "Files created" },
	{ "DIRECTORY_CREATES", "Directories created" },
	{ "FILE_DELETES", "Files deleted" },
	{ "DIRECTORY_DELETES", "Directories deleted" },
	{ "READ_OPENS", "Files opened for read activity" },
	{ "WRITE_OPENS", "Files opened for write activity" },
	{ "DIR_EXISTS", "Directory may not exist (yet)" },
	{ "FILE_BUSY", "File busy" },
	{ "FILE_NOT_FOUND", "File not found" },
	{ "FILE_CLOSES", "Close requests" },
};

const char *
fsop_name(enum fsop o)
{
	return (op_names[o]);
}

const char *
fsmisc_name(enum fsmisc m)
{
	return (misc_names[m][0]);
}

const char *
fsmisc_text(enum fsmisc m)
{
	return (misc_names[m][1]);
}

void
iostats_op(struct iostats *s, enum fsop o, uint64_t resp_ns)
{
	s->op[o].n++;
	s->op[o].resp_sum_ns += resp_ns;
	if (resp_ns > s->op[o].resp_max_ns)
		s->op[o].resp_max_ns = resp_ns;
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
	for (d = 0; d < FSOP_N; d++) {
		dst->op[d].n = now->op[d].n - prev->op[d].n;
		dst->op[d].resp_sum_ns = now->op[d].resp_sum_ns -
		    prev->op[d].resp_sum_ns;
		dst->op[d].resp_max_ns = now->op[d].resp_max_ns;
	}
	for (d = 0; d < FSM_N; d++)
		dst->misc[d] = now->misc[d] - prev->misc[d];
	dst->req_n = now->req_n - prev->req_n;
	dst->req_resp_ns = now->req_resp_ns - prev->req_resp_ns;
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
	json_t *j = json_pack("{s:o,s:o,s:I,s:I}",
	    "read", side_to_json(&s->side[IOSTATS_READ]),
	    "write", side_to_json(&s->side[IOSTATS_WRITE]),
	    "qdepth_ns", (json_int_t)s->qdepth_ns,
	    "busy_ns", (json_int_t)s->busy_ns);
	json_t *ops = NULL, *misc = NULL;
	int i;

	/* Optional: only operations and counters that happened. */
	for (i = 0; i < FSOP_N; i++) {
		if (s->op[i].n == 0 && s->op[i].resp_max_ns == 0)
			continue;
		if (ops == NULL)
			ops = json_object();
		json_object_set_new(ops, op_names[i], json_pack("[I,I,I]",
		    (json_int_t)s->op[i].n, (json_int_t)s->op[i].resp_sum_ns,
		    (json_int_t)s->op[i].resp_max_ns));
	}
	for (i = 0; i < FSM_N; i++) {
		if (s->misc[i] == 0)
			continue;
		if (misc == NULL)
			misc = json_object();
		json_object_set_new(misc, misc_names[i][0],
		    json_integer((json_int_t)s->misc[i]));
	}
	if (s->req_n > 0 || s->req_resp_ns > 0)
		json_object_set_new(j, "req", json_pack("[I,I]",
		    (json_int_t)s->req_n, (json_int_t)s->req_resp_ns));
	if (ops != NULL)
		json_object_set_new(j, "ops", ops);
	if (misc != NULL)
		json_object_set_new(j, "misc", misc);
	return (j);
}

/* The optional file-system part: "ops" and "misc". */
static int
fs_from_json(struct iostats *s, const json_t *j, struct errmsg *e)
{
	json_t *ops = json_object_get(j, "ops"), *misc = json_object_get(j,
	    "misc"), *v;
	const char *k;
	int i;

	json_object_foreach(ops, k, v) {
		json_int_t n, sum, max;

		for (i = 0; i < FSOP_N && strcmp(op_names[i], k) != 0; i++)
			;
		if (i == FSOP_N || json_unpack(v, "[I,I,I]", &n, &sum,
		    &max) != 0 || n < 0 || sum < 0 || max < 0) {
			errmsg_set(e, NULL, 0, 0, "stats: bad operation '%s'",
			    k);
			return (-1);
		}
		s->op[i].n = (uint64_t)n;
		s->op[i].resp_sum_ns = (uint64_t)sum;
		s->op[i].resp_max_ns = (uint64_t)max;
	}
	if ((v = json_object_get(j, "req")) != NULL) {
		json_int_t n, sum;

		if (json_unpack(v, "[I,I]", &n, &sum) != 0 || n < 0 ||
		    sum < 0) {
			errmsg_set(e, NULL, 0, 0, "stats: bad req");
			return (-1);
		}
		s->req_n = (uint64_t)n;
		s->req_resp_ns = (uint64_t)sum;
	}
	json_object_foreach(misc, k, v) {
		for (i = 0; i < FSM_N && strcmp(misc_names[i][0], k) != 0; i++)
			;
		if (i == FSM_N || !json_is_integer(v) ||
		    json_integer_value(v) < 0) {
			errmsg_set(e, NULL, 0, 0, "stats: bad counter '%s'", k);
			return (-1);
		}
		s->misc[i] = (uint64_t)json_integer_value(v);
	}
	return (0);
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
	return (fs_from_json(s, j, e));
}
