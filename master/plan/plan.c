/* SPDX-License-Identifier: MIT */
/*
 * Run-list expansion. vdbench gives all runs of an rd the same name; only
 * curve points and percentage runs get a "_(NN%)" suffix and sd=single
 * clones get "_<sd>".
 */
#include "plan.h"

#include "fstree.h"
#include "journal_rd.h"
#include "jrandom.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "units.h"
#include "xmalloc.h"

static const double default_curve[] = { 10, 50, 70, 80, 90, 100 };

/* Fail naming no place in a file: these are cross-entry checks. */
static int __attribute__((format(printf, 2, 3)))
fail(struct errmsg *e, const char *fmt, ...)
{
	char text[900];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	errmsg_set(e, NULL, 0, 0, "%s", text);
	return (-1);
}

/* Free the runs' own arrays. */
void
plan_free(struct plan *p)
{
	int i, k;

	for (i = 0; i < p->nruns; i++) {
		struct run *r = &p->runs[i];

		free(r->name);
		free(r->sim_name);
		for (k = 0; k < r->nwds; k++)
			free(r->wds[k].sds);
		free(r->wds);
		for (k = 0; k < r->nfwds; k++)
			free(r->fwds[k].fsds);
		free(r->fwds);
	}
	free(p->runs);
	for (i = 0; i < p->nowned; i++)
		wd_free(p->owned[i]);
	free(p->owned);
	memset(p, 0, sizeof(*p));
}

/* The host label the error messages name for a wd. */
static const char *
first_host(const struct model *m, const struct wd *w)
{
	const struct hd *h;

	if (w->hosts.n > 0 && strcmp(w->hosts.v[0], "*") != 0)
		return (w->hosts.v[0]);
	h = TAILQ_FIRST(&m->hds);
	return (h != NULL ? h->name : "localhost");
}

/* Order of sd pointers. */
static int
sd_ptr_cmp(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)*(const struct sd *const *)a;
	uintptr_t y = (uintptr_t)*(const struct sd *const *)b;

	return (x < y ? -1 : x > y);
}

/* Add sd s to a run's wd, checked against the wd. */
static int
add_sd(const struct wd *w, const struct sd *s, struct run_wd *rw, int *cap,
    struct errmsg *e)
{
	/* PARMFILE.md 16 item 5, vdbench's words. */
	if (w->xfer.kind == XFER_RANGE && w->xfer.align_bytes != 0 &&
	    s->align_bytes != w->xfer.align_bytes)
		return (fail(e, "The 'sd=...,align=xxx' parameter "
		    "must be set to the same alignment value "
		    "used in 'xfersize=(min,max,align)' (%llu); "
		    "wd=%s, sd=%s", (unsigned long long)
		    w->xfer.align_bytes, w->name, s->name));
	if (rw->nsds == *cap) {
		*cap = *cap < 16 ? 16 : *cap * 2;
		rw->sds = xreallocarray(rw->sds, (size_t)*cap,
		    sizeof(*rw->sds));
	}
	rw->sds[rw->nsds++] = s;
	return (0);
}

/*
 * Resolve the sds of one wd of a run (rd sd= overrides the wd's). A name
 * without '*' is looked up in the model's index (sd names are unique in a
 * parmfile), so sd=(sd1-sd100000) takes n, not n squared; a wildcard
 * walks the sds in order.
 */
