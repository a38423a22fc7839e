/* SPDX-License-Identifier: MIT */
/*
 * Run definitions (PARMFILE.md 8): the keyword table, rates, for-loops,
 * times and the handler.
 * Part of the parmfile parser (parm_int.h).
 */
#include "parm_int.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "fstree.h"
#include "html.h"
#include "model_fields.h"
#include "mtime.h"
#include "xmalloc.h"
#include "parmyaml.h"
#include "plan.h"

static int	kw_rd_cmd(struct pstate *, const struct kwdef *);
static int	kw_rd_curve(struct pstate *, const struct kwdef *);
static int	kw_rd_distribution(struct pstate *, const struct kwdef *);
static int	kw_rd_elapsed(struct pstate *, const struct kwdef *);
static int	kw_rd_format(struct pstate *, const struct kwdef *);
static int	kw_rd_fsdlist(struct pstate *, const struct kwdef *);
static int	kw_rd_fwdlist(struct pstate *, const struct kwdef *);
static int	kw_rd_fwdrate(struct pstate *, const struct kwdef *);
static int	kw_rd_interval(struct pstate *, const struct kwdef *);
static int	kw_rd_iorate(struct pstate *, const struct kwdef *);
static int	kw_rd_loop(struct pstate *, const struct kwdef *);
static int	kw_rd_maxdata(struct pstate *, const struct kwdef *);
static int	kw_rd_openflags(struct pstate *, const struct kwdef *);
static int	kw_rd_operations(struct pstate *, const struct kwdef *);
static int	kw_rd_mount(struct pstate *, const struct kwdef *);
static int	kw_rd_pause(struct pstate *, const struct kwdef *);
static int	kw_rd_replay(struct pstate *, const struct kwdef *);
static int	kw_rg_devices(struct pstate *, const struct kwdef *);
static int	kw_rd_sdlist(struct pstate *, const struct kwdef *);
static int	kw_rd_stopcurve(struct pstate *, const struct kwdef *);
static int	kw_rd_warmup(struct pstate *, const struct kwdef *);
static int	kw_rd_wdlist(struct pstate *, const struct kwdef *);

