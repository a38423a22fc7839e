/* SPDX-License-Identifier: MIT */
/*
 * The raw WORK body's codec (work_json.h). The decoder is strict: a
 * missing required field, a wrong type or a value out of its range is
 * refused with the field's path ("sds[1].threads"), so nothing the slave
 * builds from it has to check again.
 */
#include "work_json.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model_json.h"
#include "xmalloc.h"

/* One sd. */
static json_t *
sd_to_json(const struct work_sd *s)
{
	json_t *fl = json_array(), *o;
	int i;

	for (i = 0; i < s->openflags.n; i++)
		json_array_append_new(fl, json_string(s->openflags.v[i]));
	o = json_pack("{s:s,s:s,s:i,s:f,s:o,s:b,s:b,s:b}", "sd", s->sd, "lun",
	    s->lun, "threads", s->threads, "rate_per_s", s->rate_per_s,
	    "openflags", fl, "create", s->create, "overwrite", s->overwrite,
	    "mounted_ok", s->mounted_ok);
	if (s->engine != NULL)
		json_object_set_new(o, "engine", json_string(s->engine));
	if (s->has_dedup)
		json_object_set_new(o, "dedup", json_pack("{s:f,s:f,s:b}",
		    "ratio", s->dedup_ratio, "sets", s->dedup_sets, "across",
		    !s->dedup_not_across));
	if (s->dv_kb_bytes > 0)
		json_object_set_new(o, "dv_kb_bytes",
		    json_integer((json_int_t)s->dv_kb_bytes));
	if (s->dv_size_bytes > 0)
		json_object_set_new(o, "dv_size_bytes",
		    json_integer((json_int_t)s->dv_size_bytes));
	if (s->dedup_group_bytes > 0)
		json_object_set_new(o, "dedup_group", json_pack("{s:I,s:I}",
		    "bytes", (json_int_t)s->dedup_group_bytes, "rel_bytes",
		    (json_int_t)s->dedup_rel_bytes));
	if (s->journal_dir != NULL)
		json_object_set_new(o, "journal_dir",
		    json_string(s->journal_dir));
	return (o);
}

/* One wg. */
static json_t *
wg_to_json(const struct work_wg *g)
{
	json_t *o;

	o = json_pack("{s:s,s:s,s:f,s:f,s:f,s:b,s:f,s:f,s:o,s:I,s:I,s:I,s:I,"
	    "s:I}", "wd", g->wd, "sd", g->sd, "skew_pct", g->skew_pct,
	    "readpct", g->readpct, "seekpct", g->seekpct, "seek_eof",
	    g->seek_eof, "rhpct", g->rhpct, "whpct", g->whpct, "xfer",
	    xfer_to_json(&g->xfer), "low_bytes", (json_int_t)g->low_bytes,
	    "high_bytes", (json_int_t)g->high_bytes, "hit_low_bytes",
	    (json_int_t)g->hit_low_bytes, "hit_high_bytes",
	    (json_int_t)g->hit_high_bytes, "align_bytes",
	    (json_int_t)g->align_bytes);
	if (g->hot)
		json_object_set_new(o, "hot", json_true());
	if (g->wrap_end_bytes != 0) {
		json_object_set_new(o, "wrap_end_bytes",
		    json_integer((json_int_t)g->wrap_end_bytes));
		json_object_set_new(o, "wrap_to_bytes",
		    json_integer((json_int_t)g->wrap_to_bytes));
	}
	if (g->priority != 0)
		json_object_set_new(o, "priority", json_integer(g->priority));
	if (g->has_stride)
		json_object_set_new(o, "stride_bytes", json_pack("[I,I]",
		    (json_int_t)g->stride_min_bytes,
		    (json_int_t)g->stride_max_bytes));
	if (g->poisson_mid > 0)
		json_object_set_new(o, "poisson_mid",
		    json_real(g->poisson_mid));
	if (g->streams > 1)
		json_object_set_new(o, "streams", json_integer(g->streams));
	return (o);
}

/* An fsd's geometry. */
static json_t *
tree_to_json(const struct work_fsd *t)
{
	json_t *sizes = json_array(), *pct = json_array();
	int i;

	for (i = 0; i < t->nsizes; i++) {
		json_array_append_new(sizes,
		    json_integer((json_int_t)t->size_bytes[i]));
		if (t->size_pct != NULL)
			json_array_append_new(pct, json_real(t->size_pct[i]));
	}
	return (json_pack("{s:i,s:i,s:I,s:b,s:o,s:o,s:b,s:I,s:I}", "depth",
	    t->depth, "width", t->width, "files", (json_int_t)t->files,
	    "dist_all", t->dist_all, "size_bytes", sizes, "size_pct", pct,
	    "size_avg", t->size_avg, "totalsize_bytes",
	    (json_int_t)t->totalsize_bytes, "wss_bytes",
	    (json_int_t)t->wss_bytes));
}

