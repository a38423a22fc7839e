/* SPDX-License-Identifier: MIT */
/*
 * Model codec. Encoding cannot fail; decoding validates shapes and types
 * (values were validated by the parser that built the model on the other
 * side, but a peer is never trusted to have done so).
 */
#include "model_json.h"

#include <stdlib.h>
#include <string.h>

#include "xmalloc.h"

/* ---- encoding ---------------------------------------------------------- */

/* A value list: numbers stay numbers, alpha stays text. */
static json_t *
pvals_to_json(const struct pvals *p)
{
	json_t *a = json_array();
	int i;

	for (i = 0; i < p->n; i++) {
		if (p->v[i].is_num)
			json_array_append_new(a, json_real(p->v[i].num));
		else
			json_array_append_new(a, json_string(p->v[i].str));
	}
	return (a);
}

/* A bag as an object of keyword -> value list. */
static json_t *
bag_to_json(const struct bag *b)
{
	json_t *o = json_object();
	const struct bag_item *it;

	TAILQ_FOREACH(it, b, entry)
		json_object_set_new(o, it->key, pvals_to_json(&it->vals));
	return (o);
}

/* A list of strings. */
static json_t *
strlist_to_json(const struct strlist *l)
{
	json_t *a = json_array();
	int i;

	for (i = 0; i < l->n; i++)
		json_array_append_new(a, json_string(l->v[i]));
	return (a);
}

/* An array of doubles. */
static json_t *
doubles_to_json(const double *v, int n)
{
	json_t *a = json_array();
	int i;

	for (i = 0; i < n; i++)
		json_array_append_new(a, json_real(v[i]));
	return (a);
}

/* A nullable string. */
static json_t *
str_or_null(const char *s)
{
	return (s != NULL ? json_string(s) : json_null());
}

static const char *const xfer_kinds[] = { "single", "dist", "range" };
static const char *const dists[] = {
	"exponential", "uniform", "deterministic"
};

/* Transfer sizes. */
json_t *
xfer_to_json(const struct xfer *x)
{
	json_t *sizes = json_array();
	int i;

	for (i = 0; i < x->n; i++)
		json_array_append_new(sizes, json_integer(
		    (json_int_t)x->size_bytes[i]));
	return (json_pack("{s:s,s:o,s:o,s:I,s:I,s:I}", "kind",
	    xfer_kinds[x->kind], "size_bytes", sizes, "pct",
	    x->pct != NULL ? doubles_to_json(x->pct, x->n) : json_array(),
	    "min_bytes", (json_int_t)x->min_bytes,
	    "max_bytes", (json_int_t)x->max_bytes,
	    "align_bytes", (json_int_t)x->align_bytes));
}

/* The general parameters. */
static json_t *
general_to_json(const struct general *g)
{
	json_t *edges = json_array();
	unsigned int i;

	for (i = 0; i < g->histogram.n; i++)
		json_array_append_new(edges,
		    json_integer((json_int_t)g->histogram.edge_us[i]));
	return (json_pack("{s:f,s:I,s:i,s:i,s:b,s:o,s:b,s:o}",
	    "compratio", g->compratio,
	    "formatxfersize_bytes", (json_int_t)g->formatxfersize_bytes,
	    "formatsds", g->formatsds, "port", g->port,
	    "histogram_set", g->histogram_set, "histogram_edges_us", edges,
	    "histogram_suppress", g->histogram.suppress,
	    "bag", bag_to_json(&g->bag)));
}

/* One host. */
static json_t *
hd_to_json(const struct hd *h)
{
	return (json_pack("{s:s,s:o,s:i,s:o,s:o,s:o,s:i,s:o}",
	    "name", h->name, "system", str_or_null(h->system),
	    "jvms", h->jvms, "shell", str_or_null(h->shell),
	    "user", str_or_null(h->user), "vdbench", str_or_null(h->vdbench),
	    "clients", h->clients, "bag", bag_to_json(&h->bag)));
}

