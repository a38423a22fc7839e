/* SPDX-License-Identifier: MIT */
/*
 * The WORK builder: plan run + placement + lun sizes + measured rate give
 * the per-slave WORK bodies and the run's request. Moved out of run.c so
 * it can be read, and tested, without processes (see workgen.h).
 */
#include "workgen.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "dataerr.h"
#include "dvsize.h"
#include "engines.h"
#include "iostats.h"
#include "journal_rd.h"
#include "model_json.h"
#include "place.h"
#include "skewplan.h"
#include "units.h"
#include "work_json.h"
#include "xmalloc.h"

#define WORKGEN_MAX_SLAVES	1024	/* run.c's RUN_MAX_SLAVES */

static int	build_fs_run(const struct workgen_in *, const struct run *,
		    struct workgen_run *, struct errmsg *);

/* Index of an sd in the model. */
int
sd_index(const struct model *m, const struct sd *s)
{
	const struct sd *x;
	int i = 0;

	TAILQ_FOREACH(x, &m->sds, entry) {
		if (x == s)
			return (i);
		i++;
	}
	return (-1);
}

/* The lun of an sd on a host ("" when it has none there). */
static const char *
sd_lun_on(const struct workgen_in *in, const struct sd *s, int host)
{
	const char *l = place_sd_lun(s, in->hosts[host].label);

	return (l != NULL ? l : "");
}

/* Any lun of an sd (raw or not is the same on every host). */
static const char *
sd_lun(const struct sd *s)
{
	return (s->nluns > 0 ? s->luns[0].lun : "");
}

/*
 * The typed keywords the WORK builder turns into what a slave takes
 * (model.h; the parser validated them and applied vdbench's defaults).
 */

/* The requested dedupratio= for the flatfile; -1 without dedup. */
static double
dedup_ratio(const struct model *model)
{
	return (model->general.dedupratio >= 1 ? model->general.dedupratio :
	    -1);
}

/* data_errors= (dataerr.h): the errors a slave takes, remove_device. */
static int64_t
max_errors(const struct model *model, int *remove_device)
{
	struct dataerr d;

	dataerr_init(&d, &model->general);
	*remove_device = d.mode == DATAERR_REMOVE;
	return ((int64_t)dataerr_slave_limit(&d));
}

/*
 * dedupratio=, dedupunit= and dedupsets= of the general parameters as the
 * slaves take them; 0 without dedup. dedupunit defaults to 128k and
 * dedupsets to 5% (vdbench's defaults).
 */
static int
dedup_of(const struct model *model, struct work_dedup *d)
{
	const struct general *g = &model->general;

	memset(d, 0, sizeof(*d));
	if (g->dedupratio < 1)
		return (0);
	d->ratio = g->dedupratio;
	d->unit_bytes = g->dedupunit_bytes >= 512 ? g->dedupunit_bytes :
	    131072;
	d->sets = g->dedupsets != 0 ? g->dedupsets : -5.0;
	d->not_across = !g->dedupacross;
	return (1);
}

/* Engine of an sd: engine= from its bag, else the engine table's
 * default: aio with o_direct (where libaio is truly asynchronous), else
 * sync (DESIGN.md). */
const char *
sd_engine(const struct sd *sd, const struct strlist *flags)
{
	int i, direct = 0;

	if (sd->engine != NULL)
		return (sd->engine);
	for (i = 0; i < flags->n; i++) {
		if (strcasecmp(flags->v[i], "o_direct") == 0 ||
		    strcasecmp(flags->v[i], "directio") == 0)
			direct = 1;
	}
	return (engines_default(direct));
}

/* fsd openflags= added to out. */
static void
fsd_openflags(const struct fsd *fsd, struct strlist *out)
{
	int k;

	for (k = 0; k < fsd->openflags.n; k++)
		strlist_add(out, fsd->openflags.v[k]);
}

/*
 * fileselect=poisson's midpoint: 3, or the number given with it
 * ((poisson,5), (poisson,midpoint=5), midpoint=5); 0 when not poisson.
 */
double
select_midpoint(const struct fwd *w)
{
	if (w->fileselect == NULL || strcmp(w->fileselect, "poisson") != 0)
		return (0);
	return (w->poisson_midpoint);
}

/* An sd with its own dedup keywords (vdbench clones the Dedup for it). */
static int
sd_own_dedup(const struct sd *sd)
{
	return (sd->dedupratio >= 1 || sd->dedupsets != 0 ||
	    sd->dedupacross >= 0);
}

/* The letters an sd name starts with (SD_entry.java SdSort.getLetters). */
static size_t
name_letters(const char *n)
{
	size_t i = 0;

	while (n[i] != '\0' && isalpha((unsigned char)n[i]))
		i++;
	return (i);
}

/* vdbench's SdSort: by letters, then by the number after them. */
static int
sdsort_cmp(const void *pa, const void *pb)
{
	const char *a = (*(const struct sd *const *)pa)->name;
	const char *b = (*(const struct sd *const *)pb)->name;
	size_t la = name_letters(a), lb = name_letters(b);
	char *ea, *eb;
	long na, nb;

	if (la != lb || strncasecmp(a, b, la) != 0 || a[la] == '\0' ||
	    b[lb] == '\0')
		return (strcasecmp(a, b));
	na = strtol(a + la, &ea, 10);
	nb = strtol(b + lb, &eb, 10);
	if (*ea != '\0' || *eb != '\0')
		return (strcasecmp(a, b));
	return (na < nb ? -1 : na > nb);
}

/* Java's String.hashCode, spread as HashMap.hash() spreads it. */
static uint32_t
java_map_hash(const char *s)
{
	uint32_t h = 0;

	for (; *s != '\0'; s++)
		h = 31 * h + (unsigned char)*s;
	return (h ^ h >> 16);
}

/*
 * Where sd's units start among the sds that share the general dedup
 * parameters, and their size together (vdbench's
 * SdDedup.adjustSdDedupValues(): the sds sorted by SdSort, put in a
 * HashMap(8) by name and added up in its iteration order: by bucket of
 * the final table, then in the order put). 0 and 0 for an sd with its own
 * dedup keywords or when a size is not known.
 */