const struct kwdef rd_kws[] = {
	{ "rd", EXACT, K_NAME, 0, NULL, NULL },
	{ "wd", EXACT, K_WDLIST, 0, NULL, kw_rd_wdlist },
	{ "sd", EXACT, K_SDLIST, 0, NULL, kw_rd_sdlist },
	{ "fsd", EXACT, K_FSDLIST, 0, NULL, kw_rd_fsdlist },
	{ "iorate", 2, K_IORATE, 0, NULL, kw_rd_iorate },
	{ "maxdata", EXACT, K_MAXDATA, 0, NULL, kw_rd_maxdata },
	{ "maxdataread", EXACT, K_MAXDATA, 0, NULL, kw_rd_maxdata },
	{ "maxdatawritten", EXACT, K_MAXDATA, 0, NULL, kw_rd_maxdata },
	{ "curve", 2, K_CURVE, 0, NULL, kw_rd_curve },
	{ "stopcurve", 2, K_STOPCURVE, 0, NULL, kw_rd_stopcurve },
	{ "elapsed", 2, K_ELAPSED, 0, NULL, kw_rd_elapsed },
	{ "interval", 2, K_INTERVAL, 0, NULL, kw_rd_interval },
	{ "warmup", 2, K_WARMUP, 0, NULL, kw_rd_warmup },
	{ "replay", EXACT, K_G_CMD, 0, NULL, kw_rd_replay },
	{ "pause", 2, K_PAUSE, 0, NULL, kw_rd_pause },
	{ "forxfersize", 2, K_LOOP, LOOP_XFERSIZE, NULL, kw_rd_loop },
	{ "xfersize", 2, K_LOOP, LOOP_XFERSIZE, NULL, kw_rd_loop },
	{ "forthreads", 2, K_LOOP, LOOP_THREADS, NULL, kw_rd_loop },
	{ "threads", 2, K_LOOP, LOOP_THREADS, NULL, kw_rd_loop },
	{ "forrdpct", 2, K_LOOP, LOOP_RDPCT, NULL, kw_rd_loop },
	{ "rdpct", 2, K_LOOP, LOOP_RDPCT, NULL, kw_rd_loop },
	{ "forrhpct", 2, K_LOOP, LOOP_RHPCT, NULL, kw_rd_loop },
	{ "rhpct", 2, K_LOOP, LOOP_RHPCT, NULL, kw_rd_loop },
	{ "forwhpct", 2, K_LOOP, LOOP_WHPCT, NULL, kw_rd_loop },
	{ "whpct", 2, K_LOOP, LOOP_WHPCT, NULL, kw_rd_loop },
	{ "forseekpct", 2, K_LOOP, LOOP_SEEKPCT, NULL, kw_rd_loop },
	{ "seekpct", 2, K_LOOP, LOOP_SEEKPCT, NULL, kw_rd_loop },
	{ "forhitarea", 2, K_LOOP, LOOP_HITAREA, NULL, kw_rd_loop },
	{ "hitarea", 2, K_LOOP, LOOP_HITAREA, NULL, kw_rd_loop },
	{ "forcompratio", 2, K_LOOP, LOOP_COMP, NULL, kw_rd_loop },
	{ "forcompression", 2, K_LOOP, LOOP_COMP, "pct", kw_rd_loop },
	{ "compratio", 2, K_LOOP, LOOP_COMP, NULL, kw_rd_loop },
	{ "compression", 2, K_LOOP, LOOP_COMP, "pct", kw_rd_loop },
	{ "fordepth", 2, K_LOOP, LOOP_DEPTH, NULL, kw_rd_loop },
	{ "depth", 2, K_LOOP, LOOP_DEPTH, NULL, kw_rd_loop },
	{ "forwidth", 2, K_LOOP, LOOP_WIDTH, NULL, kw_rd_loop },
	{ "width", 2, K_LOOP, LOOP_WIDTH, NULL, kw_rd_loop },
	{ "forfiles", 2, K_LOOP, LOOP_FILES, NULL, kw_rd_loop },
	{ "files", 2, K_LOOP, LOOP_FILES, NULL, kw_rd_loop },
	{ "forsizes", 2, K_LOOP, LOOP_SIZES, NULL, kw_rd_loop },
	{ "sizes", 2, K_LOOP, LOOP_SIZES, NULL, kw_rd_loop },
	{ "fortotalsize", 2, K_LOOP, LOOP_TOTALSIZE, NULL, kw_rd_loop },
	{ "totalsize", 2, K_LOOP, LOOP_TOTALSIZE, NULL, kw_rd_loop },
	{ "forwss", 2, K_LOOP, LOOP_WSS, NULL, kw_rd_loop },
	{ "forworkingsetsize", 2, K_LOOP, LOOP_WSS, NULL, kw_rd_loop },
	{ "wss", 2, K_LOOP, LOOP_WSS, NULL, kw_rd_loop },
	{ "workingsetsize", 2, K_LOOP, LOOP_WSS, NULL, kw_rd_loop },
	{ "foroperations", 2, K_LOOP, LOOP_OPERATION, NULL, kw_rd_loop },
	{ "distribution", 2, K_DISTRIBUTION, 0, NULL, kw_rd_distribution },
	{ "startcmd", 2, K_G_CMD, 0, "startcmd", kw_rd_cmd },
	{ "start_cmd", EXACT, K_G_CMD, 0, "startcmd", kw_rd_cmd },
	{ "endcmd", 2, K_G_CMD, 0, "endcmd", kw_rd_cmd },
	{ "end_cmd", EXACT, K_G_CMD, 0, "endcmd", kw_rd_cmd },
	{ "fwd", EXACT, K_FWDLIST, 0, NULL, kw_rd_fwdlist },
	{ "fwdrate", 2, K_FWDRATE, 0, NULL, kw_rd_fwdrate },
	{ "operations", 2, K_OPERATIONS, 0, NULL, kw_rd_operations },
	{ "format", 4, K_FORMAT, 0, NULL, kw_rd_format },
	{ "openflags", 2, K_OPENFLAGS, 0, NULL, kw_rd_openflags },
	{ "mount", 2, K_G_CMD, 0, NULL, kw_rd_mount },
	{ NULL, 0, K_BAG, 0, NULL, NULL },
};

