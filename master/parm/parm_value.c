/* SPDX-License-Identifier: MIT */
/*
 * The parser's value checkers and messages: fail/note/unbuilt/noeffect,
 * one number, size, percentage or word, string lists, ranges, size pairs,
 * transfer sizes, yes/no, open flags, and the current entry's bag.
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

static const char *const fwd_operations[] = {
	"read", "write", "create", "delete", "mkdir", "rmdir", "open",
	"close", "getattr", "setattr", "access", "copy", "move", NULL,
};

/* Is s an fwd operation name? */
int
is_operation(const char *s)
{
	int i;

	for (i = 0; fwd_operations[i] != NULL; i++) {
		if (strcasecmp(s, fwd_operations[i]) == 0)
			return (1);
	}
	return (0);
}

/* Fail at the current item. */
int __attribute__((format(printf, 2, 3)))
fail(struct pstate *ps, const char *fmt, ...)
{
	char text[900];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	if (ps->it != NULL) {
		errmsg_set(ps->e, ps->it->file, ps->it->lineno, ps->it->col,
		    "%s", text);
		lexer_point(ps->e, ps->it);
	} else
		errmsg_set(ps->e, NULL, 0, 0, "%s", text);
	return (-1);
}

/* Add a console note. */
void __attribute__((format(printf, 2, 3)))
note(struct pstate *ps, const char *fmt, ...)
{
	char text[900];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	strlist_add(ps->notes, text);
}

/*
 * Why a keyword is not built, for the refusal line (docs/differences.md
 * says the same); the first row whose name starts what wins.
 */
static const struct {
	const char	*what;
	const char	*why;
} unbuilt_why[] = {
	{ "journal= on fsd", "vdbc validates file system workloads (-v on "
	    "fsd/fwd) but keeps no journal for them yet (docs/validation.md)" },
	{ "journal=", "journal=skip_read_all, ignore_pending and max= (and "
	    "-js, -ji) are not built yet; the journal and its recovery "
	    "are (docs/validation.md)" },
	{ "replay=", "the trace vdbench replays is in Swat's file format, "
	    "which vdbc does not read" },
	{ "rg=", "replay groups feed a trace replay, which vdbc does not run "
	    "(Swat's file format)" },
	{ "concatenatesds=", "one virtual lun over several sds needs "
	    "addressing across luns in the slave's engine, not built yet" },
	{ "log=", "the format of vdbench's per-file log is not documented" },
	{ "auxreport=", "it loads a Java reporting class into vdbench" },
	{ "showlba=", "the per-I/O lba trace (<slave>.showlba.txt) is not "
	    "written by vdbc yet" },
	{ "report_run_totals=", "no reference output shows what vdbench "
	    "adds, so vdbc cannot write it as vdbench does" },
	{ NULL, NULL }
};

/* Record a keyword vdbc accepts for planning but cannot run yet; the
 * entry carries why after a tab (master/preflight.c prints both). */
void
unbuilt(struct pstate *ps, const char *what)
{
	char key[96], *entry;
	const char *why = NULL;
	int i, seen = 0;

	for (i = 0; unbuilt_why[i].what != NULL && why == NULL; i++)
		if (strncmp(what, unbuilt_why[i].what,
		    strlen(unbuilt_why[i].what)) == 0)
			why = unbuilt_why[i].why;

	snprintf(key, sizeof(key), "vdbc: '%s' is accepted", what);
	for (i = 0; i < ps->notes->n; i++) {
		if (strncmp(ps->notes->v[i], key, strlen(key)) == 0)
			seen = 1;
	}
	if (!seen)
		note(ps, "%s for planning, but vdbc cannot run it yet: a run "
		    "stops before it starts", key);
	xasprintf(&entry, "'%s' (%s:%d:%d)%s%s", what, ps->it->file,
	    ps->it->lineno, ps->it->col, why != NULL ? "\t" : "",
	    why != NULL ? why : "");
	strlist_add(&ps->m->unbuilt, entry);
	free(entry);
}

/*
 * A keyword vdbench acts on and vdbc accepts without any effect: one
 * console line per keyword, so the difference is never silent; why says
 * what it is for in vdbench and why it means nothing here.
 */