static void
dedup_group(const struct workgen_in *in, const struct sd *sd,
    uint64_t *rel, uint64_t *total)
{
	const struct sd *x, **v;
	uint64_t cap = 8, b;
	int n = 0, i;

	*rel = *total = 0;
	if (in->sd_size == NULL || sd_own_dedup(sd))
		return;
	TAILQ_FOREACH(x, &in->model->sds, entry)
		n++;
	v = xcalloc((size_t)n + 1, sizeof(*v));
	n = 0;
	TAILQ_FOREACH(x, &in->model->sds, entry)
		if (!sd_own_dedup(x))
			v[n++] = x;
	qsort(v, (size_t)n, sizeof(*v), sdsort_cmp);
	while ((uint64_t)n > cap * 3 / 4)
		cap *= 2;		/* HashMap's resizes at 0.75 */
	for (b = 0; b < cap; b++) {
		for (i = 0; i < n; i++) {
			if ((java_map_hash(v[i]->name) & (cap - 1)) != b)
				continue;
			if (v[i] == sd)
				*rel = *total;
			*total += in->sd_size[sd_index(in->model, v[i])];
		}
	}
	free(v);
	if (*rel >= *total)
		*rel = *total = 0;	/* its own size not known */
}

/* The WORK "sds" entry of an sd for one slave (on host). */
static void
work_sd(const struct workgen_in *in, int host, const struct sd *sd,
    int threads, double rate, const struct strlist *flags, int create,
    struct work_sd *o)
{
	memset(o, 0, sizeof(*o));
	o->sd = xstrdup(sd->name);
	o->lun = xstrdup(sd_lun_on(in, sd, host));
	o->threads = threads;
	o->rate_per_s = rate;
	strlist_copy(&o->openflags, flags);
	o->create = create ||
	    (engines_flags(sd_engine(sd, flags)) & ENGINE_NOIO) != 0;
	o->overwrite = sd->overwrite_data;
	o->mounted_ok = sd->allow_mounted_write;
	o->engine = xstrdup(sd_engine(sd, flags));
	/* its own dedupratio=/dedupsets= over the general ones */
	o->has_dedup = in->model->general.dedupratio >= 1 &&
	    sd_own_dedup(sd);
	if (in->model->general.dedupratio >= 1)
		dedup_group(in, sd, &o->dedup_rel_bytes,
		    &o->dedup_group_bytes);
	o->dedup_not_across = sd->dedupacross >= 0 ? !sd->dedupacross :
	    !in->model->general.dedupacross;
	o->dedup_ratio = sd->dedupratio >= 1 ? sd->dedupratio :
	    in->model->general.dedupratio;
	o->dedup_sets = sd->dedupsets;
	if (in->model->general.validate && in->sd_xmin != NULL)
		o->dv_kb_bytes = in->sd_xmin[sd_index(in->model, sd)];
	/* the key map spans the sd's size=, not the file's length */
	if (in->model->general.validate && in->sd_size != NULL)
		o->dv_size_bytes = in->sd_size[sd_index(in->model, sd)];
	if (in->model->general.journal != 0) {
		if (sd->journal_dir != NULL)
			o->journal_dir = xstrdup(sd->journal_dir);
	}
}

/* What every slave's WORK of run c carries besides its sds and wgs. */
static void
work_common(const struct workgen_in *in, const struct workgen_run *c,
    int slave, struct slave_work *w)
{
	w->edges = in->model->general.histogram;
	w->slave_index = slave;
	w->max_errors = max_errors(in->model, &w->remove_device);
	w->compratio = c->req.compratio >= 1 ? c->req.compratio : 1;
	w->has_dedup = dedup_of(in->model, &w->dedup);
	w->pattern_file = in->model->general.pattern != NULL ?
	    xstrdup(in->model->general.pattern) : NULL;
	w->has_compseed = in->model->general.compseed_set;
	w->compseed = (uint64_t)in->model->general.compseed;
	w->validate = c->format ? 0 : in->model->general.validate;
	w->journal = c->format ? 0 : in->model->general.journal & JOURNAL_ALL;
	w->distribution = c->plan_run != NULL ?
	    (int)c->plan_run->rd->distribution : 0;
}

/*
 * The address range of a WG (PARMFILE.md 12.6): r[0..1] the miss area,
 * r[2..3] the hit area, r[4..5] where a hotband or range= past the end
 * of the lun wraps (end, start; 0 when it does not). -1 when too small.
 */
static int
wg_range(const struct workgen_in *in, const struct sd *sd,
    const struct wd *wd, double hitarea, uint64_t r[6], struct errmsg *e)
{
	int si = sd_index(in->model, sd);
	uint64_t size = in->sd_size[si], x = in->sd_xmax[si];
	const double *rg = wd->range_set ? wd->range : sd->range_set ?
	    sd->range : NULL;
	double lo, hi;
	uint64_t low, high, h = (uint64_t)hitarea;
	int wrap = 0;

	if (wd->hotband_set) {
		rg = wd->hotband;
		wrap = wd->hotband_wrap;
	} else if (rg != NULL && rg[0] < 100 && rg[1] > 100 && rg[1] < 200)
		wrap = 1;	/* range= crossing 100 wraps as hotband= does;
				 * a low end past 100 is bytes (12.6) */
	lo = rg != NULL ? rg[0] : 0;
	hi = rg != NULL ? rg[1] : 100;
	if (wrap && wd->seek_eof) {
		wrap = 0;	/* 12.6.1: seekpct=eof resets it to 100 */
		hi = 100;
	}
	if (x == 0)
		x = 512;
	low = lo <= 100 ? (uint64_t)(lo / 100 * (double)size) : (uint64_t)lo;
	high = hi <= 100 || wrap ? (uint64_t)(hi / 100 * (double)size) :
	    (uint64_t)hi;
	if (high > size && !wrap)
		high = size;
	r[0] = low + h;			/* miss area */
	r[1] = high;
	r[2] = low;			/* hit area */
	r[3] = low + h;
	r[4] = r[5] = 0;
	if (plan_lun_is_raw(sd_lun(sd))) {
		if (r[0] == 0)
			r[0] = x;
		if (r[2] == 0)
			r[2] = x;
	}
	r[0] = r[0] / x * x + sd->offset_bytes;
	r[1] = r[1] / x * x;
	r[2] = r[2] / x * x + sd->offset_bytes;
	r[3] = r[3] / x * x;
	if (wrap) {
		r[4] = size / x * x;
		r[5] = (plan_lun_is_raw(sd_lun(sd)) ? x : 0) + sd->offset_bytes;
		if (r[1] > r[4] + (r[4] - r[5]))
			r[1] = r[4] + (r[4] - r[5]);
	}
	if (r[1] < r[0] + 2 * x) {
		errmsg_set(e, "", 0, 0, "wd=%s,sd=%s: Lun space specified for either "
		    "cache hits or cache misses (%llu bytes) must be at least "
		    "twice the xfersize (%llu). Insufficient amount of lun size "
		    "specified", wd->name, sd->name, (unsigned long long)
		    (r[1] > r[0] ? r[1] - r[0] : 0), (unsigned long long)x);
		return (-1);
	}
	if (r[3] < r[2])
		r[3] = r[2];
	return (0);
}