/* Replay groups (PARMFILE.md 1: general, hd, rg, ...): rg=name,devices=. */
const struct kwdef rg_kws[] = {
	{ "rg", EXACT, K_NAME, 0, NULL, NULL },
	{ "devices", 2, K_G_CMD, 0, NULL, kw_rg_devices },
	{ NULL, 0, K_BAG, 0, NULL, NULL },
};

/* rd iorate= / fwdrate=: numbers, max, curve, N%. */
static int
rd_rates(struct pstate *ps, double **out, int *n)
{
	const struct pitem *it = ps->it;
	int i;

	free(*out);
	*out = xcalloc((size_t)it->vals.n, sizeof(double));
	*n = it->vals.n;
	for (i = 0; i < it->vals.n; i++) {
		const struct pval *v = &it->vals.v[i];

		if (v->is_num)
			(*out)[i] = v->num;
		else if (strcasecmp(v->str, "max") == 0)
			(*out)[i] = RD_IORATE_MAX;
		else if (strcasecmp(v->str, "curve") == 0)
			(*out)[i] = RD_IORATE_CURVE;
		else
			return (fail(ps, "Invalid '%s=' value: %s (expected a "
			    "rate, max, curve or N%%)", it->kw, v->str));
	}
	return (0);
}

/* An rd for-loop keyword: replaces an earlier loop of its kind. */
static int
rd_loop(struct pstate *ps, struct rd *r, const struct kwdef *d)
{
	const struct pitem *it = ps->it;
	enum loop_kind kind = (enum loop_kind)d->arg;
	struct forloop fl;
	int i, k;

	memset(&fl, 0, sizeof(fl));
	fl.kind = kind;
	fl.n = it->vals.n;
	if (kind == LOOP_OPERATION) {
		if (r->operations.n > 0)
			return (fail(ps, "rd=%s: 'operations' and "
			    "'foroperations' parameters are mutually exclusive",
			    r->name));
		for (i = 0; i < fl.n; i++) {
			if (!is_operation(it->vals.v[i].str))
				return (fail(ps, "Unknown operation: %s",
				    it->vals.v[i].str));
		}
		fl.strs = xcalloc((size_t)fl.n, sizeof(char *));
		for (i = 0; i < fl.n; i++)
			fl.strs[i] = xstrdup(it->vals.v[i].str);
	} else {
		int numeric = 1;

		for (i = 0; i < fl.n; i++)
			numeric &= it->vals.v[i].is_num;
		/* seekpct values are raw text in vdbench: "(a,b)" fails. */
		if (kind == LOOP_SEEKPCT && strncmp(it->kw, "for", 3) != 0 &&
		    it->paren)
			numeric = 0;
		if (!numeric)
			return (fail(ps, "For_loop(): 'rd=%s,for%s=' or "
			    "'rd=%s,%s=': the list of NUMERIC values is "
			    "empty. ", r->name, loop_label(kind), r->name,
			    loop_label(kind)));
		fl.vals = xcalloc((size_t)fl.n, sizeof(double));
		for (i = 0; i < fl.n; i++) {
			double v = it->vals.v[i].num;

			if (d->msg != NULL) {	/* compression % -> ratio */
				if (v <= 0)
					return (fail(ps, "Invalid compression "
					    "percentage: %s", it->value));
				v = 100.0 / v;
			}
			if (kind == LOOP_XFERSIZE && (v < 512 ||
			    fmod(v, 512) != 0)) {
				free(fl.vals);
				return (fail(ps, "data transfer size not "
				    "multiple of 512 bytes: %lld",
				    (long long)v));
			}
			if (kind == LOOP_THREADS && v < 1 &&
			    !ps->threads0_noted) {
				note(ps, "Setting some threadcounts to a "
				    "minimum of 1");
				ps->threads0_noted = 1;
			}
			fl.vals[i] = v;
		}
	}
	/* Replace an earlier loop of this kind; the new one goes last. */
	for (k = 0; k < r->nloops; k++) {
		if (r->loops[k].kind == kind) {
			forloop_clear(&r->loops[k]);
			memmove(&r->loops[k], &r->loops[k + 1],
			    (size_t)(r->nloops - k - 1) * sizeof(*r->loops));
			r->nloops--;
			break;
		}
	}
	r->loops = xreallocarray(r->loops, (size_t)r->nloops + 1,
	    sizeof(*r->loops));
	r->loops[r->nloops++] = fl;
	return (0);
}

