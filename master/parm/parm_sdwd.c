/* SPDX-License-Identifier: MIT */
/*
 * Storage and workload definitions (PARMFILE.md 6, 7): their keyword
 * tables and handlers.
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

#include "engines.h"
#include "fstree.h"
#include "html.h"
#include "model_fields.h"
#include "mtime.h"
#include "xmalloc.h"
#include "parmyaml.h"
#include "plan.h"

static int	kw_sd_dedup(struct pstate *, const struct kwdef *);
static int	kw_sd_engine(struct pstate *, const struct kwdef *);
static int	kw_sd_hitarea(struct pstate *, const struct kwdef *);
static int	kw_sd_host(struct pstate *, const struct kwdef *);
static int	kw_sd_lun(struct pstate *, const struct kwdef *);
static int	kw_sd_offset(struct pstate *, const struct kwdef *);
static int	kw_sd_openflags(struct pstate *, const struct kwdef *);
static int	kw_sd_overwrite(struct pstate *, const struct kwdef *);
static int	kw_sd_range(struct pstate *, const struct kwdef *);
static int	kw_sd_size(struct pstate *, const struct kwdef *);
static int	kw_sd_threads(struct pstate *, const struct kwdef *);

const struct kwdef sd_kws[] = {
	{ "sd", EXACT, K_NAME, 0, NULL, NULL },
	{ "host", 2, K_HOST, 0, NULL, kw_sd_host },
	{ "hd", EXACT, K_HOST, 0, NULL, kw_sd_host },
	{ "lun", 2, K_LUN, 0, NULL, kw_sd_lun },
	{ "count", 2, K_COUNT, 0, NULL, NULL },
	{ "size", 2, K_SIZE, 0, NULL, kw_sd_size },
	{ "threads", 2, K_THREADS, 0, NULL, kw_sd_threads },
	{ "hitarea", 2, K_HITAREA, 0, NULL, kw_sd_hitarea },
	{ "offset", 2, K_OFFSET, 0, NULL, kw_sd_offset },
	{ "align", 2, K_ALIGN, 0, NULL, kw_sd_offset },
	{ "kstat", 2, K_NOEFFECT, 0, "a Solaris-only option (kstat disk "
	    "names for the kstat reports); it has no meaning on Linux", NULL },
	{ "instance", 2, K_NOEFFECT, 0, "a Solaris-only option (a kstat "
	    "instance for the kstat reports); it has no meaning on Linux",
	    NULL },
	{ "replay", 2, K_G_CMD, 0, NULL, kw_sd_replay },
	{ "journal", 2, K_G_CMD, 0, NULL, kw_journal_dir },
	{ "resetlun", 2, K_NOEFFECT, 0, "a Solaris-only option (a SCSI lun "
	    "reset every n seconds); it has no meaning on Linux", NULL },
	{ "resetbus", 2, K_NOEFFECT, 0, "a Solaris-only option (a SCSI bus "
	    "reset every n seconds); it has no meaning on Linux", NULL },
	{ "openflags", 2, K_OPENFLAGS, 0, NULL, kw_sd_openflags },
	{ "range", 2, K_RANGE, 0, NULL, kw_sd_range },
	{ "dedupratio", 2, K_G_DEDUP, 0, NULL, kw_sd_dedup },
	{ "dedupsets", 2, K_G_DEDUP, 0, NULL, kw_sd_dedup },
	{ "deduphotsets", 2, K_G_DEDUP, 0, NULL, kw_dedup_more },
	{ "dedupflipflop", 2, K_G_DEDUP, 0, NULL, kw_dedup_more },
	{ "dedupacross", 2, K_G_DEDUP, 0, NULL, kw_dedup_more },
	{ "dedupmaxkey", 2, K_G_DEDUP, 0, NULL, kw_dedup_more },
	{ "dedupunit", 2, K_REJECT, 0, "'dedupunit=' may not be specified "
	    "as an SD or FSD parameter", NULL },
	{ "streams", 2, K_REJECT, 0, "The 'streams=' parameter no longer is "
	    "a Storage Definition (SD) parameter, but has become a Workload "
	    "Definition (WD) parameter.", NULL },
	/* vdbc's own, exact only, after vdbench's (DESIGN.md). */
	{ "engine", EXACT, K_ENGINE, 0, NULL, kw_sd_engine },
	{ "overwrite_data", EXACT, K_OVERWRITE, 0, NULL, kw_sd_overwrite },
	{ "allow_mounted_write", EXACT, K_OVERWRITE, 0, NULL, kw_sd_overwrite },
	{ NULL, 0, K_BAG, 0, NULL, NULL },
};

