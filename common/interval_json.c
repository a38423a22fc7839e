/* SPDX-License-Identifier: MIT */
/*
 * The INTERVAL per-WG stats codec (interval_json.h). Deltas, sparse, and
 * flat arrays rather than objects of objects: the master decodes 64
 * slaves x 16 WGs of these every second, and jansson's cost is per value.
 */
#include "interval_json.h"

#include <string.h>

#define IO_FIELDS	14

void
interval_base_init(struct interval_base *b)
{
	memset(b, 0, sizeof(*b));
	b->h[0] = hist_new();
	b->h[1] = hist_new();
	b->sched = hist_new();
}

void
interval_base_free(struct interval_base *b)
{
	hist_free(b->h[0]);
	hist_free(b->h[1]);
	hist_free(b->sched);
	memset(b, 0, sizeof(*b));
}

void
interval_scratch_init(struct interval_scratch *s)
{
	memset(s, 0, sizeof(*s));
	s->sum[0] = hist_new();
	s->sum[1] = hist_new();
	s->snap[0] = hist_new();
	s->snap[1] = hist_new();
	s->sched = hist_new();
	s->out.h[0] = hist_new();
	s->out.h[1] = hist_new();
	s->out.sched = hist_new();
}

void
interval_scratch_free(struct interval_scratch *s)
{
	hist_free(s->sum[0]);
	hist_free(s->sum[1]);
	hist_free(s->snap[0]);
	hist_free(s->snap[1]);
	hist_free(s->sched);
	hist_free(s->out.h[0]);
	hist_free(s->out.h[1]);
	hist_free(s->out.sched);
	memset(s, 0, sizeof(*s));
}

/* dst = now - base (a cumulative histogram never shrinks), base = now. */
static void
hist_step(struct hist *dst, struct hist *base, const struct hist *now)
{
	if (hist_delta(dst, now, base) != 0)
		hist_reset(dst);	/* cannot happen: now grew from base */
	hist_reset(base);
	hist_merge(base, now);
}

void
interval_delta(struct interval_wg *out, struct interval_base *base,
    const struct iostats *now, struct hist *const now_h[2],
    const struct hist *now_sched, const struct vdbhist now_vdb[2],
    unsigned int nvdb)
{
	unsigned int d, b;

	iostats_delta(&out->io, now, &base->io);
	base->io = *now;
	for (d = 0; d < 2; d++) {
		hist_step(out->h[d], base->h[d], now_h[d]);
		for (b = 0; b < nvdb && b < VDBHIST_MAX_BUCKETS; b++) {
			out->vdb[d].count[b] = now_vdb[d].count[b] -
			    base->vdb[d].count[b];
			base->vdb[d].count[b] = now_vdb[d].count[b];
		}
	}
	if (now_sched != NULL)
		hist_step(out->sched, base->sched, now_sched);
	else
		hist_reset(out->sched);
	out->nvdb = nvdb;
}

/* [idx, count, ...] of a histogram's non-empty buckets, or NULL. */
static json_t *
hist_flat(const struct hist *h)
{
	unsigned int lo, hi, i;
	json_t *a = NULL;

	if (h == NULL || hist_count(h) == 0)
		return (NULL);
	hist_used(h, &lo, &hi);
	for (i = lo; i < hi; i++) {
		uint64_t n = hist_bucket(h, i);

		if (n == 0)
			continue;
		if (a == NULL)
			a = json_array();
		json_array_append_new(a, json_integer((json_int_t)i));
		json_array_append_new(a, json_integer((json_int_t)n));
	}
	return (a);
}

static json_t *
vdb_flat(const struct vdbhist *v, unsigned int n)
{
	json_t *a = NULL;
	unsigned int i;

	for (i = 0; i < n && i < VDBHIST_MAX_BUCKETS; i++) {
		if (v->count[i] == 0)
			continue;
		if (a == NULL)
			a = json_array();
		json_array_append_new(a, json_integer((json_int_t)i));
		json_array_append_new(a, json_integer((json_int_t)v->count[i]));
	}
	return (a);
}

/* The optional "fs" object, or NULL when nothing happened. */
static json_t *
fs_to_json(const struct iostats *s)
{
	json_t *fs = NULL, *ops = NULL, *misc = NULL;
	int i;

	for (i = 0; i < FSOP_N; i++) {
		if (s->op[i].n == 0 && s->op[i].resp_max_ns == 0)
			continue;
		if (ops == NULL)
			ops = json_object();
		json_object_set_new(ops, fsop_name((enum fsop)i),
		    json_pack("[I,I,I]", (json_int_t)s->op[i].n,
		    (json_int_t)s->op[i].resp_sum_ns,
		    (json_int_t)s->op[i].resp_max_ns));
	}
	for (i = 0; i < FSM_N; i++) {
		if (s->misc[i] == 0)
			continue;
		if (misc == NULL)
			misc = json_object();
		json_object_set_new(misc, fsmisc_name((enum fsmisc)i),
		    json_integer((json_int_t)s->misc[i]));
	}
	if (ops == NULL && misc == NULL && s->req_n == 0 &&
	    s->req_resp_ns == 0)
		return (NULL);
	fs = json_object();
	if (s->req_n > 0 || s->req_resp_ns > 0)
		json_object_set_new(fs, "req", json_pack("[I,I]",
		    (json_int_t)s->req_n, (json_int_t)s->req_resp_ns));
	if (ops != NULL)
		json_object_set_new(fs, "ops", ops);
	if (misc != NULL)
		json_object_set_new(fs, "misc", misc);
	return (fs);
}

