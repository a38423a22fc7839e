/* SPDX-License-Identifier: MIT */
/*
 * File-system definitions and workloads (PARMFILE.md 9, 10): fsd/fwd
 * keyword tables, handlers and the rd format= check.
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

static int	kw_fsd_anchor(struct pstate *, const struct kwdef *);
static int	kw_fsd_dist(struct pstate *, const struct kwdef *);
static int	kw_fsd_files(struct pstate *, const struct kwdef *);
static int	kw_fsd_openflags(struct pstate *, const struct kwdef *);
static int	kw_fsd_shared(struct pstate *, const struct kwdef *);
static int	kw_fsd_sizes(struct pstate *, const struct kwdef *);
static int	kw_fsd_total(struct pstate *, const struct kwdef *);
static int	kw_fsd_width(struct pstate *, const struct kwdef *);
static int	kw_fsd_journal_dir(struct pstate *, const struct kwdef *);

const struct kwdef fsd_kws[] = {
	{ "fsd", EXACT, K_NAME, 0, NULL, NULL },
	{ "anchor", 2, K_ANCHOR, 0, NULL, kw_fsd_anchor },
	{ "journal", 2, K_G_CMD, 0, NULL, kw_fsd_journal_dir },
	{ "host", 2, K_REJECT, 0, "No 'host=' parameter is allowed for a "
	    "File System Definition (FSD)", NULL },
	{ "hd", EXACT, K_REJECT, 0, "No 'host=' parameter is allowed for a "
	    "File System Definition (FSD)", NULL },
	{ "width", 2, K_FSD_WIDTH, 0, NULL, kw_fsd_width },
	{ "depth", 2, K_FSD_DEPTH, 0, NULL, kw_fsd_width },
	{ "sizes", 2, K_FSD_SIZES, 0, NULL, kw_fsd_sizes },
	{ "shared", 2, K_FSD_SHARED, 0, NULL, kw_fsd_shared },
	{ "workingsetsize", 2, K_FSD_WSS, 0, NULL, kw_fsd_total },
	{ "wss", 2, K_FSD_WSS, 0, NULL, kw_fsd_total },
	{ "totalsize", 2, K_FSD_TOTAL, 0, NULL, kw_fsd_total },
	{ "total_size", 2, K_FSD_TOTAL, 0, NULL, kw_fsd_total },
	{ "files", 2, K_FSD_FILES, 0, NULL, kw_fsd_files },
	{ "distribution", 2, K_FSD_DIST, 0, NULL, kw_fsd_dist },
	{ "cleanup", 2, K_REJECT, 0, "'cleanup=' parameter is obsolete", NULL },
	{ "openflags", 2, K_OPENFLAGS, 0, NULL, kw_fsd_openflags },
	{ "log", EXACT, K_G_CMD, 0, NULL, kw_yes_unbuilt },
	{ "count", 2, K_COUNT, 0, NULL, NULL },
	{ "dedupratio", 2, K_REJECT, 0, "FSD specific dedup parameters: some "
	    "time in the future", NULL },
	{ NULL, 0, K_BAG, 0, NULL, NULL },
};

static int	kw_fwd_fileio(struct pstate *, const struct kwdef *);
static int	kw_fwd_fileselect(struct pstate *, const struct kwdef *);
static int	kw_fwd_fsdlist(struct pstate *, const struct kwdef *);
static int	kw_fwd_host(struct pstate *, const struct kwdef *);
static int	kw_fwd_openflags(struct pstate *, const struct kwdef *);
static int	kw_fwd_operation(struct pstate *, const struct kwdef *);
static int	kw_fwd_rdpct(struct pstate *, const struct kwdef *);
static int	kw_fwd_skew(struct pstate *, const struct kwdef *);
static int	kw_fwd_stopafter(struct pstate *, const struct kwdef *);
static int	kw_fwd_target(struct pstate *, const struct kwdef *);
static int	kw_fwd_threads(struct pstate *, const struct kwdef *);
static int	kw_fwd_xfersize(struct pstate *, const struct kwdef *);

const struct kwdef fwd_kws[] = {
	{ "fwd", EXACT, K_NAME, 0, NULL, NULL },
	{ "fsd", EXACT, K_FSDLIST, 0, NULL, kw_fwd_fsdlist },
	{ "readpct", 2, K_FWD_RDPCT, 0, NULL, kw_fwd_rdpct },
	{ "rdpct", 2, K_FWD_RDPCT, 0, NULL, kw_fwd_rdpct },
	{ "stopafter", 2, K_FWD_STOPAFTER, 0, NULL, kw_fwd_stopafter },
	{ "operation", 2, K_FWD_OPERATION, 0, NULL, kw_fwd_operation },
	{ "fileselect", 2, K_FWD_FILESELECT, 0, NULL, kw_fwd_fileselect },
	{ "fileio", EXACT, K_FWD_FILEIO, 0, NULL, kw_fwd_fileio },
	{ "xfersizes", 2, K_FWD_XFERSIZE, 0, NULL, kw_fwd_xfersize },
	{ "skew", 2, K_FWD_SKEW, 0, NULL, kw_fwd_skew },
	{ "threads", 2, K_FWD_THREADS, 0, NULL, kw_fwd_threads },
	{ "target", 2, K_FWD_TARGET, 0, NULL, kw_fwd_target },
	{ "host", 2, K_FWD_HOST, 0, NULL, kw_fwd_host },
	{ "hd", EXACT, K_FWD_HOST, 0, NULL, kw_fwd_host },
	{ "openflags", 2, K_OPENFLAGS, 0, NULL, kw_fwd_openflags },
	{ NULL, 0, K_BAG, 0, NULL, NULL },
};

/* fsd sizes=: one size, (size,pct,...) pairs, or (avg,0). */
static int
fsd_sizes(struct pstate *ps, struct fsd *f)
{
	const struct pitem *it = ps->it;
	double sum = 0;
	int i, n = it->vals.n;

	for (i = 0; i < n; i++) {
		if (!it->vals.v[i].is_num || it->vals.v[i].num < 0)
			return (fail(ps, "Invalid value for 'sizes=': %s",
			    it->value));
	}
	free(f->size_bytes);
	free(f->size_pct);
	f->size_pct = NULL;
	f->size_avg = 0;
	if (n == 1 || (n == 2 && it->vals.v[1].num == 0)) {
		f->nsizes = 1;
		f->size_bytes = xcalloc(1, sizeof(uint64_t));
		f->size_bytes[0] = (uint64_t)it->vals.v[0].num;
		f->size_avg = n == 2;
		return (0);
	}
	if (n % 2 != 0) {
		f->nsizes = 0;
		f->size_bytes = NULL;
		return (fail(ps, "'sizes=' distribution must be in pairs, e.g. "
		    "sizes=(4k,50,8k,50)"));
	}
	f->nsizes = n / 2;
	f->size_bytes = xcalloc((size_t)f->nsizes, sizeof(uint64_t));
	f->size_pct = xcalloc((size_t)f->nsizes, sizeof(double));
	for (i = 0; i < f->nsizes; i++) {
		f->size_bytes[i] = (uint64_t)it->vals.v[2 * i].num;
		sum += f->size_pct[i] = it->vals.v[2 * i + 1].num;
	}
	if (lround(sum) != 100)
		return (fail(ps, "fsd=%s: 'sizes=' distribution does not add "
		    "up to 100: %ld", f->name, lround(sum)));
	return (0);
}