/* One sd. */
static json_t *
sd_to_json(const struct sd *s)
{
	json_t *luns = json_array();
	int i;

	for (i = 0; i < s->nluns; i++)
		json_array_append_new(luns, json_pack("{s:s,s:s}",
		    "host", s->luns[i].host, "lun", s->luns[i].lun));
	return (json_pack("{s:s,s:o,s:I,s:I,s:i,s:I,s:I,s:I,s:b,s:[f,f],"
	    "s:o,s:o}",
	    "name", s->name, "luns", luns,
	    "size_bytes", (json_int_t)s->size_bytes,
	    "size_divisor", (json_int_t)s->size_divisor,
	    "threads", (int)s->threads,
	    "hitarea_bytes", (json_int_t)s->hitarea_bytes,
	    "offset_bytes", (json_int_t)s->offset_bytes,
	    "align_bytes", (json_int_t)s->align_bytes,
	    "range_set", s->range_set, "range", s->range[0], s->range[1],
	    "openflags", strlist_to_json(&s->openflags),
	    "bag", bag_to_json(&s->bag)));
}

/* One wd. */
static json_t *
wd_to_json(const struct wd *w)
{
	return (json_pack("{s:s,s:o,s:b,s:f,s:o,s:f,s:f,s:b,s:f,s:f,s:b,"
	    "s:[f,f],s:o,s:o,s:b,s:f,s:b,s:i,s:o}",
	    "name", w->name, "sds", strlist_to_json(&w->sds),
	    "skew_set", w->skew_set, "skew_pct", w->skew_pct,
	    "xfer", xfer_to_json(&w->xfer), "readpct", w->readpct,
	    "seekpct", w->seekpct, "seek_eof", w->seek_eof,
	    "rhpct", w->rhpct, "whpct", w->whpct,
	    "range_set", w->range_set, "range", w->range[0], w->range[1],
	    "hosts", strlist_to_json(&w->hosts),
	    "openflags", strlist_to_json(&w->openflags),
	    "iorate_set", w->iorate_set, "iorate", w->iorate,
	    "priority_set", w->priority_set, "priority", w->priority,
	    "bag", bag_to_json(&w->bag)));
}

/* One rd. */
static json_t *
rd_to_json(const struct rd *r)
{
	json_t *loops = json_array();
	int i;

	for (i = 0; i < r->nloops; i++) {
		const struct forloop *l = &r->loops[i];
		json_t *vals;

		if (l->strs != NULL) {
			struct strlist sl = { l->n, l->strs, 0 };

			vals = strlist_to_json(&sl);
		} else
			vals = doubles_to_json(l->vals, l->n);
		json_array_append_new(loops, json_pack("{s:s,s:o}",
		    "kind", loop_label(l->kind), "values", vals));
	}
	return (json_pack("{s:s,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:I,s:I,s:I,"
	    "s:b,s:I,s:s,s:o,s:o,s:o,s:o}",
	    "name", r->name, "wds", strlist_to_json(&r->wds),
	    "sds", strlist_to_json(&r->sds),
	    "fwds", strlist_to_json(&r->fwds),
	    "fsds", strlist_to_json(&r->fsds),
	    "iorate", doubles_to_json(r->iorate, r->iorate_n),
	    "fwdrate", doubles_to_json(r->fwdrate, r->fwdrate_n),
	    "curve_pct", r->curve_pct != NULL ?
	    doubles_to_json(r->curve_pct, r->ncurve) : json_null(),
	    "elapsed_s", (json_int_t)r->elapsed_s,
	    "interval_s", (json_int_t)r->interval_s,
	    "warmup_s", (json_int_t)r->warmup_s, "warmup_set", r->warmup_set,
	    "pause_s", (json_int_t)r->pause_s,
	    "distribution", dists[r->distribution], "loops", loops,
	    "openflags", strlist_to_json(&r->openflags),
	    "format", strlist_to_json(&r->format),
	    "bag", bag_to_json(&r->bag)));
}

