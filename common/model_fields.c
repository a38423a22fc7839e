/* SPDX-License-Identifier: MIT */
/*
 * The field tables of the model's entry kinds and the walks over them:
 * defaults, deep copy, free, and the JSON codec of one entry. Encoding
 * cannot fail; decoding checks every field's type (a peer is never trusted
 * to have run the parser) and names the field that is wrong.
 */
#include "model_fields.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "model_json.h"
#include "xmalloc.h"

/* ---- JSON helpers ------------------------------------------------------ */

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

/* A list of strings, appended. */
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

/* An array of numbers (or null) into a new array; *n gets its length. */
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

/* Index of s in names[] (NULL-terminated), or -1. */
static int
lookup(const char *const *names, const char *s)
{
	int i;

	for (i = 0; names[i] != NULL; i++) {
		if (strcmp(names[i], s) == 0)
			return (i);
	}
	return (-1);
}

/* Copy an array of doubles (NULL for none). */
static double *
dup_doubles(const double *v, int n)
{
	double *d;

	if (v == NULL || n <= 0)
		return (NULL);
	d = xcalloc((size_t)n, sizeof(*d));
	memcpy(d, v, (size_t)n * sizeof(*d));
	return (d);
}

/* ---- transfer sizes (public: WORK carries them alone) ------------------ */

static const char *const xfer_kinds[] = { "single", "dist", "range", NULL };

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