static int
resolve_sds(const struct model *m, const struct rd *rd, const struct wd *w,
    const struct strlist *only, struct run_wd *rw, struct errmsg *e)
{
	const struct strlist *pats = only != NULL ? only :
	    rd->sds.n > 0 ? &rd->sds : &w->sds;
	const struct sd *s;
	int i, found, cap = 0;

	rw->wd = w;
	rw->sds = NULL;
	rw->nsds = 0;
	if (pats->n == 0)
		return (fail(e, "No 'sd=' parameter specified for wd=%s",
		    w->name));
	for (i = 0; i < pats->n; i++) {
		size_t len = strlen(pats->v[i]);

		found = 0;
		if (len == 0 || pats->v[i][len - 1] != '*') {
			s = model_find_sd(m, pats->v[i]);
			if (s != NULL && add_sd(w, s, rw, &cap, e) != 0)
				return (-1);
			found = s != NULL;
		} else {
			TAILQ_FOREACH(s, &m->sds, entry) {
				if (!name_matches(pats->v[i], s->name))
					continue;
				found = 1;
				if (add_sd(w, s, rw, &cap, e) != 0)
					return (-1);
			}
		}
		if (!found)
			return (fail(e, "Could not find sd=%s for wd=%s,host=%s",
			    pats->v[i], w->name, first_host(m, w)));
	}
	/*
	 * One pattern matches each sd once; only several can repeat one.
	 * Sorted pointers find it in n log n (100,000 sds: was quadratic).
	 */
	if (pats->n > 1) {
		const struct sd **c = xreallocarray(NULL, (size_t)rw->nsds,
		    sizeof(*c));

		memcpy(c, rw->sds, (size_t)rw->nsds * sizeof(*c));
		qsort(c, (size_t)rw->nsds, sizeof(*c), sd_ptr_cmp);
		for (i = 1; i < rw->nsds; i++) {
			if (c[i] == c[i - 1]) {
				s = c[i];
				free(c);
				return (fail(e, "SD=%s is requested more than "
				    "once in wd=%s", s->name, w->name));
			}
		}
		free(c);
	}
	return (0);
}

/* The workloads of an rd, with their sds. */

/*
 * wd priority= (PARMFILE.md 7, vdbench's texts): when a wd of the rd has
 * priority= or iorate=, every wd of the rd has a priority of its own, and
 * the wds with iorate= come before (numerically lower) those without.
 */
static int
check_priorities(const struct rd *rd, const struct run_wd *rws, int n,
    struct errmsg *e)
{
	int i, j, any = 0;

	for (i = 0; i < n; i++) {
		if (rws[i].wd->iorate_set && !rws[i].wd->priority_set) {
			fail(e, "A workload with iorate= also must have  "
			    "priority= specified. (wd=%s)", rws[i].wd->name);
			return (-1);
		}
		any |= rws[i].wd->priority_set;
	}
	if (!any)
		return (0);
	for (i = 0; i < n; i++) {
		for (j = 0; j < n; j++) {
			const struct wd *a = rws[i].wd, *b = rws[j].wd;

			if (!a->priority_set || (j != i && a != b &&
			    b->priority_set && a->priority == b->priority)) {
				fail(e, "When a workload priority= or iorate= "
				    "parameter is used, ALL workloads must have "
				    "a (different) priority defined (rd=%s, "
				    "wd=%s)", rd->name, a->name);
				return (-1);
			}
			if (a->iorate_set && !b->iorate_set &&
			    a->priority >= b->priority) {
				fail(e, "Workloads specifying iorate= must have "
				    "a higher priority than workloads that do "
				    "NOT specify iorate= (rd=%s, wd=%s, wd=%s)",
				    rd->name, a->name, b->name);
				return (-1);
			}
		}
	}
	return (0);
}
static int
resolve_wds(const struct model *m, struct plan *p, const struct rd *rd,
    const struct strlist *only_sds, struct run_wd **out, int *nout,
    int *controlled, struct errmsg *e)
{
	struct run_wd *rws = NULL;
	const struct wd *w;
	int n = 0, i, found;

	*controlled = 0;
	if (rd->wds.n == 0) {
		struct wd *copy;

		if (rd->sds.n == 0 || m->wd_default == NULL)
			return (fail(e, "No 'wd=' parameter specified for "
			    "rd=%s", rd->name));
		copy = wd_copy(m->wd_default, rd->name);
		p->owned = xreallocarray(p->owned, (size_t)p->nowned + 1,
		    sizeof(*p->owned));
		p->owned[p->nowned++] = copy;
		rws = xcalloc(1, sizeof(*rws));
		if (resolve_sds(m, rd, copy, only_sds, &rws[0], e) != 0) {
			free(rws[0].sds);
			free(rws);
			return (-1);
		}
		*out = rws;
		*nout = 1;
		return (0);
	}
	for (i = 0; i < rd->wds.n; i++) {
		found = 0;
		TAILQ_FOREACH(w, &m->wds, entry) {
			if (!name_matches(rd->wds.v[i], w->name))
				continue;
			found = 1;
			rws = xreallocarray(rws, (size_t)n + 1, sizeof(*rws));
			if (resolve_sds(m, rd, w, only_sds, &rws[n], e) != 0) {
				free(rws[n].sds);
				goto fail;
			}
			n++;
			if (w->skew_set || w->iorate_set || w->priority_set)
				*controlled = 1;
		}
		if (!found) {
			fail(e, "Could not find WD=%s for RD=%s", rd->wds.v[i],
			    rd->name);
			goto fail;
		}
	}
	/* vdbench's rule (RD_entry.getWdsForRd): streams= in the rd's
	 * first wd allows no other wd; a later wd's streams= runs */
	if (n > 1 && rws[0].wd->streams > 1) {
		fail(e, "Only ONE Workload Definition (WD) allowed when using "
		    "streams.");
		goto fail;
	}
	if (check_priorities(rd, rws, n, e) != 0)
		goto fail;
	*out = rws;
	*nout = n;
	return (0);
fail:
	while (n-- > 0)
		free(rws[n].sds);
	free(rws);
	return (-1);
}