static void
set_opt(json_t *o, const char *key, json_t *v)
{
	if (v != NULL)
		json_object_set_new(o, key, v);
}

json_t *
interval_wg_to_json(const struct interval_wg *w)
{
	const struct iostats *s = &w->io;
	json_t *o = json_object();
	uint64_t f[IO_FIELDS], any = 0;
	int d, i;

	for (d = 0; d < 2; d++) {
		f[6 * d + 0] = s->side[d].ios;
		f[6 * d + 1] = s->side[d].bytes;
		f[6 * d + 2] = s->side[d].resp_sum_ns;
		f[6 * d + 3] = s->side[d].resp_sumsq_us2;
		f[6 * d + 4] = s->side[d].resp_max_ns;
		f[6 * d + 5] = s->side[d].errors;
	}
	f[12] = s->qdepth_ns;
	f[13] = s->busy_ns;
	for (i = 0; i < IO_FIELDS; i++)
		any |= f[i];
	if (any != 0) {
		json_t *a = json_array();

		for (i = 0; i < IO_FIELDS; i++)
			json_array_append_new(a, json_integer((json_int_t)f[i]));
		json_object_set_new(o, "io", a);
	}
	set_opt(o, "fs", fs_to_json(s));
	set_opt(o, "hr", hist_flat(w->h[0]));
	set_opt(o, "hw", hist_flat(w->h[1]));
	set_opt(o, "hs", hist_flat(w->sched));
	set_opt(o, "vr", vdb_flat(&w->vdb[0], w->nvdb));
	set_opt(o, "vw", vdb_flat(&w->vdb[1], w->nvdb));
	return (o);
}

json_t *
interval_encode(struct interval_base *b, struct interval_wg *out,
    const struct iostats *now, struct hist *const now_h[2],
    const struct hist *now_sched, const struct vdbhist now_vdb[2],
    unsigned int nvdb)
{
	interval_delta(out, b, now, now_h, now_sched, now_vdb, nvdb);
	return (interval_wg_to_json(out));
}

/* A count on the wire: an integer >= 0. */
static int
count_of(const json_t *v, uint64_t *out)
{
	if (!json_is_integer(v) || json_integer_value(v) < 0)
		return (-1);
	*out = (uint64_t)json_integer_value(v);
	return (0);
}

/*
 * A flat [idx, count, ...] list: indexes ascending and below max, counts
 * above 0. add() takes each pair; -1 with e set on anything else.
 */
static int
flat_pairs(const json_t *a, const char *key, unsigned int max,
    int (*add)(void *, unsigned int, uint64_t), void *arg, struct errmsg *e)
{
	size_t i, n;
	uint64_t idx, cnt, next = 0;

	if (a == NULL)
		return (0);
	n = json_array_size(a);
	if (!json_is_array(a) || n % 2 != 0) {
		errmsg_set(e, NULL, 0, 0, "%s is not a list of [bucket, count] "
		    "pairs", key);
		return (-1);
	}
	for (i = 0; i < n; i += 2) {
		if (count_of(json_array_get(a, i), &idx) != 0 || idx >= max ||
		    idx < next) {
			errmsg_set(e, NULL, 0, 0, "%s bucket at entry %zu is not "
			    "an ascending index below %u", key, i / 2, max);
			return (-1);
		}
		if (count_of(json_array_get(a, i + 1), &cnt) != 0 || cnt == 0) {
			errmsg_set(e, NULL, 0, 0, "%s bucket %llu: the count is "
			    "not an integer above 0", key,
			    (unsigned long long)idx);
			return (-1);
		}
		if (add(arg, (unsigned int)idx, cnt) != 0) {
			errmsg_set(e, NULL, 0, 0, "%s: bucket counts overflow 64 "
			    "bits at entry %zu", key, i / 2);
			return (-1);
		}
		next = idx + 1;
	}
	return (0);
}

static int
add_hist(void *arg, unsigned int idx, uint64_t n)
{
	return (hist_add_bucket(arg, idx, n));
}

static int
add_vdb(void *arg, unsigned int idx, uint64_t n)
{
	((struct vdbhist *)arg)->count[idx] = n;
	return (0);
}