/* Fail with the path of the offending field. */
static int
bad(struct errmsg *e, const char *path, const json_error_t *je)
{
	errmsg_set(e, NULL, 0, 0, "model: %s: %s", path,
	    je != NULL ? je->text : "wrong type");
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
	if ((k = lookup(xfer_kinds, kind)) < 0 || !json_is_array(sizes))
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

/* ---- custom codecs ----------------------------------------------------- */

/* xfer (wd, fwd): 4k by default. */
static void
xfer_init(void *entry, const struct field_desc *fd)
{
	xfer_set_single(FIELD_PTR(entry, fd), (uint64_t)fd->def);
}

static void
xfer_fcopy(void *dst, const void *src, const struct field_desc *fd)
{
	xfer_copy(FIELD_PTR(dst, fd), FIELD_CPTR(src, fd));
}

static void
xfer_fclear(void *entry, const struct field_desc *fd)
{
	xfer_clear(FIELD_PTR(entry, fd));
}

static json_t *
xfer_fto(const void *entry, const struct field_desc *fd)
{
	return (xfer_to_json(FIELD_CPTR(entry, fd)));
}

static int
xfer_ffrom(void *entry, const struct field_desc *fd, const json_t *j,
    struct errmsg *e)
{
	xfer_clear(FIELD_PTR(entry, fd));
	return (xfer_from_json(FIELD_PTR(entry, fd), j, e));
}

static const struct field_codec xfer_codec = {
	xfer_init, xfer_fcopy, xfer_fclear, xfer_fto, xfer_ffrom,
};

/* general histogram= edges (vdbench's default buckets). */
static void
edges_init(void *entry, const struct field_desc *fd)
{
	vdbhist_edges_default(FIELD_PTR(entry, fd));
}

static void
edges_copy(void *dst, const void *src, const struct field_desc *fd)
{
	memcpy(FIELD_PTR(dst, fd), FIELD_CPTR(src, fd),
	    sizeof(struct vdbhist_edges));
}

static json_t *
edges_to(const void *entry, const struct field_desc *fd)
{
	const struct vdbhist_edges *h = FIELD_CPTR(entry, fd);
	json_t *a = json_array();
	unsigned int i;

	for (i = 0; i < h->n; i++)
		json_array_append_new(a, json_integer((json_int_t)h->edge_us[i]));
	return (a);
}

static int
edges_from(void *entry, const struct field_desc *fd, const json_t *j,
    struct errmsg *e)
{
	struct vdbhist_edges *h = FIELD_PTR(entry, fd);
	json_t *v;
	size_t i;

	(void)e;
	if (!json_is_array(j) || json_array_size(j) >= VDBHIST_MAX_BUCKETS)
		return (-1);
	h->n = (unsigned int)json_array_size(j);
	json_array_foreach(j, i, v) {
		if (!json_is_integer(v) || json_integer_value(v) <= 0)
			return (-1);
		h->edge_us[i] = (uint64_t)json_integer_value(v);
	}
	return (0);
}

static const struct field_codec edges_codec = {
	edges_init, edges_copy, NULL, edges_to, edges_from,
};

/* sd luns: host/lun pairs. */
static void
luns_copy(void *dst, const void *src, const struct field_desc *fd)
{
	struct sd *d = dst;
	const struct sd *s = src;
	int i;

	(void)fd;
	d->nluns = s->nluns;
	d->luns = NULL;
	if (s->nluns > 0) {
		d->luns = xcalloc((size_t)s->nluns, sizeof(*d->luns));
		for (i = 0; i < s->nluns; i++) {
			d->luns[i].host = s->luns[i].host != NULL ?
			    xstrdup(s->luns[i].host) : NULL;
			d->luns[i].lun = s->luns[i].lun != NULL ?
			    xstrdup(s->luns[i].lun) : NULL;
		}
	}
}

static void
luns_clear(void *entry, const struct field_desc *fd)
{
	struct sd *s = entry;
	int i;

	(void)fd;
	for (i = 0; i < s->nluns; i++) {
		free(s->luns[i].host);
		free(s->luns[i].lun);
	}
	free(s->luns);
	s->luns = NULL;
	s->nluns = 0;
}

static json_t *
luns_to(const void *entry, const struct field_desc *fd)
{
	const struct sd *s = entry;
	json_t *a = json_array();
	int i;

	(void)fd;
	for (i = 0; i < s->nluns; i++)
		json_array_append_new(a, json_pack("{s:s,s:s}",
		    "host", s->luns[i].host, "lun", s->luns[i].lun));
	return (a);
}

static int
luns_from(void *entry, const struct field_desc *fd, const json_t *j,
    struct errmsg *e)
{
	struct sd *s = entry;
	json_t *v;
	size_t i;

	(void)e;
	luns_clear(entry, fd);
	if (!json_is_array(j))
		return (-1);
	s->luns = xcalloc(json_array_size(j) + 1, sizeof(*s->luns));
	json_array_foreach(j, i, v) {
		const char *host, *lun;

		if (json_unpack(v, "{s:s,s:s}", "host", &host, "lun", &lun))
			return (-1);
		s->luns[i].host = xstrdup(host);
		s->luns[i].lun = xstrdup(lun);
		s->nluns++;
	}
	return (0);
}

static const struct field_codec luns_codec = {
	NULL, luns_copy, luns_clear, luns_to, luns_from,
};

/* rd for-loops. */
static void
loops_copy(void *dst, const void *src, const struct field_desc *fd)
{
	struct rd *d = dst;
	const struct rd *s = src;
	int i;

	(void)fd;
	d->nloops = s->nloops;
	d->loops = NULL;
	if (s->nloops > 0) {
		d->loops = xcalloc((size_t)s->nloops, sizeof(*d->loops));
		for (i = 0; i < s->nloops; i++)
			forloop_copy(&d->loops[i], &s->loops[i]);
	}
}

static void
loops_clear(void *entry, const struct field_desc *fd)
{
	struct rd *r = entry;
	int i;

	(void)fd;
	for (i = 0; i < r->nloops; i++)
		forloop_clear(&r->loops[i]);
	free(r->loops);
	r->loops = NULL;
	r->nloops = 0;
}

static json_t *
loops_to(const void *entry, const struct field_desc *fd)
{
	const struct rd *r = entry;
	json_t *loops = json_array();
	int i;

	(void)fd;
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
	return (loops);
}

static int
loops_from(void *entry, const struct field_desc *fd, const json_t *j,
    struct errmsg *e)
{
	struct rd *r = entry;
	json_t *l;
	size_t i;
	int k;

	(void)e;
	loops_clear(entry, fd);
	if (!json_is_array(j))
		return (-1);
	r->loops = xcalloc(json_array_size(j) + 1, sizeof(*r->loops));
	json_array_foreach(j, i, l) {
		struct forloop *fl = &r->loops[r->nloops];
		const char *kind;
		json_t *vals;

		if (json_unpack(l, "{s:s,s:o}", "kind", &kind, "values", &vals))
			return (-1);
		for (k = 0; k < LOOP_NKINDS; k++) {
			if (strcmp(loop_label((enum loop_kind)k), kind) == 0)
				break;
		}
		if (k == LOOP_NKINDS || !json_is_array(vals))
			return (-1);
		fl->kind = (enum loop_kind)k;
		r->nloops++;
		if (fl->kind == LOOP_OPERATION) {
			struct strlist sl = { 0, NULL, 0 };

			if (strlist_from_json(&sl, vals) != 0) {
				strlist_clear(&sl);
				return (-1);
			}
			fl->n = sl.n;
			fl->strs = sl.v;
		} else if (doubles_from_json(&fl->vals, &fl->n, vals) != 0)
			return (-1);
	}
	return (0);
}

static const struct field_codec loops_codec = {
	NULL, loops_copy, loops_clear, loops_to, loops_from,
};

/* fsd sizes=: size_bytes[nsizes], 4k by default. */
static void
fsizes_init(void *entry, const struct field_desc *fd)
{
	struct fsd *f = entry;

	f->nsizes = 1;
	f->size_bytes = xcalloc(1, sizeof(uint64_t));
	f->size_bytes[0] = (uint64_t)fd->def;
}

static void
fsizes_copy(void *dst, const void *src, const struct field_desc *fd)
{
	struct fsd *d = dst;
	const struct fsd *s = src;

	(void)fd;
	d->nsizes = s->nsizes;
	d->size_bytes = xcalloc((size_t)s->nsizes + 1, sizeof(uint64_t));
	memcpy(d->size_bytes, s->size_bytes,
	    (size_t)s->nsizes * sizeof(uint64_t));
}

static void
fsizes_clear(void *entry, const struct field_desc *fd)
{
	struct fsd *f = entry;

	(void)fd;
	free(f->size_bytes);
	f->size_bytes = NULL;
}

static json_t *
fsizes_to(const void *entry, const struct field_desc *fd)
{
	const struct fsd *f = entry;
	json_t *a = json_array();
	int i;

	(void)fd;
	for (i = 0; i < f->nsizes; i++)
		json_array_append_new(a, json_integer(
		    (json_int_t)f->size_bytes[i]));
	return (a);
}

static int
fsizes_from(void *entry, const struct field_desc *fd, const json_t *j,
    struct errmsg *e)
{
	struct fsd *f = entry;
	json_t *v;
	size_t i;

	(void)fd;
	(void)e;
	if (!json_is_array(j) || json_array_size(j) == 0)
		return (-1);
	free(f->size_bytes);
	f->size_bytes = xcalloc(json_array_size(j), sizeof(uint64_t));
	f->nsizes = (int)json_array_size(j);
	json_array_foreach(j, i, v) {
		if (!json_is_integer(v) || json_integer_value(v) < 0)
			return (-1);
		f->size_bytes[i] = (uint64_t)json_integer_value(v);
	}
	return (0);
}

static const struct field_codec fsizes_codec = {
	fsizes_init, fsizes_copy, fsizes_clear, fsizes_to, fsizes_from,
};

/* fsd size percentages: NULL (one size or avg) or one per size. */
static void
fpct_copy(void *dst, const void *src, const struct field_desc *fd)
{
	const struct fsd *s = src;

	(void)fd;
	((struct fsd *)dst)->size_pct = dup_doubles(s->size_pct, s->nsizes);
}

static void
fpct_clear(void *entry, const struct field_desc *fd)
{
	struct fsd *f = entry;

	(void)fd;
	free(f->size_pct);
	f->size_pct = NULL;
}

static json_t *
fpct_to(const void *entry, const struct field_desc *fd)
{
	const struct fsd *f = entry;

	(void)fd;
	return (f->size_pct != NULL ? doubles_to_json(f->size_pct, f->nsizes) :
	    json_null());
}

static int
fpct_from(void *entry, const struct field_desc *fd, const json_t *j,
    struct errmsg *e)
{
	struct fsd *f = entry;
	int np;

	(void)fd;
	(void)e;
	fpct_clear(entry, fd);
	if (doubles_from_json(&f->size_pct, &np, j) != 0 ||
	    (np != 0 && np != f->nsizes))
		return (-1);
	return (0);
}

static const struct field_codec fpct_codec = {
	NULL, fpct_copy, fpct_clear, fpct_to, fpct_from,
};

/* ---- the tables -------------------------------------------------------- */

static const char *const rd_dists[] = {
	"exponential", "uniform", "deterministic", NULL
};
static const char *const w_all[] = { "all", NULL };
static const char *const w_yes[] = { "yes", NULL };

#define NOB	1, 0		/* no bounds */
#define NAME(T)	{ "name", FT_STR, offsetof(struct T, name), 0, NULL, NOB, \
	F_NAME | F_NONNULL, 0, NULL, NULL, NULL, Y_NONE }