/* The whole model. */
json_t *
model_to_json(const struct model *m)
{
	json_t *hds = json_array(), *sds = json_array(), *wds = json_array();
	json_t *rds = json_array(), *fsds = json_array(), *fwds = json_array();
	const struct hd *h;
	const struct sd *s;
	const struct wd *w;
	const struct rd *r;
	const struct fsd *f;
	const struct fwd *fw;

	TAILQ_FOREACH(h, &m->hds, entry)
		json_array_append_new(hds, hd_to_json(h));
	TAILQ_FOREACH(s, &m->sds, entry)
		json_array_append_new(sds, sd_to_json(s));
	TAILQ_FOREACH(w, &m->wds, entry)
		json_array_append_new(wds, wd_to_json(w));
	TAILQ_FOREACH(r, &m->rds, entry)
		json_array_append_new(rds, rd_to_json(r));
	TAILQ_FOREACH(f, &m->fsds, entry) {
		json_t *sizes = json_array();
		int i;

		for (i = 0; i < f->nsizes; i++)
			json_array_append_new(sizes, json_integer(
			    (json_int_t)f->size_bytes[i]));
		json_array_append_new(fsds, json_pack("{s:s,s:o,s:i,s:i,s:I,"
		    "s:b,s:o,s:o,s:b,s:I,s:I,s:b,s:o}",
		    "name", f->name, "anchor", str_or_null(f->anchor),
		    "depth", f->depth, "width", f->width,
		    "files", (json_int_t)f->files, "dist_all", f->dist_all,
		    "size_bytes", sizes, "size_pct", f->size_pct != NULL ?
		    doubles_to_json(f->size_pct, f->nsizes) : json_null(),
		    "size_avg", f->size_avg,
		    "totalsize_bytes", (json_int_t)f->totalsize_bytes,
		    "wss_bytes", (json_int_t)f->wss_bytes, "shared", f->shared,
		    "bag", bag_to_json(&f->bag)));
	}
	TAILQ_FOREACH(fw, &m->fwds, entry)
		json_array_append_new(fwds, json_pack("{s:s,s:o,s:s,s:b,s:f,"
		    "s:f,s:s,s:s,s:b,s:b,s:o,s:b,s:f,s:i,s:o,s:o,s:o,s:o}",
		    "name", fw->name, "fsds", strlist_to_json(&fw->fsds),
		    "operation", fw->operation, "readpct_set", fw->readpct_set,
		    "readpct", fw->readpct, "stopafter", fw->stopafter,
		    "fileselect", fw->fileselect, "fileio", fw->fileio,
		    "fileio_shared", fw->fileio_shared, "fileio_delete",
		    fw->fileio_delete, "xfer", xfer_to_json(&fw->xfer),
		    "skew_set", fw->skew_set, "skew_pct", fw->skew_pct,
		    "threads", fw->threads, "target", str_or_null(fw->target),
		    "hosts", strlist_to_json(&fw->hosts),
		    "openflags", strlist_to_json(&fw->openflags),
		    "bag", bag_to_json(&fw->bag)));
	return (json_pack("{s:i,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o}",
	    "model_version", 1, "general", general_to_json(&m->general),
	    "hd", hds, "sd", sds, "wd", wds, "rd", rds, "fsd", fsds,
	    "fwd", fwds, "wd_default", m->wd_default != NULL ?
	    wd_to_json(m->wd_default) : json_null()));
}

/* ---- decoding ---------------------------------------------------------- */

/* Fail with the path of the offending field. */
static int
bad(struct errmsg *e, const char *path, const json_error_t *je)
{
	errmsg_set(e, NULL, 0, 0, "model: %s: %s", path,
	    je != NULL ? je->text : "wrong type");
	return (-1);
}

/* A number, integer or real. */
static int
get_num(const json_t *j, double *out)
{
	if (!json_is_number(j))
		return (-1);
	*out = json_number_value(j);
	return (0);
}

/* A value list. */
static int
pvals_from_json(struct pvals *p, const json_t *a)
{
	size_t i;
	json_t *v;

	memset(p, 0, sizeof(*p));
	if (!json_is_array(a))
		return (-1);
	p->v = xcalloc(json_array_size(a) + 1, sizeof(*p->v));
	json_array_foreach(a, i, v) {
		struct pval *pv = &p->v[p->n];
		char buf[64];

		if (json_is_string(v)) {
			pv->str = xstrdup(json_string_value(v));
		} else if (get_num(v, &pv->num) == 0) {
			pv->is_num = 1;
			snprintf(buf, sizeof(buf), "%.17g", pv->num);
			pv->str = xstrdup(buf);
		} else
			return (-1);
		p->n++;
	}
	return (0);
}