/* One request value shared by every workload, or -1. */
static double
same_or_na(double cur, double v, int first)
{
	if (first)
		return (v);
	return (cur == v ? cur : -1);
}

/* A run's output, empty, for in's slaves. */
static void
run_init(const struct workgen_in *in, struct workgen_run *c)
{
	memset(c, 0, sizeof(*c));
	c->nslaves = in->nslaves;
	c->work = xcalloc((size_t)in->nslaves + 1, sizeof(*c->work));
	c->has_eof = xcalloc((size_t)in->nslaves + 1, sizeof(*c->has_eof));
}

/* The host of slave i (hosts hold slaves first..first+nslaves-1). */
static int
slave_host(const struct workgen_in *in, int i)
{
	int h;

	for (h = 0; h < in->nhosts; h++)
		if (i >= in->hosts[h].first &&
		    i < in->hosts[h].first + in->hosts[h].nslaves)
			return (h);
	return (0);
}

/* The run's request (the flatfile's columns): one value or -1 (n/a). */
static void
run_request(const struct run *pr, const struct placement *p,
    struct workgen_run *c)
{
	int k, first = 1;

	for (k = 0; k < p->nwgs; k++) {
		const struct place_wg *g = &p->wgs[k];
		const struct wd *wd = g->wd;
		double xs = run_loop_value(pr, LOOP_XFERSIZE, -1);
		double rdpct = run_loop_value(pr, LOOP_RDPCT, wd->readpct);
		double rh = run_loop_value(pr, LOOP_RHPCT, wd->rhpct);
		double wh = run_loop_value(pr, LOOP_WHPCT, wd->whpct);
		double sk = run_loop_value(pr, LOOP_SEEKPCT, wd->seekpct);
		double th = run_loop_value(pr, LOOP_THREADS, g->sd->threads);

		c->req.xfersize = same_or_na(c->req.xfersize, xs > 0 ? xs :
		    wd->xfer.kind == XFER_SINGLE ?
		    (double)wd->xfer.size_bytes[0] : -1, first);
		c->req.rdpct = same_or_na(c->req.rdpct, rdpct, first);
		c->req.rhpct = same_or_na(c->req.rhpct, rh, first);
		c->req.whpct = same_or_na(c->req.whpct, wh, first);
		c->req.seekpct = same_or_na(c->req.seekpct, wd->seek_eof ? 0 :
		    sk, first);
		c->req.threads = same_or_na(c->req.threads, th, first);
		first = 0;
	}
}

/* Slave i's sds: each with its threads, rate and open flags. */
static void
raw_sds(const struct workgen_in *in, const struct run *pr,
    const struct placement *p, int i, struct slave_work *sw)
{
	int k;

	for (k = 0; k < p->nsds; k++) {
		const struct sd *sd = p->sds[k].sd;
		const struct strlist *fl = pr->rd->openflags.n > 0 ?
		    &pr->rd->openflags : &sd->openflags;
		double rate_sum = 0;
		int g, nmax = 0;

		if (p->sds[k].slave != i)
			continue;
		for (g = 0; g < p->nwgs; g++) {
			if (p->wgs[g].sd != sd || p->wgs[g].slave != i)
				continue;
			rate_sum += p->wgs[g].rate_per_s;
			nmax += p->wgs[g].rate_per_s <= 0;
			if (pr->rd->openflags.n == 0 &&
			    p->wgs[g].wd->openflags.n > 0)
				fl = &p->wgs[g].wd->openflags;
		}
		work_sd(in, slave_host(in, i), sd, p->sds[k].threads,
		    nmax > 0 ? 0 : rate_sum, fl, 0, &sw->sds[sw->nsds++]);
	}
}

/* Slave i's wgs, with the run's for-loop values and address ranges. */
static int
raw_wgs(const struct workgen_in *in, const struct run *pr,
    const struct placement *p, int i, struct workgen_run *c,
    struct slave_work *sw, struct errmsg *e)
{
	int k;

	for (k = 0; k < p->nwgs; k++) {
		const struct place_wg *g = &p->wgs[k];
		const struct wd *wd = g->wd;
		struct xfer x;
		uint64_t rg[6];
		struct work_wg *wg;
		double xs = run_loop_value(pr, LOOP_XFERSIZE, -1);
		double rh = run_loop_value(pr, LOOP_RHPCT, wd->rhpct);
		double wh = run_loop_value(pr, LOOP_WHPCT, wd->whpct);
		double ha = rh + wh > 0 ? run_loop_value(pr, LOOP_HITAREA,
		    (double)g->sd->hitarea_bytes) : 0;

		if (g->slave != i)
			continue;
		if (wg_range(in, g->sd, wd, ha, rg, e) != 0)
			return (-1);
		if (xs > 0) {
			memset(&x, 0, sizeof(x));
			xfer_set_single(&x, (uint64_t)xs);
		} else
			xfer_copy(&x, &wd->xfer);
		/* the journal_recovery rd reads each block once, in order */
		if (in->model->general.validate &&
		    !journal_recovery_rd(pr->rd) && dvsize_check(p, g, rg,
		    g->sd->hitarea_bytes, xfer_max_bytes(&x), &c->dv_box,
		    e) != 0) {
			xfer_clear(&x);
			return (-1);
		}
		wg = &sw->wgs[sw->nwgs++];
		wg->wd = xstrdup(wd->name);
		wg->sd = xstrdup(g->sd->name);
		wg->skew_pct = g->skew_pct;
		wg->readpct = run_loop_value(pr, LOOP_RDPCT, wd->readpct);
		wg->seekpct = run_loop_value(pr, LOOP_SEEKPCT, wd->seekpct);
		wg->seek_eof = wd->seek_eof;
		wg->rhpct = rh;
		wg->whpct = wh;
		wg->xfer = x;	/* moves: freed with sw */
		wg->low_bytes = rg[0];
		wg->high_bytes = rg[1];
		wg->hit_low_bytes = rg[2];
		wg->hit_high_bytes = rg[3];
		wg->align_bytes = g->sd->align_bytes;
		wg->hot = wd->hotband_set;
		wg->wrap_end_bytes = rg[4];
		wg->wrap_to_bytes = rg[4] != 0 ? rg[5] : 0;
		wg->priority = wd->priority_set ? wd->priority : 0;
		wg->has_stride = wd->stride_set;
		wg->stride_min_bytes = (uint64_t)wd->stride_bytes[0];
		wg->stride_max_bytes = (uint64_t)wd->stride_bytes[1];
		wg->poisson_mid = wd->poisson_mid;
		wg->streams = wd->streams;
		c->has_eof[i] |= wd->seek_eof;
		c->eof_run |= wd->seek_eof;
	}
	return (0);
}

