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

#include "fstree.h"
#include "html.h"
#include "model_fields.h"
#include "mtime.h"
#include "xmalloc.h"
#include "parmyaml.h"
#include "plan.h"

const struct kwdef sd_kws[] = {
	{ "sd", EXACT, K_NAME, 0, NULL },
	{ "host", 2, K_HOST, 0, NULL },
	{ "hd", EXACT, K_HOST, 0, NULL },
	{ "lun", 2, K_LUN, 0, NULL },
	{ "count", 2, K_COUNT, 0, NULL },
	{ "size", 2, K_SIZE, 0, NULL },
	{ "threads", 2, K_THREADS, 0, NULL },
	{ "hitarea", 2, K_HITAREA, 0, NULL },
	{ "offset", 2, K_OFFSET, 0, NULL },
	{ "align", 2, K_ALIGN, 0, NULL },
	{ "kstat", 2, K_NOEFFECT, 0, NULL },
	{ "instance", 2, K_NOEFFECT, 0, NULL },
	{ "replay", 2, K_BAG_WARN, 0, NULL },
	{ "journal", 2, K_BAG_WARN, 0, NULL },
	{ "resetlun", 2, K_NOEFFECT, 0, NULL },
	{ "resetbus", 2, K_NOEFFECT, 0, NULL },
	{ "openflags", 2, K_OPENFLAGS, 0, NULL },
	{ "range", 2, K_RANGE, 0, NULL },
	{ "dedupratio", 2, K_BAG_WARN, 0, NULL },
	{ "dedupsets", 2, K_BAG_WARN, 0, NULL },
	{ "deduphotsets", 2, K_BAG_WARN, 0, NULL },
	{ "dedupflipflop", 2, K_BAG_WARN, 0, NULL },
	{ "streams", 2, K_REJECT, 0, "The 'streams=' parameter no longer is "
	    "a Storage Definition (SD) parameter, but has become a Workload "
	    "Definition (WD) parameter." },
	/* vdbc's own, exact only, after vdbench's (DESIGN.md). */
	{ "engine", EXACT, K_ENGINE, 0, NULL },
	{ "overwrite_data", EXACT, K_OVERWRITE, 0, NULL },
	{ "allow_mounted_write", EXACT, K_OVERWRITE, 0, NULL },
	{ NULL, 0, K_BAG, 0, NULL },
};

const struct kwdef wd_kws[] = {
	{ "wd", EXACT, K_NAME, 0, NULL },
	{ "sd", EXACT, K_SDLIST, 0, NULL },
	{ "skew", 2, K_SKEW, 0, NULL },
	{ "xfersize", 2, K_XFERSIZE, 0, NULL },
	{ "readpct", 2, K_READPCT, 0, NULL },
	{ "rdpct", 2, K_READPCT, 0, NULL },
	{ "writepct", 2, K_WRITEPCT, 0, NULL },
	{ "wrpct", 2, K_WRITEPCT, 0, NULL },
	{ "range", 2, K_RANGE, 0, NULL },
	{ "hotband", 2, K_W_HOTBAND, 0, NULL },
	{ "seekpct", 2, K_SEEKPCT, 0, NULL },
	{ "stride", 2, K_W_STRIDE, 0, NULL },
	{ "priority", 2, K_PRIORITY, 0, NULL },
	{ "iorate", 2, K_WD_IORATE, 0, NULL },
	{ "rhpct", 2, K_RHPCT, 0, NULL },
	{ "whpct", 2, K_WHPCT, 0, NULL },
	{ "host", 2, K_HOST, 0, NULL },
	{ "hd", EXACT, K_HOST, 0, NULL },
	{ "openflags", 2, K_OPENFLAGS, 0, NULL },
	{ "user", EXACT, K_REJECT, 0, "The 'user=' workload generator (a "
	    "Java class) is not supported by vdbc" },
	{ "threads", 2, K_WD_THREADS, 0, NULL },
	{ "streams", 2, K_BAG_WARN, 0, NULL },
	{ NULL, 0, K_BAG, 0, NULL },
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
	if (strcmp(s, "poisson") == 0) {
		struct pvals *p = (struct pvals *)&it->vals;

		w->seekpct = 100;
		bag_set(&w->bag, "seekpct", p);
		unbuilt(ps, "seekpct=poisson");
		return (0);
	}
	return (fail(ps, "Invalid contents for 'seekpct=': %s", it->value));
}