/* A bag. */
static int
bag_from_json(struct bag *b, const json_t *o)
{
	const char *key;
	json_t *v;

	if (!json_is_object(o))
		return (-1);
	json_object_foreach((json_t *)o, key, v) {
		struct pvals p;

		if (pvals_from_json(&p, v) != 0) {
			pvals_clear(&p);
			return (-1);
		}
		bag_set(b, key, &p);
		pvals_clear(&p);
	}
	return (0);
}

/* A list of strings. */
static int
strlist_from_json(struct strlist *l, const json_t *a)
{
	size_t i;
	json_t *v;

	if (!json_is_array(a))
		return (-1);
	json_array_foreach(a, i, v) {
		if (!json_is_string(v))
			return (-1);
		strlist_add(l, json_string_value(v));
	}
	return (0);
}

/* An array of numbers into a new array; *n gets its length. */
static int
doubles_from_json(double **out, int *n, const json_t *a)
{
	size_t i;
	json_t *v;

	*out = NULL;
	*n = 0;
	if (json_is_null(a))
		return (0);
	if (!json_is_array(a))
		return (-1);
	if (json_array_size(a) == 0)
		return (0);
	*out = xcalloc(json_array_size(a), sizeof(double));
	json_array_foreach(a, i, v) {
		if (get_num(v, &(*out)[i]) != 0)
			return (-1);
	}
	*n = (int)json_array_size(a);
	return (0);
}

/* A nullable string into a new copy. */
static int
nullstr_from_json(char **out, const json_t *j)
{
	*out = NULL;
	if (j == NULL || json_is_null(j))
		return (0);
	if (!json_is_string(j))
		return (-1);
	*out = xstrdup(json_string_value(j));
	return (0);
}

/* Index of s in names[n], or -1. */
static int
lookup(const char *const *names, int n, const char *s)
{
	int i;

	for (i = 0; i < n; i++) {
		if (strcmp(names[i], s) == 0)
			return (i);
	}
	return (-1);
}

/* Transfer sizes. */
int
xfer_from_json(struct xfer *x, const json_t *j, struct errmsg *e)
{
	json_t *sizes, *pct, *v;
	const char *kind;
	json_int_t mn, mx, al;
	json_error_t je;
	size_t i;
	int k, np;

	memset(x, 0, sizeof(*x));
	if (json_unpack_ex((json_t *)j, &je, 0, "{s:s,s:o,s:o,s:I,s:I,s:I}",
	    "kind", &kind, "size_bytes", &sizes, "pct", &pct, "min_bytes", &mn,
	    "max_bytes", &mx, "align_bytes", &al) != 0)
		return (bad(e, "xfer", &je));
	if ((k = lookup(xfer_kinds, 3, kind)) < 0 || !json_is_array(sizes))
		return (bad(e, "xfer.kind", NULL));
	x->kind = (enum xfer_kind)k;
	x->min_bytes = (uint64_t)mn;
	x->max_bytes = (uint64_t)mx;
	x->align_bytes = (uint64_t)al;
	x->size_bytes = xcalloc(json_array_size(sizes) + 1, sizeof(uint64_t));
	json_array_foreach(sizes, i, v) {
		if (!json_is_integer(v) || json_integer_value(v) < 0)
			return (bad(e, "xfer.size_bytes", NULL));
		x->size_bytes[i] = (uint64_t)json_integer_value(v);
	}
	x->n = (int)json_array_size(sizes);
	if (doubles_from_json(&x->pct, &np, pct) != 0 ||
	    (np != 0 && np != x->n))
		return (bad(e, "xfer.pct", NULL));
	return (0);
}