/* A time value in whole seconds. */
static int
rd_seconds(struct pstate *ps, uint64_t *out)
{
	const struct pitem *it = ps->it;

	if (it->vals.n != 1 || !it->vals.v[0].is_num || it->vals.v[0].num < 0)
		return (fail(ps, "Invalid value for '%s=': %s (a number of "
		    "seconds; the only suffixes are m for minutes and h for "
		    "hours)", it->kw, it->value));
	*out = (uint64_t)it->vals.v[0].num;
	return (0);
}

/* maxdata=, maxdataread=, maxdatawritten=: bytes or a multiple. */
static int
rd_maxdata(struct pstate *ps, struct rd *r, const struct kwdef *d)
{
	int k;

	if (ps->it->vals.n != 1 || !ps->it->vals.v[0].is_num ||
	    ps->it->vals.v[0].num <= 0)
		return (fail(ps, "Invalid value for '%s=': %s", d->name,
		    ps->it->value));
	bag_set(&r->bag, d->name, &ps->it->vals);
	/* maxdata, maxdataread, maxdatawritten: the last kind wins */
	k = strcmp(d->name, "maxdata") == 0 ? 0 :
	    strcmp(d->name, "maxdataread") == 0 ? 1 : 2;
	if (k >= r->maxdata_dir) {
		r->maxdata_dir = k;
		r->maxdata = ps->it->vals.v[0].num;
	}
	return (0);
}

/* curve=: the percentages of the max rate. */
static int
rd_curve(struct pstate *ps, struct rd *r)
{
	int i;

	free(r->curve_pct);
	r->ncurve = ps->it->vals.n;
	r->curve_pct = xcalloc((size_t)r->ncurve, sizeof(double));
	for (i = 0; i < r->ncurve; i++) {
		if (!ps->it->vals.v[i].is_num ||
		    ps->it->vals.v[i].num <= 0)
			return (fail(ps, "Invalid 'curve=' value: %s",
			    ps->it->vals.v[i].str));
		r->curve_pct[i] = ps->it->vals.v[i].num;
	}
	return (0);
}

/* format=: vdbench's words, or dir... */
static int
rd_format(struct pstate *ps, struct rd *r)
{
	static const char *const formats[] = {
		"no", "yes", "only", "restart", "clean", "once", "limited",
		"complete", NULL,
	};
	const char *s;
	int i, k;

	if (ps->is_default)
		return (fail(ps, "'format=' parameter is not allowed "
		    "for rd=default"));
	for (i = 0; i < ps->it->vals.n; i++) {
		s = ps->it->vals.v[i].str;
		for (k = 0; formats[k] != NULL; k++) {
			if (strcasecmp(s, formats[k]) == 0)
				break;
		}
		if (formats[k] == NULL && strncasecmp(s, "dir", 3) != 0)
			return (fail(ps, "Invalid contents of "
			    "'format=' parameter: %s", s));
	}
	all_strs(ps, &r->format);
	return (0);
}