#define SET(T, m)	offsetof(struct T, m)
/*
 * A keyword promoted from the bag, which still carries it (F_BAGCOPY: the
 * YAML dump leaves it to the bag; optional in JSON from older peers).
 */
#define P(T, n, t, m, d, lo, hi, y) { n, t, offsetof(struct T, m), d, \
	NULL, lo, hi, F_BAGCOPY | F_OPTIONAL, 0, NULL, NULL, y, Y_NONE }

#define G(n, t, m, d, y, ys) { n, t, offsetof(struct general, m), d, NULL, \
	NOB, 0, 0, NULL, NULL, y, ys }
static const struct field_desc general_fields[] = {
	G("compratio", FT_DOUBLE, compratio, 1, "compratio", Y_NUM),
	G("formatxfersize_bytes", FT_U64, formatxfersize_bytes, 0,
	    "formatxfersize", Y_UINT_NZ),
	G("formatsds", FT_INT, formatsds, -1, "formatsds", Y_YESNO),
	G("port", FT_INT, port, 0, "port", Y_UINT_NZ),
	G("histogram_set", FT_BOOL, histogram_set, 0, "histogram", Y_HOOK),
	{ "histogram_edges_us", FT_CUSTOM, offsetof(struct general, histogram),
	    0, NULL, NOB, 0, 0, NULL, &edges_codec, NULL, Y_NONE },
	G("histogram_suppress", FT_BOOL, histogram.suppress, 0, NULL, Y_NONE),
	P(general, "dedupratio", FT_DOUBLE, dedupratio, 0, 1, 1e12,
	    "dedupratio"),
	P(general, "dedupunit_bytes", FT_U64, dedupunit_bytes, 131072, 512,
	    1e15, "dedupunit"),
	P(general, "dedupsets", FT_DOUBLE, dedupsets, -5, 1, 0, "dedupsets"),
	P(general, "dedupacross", FT_BOOL, dedupacross, 1, 0, 1,
	    "dedupacross"),
	P(general, "compseed_set", FT_BOOL, compseed_set, 0, 0, 1,
	    "compressionseed"),
	P(general, "compseed", FT_DOUBLE, compseed, 0, 1, 0,
	    "compressionseed"),
	P(general, "pattern", FT_STR, pattern, 0, 1, 0, "pattern"),
	P(general, "data_errors", FT_INT, data_errors, 50, 1, 0,
	    "data_errors"),
	P(general, "data_errors_cmd", FT_STR, data_errors_cmd, 0, 1, 0,
	    "data_errors"),
	P(general, "data_errors_wait_s", FT_INT, data_errors_wait_s, 0, 1,
	    0, "data_errors"),
	P(general, "abort_failed_skew_pct", FT_DOUBLE, abort_failed_skew_pct,
	    0, 1, 0, "abort_failed_skew"),
	P(general, "heartbeat_error", FT_STRLIST, heartbeat_error, 0, 1, 0,
	    "heartbeat_error"),
	P(general, "messagescan", FT_BOOL, messagescan, 1, 0, 1,
	    "messagescan"),
	P(general, "messagescan_display", FT_BOOL, messagescan_display, 1, 0,
	    1, "messagescan"),
	P(general, "messagescan_max", FT_INT, messagescan_max, 1000, 1, 0,
	    "messagescan"),
	P(general, "report", FT_STRLIST, report, 0, 1, 0, "report"),
	P(general, "startcmd", FT_STRLIST, startcmd, 0, 1, 0, "startcmd"),
	P(general, "endcmd", FT_STRLIST, endcmd, 0, 1, 0, "endcmd"),
	P(general, "loop", FT_STRLIST, loop, 0, 1, 0, "loop"),
	P(general, "monitor", FT_STRLIST, monitor, 0, 1, 0, "monitor"),
	{ "create_anchors", FT_BOOL, offsetof(struct general, create_anchors),
	    0, NULL, NOB, F_OPTIONAL, 0, w_yes, NULL, "create_anchors",
	    Y_WORD },
	G("bag", FT_BAG, bag, 0, NULL, Y_BAG),
};