/*
 * vdbench's rule (RD_entry.java): when any fwd of an rd has skew=, every
 * fwd must name the same hosts (host=, in the same order; none: all), so
 * each host runs every fwd and can hold the skews.
 */
static int
fwd_skew_hosts(const struct rd *rd, const struct run_fwd *rf, int n,
    struct errmsg *e)
{
	int i, k, skew = 0;

	for (i = 0; i < n; i++)
		skew |= rf[i].fwd->skew_set && rf[i].fwd->skew_pct != 0;
	if (!skew)
		return (0);
	for (i = 1; i < n; i++) {
		const struct strlist *a = &rf[0].fwd->hosts;
		const struct strlist *b = &rf[i].fwd->hosts;
		int same = a->n == b->n;

		for (k = 0; same && k < a->n; k++)
			same = strcmp(a->v[k], b->v[k]) == 0;
		if (!same)
			return (fail(e, "When specifying FWD workload skew, all "
			    "requested host names for 'rd=%s' must be identical. "
			    "Workload skew control requires that all workloads "
			    "run at the same time on all host. FWD workload skew "
			    "control not possible", rd->name));
	}
	return (0);
}

/* The fwds of an rd, with their fsds (rd fsd= overrides). */
static int
resolve_fwds(const struct model *m, const struct rd *rd, struct run_fwd **out,
    int *nout, struct errmsg *e)
{
	struct run_fwd *rf = NULL;
	const struct fwd *f;
	const struct fsd *d;
	int n = 0, i, k, found;

	for (i = 0; i < rd->fwds.n; i++) {
		found = 0;
		TAILQ_FOREACH(f, &m->fwds, entry) {
			const struct strlist *pats = rd->fsds.n > 0 ?
			    &rd->fsds : &f->fsds;

			if (!name_matches(rd->fwds.v[i], f->name) ||
			    strcmp(f->name, "format") == 0)
				continue;
			found = 1;
			rf = xreallocarray(rf, (size_t)n + 1, sizeof(*rf));
			rf[n].fwd = f;
			rf[n].fsds = NULL;
			rf[n].nfsds = 0;
			n++;
			for (k = 0; k < pats->n; k++) {
				int hit = 0;

				TAILQ_FOREACH(d, &m->fsds, entry) {
					if (!name_matches(pats->v[k], d->name))
						continue;
					hit = 1;
					rf[n - 1].fsds = xreallocarray(
					    rf[n - 1].fsds,
					    (size_t)rf[n - 1].nfsds + 1,
					    sizeof(*rf[n - 1].fsds));
					rf[n - 1].fsds[rf[n - 1].nfsds++] = d;
				}
				if (!hit) {
					fail(e, "Could not find fsd=%s for "
					    "FWD=%s", pats->v[k], f->name);
					goto fail;
				}
			}
		}
		if (!found) {
			fail(e, "Could not find fwd=%s for RD=%s", rd->fwds.v[i],
			    rd->name);
			goto fail;
		}
	}
	if (fwd_skew_hosts(rd, rf, n, e) != 0)
		goto fail;
	*out = rf;
	*nout = n;
	return (0);
fail:
	for (i = 0; i < n; i++)
		free(rf[i].fsds);
	free(rf);
	return (-1);
}

/* Does the rd's format= list hold this word (a prefix for dir...)? */
int
plan_rd_format(const struct rd *rd, const char *word)
{
	int i;

	for (i = 0; i < rd->format.n; i++) {
		if (strncasecmp(rd->format.v[i], word, strlen(word)) == 0)
			return (1);
	}
	return (0);
}