/* maxdata=: bytes, or a multiple (<= 100) of the run's lun sizes. */
static void
run_maxdata(const struct run *pr, double lunsize, struct workgen_run *c)
{
	const struct rd *rd = pr->rd;
	double v = rd->maxdata;

	if (rd->maxdata_dir >= 0 && rd->maxdata > 0) {
		c->maxdata_dir = rd->maxdata_dir;
		c->maxdata_bytes = v <= 100 ? (uint64_t)(v * lunsize) :
		    (uint64_t)v;
		units_whatsize(v, c->maxdata_text, sizeof(c->maxdata_text));
		if (c->nintervals == 0 || c->maxdata_bytes == 0)
			c->maxdata_bytes = 0;
	}
}

/* A raw run's rate (curve and N% from the observed one) and texts. */
static void
run_header(const struct workgen_in *in, const struct run *pr,
    struct run *r, struct workgen_run *c)
{
	char rate[64], el[128], loops[1024];
	double observed = in->observed_rate;

	if ((pr->curve_point || (pr->iorate < 0 &&
	    pr->iorate != RD_IORATE_CURVE)) && observed <= 0) {
		/* the caller says "iorate=curve. No i/o rate observed" */
		c->rate_guessed = 1;
		observed = 10000;
	}
	c->observed_rate = observed;
	if (pr->curve_point)
		r->iorate = plan_pct_rate(observed, pr->curve_pct);
	else if (pr->iorate < 0 && pr->iorate != RD_IORATE_CURVE)
		r->iorate = plan_pct_rate(observed, -pr->iorate);
	c->curve_max = pr->iorate == RD_IORATE_CURVE && !pr->curve_point;
	plan_loops_text(pr, c->loops, sizeof(c->loops));
	snprintf(c->text, sizeof(c->text), "Starting RD=%s; I/O rate: %s; %s; "
	    "For loops: %s", pr->name, plan_rate_text(pr, observed, rate,
	    sizeof(rate)), plan_elapsed_text(pr, el, sizeof(el)),
	    plan_loops_text(pr, loops, sizeof(loops)));
	snprintf(c->rate_text, sizeof(c->rate_text), "%s", rate);
	c->nintervals = pr->nintervals;
	c->first_avg = pr->first_avg;
	c->interval_ns = pr->interval_s * 1000000000ull;
	c->pause_s = pr->rd->pause_s;
	c->req.reqrate = r->iorate == RD_IORATE_CURVE ? RD_IORATE_MAX :
	    r->iorate;
	c->req.compratio = run_loop_value(pr, LOOP_COMP,
	    in->model->general.compratio);
	c->req.dedupratio = dedup_ratio(in->model);
}

/*
 * The slave of host h that drives sd s under data validation: the sds
 * dealt round-robin over the host's slaves in parmfile order, so an sd
 * stays on the slave that holds its key map and journal in every rd (the
 * journal_recovery rd and the format included), whatever sds a run uses.
 */
int
dv_sd_slave(const struct workgen_in *in, int h, const struct sd *s)
{
	const struct mhost *mh = &in->hosts[h];

	if (mh->nslaves < 1)
		return (mh->first);
	return (mh->first + sd_index(in->model, s) % mh->nslaves);
}

/*
 * Controlled MAX (a wd with skew=, iorate= or priority=, at max or a
 * curve's max): the slave holds its WGs' shares of the skew across its
 * sds, as vdbench's waiter task does (slave/skewgate.h). One sd alone
 * needs no gate: its threads pick their WG by skew. Not with priority=,
 * whose threads pick by priority.
 */
static int
hold_skew(const struct run *pr, const struct slave_work *sw)
{
	int k;

	if (!pr->controlled || sw->nsds < 2)
		return (0);
	for (k = 0; k < sw->nsds; k++) {
		if (sw->sds[k].rate_per_s > 0)
			return (0);
	}
	/* priority= orders the WGs of an sd by itself */
	for (k = 0; k < sw->nwgs; k++) {
		if (sw->wgs[k].priority > 0)
			return (0);
	}
	return (1);
}


/* Build the WORK of a planned run for every slave. */
int
workgen_plan_run(const struct workgen_in *in, const struct run *pr,
    struct workgen_run *c, struct errmsg *e)
{
	struct run r = *pr;
	struct placement p;
	struct place_host *ph;
	struct slave_work *sws;
	int i, k, sync_ms;
	double lunsize = 0;

	run_init(in, c);
	snprintf(c->name, sizeof(c->name), "%s", pr->name);
	c->plan_run = pr;
	if (pr->nfwds > 0)
		return (build_fs_run(in, pr, c, e));
	run_header(in, pr, &r, c);
	ph = xcalloc((size_t)in->nhosts, sizeof(*ph));
	for (i = 0; i < in->nhosts; i++) {
		ph[i].label = in->hosts[i].label;
		/* Data validation: each sd on one slave of its host, the
		 * one that keeps its key map from rd to rd (vdbench drives
		 * a validated sd from one slave): placed as if the host had
		 * one slave, then moved to its sd's dv_sd_slave() */
		ph[i].nslaves = in->model->general.validate ? 1 :
		    in->hosts[i].nslaves;
	}
	k = place_run_hosts(&r, ph, in->nhosts, &p, e);
	free(ph);
	if (k != 0)
		return (-1);
	if (in->model->general.validate) {
		/* one placement slave per host: number h is host h's */
		for (k = 0; k < p.nsds; k++)
			p.sds[k].slave = dv_sd_slave(in, p.sds[k].slave,
			    p.sds[k].sd);
		for (k = 0; k < p.nwgs; k++)
			p.wgs[k].slave = dv_sd_slave(in, p.wgs[k].slave,
			    p.wgs[k].sd);
	}
	c->skew = xcalloc((size_t)p.nwgs + 1, sizeof(*c->skew));
	for (k = 0; k < p.nwgs; k++) {
		c->skew[k].wd = p.wgs[k].wd->name;
		c->skew[k].pct = p.wgs[k].skew_pct;
	}
	c->nskew = p.nwgs;
	run_request(pr, &p, c);
	sws = xcalloc((size_t)in->nslaves + 1, sizeof(*sws));
	for (i = 0; i < in->nslaves; i++) {
		struct slave_work *sw = &sws[i];

		sw->sds = xcalloc((size_t)p.nsds + 1, sizeof(*sw->sds));
		sw->wgs = xcalloc((size_t)p.nwgs + 1, sizeof(*sw->wgs));
		raw_sds(in, pr, &p, i, sw);
		if (raw_wgs(in, pr, &p, i, c, sw, e) != 0) {
			for (k = 0; k <= i; k++)
				slave_work_clear(&sws[k]);
			free(sws);
			place_free(&p);
			return (-1);
		}
		if (sw->nwgs > 0) {
			work_common(in, c, i, sw);
			sw->hold_skew = hold_skew(pr, sw);
			sw->recovery = journal_recovery_rd(pr->rd);
		}
	}
	sync_ms = skewplan_sync_ms(pr, &p, sws, in->nslaves);
	for (i = 0; i < in->nslaves; i++) {
		if (sws[i].nwgs > 0) {
			sws[i].skew_sync_ms = sync_ms;
			c->work[i] = work_to_json(&sws[i]);
		}
		slave_work_clear(&sws[i]);
	}
	free(sws);
	for (k = 0; k < p.nsds; k++) {
		int dup = 0, j;

		for (j = 0; j < k; j++)
			dup |= p.sds[j].sd == p.sds[k].sd;
		if (!dup)
			lunsize += (double)in->sd_size[sd_index(in->model,
			    p.sds[k].sd)];
	}
	c->req.lunsize_gb = lunsize / (1024.0 * 1024 * 1024);
	place_free(&p);
	run_maxdata(pr, lunsize, c);
	return (0);
}