#define H(n, t, m, y, ys) { n, t, offsetof(struct hd, m), 0, NULL, NOB, 0, \
	0, NULL, NULL, y, ys }
static const struct field_desc hd_fields[] = {
	NAME(hd),
	H("system", FT_STR, system, "system", Y_QSTR_NN),
	H("jvms", FT_INT, jvms, "jvms", Y_UINT_NZ),
	H("shell", FT_STR, shell, "shell", Y_WORD_NN),
	H("user", FT_STR, user, "user", Y_QSTR_NN),
	H("vdbench", FT_STR, vdbench, "vdbench", Y_QSTR_NN),
	H("clients", FT_INT, clients, "clients", Y_UINT_NZ),
	P(hd, "mount", FT_STRLIST, mount, 0, 1, 0, "mount"),
	H("bag", FT_BAG, bag, NULL, Y_BAG),
};

#define S(n, t, m, d, y, ys) { n, t, offsetof(struct sd, m), d, NULL, NOB, \
	0, 0, NULL, NULL, y, ys }
static const struct field_desc sd_fields[] = {
	NAME(sd),
	{ "luns", FT_CUSTOM, offsetof(struct sd, luns), 0, NULL, NOB, 0, 0,
	    NULL, &luns_codec, "luns", Y_HOOK },
	S("size_bytes", FT_U64, size_bytes, 0, "size", Y_HOOK),
	S("size_divisor", FT_U64, size_divisor, 1, NULL, Y_NONE),
	S("threads", FT_U32, threads, 8, "threads", Y_UINT),
	S("hitarea_bytes", FT_U64, hitarea_bytes, 1024 * 1024, "hitarea",
	    Y_UINT),
	S("offset_bytes", FT_U64, offset_bytes, 0, "offset", Y_UINT_NZ),
	S("align_bytes", FT_U64, align_bytes, 0, "align", Y_UINT_NZ),
	S("range_set", FT_BOOL, range_set, 0, NULL, Y_NONE),
	{ "range", FT_RANGE, offsetof(struct sd, range), 0, NULL, NOB, 0,
	    SET(sd, range_set), NULL, NULL, "range", Y_RANGE_SET },
	S("openflags", FT_STRLIST, openflags, 0, "openflags", Y_STRS),
	P(sd, "engine", FT_STR, engine, 0, 1, 0, "engine"),
	P(sd, "overwrite_data", FT_BOOL, overwrite_data, 0, 0, 1,
	    "overwrite_data"),
	P(sd, "allow_mounted_write", FT_BOOL, allow_mounted_write, 0, 0, 1,
	    "allow_mounted_write"),
	P(sd, "dedupratio", FT_DOUBLE, dedupratio, 0, 1, 0, "dedupratio"),
	P(sd, "dedupsets", FT_DOUBLE, dedupsets, 0, 1, 0, "dedupsets"),
	P(sd, "dedupacross", FT_INT, dedupacross, -1, -1, 1, "dedupacross"),
	P(sd, "journal_dir", FT_STR, journal_dir, 0, 1, 0, "journal"),
	S("bag", FT_BAG, bag, 0, NULL, Y_BAG),
};