/* operations=: fwd operations instead of each fwd's own, lower case. */
static int
rd_operations(struct pstate *ps, struct rd *r)
{
	int i;

	for (i = 0; i < ps->it->vals.n; i++) {
		if (!is_operation(ps->it->vals.v[i].str))
			return (fail(ps, "Unknown operation: %s",
			    ps->it->vals.v[i].str));
	}
	for (i = 0; i < r->nloops; i++) {
		if (r->loops[i].kind == LOOP_OPERATION)
			return (fail(ps, "rd=%s: 'operations' and "
			    "'foroperations' parameters are mutually "
			    "exclusive", r->name));
	}
	/* kept lower case, as fwd operation= */
	for (i = 0; i < ps->it->vals.n; i++) {
		char *c;

		for (c = ps->it->vals.v[i].str; c != NULL &&
		    *c != '\0'; c++)
			*c = (char)tolower((unsigned char)*c);
	}
	bag_set(&r->bag, "operations", &ps->it->vals);
	all_strs(ps, &r->operations);
	return (0);
}

/* rd: wd= */
static int
kw_rd_wdlist(struct pstate *ps, const struct kwdef *d)
{
	struct rd *r = ps->rd;

	(void)d;
	if (ps->rd_wd_given)
		return (fail(ps, "rd=%s: the 'wd=' parameter may be "
		    "specified only once per RD", r->name));
	ps->rd_wd_given = 1;
	all_strs(ps, &r->wds);
	return (0);
}

/* rd: sd= */
static int
kw_rd_sdlist(struct pstate *ps, const struct kwdef *d)
{
	struct rd *r = ps->rd;

	(void)d;
	all_strs(ps, &r->sds);
	return (0);
}

/* rd: fsd= */
static int
kw_rd_fsdlist(struct pstate *ps, const struct kwdef *d)
{
	struct rd *r = ps->rd;

	(void)d;
	all_strs(ps, &r->fsds);
	return (0);
}

/* rd: fwd= */
static int
kw_rd_fwdlist(struct pstate *ps, const struct kwdef *d)
{
	struct rd *r = ps->rd;

	(void)d;
	all_strs(ps, &r->fwds);
	return (0);
}

/* rd: iorate= */
static int
kw_rd_iorate(struct pstate *ps, const struct kwdef *d)
{
	struct rd *r = ps->rd;

	(void)d;
	return (rd_rates(ps, &r->iorate, &r->iorate_n));
}

/*
 * rd: fwdrate=. A list is a for-loop at its place among the rd's
 * for-loops, as vdbench's RD_entry makes it (new For_loop("foriorate",
 * ...) while parsing): a LOOP_FWDRATE entry in r->loops, replacing an
 * earlier one. (An iorate= list stays innermost: vdbench adds it after
 * the rd is parsed.)
 */
static int
kw_rd_fwdrate(struct pstate *ps, const struct kwdef *d)
{
	struct rd *r = ps->rd;
	struct forloop fl;
	int k;

	(void)d;
	if (rd_rates(ps, &r->fwdrate, &r->fwdrate_n) != 0)
		return (-1);
	for (k = 0; k < r->nloops; k++) {
		if (r->loops[k].kind == LOOP_FWDRATE) {
			forloop_clear(&r->loops[k]);
			memmove(&r->loops[k], &r->loops[k + 1],
			    (size_t)(r->nloops - k - 1) * sizeof(*r->loops));
			r->nloops--;
			break;
		}
	}
	if (r->fwdrate_n < 2)
		return (0);
	memset(&fl, 0, sizeof(fl));
	fl.kind = LOOP_FWDRATE;
	fl.n = r->fwdrate_n;
	fl.vals = xcalloc((size_t)fl.n, sizeof(double));
	memcpy(fl.vals, r->fwdrate, (size_t)fl.n * sizeof(double));
	r->loops = xreallocarray(r->loops, (size_t)r->nloops + 1,
	    sizeof(*r->loops));
	r->loops[r->nloops++] = fl;
	return (0);
}