/* fwd=format, when the parmfile has one (its threads, xfersize, flags). */
static const struct fwd *
format_fwd(const struct model *model)
{
	const struct fwd *f;

	TAILQ_FOREACH(f, &model->fwds, entry) {
		if (strcmp(f->name, "format") == 0)
			return (f);
	}
	return (NULL);
}

/* Whether an fwd runs on a host (fwd host=, default all). */
static int
fwd_on_host(const struct fwd *w, const char *label)
{
	int i;

	if (w == NULL || w->hosts.n == 0)
		return (1);
	for (i = 0; i < w->hosts.n; i++)
		if (place_host_match(w->hosts.v[i], label))
			return (1);
	return (0);
}

/* The hosts an fwd runs on. */
int
fwd_nhosts(const struct mhost *hosts, int nhosts, const struct fwd *w)
{
	int i, n = 0;

	for (i = 0; i < nhosts; i++)
		n += fwd_on_host(w, hosts[i].label);
	return (n);
}

/*
 * The slaves that work on fsd f for fwd w (PARMFILE.md 10.1): a shared=yes
 * fsd on every slave of every host the fwd runs on, each taking its slice
 * of the files; otherwise on one slave, of the fwd's first host, the fsds
 * dealt round-robin over that host's slaves, so no two processes ever
 * clean or make one tree at the same time.
 */
static int
fs_slaves(const struct workgen_in *in, const struct fwd *w, const struct fsd *f,
    int *out)
{
	const struct fsd *x;
	int i, k, n = 0, ord = 0;

	TAILQ_FOREACH(x, &in->model->fsds, entry) {
		if (x == f)
			break;
		ord++;
	}
	for (i = 0; i < in->nhosts; i++) {
		const struct mhost *h = &in->hosts[i];

		if (!fwd_on_host(w, h->label) || h->nslaves < 1)
			continue;
		if (!f->shared) {
			out[0] = h->first + ord % h->nslaves;
			return (1);
		}
		for (k = 0; k < h->nslaves && n < WORKGEN_MAX_SLAVES; k++)
			out[n++] = h->first + k;
	}
	return (n);
}

/* The geometry of an fsd's tree, as the slave builds it. */
static void
fsd_tree(const struct fsd *f, struct work_fsd *t)
{
	memset(t, 0, sizeof(*t));
	t->depth = f->depth;
	t->width = f->width;
	t->files = f->files;
	t->dist_all = f->dist_all;
	t->nsizes = f->nsizes;
	t->size_bytes = xcalloc((size_t)f->nsizes + 1, sizeof(uint64_t));
	if (f->nsizes > 0)
		memcpy(t->size_bytes, f->size_bytes,
		    (size_t)f->nsizes * sizeof(uint64_t));
	if (f->size_pct != NULL) {
		t->size_pct = xcalloc((size_t)f->nsizes + 1, sizeof(double));
		memcpy(t->size_pct, f->size_pct,
		    (size_t)f->nsizes * sizeof(double));
	}
	t->size_avg = f->size_avg;
	t->totalsize_bytes = f->totalsize_bytes;
	t->wss_bytes = f->wss_bytes;
}

/* Data validation's key block of an fsd (master/fsdv.c), or 0. */
static uint64_t
fsd_kb(const struct workgen_in *in, const struct fsd *fsd)
{
	const struct fsd *x;
	int i = 0;

	if (!in->model->general.validate || in->fsd_xmin == NULL)
		return (0);
	TAILQ_FOREACH(x, &in->model->fsds, entry) {
		if (x == fsd)
			return (in->fsd_xmin[i]);
		i++;
	}
	return (0);
}

/*
 * One fwg per slave that gets fwd w on fsd: its threads dealt over those
 * slaves; each slave's threads get slices first..first+n-1 of total, so
 * no two threads share a file (fileio=(random,shared) aside).
 */
static void
add_fwgs(const struct workgen_in *in, struct workgen_run *c,
    struct slave_work *sw, const struct fwd *w, const char *fwd,
    const struct fsd *fsd, const char *op, double readpct,
    const struct xfer *x, const char *fileio, const char *select,
    double stopafter, int threads, double rate, double skew,
    const struct strlist *flags, const char *target_anchor, double midpoint)
{
	int sl[WORKGEN_MAX_SLAVES], nsl = fs_slaves(in, w, fsd, sl), s, i;
	int first = 0;

	for (s = 0; s < nsl && first < threads; s++) {
		int n = threads / nsl + (s < threads % nsl);

		i = sl[s];
		struct work_fwg *g;

		if (n == 0)
			continue;
		sw[i].is_fs = 1;
		sw[i].fwgs = xreallocarray(sw[i].fwgs, (size_t)sw[i].nfwgs + 1,
		    sizeof(*sw[i].fwgs));
		g = &sw[i].fwgs[sw[i].nfwgs++];
		memset(g, 0, sizeof(*g));
		strlist_copy(&g->openflags, flags);
		/* rd > fwd (or fwd=format) > fsd (PARMFILE.md 6.1) */
		if (flags->n == 0)
			fsd_openflags(fsd, &g->openflags);
		g->fwd = xstrdup(fwd);
		g->fsd = xstrdup(fsd->name);
		g->anchor = xstrdup(fsd->anchor);
		g->operation = xstrdup(op);
		xfer_copy(&g->xfer, x);
		g->readpct = readpct;
		g->stopafter = stopafter;
		g->threads = n;
		g->thread_first = first;
		g->thread_total = threads;
		g->rate_per_s = rate * n / threads;
		g->skew_pct = skew * n / threads;
		g->fileio = xstrdup(fileio);
		g->fileselect = xstrdup(select);
		g->target_anchor = target_anchor != NULL ?
		    xstrdup(target_anchor) : NULL;
		g->has_poisson_midpoint = midpoint > 0;
		g->poisson_midpoint = midpoint;
		fsd_tree(fsd, &g->tree);
		g->dv_kb_bytes = fsd_kb(in, fsd);
		if (strcmp(select, "once") == 0 && strcmp(op, "format") != 0) {
			/* vdbench ends the run when every 'once' is through */
			c->has_eof[i] = 1;
			c->eof_run = c->once_run = 1;
		}
		first += n;
	}
}