#define W(n, t, m, d, y, ys) { n, t, offsetof(struct wd, m), d, NULL, NOB, \
	0, 0, NULL, NULL, y, ys }
#define WS(n, t, m, s, y, ys) { n, t, offsetof(struct wd, m), 0, NULL, \
	NOB, 0, SET(wd, s), NULL, NULL, y, ys }
static const struct field_desc wd_fields[] = {
	NAME(wd),
	W("sds", FT_STRLIST, sds, 0, "sd", Y_STRS),
	W("skew_set", FT_BOOL, skew_set, 0, NULL, Y_NONE),
	WS("skew_pct", FT_DOUBLE, skew_pct, skew_set, "skew", Y_NUM_SET),
	{ "xfer", FT_CUSTOM, offsetof(struct wd, xfer), 4096, NULL, NOB, 0, 0,
	    NULL, &xfer_codec, "xfersize", Y_HOOK },
	W("readpct", FT_DOUBLE, readpct, 100, "rdpct", Y_NUM),
	W("seekpct", FT_DOUBLE, seekpct, 100, "seekpct", Y_HOOK),
	W("seek_eof", FT_BOOL, seek_eof, 0, NULL, Y_NONE),
	W("rhpct", FT_DOUBLE, rhpct, 0, "rhpct", Y_NUM),
	W("whpct", FT_DOUBLE, whpct, 0, "whpct", Y_NUM),
	W("range_set", FT_BOOL, range_set, 0, NULL, Y_NONE),
	WS("range", FT_RANGE, range, range_set, "range", Y_RANGE_SET),
	W("hosts", FT_STRLIST, hosts, 0, "host", Y_STRS),
	W("openflags", FT_STRLIST, openflags, 0, "openflags", Y_STRS),
	W("iorate_set", FT_BOOL, iorate_set, 0, NULL, Y_NONE),
	WS("iorate", FT_DOUBLE, iorate, iorate_set, "iorate", Y_NUM_SET),
	W("priority_set", FT_BOOL, priority_set, 0, NULL, Y_NONE),
	WS("priority", FT_INT, priority, priority_set, "priority",
	    Y_UINT_SET),
	P(wd, "hotband_set", FT_BOOL, hotband_set, 0, 0, 1, "hotband"),
	P(wd, "hotband", FT_RANGE, hotband, 0, 0, 200, "hotband"),
	P(wd, "hotband_wrap", FT_BOOL, hotband_wrap, 0, 0, 1, "hotband"),
	P(wd, "stride_set", FT_BOOL, stride_set, 0, 0, 1, "stride"),
	P(wd, "stride_bytes", FT_RANGE, stride_bytes, 0, 0, 0, "stride"),
	P(wd, "poisson_mid", FT_DOUBLE, poisson_mid, 0, 1, 0, "seekpct"),
	P(wd, "streams", FT_INT, streams, 0, 1, 0, "streams"),
	W("bag", FT_BAG, bag, 0, NULL, Y_BAG),
};

#define R(n, t, m, d, y, ys) { n, t, offsetof(struct rd, m), d, NULL, NOB, \
	0, 0, NULL, NULL, y, ys }
#define RN(n, m, c, fl, y, ys) { n, FT_DOUBLES, offsetof(struct rd, m), 0, \
	NULL, NOB, fl, SET(rd, c), NULL, NULL, y, ys }
static const struct field_desc rd_fields[] = {
	NAME(rd),
	R("wds", FT_STRLIST, wds, 0, "wd", Y_STRS),
	R("sds", FT_STRLIST, sds, 0, "sd", Y_STRS),
	R("fwds", FT_STRLIST, fwds, 0, "fwd", Y_STRS),
	R("fsds", FT_STRLIST, fsds, 0, "fsd", Y_STRS),
	RN("iorate", iorate, iorate_n, 0, "iorate", Y_RATES),
	RN("fwdrate", fwdrate, fwdrate_n, 0, "fwdrate", Y_RATES),
	RN("curve_pct", curve_pct, ncurve, F_NULLABLE, "curve", Y_NUMS_NN),
	R("elapsed_s", FT_U64, elapsed_s, 30, "elapsed", Y_UINT),
	R("interval_s", FT_U64, interval_s, 1, "interval", Y_UINT),
	{ "warmup_s", FT_U64, offsetof(struct rd, warmup_s), 0, NULL, NOB, 0,
	    SET(rd, warmup_set), NULL, NULL, "warmup", Y_UINT_SET },
	{ "warmup_set", FT_BOOL, offsetof(struct rd, warmup_set), 0, NULL,
	    NOB, F_OPTIONAL, 0, NULL, NULL, NULL, Y_NONE },
	R("pause_s", FT_U64, pause_s, 0, "pause", Y_UINT_NZ),
	{ "distribution", FT_ENUM, offsetof(struct rd, distribution), 0, NULL,
	    NOB, 0, 0, rd_dists, NULL, "distribution", Y_ENUM_NZ },
	{ "loops", FT_CUSTOM, offsetof(struct rd, loops), 0, NULL, NOB, 0, 0,
	    NULL, &loops_codec, NULL, Y_HOOK },
	R("openflags", FT_STRLIST, openflags, 0, "openflags", Y_STRS),
	R("format", FT_STRLIST, format, 0, "format", Y_STRS),
	P(rd, "maxdata_dir", FT_INT, maxdata_dir, -1, 0, 2, "maxdata"),
	P(rd, "maxdata", FT_DOUBLE, maxdata, 0, 0, 0, "maxdata"),
	P(rd, "stopcurve_ms", FT_DOUBLE, stopcurve_ms, 0, 0, 0, "stopcurve"),
	P(rd, "operations", FT_STRLIST, operations, 0, 1, 0, "operations"),
	P(rd, "startcmd", FT_STRLIST, startcmd, 0, 1, 0, "startcmd"),
	P(rd, "endcmd", FT_STRLIST, endcmd, 0, 1, 0, "endcmd"),
	P(rd, "mount", FT_STR, mount, 0, 1, 0, "mount"),
	R("bag", FT_BAG, bag, 0, NULL, Y_BAG),
};