/* One fwg. */
static json_t *
fwg_to_json(const struct work_fwg *g)
{
	json_t *fl = json_array(), *o;
	int i;

	for (i = 0; i < g->openflags.n; i++)
		json_array_append_new(fl, json_string(g->openflags.v[i]));
	o = json_pack("{s:s,s:s,s:s,s:s,s:o,s:f,s:f,s:i,s:i,s:i,s:f,s:s,s:s,"
	    "s:o,s:o}", "fwd", g->fwd, "fsd", g->fsd, "anchor", g->anchor,
	    "operation", g->operation, "xfer", xfer_to_json(&g->xfer),
	    "readpct", g->readpct, "stopafter", g->stopafter, "threads",
	    g->threads, "thread_first", g->thread_first, "thread_total",
	    g->thread_total, "rate_per_s", g->rate_per_s, "fileio",
	    g->fileio != NULL ? g->fileio : "sequential", "fileselect",
	    g->fileselect != NULL ? g->fileselect : "sequential", "openflags",
	    fl, "tree", tree_to_json(&g->tree));
	if (g->target_anchor != NULL)
		json_object_set_new(o, "target_anchor",
		    json_string(g->target_anchor));
	if (g->has_poisson_midpoint)
		json_object_set_new(o, "poisson_midpoint",
		    json_real(g->poisson_midpoint));
	if (g->dv_kb_bytes > 0)
		json_object_set_new(o, "dv_kb_bytes",
		    json_integer((json_int_t)g->dv_kb_bytes));
	if (g->skew_pct > 0)
		json_object_set_new(o, "skew_pct", json_real(g->skew_pct));
	if (g->clean_first)
		json_object_set_new(o, "clean_first", json_true());
	return (o);
}

json_t *
work_to_json(const struct slave_work *w)
{
	json_t *sds = json_array(), *wgs = json_array(), *edges = json_array();
	json_t *o;
	unsigned int e;
	int i;

	for (i = 0; i < w->nsds; i++)
		json_array_append_new(sds, sd_to_json(&w->sds[i]));
	for (i = 0; i < w->nwgs; i++)
		json_array_append_new(wgs, wg_to_json(&w->wgs[i]));
	for (e = 0; e < w->edges.n; e++)
		json_array_append_new(edges,
		    json_integer((json_int_t)w->edges.edge_us[e]));
	o = json_pack("{s:o,s:o,s:o,s:i,s:I,s:f,s:i}", "sds", sds, "wgs", wgs,
	    "histogram_edges_us", edges, "slave_index", w->slave_index,
	    "max_errors", (json_int_t)w->max_errors, "compratio", w->compratio,
	    "distribution", w->distribution);
	if (w->remove_device)
		json_object_set_new(o, "remove_device", json_true());
	if (w->hold_skew)
		json_object_set_new(o, "hold_skew", json_true());
	if (w->skew_sync_ms > 0)
		json_object_set_new(o, "skew_sync_ms",
		    json_integer(w->skew_sync_ms));
	if (w->recovery)
		json_object_set_new(o, "recovery", json_true());
	if (w->validate != 0)
		json_object_set_new(o, "validate",
		    json_integer(w->validate));
	if (w->journal != 0)
		json_object_set_new(o, "journal",
		    json_integer(w->journal));
	if (w->has_dedup)
		json_object_set_new(o, "dedup", json_pack("{s:f,s:I,s:f,s:b}",
		    "ratio", w->dedup.ratio, "unit_bytes",
		    (json_int_t)w->dedup.unit_bytes, "sets", w->dedup.sets,
		    "across", !w->dedup.not_across));
	if (w->pattern_file != NULL)
		json_object_set_new(o, "pattern_file",
		    json_string(w->pattern_file));
	if (w->has_compseed)
		json_object_set_new(o, "compressionseed",
		    json_integer((json_int_t)(w->compseed &
		    0x7fffffffffffffffull)));
	if (w->is_fs) {
		json_t *fwgs = json_array();

		for (i = 0; i < w->nfwgs; i++)
			json_array_append_new(fwgs, fwg_to_json(&w->fwgs[i]));
		json_object_del(o, "wgs");
		json_object_set_new(o, "engine", json_string("fs"));
		json_object_set_new(o, "fwgs", fwgs);
		json_object_set_new(o, "fs", json_pack(
		    "{s:b,s:b,s:b,s:b,s:b,s:b}", "clean", w->fs.clean,
		    "restart", w->fs.restart, "dirs_only", w->fs.dirs_only,
		    "clean_only", w->fs.clean_only, "complete",
		    w->fs.complete, "create_anchors", w->fs.create_anchors));
	}
	return (o);
}