/* Append a run: a deep copy of the template's arrays. */
static struct run *
add_run(struct plan *p, const struct run *tmpl)
{
	struct run *r;
	int k;

	/* doubling at powers of two: 100,000 runs copy the array 17 times,
	 * not 100,000 (minutes under ASan, whose realloc always copies) */
	if (p->nruns == 0 || (p->nruns & (p->nruns - 1)) == 0)
		p->runs = xreallocarray(p->runs, p->nruns == 0 ? 1 :
		    (size_t)p->nruns * 2, sizeof(*p->runs));
	r = &p->runs[p->nruns++];
	*r = *tmpl;
	r->name = xstrdup(tmpl->name);
	r->sim_name = xstrdup(tmpl->sim_name);
	r->wds = xcalloc((size_t)tmpl->nwds, sizeof(*r->wds));
	for (k = 0; k < tmpl->nwds; k++) {
		r->wds[k] = tmpl->wds[k];
		r->wds[k].sds = xcalloc((size_t)tmpl->wds[k].nsds + 1,
		    sizeof(*r->wds[k].sds));
		memcpy(r->wds[k].sds, tmpl->wds[k].sds,
		    (size_t)tmpl->wds[k].nsds * sizeof(*r->wds[k].sds));
	}
	r->fwds = xcalloc((size_t)tmpl->nfwds + 1, sizeof(*r->fwds));
	for (k = 0; k < tmpl->nfwds; k++) {
		r->fwds[k] = tmpl->fwds[k];
		r->fwds[k].fsds = xcalloc((size_t)tmpl->fwds[k].nfsds + 1,
		    sizeof(*r->fwds[k].fsds));
		memcpy(r->fwds[k].fsds, tmpl->fwds[k].fsds,
		    (size_t)tmpl->fwds[k].nfsds * sizeof(*r->fwds[k].fsds));
	}
	return (r);
}

/* Interval counts (PARMFILE.md 13.2). */
static void
set_intervals(struct run *r)
{
	uint64_t w = r->warmup_s / r->interval_s, n;

	if (w == 0)
		w = 1;
	n = r->elapsed_s / r->interval_s;
	if (r->warmup_s == 0)
		n--;
	r->nintervals = (unsigned int)(w + n);
	r->first_avg = (unsigned int)(w + 1);
}

/* Emit the runs of one loop combination (with curve points). */
static void
emit(struct plan *p, struct run *t)
{
	const struct rd *rd = t->rd;
	char *base = t->name, *sbase = t->sim_name;
	int i;

	set_intervals(t);
	if (rd->format.n > 0 && !plan_rd_format(rd, "no") &&
	    (!plan_rd_format(rd, "once") || !t->formatted_once)) {
		char *n;

		xasprintf(&n, "format_for_%s", base);
		t->name = t->sim_name = n;
		t->format_run = 1;
		add_run(p, t);
		t->format_run = 0;
		t->name = base;
		t->sim_name = sbase;
		t->formatted_once = 1;
		free(n);
		if (plan_rd_format(rd, "only") || plan_rd_format(rd, "clean"))
			return;
	}
	if (t->iorate < 0 && t->iorate != RD_IORATE_CURVE) {
		char *n;

		xasprintf(&n, "%s_(%g%%)", base, -t->iorate);
		t->name = n;
		add_run(p, t);
		t->name = base;
		free(n);
		return;
	}
	add_run(p, t);
	if (t->iorate != RD_IORATE_CURVE)
		return;
	for (i = 0; i < (rd->curve_pct != NULL ? rd->ncurve : 6); i++) {
		double pct = rd->curve_pct != NULL ? rd->curve_pct[i] :
		    default_curve[i];
		char *n;

		xasprintf(&n, "%s_(%g%%)", base, pct);
		t->name = t->sim_name = n;
		t->curve_point = 1;
		t->curve_pct = pct;
		add_run(p, t);
		free(n);
	}
	t->name = base;
	t->sim_name = sbase;
	t->curve_point = 0;
	t->curve_pct = 0;
}