#define FS(n, t, m, d, y, ys) { n, t, offsetof(struct fsd, m), d, NULL, \
	NOB, 0, 0, NULL, NULL, y, ys }
static const struct field_desc fsd_fields[] = {
	NAME(fsd),
	FS("anchor", FT_STR, anchor, 0, "anchor", Y_QSTR),
	FS("depth", FT_INT, depth, 1, "depth", Y_UINT),
	FS("width", FT_INT, width, 1, "width", Y_UINT),
	FS("files", FT_U64, files, 10, "files", Y_UINT),
	{ "dist_all", FT_BOOL, offsetof(struct fsd, dist_all), 0, NULL, NOB,
	    0, 0, w_all, NULL, "distribution", Y_WORD },
	{ "size_bytes", FT_CUSTOM, offsetof(struct fsd, size_bytes), 4096,
	    NULL, NOB, 0, 0, NULL, &fsizes_codec, "sizes", Y_HOOK },
	{ "size_pct", FT_CUSTOM, offsetof(struct fsd, size_pct), 0, NULL, NOB,
	    0, 0, NULL, &fpct_codec, NULL, Y_NONE },
	FS("size_avg", FT_BOOL, size_avg, 0, NULL, Y_NONE),
	FS("totalsize_bytes", FT_U64, totalsize_bytes, 0, "totalsize",
	    Y_UINT_NZ),
	FS("wss_bytes", FT_U64, wss_bytes, 0, "wss", Y_UINT_NZ),
	{ "shared", FT_BOOL, offsetof(struct fsd, shared), 0, NULL, NOB, 0, 0,
	    w_yes, NULL, "shared", Y_WORD },
	P(fsd, "openflags", FT_STRLIST, openflags, 0, 1, 0, "openflags"),
	FS("bag", FT_BAG, bag, 0, NULL, Y_BAG),
};

#define FW(n, t, m, d, y, ys) { n, t, offsetof(struct fwd, m), d, NULL, \
	NOB, 0, 0, NULL, NULL, y, ys }
#define FWS(n, m, d, y, ys) { n, FT_STR, offsetof(struct fwd, m), 0, d, \
	NOB, F_NONNULL, 0, NULL, NULL, y, ys }
static const struct field_desc fwd_fields[] = {
	NAME(fwd),
	FW("fsds", FT_STRLIST, fsds, 0, "fsd", Y_STRS),
	FWS("operation", operation, "read", "operation", Y_WORD),
	FW("readpct_set", FT_BOOL, readpct_set, 0, NULL, Y_NONE),
	{ "readpct", FT_DOUBLE, offsetof(struct fwd, readpct), 0, NULL, NOB, 0,
	    SET(fwd, readpct_set), NULL, NULL, "rdpct", Y_NUM_SET },
	FW("stopafter", FT_DOUBLE, stopafter, 0, "stopafter", Y_HOOK),
	FWS("fileselect", fileselect, "sequential", "fileselect", Y_WORD),
	FWS("fileio", fileio, "sequential", "fileio", Y_HOOK),
	FW("fileio_shared", FT_BOOL, fileio_shared, 0, NULL, Y_NONE),
	FW("fileio_delete", FT_BOOL, fileio_delete, 0, NULL, Y_NONE),
	{ "xfer", FT_CUSTOM, offsetof(struct fwd, xfer), 4096, NULL, NOB, 0, 0,
	    NULL, &xfer_codec, "xfersize", Y_HOOK },
	FW("skew_set", FT_BOOL, skew_set, 0, NULL, Y_NONE),
	{ "skew_pct", FT_DOUBLE, offsetof(struct fwd, skew_pct), 0, NULL, NOB,
	    0, SET(fwd, skew_set), NULL, NULL, "skew", Y_NUM_SET },
	FW("threads", FT_INT, threads, 1, "threads", Y_UINT),
	FW("target", FT_STR, target, 0, "target", Y_QSTR_NN),
	FW("hosts", FT_STRLIST, hosts, 0, "host", Y_STRS),
	FW("openflags", FT_STRLIST, openflags, 0, "openflags", Y_STRS),
	P(fwd, "poisson_midpoint", FT_DOUBLE, poisson_midpoint, 3, 1, 0,
	    "fileselect"),
	FW("bag", FT_BAG, bag, 0, NULL, Y_BAG),
};