/* General parameters. */
static int
general_from_json(struct general *g, const json_t *j, struct errmsg *e)
{
	json_int_t fx;
	json_t *edges, *bag, *v;
	json_error_t je;
	size_t i;

	if (json_unpack_ex((json_t *)j, &je, 0,
	    "{s:F,s:I,s:i,s:i,s:b,s:o,s:b,s:o}",
	    "compratio", &g->compratio, "formatxfersize_bytes", &fx,
	    "formatsds", &g->formatsds, "port", &g->port,
	    "histogram_set", &g->histogram_set, "histogram_edges_us", &edges,
	    "histogram_suppress", &g->histogram.suppress, "bag", &bag) != 0)
		return (bad(e, "general", &je));
	g->formatxfersize_bytes = (uint64_t)fx;
	if (!json_is_array(edges) ||
	    json_array_size(edges) >= VDBHIST_MAX_BUCKETS)
		return (bad(e, "general.histogram_edges_us", NULL));
	g->histogram.n = (unsigned int)json_array_size(edges);
	json_array_foreach(edges, i, v) {
		if (!json_is_integer(v) || json_integer_value(v) <= 0)
			return (bad(e, "general.histogram_edges_us", NULL));
		g->histogram.edge_us[i] = (uint64_t)json_integer_value(v);
	}
	if (bag_from_json(&g->bag, bag) != 0)
		return (bad(e, "general.bag", NULL));
	return (0);
}

/* One host. */
static struct hd *
hd_from_json(const json_t *j, struct errmsg *e)
{
	json_t *sys, *shell, *user, *vdb, *bag;
	const char *name;
	json_error_t je;
	struct hd *h;

	if (json_unpack_ex((json_t *)j, &je, 0, "{s:s,s:o,s:o,s:o,s:o,s:o}",
	    "name", &name, "system", &sys, "shell", &shell, "user", &user,
	    "vdbench", &vdb, "bag", &bag) != 0) {
		bad(e, "hd", &je);
		return (NULL);
	}
	h = hd_new(name);
	if (json_unpack_ex((json_t *)j, &je, 0, "{s:i,s:i}", "jvms", &h->jvms,
	    "clients", &h->clients) != 0 ||
	    nullstr_from_json(&h->system, sys) != 0 ||
	    nullstr_from_json(&h->shell, shell) != 0 ||
	    nullstr_from_json(&h->user, user) != 0 ||
	    nullstr_from_json(&h->vdbench, vdb) != 0 ||
	    bag_from_json(&h->bag, bag) != 0) {
		bad(e, "hd", NULL);
		hd_free(h);
		return (NULL);
	}
	return (h);
}

/* One sd. */
static struct sd *
sd_from_json(const json_t *j, struct errmsg *e)
{
	json_int_t size, div, hit, off, al;
	json_t *luns, *flags, *bag, *v;
	const char *name;
	json_error_t je;
	struct sd *s;
	int threads;
	size_t i;

	if (json_unpack_ex((json_t *)j, &je, 0, "{s:s,s:o,s:I,s:I,s:i,s:I,"
	    "s:I,s:I,s:o,s:o}", "name", &name, "luns", &luns,
	    "size_bytes", &size, "size_divisor", &div, "threads", &threads,
	    "hitarea_bytes", &hit, "offset_bytes", &off, "align_bytes", &al,
	    "openflags", &flags, "bag", &bag) != 0) {
		bad(e, "sd", &je);
		return (NULL);
	}
	s = sd_new(name);
	s->size_bytes = (uint64_t)size;
	s->size_divisor = (uint64_t)div;
	s->threads = (uint32_t)threads;
	s->hitarea_bytes = (uint64_t)hit;
	s->offset_bytes = (uint64_t)off;
	s->align_bytes = (uint64_t)al;
	if (json_unpack_ex((json_t *)j, &je, 0, "{s:b,s:[F,F]}", "range_set",
	    &s->range_set, "range", &s->range[0], &s->range[1]) != 0 ||
	    !json_is_array(luns) || strlist_from_json(&s->openflags, flags) ||
	    bag_from_json(&s->bag, bag) != 0)
		goto fail;
	s->luns = xcalloc(json_array_size(luns) + 1, sizeof(*s->luns));
	json_array_foreach(luns, i, v) {
		const char *host, *lun;

		if (json_unpack(v, "{s:s,s:s}", "host", &host, "lun", &lun))
			goto fail;
		s->luns[i].host = xstrdup(host);
		s->luns[i].lun = xstrdup(lun);
		s->nluns++;
	}
	return (s);
fail:
	bad(e, "sd", NULL);
	sd_free(s);
	return (NULL);
}