/* rd: maxdata=, maxdataread=, maxdatawritten= */
static int
kw_rd_maxdata(struct pstate *ps, const struct kwdef *d)
{
	struct rd *r = ps->rd;

	return (rd_maxdata(ps, r, d));
}

/* rd: curve= */
static int
kw_rd_curve(struct pstate *ps, const struct kwdef *d)
{
	struct rd *r = ps->rd;

	(void)d;
	return (rd_curve(ps, r));
}

/* rd: elapsed= */
static int
kw_rd_elapsed(struct pstate *ps, const struct kwdef *d)
{
	struct rd *r = ps->rd;

	(void)d;
	return (rd_seconds(ps, &r->elapsed_s));
}

/* rd: interval= */
static int
kw_rd_interval(struct pstate *ps, const struct kwdef *d)
{
	struct rd *r = ps->rd;

	(void)d;
	return (rd_seconds(ps, &r->interval_s));
}

/* rd: warmup= */
static int
kw_rd_warmup(struct pstate *ps, const struct kwdef *d)
{
	struct rd *r = ps->rd;

	(void)d;
	r->warmup_set = 1;
	return (rd_seconds(ps, &r->warmup_s));
}

/* rd: pause= */
static int
kw_rd_pause(struct pstate *ps, const struct kwdef *d)
{
	struct rd *r = ps->rd;

	(void)d;
	return (rd_seconds(ps, &r->pause_s));
}

/* rd: a for-loop keyword (forxfersize=, xfersize=, ... foroperations=) */
static int
kw_rd_loop(struct pstate *ps, const struct kwdef *d)
{
	struct rd *r = ps->rd;

	return (rd_loop(ps, r, d));
}

/* rd: distribution= */
static int
kw_rd_distribution(struct pstate *ps, const struct kwdef *d)
{
	struct rd *r = ps->rd;
	const char *s = NULL;

	(void)d;
	if (one_str(ps, &s) != 0)
		return (-1);
	if (strcasecmp(s, "exponential") == 0)
		r->distribution = RD_DIST_EXPONENTIAL;
	else if (strcasecmp(s, "uniform") == 0)
		r->distribution = RD_DIST_UNIFORM;
	else if (strcasecmp(s, "deterministic") == 0)
		r->distribution = RD_DIST_DETERMINISTIC;
	else if (strcasecmp(s, "variable") == 0 ||
	    strcasecmp(s, "spike") == 0)
		return (fail(ps, "'distribution=%s' is not built in vdbc: "
		    "vdbench's bursts from the iorate= list have no definition "
		    "to copy (PARMFILE.md 12.5 names them only); use "
		    "exponential, uniform or deterministic", s));
	else
		return (fail(ps, "Unknown keyword value: %s", s));
	return (0);
}

/* rd: startcmd=, start_cmd=, endcmd=, end_cmd= (around each run) */
static int
kw_rd_cmd(struct pstate *ps, const struct kwdef *d)
{
	struct rd *r = ps->rd;
	struct strlist *l = strcmp(d->msg, "startcmd") == 0 ? &r->startcmd :
	    &r->endcmd;

	if (ps->it->vals.n < 1 || ps->it->vals.v[0].str[0] == '\0')
		return (fail(ps, "'%s=' needs a command", d->msg));
	bag_set(&r->bag, d->msg, &ps->it->vals);
	all_strs(ps, l);
	return (0);
}

/*
 * concatenatesds=, fsd log=: no (the default) is what vdbc does; yes is
 * planned, and a run refuses it by name (unbuilt).
 */
int
kw_yes_unbuilt(struct pstate *ps, const struct kwdef *d)
{
	char what[64];
	int yes;

	if (yes_no(ps, &yes) != 0)
		return (-1);
	if (!yes)
		return (0);
	snprintf(what, sizeof(what), "%s=yes", d->name);
	unbuilt(ps, what);
	bag_set(cur_bag(ps), d->name, &ps->it->vals);
	return (0);
}