#define DESC(T, f) { #T, sizeof(struct T), f, \
	(int)(sizeof(f) / sizeof(f[0])) }
const struct entry_desc general_desc = DESC(general, general_fields);
const struct entry_desc hd_desc = DESC(hd, hd_fields);
const struct entry_desc sd_desc = DESC(sd, sd_fields);
const struct entry_desc wd_desc = DESC(wd, wd_fields);
const struct entry_desc rd_desc = DESC(rd, rd_fields);
const struct entry_desc fsd_desc = DESC(fsd, fsd_fields);
const struct entry_desc fwd_desc = DESC(fwd, fwd_fields);

/* ---- the walks --------------------------------------------------------- */

/* Each field's default. */
void
fields_init(const struct entry_desc *ed, void *entry)
{
	const struct field_desc *fd;
	int i;

	for (i = 0; i < ed->nfields; i++) {
		void *p;

		fd = &ed->fields[i];
		p = FIELD_PTR(entry, fd);
		switch (fd->type) {
		case FT_BOOL:
		case FT_INT:
		case FT_ENUM:
			*(int *)p = (int)fd->def;
			break;
		case FT_U32:
			*(uint32_t *)p = (uint32_t)fd->def;
			break;
		case FT_U64:
			*(uint64_t *)p = (uint64_t)fd->def;
			break;
		case FT_DOUBLE:
			*(double *)p = fd->def;
			break;
		case FT_STR:
			*(char **)p = fd->defstr != NULL ?
			    xstrdup(fd->defstr) : NULL;
			break;
		case FT_STRLIST:
			memset(p, 0, sizeof(struct strlist));
			break;
		case FT_RANGE:
			((double *)p)[0] = ((double *)p)[1] = 0;
			break;
		case FT_DOUBLES:
			*(double **)p = NULL;
			*(int *)((char *)entry + fd->aux_off) = 0;
			break;
		case FT_BAG:
			bag_init(p);
			break;
		case FT_CUSTOM:
			if (fd->codec->init != NULL)
				fd->codec->init(entry, fd);
			break;
		}
	}
}

/* A deep copy of src's fields into dst (whose fields hold nothing). */
void
fields_copy(const struct entry_desc *ed, void *dst, const void *src)
{
	const struct field_desc *fd;
	int i;

	for (i = 0; i < ed->nfields; i++) {
		const void *s;
		void *d;

		fd = &ed->fields[i];
		s = FIELD_CPTR(src, fd);
		d = FIELD_PTR(dst, fd);
		switch (fd->type) {
		case FT_BOOL:
		case FT_INT:
		case FT_ENUM:
			*(int *)d = *(const int *)s;
			break;
		case FT_U32:
			*(uint32_t *)d = *(const uint32_t *)s;
			break;
		case FT_U64:
			*(uint64_t *)d = *(const uint64_t *)s;
			break;
		case FT_DOUBLE:
			*(double *)d = *(const double *)s;
			break;
		case FT_STR:
			*(char **)d = *(char *const *)s != NULL ?
			    xstrdup(*(char *const *)s) : NULL;
			break;
		case FT_STRLIST:
			strlist_copy(d, s);
			break;
		case FT_RANGE:
			memcpy(d, s, 2 * sizeof(double));
			break;
		case FT_DOUBLES: {
			int n = *(const int *)((const char *)src + fd->aux_off);

			*(double **)d = dup_doubles(*(double *const *)s, n);
			*(int *)((char *)dst + fd->aux_off) = n;
			break;
		}
		case FT_BAG:
			bag_copy(d, s);
			break;
		case FT_CUSTOM:
			fd->codec->copy(dst, src, fd);
			break;
		}
	}
}

/* Free what the fields own. */
void
fields_clear(const struct entry_desc *ed, void *entry)
{
	const struct field_desc *fd;
	int i;

	for (i = 0; i < ed->nfields; i++) {
		void *p;

		fd = &ed->fields[i];
		p = FIELD_PTR(entry, fd);
		switch (fd->type) {
		case FT_STR:
			free(*(char **)p);
			*(char **)p = NULL;
			break;
		case FT_STRLIST:
			strlist_clear(p);
			break;
		case FT_DOUBLES:
			free(*(double **)p);
			*(double **)p = NULL;
			*(int *)((char *)entry + fd->aux_off) = 0;
			break;
		case FT_BAG:
			bag_clear(p);
			break;
		case FT_CUSTOM:
			if (fd->codec->clear != NULL)
				fd->codec->clear(entry, fd);
			break;
		default:
			break;
		}
	}
}