static int	kw_wd_host(struct pstate *, const struct kwdef *);
static int	kw_wd_hotband(struct pstate *, const struct kwdef *);
static int	kw_wd_openflags(struct pstate *, const struct kwdef *);
static int	kw_wd_priority(struct pstate *, const struct kwdef *);
static int	kw_wd_range(struct pstate *, const struct kwdef *);
static int	kw_wd_readpct(struct pstate *, const struct kwdef *);
static int	kw_wd_rhpct(struct pstate *, const struct kwdef *);
static int	kw_wd_sdlist(struct pstate *, const struct kwdef *);
static int	kw_wd_seekpct(struct pstate *, const struct kwdef *);
static int	kw_wd_skew(struct pstate *, const struct kwdef *);
static int	kw_wd_streams(struct pstate *, const struct kwdef *);
static int	kw_wd_stride(struct pstate *, const struct kwdef *);
static int	kw_wd_wd_iorate(struct pstate *, const struct kwdef *);
static int	kw_wd_wd_threads(struct pstate *, const struct kwdef *);
static int	kw_wd_whpct(struct pstate *, const struct kwdef *);
static int	kw_wd_writepct(struct pstate *, const struct kwdef *);
static int	kw_wd_xfersize(struct pstate *, const struct kwdef *);

const struct kwdef wd_kws[] = {
	{ "wd", EXACT, K_NAME, 0, NULL, NULL },
	{ "sd", EXACT, K_SDLIST, 0, NULL, kw_wd_sdlist },
	{ "skew", 2, K_SKEW, 0, NULL, kw_wd_skew },
	{ "xfersize", 2, K_XFERSIZE, 0, NULL, kw_wd_xfersize },
	{ "readpct", 2, K_READPCT, 0, NULL, kw_wd_readpct },
	{ "rdpct", 2, K_READPCT, 0, NULL, kw_wd_readpct },
	{ "writepct", 2, K_WRITEPCT, 0, NULL, kw_wd_writepct },
	{ "wrpct", 2, K_WRITEPCT, 0, NULL, kw_wd_writepct },
	{ "range", 2, K_RANGE, 0, NULL, kw_wd_range },
	{ "hotband", 2, K_W_HOTBAND, 0, NULL, kw_wd_hotband },
	{ "seekpct", 2, K_SEEKPCT, 0, NULL, kw_wd_seekpct },
	{ "stride", 2, K_W_STRIDE, 0, NULL, kw_wd_stride },
	{ "priority", 2, K_PRIORITY, 0, NULL, kw_wd_priority },
	{ "iorate", 2, K_WD_IORATE, 0, NULL, kw_wd_wd_iorate },
	{ "rhpct", 2, K_RHPCT, 0, NULL, kw_wd_rhpct },
	{ "whpct", 2, K_WHPCT, 0, NULL, kw_wd_whpct },
	{ "host", 2, K_HOST, 0, NULL, kw_wd_host },
	{ "hd", EXACT, K_HOST, 0, NULL, kw_wd_host },
	{ "openflags", 2, K_OPENFLAGS, 0, NULL, kw_wd_openflags },
	{ "user", EXACT, K_REJECT, 0, "The 'user=' workload generator (a "
	    "Java class) is not supported by vdbc", NULL },
	{ "threads", 2, K_WD_THREADS, 0, NULL, kw_wd_wd_threads },
	{ "streams", 2, K_W_STRIDE, 0, NULL, kw_wd_streams },
	{ NULL, 0, K_BAG, 0, NULL, NULL },
};