/* One wd. */
static struct wd *
wd_from_json(const json_t *j, struct errmsg *e)
{
	json_t *sds, *xfer, *hosts, *flags, *bag;
	const char *name;
	json_error_t je;
	struct wd *w;

	if (json_unpack_ex((json_t *)j, &je, 0, "{s:s,s:o,s:o,s:o,s:o,s:o}",
	    "name", &name, "sds", &sds, "xfer", &xfer, "hosts", &hosts,
	    "openflags", &flags, "bag", &bag) != 0) {
		bad(e, "wd", &je);
		return (NULL);
	}
	w = wd_new(name);
	xfer_clear(&w->xfer);
	if (json_unpack_ex((json_t *)j, &je, 0, "{s:b,s:F,s:F,s:F,s:b,s:F,"
	    "s:F,s:b,s:[F,F],s:b,s:F,s:b,s:i}",
	    "skew_set", &w->skew_set, "skew_pct", &w->skew_pct,
	    "readpct", &w->readpct, "seekpct", &w->seekpct,
	    "seek_eof", &w->seek_eof, "rhpct", &w->rhpct, "whpct", &w->whpct,
	    "range_set", &w->range_set, "range", &w->range[0], &w->range[1],
	    "iorate_set", &w->iorate_set, "iorate", &w->iorate,
	    "priority_set", &w->priority_set, "priority", &w->priority) != 0) {
		bad(e, "wd", &je);
		goto fail;
	}
	if (xfer_from_json(&w->xfer, xfer, e) != 0)
		goto fail;
	if (strlist_from_json(&w->sds, sds) != 0 ||
	    strlist_from_json(&w->hosts, hosts) != 0 ||
	    strlist_from_json(&w->openflags, flags) != 0 ||
	    bag_from_json(&w->bag, bag) != 0) {
		bad(e, "wd", NULL);
		goto fail;
	}
	return (w);
fail:
	wd_free(w);
	return (NULL);
}

/* One rd. */
static struct rd *
rd_from_json(const json_t *j, struct errmsg *e)
{
	json_t *wds, *sds, *fwds, *fsds, *io, *fr, *curve, *loops, *flags;
	json_t *format, *bag, *l;
	json_int_t el, in, wu, pa;
	const char *name, *dist;
	json_error_t je;
	struct rd *r;
	size_t i;
	int k;

	if (json_unpack_ex((json_t *)j, &je, 0, "{s:s,s:o,s:o,s:o,s:o,s:o,"
	    "s:o,s:o,s:I,s:I,s:I,s:I,s:s,s:o,s:o,s:o,s:o}",
	    "name", &name, "wds", &wds, "sds", &sds, "fwds", &fwds,
	    "fsds", &fsds, "iorate", &io, "fwdrate", &fr, "curve_pct", &curve,
	    "elapsed_s", &el, "interval_s", &in, "warmup_s", &wu,
	    "pause_s", &pa, "distribution", &dist, "loops", &loops,
	    "openflags", &flags, "format", &format, "bag", &bag) != 0) {
		bad(e, "rd", &je);
		return (NULL);
	}
	r = rd_new(name);
	r->elapsed_s = (uint64_t)el;
	r->interval_s = (uint64_t)in;
	r->warmup_s = (uint64_t)wu;
	r->pause_s = (uint64_t)pa;
	json_unpack((json_t *)j, "{s?b}", "warmup_set", &r->warmup_set);
	if ((k = lookup(dists, 3, dist)) < 0)
		goto fail;
	r->distribution = (enum rd_dist)k;
	if (strlist_from_json(&r->wds, wds) != 0 ||
	    strlist_from_json(&r->sds, sds) != 0 ||
	    strlist_from_json(&r->fwds, fwds) != 0 ||
	    strlist_from_json(&r->fsds, fsds) != 0 ||
	    doubles_from_json(&r->iorate, &r->iorate_n, io) != 0 ||
	    doubles_from_json(&r->fwdrate, &r->fwdrate_n, fr) != 0 ||
	    doubles_from_json(&r->curve_pct, &r->ncurve, curve) != 0 ||
	    strlist_from_json(&r->openflags, flags) != 0 ||
	    strlist_from_json(&r->format, format) != 0 ||
	    bag_from_json(&r->bag, bag) != 0 || !json_is_array(loops))
		goto fail;
	r->loops = xcalloc(json_array_size(loops) + 1, sizeof(*r->loops));
	json_array_foreach(loops, i, l) {
		struct forloop *fl = &r->loops[r->nloops];
		const char *kind;
		json_t *vals;

		if (json_unpack(l, "{s:s,s:o}", "kind", &kind, "values", &vals))
			goto fail;
		for (k = 0; k < LOOP_NKINDS; k++) {
			if (strcmp(loop_label((enum loop_kind)k), kind) == 0)
				break;
		}
		if (k == LOOP_NKINDS || !json_is_array(vals))
			goto fail;
		fl->kind = (enum loop_kind)k;
		r->nloops++;
		if (fl->kind == LOOP_OPERATION) {
			struct strlist sl = { 0, NULL, 0 };

			if (strlist_from_json(&sl, vals) != 0) {
				strlist_clear(&sl);
				goto fail;
			}
			fl->n = sl.n;
			fl->strs = sl.v;
		} else if (doubles_from_json(&fl->vals, &fl->n, vals) != 0)
			goto fail;
	}
	return (r);
fail:
	bad(e, "rd", NULL);
	rd_free(r);
	return (NULL);
}