/*
 * fileselect=: random, sequential, once, poisson/skewed, midpoint=N or a
 * number, alone or in a list, read in order as vdbench's
 * FwdEntry.parseFileSelect: random (any prefix) and sequential (any
 * prefix) pick the order, poisson and skewed are random with midpoint 3,
 * midpoint=N (N > 0) random with midpoint N, a number sets the midpoint;
 * the midpoint counts only when the selection is random (then it is
 * poisson, FileAnchor.getFile), and once goes before both.
 */
static int
fwd_fileselect(struct pstate *ps, struct fwd *f)
{
	const struct pitem *it = ps->it;
	int i, random = 0, once = 0;
	double mid = 0;
	char *end;

	for (i = 0; i < it->vals.n; i++) {
		const struct pval *v = &it->vals.v[i];
		const char *s = v->str;
		size_t n = s != NULL ? strlen(s) : 0;

		if (v->is_num)
			mid = v->num;
		else if (n > 0 && strncmp("random", s, n) == 0)
			random = 1;
		else if (n > 0 && strncmp("sequential", s, n) == 0)
			random = 0;
		else if (strcmp(s, "once") == 0)
			once = 1;
		else if (strcmp(s, "poisson") == 0 || strcmp(s, "skewed") == 0) {
			random = 1;
			mid = 3;
		} else if (strncmp(s, "midpoint=", 9) == 0) {
			mid = strtod(s + 9, &end);
			if (s[9] == '\0' || *end != '\0' || !(mid > 0))
				return (fail(ps, "Invalid 'fileselect' parameter "
				    "contents: %s", s));
			random = 1;
		} else
			return (fail(ps, "Invalid 'fileselect=' value: %s "
			    "(expected random, sequential, once, poisson, "
			    "skewed, midpoint=N or a number)", s));
	}
	free(f->fileselect);
	if (once)
		f->fileselect = xstrdup("once");
	else if (random && mid != 0) {
		f->fileselect = xstrdup("poisson");
		bag_set(&f->bag, "fileselect", &it->vals);
		f->poisson_midpoint = mid;
	} else
		f->fileselect = xstrdup(random ? "random" : "sequential");
	return (0);
}