/* -1 with e saying what is wrong with field path. */
static int
bad(struct errmsg *e, const char *path, const char *what)
{
	errmsg_set(e, NULL, 0, 0, "WORK: %s: %s", path, what);
	return (-1);
}

/* Field key of o: a string (required unless opt). */
static int
get_str(const json_t *o, const char *pfx, const char *key, int opt,
    char **out, struct errmsg *e)
{
	json_t *v = json_object_get(o, key);
	char path[160];

	snprintf(path, sizeof(path), "%s%s", pfx, key);
	if (v == NULL && opt)
		return (0);
	if (!json_is_string(v))
		return (bad(e, path, v == NULL ? "missing" :
		    "expected a string"));
	*out = xstrdup(json_string_value(v));
	return (0);
}

/* A number in [lo, hi]; *out unchanged when optional and absent. */
static int
get_num(const json_t *o, const char *pfx, const char *key, int opt,
    double lo, double hi, double *out, struct errmsg *e)
{
	json_t *v = json_object_get(o, key);
	char path[160], what[96];

	snprintf(path, sizeof(path), "%s%s", pfx, key);
	if (v == NULL && opt)
		return (0);
	if (!json_is_number(v))
		return (bad(e, path, v == NULL ? "missing" :
		    "expected a number"));
	if (!(json_number_value(v) >= lo && json_number_value(v) <= hi)) {
		snprintf(what, sizeof(what), "%g out of [%g, %g]",
		    json_number_value(v), lo, hi);
		return (bad(e, path, what));
	}
	*out = json_number_value(v);
	return (0);
}

/* An integer in [lo, hi]. */
static int
get_int(const json_t *o, const char *pfx, const char *key, int opt,
    int64_t lo, int64_t hi, int64_t *out, struct errmsg *e)
{
	json_t *v = json_object_get(o, key);
	char path[160], what[96];

	snprintf(path, sizeof(path), "%s%s", pfx, key);
	if (v == NULL && opt)
		return (0);
	if (!json_is_integer(v))
		return (bad(e, path, v == NULL ? "missing" :
		    "expected an integer"));
	if (json_integer_value(v) < lo || json_integer_value(v) > hi) {
		snprintf(what, sizeof(what), "%lld out of [%lld, %lld]",
		    (long long)json_integer_value(v), (long long)lo,
		    (long long)hi);
		return (bad(e, path, what));
	}
	*out = json_integer_value(v);
	return (0);
}

/* A byte count or offset: an integer >= 0. */
static int
get_bytes(const json_t *o, const char *pfx, const char *key, int opt,
    uint64_t *out, struct errmsg *e)
{
	int64_t v = 0;

	if (get_int(o, pfx, key, opt, 0, INT64_MAX, &v, e) != 0)
		return (-1);
	if (json_object_get(o, key) != NULL)
		*out = (uint64_t)v;
	return (0);
}

static int
get_bool(const json_t *o, const char *pfx, const char *key, int opt,
    int *out, struct errmsg *e)
{
	json_t *v = json_object_get(o, key);
	char path[160];

	snprintf(path, sizeof(path), "%s%s", pfx, key);
	if (v == NULL && opt)
		return (0);
	if (!json_is_boolean(v))
		return (bad(e, path, v == NULL ? "missing" :
		    "expected true or false"));
	*out = json_is_true(v);
	return (0);
}

static int
sd_from(struct work_sd *s, const json_t *o, const char *pfx,
    struct errmsg *e)
{
	json_t *fl = json_object_get(o, "openflags"), *v, *dd;
	char path[160], dpfx[96];
	int64_t th = 0, kb = 0;
	int across = 1;
	size_t i;