/* Walk the loop combinations of an rd in nesting order. */
static void
expand(struct plan *p, struct run *t, const struct forloop *loops,
    int nloops, int depth)
{
	const struct forloop *l;
	int i;

	if (depth == nloops) {
		emit(p, t);
		return;
	}
	l = &loops[depth];
	for (i = 0; i < l->n; i++) {
		t->loop_kind[depth] = l->kind;
		t->loop_val[depth] = l->vals != NULL ? l->vals[i] : 0;
		t->loop_str[depth] = l->strs != NULL ? l->strs[i] : NULL;
		t->loop_vals[depth] = l->vals;
		t->loop_pos[depth] = i;
		if (l->kind == LOOP_IORATE || l->kind == LOOP_FWDRATE)
			t->iorate = l->vals[i];
		expand(p, t, loops, nloops, depth + 1);
	}
}

/*
 * The most runs one rd (or one sd=single clone) makes: every for-loop
 * combination, the iorate= or fwdrate= list included, times its run, a
 * format run when format= asks for one, and the curve points when a rate
 * is curve. Counted as a double: a typo such as (1-100000,1) twice must
 * not wrap.
 */
static double
rd_runs(const struct rd *rd)
{
	const double *rate = rd->fwds.n > 0 ? rd->fwdrate : rd->iorate;
	int nrate = rd->fwds.n > 0 ? rd->fwdrate_n : rd->iorate_n;
	double combos = 1, per = 1;
	int i;

	for (i = 0; i < rd->nloops; i++) {
		if (rd->loops[i].kind == LOOP_FWDRATE)
			continue;	/* nrate counts it */
		combos *= (double)(rd->loops[i].n > 0 ? rd->loops[i].n : 1);
	}
	if (nrate > 1)
		combos *= (double)nrate;
	for (i = 0; i < nrate; i++) {
		if (rate[i] == RD_IORATE_CURVE) {
			per += rd->curve_pct != NULL ? rd->ncurve : 6;
			break;
		}
	}
	if (rd->format.n > 0 && !plan_rd_format(rd, "no"))
		per++;
	return (combos * per);
}

double
plan_rd_runs(const struct model *m, const struct rd *rd)
{
	const char *special = rd->sds.n == 1 ? rd->sds.v[0] : "";
	const struct sd *s;
	double nsds = 0;

	long per = strncmp(special, "setsof", 6) == 0 ? atol(special + 6) :
	    0;

	if (strcmp(special, "single") != 0 && strcmp(special, "range") != 0 &&
	    per < 1)
		return (rd_runs(rd));
	TAILQ_FOREACH(s, &m->sds, entry)
		nsds++;
	if (per >= 1)
		nsds = ceil(nsds / (double)per);
	return (rd_runs(rd) * nsds);
}

/*
 * sd=setsofN (PARMFILE.md 8.1): the sds of the parmfile in groups of N
 * (the last group holds what is left), the names in *out. As vdbench's
 * RD_entry.repeatSdSingles: setsof1 keeps the parmfile's order; N > 1
 * takes the list after n*8 swaps of two picks of new Random(0).nextInt(n)
 * each (a pick of the same index twice swaps nothing), so the same
 * parmfile gives vdbench's groups.
 */
static int
setsof_groups(const struct model *m, const struct rd *rd, const char *spec,
    const struct sd ***out, int *nsds, int *per, struct errmsg *e)
{
	const struct sd *s, **v;
	uint64_t seed = jr_seed(0);
	char *end;
	long n;
	int cnt = 0, i;

	n = strtol(spec + 6, &end, 10);
	if (spec[6] < '0' || spec[6] > '9' || *end != '\0' || n < 1 ||
	    n > 100000)
		return (fail(e, "rd=%s: 'sd=%s': expected setsofN with N a "
		    "number of sds from 1", rd->name, spec));
	TAILQ_FOREACH(s, &m->sds, entry)
		cnt++;
	if (cnt == 0)
		return (fail(e, "rd=%s: 'sd=%s' needs sd= lines", rd->name,
		    spec));
	v = xcalloc((size_t)cnt, sizeof(*v));
	cnt = 0;
	TAILQ_FOREACH(s, &m->sds, entry)
		v[cnt++] = s;
	for (i = 0; n > 1 && i < cnt * 8; i++) {
		int a = jr_next_int(&seed, cnt), b = jr_next_int(&seed, cnt);
		const struct sd *t = v[a];

		v[a] = v[b];
		v[b] = t;
	}
	*out = v;
	*nsds = cnt;
	*per = (int)(n < cnt ? n : cnt);
	return (0);
}