/* fwd: readpct=, rdpct= */
static int
kw_fwd_rdpct(struct pstate *ps, const struct kwdef *d)
{
	struct fwd *f = ps->fwd;
	double v = 0;

	(void)d;
	if (one_pct(ps, &v) != 0)
		return (-1);
	f->readpct_set = 1;
	f->readpct = floor(v);
	return (0);
}

/* fwd: stopafter= */
static int
kw_fwd_stopafter(struct pstate *ps, const struct kwdef *d)
{
	struct fwd *f = ps->fwd;
	double v = 0;

	(void)d;
	if (one_num(ps, &v) != 0)
		return (-1);
	f->stopafter = v;	/* negative: N % of the file size */
	return (0);
}

/* fwd: operation= */
static int
kw_fwd_operation(struct pstate *ps, const struct kwdef *d)
{
	const struct pitem *it = ps->it;
	struct fwd *f = ps->fwd;
	const char *s = NULL;
	int i;

	(void)d;
	if (it->vals.n != 1)
		return (fail(ps, "'fwd=%s,operations=' accepts only ONE "
		    "parameter.", f->name));
	s = it->vals.v[0].str;
	if (!is_operation(s))
		return (fail(ps, "Unknown operation: %s", s));
	free(f->operation);
	f->operation = xstrdup(s);
	for (i = 0; f->operation[i] != '\0'; i++)
		f->operation[i] = (char)tolower(
		    (unsigned char)f->operation[i]);
	return (0);
}

/* fwd: fileselect= */
static int
kw_fwd_fileselect(struct pstate *ps, const struct kwdef *d)
{
	struct fwd *f = ps->fwd;

	(void)d;
	return (fwd_fileselect(ps, f));
}

/* fwd: fileio= */
static int
kw_fwd_fileio(struct pstate *ps, const struct kwdef *d)
{
	const struct pitem *it = ps->it;
	struct fwd *f = ps->fwd;
	const char *a = it->vals.v[0].str;
	const char *b = it->vals.n > 1 ? it->vals.v[1].str : NULL;

	(void)d;
	if (it->vals.n > 2 || (strcmp(a, "random") != 0 &&
	    strcmp(a, "sequential") != 0 && strcmp(a, "seq") != 0) ||
	    (b != NULL && !((strcmp(a, "random") == 0 &&
	    strcmp(b, "shared") == 0) || (strcmp(a, "random") != 0 &&
	    strcmp(b, "delete") == 0))))
		return (fail(ps, "Invalid 'fileio=' value: %s (expected "
		    "random, sequential, (random,shared) or "
		    "(sequential,delete))", it->value));
	free(f->fileio);
	f->fileio = xstrdup(strcmp(a, "random") == 0 ? "random" :
	    "sequential");
	f->fileio_shared = b != NULL && strcmp(b, "shared") == 0;
	f->fileio_delete = b != NULL && strcmp(b, "delete") == 0;
	return (0);
}