/* The optional "fs" object into s. */
static int
fs_from_json(struct iostats *s, const json_t *fs, struct errmsg *e)
{
	const json_t *ops, *misc, *req, *v;
	const char *k;
	int i;

	if (fs == NULL)
		return (0);
	if (!json_is_object(fs)) {
		errmsg_set(e, NULL, 0, 0, "fs is not an object");
		return (-1);
	}
	ops = json_object_get(fs, "ops");
	misc = json_object_get(fs, "misc");
	req = json_object_get(fs, "req");
	if ((ops != NULL && !json_is_object(ops)) || (misc != NULL &&
	    !json_is_object(misc))) {
		errmsg_set(e, NULL, 0, 0, "fs ops and misc must be objects");
		return (-1);
	}
	json_object_foreach((json_t *)ops, k, v) {
		for (i = 0; i < FSOP_N && strcmp(fsop_name((enum fsop)i), k) != 0;
		    i++)
			;
		if (i == FSOP_N || json_array_size(v) != 3 ||
		    count_of(json_array_get(v, 0), &s->op[i].n) != 0 ||
		    count_of(json_array_get(v, 1), &s->op[i].resp_sum_ns) != 0 ||
		    count_of(json_array_get(v, 2), &s->op[i].resp_max_ns) != 0) {
			errmsg_set(e, NULL, 0, 0, "fs: bad operation '%s'", k);
			return (-1);
		}
	}
	json_object_foreach((json_t *)misc, k, v) {
		for (i = 0; i < FSM_N && strcmp(fsmisc_name((enum fsmisc)i),
		    k) != 0; i++)
			;
		if (i == FSM_N || count_of(v, &s->misc[i]) != 0) {
			errmsg_set(e, NULL, 0, 0, "fs: bad counter '%s'", k);
			return (-1);
		}
	}
	if (req != NULL && (json_array_size(req) != 2 ||
	    count_of(json_array_get(req, 0), &s->req_n) != 0 ||
	    count_of(json_array_get(req, 1), &s->req_resp_ns) != 0)) {
		errmsg_set(e, NULL, 0, 0, "fs: bad req");
		return (-1);
	}
	return (0);
}

int
interval_wg_from_json(struct interval_wg *w, const json_t *j,
    struct errmsg *e)
{
	static const char *const io_names[IO_FIELDS] = { "read ios",
	    "read bytes", "read resp_sum_ns", "read resp_sumsq_us2",
	    "read resp_max_ns", "read errors", "write ios", "write bytes",
	    "write resp_sum_ns", "write resp_sumsq_us2", "write resp_max_ns",
	    "write errors", "qdepth_ns", "busy_ns" };
	const json_t *io;
	uint64_t f[IO_FIELDS];
	int d, i;

	memset(&w->io, 0, sizeof(w->io));
	memset(w->vdb, 0, sizeof(w->vdb));
	w->nvdb = 0;
	hist_reset(w->h[0]);
	hist_reset(w->h[1]);
	hist_reset(w->sched);
	if (!json_is_object(j)) {
		errmsg_set(e, NULL, 0, 0, "stats entry is not an object");
		return (-1);
	}
	memset(f, 0, sizeof(f));
	if ((io = json_object_get(j, "io")) != NULL) {
		if (!json_is_array(io) || json_array_size(io) != IO_FIELDS) {
			errmsg_set(e, NULL, 0, 0, "io is not a list of %d "
			    "counts", IO_FIELDS);
			return (-1);
		}
		for (i = 0; i < IO_FIELDS; i++) {
			if (count_of(json_array_get(io, (size_t)i), &f[i]) != 0) {
				errmsg_set(e, NULL, 0, 0, "%s is not a count of "
				    "0 or more", io_names[i]);
				return (-1);
			}
		}
	}
	for (d = 0; d < 2; d++) {
		w->io.side[d].ios = f[6 * d + 0];
		w->io.side[d].bytes = f[6 * d + 1];
		w->io.side[d].resp_sum_ns = f[6 * d + 2];
		w->io.side[d].resp_sumsq_us2 = f[6 * d + 3];
		w->io.side[d].resp_max_ns = f[6 * d + 4];
		w->io.side[d].errors = f[6 * d + 5];
	}
	w->io.qdepth_ns = f[12];
	w->io.busy_ns = f[13];
	if (fs_from_json(&w->io, json_object_get(j, "fs"), e) != 0 ||
	    flat_pairs(json_object_get(j, "hr"), "read histogram",
	    HIST_NBUCKETS, add_hist, w->h[0], e) != 0 ||
	    flat_pairs(json_object_get(j, "hw"), "write histogram",
	    HIST_NBUCKETS, add_hist, w->h[1], e) != 0 ||
	    flat_pairs(json_object_get(j, "hs"), "sched histogram",
	    HIST_NBUCKETS, add_hist, w->sched, e) != 0 ||
	    flat_pairs(json_object_get(j, "vr"), "read vdbench",
	    VDBHIST_MAX_BUCKETS, add_vdb, &w->vdb[0], e) != 0 ||
	    flat_pairs(json_object_get(j, "vw"), "write vdbench",
	    VDBHIST_MAX_BUCKETS, add_vdb, &w->vdb[1], e) != 0)
		return (-1);
	for (d = 0; d < 2; d++)
		for (i = VDBHIST_MAX_BUCKETS; i > (int)w->nvdb; i--)
			if (w->vdb[d].count[i - 1] != 0)
				w->nvdb = (unsigned int)i;
	return (0);
}