/* Expand one rd (or one sd=single clone of it). */
static int
plan_rd(const struct model *m, struct plan *p, const struct rd *rd,
    const char *name, const struct strlist *only_sds, struct errmsg *e)
{
	struct forloop loops[LOOP_NKINDS + 1];
	struct run t;
	double total;
	int n = 0, i, rc, fwdrate_placed = 0;

	memset(&t, 0, sizeof(t));
	if (rd->fwds.n == 0 && resolve_wds(m, p, rd, only_sds, &t.wds,
	    &t.nwds, &t.controlled, e) != 0)
		return (-1);
	if (rd->fwds.n > 0 && resolve_fwds(m, rd, &t.fwds, &t.nfwds, e) != 0)
		return (-1);
	for (i = 0; i < t.nfwds; i++) {
		int k;

		for (k = 0; k < t.fwds[i].nfsds; k++) {
			const struct fsd *f = t.fwds[i].fsds[k];
			uint64_t dirs, files, bytes;
			char want[32], have[32];

			plan_anchor_size(f, &dirs, &files, &bytes);
			if (f->totalsize_bytes <= bytes)
				continue;
			fail(e, "fwd=%s,fsd=%s: The requested totalsize=%s is "
			    "greater than the estimated total anchor size of %s",
			    t.fwds[i].fwd->name, f->name,
			    units_whatsize((double)f->totalsize_bytes, want,
			    sizeof(want)), units_whatsize((double)bytes, have,
			    sizeof(have)));
			rc = -1;
			goto out;
		}
	}
	t.rd = rd;
	t.name = (char *)name;
	t.sim_name = (char *)name;
	t.elapsed_s = rd->elapsed_s;
	t.interval_s = rd->interval_s;
	t.warmup_s = rd->warmup_s;
	/* a fwdrate= list's loop stays at its place (an fwd rd), else
	 * innermost; a wd rd plans iorate= */
	for (i = 0; i < rd->nloops && n < LOOP_NKINDS; i++) {
		if (rd->loops[i].kind == LOOP_FWDRATE && (rd->fwds.n == 0 ||
		    rd->fwdrate_n < 2))
			continue;
		if (rd->loops[i].kind == LOOP_FWDRATE) {
			fwdrate_placed = 1;
			loops[n] = rd->loops[i];
			loops[n].n = rd->fwdrate_n;
			loops[n++].vals = rd->fwdrate;
			continue;
		}
		loops[n++] = rd->loops[i];
	}
	if (rd->fwds.n > 0) {
		t.iorate = rd->fwdrate_n > 0 ? rd->fwdrate[0] : 0;
		if (rd->fwdrate_n > 1 && !fwdrate_placed) {
			loops[n].kind = LOOP_FWDRATE;
			loops[n].n = rd->fwdrate_n;
			loops[n].vals = rd->fwdrate;
			loops[n++].strs = NULL;
		}
	} else {
		t.iorate = rd->iorate_n > 0 ? rd->iorate[0] : 0;
		if (rd->iorate_n > 1) {
			loops[n].kind = LOOP_IORATE;
			loops[n].n = rd->iorate_n;
			loops[n].vals = rd->iorate;
			loops[n++].strs = NULL;
		}
	}
	t.nloops = n;
	/* A typo such as (1-100000,1) twice must not plan 10^10 runs; the
	 * parser refuses such an rd at its line first (parmfile.c). */
	total = rd_runs(rd);
	if (total + p->nruns > PLAN_MAX_RUNS) {
		fail(e, "rd=%s expands to %.0f runs; vdbc plans at most %d",
		    rd->name, total, PLAN_MAX_RUNS);
		rc = -1;
		goto out;
	}
	expand(p, &t, loops, n, 0);
	rc = 0;
out:
	for (i = 0; i < t.nwds; i++)
		free(t.wds[i].sds);
	free(t.wds);
	for (i = 0; i < t.nfwds; i++)
		free(t.fwds[i].fsds);
	free(t.fwds);
	return (rc);
}