/* fwd: xfersizes= */
static int
kw_fwd_xfersize(struct pstate *ps, const struct kwdef *d)
{
	struct fwd *f = ps->fwd;

	(void)d;
	return (wd_xfersize(ps, &f->xfer));
}

/* fwd: skew= */
static int
kw_fwd_skew(struct pstate *ps, const struct kwdef *d)
{
	struct fwd *f = ps->fwd;
	double v = 0;

	(void)d;
	if (one_pct(ps, &v) != 0)
		return (-1);
	f->skew_set = 1;
	f->skew_pct = v;
	return (0);
}

/* fwd: threads= */
static int
kw_fwd_threads(struct pstate *ps, const struct kwdef *d)
{
	const struct pitem *it = ps->it;
	struct fwd *f = ps->fwd;
	uint64_t u = 0;

	(void)d;
	if (one_uint(ps, &u) != 0)
		return (-1);
	if (u < 1 || u > 100000)
		return (fail(ps, "Invalid 'threads=' value: %s",
		    it->value));
	f->threads = (int)u;
	return (0);
}

/* fwd: target= */
static int
kw_fwd_target(struct pstate *ps, const struct kwdef *d)
{
	struct fwd *f = ps->fwd;
	const char *s = NULL;

	(void)d;
	if (one_str(ps, &s) != 0)
		return (-1);
	free(f->target);
	f->target = xstrdup(s);
	return (0);
}

/* fwd: host=, hd= */
static int
kw_fwd_host(struct pstate *ps, const struct kwdef *d)
{
	const struct pitem *it = ps->it;
	struct fwd *f = ps->fwd;
	int i;

	(void)d;
	for (i = 0; i < it->vals.n; i++) {
		if (strchr(it->vals.v[i].str, '*') != NULL)
			return (fail(ps, "'fwd=%s,host=%s': an fwd takes "
			    "host names without wildcards", f->name,
			    it->vals.v[i].str));
	}
	all_strs(ps, &f->hosts);
	return (0);
}

/* fwd: openflags= */
static int
kw_fwd_openflags(struct pstate *ps, const struct kwdef *d)
{
	struct fwd *f = ps->fwd;

	(void)d;
	if (check_openflags(ps) != 0)
		return (-1);
	all_strs(ps, &f->openflags);
	return (0);
}

/* fwd: fsd= */
static int
kw_fwd_fsdlist(struct pstate *ps, const struct kwdef *d)
{
	struct fwd *f = ps->fwd;

	(void)d;
	all_strs(ps, &f->fsds);
	return (0);
}

/* fsd: anchor= */
static int
kw_fsd_anchor(struct pstate *ps, const struct kwdef *d)
{
	struct fsd *f = ps->fsd;
	const char *s = NULL;

	(void)d;
	if (one_str(ps, &s) != 0)
		return (-1);
	free(f->anchor);
	f->anchor = xstrdup(s);
	return (0);
}

/* fsd: width=, depth= */
static int
kw_fsd_width(struct pstate *ps, const struct kwdef *d)
{
	struct fsd *f = ps->fsd;
	uint64_t u = 0;

	if (one_uint(ps, &u) != 0)
		return (-1);
	if (u < 1 || u > 100000)
		return (fail(ps, "Invalid value for '%s=': %s",
		    ps->it->kw, ps->it->value));
	*(d->id == K_FSD_WIDTH ? &f->width : &f->depth) = (int)u;
	return (0);
}

/* fsd: files= */
static int
kw_fsd_files(struct pstate *ps, const struct kwdef *d)
{
	struct fsd *f = ps->fsd;
	uint64_t u = 0;

	(void)d;
	if (one_uint(ps, &u) != 0)
		return (-1);
	if (u < 1 || u > 10000000)
		return (fail(ps, "Invalid value for 'files=': %s (1 to "
		    "10,000,000 per directory)", ps->it->value));
	f->files = u;
	return (0);
}

/* fsd: sizes= */
static int
kw_fsd_sizes(struct pstate *ps, const struct kwdef *d)
{
	struct fsd *f = ps->fsd;

	(void)d;
	return (fsd_sizes(ps, f));
}