/* fileio= as the slave takes it: random, sequential, random,shared, ... */
static const char *
fileio_word(const struct fwd *w)
{
	if (w->fileio_shared)
		return ("random,shared");
	if (w->fileio_delete)
		return ("sequential,delete");
	return (w->fileio != NULL ? w->fileio : "sequential");
}

/* The file-system WORK bodies of the slaves with fwgs; frees sw. */
static void
fs_encode(const struct workgen_in *in, struct workgen_run *c,
    struct slave_work *sw)
{
	int i, k, j, n0 = in->cleaned != NULL ? in->cleaned->n : 0;

	/* -c: each anchor's first run deletes its old tree (vdbench's
	 * FwgRun: setDeletePending the first time a slave gets it) */
	for (i = 0; in->cleaned != NULL && i < in->nslaves; i++) {
		for (k = 0; k < sw[i].nfwgs; k++) {
			struct work_fwg *g = &sw[i].fwgs[k];

			for (j = 0; j < in->cleaned->n; j++)
				if (strcmp(in->cleaned->v[j], g->anchor) == 0)
					break;
			if (j < n0)
				continue;	/* an earlier run's */
			g->clean_first = 1;
			if (j == in->cleaned->n)
				strlist_add(in->cleaned, g->anchor);
		}
	}
	for (i = 0; i < in->nslaves; i++) {
		if (sw[i].nfwgs > 0) {
			work_common(in, c, i, &sw[i]);
			/* an fsd's format writes vdbench's DV data (key 1) */
			sw[i].validate = in->model->general.validate;
			c->work[i] = work_to_json(&sw[i]);
		}
		slave_work_clear(&sw[i]);
	}
	free(sw);
}

/* A run without any work: -1 with e set. */
static int
no_work(const struct workgen_run *c, struct errmsg *e)
{
	errmsg_set(e, "", 0, 0, "run %s has no work for any slave", c->name);
	return (-1);
}

/* A format run (format_for_<rd>): each fsd once; the fwgs it made. */
static int
fs_format(const struct workgen_in *in, const struct run *pr,
    struct workgen_run *c, struct slave_work *sw)
{
	const struct rd *rd = pr->rd;
	int i, k, nfwgs = 0;
	const struct fwd *ff = format_fwd(in->model);
	struct xfer x;
	int threads = ff != NULL && ff->threads > 0 ? ff->threads : 8;
	int clean = plan_rd_format(rd, "yes") ||
	    plan_rd_format(rd, "clean");
	int only_clean = plan_rd_format(rd, "clean") &&
	    !plan_rd_format(rd, "yes") && !plan_rd_format(rd, "restart");

	snprintf(c->text, sizeof(c->text), "Starting RD=%s", pr->name);
	snprintf(c->rate_text, sizeof(c->rate_text), "max");
	c->format = 1;
	c->eof_run = 1;
	c->nintervals = 0;
	c->first_avg = 2;
	memset(&x, 0, sizeof(x));
	if (ff != NULL && ff->xfer.n > 0)
		xfer_set_single(&x, ff->xfer.size_bytes[0]);
	else
		xfer_set_single(&x, 128 * 1024);
	/* Each fsd once, whichever fwds use it. */
	for (i = 0; i < pr->nfwds; i++) {
		for (k = 0; k < pr->fwds[i].nfsds; k++) {
			const struct fsd *f = pr->fwds[i].fsds[k];
			int seen = 0, a, b;

			for (a = 0; a <= i; a++)
				for (b = 0; b < pr->fwds[a].nfsds &&
				    (a < i || b < k); b++)
					seen |= pr->fwds[a].fsds[b] == f;
			if (seen)
				continue;
			add_fwgs(in, c, sw, pr->fwds[i].fwd, "format", f,
			    "format", -1, &x,
			    "sequential", "sequential", 0, threads, 0, 0,
			    ff != NULL && ff->openflags.n > 0 ?
			    &ff->openflags : &rd->openflags, NULL, 0);
			nfwgs++;
		}
	}
	xfer_clear(&x);
	for (i = 0; i < in->nslaves; i++) {
		if (sw[i].nfwgs == 0)
			continue;
		sw[i].fs.clean = clean || only_clean;
		sw[i].fs.restart = plan_rd_format(rd, "restart");
		sw[i].fs.dirs_only = plan_rd_format(rd, "dir");
		sw[i].fs.clean_only = only_clean;
		sw[i].fs.create_anchors = in->model->general.create_anchors;
		c->has_eof[i] = 1;
	}
	/* format=(only,limited): the format stops after elapsed= */
	if (plan_rd_format(rd, "limited"))
		c->nintervals = pr->nintervals;
	return (nfwgs);
}

/*
 * fwdrate= of a file-system run, 0 for max: a curve point or an N% run
 * is that share of the observed rate, as iorate= (8.3); the curve's own
 * max run marks itself so its rate becomes the curve's base.
 */
static double
fs_rate(const struct workgen_in *in, const struct run *pr,
    struct workgen_run *c)
{
	double observed = in->observed_rate;

	if (!pr->curve_point && !(pr->iorate < 0)) {
		c->curve_max = pr->iorate == RD_IORATE_CURVE;
		return (pr->iorate == RD_IORATE_MAX ||
		    pr->iorate == RD_IORATE_CURVE ? 0 : pr->iorate);
	}
	if (observed <= 0) {
		/* the caller says "iorate=curve. No i/o rate observed" */
		c->rate_guessed = 1;
		observed = 10000;
	}
	c->observed_rate = observed;
	return (plan_pct_rate(observed, pr->curve_point ? pr->curve_pct :
	    -pr->iorate));
}