/* wd seekpct=: a percentage or a word (values are case-sensitive). */
static int
wd_seekpct(struct pstate *ps, struct wd *w)
{
	const struct pitem *it = ps->it;
	const char *s = it->vals.v[0].str;

	w->seek_eof = 0;
	if (it->vals.n == 1 && it->vals.v[0].is_num) {
		double v = it->vals.v[0].num;

		if (v > 100)
			return (fail(ps, "Invalid contents for 'seekpct=': %s",
			    it->value));
		w->seekpct = v < 0 ? 0 : v;
		return (0);
	}
	if (it->vals.n == 1 && (strcmp(s, "random") == 0 ||
	    strcmp(s, "rand") == 0)) {
		w->seekpct = 100;
		return (0);
	}
	if (it->vals.n == 1 && (strcmp(s, "sequential") == 0 ||
	    strcmp(s, "seq") == 0)) {
		w->seekpct = 0;
		return (0);
	}
	if (it->vals.n == 1 && strcmp(s, "eof") == 0) {
		w->seekpct = 0;
		w->seek_eof = 1;
		return (0);
	}
	/* vdbench takes any prefix of poisson ("p", "pois") */
	if (s[0] != '\0' && strncmp("poisson", s, strlen(s)) == 0) {
		struct pvals *p = (struct pvals *)&it->vals;
		double mid = 3, pct = 100;
		int i;

		/*
		 * vdbench's WD_entry.parseSeekpct: poisson sets the midpoint
		 * 3, each number after it sets the midpoint, and once the
		 * midpoint is 0 the next sets seekpct: (poisson,0) is plain
		 * random (blockBoundarySeek), (poisson,2,3) has midpoint 3
		 */
		for (i = 1; i < it->vals.n; i++) {
			double v = it->vals.v[i].num;

			if (!it->vals.v[i].is_num || !(v >= 0) ||
			    v > (mid == 0 ? 100 : 1000))
				return (fail(ps, "Invalid contents for "
				    "'seekpct=': %s (expected poisson, then "
				    "midpoints of 0 to 1000; after a midpoint "
				    "of 0 a seek percentage)", it->value));
			if (mid == 0)
				pct = v;
			else
				mid = v;
		}
		w->seekpct = pct;
		w->poisson_mid = mid;
		bag_set(&w->bag, "seekpct", p);
		return (0);
	}
	return (fail(ps, "Invalid contents for 'seekpct=': %s", it->value));
}

/*
 * sd: dedupratio=, dedupsets=: this sd's own, over the general ones
 * (vdbench clones its general dedup for the sd). The general
 * dedupunit= and dedupratio= must be there (check_general_dedup).
 */
static int
kw_sd_dedup(struct pstate *ps, const struct kwdef *d)
{
	const struct pvals *v = &ps->it->vals;
	struct sd *sd = ps->sd;

	if (check_general_dedup(ps) != 0)
		return (-1);
	if (check_dedup(ps, d->name) != 0)
		return (-1);
	if (strcmp(d->name, "dedupratio") == 0) {
		sd->dedupratio = v->v[0].num;
	} else {
		char *end = NULL;
		double n = v->n == 1 ? strtod(v->v[0].str, &end) : 0;

		/* a count, or a percentage of the sd's units (n%) */
		if (v->n != 1 || end == v->v[0].str || !(n >= 1) ||
		    (*end != '\0' && strcmp(end, "%") != 0))
			return (fail(ps, "'dedupsets=' must be a minimum of "
			    "one, or a percentage: %s", ps->it->value));
		sd->dedupsets = *end == '%' ? -n : n;
	}
	bag_set(&sd->bag, d->name, v);
	return (0);
}

/* wd: streams=n, n >= 2 independent sequential streams per sd. */
static int
kw_wd_streams(struct pstate *ps, const struct kwdef *d)
{
	const struct pvals *v = &ps->it->vals;

	(void)d;
	if (v->n != 1 || !v->v[0].is_num || v->v[0].num > 100000 ||
	    floor(v->v[0].num) != v->v[0].num)
		return (fail(ps, "Invalid 'streams=' value: %s (expected a "
		    "whole number of at least 2)", ps->it->value));
	if (v->v[0].num < 2)
		return (fail(ps, "'streams=' parameter must specific a "
		    "minimum of two streams"));	/* vdbench's words */
	ps->wd->streams = (int)v->v[0].num;
	bag_set(&ps->wd->bag, "streams", v);
	return (0);
}

/* sd: host=, hd= (a list: the lun is on each of them) */
static int
kw_sd_host(struct pstate *ps, const struct kwdef *d)
{
	struct strlist l = { 0 };

	(void)d;
	all_strs(ps, &l);
	ps->pend_hosts = xreallocarray(ps->pend_hosts,
	    (size_t)ps->npend_hosts + 1, sizeof(*ps->pend_hosts));
	ps->pend_hosts[ps->npend_hosts++] = l;
	return (0);
}