/*
 * rg=name: a replay group of the Swat trace's device numbers. Checked and
 * kept for sd replay=; running a replay is not built (unbuilt).
 */
int
open_rg(struct pstate *ps)
{
	const char *name = NULL;
	int i;

	if (one_str(ps, &name) != 0)
		return (-1);
	for (i = 0; i < ps->rgs.n; i++) {
		if (strcmp(ps->rgs.v[i], name) == 0)
			return (fail(ps, "rg=%s: a replay group can only be "
			    "defined once", name));
	}
	strlist_add(&ps->rgs, name);
	unbuilt(ps, "rg=");
	return (0);
}

/* rg: devices= the trace's device numbers of the group */
static int
kw_rg_devices(struct pstate *ps, const struct kwdef *d)
{
	const struct pvals *v = &ps->it->vals;
	int i;

	(void)d;
	if (v->n == 0)
		return (fail(ps, "rg=%s: 'devices=' needs device numbers",
		    ps->rgs.v[ps->rgs.n - 1]));
	for (i = 0; i < v->n; i++) {
		if (!v->v[i].is_num || v->v[i].num < 0)
			return (fail(ps, "rg=%s: 'devices=' takes the trace's "
			    "device numbers, not '%s'", ps->rgs.v[ps->rgs.n -
			    1], v->v[i].str));
	}
	return (0);
}

/* sd: replay= device numbers of the trace, or a replay group (rg=) */
int
kw_sd_replay(struct pstate *ps, const struct kwdef *d)
{
	const struct pvals *v = &ps->it->vals;
	int i, k, found;

	for (i = 0; i < v->n; i++) {
		/* replay= values are all alpha (PARMFILE.md 2.8) */
		if ((v->v[i].is_num && v->v[i].num >= 0) || (v->v[i].str[0] !=
		    '\0' && strspn(v->v[i].str, "0123456789") ==
		    strlen(v->v[i].str)))
			continue;
		for (k = 0, found = 0; k < ps->rgs.n && !found; k++)
			found = strcmp(ps->rgs.v[k], v->v[i].str) == 0;
		if (!found)
			return (fail(ps, "sd=%s,replay=%s: no replay group "
			    "rg=%s is defined (rg= lines come before sd= "
			    "lines)", ps->sd != NULL ? ps->sd->name : "?",
			    v->v[i].str, v->v[i].str));
	}
	unbuilt(ps, "replay=");
	bag_set(cur_bag(ps), d->name, v);
	return (0);
}

/*
 * rd: replay= the trace file (vdbench's ReplayInfo): it must exist when
 * the parmfile is read, in -s too; iorate= is then not needed.
 */
static int
kw_rd_replay(struct pstate *ps, const struct kwdef *d)
{
	const struct pvals *v = &ps->it->vals;

	if (v->n < 1 || v->v[0].str[0] == '\0')
		return (fail(ps, "'replay=' needs the replay file name"));
	if (access(v->v[0].str, F_OK) != 0)
		return (fail(ps, "storeParameters(names): replay file name "
		    "does not exist: %s", v->v[0].str));
	unbuilt(ps, "replay=");
	bag_set(&ps->rd->bag, d->name, v);
	return (0);
}

/*
 * rd: mount= the options of a remount before each run of the rd
 * (PARMFILE.md 8.1): not a command, and only with an hd's mount= command
 * (the remount itself: hdmount_remount).
 */