void
noeffect(struct pstate *ps, const char *name, const char *why)
{
	char key[96];
	int i;

	snprintf(key, sizeof(key), "vdbc: '%s=' is accepted", name);
	for (i = 0; i < ps->notes->n; i++) {
		if (strncmp(ps->notes->v[i], key, strlen(key)) == 0)
			return;
	}
	if (why != NULL)
		note(ps, "%s and ignored: %s (docs/differences.md)", key, why);
	else
		note(ps, "%s but has no effect in vdbc (docs/differences.md)",
		    key);
}

/* The item's single numeric value. */
int
one_num(struct pstate *ps, double *out)
{
	const struct pitem *it = ps->it;

	if (it->vals.n != 1 || !it->vals.v[0].is_num)
		return (fail(ps, "Invalid value for '%s=': %s (expected one "
		    "number)", it->kw, it->value));
	*out = it->vals.v[0].num;
	return (0);
}

/* The item's single numeric value, as a non-negative integer. */
int
one_uint(struct pstate *ps, uint64_t *out)
{
	double v = 0;

	if (one_num(ps, &v) != 0)
		return (-1);
	if (v < 0 || v > 9.2e18)
		return (fail(ps, "Invalid value for '%s=': %s (expected a "
		    "number of zero or more)", ps->it->kw, ps->it->value));
	*out = (uint64_t)v;
	return (0);
}

/* A percentage 0..100. */
int
one_pct(struct pstate *ps, double *out)
{
	if (one_num(ps, out) != 0)
		return (-1);
	if (*out < 0 || *out > 100)
		return (fail(ps, "Invalid value for '%s=': %s (expected a "
		    "percentage from 0 to 100)", ps->it->kw, ps->it->value));
	return (0);
}

/* The item's single value as text. */
int
one_str(struct pstate *ps, const char **out)
{
	if (ps->it->vals.n != 1)
		return (fail(ps, "'%s=' takes one value: %s", ps->it->kw,
		    ps->it->value));
	*out = ps->it->vals.v[0].str;
	return (0);
}

/* All values as text, into an empty list. */
void
all_strs(struct pstate *ps, struct strlist *l)
{
	int i;

	strlist_clear(l);
	for (i = 0; i < ps->it->vals.n; i++)
		strlist_add(l, ps->it->vals.v[i].str);
}

/* Linux open flags (PARMFILE.md 6.1). */
int
check_openflags(struct pstate *ps)
{
	static const char *const ok[] = {
		"o_direct", "directio", "o_sync", "o_dsync", "o_rsync",
		"fsync", NULL,
	};
	int i, k;

	for (i = 0; i < ps->it->vals.n; i++) {
		const char *f = ps->it->vals.v[i].str;

		if (strncasecmp(f, "0x", 2) == 0 && f[2] != '\0' &&
		    strspn(f + 2, "0123456789abcdefABCDEF") == strlen(f + 2))
			continue;
		for (k = 0; ok[k] != NULL; k++) {
			if (strcasecmp(f, ok[k]) == 0)
				break;
		}
		if (ok[k] == NULL)
			return (fail(ps, "Invalid 'openflags=' parameter for "
			    "Linux: %s", f));
	}
	return (0);
}

/* range=(low,high). */
int
get_range(struct pstate *ps, double range[2], int *set)
{
	const struct pitem *it = ps->it;

	if (it->vals.n != 2 || !it->vals.v[0].is_num || !it->vals.v[1].is_num)
		return (fail(ps, "'range=' parameter must be specified with a "
		    "beginning and ending range, e.g. 'range=(10,20)'"));
	range[0] = it->vals.v[0].num;
	range[1] = it->vals.v[1].num;
	if (range[0] >= range[1])
		return (fail(ps, "'range=' parameter. Second value must be "
		    "higher than first value"));
	*set = 1;
	return (0);
}