/* sd: lun= (paired with its host= when the entry ends) */
static int
kw_sd_lun(struct pstate *ps, const struct kwdef *d)
{
	const char *s = NULL;

	(void)d;
	if (ps->is_default)
		return (fail(ps, "You may not specify the 'lun=' "
		    "parameter for sd=default"));
	if (one_str(ps, &s) != 0)
		return (-1);
	strlist_add(&ps->pend_luns, s);
	return (0);
}

/*
 * The end of an sd entry: its lun= and host= in pairs, the i-th host=
 * list with the i-th lun= whatever their order; a lone lun= without
 * host= is on sd=default's hosts (all when it names none).
 */
int
sd_pair_luns(struct pstate *ps)
{
	struct sd *sd = ps->sd;
	struct strlist all = { 0 };
	int i, j, rc = 0;

	if (ps->is_default) {	/* vdbench: the entry's first host= */
		if (ps->npend_hosts > 0) {
			strlist_clear(&ps->sd_def_hosts);
			strlist_copy(&ps->sd_def_hosts, &ps->pend_hosts[0]);
		}
		sd_pairs_clear(ps);
		return (0);
	}
	if (ps->pend_luns.n == 0)
		rc = fail(ps, "No lun name specified for sd=%s", sd->name);
	else if (ps->pend_luns.n == 1 && ps->npend_hosts == 0) {
		if (ps->sd_def_hosts.n > 0)
			strlist_copy(&all, &ps->sd_def_hosts);
		else
			strlist_add(&all, "*");
		ps->pend_hosts = xcalloc(1, sizeof(*ps->pend_hosts));
		ps->pend_hosts[0] = all;
		ps->npend_hosts = 1;
	}
	if (rc == 0 && ps->pend_luns.n != ps->npend_hosts)
		rc = fail(ps, "'host=' and 'lun=' parameters must be defined "
		    "in pairs for sd=%s", sd->name);
	for (i = 0; rc == 0 && i < ps->pend_luns.n; i++) {
		for (j = 0; j < ps->pend_hosts[i].n; j++) {
			sd->luns = xreallocarray(sd->luns,
			    (size_t)sd->nluns + 1, sizeof(*sd->luns));
			sd->luns[sd->nluns].host =
			    xstrdup(ps->pend_hosts[i].v[j]);
			sd->luns[sd->nluns].lun = xstrdup(ps->pend_luns.v[i]);
			sd->nluns++;
		}
	}
	sd_pairs_clear(ps);
	return (rc);
}

void
sd_pairs_clear(struct pstate *ps)
{
	int i;

	for (i = 0; i < ps->npend_hosts; i++)
		strlist_clear(&ps->pend_hosts[i]);
	free(ps->pend_hosts);
	ps->pend_hosts = NULL;
	ps->npend_hosts = 0;
	strlist_clear(&ps->pend_luns);
}

/* sd: size= */
static int
kw_sd_size(struct pstate *ps, const struct kwdef *d)
{
	struct sd *sd = ps->sd;

	(void)d;
	return (size_or_pair(ps, &sd->size_bytes, &sd->size_divisor));
}

/* sd: threads= */
static int
kw_sd_threads(struct pstate *ps, const struct kwdef *d)
{
	struct sd *sd = ps->sd;
	uint64_t u = 0;

	(void)d;
	if (size_or_pair(ps, &u, NULL) != 0)
		return (-1);
	if (u < 1 || u > 100000)
		return (fail(ps, "Invalid 'threads=' value: %s",
		    ps->it->value));
	sd->threads = (uint32_t)u;
	return (0);
}

/* sd: hitarea= */
static int
kw_sd_hitarea(struct pstate *ps, const struct kwdef *d)
{
	struct sd *sd = ps->sd;

	(void)d;
	return (one_uint(ps, &sd->hitarea_bytes));
}

/* sd: offset=, align= */
static int
kw_sd_offset(struct pstate *ps, const struct kwdef *d)
{
	struct sd *sd = ps->sd;
	uint64_t u = 0;

	if (one_uint(ps, &u) != 0)
		return (-1);
	if (u % 512 != 0)
		return (fail(ps, "SD %s= parameter must be multiple of "
		    "512 bytes", d->id == K_OFFSET ? "offset" :
		    "align"));
	*(d->id == K_OFFSET ? &sd->offset_bytes : &sd->align_bytes) = u;
	return (0);
}

/* sd: openflags= */
static int
kw_sd_openflags(struct pstate *ps, const struct kwdef *d)
{
	struct sd *sd = ps->sd;

	(void)d;
	if (check_openflags(ps) != 0)
		return (-1);
	all_strs(ps, &sd->openflags);
	return (0);
}