/* Storage definitions. */
int
do_sd(struct pstate *ps, const struct kwdef *d)
{
	struct sd *sd = ps->sd;
	const char *s = NULL;
	uint64_t u = 0;
	double v = 0;

	switch (d->id) {
	case K_HOST:
		if (one_str(ps, &s) != 0)
			return (-1);
		free(ps->pending_host);
		ps->pending_host = xstrdup(s);
		return (0);
	case K_LUN:
		if (ps->is_default)
			return (fail(ps, "You may not specify the 'lun=' "
			    "parameter for sd=default"));
		if (one_str(ps, &s) != 0)
			return (-1);
		if (sd->nluns > 0 && ps->pending_host == NULL)
			return (fail(ps, "'host=' and 'lun=' parameters must "
			    "be defined in pairs for sd=%s", sd->name));
		sd->luns = xreallocarray(sd->luns, (size_t)sd->nluns + 1,
		    sizeof(*sd->luns));
		sd->luns[sd->nluns].host = ps->pending_host != NULL ?
		    ps->pending_host : xstrdup("*");
		sd->luns[sd->nluns].lun = xstrdup(s);
		sd->nluns++;
		ps->pending_host = NULL;
		return (0);
	case K_SIZE:
		return (size_or_pair(ps, &sd->size_bytes, &sd->size_divisor));
	case K_THREADS:
		if (size_or_pair(ps, &u, NULL) != 0)
			return (-1);
		if (u < 1 || u > 100000)
			return (fail(ps, "Invalid 'threads=' value: %s",
			    ps->it->value));
		sd->threads = (uint32_t)u;
		return (0);
	case K_HITAREA:
		return (one_uint(ps, &sd->hitarea_bytes));
	case K_OFFSET:
	case K_ALIGN:
		if (one_uint(ps, &u) != 0)
			return (-1);
		if (u % 512 != 0)
			return (fail(ps, "SD %s= parameter must be multiple of "
			    "512 bytes", d->id == K_OFFSET ? "offset" :
			    "align"));
		*(d->id == K_OFFSET ? &sd->offset_bytes : &sd->align_bytes) = u;
		return (0);
	case K_OPENFLAGS:
		if (check_openflags(ps) != 0)
			return (-1);
		all_strs(ps, &sd->openflags);
		return (0);
	case K_RANGE:
		(void)v;
		return (get_range(ps, sd->range, &sd->range_set));
	case K_ENGINE:
		if (one_str(ps, &s) != 0)
			return (-1);
		if (strcmp(s, "sync") != 0 && strcmp(s, "null") != 0 &&
		    strcmp(s, "aio") != 0)
			return (fail(ps, "Invalid 'engine=' value: %s (expected "
			    "aio, sync or null)", s));
		bag_set(&sd->bag, "engine", &ps->it->vals);
		free(sd->engine);
		sd->engine = xstrdup(s);
		return (0);
	case K_OVERWRITE: {
		int yes = 0;

		/* overwrite_data= and allow_mounted_write=: yes or no. */
		if (yes_no(ps, &yes) != 0)
			return (-1);
		bag_set(&sd->bag, d->name, &ps->it->vals);
		*(strcmp(d->name, "overwrite_data") == 0 ? &sd->overwrite_data :
		    &sd->allow_mounted_write) = yes;
		return (0);
	}
	default:
		return (fail(ps, "internal: unhandled sd keyword %s",
		    d->name));
	}
}

/* Workload definitions. */
int
do_wd(struct pstate *ps, const struct kwdef *d)
{
	struct wd *w = ps->wd;
	double v = 0;

	switch (d->id) {
	case K_SDLIST:
		if (ps->it->vals.n == 0)
			return (fail(ps, "No parameters defined for 'wd=%s,sd=: "
			    "%s", w->name, ps->it->text));
		all_strs(ps, &w->sds);
		ps->out_of_order = 1;
		return (0);
	case K_SKEW:
		if (one_pct(ps, &v) != 0)
			return (-1);
		w->skew_set = 1;
		w->skew_pct = v;
		return (0);
	case K_XFERSIZE:
		return (wd_xfersize(ps, &w->xfer));
	case K_READPCT:
		if (one_pct(ps, &v) != 0)
			return (-1);
		w->readpct = floor(v);
		return (0);
	case K_WRITEPCT:
		if (one_pct(ps, &v) != 0)
			return (-1);
		w->readpct = 100 - floor(v);
		return (0);
	case K_RANGE:
		return (get_range(ps, w->range, &w->range_set));
	case K_SEEKPCT:
		return (wd_seekpct(ps, w));
	case K_PRIORITY:
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
	case K_WD_IORATE:
		if (ps->it->vals.n != 1)
			return (fail(ps, "The 'iorate' parameter for a Workload "
			    "Definition (WD) may contain only one value"));
		if (one_num(ps, &v) != 0)
			return (-1);
		w->iorate_set = 1;
		w->iorate = v;
		return (0);
	case K_RHPCT:
		return (one_pct(ps, &w->rhpct));
	case K_WHPCT:
		return (one_pct(ps, &w->whpct));
	case K_HOST:
		all_strs(ps, &w->hosts);
		return (0);
	case K_OPENFLAGS:
		if (check_openflags(ps) != 0)
			return (-1);
		all_strs(ps, &w->openflags);
		return (0);
	case K_W_STRIDE:
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
	case K_W_HOTBAND:
		if (get_range(ps, w->hotband, &w->hotband_set) != 0)
			return (-1);
		/* a high end between 100 and 200 (%) wraps past the end */
		w->hotband_wrap = w->hotband[1] > 100 && w->hotband[1] < 200;
		if (w->hotband_wrap && w->hotband[1] - w->hotband[0] > 100)
			return (fail(ps, "hotband=(low,high): a band that wraps "
			    "past the end may cover at most 100%%"));
		bag_set(&w->bag, "hotband", &ps->it->vals);
		return (0);
	case K_WD_THREADS:
		return (fail(ps, "Workload Definition (WD) level thread= "
		    "parameter may only be used together with "
		    "'concatenatesds=yes'"));
	default:
		return (fail(ps, "internal: unhandled wd keyword %s",
		    d->name));
	}
}