	snprintf(path, sizeof(path), "%sopenflags", pfx);
	if (!json_is_object(o))
		return (bad(e, pfx, "expected an object"));
	if (get_str(o, pfx, "sd", 0, &s->sd, e) != 0 ||
	    get_str(o, pfx, "lun", 0, &s->lun, e) != 0 ||
	    get_int(o, pfx, "threads", 0, 1, INT32_MAX, &th, e) != 0 ||
	    get_num(o, pfx, "rate_per_s", 0, 0, HUGE_VAL, &s->rate_per_s,
	    e) != 0 ||
	    get_bool(o, pfx, "create", 1, &s->create, e) != 0 ||
	    get_bool(o, pfx, "overwrite", 1, &s->overwrite, e) != 0 ||
	    get_bool(o, pfx, "mounted_ok", 1, &s->mounted_ok, e) != 0 ||
	    get_str(o, pfx, "engine", 1, &s->engine, e) != 0 ||
	    get_int(o, pfx, "dv_kb_bytes", 1, 0, 1 << 20, &kb, e) != 0 ||
	    get_bytes(o, pfx, "dv_size_bytes", 1, &s->dv_size_bytes, e) !=
	    0 ||
	    get_str(o, pfx, "journal_dir", 1, &s->journal_dir, e) != 0)
		return (-1);
	if ((dd = json_object_get(o, "dedup_group")) != NULL) {
		snprintf(dpfx, sizeof(dpfx), "%sdedup_group.", pfx);
		if (!json_is_object(dd))
			return (bad(e, dpfx, "expected an object"));
		if (get_bytes(dd, dpfx, "bytes", 0, &s->dedup_group_bytes,
		    e) != 0 || get_bytes(dd, dpfx, "rel_bytes", 0,
		    &s->dedup_rel_bytes, e) != 0)
			return (-1);
		if (s->dedup_rel_bytes >= s->dedup_group_bytes)
			return (bad(e, dpfx, "rel_bytes not below bytes"));
	}
	if ((dd = json_object_get(o, "dedup")) != NULL) {
		snprintf(dpfx, sizeof(dpfx), "%sdedup.", pfx);
		if (!json_is_object(dd))
			return (bad(e, dpfx, "expected an object"));
		if (get_num(dd, dpfx, "ratio", 0, 1, HUGE_VAL,
		    &s->dedup_ratio, e) != 0 || get_num(dd, dpfx, "sets", 0,
		    -HUGE_VAL, HUGE_VAL, &s->dedup_sets, e) != 0 ||
		    get_bool(dd, dpfx, "across", 1, &across, e) != 0)
			return (-1);
		s->has_dedup = 1;
		s->dedup_not_across = !across;
	}
	s->threads = (int)th;
	s->dv_kb_bytes = (uint64_t)kb;
	if (!json_is_array(fl))
		return (bad(e, path, fl == NULL ? "missing" :
		    "expected an array of strings"));
	json_array_foreach(fl, i, v) {
		if (!json_is_string(v))
			return (bad(e, path, "expected an array of strings"));
		strlist_add(&s->openflags, json_string_value(v));
	}
	return (0);
}