/* One field's JSON value. */
static json_t *
field_to_json(const struct field_desc *fd, const void *entry)
{
	const void *p = FIELD_CPTR(entry, fd);

	switch (fd->type) {
	case FT_BOOL:
		return (json_boolean(*(const int *)p));
	case FT_INT:
		return (json_integer(*(const int *)p));
	case FT_U32:
		return (json_integer((json_int_t)*(const uint32_t *)p));
	case FT_U64:
		return (json_integer((json_int_t)*(const uint64_t *)p));
	case FT_DOUBLE:
		return (json_real(*(const double *)p));
	case FT_STR:
		return (*(char *const *)p != NULL ?
		    json_string(*(char *const *)p) : json_null());
	case FT_STRLIST:
		return (strlist_to_json(p));
	case FT_RANGE:
		return (json_pack("[f,f]", ((const double *)p)[0],
		    ((const double *)p)[1]));
	case FT_DOUBLES: {
		const double *v = *(double *const *)p;

		if (v == NULL && (fd->flags & F_NULLABLE))
			return (json_null());
		return (doubles_to_json(v, *(const int *)((const char *)entry +
		    fd->aux_off)));
	}
	case FT_ENUM:
		return (json_string(fd->names[*(const int *)p]));
	case FT_BAG:
		return (bag_to_json(p));
	case FT_CUSTOM:
		return (fd->codec->to_json(entry, fd));
	}
	return (json_null());
}

/* The entry as an object, in table order. */
json_t *
fields_to_json(const struct entry_desc *ed, const void *entry)
{
	json_t *o = json_object();
	int i;

	for (i = 0; i < ed->nfields; i++)
		json_object_set_new(o, ed->fields[i].name,
		    field_to_json(&ed->fields[i], entry));
	return (o);
}

/* One field from its JSON value; -1 on a wrong type. */
static int
field_from_json(const struct field_desc *fd, void *entry, const json_t *j,
    struct errmsg *e)
{
	void *p = FIELD_PTR(entry, fd);
	json_int_t v;
	int k;

	switch (fd->type) {
	case FT_BOOL:
		if (!json_is_boolean(j))
			return (-1);
		*(int *)p = json_is_true(j);
		return (0);
	case FT_INT:
	case FT_U32:
	case FT_U64:
		if (!json_is_integer(j))
			return (-1);
		v = json_integer_value(j);
		if (fd->type == FT_INT)
			*(int *)p = (int)v;
		else if (v < 0)
			return (-1);
		else if (fd->type == FT_U32)
			*(uint32_t *)p = (uint32_t)v;
		else
			*(uint64_t *)p = (uint64_t)v;
		return (0);
	case FT_DOUBLE:
		return (get_num(j, p));
	case FT_STR:
		free(*(char **)p);
		*(char **)p = NULL;
		if (json_is_null(j) && !(fd->flags & F_NONNULL))
			return (0);
		if (!json_is_string(j))
			return (-1);
		*(char **)p = xstrdup(json_string_value(j));
		return (0);
	case FT_STRLIST:
		strlist_clear(p);
		return (strlist_from_json(p, j));
	case FT_RANGE:
		if (!json_is_array(j) || json_array_size(j) != 2 ||
		    get_num(json_array_get(j, 0), &((double *)p)[0]) != 0 ||
		    get_num(json_array_get(j, 1), &((double *)p)[1]) != 0)
			return (-1);
		return (0);
	case FT_DOUBLES:
		free(*(double **)p);
		return (doubles_from_json(p, (int *)((char *)entry +
		    fd->aux_off), j));
	case FT_ENUM:
		if (!json_is_string(j) ||
		    (k = lookup(fd->names, json_string_value(j))) < 0)
			return (-1);
		*(int *)p = k;
		return (0);
	case FT_BAG:
		return (bag_from_json(p, j));
	case FT_CUSTOM:
		return (fd->codec->from_json(entry, fd, j, e));
	}
	return (-1);
}

/* Decode into an entry holding its defaults; names the bad field. */
int
fields_from_json(const struct entry_desc *ed, void *entry, const json_t *j,
    struct errmsg *e)
{
	const struct field_desc *fd;
	const json_t *v;
	int i;

	if (!json_is_object(j))
		return (bad(e, ed->name, NULL));
	for (i = 0; i < ed->nfields; i++) {
		fd = &ed->fields[i];
		if ((v = json_object_get(j, fd->name)) == NULL) {
			if (fd->flags & F_OPTIONAL)
				continue;
			errmsg_set(e, NULL, 0, 0, "model: %s.%s: missing",
			    ed->name, fd->name);
			return (-1);
		}
		if (field_from_json(fd, entry, v, e) != 0) {
			errmsg_set(e, NULL, 0, 0, "model: %s.%s: wrong type",
			    ed->name, fd->name);
			return (-1);
		}
	}
	return (0);
}

/* The field of ed whose YAML keyword (or JSON name) is kw, or NULL. */
const struct field_desc *
field_find(const struct entry_desc *ed, const char *kw)
{
	int i;

	for (i = 0; i < ed->nfields; i++) {
		const struct field_desc *fd = &ed->fields[i];

		if ((fd->yaml != NULL && strcmp(fd->yaml, kw) == 0) ||
		    strcmp(fd->name, kw) == 0)
			return (fd);
	}
	return (NULL);
}

/* Is v inside fd's bounds (always, when it has none)? */
int
field_in_bounds(const struct field_desc *fd, double v)
{
	return (fd->max < fd->min || (v >= fd->min && v <= fd->max));
}