/* A file-system run (PARMFILE.md 10): format_for_<rd> or the rd itself. */
static int
build_fs_run(const struct workgen_in *in, const struct run *pr,
    struct workgen_run *c, struct errmsg *e)
{
	static const struct strlist no_flags;
	const struct rd *rd = pr->rd;
	double rate = pr->format_run ? 0 : fs_rate(in, pr, c);
	char loops[1024], el[128];
	double skew_given = 0;
	int i, k, j, nfwgs = 0, skew_free = 0, nops = 1;
	const struct strlist *ops = rd->operations.n > 0 ? &rd->operations :
	    NULL;
	struct slave_work *sw = xcalloc((size_t)in->nslaves + 1, sizeof(*sw));

	snprintf(c->name, sizeof(c->name), "%s", pr->name);
	plan_loops_text(pr, c->loops, sizeof(c->loops));
	c->plan_run = pr;
	c->interval_ns = pr->interval_s * 1000000000ull;
	c->pause_s = rd->pause_s;
	c->req.reqrate = rate > 0 ? rate : RD_IORATE_MAX;
	c->req.compratio = in->model->general.compratio;
	c->req.dedupratio = -1;
	c->req.xfersize = c->req.threads = c->req.rdpct = -1;
	c->req.rhpct = c->req.whpct = c->req.seekpct = -1;
	c->fs = 1;
	if (pr->format_run) {
		nfwgs = fs_format(in, pr, c, sw);
		fs_encode(in, c, sw);
		return (nfwgs > 0 ? 0 : no_work(c, e));
	}
	if (rate > 0)
		snprintf(c->rate_text, sizeof(c->rate_text), "%.0f", rate);
	else
		snprintf(c->rate_text, sizeof(c->rate_text), "max");
	plan_elapsed_text(pr, el, sizeof(el));
	plan_loops_text(pr, loops, sizeof(loops));
	/* vdbench's punctuation: "fwdrate=max." but "fwdrate=300;" */
	if (snprintf(c->text, sizeof(c->text), "Starting RD=%s; %s; "
	    "fwdrate=%s%s For loops: %s", pr->name, el, c->rate_text,
	    rate > 0 ? ";" : ".", loops) >=
	    (int)sizeof(c->text))
		c->text[sizeof(c->text) - 1] = '\0';
	c->nintervals = pr->nintervals;
	c->first_avg = pr->first_avg;
	if (ops != NULL)
		nops = ops->n;
	/* fwd skew= shares fwdrate=; the others split what is left. */
	for (i = 0; i < pr->nfwds; i++) {
		if (pr->fwds[i].fwd->skew_set)
			skew_given += pr->fwds[i].fwd->skew_pct;
		else
			skew_free++;
	}
	for (i = 0; i < pr->nfwds * nops; i++) {
		const struct fwd *w = pr->fwds[i / nops].fwd;
		double share = (w->skew_set ? w->skew_pct : skew_free > 0 ?
		    (100 - skew_given) / skew_free : 0) / nops;
		const char *op = ops != NULL ? ops->v[i % nops] :
		    w->operation != NULL ? w->operation : "read";
		double th = run_loop_value(pr, LOOP_THREADS, w->threads > 0 ?
		    w->threads : 1), rdpct = run_loop_value(pr, LOOP_RDPCT,
		    w->readpct_set ? w->readpct : -1);
		double xs = run_loop_value(pr, LOOP_XFERSIZE, -1);
		int per_fsd, nf = pr->fwds[i / nops].nfsds;
		struct xfer x;

		for (j = 0; j < pr->nloops; j++)
			if (pr->loop_kind[j] == LOOP_OPERATION &&
			    pr->loop_str[j] != NULL)
				op = pr->loop_str[j];
		/* rd operations=: the fwd's threads divided over them */
		per_fsd = (int)th / nops / (nf > 0 ? nf : 1);
		if (per_fsd < 1)
			per_fsd = 1;
		memset(&x, 0, sizeof(x));
		if (xs > 0)
			xfer_set_single(&x, (uint64_t)xs);
		else
			xfer_copy(&x, &w->xfer);
		for (k = 0; k < nf; k++) {
			add_fwgs(in, c, sw, w, w->name,
			    pr->fwds[i / nops].fsds[k],
			    op, rdpct,
			    &x, fileio_word(w),
			    w->fileselect != NULL ? w->fileselect :
			    "sequential", w->stopafter, per_fsd, rate *
			    share / 100 / nf, share / nf,
			    rd->openflags.n > 0 ?
			    &rd->openflags : w->openflags.n > 0 ?
			    &w->openflags : &no_flags, w->target != NULL &&
			    target_fsd(in->model, w->target) != NULL ?
			    target_fsd(in->model, w->target)->anchor : NULL,
			    select_midpoint(w));
			nfwgs++;
		}
		xfer_clear(&x);
	}
	for (i = 0; i < in->nslaves; i++) {
		sw[i].fs.complete = plan_rd_format(rd, "complete");
		sw[i].fs.create_anchors = in->model->general.create_anchors;
		/* fwdrate=max: vdbench's FwgWaiter holds every fwg to its
		 * share of the skew (equal shares without skew=) */
		sw[i].hold_skew = rate <= 0 && sw[i].nfwgs > 1;
	}
	if (rate <= 0) {
		int ms = skewplan_fs_sync_ms(sw, in->nslaves);

		for (i = 0; i < in->nslaves; i++)
			sw[i].skew_sync_ms = sw[i].nfwgs > 0 ? ms : 0;
	}
	fs_encode(in, c, sw);
	return (nfwgs > 0 ? 0 : no_work(c, e));
}

/* The report column of an operation that only some runs use. */
static unsigned int
op_column(const char *op)
{
	static const struct { const char *name; enum fsop o; } t[] = {
		{ "getattr", FSOP_GETATTR }, { "setattr", FSOP_SETATTR },
		{ "access", FSOP_ACCESS }, { "copy", FSOP_COPY },
		{ "move", FSOP_MOVE },
	};
	size_t i;

	for (i = 0; op != NULL && i < sizeof(t) / sizeof(t[0]); i++)
		if (strcasecmp(op, t[i].name) == 0)
			return (1u << t[i].o);
	return (0);
}

/*
 * The getattr, setattr, access, copy and move columns of the fsd/fwd
 * reports: one set for the whole parmfile, every operation an fwd
 * operation=, an rd operations= or foroperations= names (vdbench's
 * Operations.isOperationUsed, marked while the parmfile is read), so
 * every run of an execution has the same columns.
 */
unsigned int
workgen_fs_ops(const struct model *m)
{
	const struct fwd *f;
	const struct rd *rd;
	unsigned int ops = 0;
	int i, k;

	TAILQ_FOREACH(f, &m->fwds, entry)
		ops |= op_column(f->operation);
	TAILQ_FOREACH(rd, &m->rds, entry) {
		for (i = 0; i < rd->operations.n; i++)
			ops |= op_column(rd->operations.v[i]);
		for (i = 0; i < rd->nloops; i++)
			for (k = 0; rd->loops[i].kind == LOOP_OPERATION &&
			    rd->loops[i].strs != NULL && k < rd->loops[i].n;
			    k++)
				ops |= op_column(rd->loops[i].strs[k]);
	}
	return (ops);
}