/* The typed fields of an fsd. */
static int
fsd_fields_from_json(struct fsd *f, const json_t *j)
{
	json_int_t files, total, wss;
	json_t *sizes, *pct, *v;
	size_t i;
	int np;

	if (json_unpack((json_t *)j, "{s:i,s:i,s:I,s:b,s:o,s:o,s:b,s:I,s:I,"
	    "s:b}", "depth", &f->depth, "width", &f->width, "files", &files,
	    "dist_all", &f->dist_all, "size_bytes", &sizes, "size_pct", &pct,
	    "size_avg", &f->size_avg, "totalsize_bytes", &total, "wss_bytes",
	    &wss, "shared", &f->shared) != 0 || !json_is_array(sizes) ||
	    json_array_size(sizes) == 0 || files < 0 || total < 0 || wss < 0)
		return (-1);
	f->files = (uint64_t)files;
	f->totalsize_bytes = (uint64_t)total;
	f->wss_bytes = (uint64_t)wss;
	free(f->size_bytes);
	f->size_bytes = xcalloc(json_array_size(sizes), sizeof(uint64_t));
	f->nsizes = (int)json_array_size(sizes);
	json_array_foreach(sizes, i, v) {
		if (!json_is_integer(v) || json_integer_value(v) < 0)
			return (-1);
		f->size_bytes[i] = (uint64_t)json_integer_value(v);
	}
	if (doubles_from_json(&f->size_pct, &np, pct) != 0 ||
	    (np != 0 && np != f->nsizes))
		return (-1);
	return (0);
}

/* The typed fields of an fwd. */
static int
fwd_fields_from_json(struct fwd *f, const json_t *j, struct errmsg *e)
{
	const char *op, *sel, *io;
	json_t *xfer, *target, *hosts, *flags;

	if (json_unpack((json_t *)j, "{s:s,s:b,s:F,s:F,s:s,s:s,s:b,s:b,s:o,"
	    "s:b,s:F,s:i,s:o,s:o,s:o}", "operation", &op, "readpct_set",
	    &f->readpct_set, "readpct", &f->readpct, "stopafter",
	    &f->stopafter, "fileselect", &sel, "fileio", &io, "fileio_shared",
	    &f->fileio_shared, "fileio_delete", &f->fileio_delete, "xfer",
	    &xfer, "skew_set", &f->skew_set, "skew_pct", &f->skew_pct,
	    "threads", &f->threads, "target", &target, "hosts", &hosts,
	    "openflags", &flags) != 0)
		return (-1);
	free(f->operation);
	free(f->fileselect);
	free(f->fileio);
	f->operation = xstrdup(op);
	f->fileselect = xstrdup(sel);
	f->fileio = xstrdup(io);
	xfer_clear(&f->xfer);
	if (xfer_from_json(&f->xfer, xfer, e) != 0 ||
	    nullstr_from_json(&f->target, target) != 0 ||
	    strlist_from_json(&f->hosts, hosts) != 0 ||
	    strlist_from_json(&f->openflags, flags) != 0)
		return (-1);
	return (0);
}