/* Expand every rd in definition order. */
int
plan_build(const struct model *m, struct plan *p, struct errmsg *e)
{
	const struct rd *rd;
	const struct sd *s;

	memset(p, 0, sizeof(*p));
	TAILQ_FOREACH(rd, &m->rds, entry) {
		const char *special = rd->sds.n == 1 ? rd->sds.v[0] : "";

		if (strcmp(special, "single") == 0 ||
		    strcmp(special, "range") == 0) {
			/* One run per sd in the parmfile (16 item 7). */
			struct strlist only = { 0, NULL, 0 };
			const struct sd *first = TAILQ_FIRST(&m->sds);

			TAILQ_FOREACH(s, &m->sds, entry) {
				char *n;
				int rc;

				if (special[0] == 's') {
					strlist_clear(&only);
					xasprintf(&n, "%s_%s", rd->name,
					    s->name);
				} else
					xasprintf(&n, "%s_%s-%s", rd->name,
					    first->name, s->name);
				strlist_add(&only, s->name);
				rc = plan_rd(m, p, rd, n, &only, e);
				free(n);
				if (rc != 0) {
					strlist_clear(&only);
					goto fail;
				}
			}
			strlist_clear(&only);
			continue;
		}
		if (strncmp(special, "setsof", 6) == 0) {
			const struct sd **v = NULL;
			int nsds = 0, per = 1, k, rc = 0;

			if (setsof_groups(m, rd, special, &v, &nsds, &per,
			    e) != 0)
				goto fail;
			for (k = 0; k < nsds && rc == 0; k += per) {
				struct strlist only = { 0, NULL, 0 };
				char *n = xstrdup(rd->name), *t;
				int j;

				for (j = k; j < k + per && j < nsds; j++) {
					xasprintf(&t, "%s_%s", n, v[j]->name);
					free(n);
					n = t;
					strlist_add(&only, v[j]->name);
				}
				rc = plan_rd(m, p, rd, n, &only, e);
				free(n);
				strlist_clear(&only);
			}
			free(v);
			if (rc != 0)
				goto fail;
			continue;
		}
		if (plan_rd(m, p, rd, rd->name, NULL, e) != 0)
			goto fail;
	}
	return (0);
fail:
	plan_free(p);
	return (-1);
}

/* N% of an observed rate, rounded up to 10s (<= 1000) or 100s. */
double
plan_pct_rate(double observed, double pct)
{
	double v = floor(observed * pct / 100.0);
	double step = v > 1000 ? 100 : 10;

	return (ceil(v / step) * step);
}

/* The "I/O rate:" field of a run line. */
const char *
plan_rate_text(const struct run *r, double observed_max, char *buf,
    size_t len)
{
	const char *ctl = r->controlled ? "Controlled" : "Uncontrolled";

	if (r->curve_point)
		snprintf(buf, len, "%.0f", plan_pct_rate(observed_max,
		    r->curve_pct));
	else if (r->iorate == RD_IORATE_MAX)
		snprintf(buf, len, "%s MAX", ctl);
	else if (r->iorate == RD_IORATE_CURVE)
		snprintf(buf, len, "%s curve", ctl);
	else if (r->iorate < 0)
		snprintf(buf, len, "%.0f", plan_pct_rate(observed_max,
		    -r->iorate));
	else
		snprintf(buf, len, "%lld", (long long)r->iorate);
	return (buf);
}

/* One loop value as vdbench prints it. */
static void
loop_value_text(const struct run *r, int i, char *buf, size_t len)
{
	double v = r->loop_val[i];

	if (r->loop_kind[i] == LOOP_OPERATION)
		snprintf(buf, len, "%s", r->loop_str[i]);
	else if ((r->loop_kind[i] == LOOP_IORATE ||
	    r->loop_kind[i] == LOOP_FWDRATE) && v == RD_IORATE_MAX)
		snprintf(buf, len, "max");
	else if ((r->loop_kind[i] == LOOP_IORATE ||
	    r->loop_kind[i] == LOOP_FWDRATE) && v == RD_IORATE_CURVE)
		snprintf(buf, len, "curve");
	else if (v < 0)
		snprintf(buf, len, "%g%%", -v);
	else if (r->loop_kind[i] == LOOP_IORATE ||
	    r->loop_kind[i] == LOOP_FWDRATE)
		snprintf(buf, len, "%lld", (long long)v);
	else
		units_whatsize(v, buf, len);
}