/*
 * The SD_format run's xfersize: formatxfersize=, else 128k, or 512 when
 * an sd to format is smaller than that (CreateSdFile.java).
 */
static uint64_t
format_xfer(const struct model *model, const struct sd *const *sds,
    int n)
{
	uint64_t xfer = model->general.formatxfersize_bytes;
	int k;

	if (xfer != 0)
		return (xfer);
	xfer = 128 * 1024;
	for (k = 0; k < n; k++) {
		if (sds[k]->size_bytes < 128 * 1024)
			xfer = 512;
	}
	return (xfer);
}

/* Build the automatic SD_format run (PARMFILE.md 12.9). */
void
workgen_format_run(const struct workgen_in *in, struct workgen_run *c)
{
	uint64_t xfer = format_xfer(in->model, in->format_sd,
	    in->nformat);
	int i, k, per_host[WORKGEN_MAX_SLAVES] = { 0 };
	struct slave_work *sw;

	run_init(in, c);
	sw = xcalloc((size_t)in->nslaves + 1, sizeof(*sw));
	snprintf(c->name, sizeof(c->name), "SD_format");
	snprintf(c->loops, sizeof(c->loops), "threads=2 iorate=max");
	snprintf(c->rate_text, sizeof(c->rate_text), "Uncontrolled MAX");
	snprintf(c->text, sizeof(c->text), "Starting RD=SD_format; I/O rate: "
	    "Uncontrolled MAX; elapsed=(none); For loops: threads=2 "
	    "iorate=max");
	c->format = 1;
	c->eof_run = 1;
	c->first_avg = 2;
	c->interval_ns = 1000000000ull;
	c->req.reqrate = RD_IORATE_MAX;
	c->req.xfersize = (double)xfer;
	c->req.threads = 2;
	c->req.rdpct = 0;
	c->req.seekpct = 0;
	c->req.compratio = in->model->general.compratio;
	c->req.dedupratio = dedup_ratio(in->model);
	for (k = 0; k < in->nformat; k++) {
		const struct sd *sd = in->format_sd[k];
		char wdname[300];
		struct slave_work *w;
		struct work_wg *wg;

		const struct mhost *h = &in->hosts[in->format_host[k]];

		/* sequential: one slave each, dealt over the host's slaves;
		 * under validation the slave that drives the sd after it */
		i = h->first + per_host[in->format_host[k]]++ % h->nslaves;
		if (in->model->general.validate)
			i = dv_sd_slave(in, in->format_host[k], sd);
		w = &sw[i];
		if (w->sds == NULL) {
			w->sds = xcalloc((size_t)in->nformat, sizeof(*w->sds));
			w->wgs = xcalloc((size_t)in->nformat, sizeof(*w->wgs));
		}
		work_sd(in, in->format_host[k], sd, 2, 0, &sd->openflags, 1,
		    &w->sds[w->nsds++]);
		snprintf(wdname, sizeof(wdname), "SD_format_%s", sd->name);
		wg = &w->wgs[w->nwgs++];
		wg->wd = xstrdup(wdname);
		wg->sd = xstrdup(sd->name);
		wg->skew_pct = 100;
		wg->seek_eof = 1;
		xfer_set_single(&wg->xfer, xfer);
		wg->low_bytes = in->format_from[k];
		wg->high_bytes = sd->size_bytes;
		c->has_eof[i] = 1;
	}
	for (i = 0; i < in->nslaves; i++) {
		if (sw[i].nwgs > 0) {
			work_common(in, c, i, &sw[i]);
			c->work[i] = work_to_json(&sw[i]);
		}
		slave_work_clear(&sw[i]);
	}
	free(sw);
}

/* Free what a built run holds (WORK bodies not taken yet included). */
void
workgen_run_free(struct workgen_run *c)
{
	int i;

	for (i = 0; c->work != NULL && i < c->nslaves; i++)
		json_decref(c->work[i]);
	free(c->work);
	free(c->has_eof);
	free(c->skew);
	free(c->dv_box);
	c->dv_box = NULL;
	c->work = NULL;
	c->has_eof = NULL;
	c->skew = NULL;
	c->nskew = 0;
}

/* Largest xfersize per sd over every run (PARMFILE.md 12.6, quirk 13). */
void
workgen_xmax(const struct model *model, const struct plan *plan,
    uint64_t *sd_xmax)
{
	int r, w, k;

	for (r = 0; r < plan->nruns; r++) {
		const struct run *pr = &plan->runs[r];
		double xs = run_loop_value(pr, LOOP_XFERSIZE, -1);

		for (w = 0; w < pr->nwds; w++) {
			uint64_t x = xs > 0 ? (uint64_t)xs :
			    xfer_max_bytes(&pr->wds[w].wd->xfer);

			for (k = 0; k < pr->wds[w].nsds; k++) {
				int si = sd_index(model, pr->wds[w].sds[k]);

				if (x > sd_xmax[si])
					sd_xmax[si] = x;
			}
		}
	}
}

void
workgen_xmin(const struct model *model, const struct plan *plan,
    uint64_t *sd_xmin)
{
	int r, w, k, j;

	for (r = 0; r < plan->nruns; r++) {
		const struct run *pr = &plan->runs[r];
		double xs = run_loop_value(pr, LOOP_XFERSIZE, -1);

		for (w = 0; w < pr->nwds; w++) {
			const struct xfer *x = &pr->wds[w].wd->xfer;
			uint64_t v = xs > 0 ? (uint64_t)xs : x->kind ==
			    XFER_RANGE ? x->min_bytes : 0;

			for (j = 0; xs <= 0 && x->kind != XFER_RANGE &&
			    j < x->n; j++)
				if (v == 0 || x->size_bytes[j] < v)
					v = x->size_bytes[j];
			for (k = 0; k < pr->wds[w].nsds; k++) {
				int si = sd_index(model, pr->wds[w].sds[k]);

				if (v > 0 && (sd_xmin[si] == 0 ||
				    v < sd_xmin[si]))
					sd_xmin[si] = v;
			}
		}
	}
}

/* An fsd by name (copy/move target=), or NULL. */
const struct fsd *
target_fsd(const struct model *model, const char *name)
{
	const struct fsd *f;

	TAILQ_FOREACH(f, &model->fsds, entry)
		if (strcmp(f->name, name) == 0)
			return (f);
	return (NULL);
}