static int
wg_from(struct work_wg *g, const json_t *o, const char *pfx,
    const struct slave_work *w, struct errmsg *e)
{
	json_t *st;
	char path[160];
	int64_t streams = 0;
	int i, found = 0;
	int64_t n;

	if (!json_is_object(o))
		return (bad(e, pfx, "expected an object"));
	if (get_str(o, pfx, "wd", 0, &g->wd, e) != 0 ||
	    get_str(o, pfx, "sd", 0, &g->sd, e) != 0 ||
	    get_num(o, pfx, "skew_pct", 0, 0, 100, &g->skew_pct, e) != 0 ||
	    /* for-loop percentages reach here as the parmfile gave them */
	    get_num(o, pfx, "readpct", 0, -HUGE_VAL, HUGE_VAL, &g->readpct,
	    e) != 0 ||
	    get_num(o, pfx, "seekpct", 0, -HUGE_VAL, HUGE_VAL, &g->seekpct,
	    e) != 0 ||
	    get_bool(o, pfx, "seek_eof", 0, &g->seek_eof, e) != 0 ||
	    get_num(o, pfx, "rhpct", 0, -HUGE_VAL, HUGE_VAL, &g->rhpct,
	    e) != 0 ||
	    get_num(o, pfx, "whpct", 0, -HUGE_VAL, HUGE_VAL, &g->whpct,
	    e) != 0 ||
	    get_bytes(o, pfx, "low_bytes", 0, &g->low_bytes, e) != 0 ||
	    get_bytes(o, pfx, "high_bytes", 0, &g->high_bytes, e) != 0 ||
	    get_bytes(o, pfx, "hit_low_bytes", 0, &g->hit_low_bytes, e) != 0 ||
	    get_bytes(o, pfx, "hit_high_bytes", 0, &g->hit_high_bytes,
	    e) != 0 ||
	    get_bytes(o, pfx, "align_bytes", 0, &g->align_bytes, e) != 0 ||
	    get_bool(o, pfx, "hot", 1, &g->hot, e) != 0 ||
	    get_bytes(o, pfx, "wrap_end_bytes", 1, &g->wrap_end_bytes,
	    e) != 0 ||
	    get_bytes(o, pfx, "wrap_to_bytes", 1, &g->wrap_to_bytes, e) != 0 ||
	    get_num(o, pfx, "poisson_mid", 1, 0, 1e6, &g->poisson_mid,
	    e) != 0 || get_int(o, pfx, "streams", 1, 0, 1 << 20, &streams,
	    e) != 0)
		return (-1);
	n = 0;
	if (get_int(o, pfx, "priority", 1, INT32_MIN, INT32_MAX, &n, e) != 0)
		return (-1);
	g->priority = (int)n;
	g->streams = (int)streams;
	snprintf(path, sizeof(path), "%sxfer", pfx);
	if (xfer_from_json(&g->xfer, json_object_get(o, "xfer"), e) != 0) {
		char why[sizeof(e->text)];

		snprintf(why, sizeof(why), "%s", e->text);
		return (bad(e, path, why));
	}
	snprintf(path, sizeof(path), "%shigh_bytes", pfx);
	if (g->high_bytes <= g->low_bytes)
		return (bad(e, path, "not above low_bytes"));
	snprintf(path, sizeof(path), "%shit_high_bytes", pfx);
	if (g->hit_high_bytes < g->hit_low_bytes)
		return (bad(e, path, "below hit_low_bytes"));
	snprintf(path, sizeof(path), "%swrap_to_bytes", pfx);
	if (g->wrap_end_bytes != 0 && g->wrap_to_bytes >= g->wrap_end_bytes)
		return (bad(e, path, "not below wrap_end_bytes"));
	snprintf(path, sizeof(path), "%sstride_bytes", pfx);
	if ((st = json_object_get(o, "stride_bytes")) != NULL) {
		json_t *a = json_array_get(st, 0), *b = json_array_get(st, 1);

		if (!json_is_array(st) || json_array_size(st) != 2 ||
		    !json_is_integer(a) || !json_is_integer(b) ||
		    json_integer_value(a) < 0 ||
		    json_integer_value(b) < json_integer_value(a))
			return (bad(e, path, "expected [min, max] with 0 <= "
			    "min <= max"));
		g->has_stride = 1;
		g->stride_min_bytes = (uint64_t)json_integer_value(a);
		g->stride_max_bytes = (uint64_t)json_integer_value(b);
	}
	for (i = 0; i < w->nsds; i++)
		found |= strcmp(w->sds[i].sd, g->sd) == 0;
	snprintf(path, sizeof(path), "%ssd", pfx);
	if (!found)
		return (bad(e, path, "not one of the work's sds"));
	return (0);
}

static int
tree_from(struct work_fsd *t, const json_t *o, const char *pfx,
    struct errmsg *e)
{
	json_t *sizes = json_object_get(o, "size_bytes");
	json_t *pct = json_object_get(o, "size_pct"), *v;
	int64_t n;
	char path[160];
	size_t i;

	if (!json_is_object(o))
		return (bad(e, pfx, "expected an object"));
	n = 0;
	if (get_int(o, pfx, "depth", 0, 0, INT32_MAX, &n, e) != 0)
		return (-1);
	t->depth = (int)n;
	if (get_int(o, pfx, "width", 0, 0, INT32_MAX, &n, e) != 0)
		return (-1);
	t->width = (int)n;
	if (get_bytes(o, pfx, "files", 0, &t->files, e) != 0 ||
	    get_bool(o, pfx, "dist_all", 0, &t->dist_all, e) != 0 ||
	    get_bool(o, pfx, "size_avg", 0, &t->size_avg, e) != 0 ||
	    get_bytes(o, pfx, "totalsize_bytes", 0, &t->totalsize_bytes,
	    e) != 0 ||
	    get_bytes(o, pfx, "wss_bytes", 0, &t->wss_bytes, e) != 0)
		return (-1);
	snprintf(path, sizeof(path), "%ssize_bytes", pfx);
	if (!json_is_array(sizes) || json_array_size(sizes) < 1 ||
	    json_array_size(sizes) > 16)
		return (bad(e, path, "expected 1 to 16 sizes"));
	t->size_bytes = xcalloc(json_array_size(sizes), sizeof(uint64_t));
	t->nsizes = (int)json_array_size(sizes);
	json_array_foreach(sizes, i, v) {
		if (!json_is_integer(v) || json_integer_value(v) < 0)
			return (bad(e, path, "expected integers >= 0"));
		t->size_bytes[i] = (uint64_t)json_integer_value(v);
	}
	snprintf(path, sizeof(path), "%ssize_pct", pfx);
	if (!json_is_array(pct) || (json_array_size(pct) != 0 &&
	    json_array_size(pct) != (size_t)t->nsizes))
		return (bad(e, path, "expected none or one per size"));
	if (json_array_size(pct) > 0)
		t->size_pct = xcalloc((size_t)t->nsizes, sizeof(double));
	json_array_foreach(pct, i, v) {
		if (!json_is_number(v) || json_number_value(v) < 0 ||
		    json_number_value(v) > 100)
			return (bad(e, path, "expected percentages"));
		t->size_pct[i] = json_number_value(v);
	}
	return (0);
}