/* The whole model; NULL with e filled on any bad field. */
struct model *
model_from_json(const json_t *j, struct errmsg *e)
{
	json_t *gen, *hds, *sds, *wds, *rds, *fsds, *fwds, *wdd, *v;
	struct model *m;
	json_error_t je;
	int version;
	size_t i;

	if (json_unpack_ex((json_t *)j, &je, 0, "{s:i,s:o,s:o,s:o,s:o,s:o,"
	    "s:o,s:o,s:o}", "model_version", &version, "general", &gen,
	    "hd", &hds, "sd", &sds, "wd", &wds, "rd", &rds, "fsd", &fsds,
	    "fwd", &fwds, "wd_default", &wdd) != 0) {
		bad(e, "model", &je);
		return (NULL);
	}
	if (version != 1) {
		errmsg_set(e, NULL, 0, 0, "model: unknown model_version %d",
		    version);
		return (NULL);
	}
	m = model_new();
	if (general_from_json(&m->general, gen, e) != 0)
		goto fail;
	if (!json_is_array(hds) || !json_is_array(sds) || !json_is_array(wds)
	    || !json_is_array(rds) || !json_is_array(fsds) ||
	    !json_is_array(fwds)) {
		bad(e, "model", NULL);
		goto fail;
	}
	json_array_foreach(hds, i, v) {
		struct hd *h = hd_from_json(v, e);

		if (h == NULL)
			goto fail;
		TAILQ_INSERT_TAIL(&m->hds, h, entry);
	}
	json_array_foreach(sds, i, v) {
		struct sd *s = sd_from_json(v, e);

		if (s == NULL)
			goto fail;
		TAILQ_INSERT_TAIL(&m->sds, s, entry);
	}
	json_array_foreach(wds, i, v) {
		struct wd *w = wd_from_json(v, e);

		if (w == NULL)
			goto fail;
		TAILQ_INSERT_TAIL(&m->wds, w, entry);
	}
	json_array_foreach(rds, i, v) {
		struct rd *r = rd_from_json(v, e);

		if (r == NULL)
			goto fail;
		TAILQ_INSERT_TAIL(&m->rds, r, entry);
	}
	json_array_foreach(fsds, i, v) {
		const char *name;
		json_t *anchor, *bag;
		struct fsd *f;

		if (json_unpack(v, "{s:s,s:o,s:o}", "name", &name, "anchor",
		    &anchor, "bag", &bag) != 0) {
			bad(e, "fsd", NULL);
			goto fail;
		}
		f = fsd_new(name);
		TAILQ_INSERT_TAIL(&m->fsds, f, entry);
		if (nullstr_from_json(&f->anchor, anchor) != 0 ||
		    bag_from_json(&f->bag, bag) != 0 ||
		    fsd_fields_from_json(f, v) != 0) {
			bad(e, "fsd", NULL);
			goto fail;
		}
	}
	json_array_foreach(fwds, i, v) {
		const char *name;
		json_t *fs, *bag;
		struct fwd *f;

		if (json_unpack(v, "{s:s,s:o,s:o}", "name", &name, "fsds", &fs,
		    "bag", &bag) != 0) {
			bad(e, "fwd", NULL);
			goto fail;
		}
		f = fwd_new(name);
		TAILQ_INSERT_TAIL(&m->fwds, f, entry);
		if (strlist_from_json(&f->fsds, fs) != 0 ||
		    bag_from_json(&f->bag, bag) != 0 ||
		    fwd_fields_from_json(f, v, e) != 0) {
			bad(e, "fwd", NULL);
			goto fail;
		}
	}
	if (!json_is_null(wdd) && (m->wd_default = wd_from_json(wdd, e)) ==
	    NULL)
		goto fail;
	return (m);
fail:
	model_free(m);
	return (NULL);
}