/* A value in bytes, or (bytes,divisor). */
int
size_or_pair(struct pstate *ps, uint64_t *bytes, uint64_t *divisor)
{
	const struct pitem *it = ps->it;
	double a = 0, b = 1;

	if (it->vals.n == 2 && it->vals.v[0].is_num && it->vals.v[1].is_num) {
		a = it->vals.v[0].num;
		b = it->vals.v[1].num;
		if (b < 1)
			return (fail(ps, "'%s=(value,divisor)': the divisor "
			    "must be 1 or more: %s", it->kw, it->value));
	} else if (one_num(ps, &a) != 0)
		return (-1);
	if (a < 0)
		return (fail(ps, "Invalid value for '%s=': %s", it->kw,
		    it->value));
	*bytes = (uint64_t)(a / b);
	if (divisor != NULL)
		*divisor = (uint64_t)b;
	return (0);
}

/* wd xfersize=: one size, a distribution, or (min,max,align). */
int
wd_xfersize(struct pstate *ps, struct xfer *x)
{
	const struct pitem *it = ps->it;
	double sum = 0;
	int i, n = it->vals.n;

	for (i = 0; i < n; i++) {
		if (!it->vals.v[i].is_num || it->vals.v[i].num < 0)
			return (fail(ps, "Invalid value for 'xfersize=': %s",
			    it->value));
	}
	if (n == 1) {
		if (it->vals.v[0].num < 1)
			return (fail(ps, "Invalid value for 'xfersize=': %s",
			    it->value));
		xfer_set_single(x, (uint64_t)it->vals.v[0].num);
		return (0);
	}
	if (n == 3) {
		uint64_t mn = (uint64_t)it->vals.v[0].num;
		uint64_t mx = (uint64_t)it->vals.v[1].num;
		uint64_t al = (uint64_t)it->vals.v[2].num;

		if (mn >= mx)
			return (fail(ps, "xfersize=(min,max,align): min must "
			    "be less than max: %s", it->value));
		if (al == 0 || al % 512 != 0)
			return (fail(ps, "xfersize=(min,max,align): align must "
			    "be a non-zero multiple of 512: %s", it->value));
		xfer_clear(x);
		x->kind = XFER_RANGE;
		x->min_bytes = mn;
		x->max_bytes = mx;
		x->align_bytes = al;
		return (0);
	}
	if (n % 2 != 0)
		return (fail(ps, "Xfersize distribution list must be in pairs, "
		    "e.g. xfersize=(1k,25,2k,25,4k,50)"));
	for (i = 0; i < n; i += 2) {
		double sz = it->vals.v[i].num;

		if (sz < 512 || fmod(sz, 512) != 0)
			return (fail(ps, "data transfer size not multiple of "
			    "512 bytes: %lld", (long long)sz));
		sum += it->vals.v[i + 1].num;
	}
	if (lround(sum) != 100)
		return (fail(ps, "Xfersize distribution does not add up to "
		    "100: %ld", lround(sum)));
	xfer_clear(x);
	x->kind = XFER_DIST;
	x->n = n / 2;
	x->size_bytes = xcalloc((size_t)x->n, sizeof(uint64_t));
	x->pct = xcalloc((size_t)x->n, sizeof(double));
	for (i = 0; i < x->n; i++) {
		x->size_bytes[i] = (uint64_t)it->vals.v[2 * i].num;
		x->pct[i] = it->vals.v[2 * i + 1].num;
	}
	return (0);
}

/* The bag of the current entry. */
struct bag *
cur_bag(struct pstate *ps)
{
	switch (ps->sec) {
	case SEC_GENERAL:
		return (&ps->m->general.bag);
	case SEC_HD:
		return (&ps->hd->bag);
	case SEC_SD:
		return (&ps->sd->bag);
	case SEC_WD:
		return (&ps->wd->bag);
	case SEC_RD:
		return (&ps->rd->bag);
	case SEC_FSD:
		return (&ps->fsd->bag);
	case SEC_FWD:
		return (&ps->fwd->bag);
	default:
		return (NULL);
	}
}

/* A yes/no value. */
int
yes_no(struct pstate *ps, int *out)
{
	const char *s = NULL;

	if (one_str(ps, &s) != 0)
		return (-1);
	if (strcasecmp(s, "yes") == 0 || strcasecmp(s, "y") == 0)
		*out = 1;
	else if (strcasecmp(s, "no") == 0 || strcasecmp(s, "n") == 0)
		*out = 0;
	else
		return (fail(ps, "Invalid value for '%s=': %s (expected yes or "
		    "no)", ps->it->kw, s));
	return (0);
}