static int
fwg_from(struct work_fwg *g, const json_t *o, const char *pfx,
    struct errmsg *e)
{
	json_t *fl = json_object_get(o, "openflags"), *v;
	int64_t th = 0, first = 0, total = 0, kb = 0;
	char path[160], tpfx[80];
	size_t i;

	if (!json_is_object(o))
		return (bad(e, pfx, "expected an object"));
	if (get_str(o, pfx, "fwd", 0, &g->fwd, e) != 0 ||
	    get_str(o, pfx, "fsd", 0, &g->fsd, e) != 0 ||
	    get_str(o, pfx, "anchor", 0, &g->anchor, e) != 0 ||
	    get_str(o, pfx, "operation", 0, &g->operation, e) != 0 ||
	    get_num(o, pfx, "readpct", 0, -HUGE_VAL, HUGE_VAL, &g->readpct,
	    e) != 0 ||
	    get_num(o, pfx, "stopafter", 0, -HUGE_VAL, HUGE_VAL,
	    &g->stopafter, e) != 0 ||
	    get_int(o, pfx, "threads", 0, 1, INT32_MAX, &th, e) != 0 ||
	    get_int(o, pfx, "thread_first", 0, 0, INT32_MAX, &first, e) != 0 ||
	    get_int(o, pfx, "thread_total", 0, 1, INT32_MAX, &total, e) != 0 ||
	    get_num(o, pfx, "rate_per_s", 0, 0, HUGE_VAL, &g->rate_per_s,
	    e) != 0 ||
	    get_num(o, pfx, "skew_pct", 1, 0, 100, &g->skew_pct, e) != 0 ||
	    get_str(o, pfx, "fileio", 1, &g->fileio, e) != 0 ||
	    get_str(o, pfx, "fileselect", 1, &g->fileselect, e) != 0 ||
	    get_str(o, pfx, "target_anchor", 1, &g->target_anchor, e) != 0 ||
	    get_num(o, pfx, "poisson_midpoint", 1, -HUGE_VAL, HUGE_VAL,
	    &g->poisson_midpoint, e) != 0 ||
	    get_int(o, pfx, "dv_kb_bytes", 1, 0, 1 << 20, &kb, e) != 0 ||
	    get_bool(o, pfx, "clean_first", 1, &g->clean_first, e) != 0)
		return (-1);
	g->dv_kb_bytes = (uint64_t)kb;
	g->has_poisson_midpoint = json_object_get(o, "poisson_midpoint") !=
	    NULL;
	g->threads = (int)th;
	g->thread_first = (int)first;
	g->thread_total = (int)total;
	snprintf(path, sizeof(path), "%sthread_total", pfx);
	if (first + th > total)
		return (bad(e, path, "below thread_first + threads"));
	snprintf(path, sizeof(path), "%sxfer", pfx);
	if (xfer_from_json(&g->xfer, json_object_get(o, "xfer"), e) != 0) {
		char why[sizeof(e->text)];

		snprintf(why, sizeof(why), "%s", e->text);
		return (bad(e, path, why));
	}
	snprintf(path, sizeof(path), "%sopenflags", pfx);
	if (fl != NULL && !json_is_array(fl))
		return (bad(e, path, "expected an array of strings"));
	json_array_foreach(fl, i, v) {
		if (!json_is_string(v))
			return (bad(e, path, "expected an array of strings"));
		strlist_add(&g->openflags, json_string_value(v));
	}
	snprintf(tpfx, sizeof(tpfx), "%stree.", pfx);
	return (tree_from(&g->tree, json_object_get(o, "tree"), tpfx, e));
}