/* sd: range= */
/*
 * range= whose high end is between 100 and 200 (%) wraps past the end of
 * the lun (PARMFILE.md 12.6.1), so it may not cover 100% or more.
 */
static int
range_crossing(struct pstate *ps, const double range[2])
{
	if (range[0] < 0 || range[1] < 0)
		return (fail(ps, "Negative seek range."));
	if (range[0] < 100 && range[1] > 100 && range[1] < 200 &&
	    range[1] - range[0] >= 100)
		return (fail(ps, "range=(%g,%g) may not have a total range of "
		    "100%% or more", range[0], range[1]));
	return (0);
}

static int
kw_sd_range(struct pstate *ps, const struct kwdef *d)
{
	struct sd *sd = ps->sd;

	(void)d;
	if (get_range(ps, sd->range, &sd->range_set) != 0)
		return (-1);
	return (range_crossing(ps, sd->range));
}

/* sd: engine= */
static int
kw_sd_engine(struct pstate *ps, const struct kwdef *d)
{
	struct sd *sd = ps->sd;
	const char *s = NULL;

	(void)d;
	if (one_str(ps, &s) != 0)
		return (-1);
	if (engines_find(s) == NULL) {
		char names[128];

		return (fail(ps, "Invalid 'engine=' value: %s (expected "
		    "%s)", s, engines_list(names, sizeof(names))));
	}
	bag_set(&sd->bag, "engine", &ps->it->vals);
	free(sd->engine);
	sd->engine = xstrdup(s);
	return (0);
}

/* sd: overwrite_data=, allow_mounted_write= */
static int
kw_sd_overwrite(struct pstate *ps, const struct kwdef *d)
{
	struct sd *sd = ps->sd;

	int yes = 0;

	/* overwrite_data= and allow_mounted_write=: yes or no. */
	if (yes_no(ps, &yes) != 0)
		return (-1);
	bag_set(&sd->bag, d->name, &ps->it->vals);
	*(strcmp(d->name, "overwrite_data") == 0 ? &sd->overwrite_data :
	    &sd->allow_mounted_write) = yes;
	return (0);
}

/* wd: sd= */
static int
kw_wd_sdlist(struct pstate *ps, const struct kwdef *d)
{
	struct wd *w = ps->wd;

	(void)d;
	if (ps->it->vals.n == 0)
		return (fail(ps, "No parameters defined for 'wd=%s,sd=: "
		    "%s", w->name, ps->it->text));
	all_strs(ps, &w->sds);
	ps->out_of_order = 1;
	return (0);
}

/* wd: skew= */
static int
kw_wd_skew(struct pstate *ps, const struct kwdef *d)
{
	struct wd *w = ps->wd;
	double v = 0;

	(void)d;
	if (one_pct(ps, &v) != 0)
		return (-1);
	w->skew_set = 1;
	w->skew_pct = v;
	return (0);
}

/* wd: xfersize= */
static int
kw_wd_xfersize(struct pstate *ps, const struct kwdef *d)
{
	struct wd *w = ps->wd;

	(void)d;
	return (wd_xfersize(ps, &w->xfer));
}

/* wd: readpct=, rdpct= */
static int
kw_wd_readpct(struct pstate *ps, const struct kwdef *d)
{
	struct wd *w = ps->wd;
	double v = 0;

	(void)d;
	if (one_pct(ps, &v) != 0)
		return (-1);
	w->readpct = floor(v);
	return (0);
}

/* wd: writepct=, wrpct= */
static int
kw_wd_writepct(struct pstate *ps, const struct kwdef *d)
{
	struct wd *w = ps->wd;
	double v = 0;

	(void)d;
	if (one_pct(ps, &v) != 0)
		return (-1);
	w->readpct = 100 - floor(v);
	return (0);
}

/* wd: range= */
static int
kw_wd_range(struct pstate *ps, const struct kwdef *d)
{
	struct wd *w = ps->wd;

	(void)d;
	if (get_range(ps, w->range, &w->range_set) != 0)
		return (-1);
	return (range_crossing(ps, w->range));
}

/* wd: seekpct= */
static int
kw_wd_seekpct(struct pstate *ps, const struct kwdef *d)
{
	struct wd *w = ps->wd;

	(void)d;
	return (wd_seekpct(ps, w));
}