/* fsd: distribution= */
static int
kw_fsd_dist(struct pstate *ps, const struct kwdef *d)
{
	struct fsd *f = ps->fsd;
	const char *s = NULL;

	(void)d;
	if (one_str(ps, &s) != 0)
		return (-1);
	if (strcmp(s, "bottom") == 0)
		f->dist_all = 0;
	else if (strcmp(s, "all") == 0)
		f->dist_all = 1;
	else
		return (fail(ps, "Invalid 'distribution=' value: %s "
		    "(expected bottom or all)", s));
	return (0);
}

/* fsd: totalsize=, total_size=, workingsetsize=, wss= */
static int
kw_fsd_total(struct pstate *ps, const struct kwdef *d)
{
	struct fsd *f = ps->fsd;

	if (ps->it->vals.n >= 1 && ps->it->vals.v[0].is_num &&
	    ps->it->vals.v[0].num < 0)
		return (fail(ps, "A percentage value as a '%s=' "
		    "parameter is NOT allowed for an FSD; only for an "
		    "RD.", d->id == K_FSD_TOTAL ? "totalsize" :
		    "workingsetsize"));
	return (size_or_pair(ps, d->id == K_FSD_TOTAL ?
	    &f->totalsize_bytes : &f->wss_bytes, NULL));
}

/* fsd: shared= */
static int
kw_fsd_shared(struct pstate *ps, const struct kwdef *d)
{
	struct fsd *f = ps->fsd;

	(void)d;
	return (yes_no(ps, &f->shared));
}

/* fsd: openflags= */
static int
kw_fsd_openflags(struct pstate *ps, const struct kwdef *d)
{
	(void)d;
	if (check_openflags(ps) != 0)
		return (-1);
	bag_set(cur_bag(ps), "openflags", &ps->it->vals);
	if (ps->sec == SEC_FSD)
		all_strs(ps, &ps->fsd->openflags);
	return (0);
}

/* Is a format= word in the rd's list? */
static int
has_format(const struct rd *r, const char *word)
{
	int i;

	for (i = 0; i < r->format.n; i++) {
		if (strncasecmp(r->format.v[i], word, strlen(word)) == 0)
			return (1);
	}
	return (0);
}

/* format= cross checks (PARMFILE.md 10.3, 8.1). */
int
check_format(struct pstate *ps, const struct rd *r)
{
	if (r->format.n == 0)
		return (0);
	if (has_format(r, "once") && r->nloops == 0 && r->fwdrate_n < 2)
		return (fail(ps, "'format=once' can only be used with "
		    "'forxxx=' parameters"));
	if (has_format(r, "limited") && !has_format(r, "only"))
		return (fail(ps, "The use of 'format=limited' requires the use "
		    "of 'format=(only,limited)'"));
	if (has_format(r, "complete") && !has_format(r, "no"))
		return (fail(ps, "'format=yes' and 'format=complete' are "
		    "mutually exclusive."));
	return (0);
}

/*
 * sd= journal=<dir>: where data validation's journal and map files go
 * (vdbench's SD_entry.java:462; default the slave's working directory).
 * journal=no (vdbench's default) is simply accepted.
 */
int
kw_journal_dir(struct pstate *ps, const struct kwdef *d)
{
	const struct pvals *v = &ps->it->vals;

	(void)d;
	if (v->n == 1 && !v->v[0].is_num && strcasecmp(v->v[0].str, "no") == 0)
		return (0);
	if (v->n != 1 || v->v[0].is_num || v->v[0].str[0] == '\0')
		return (fail(ps, "'journal=' expects one directory name"));
	free(ps->sd->journal_dir);
	ps->sd->journal_dir = xstrdup(v->v[0].str);
	bag_set(cur_bag(ps), "journal", v);
	return (0);
}

/*
 * fsd= journal=<dir>: the journal of file system workloads, which vdbc
 * does not validate yet; journal=no is simply accepted.
 */
static int
kw_fsd_journal_dir(struct pstate *ps, const struct kwdef *d)
{
	const struct pvals *v = &ps->it->vals;

	(void)d;
	if (v->n == 1 && !v->v[0].is_num && strcasecmp(v->v[0].str, "no") == 0)
		return (0);
	unbuilt(ps, "journal= on fsd");
	bag_set(cur_bag(ps), "journal", v);
	return (0);
}