static int
kw_rd_mount(struct pstate *ps, const struct kwdef *d)
{
	const struct pvals *v = &ps->it->vals;
	const struct hd *h;
	int found = 0;

	if (v->n != 1 || v->v[0].str[0] == '\0')
		return (fail(ps, "rd=%s: 'mount=' needs the mount options",
		    ps->rd->name));
	if (strncmp(v->v[0].str, "mount", 5) == 0)
		return (fail(ps, "rd=%s: 'mount=' holds the options of the "
		    "hd's mount= command, and may not start with 'mount': %s",
		    ps->rd->name, v->v[0].str));
	TAILQ_FOREACH(h, &ps->m->hds, entry)
		found |= h->mount.n > 0;
	if (!found)
		return (fail(ps, "rd=%s: 'mount=' requires an "
		    "'hd=...,mount=\"mount ...\"' command to remount",
		    ps->rd->name));
	free(ps->rd->mount);
	ps->rd->mount = xstrdup(v->v[0].str);
	bag_set(&ps->rd->bag, d->name, v);
	return (0);
}

/* rd: format= */
static int
kw_rd_format(struct pstate *ps, const struct kwdef *d)
{
	struct rd *r = ps->rd;

	(void)d;
	return (rd_format(ps, r));
}

/* rd: openflags= */
static int
kw_rd_openflags(struct pstate *ps, const struct kwdef *d)
{
	struct rd *r = ps->rd;

	(void)d;
	if (check_openflags(ps) != 0)
		return (-1);
	all_strs(ps, &r->openflags);
	return (0);
}

/* rd: stopcurve= */
static int
kw_rd_stopcurve(struct pstate *ps, const struct kwdef *d)
{
	struct rd *r = ps->rd;

	(void)d;
	if (ps->it->vals.n != 1 || !ps->it->vals.v[0].is_num ||
	    ps->it->vals.v[0].num <= 0)
		return (fail(ps, "Invalid 'stopcurve=' value: %s "
		    "(milliseconds)", ps->it->value));
	bag_set(&r->bag, "stopcurve", &ps->it->vals);
	r->stopcurve_ms = ps->it->vals.v[0].num;
	return (0);
}

/* rd: operations= */
static int
kw_rd_operations(struct pstate *ps, const struct kwdef *d)
{
	struct rd *r = ps->rd;

	(void)d;
	return (rd_operations(ps, r));
}

/* Apply -e/-i/-w and check an rd's times (PARMFILE.md 8.1). */
int
check_rd_times(struct pstate *ps, struct rd *r)
{
	const struct parm_opts *o = ps->opts;

	if (o->elapsed_s >= 0)
		r->elapsed_s = (uint64_t)o->elapsed_s;
	if (o->interval_s >= 0)
		r->interval_s = (uint64_t)o->interval_s;
	if (o->warmup_s >= 0) {
		r->warmup_s = (uint64_t)o->warmup_s;
		r->warmup_set = 1;
	}
	if (o->force_format != 0 && o->force_format != 'c' &&
	    r->fwds.n > 0) {
		/* -co, -cy, -cn (PARMFILE.md 3.2) win over format=; -c
		 * leaves it (the slave deletes each old tree at its first
		 * use, master/run.c) */
		strlist_clear(&r->format);
		strlist_add(&r->format, o->force_format == 'y' ? "yes" :
		    o->force_format == 'o' ? "only" : "no");
	}
	if (r->interval_s == 0) {
		r->interval_s = r->elapsed_s / 2 < 60 ? r->elapsed_s / 2 : 60;
		if (r->interval_s == 0)
			r->interval_s = 1;
		note(ps, "rd=%s: 'interval=0' changed to interval=%llu",
		    r->name, (unsigned long long)r->interval_s);
	}
	if (r->elapsed_s / r->interval_s < 2)
		return (fail(ps, "'elapsed=' time value must be at least twice "
		    "the 'interval=' value"));
	if (r->elapsed_s % r->interval_s != 0)
		return (fail(ps, "'elapsed=%llu' must be multiple of "
		    "'interval=%llu'.", (unsigned long long)r->elapsed_s,
		    (unsigned long long)r->interval_s));
	if (r->warmup_s % r->interval_s != 0)
		return (fail(ps, "'interval=%llu' must be multiple of "
		    "'warmup=%llu'.", (unsigned long long)r->interval_s,
		    (unsigned long long)r->warmup_s));
	return (0);
}