/* wd: priority= */
static int
kw_wd_priority(struct pstate *ps, const struct kwdef *d)
{
	struct wd *w = ps->wd;
	double v = 0;

	(void)d;
	if (one_num(ps, &v) != 0)
		return (-1);
	if (v == 0)
		return (fail(ps, "Workload priority may not be zero"));
	if (v < -1000000 || v > 1000000)
		return (fail(ps, "Invalid 'priority=' value: %s",
		    ps->it->value));
	w->priority_set = 1;
	w->priority = (int)v;
	return (0);
}

/* wd: iorate= */
static int
kw_wd_wd_iorate(struct pstate *ps, const struct kwdef *d)
{
	struct wd *w = ps->wd;
	double v = 0;

	(void)d;
	if (ps->it->vals.n != 1)
		return (fail(ps, "The 'iorate' parameter for a Workload "
		    "Definition (WD) may contain only one value"));
	if (one_num(ps, &v) != 0)
		return (-1);
	w->iorate_set = 1;
	w->iorate = v;
	return (0);
}

/* wd: rhpct= */
static int
kw_wd_rhpct(struct pstate *ps, const struct kwdef *d)
{
	struct wd *w = ps->wd;

	(void)d;
	return (one_pct(ps, &w->rhpct));
}

/* wd: whpct= */
static int
kw_wd_whpct(struct pstate *ps, const struct kwdef *d)
{
	struct wd *w = ps->wd;

	(void)d;
	return (one_pct(ps, &w->whpct));
}

/* wd: host=, hd= */
static int
kw_wd_host(struct pstate *ps, const struct kwdef *d)
{
	struct wd *w = ps->wd;

	(void)d;
	all_strs(ps, &w->hosts);
	return (0);
}

/* wd: openflags= */
static int
kw_wd_openflags(struct pstate *ps, const struct kwdef *d)
{
	struct wd *w = ps->wd;

	(void)d;
	if (check_openflags(ps) != 0)
		return (-1);
	all_strs(ps, &w->openflags);
	return (0);
}

/* wd: stride= */
static int
kw_wd_stride(struct pstate *ps, const struct kwdef *d)
{
	struct wd *w = ps->wd;

	(void)d;
	if (ps->it->vals.n != 2 || !ps->it->vals.v[0].is_num ||
	    !ps->it->vals.v[1].is_num ||
	    ps->it->vals.v[1].num < ps->it->vals.v[0].num)
		return (fail(ps, "stride= requires two parameters: "
		    "'stride=(min,max)'"));
	if (fmod(ps->it->vals.v[0].num, 512) != 0 ||
	    fmod(ps->it->vals.v[1].num, 512) != 0)
		return (fail(ps, "stride=(min,max): both values must "
		    "be multiples of 512 bytes"));
	bag_set(&w->bag, "stride", &ps->it->vals);
	w->stride_set = 1;
	w->stride_bytes[0] = ps->it->vals.v[0].num;
	w->stride_bytes[1] = ps->it->vals.v[1].num;
	return (0);
}

/* wd: hotband= */
static int
kw_wd_hotband(struct pstate *ps, const struct kwdef *d)
{
	struct wd *w = ps->wd;

	(void)d;
	if (get_range(ps, w->hotband, &w->hotband_set) != 0)
		return (-1);
	/* a high end between 100 and 200 (%) wraps past the end */
	w->hotband_wrap = w->hotband[1] > 100 && w->hotband[1] < 200;
	if (w->hotband_wrap && w->hotband[1] - w->hotband[0] > 100)
		return (fail(ps, "hotband=(low,high): a band that wraps "
		    "past the end may cover at most 100%%"));
	bag_set(&w->bag, "hotband", &ps->it->vals);
	return (0);
}

/* wd: threads= */
static int
kw_wd_wd_threads(struct pstate *ps, const struct kwdef *d)
{
	if (bag_get(&ps->m->general.bag, "concatenatesds") != NULL) {
		/* planned; the run refuses concatenatesds=yes by name */
		if (ps->it->vals.n != 1 || !ps->it->vals.v[0].is_num ||
		    ps->it->vals.v[0].num < 1)
			return (fail(ps, "Invalid 'threads=' value: %s",
			    ps->it->value));
		bag_set(&ps->wd->bag, d->name, &ps->it->vals);
		return (0);
	}
	return (fail(ps, "Workload Definition (WD) level thread= "
	    "parameter may only be used together with "
	    "'concatenatesds=yes'"));
}