/*
 * A fwdrate= list with a percentage in it so far: vdbench keeps one text
 * for its numbers ("fwdrate=N", the last one) and one for its
 * percentages ("iorate=P%", the last one), each from the first value of
 * its kind on, in that order: (100,50%) prints "fwdrate=100 iorate=50%"
 * for its second run, (50%,100) "iorate=50% fwdrate=100". 0 when the
 * plain form applies; else the text is appended at *n.
 */
static int
fwdrate_pct_text(const struct run *r, int i, char *buf, size_t len,
    size_t *n)
{
	const double *v = r->loop_vals[i];
	int k, num = -1, pct = -1, num_first = -1;

	if (r->loop_kind[i] != LOOP_FWDRATE || v == NULL)
		return (0);
	for (k = 0; k <= r->loop_pos[i]; k++) {
		if (v[k] == RD_IORATE_MAX || v[k] == RD_IORATE_CURVE)
			return (0);
		if (v[k] < 0)
			pct = k;
		else {
			num = k;
			if (num_first < 0)
				num_first = pct < 0;
		}
	}
	if (pct < 0)
		return (0);
	if (num >= 0 && num_first == 1)
		*n += (size_t)snprintf(buf + *n, len - *n, "%sfwdrate=%lld "
		    "iorate=%g%%", i > 0 ? " " : "", (long long)v[num],
		    -v[pct]);
	else if (num >= 0)
		*n += (size_t)snprintf(buf + *n, len - *n, "%siorate=%g%% "
		    "fwdrate=%lld", i > 0 ? " " : "", -v[pct],
		    (long long)v[num]);
	else
		*n += (size_t)snprintf(buf + *n, len - *n, "%siorate=%g%%",
		    i > 0 ? " " : "", -v[pct]);
	if (*n >= len)
		*n = len;
	return (1);
}

/* The "For loops:" text. */
const char *
plan_loops_text(const struct run *r, char *buf, size_t len)
{
	size_t n = 0;
	int i;

	if (r->nloops == 0) {
		snprintf(buf, len, "None");
		return (buf);
	}
	buf[0] = '\0';
	for (i = 0; i < r->nloops && n < len; i++) {
		char v[64];

		if (fwdrate_pct_text(r, i, buf, len, &n))
			continue;
		loop_value_text(r, i, v, sizeof(v));
		n += (size_t)snprintf(buf + n, len - n, "%s%s=%s",
		    i > 0 ? " " : "", loop_label(r->loop_kind[i]), v);
	}
	return (buf);
}

/* The "elapsed=" field. */
const char *
plan_elapsed_text(const struct run *r, char *buf, size_t len)
{
	if (journal_recovery_rd(r->rd))
		snprintf(buf, len, "elapsed=(none)");	/* to the end */
	else if (r->warmup_s > 0)
		snprintf(buf, len, "elapsed=%llu warmup=%llu",
		    (unsigned long long)r->elapsed_s,
		    (unsigned long long)r->warmup_s);
	else
		snprintf(buf, len, "elapsed=%llu",
		    (unsigned long long)r->elapsed_s);
	return (buf);
}

/* Directories, files and bytes of an fsd's tree (common/fstree.c). */
void
plan_anchor_size(const struct fsd *f, uint64_t *dirs, uint64_t *files,
    uint64_t *bytes)
{
	struct fstree t;

	if (fstree_init(&t, f) != 0) {
		*dirs = *files = *bytes = 0;
		return;
	}
	*dirs = t.ndirs;
	*files = t.nfiles_all;
	*bytes = t.bytes_all;
}

/* Raw devices are /dev/ paths. */
int
plan_lun_is_raw(const char *lun)
{
	return (strncmp(lun, "/dev/", 5) == 0);
}

/* The SD_format rule for one file lun. */
int
plan_sd_needs_format(const struct sd *s, const char *lun, int exists,
    uint64_t cur_size_bytes, int formatsds, struct errmsg *e)
{
	if (plan_lun_is_raw(lun) || formatsds == 0)
		return (0);
	if (!exists && s->size_bytes == 0) {
		errmsg_set(e, NULL, 0, 0, "Unknown lun size for sd=%s",
		    s->name);
		return (-1);
	}
	if (formatsds == 1)
		return (1);
	return (!exists || cur_size_bytes < s->size_bytes);
}