/* The fs part of a file-system WORK. */
static int
fs_from(struct slave_work *w, const json_t *o, struct errmsg *e)
{
	json_t *fwgs = json_object_get(o, "fwgs"), *fs, *v;
	char pfx[64];
	size_t i;

	w->is_fs = 1;
	if (!json_is_array(fwgs) || json_array_size(fwgs) == 0)
		return (bad(e, "fwgs", "expected a non-empty array"));
	fs = json_object_get(o, "fs");
	if (fs != NULL && !json_is_object(fs))
		return (bad(e, "fs", "expected an object"));
	if (fs != NULL && (get_bool(fs, "fs.", "clean", 1, &w->fs.clean,
	    e) != 0 || get_bool(fs, "fs.", "restart", 1, &w->fs.restart,
	    e) != 0 || get_bool(fs, "fs.", "dirs_only", 1, &w->fs.dirs_only,
	    e) != 0 || get_bool(fs, "fs.", "clean_only", 1,
	    &w->fs.clean_only, e) != 0 || get_bool(fs, "fs.", "complete", 1,
	    &w->fs.complete, e) != 0 || get_bool(fs, "fs.", "create_anchors",
	    1, &w->fs.create_anchors, e) != 0))
		return (-1);
	w->fwgs = xcalloc(json_array_size(fwgs), sizeof(*w->fwgs));
	json_array_foreach(fwgs, i, v) {
		snprintf(pfx, sizeof(pfx), "fwgs[%zu].", i);
		w->nfwgs++;
		if (fwg_from(&w->fwgs[i], v, pfx, e) != 0)
			return (-1);
	}
	return (0);
}

/* histogram_edges_us: at most 63 increasing integers > 0. */
static int
edges_from(struct slave_work *w, const json_t *edges, struct errmsg *e)
{
	json_t *v;
	size_t i;

	if (!json_is_array(edges) || json_array_size(edges) >=
	    VDBHIST_MAX_BUCKETS)
		return (bad(e, "histogram_edges_us", "expected an array of at "
		    "most 63 increasing integers"));
	if (json_array_size(edges) > 0)
		w->edges.n = (unsigned int)json_array_size(edges);
	json_array_foreach(edges, i, v) {
		if (!json_is_integer(v) || json_integer_value(v) <= 0 ||
		    (i > 0 && (uint64_t)json_integer_value(v) <=
		    w->edges.edge_us[i - 1]))
			return (bad(e, "histogram_edges_us", "expected an "
			    "array of at most 63 increasing integers"));
		w->edges.edge_us[i] = (uint64_t)json_integer_value(v);
	}
	return (0);
}

/* The run's dedup: {ratio, unit_bytes, sets, opt across}. */
static int
dedup_from(struct slave_work *w, const json_t *dd, struct errmsg *e)
{
	int64_t unit = 0;
	int across = 1;

	if (!json_is_object(dd))
		return (bad(e, "dedup", "expected an object"));
	if (get_num(dd, "dedup.", "ratio", 0, 1, HUGE_VAL, &w->dedup.ratio,
	    e) != 0 ||
	    get_int(dd, "dedup.", "unit_bytes", 0, 1, INT64_MAX, &unit,
	    e) != 0 ||
	    get_num(dd, "dedup.", "sets", 0, -HUGE_VAL, HUGE_VAL,
	    &w->dedup.sets, e) != 0 ||
	    get_bool(dd, "dedup.", "across", 1, &across, e) != 0)
		return (-1);
	w->dedup.unit_bytes = (uint64_t)unit;
	w->dedup.not_across = !across;
	w->has_dedup = 1;
	return (0);
}

int
work_from_json(struct slave_work *w, const json_t *o, struct errmsg *e)
{
	json_t *sds = json_object_get(o, "sds"), *wgs;
	json_t *edges = json_object_get(o, "histogram_edges_us"), *v, *dd;
	int64_t n;
	char pfx[64];
	size_t i;

	memset(w, 0, sizeof(*w));
	w->max_errors = 50;
	w->compratio = 1;
	vdbhist_edges_default(&w->edges);
	wgs = json_object_get(o, "wgs");
	if (!json_is_object(o))
		return (bad(e, "work", "expected an object"));
	if (!json_is_array(sds))
		return (bad(e, "sds", "expected an array"));
	if (json_object_get(o, "fwgs") != NULL)
		wgs = json_array();	/* a file-system run's: none */
	else if (!json_is_array(wgs))
		return (bad(e, "wgs", "expected an array"));
	else
		json_incref(wgs);
	n = w->max_errors;
	if (get_int(o, "", "max_errors", 1, 0, INT64_MAX, &n, e) != 0)
		goto fail;
	w->max_errors = n;
	if (get_bool(o, "", "hold_skew", 1, &w->hold_skew, e) != 0)
		goto fail;
	n = 0;
	if (get_int(o, "", "skew_sync_ms", 1, 0, 10000, &n, e) != 0)
		goto fail;
	w->skew_sync_ms = (int)n;
	if (get_bool(o, "", "recovery", 1, &w->recovery, e) != 0)
		goto fail;
	if (get_bool(o, "", "remove_device", 1, &w->remove_device, e) != 0)
		goto fail;
	n = 0;
	if (get_int(o, "", "slave_index", 1, 0, 1 << 20, &n, e) != 0)
		goto fail;
	w->slave_index = (int)n;
	n = 0;
	if (get_int(o, "", "distribution", 1, 0, 16, &n, e) != 0)
		goto fail;
	w->distribution = (int)n;
	n = 0;
	if (get_int(o, "", "validate", 1, 0, 0xffff, &n, e) != 0)
		goto fail;
	w->validate = (int)n;
	n = 0;
	if (get_int(o, "", "journal", 1, 0, JOURNAL_ALL, &n, e) != 0)
		goto fail;
	w->journal = (int)n;
	if (get_num(o, "", "compratio", 1, 1, HUGE_VAL, &w->compratio, e) != 0)
		goto fail;
	if (edges != NULL && edges_from(w, edges, e) != 0)
		goto fail;
	n = -1;
	if (get_int(o, "", "compressionseed", 1, 0, INT64_MAX, &n, e) != 0)
		goto fail;
	w->has_compseed = n >= 0;
	if (get_str(o, "", "pattern_file", 1, &w->pattern_file, e) != 0)
		goto fail;
	w->compseed = n >= 0 ? (uint64_t)n : 0;
	if ((dd = json_object_get(o, "dedup")) != NULL &&
	    dedup_from(w, dd, e) != 0)
		goto fail;
	w->sds = xcalloc(json_array_size(sds) + 1, sizeof(*w->sds));
	json_array_foreach(sds, i, v) {
		snprintf(pfx, sizeof(pfx), "sds[%zu].", i);
		w->nsds++;
		if (sd_from(&w->sds[i], v, pfx, e) != 0)
			goto fail;
	}
	w->wgs = xcalloc(json_array_size(wgs) + 1, sizeof(*w->wgs));
	json_array_foreach(wgs, i, v) {
		snprintf(pfx, sizeof(pfx), "wgs[%zu].", i);
		w->nwgs++;
		if (wg_from(&w->wgs[i], v, pfx, w, e) != 0)
			goto fail;
	}
	if (json_object_get(o, "fwgs") != NULL && fs_from(w, o, e) != 0)
		goto fail;
	json_decref(wgs);
	return (0);
fail:
	json_decref(wgs);
	slave_work_clear(w);
	return (-1);
}

void
slave_work_clear(struct slave_work *w)
{
	int i;

	for (i = 0; i < w->nsds; i++) {
		free(w->sds[i].sd);
		free(w->sds[i].lun);
		free(w->sds[i].engine);
		free(w->sds[i].journal_dir);
		strlist_clear(&w->sds[i].openflags);
	}
	for (i = 0; i < w->nwgs; i++) {
		free(w->wgs[i].wd);
		free(w->wgs[i].sd);
		xfer_clear(&w->wgs[i].xfer);
	}
	for (i = 0; i < w->nfwgs; i++) {
		struct work_fwg *g = &w->fwgs[i];

		free(g->fwd);
		free(g->fsd);
		free(g->anchor);
		free(g->operation);
		free(g->fileio);
		free(g->fileselect);
		free(g->target_anchor);
		xfer_clear(&g->xfer);
		strlist_clear(&g->openflags);
		free(g->tree.size_bytes);
		free(g->tree.size_pct);
	}
	free(w->sds);
	free(w->wgs);
	free(w->fwgs);
	free(w->pattern_file);
	w->pattern_file = NULL;
	w->sds = NULL;
	w->wgs = NULL;
	w->fwgs = NULL;
	w->nsds = w->nwgs = w->nfwgs = 0;
}
