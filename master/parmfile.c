/* SPDX-License-Identifier: MIT */
/*
 * Section parsers. The stream is flat: an item belongs to the entry most
 * recently opened. A section keyword of a later section opens that section;
 * one of an earlier section is an ordinary parameter where the current
 * table has it (vdbench reads "sd=" inside a wd as the wd's sd list).
 */
#include "parmfile.h"

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
#include "mtime.h"
#include "xmalloc.h"
#include "parmyaml.h"
#include "plan.h"

enum section {
	SEC_GENERAL, SEC_HD, SEC_RG, SEC_FSD, SEC_SD, SEC_WD, SEC_FWD, SEC_RD,
	SEC_N,
};

static const char *const sec_names[SEC_N] = {
	"general", "hd", "rg", "fsd", "sd", "wd", "fwd", "rd",
};

/* What a keyword does once matched. */
enum kwid {
	K_BAG,			/* keep the values untyped */
	K_BAG_WARN,		/* keep, and say vdbc does not act on it yet */
	K_REJECT,		/* vdbench's own rejection text in msg */
	K_NAME,			/* the entry's own keyword (sd=, wd=, ...) */
	/* general */
	K_COMPRATIO, K_FORMATXFERSIZE, K_FORMATSDS, K_PORT, K_HISTOGRAM,
	K_G_COMPSEED, K_G_DEBUG, K_G_UNIX2WIN, K_G_REPORT, K_G_MSGSCAN,
	K_G_VALIDATE, K_W_STRIDE, K_W_HOTBAND, K_H_MOUNT, K_G_CMD,
	/* hd */
	K_SYSTEM, K_VDBENCH, K_SHELL, K_USER, K_JVMS, K_CLIENTS,
	/* sd */
	K_HOST, K_LUN, K_SIZE, K_THREADS, K_HITAREA, K_OFFSET, K_ALIGN,
	K_OPENFLAGS, K_RANGE, K_ENGINE, K_COUNT, K_OVERWRITE,
	/* wd */
	K_SDLIST, K_SKEW, K_XFERSIZE, K_READPCT, K_WRITEPCT, K_SEEKPCT,
	K_PRIORITY, K_WD_IORATE, K_RHPCT, K_WHPCT, K_WD_THREADS,
	/* rd */
	K_WDLIST, K_FSDLIST, K_FWDLIST, K_IORATE, K_MAXDATA, K_CURVE,
	K_ELAPSED, K_INTERVAL, K_WARMUP, K_PAUSE, K_LOOP, K_DISTRIBUTION,
	K_FWDRATE, K_FORMAT, K_OPERATIONS, K_STOPCURVE,
	/* fsd */
	K_ANCHOR, K_FSD_WIDTH, K_FSD_DEPTH, K_FSD_SIZES, K_FSD_FILES,
	K_FSD_DIST, K_FSD_TOTAL, K_FSD_WSS, K_FSD_SHARED,
	/* fwd */
	K_FWD_RDPCT, K_FWD_STOPAFTER, K_FWD_OPERATION, K_FWD_FILESELECT,
	K_FWD_FILEIO, K_FWD_XFERSIZE, K_FWD_SKEW, K_FWD_THREADS, K_FWD_TARGET,
	K_FWD_HOST,
};

struct kwdef {
	const char	*name;
	int		 minlen;	/* shortest prefix; -1 = exact */
	enum kwid	 id;
	int		 arg;		/* K_LOOP: the loop kind, ... */
	const char	*msg;		/* K_REJECT / K_BAG_WARN text */
};

#define EXACT	-1

/* count=(start,n): the most copies of one sd or fsd. */
#define PARM_MAX_COUNT	100000
/*
 * The most sds, and the most fsds, of a parmfile in all, count= copies
 * included: real parmfiles have hundreds; 100 lines of count=(1,100000)
 * would be 10 million (gigabytes, minutes in -s).
 */
#define PARM_MAX_SDS	100000

static const struct kwdef general_kws[] = {
	{ "compression", EXACT, K_BAG_WARN, 0, NULL },
	{ "compratio", 2, K_COMPRATIO, 0, NULL },
	{ "compressionseed", 2, K_G_COMPSEED, 0, NULL },
	{ "dedupratio", 2, K_BAG, 0, NULL },
	{ "dedupunit", 2, K_BAG, 0, NULL },
	{ "dedupsets", 2, K_BAG, 0, NULL },
	{ "deduphotsets", 2, K_BAG_WARN, 0, NULL },
	{ "dedupflipflop", 2, K_BAG_WARN, 0, NULL },
	{ "dedupacross", 2, K_BAG_WARN, 0, NULL },
	{ "dedupmaxkey", 2, K_BAG_WARN, 0, NULL },
	{ "port", 2, K_PORT, 0, NULL },
	{ "pattern", 2, K_BAG_WARN, 0, NULL },
	{ "data_errors", 2, K_BAG, 0, NULL },
	{ "dataerrors", 2, K_BAG, 0, NULL },
	{ "swat", 2, K_REJECT, 0,
	    "The 'swat=' parameter is no longer supported" },
	{ "validate", 2, K_G_VALIDATE, 0, NULL },
	{ "journal", EXACT, K_BAG_WARN, 0, NULL },
	{ "startcmd", 2, K_G_CMD, 0, "startcmd" },
	{ "start_cmd", EXACT, K_G_CMD, 0, "startcmd" },
	{ "endcmd", 2, K_G_CMD, 0, "endcmd" },
	{ "end_cmd", EXACT, K_G_CMD, 0, "endcmd" },
	{ "heartbeat_error", EXACT, K_BAG, 0, NULL },
	{ "debug", EXACT, K_G_DEBUG, 0, NULL },
	{ "unix2windows", 2, K_G_UNIX2WIN, 0, NULL },
	{ "formatxfersize", 2, K_FORMATXFERSIZE, 0, NULL },
	{ "create_anchors", 2, K_BAG, 0, NULL },
	{ "formatsds", 2, K_FORMATSDS, 0, NULL },
	{ "report", 2, K_G_REPORT, 0, NULL },
	{ "report_run_totals", 2, K_BAG, 0, NULL },
	{ "histogram", 2, K_HISTOGRAM, 0, NULL },
	{ "psrset", 2, K_BAG, 0, NULL },
	{ "auxreport", 2, K_BAG_WARN, 0, NULL },
	{ "monitor", 2, K_BAG_WARN, 0, NULL },
	{ "concatenatesds", 2, K_BAG_WARN, 0, NULL },
	{ "messagescan", 2, K_G_MSGSCAN, 0, NULL },
	{ "abort_failed_skew", 2, K_BAG, 0, NULL },
	{ "misc", 2, K_BAG, 0, NULL },
	{ "pattern_buffer", EXACT, K_BAG, 0, NULL },
	{ "showlba", EXACT, K_BAG, 0, NULL },
	{ "loop", EXACT, K_BAG_WARN, 0, NULL },
	{ NULL, 0, K_BAG, 0, NULL },
};

static const struct kwdef hd_kws[] = {
	{ "hd", EXACT, K_NAME, 0, NULL },
	{ "host", EXACT, K_NAME, 0, NULL },
	{ "system", 2, K_SYSTEM, 0, NULL },
	{ "vdbench", 2, K_VDBENCH, 0, NULL },
	{ "shell", 2, K_SHELL, 0, NULL },
	{ "user", 2, K_USER, 0, NULL },
	{ "jvms", 2, K_JVMS, 0, NULL },
	{ "clients", 2, K_CLIENTS, 0, NULL },
	{ "mount", 2, K_H_MOUNT, 0, NULL },
	{ NULL, 0, K_BAG, 0, NULL },
};

static const struct kwdef sd_kws[] = {
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
	{ "kstat", 2, K_BAG, 0, NULL },
	{ "instance", 2, K_BAG, 0, NULL },
	{ "replay", 2, K_BAG_WARN, 0, NULL },
	{ "journal", 2, K_BAG_WARN, 0, NULL },
	{ "resetlun", 2, K_BAG, 0, NULL },
	{ "resetbus", 2, K_BAG, 0, NULL },
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

static const struct kwdef wd_kws[] = {
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

static const struct kwdef rd_kws[] = {
	{ "rd", EXACT, K_NAME, 0, NULL },
	{ "wd", EXACT, K_WDLIST, 0, NULL },
	{ "sd", EXACT, K_SDLIST, 0, NULL },
	{ "fsd", EXACT, K_FSDLIST, 0, NULL },
	{ "iorate", 2, K_IORATE, 0, NULL },
	{ "maxdata", EXACT, K_MAXDATA, 0, NULL },
	{ "maxdataread", EXACT, K_MAXDATA, 0, NULL },
	{ "maxdatawritten", EXACT, K_MAXDATA, 0, NULL },
	{ "curve", 2, K_CURVE, 0, NULL },
	{ "stopcurve", 2, K_STOPCURVE, 0, NULL },
	{ "elapsed", 2, K_ELAPSED, 0, NULL },
	{ "interval", 2, K_INTERVAL, 0, NULL },
	{ "warmup", 2, K_WARMUP, 0, NULL },
	{ "replay", EXACT, K_BAG_WARN, 0, NULL },
	{ "pause", 2, K_PAUSE, 0, NULL },
	{ "forxfersize", 2, K_LOOP, LOOP_XFERSIZE, NULL },
	{ "xfersize", 2, K_LOOP, LOOP_XFERSIZE, NULL },
	{ "forthreads", 2, K_LOOP, LOOP_THREADS, NULL },
	{ "threads", 2, K_LOOP, LOOP_THREADS, NULL },
	{ "forrdpct", 2, K_LOOP, LOOP_RDPCT, NULL },
	{ "rdpct", 2, K_LOOP, LOOP_RDPCT, NULL },
	{ "forrhpct", 2, K_LOOP, LOOP_RHPCT, NULL },
	{ "rhpct", 2, K_LOOP, LOOP_RHPCT, NULL },
	{ "forwhpct", 2, K_LOOP, LOOP_WHPCT, NULL },
	{ "whpct", 2, K_LOOP, LOOP_WHPCT, NULL },
	{ "forseekpct", 2, K_LOOP, LOOP_SEEKPCT, NULL },
	{ "seekpct", 2, K_LOOP, LOOP_SEEKPCT, NULL },
	{ "forhitarea", 2, K_LOOP, LOOP_HITAREA, NULL },
	{ "hitarea", 2, K_LOOP, LOOP_HITAREA, NULL },
	{ "forcompratio", 2, K_LOOP, LOOP_COMP, NULL },
	{ "forcompression", 2, K_LOOP, LOOP_COMP, "pct" },
	{ "compratio", 2, K_LOOP, LOOP_COMP, NULL },
	{ "compression", 2, K_LOOP, LOOP_COMP, "pct" },
	{ "fordepth", 2, K_LOOP, LOOP_DEPTH, NULL },
	{ "depth", 2, K_LOOP, LOOP_DEPTH, NULL },
	{ "forwidth", 2, K_LOOP, LOOP_WIDTH, NULL },
	{ "width", 2, K_LOOP, LOOP_WIDTH, NULL },
	{ "forfiles", 2, K_LOOP, LOOP_FILES, NULL },
	{ "files", 2, K_LOOP, LOOP_FILES, NULL },
	{ "forsizes", 2, K_LOOP, LOOP_SIZES, NULL },
	{ "sizes", 2, K_LOOP, LOOP_SIZES, NULL },
	{ "fortotalsize", 2, K_LOOP, LOOP_TOTALSIZE, NULL },
	{ "totalsize", 2, K_LOOP, LOOP_TOTALSIZE, NULL },
	{ "forwss", 2, K_LOOP, LOOP_WSS, NULL },
	{ "forworkingsetsize", 2, K_LOOP, LOOP_WSS, NULL },
	{ "wss", 2, K_LOOP, LOOP_WSS, NULL },
	{ "workingsetsize", 2, K_LOOP, LOOP_WSS, NULL },
	{ "foroperations", 2, K_LOOP, LOOP_OPERATION, NULL },
	{ "distribution", 2, K_DISTRIBUTION, 0, NULL },
	{ "startcmd", 2, K_BAG_WARN, 0, NULL },
	{ "start_cmd", EXACT, K_BAG_WARN, 0, NULL },
	{ "endcmd", 2, K_BAG_WARN, 0, NULL },
	{ "end_cmd", EXACT, K_BAG_WARN, 0, NULL },
	{ "fwd", EXACT, K_FWDLIST, 0, NULL },
	{ "fwdrate", 2, K_FWDRATE, 0, NULL },
	{ "operations", 2, K_OPERATIONS, 0, NULL },
	{ "format", 4, K_FORMAT, 0, NULL },
	{ "openflags", 2, K_OPENFLAGS, 0, NULL },
	{ "mount", 2, K_BAG_WARN, 0, NULL },
	{ NULL, 0, K_BAG, 0, NULL },
};

static const struct kwdef fsd_kws[] = {
	{ "fsd", EXACT, K_NAME, 0, NULL },
	{ "anchor", 2, K_ANCHOR, 0, NULL },
	{ "journal", 2, K_BAG_WARN, 0, NULL },
	{ "host", 2, K_REJECT, 0, "No 'host=' parameter is allowed for a "
	    "File System Definition (FSD)" },
	{ "hd", EXACT, K_REJECT, 0, "No 'host=' parameter is allowed for a "
	    "File System Definition (FSD)" },
	{ "width", 2, K_FSD_WIDTH, 0, NULL },
	{ "depth", 2, K_FSD_DEPTH, 0, NULL },
	{ "sizes", 2, K_FSD_SIZES, 0, NULL },
	{ "shared", 2, K_FSD_SHARED, 0, NULL },
	{ "workingsetsize", 2, K_FSD_WSS, 0, NULL },
	{ "wss", 2, K_FSD_WSS, 0, NULL },
	{ "totalsize", 2, K_FSD_TOTAL, 0, NULL },
	{ "total_size", 2, K_FSD_TOTAL, 0, NULL },
	{ "files", 2, K_FSD_FILES, 0, NULL },
	{ "distribution", 2, K_FSD_DIST, 0, NULL },
	{ "cleanup", 2, K_REJECT, 0, "'cleanup=' parameter is obsolete" },
	{ "openflags", 2, K_OPENFLAGS, 0, NULL },
	{ "log", EXACT, K_BAG_WARN, 0, NULL },
	{ "count", 2, K_COUNT, 0, NULL },
	{ "dedupratio", 2, K_REJECT, 0, "FSD specific dedup parameters: some "
	    "time in the future" },
	{ NULL, 0, K_BAG, 0, NULL },
};

static const struct kwdef fwd_kws[] = {
	{ "fwd", EXACT, K_NAME, 0, NULL },
	{ "fsd", EXACT, K_FSDLIST, 0, NULL },
	{ "readpct", 2, K_FWD_RDPCT, 0, NULL },
	{ "rdpct", 2, K_FWD_RDPCT, 0, NULL },
	{ "stopafter", 2, K_FWD_STOPAFTER, 0, NULL },
	{ "operation", 2, K_FWD_OPERATION, 0, NULL },
	{ "fileselect", 2, K_FWD_FILESELECT, 0, NULL },
	{ "fileio", EXACT, K_FWD_FILEIO, 0, NULL },
	{ "xfersizes", 2, K_FWD_XFERSIZE, 0, NULL },
	{ "skew", 2, K_FWD_SKEW, 0, NULL },
	{ "threads", 2, K_FWD_THREADS, 0, NULL },
	{ "target", 2, K_FWD_TARGET, 0, NULL },
	{ "host", 2, K_FWD_HOST, 0, NULL },
	{ "hd", EXACT, K_FWD_HOST, 0, NULL },
	{ "openflags", 2, K_OPENFLAGS, 0, NULL },
	{ NULL, 0, K_BAG, 0, NULL },
};

static const char *const fwd_operations[] = {
	"read", "write", "create", "delete", "mkdir", "rmdir", "open",
	"close", "getattr", "setattr", "access", "copy", "move", NULL,
};

/* Is s an fwd operation name? */
static int
is_operation(const char *s)
{
	int i;

	for (i = 0; fwd_operations[i] != NULL; i++) {
		if (strcasecmp(s, fwd_operations[i]) == 0)
			return (1);
	}
	return (0);
}

static const struct kwdef *const sec_tables[SEC_N] = {
	general_kws, hd_kws, NULL, fsd_kws, sd_kws, wd_kws, fwd_kws, rd_kws,
};

static int	is_operation(const char *);
struct pstate;
static int	yes_no(struct pstate *, int *);

/* The parser's state while it walks the stream. */
struct pstate {
	const struct parm_opts	*opts;
	struct model		*m;
	struct strlist		*notes;
	struct errmsg		*e;
	const struct pitem	*it;		/* item being parsed */
	const struct pitem	*entry_it;	/* the x=name of the entry */
	enum section		 sec;
	int			 is_default;	/* current entry is x=default */
	struct hd		*hd_def, *hd;
	struct sd		*sd_def, *sd;
	struct wd		*wd_def, *wd;
	struct rd		*rd_def, *rd;
	struct fsd		*fsd_def, *fsd;
	struct fwd		*fwd_def, *fwd;
	char			*pending_host;	/* sd host= waiting for lun= */
	int			 rd_wd_given;
	int			 out_of_order;	/* an sd= inside wd/rd */
	int			 threads0_noted;
	int			 hd_seen_default;
	int			 hd_sys_checked;	/* at its system= */
	long			 count_start, count_n;	/* count=(s,n) */
	long			 nsds, nfsds;	/* so far, with copies */
	double			 nruns;		/* the rds' runs so far */
};

/* Fail at the current item. */
static int __attribute__((format(printf, 2, 3)))
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
static void __attribute__((format(printf, 2, 3)))
note(struct pstate *ps, const char *fmt, ...)
{
	char text[900];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	strlist_add(ps->notes, text);
}

/* Record a keyword vdbc accepts for planning but cannot run yet. */
static void
unbuilt(struct pstate *ps, const char *what)
{
	char key[96], *entry;
	int i, seen = 0;

	snprintf(key, sizeof(key), "vdbc: '%s' is accepted", what);
	for (i = 0; i < ps->notes->n; i++) {
		if (strncmp(ps->notes->v[i], key, strlen(key)) == 0)
			seen = 1;
	}
	if (!seen)
		note(ps, "%s for planning, but vdbc cannot run it yet: a run "
		    "stops before it starts", key);
	xasprintf(&entry, "'%s' (%s:%d:%d)", what, ps->it->file,
	    ps->it->lineno, ps->it->col);
	strlist_add(&ps->m->unbuilt, entry);
	free(entry);
}

/* The item's single numeric value. */
static int
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
static int
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
static int
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
static int
one_str(struct pstate *ps, const char **out)
{
	if (ps->it->vals.n != 1)
		return (fail(ps, "'%s=' takes one value: %s", ps->it->kw,
		    ps->it->value));
	*out = ps->it->vals.v[0].str;
	return (0);
}

/* All values as text, into an empty list. */
static void
all_strs(struct pstate *ps, struct strlist *l)
{
	int i;

	strlist_clear(l);
	for (i = 0; i < ps->it->vals.n; i++)
		strlist_add(l, ps->it->vals.v[i].str);
}

/* Linux open flags (PARMFILE.md 6.1). */
static int
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

/* dedupratio= and dedupunit= of the general parameters. */
static int
check_dedup(struct pstate *ps, const char *name)
{
	const struct pvals *v = &ps->it->vals;

	if (strcmp(name, "dedupratio") == 0 && (v->n != 1 ||
	    !v->v[0].is_num || v->v[0].num < 1))
		return (fail(ps, "dedupratio= must be one number of at least "
		    "1: %s", ps->it->value));
	if (strcmp(name, "dedupunit") == 0 && (v->n != 1 ||
	    !v->v[0].is_num || v->v[0].num < 512 ||
	    fmod(v->v[0].num, 512) != 0))
		return (fail(ps, "dedupunit= must be one size, a multiple of "
		    "512 bytes: %s", ps->it->value));
	return (0);
}

/* range=(low,high). */
static int
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
static int
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
static int
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
		if (bag_get(&r->bag, "operations") != NULL)
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

/* A cloned name: printf mask with %, '*' replaced, or number appended. */
static char *
count_name(const char *pat, long n)
{
	const char *pct = strchr(pat, '%'), *star = strchr(pat, '*');
	char *out;

	if (pct != NULL) {
		int zero = pct[1] == '0', width = 0;
		size_t j = 1;

		while (pct[j] >= '0' && pct[j] <= '9' && j < 6)
			width = width * 10 + (pct[j++] - '0');
		if (pct[j] == 'd') {
			if (zero)
				xasprintf(&out, "%.*s%0*ld%s", (int)(pct - pat),
				    pat, width, n, pct + j + 1);
			else
				xasprintf(&out, "%.*s%*ld%s", (int)(pct - pat),
				    pat, width, n, pct + j + 1);
			return (out);
		}
	}
	if (star != NULL)
		xasprintf(&out, "%.*s%ld%s", (int)(star - pat), pat, n,
		    star + 1);
	else
		xasprintf(&out, "%s%ld", pat, n);
	return (out);
}

/*
 * count=(start,n): replace the entry by n numbered copies (6, 9). Each
 * copy's name is looked up in the model's name index, so 100,000 copies
 * take n, not n squared.
 */
static int
clone_entry(struct pstate *ps)
{
	long i, start = ps->count_start, n = ps->count_n;
	int k;

	ps->count_n = 0;
	if (ps->sec == SEC_SD && ps->sd != NULL) {
		struct sd *orig = ps->sd;

		for (i = 0; i < n; i++) {
			char *name = count_name(orig->name, start + i);
			struct sd *c;

			if (model_find_sd(ps->m, name) != NULL) {
				fail(ps, "An SD can only be defined once: sd=%s",
				    name);
				free(name);
				return (-1);
			}
			c = sd_copy(orig, name);
			free(name);
			for (k = 0; k < c->nluns; k++) {
				char *l = count_name(orig->luns[k].lun,
				    start + i);

				free(c->luns[k].lun);
				c->luns[k].lun = l;
			}
			model_insert_sd(ps->m, c, orig);
		}
		model_remove_sd(ps->m, orig);
		sd_free(orig);
		ps->sd = NULL;
	} else if (ps->sec == SEC_FSD && ps->fsd != NULL) {
		struct fsd *orig = ps->fsd;

		for (i = 0; i < n; i++) {
			struct fsd *c;
			char *name;

			xasprintf(&name, "%s%ld", orig->name, start + i);
			c = fsd_copy(orig, name);
			free(name);
			if (orig->anchor != NULL) {
				free(c->anchor);
				xasprintf(&c->anchor, "%s%ld", orig->anchor,
				    start + i);
			}
			TAILQ_INSERT_BEFORE(orig, c, entry);
		}
		TAILQ_REMOVE(&ps->m->fsds, orig, entry);
		fsd_free(orig);
		ps->fsd = NULL;
	}
	return (0);
}

/*
 * Count the sd or fsd being closed, with its count= copies, against the
 * total; past it, fail at the entry's own sd= or fsd= item.
 */
static int
count_total(struct pstate *ps)
{
	long n = ps->count_n > 0 ? ps->count_n : 1, *total;
	const char *name;

	if (ps->is_default)
		return (0);
	if (ps->sec == SEC_SD && ps->sd != NULL) {
		total = &ps->nsds;
		name = ps->sd->name;
	} else if (ps->sec == SEC_FSD && ps->fsd != NULL) {
		total = &ps->nfsds;
		name = ps->fsd->name;
	} else
		return (0);
	if (n > PARM_MAX_SDS - *total) {
		if (ps->entry_it != NULL)
			ps->it = ps->entry_it;
		return (fail(ps, "%s=%s%s brings the %ss to %ld; at most %d "
		    "%ss are allowed in all", sec_names[ps->sec], name,
		    ps->count_n > 0 ? " with its count=" : "", sec_names[ps->sec],
		    *total + n, PARM_MAX_SDS, sec_names[ps->sec]));
	}
	*total += n;
	return (0);
}

/*
 * The runs of the rd being closed, against the most a plan may have (the
 * planner checks again, with no place to name): at the rd's own item.
 */
static int
count_runs(struct pstate *ps)
{
	double n;

	if (ps->sec != SEC_RD || ps->rd == NULL || ps->is_default)
		return (0);
	n = plan_rd_runs(ps->m, ps->rd);
	if (n > PLAN_MAX_RUNS - ps->nruns) {
		if (ps->entry_it != NULL)
			ps->it = ps->entry_it;
		if (ps->nruns > 0)
			return (fail(ps, "rd=%s expands to %.0f runs, %.0f with "
			    "the rds before it; vdbc plans at most %d",
			    ps->rd->name, n, n + ps->nruns, PLAN_MAX_RUNS));
		return (fail(ps, "rd=%s expands to %.0f runs; vdbc plans at "
		    "most %d", ps->rd->name, n, PLAN_MAX_RUNS));
	}
	ps->nruns += n;
	return (0);
}

/* Check and close the entry being built. */
static int
finish_entry(struct pstate *ps)
{
	if (ps->sec == SEC_HD && ps->hd != NULL && !ps->is_default &&
	    !ps->hd_sys_checked && ps->opts->host_exists != NULL) {
		const char *sys = ps->hd->system != NULL ? ps->hd->system :
		    ps->hd->name;

		if (strncmp(sys, "localhost", 9) != 0 &&
		    !ps->opts->host_exists(sys))
			return (fail(ps, "Host '%s' does not exist", sys));
	}
	if (ps->sec == SEC_SD && ps->sd != NULL && !ps->is_default) {
		int i;

		for (i = 0; i < ps->sd->nluns; i++) {
			const char *h = ps->sd->luns[i].host;
			const struct hd *hd;
			int found = 0;

			if (strcmp(h, "*") == 0)
				continue;
			TAILQ_FOREACH(hd, &ps->m->hds, entry)
				found |= name_matches(h, hd->name);
			if (TAILQ_EMPTY(&ps->m->hds))
				found = name_matches(h, "localhost");
			if (!found)
				return (fail(ps, "Could not find host=%s", h));
		}
		if (ps->sd->nluns == 0)
			return (fail(ps, "No lun name specified for sd=%s",
			    ps->sd->name));
		if (ps->pending_host != NULL)
			return (fail(ps, "'host=' and 'lun=' parameters must "
			    "be defined in pairs for sd=%s", ps->sd->name));
	}
	if (ps->sec == SEC_FSD && ps->fsd != NULL && !ps->is_default &&
	    ps->fsd->anchor == NULL)
		return (fail(ps, "Directory name required for fsd=%s",
		    ps->fsd->name));
	if (ps->sec == SEC_FSD && ps->fsd != NULL && !ps->is_default) {
		struct fstree t;

		if (fstree_init(&t, ps->fsd) == -2) {
			if (ps->entry_it != NULL)	/* the fsd's own line */
				ps->it = ps->entry_it;
			return (fail(ps, "fsd=%s: depth=%d,width=%d,files=%llu "
			    "makes more directories, files or bytes than 64 "
			    "bits can count; that tree cannot exist",
			    ps->fsd->name, ps->fsd->depth, ps->fsd->width,
			    (unsigned long long)ps->fsd->files));
		}
	}
	if (ps->sec == SEC_FWD && ps->fwd != NULL && !ps->is_default &&
	    ps->fwd->fsds.n == 0 && strcmp(ps->fwd->name, "format") != 0)
		return (fail(ps, "fwd parameter requires at least one 'fsd='"));
	if (ps->sec == SEC_FWD && ps->fwd != NULL) {
		const struct fwd *f = ps->fwd;

		if (f->readpct_set && strcmp(f->fileio, "sequential") == 0)
			return (fail(ps, "'fileio=sequential' and 'rdpct=' are "
			    "mutually exclusive."));
		if (f->target != NULL && strcmp(f->operation, "move") != 0 &&
		    strcmp(f->operation, "copy") != 0)
			return (fail(ps, "'target=' may only be specified "
			    "together with 'operation=move' or "
			    "'operation=copy'"));
	}
	if (count_total(ps) != 0 || count_runs(ps) != 0)
		return (-1);
	if (ps->count_n > 0 && clone_entry(ps) != 0)
		return (-1);
	free(ps->pending_host);
	ps->pending_host = NULL;
	ps->hd = NULL;
	ps->sd = NULL;
	ps->wd = NULL;
	ps->rd = NULL;
	ps->fsd = NULL;
	ps->fwd = NULL;
	ps->rd_wd_given = 0;
	ps->out_of_order = 0;
	return (0);
}

/* Is a name one of the defaults ("default", lower case only)? */
static int
is_default(const char *name)
{
	return (strcmp(name, "default") == 0);
}

/* Open a new entry of section s with the item's value as its name. */
static int
open_entry(struct pstate *ps, enum section s)
{
	const struct pitem *it = ps->it;
	const char *name = NULL;

	if (finish_entry(ps) != 0)
		return (-1);
	ps->entry_it = it;
	ps->sec = s;
	if (s == SEC_RG)
		return (fail(ps, "Parameter 'rg=' (replay groups) is not "
		    "supported by this implementation"));
	if (s == SEC_HD && it->vals.n == 2) {
		/* Old style hd=(address,label). */
		note(ps, "'hd=(address,label)' is deprecated; use "
		    "'hd=label,system=address'");
		name = it->vals.v[1].str;
	} else if (one_str(ps, &name) != 0)
		return (-1);
	/* hd, sd, wd, fsd and fwd names become report file names (sd1.html,
	 * hd1-0.stdout.html): a '/' would put a page outside -o. */
	if (s != SEC_RD && strchr(name, '/') != NULL)
		return (fail(ps, "%s=%s: a name may not contain '/' (vdbc "
		    "names report files after it)", sec_names[s], name));
	ps->is_default = is_default(name);
	switch (s) {
	case SEC_HD:
		if (ps->is_default) {
			ps->hd = ps->hd_def;
			ps->hd_seen_default = 1;
			break;
		}
		if (model_find_hd(ps->m, name) != NULL)
			return (fail(ps, "Using duplicate host names: %s",
			    name));
		ps->hd = hd_copy(ps->hd_def, name);
		ps->hd_sys_checked = 0;
		if (it->vals.n == 2)
			ps->hd->system = xstrdup(it->vals.v[0].str);
		TAILQ_INSERT_TAIL(&ps->m->hds, ps->hd, entry);
		break;
	case SEC_SD:
		if (ps->is_default) {
			ps->sd = ps->sd_def;
			break;
		}
		if (model_find_sd(ps->m, name) != NULL)
			return (fail(ps, "An SD can only be defined once: "
			    "sd=%s", name));
		if (strcmp(name, "concat") == 0)
			return (fail(ps, "Creating an SD named 'concat' is not "
			    "allowed"));
		ps->sd = sd_copy(ps->sd_def, name);
		model_insert_sd(ps->m, ps->sd, NULL);
		break;
	case SEC_WD:
		if (ps->is_default) {
			ps->wd = ps->wd_def;
			break;
		}
		if (model_find_wd(ps->m, name) != NULL)
			return (fail(ps, "duplicate WD names not allowed: %s",
			    name));
		ps->wd = wd_copy(ps->wd_def, name);
		TAILQ_INSERT_TAIL(&ps->m->wds, ps->wd, entry);
		break;
	case SEC_RD:
		if (ps->is_default) {
			ps->rd = ps->rd_def;
			break;
		}
		if (model_find_rd(ps->m, name) != NULL)
			return (fail(ps, "Duplicate RD names not allowed: %s",
			    name));
		ps->rd = rd_copy(ps->rd_def, name);
		TAILQ_INSERT_TAIL(&ps->m->rds, ps->rd, entry);
		break;
	case SEC_FSD: {
		struct fsd *f;

		if (ps->is_default) {
			ps->fsd = ps->fsd_def;
			break;
		}
		TAILQ_FOREACH(f, &ps->m->fsds, entry) {
			if (strcasecmp(f->name, name) == 0)
				return (fail(ps, "Duplicate fsd name: %s",
				    name));
		}
		ps->fsd = fsd_copy(ps->fsd_def, name);
		TAILQ_INSERT_TAIL(&ps->m->fsds, ps->fsd, entry);
		break;
	}
	case SEC_FWD: {
		struct fwd *f;

		if (ps->is_default) {
			ps->fwd = ps->fwd_def;
			break;
		}
		TAILQ_FOREACH(f, &ps->m->fwds, entry) {
			if (strcasecmp(f->name, name) == 0)
				return (fail(ps, "Duplicate FWD name: %s",
				    name));
		}
		if (is_operation(name))
			return (fail(ps, "fwd name may not match a valid "
			    "operation: fwd=%s", name));
		ps->fwd = fwd_copy(ps->fwd_def, name);
		TAILQ_INSERT_TAIL(&ps->m->fwds, ps->fwd, entry);
		break;
	}
	default:
		break;
	}
	return (0);
}

/* The bag of the current entry. */
static struct bag *
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

/* Look a keyword up in a table: the first prefix match wins. */
static const struct kwdef *
match_kw(const struct kwdef *tab, const char *kw)
{
	size_t len = strlen(kw);

	for (; tab->name != NULL; tab++) {
		if (tab->minlen == EXACT) {
			if (strcmp(kw, tab->name) == 0)
				return (tab);
		} else if ((int)len >= tab->minlen &&
		    strncmp(tab->name, kw, len) == 0)
			return (tab);
	}
	return (NULL);
}

/* The general parameters. */
static int
do_general(struct pstate *ps, const struct kwdef *d)
{
	struct general *g = &ps->m->general;
	const char *s = NULL;
	double v = 0;
	uint64_t u = 0;

	switch (d->id) {
	case K_COMPRATIO:
		if (one_num(ps, &v) != 0)
			return (-1);
		if (v < 1)
			return (fail(ps, "'compratio=' must be 1 or more: %s",
			    ps->it->value));
		g->compratio = v;
		return (0);
	case K_FORMATXFERSIZE:
		if (one_uint(ps, &u) != 0)
			return (-1);
		if (u == 0 || u % 512 != 0)
			return (fail(ps, "data transfer size not multiple of "
			    "512 bytes: %llu", (unsigned long long)u));
		g->formatxfersize_bytes = u;
		return (0);
	case K_FORMATSDS:
		if (one_str(ps, &s) != 0)
			return (-1);
		if (strcasecmp(s, "yes") == 0 || strcasecmp(s, "y") == 0)
			g->formatsds = 1;
		else if (strcasecmp(s, "no") == 0 || strcasecmp(s, "n") == 0)
			g->formatsds = 0;
		else
			return (fail(ps, "Invalid contents for formatsds=%s",
			    s));
		return (0);
	case K_PORT:
		if (one_uint(ps, &u) != 0)
			return (-1);
		if (u == 0 || u > 65535)
			return (fail(ps, "Invalid 'port=' value: %s",
			    ps->it->value));
		g->port = (int)u;
		return (0);
	case K_G_COMPSEED:
		if (ps->it->vals.n != 1 || (!ps->it->vals.v[0].is_num &&
		    strcasecmp(ps->it->vals.v[0].str, "tod") != 0))
			return (fail(ps, "Invalid 'compressionseed=' parameter: "
			    "%s", ps->it->value));
		unbuilt(ps, "compressionseed=");
		bag_set(&g->bag, "compressionseed", &ps->it->vals);
		return (0);
	case K_G_CMD:
		/* Commands, then an optional target word (cons, summary,
		 * log) and "master"/"slave"; kept as written. */
		if (ps->it->vals.n < 1 || ps->it->vals.v[0].str[0] == '\0')
			return (fail(ps, "'%s=' needs a command", d->msg));
		bag_set(&g->bag, d->msg, &ps->it->vals);
		return (0);
	case K_G_DEBUG:
		if (ps->it->vals.n != 1 || !ps->it->vals.v[0].is_num)
			return (fail(ps, "'debug=' requires a numeric value"));
		bag_set(&g->bag, "debug", &ps->it->vals);
		return (0);
	case K_G_UNIX2WIN:
		if (ps->it->vals.n != 2)
			return (fail(ps, "'unix2windows=' requires exactly two "
			    "values: (unixprefix,windowsprefix)"));
		bag_set(&g->bag, "unix2windows", &ps->it->vals);
		return (0);
	case K_G_REPORT: {
		int i;

		for (i = 0; i < ps->it->vals.n; i++) {
			const char *r = ps->it->vals.v[i].str;

			if (strcasecmp(r, "slave_detail") != 0 &&
			    strcasecmp(r, "host_detail") != 0 &&
			    strcasecmp(r, "no_sd_detail") != 0)
				return (fail(ps, "Invalid 'reports=' parameter: "
				    "%s", r));
		}
		bag_set(&g->bag, "report", &ps->it->vals);
		return (0);
	}
	case K_G_MSGSCAN: {
		const char *v0 = ps->it->vals.v[0].str;

		if (ps->it->vals.n != 1 || (!ps->it->vals.v[0].is_num &&
		    strcasecmp(v0, "yes") != 0 && strcasecmp(v0, "no") != 0 &&
		    strcasecmp(v0, "nodisplay") != 0))
			return (fail(ps, "Invalid 'messagescan=' value: %s "
			    "(expected yes, no, nodisplay or a number)",
			    ps->it->value));
		bag_set(&g->bag, "messagescan", &ps->it->vals);
		return (0);
	}
	case K_G_VALIDATE: {
		static const char *const ok[] = { "yes", "no",
		    "read_after_write", "no_preread", "time",
		    "ignore_zero_reads", NULL };
		int i, k, on = 0;

		for (i = 0; i < ps->it->vals.n; i++) {
			const char *w = ps->it->vals.v[i].str;
			size_t len = strlen(w);

			if (strcasecmp(w, "continue_old_map") == 0)
				return (fail(ps, "'validate=continue_old_map' "
				    "is no longer supported"));
			for (k = 0; ok[k] != NULL; k++) {
				if (len >= 1 && strncasecmp(ok[k], w, len) == 0
				    && (k != 4 || strcasecmp(w, "time") == 0))
					break;
			}
			if (ok[k] == NULL)
				return (fail(ps, "Invalid 'validate=' parameter: "
				    "%s", w));
			on |= k != 1;
		}
		bag_set(&g->bag, "validate", &ps->it->vals);
		if (on)
			unbuilt(ps, "validate=");
		return (0);
	}
	case K_HISTOGRAM: {
		const char **w = xcalloc((size_t)ps->it->vals.n + 1,
		    sizeof(char *));
		struct errmsg he;
		int i, rc;

		for (i = 0; i < ps->it->vals.n; i++)
			w[i] = ps->it->vals.v[i].str;
		rc = vdbhist_edges_parse(&g->histogram, ps->it->vals.n, w, &he);
		free((void *)w);
		if (rc != 0)
			return (fail(ps, "%s", he.text));
		g->histogram_set = 1;
		return (0);
	}
	default:
		return (fail(ps, "internal: unhandled general keyword %s",
		    d->name));
	}
}

/*
 * system=HOST[:PORT] or [V6]:PORT: 0 when the port (if any) is 1 to 65535
 * digits. A bare IPv6 address has more than one colon and no port.
 */
static int
system_port_ok(const char *s)
{
	const char *c = s[0] == '[' ? strchr(s, ']') : strrchr(s, ':');
	long v;

	if (s[0] == '[') {
		if (c == NULL || c == s + 1 || (c[1] != '\0' && c[1] != ':'))
			return (-1);
		if (c[1] == '\0')
			return (0);
		c++;
	} else if (c == NULL || strchr(s, ':') != c)
		return (0);
	if (c == s || c[1] == '\0' || strlen(c + 1) > 5 ||
	    strspn(c + 1, "0123456789") != strlen(c + 1))
		return (-1);
	v = strtol(c + 1, NULL, 10);
	return (v >= 1 && v <= 65535 ? 0 : -1);
}

/* Host definitions. */
static int
do_hd(struct pstate *ps, const struct kwdef *d)
{
	struct hd *h = ps->hd;
	const char *s = NULL;
	uint64_t u = 0;
	char **dst = NULL;

	switch (d->id) {
	case K_SYSTEM:
		dst = &h->system;
		break;
	case K_USER:
		dst = &h->user;
		break;
	case K_VDBENCH:
		dst = &h->vdbench;
		break;
	case K_H_MOUNT: {
		int i;

		for (i = 0; i < ps->it->vals.n; i++) {
			if (strchr(ps->it->vals.v[i].str, ' ') == NULL)
				return (fail(ps, "'mount=' needs a mount command "
				    "with at least two blank-separated fields: "
				    "%s", ps->it->vals.v[i].str));
		}
		bag_set(&h->bag, "mount", &ps->it->vals);
		return (0);
	}
	case K_SHELL:
		if (one_str(ps, &s) != 0)
			return (-1);
		if (strcasecmp(s, "rsh") != 0 && strcasecmp(s, "ssh") != 0 &&
		    strcasecmp(s, "vdbench") != 0)
			return (fail(ps, "Invalid 'shell=' value: %s (expected "
			    "rsh, ssh or vdbench)", s));
		free(h->shell);
		h->shell = xstrdup(s);
		return (0);
	case K_JVMS:
	case K_CLIENTS:
		if (one_uint(ps, &u) != 0)
			return (-1);
		if (d->id == K_JVMS) {
			if (u < 1 || u > 256)
				return (fail(ps, "Invalid 'jvms=' value: %s "
				    "(expected 1 to 256)", ps->it->value));
			h->jvms = (int)u;
		} else
			h->clients = (int)u;
		return (0);
	default:
		return (fail(ps, "internal: unhandled hd keyword %s",
		    d->name));
	}
	if (one_str(ps, &s) != 0)
		return (-1);
	if (d->id == K_VDBENCH && strchr(s, '/') == NULL &&
	    strchr(s, '\\') == NULL)
		return (fail(ps, "'vdbench=' directory name must end with a "
		    "file separator (\\ or /): %s", s));
	if (d->id == K_SYSTEM && system_port_ok(s) != 0)
		return (fail(ps, "Invalid 'system=' value: %s (expected HOST or "
		    "HOST:PORT with a port of 1 to 65535)", s));
	/* Checked here, so the error points at this line. */
	if (d->id == K_SYSTEM && !ps->is_default && ps->opts->host_exists !=
	    NULL && strncmp(s, "localhost", 9) != 0 &&
	    !ps->opts->host_exists(s))
		return (fail(ps, "Host '%s' does not exist", s));
	if (d->id == K_SYSTEM)
		ps->hd_sys_checked = !ps->is_default;
	free(*dst);
	*dst = xstrdup(s);
	return (0);
}

/* Storage definitions. */
static int
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
		if (engines_find(s) == NULL) {
			char names[128];

			return (fail(ps, "Invalid 'engine=' value: %s (expected "
			    "%s)", s, engines_list(names, sizeof(names))));
		}
		bag_set(&sd->bag, "engine", &ps->it->vals);
		return (0);
	case K_OVERWRITE: {
		int yes = 0;

		/* overwrite_data= and allow_mounted_write=: yes or no. */
		if (yes_no(ps, &yes) != 0)
			return (-1);
		bag_set(&sd->bag, d->name, &ps->it->vals);
		return (0);
	}
	default:
		return (fail(ps, "internal: unhandled sd keyword %s",
		    d->name));
	}
}

/* Workload definitions. */
static int
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
		return (0);
	case K_W_HOTBAND: {
		double hb[2] = { 0, 0 };
		int set = 0;

		if (get_range(ps, hb, &set) != 0)
			return (-1);
		if (hb[1] > 100 && hb[1] < 200 && hb[1] - hb[0] > 100)
			return (fail(ps, "hotband=(low,high): a band that wraps "
			    "past the end may cover at most 100%%"));
		bag_set(&w->bag, "hotband", &ps->it->vals);
		return (0);
	}
	case K_WD_THREADS:
		return (fail(ps, "Workload Definition (WD) level thread= "
		    "parameter may only be used together with "
		    "'concatenatesds=yes'"));
	default:
		return (fail(ps, "internal: unhandled wd keyword %s",
		    d->name));
	}
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

/* Run definitions. */
static int
do_rd(struct pstate *ps, const struct kwdef *d)
{
	static const char *const formats[] = {
		"no", "yes", "only", "restart", "clean", "once", "limited",
		"complete", NULL,
	};
	struct rd *r = ps->rd;
	const char *s = NULL;
	int i, k;

	switch (d->id) {
	case K_WDLIST:
		if (ps->rd_wd_given)
			return (fail(ps, "rd=%s: the 'wd=' parameter may be "
			    "specified only once per RD", r->name));
		ps->rd_wd_given = 1;
		all_strs(ps, &r->wds);
		return (0);
	case K_SDLIST:
		all_strs(ps, &r->sds);
		return (0);
	case K_FSDLIST:
		all_strs(ps, &r->fsds);
		return (0);
	case K_FWDLIST:
		all_strs(ps, &r->fwds);
		return (0);
	case K_IORATE:
		return (rd_rates(ps, &r->iorate, &r->iorate_n));
	case K_FWDRATE:
		return (rd_rates(ps, &r->fwdrate, &r->fwdrate_n));
	case K_MAXDATA:
		if (ps->it->vals.n != 1 || !ps->it->vals.v[0].is_num ||
		    ps->it->vals.v[0].num <= 0)
			return (fail(ps, "Invalid value for '%s=': %s", d->name,
			    ps->it->value));
		bag_set(&r->bag, d->name, &ps->it->vals);
		return (0);
	case K_CURVE:
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
	case K_ELAPSED:
		return (rd_seconds(ps, &r->elapsed_s));
	case K_INTERVAL:
		return (rd_seconds(ps, &r->interval_s));
	case K_WARMUP:
		r->warmup_set = 1;
		return (rd_seconds(ps, &r->warmup_s));
	case K_PAUSE:
		return (rd_seconds(ps, &r->pause_s));
	case K_LOOP:
		return (rd_loop(ps, r, d));
	case K_DISTRIBUTION:
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
			return (fail(ps, "Parameter 'distribution=%s' is not "
			    "supported by this implementation", s));
		else
			return (fail(ps, "Unknown keyword value: %s", s));
		return (0);
	case K_FORMAT:
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
	case K_OPENFLAGS:
		if (check_openflags(ps) != 0)
			return (-1);
		all_strs(ps, &r->openflags);
		return (0);
	case K_STOPCURVE:
		if (ps->it->vals.n != 1 || !ps->it->vals.v[0].is_num ||
		    ps->it->vals.v[0].num <= 0)
			return (fail(ps, "Invalid 'stopcurve=' value: %s "
			    "(milliseconds)", ps->it->value));
		bag_set(&r->bag, "stopcurve", &ps->it->vals);
		return (0);
	case K_OPERATIONS:
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
		return (0);
	default:
		return (fail(ps, "internal: unhandled rd keyword %s",
		    d->name));
	}
}

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

/* A yes/no value. */
static int
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

/* File-system workload definitions (PARMFILE.md 10.1). */
static int
do_fwd(struct pstate *ps, const struct kwdef *d)
{
	const struct pitem *it = ps->it;
	struct fwd *f = ps->fwd;
	const char *s = NULL;
	double v = 0;
	uint64_t u = 0;
	int i;

	switch (d->id) {
	case K_FWD_RDPCT:
		if (one_pct(ps, &v) != 0)
			return (-1);
		f->readpct_set = 1;
		f->readpct = floor(v);
		return (0);
	case K_FWD_STOPAFTER:
		if (one_num(ps, &v) != 0)
			return (-1);
		f->stopafter = v;	/* negative: N % of the file size */
		return (0);
	case K_FWD_OPERATION:
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
	case K_FWD_FILESELECT:
		s = it->vals.v[0].str;
		if (it->vals.n == 1 && (strcmp(s, "random") == 0 ||
		    strcmp(s, "sequential") == 0 || strcmp(s, "seq") == 0 ||
		    strcmp(s, "once") == 0 || strcmp(s, "poisson") == 0 ||
		    strcmp(s, "skewed") == 0)) {
			free(f->fileselect);
			f->fileselect = xstrdup(strcmp(s, "seq") == 0 ?
			    "sequential" : strcmp(s, "skewed") == 0 ?
			    "poisson" : s);
			return (0);
		}
		if (strcmp(s, "poisson") == 0 || strcmp(s, "skewed") == 0 ||
		    strncmp(s, "midpoint", 8) == 0) {
			free(f->fileselect);
			f->fileselect = xstrdup("poisson");
			bag_set(&f->bag, "fileselect", &it->vals);
			return (0);
		}
		return (fail(ps, "Invalid 'fileselect=' value: %s (expected "
		    "random, sequential, once or poisson)", it->value));
	case K_FWD_FILEIO: {
		const char *a = it->vals.v[0].str;
		const char *b = it->vals.n > 1 ? it->vals.v[1].str : NULL;

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
	case K_FWD_XFERSIZE:
		return (wd_xfersize(ps, &f->xfer));
	case K_FWD_SKEW:
		if (one_pct(ps, &v) != 0)
			return (-1);
		f->skew_set = 1;
		f->skew_pct = v;
		return (0);
	case K_FWD_THREADS:
		if (one_uint(ps, &u) != 0)
			return (-1);
		if (u < 1 || u > 100000)
			return (fail(ps, "Invalid 'threads=' value: %s",
			    it->value));
		f->threads = (int)u;
		return (0);
	case K_FWD_TARGET:
		if (one_str(ps, &s) != 0)
			return (-1);
		free(f->target);
		f->target = xstrdup(s);
		return (0);
	case K_FWD_HOST:
		for (i = 0; i < it->vals.n; i++) {
			if (strchr(it->vals.v[i].str, '*') != NULL)
				return (fail(ps, "'fwd=%s,host=%s': an fwd takes "
				    "host names without wildcards", f->name,
				    it->vals.v[i].str));
		}
		all_strs(ps, &f->hosts);
		return (0);
	case K_OPENFLAGS:
		if (check_openflags(ps) != 0)
			return (-1);
		all_strs(ps, &f->openflags);
		return (0);
	case K_FSDLIST:
		all_strs(ps, &f->fsds);
		return (0);
	default:
		return (fail(ps, "internal: unhandled fwd keyword %s",
		    d->name));
	}
}

/* File system definitions and workloads. */
static int
do_fs(struct pstate *ps, const struct kwdef *d)
{
	struct fsd *f = ps->fsd;
	const char *s = NULL;
	uint64_t u = 0;

	switch (d->id) {
	case K_ANCHOR:
		if (one_str(ps, &s) != 0)
			return (-1);
		free(f->anchor);
		f->anchor = xstrdup(s);
		return (0);
	case K_FSD_WIDTH:
	case K_FSD_DEPTH:
		if (one_uint(ps, &u) != 0)
			return (-1);
		if (u < 1 || u > 100000)
			return (fail(ps, "Invalid value for '%s=': %s",
			    ps->it->kw, ps->it->value));
		*(d->id == K_FSD_WIDTH ? &f->width : &f->depth) = (int)u;
		return (0);
	case K_FSD_FILES:
		if (one_uint(ps, &u) != 0)
			return (-1);
		if (u < 1 || u > 10000000)
			return (fail(ps, "Invalid value for 'files=': %s (1 to "
			    "10,000,000 per directory)", ps->it->value));
		f->files = u;
		return (0);
	case K_FSD_SIZES:
		return (fsd_sizes(ps, f));
	case K_FSD_DIST:
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
	case K_FSD_TOTAL:
	case K_FSD_WSS:
		if (ps->it->vals.n >= 1 && ps->it->vals.v[0].is_num &&
		    ps->it->vals.v[0].num < 0)
			return (fail(ps, "A percentage value as a '%s=' "
			    "parameter is NOT allowed for an FSD; only for an "
			    "RD.", d->id == K_FSD_TOTAL ? "totalsize" :
			    "workingsetsize"));
		return (size_or_pair(ps, d->id == K_FSD_TOTAL ?
		    &f->totalsize_bytes : &f->wss_bytes, NULL));
	case K_FSD_SHARED:
		return (yes_no(ps, &f->shared));
	case K_FSDLIST:
		all_strs(ps, &ps->fwd->fsds);
		return (0);
	case K_OPENFLAGS:
		if (check_openflags(ps) != 0)
			return (-1);
		bag_set(cur_bag(ps), "openflags", &ps->it->vals);
		return (0);
	default:
		return (fail(ps, "internal: unhandled %s keyword %s",
		    sec_names[ps->sec], d->name));
	}
}

/* Section of an entry-opening keyword, or -1. */
static int
section_of(const char *kw)
{
	int s;

	if (strcmp(kw, "host") == 0)
		return (SEC_HD);
	for (s = SEC_HD; s < SEC_N; s++) {
		if (strcmp(kw, sec_names[s]) == 0)
			return (s);
	}
	return (-1);
}

/* Edit distance between two short words (Levenshtein). */
static int
distance(const char *a, const char *b)
{
	int la = (int)strlen(a), lb = (int)strlen(b), i, j;
	int d[40][40];

	if (la >= 40 || lb >= 40)
		return (99);
	for (i = 0; i <= la; i++)
		d[i][0] = i;
	for (j = 0; j <= lb; j++)
		d[0][j] = j;
	for (i = 1; i <= la; i++) {
		for (j = 1; j <= lb; j++) {
			int c = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);

			if (d[i - 1][j] + 1 < c)
				c = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < c)
				c = d[i][j - 1] + 1;
			d[i][j] = c;
		}
	}
	return (d[la][lb]);
}

/* " (did you mean 'xfersize='?)" for a near miss, else "". */
static const char *
did_you_mean(struct pstate *ps, const char *kw)
{
	static char buf[96];
	const struct kwdef *d, *best = NULL;
	int bd = 99;

	if (sec_tables[ps->sec] == NULL)
		return ("");
	for (d = sec_tables[ps->sec]; d->name != NULL; d++) {
		int x = distance(kw, d->name);

		if (x < bd) {
			bd = x;
			best = d;
		}
	}
	if (best == NULL || bd > 2 || bd * 3 > (int)strlen(kw))
		return ("");
	snprintf(buf, sizeof(buf), " (did you mean '%s='?)", best->name);
	return (buf);
}

/* A hint for a keyword that belongs to an earlier section. */
static const char *
order_hint(struct pstate *ps, const char *kw)
{
	if (ps->sec > SEC_GENERAL && match_kw(general_kws, kw) != NULL)
		return (" (general parameters must come before the first "
		    "hd=, fsd=, sd=, wd=, fwd= or rd=)");
	if (ps->out_of_order && match_kw(sd_kws, kw) != NULL)
		return (" (sd= lines must precede wd= lines)");
	return ("");
}

/*
 * Where s stops being UTF-8 (overlong forms, surrogates and code points
 * past U+10FFFF included), or -1 when all of it is.
 */
static long
utf8_bad(const char *str)
{
	const unsigned char *s = (const unsigned char *)str, *p = s;

	while (*p != '\0') {
		unsigned int c = *p, min, n, i;

		if (c < 0x80) {
			p++;
			continue;
		}
		if (c >= 0xc2 && c <= 0xdf) {
			n = 1;
			min = 0x80;
		} else if (c >= 0xe0 && c <= 0xef) {
			n = 2;
			min = 0x800;
		} else if (c >= 0xf0 && c <= 0xf4) {
			n = 3;
			min = 0x10000;
		} else
			return ((long)(p - s));
		c &= 0x3f >> n;
		for (i = 1; i <= n; i++) {
			if ((p[i] & 0xc0) != 0x80)
				return ((long)(p - s));
			c = (c << 6) | (p[i] & 0x3f);
		}
		if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
			return ((long)(p - s));
		p += n + 1;
	}
	return (-1);
}

/* Parse one item in the current section. */
static int
parse_item(struct pstate *ps)
{
	const struct pitem *it = ps->it;
	const struct kwdef *d;
	int s = section_of(it->kw);
	long bad;

	/* names, luns and anchors go into JSON messages and reports */
	if ((bad = utf8_bad(it->text)) >= 0)
		return (fail(ps, "'%s=' is not valid UTF-8 text (byte %ld of "
		    "the item, 0x%02x); names, luns and other values must be",
		    it->kw, bad + 1, (unsigned char)it->text[bad]));

	if (s >= 0 && (s > (int)ps->sec || (s == (int)ps->sec &&
	    ps->sec != SEC_GENERAL)))
		return (open_entry(ps, (enum section)s));
	d = match_kw(sec_tables[ps->sec], it->kw);
	if (d == NULL) {
		if (ps->sec == SEC_RD && strncmp(it->kw, "maxdata", 7) == 0)
			return (fail(ps, "Unknown parameter: %s", it->kw));
		if (ps->sec == SEC_HD)
			return (fail(ps, "HostParms.ReadParms(): invalid "
			    "keyword: %s", it->kw));
		return (fail(ps, "Unknown keyword: %s%s%s", it->kw,
		    order_hint(ps, it->kw), did_you_mean(ps, it->kw)));
	}
	switch (d->id) {
	case K_REJECT:
		return (fail(ps, "%s", d->msg));
	case K_BAG_WARN: {
		char what[64];

		snprintf(what, sizeof(what), "%s=", d->name);
		unbuilt(ps, what);
	}
		/* FALLTHROUGH */
	case K_BAG:
		if (check_dedup(ps, d->name) != 0)
			return (-1);
		bag_set(cur_bag(ps), d->name, &it->vals);
		return (0);
	case K_NAME:
		return (open_entry(ps, ps->sec));
	case K_COUNT:
		if (it->vals.n != 2 || !it->vals.v[0].is_num ||
		    !it->vals.v[1].is_num || it->vals.v[0].num < 0 ||
		    it->vals.v[1].num < 1)
			return (fail(ps, "'count=(start,count)' parameter "
			    "requires two values"));
		if (it->vals.v[1].num > PARM_MAX_COUNT)
			return (fail(ps, "'count=(%.0f,%.0f)' asks for more than "
			    "%d copies of %s=%s; at most %d are allowed",
			    it->vals.v[0].num, it->vals.v[1].num, PARM_MAX_COUNT,
			    sec_names[ps->sec], ps->sec == SEC_SD && ps->sd !=
			    NULL ? ps->sd->name : ps->sec == SEC_FSD && ps->fsd !=
			    NULL ? ps->fsd->name : "?", PARM_MAX_COUNT));
		if (it->vals.v[0].num + it->vals.v[1].num > 1e15)
			return (fail(ps, "'count=(%.0f,%.0f)': the numbers "
			    "would not fit a name", it->vals.v[0].num,
			    it->vals.v[1].num));
		if (ps->is_default)
			return (fail(ps, "'count=' is not allowed for %s=default",
			    sec_names[ps->sec]));
		ps->count_start = (long)it->vals.v[0].num;
		ps->count_n = (long)it->vals.v[1].num;
		return (0);
	default:
		break;
	}
	switch (ps->sec) {
	case SEC_GENERAL:
		return (do_general(ps, d));
	case SEC_HD:
		return (do_hd(ps, d));
	case SEC_SD:
		return (do_sd(ps, d));
	case SEC_WD:
		return (do_wd(ps, d));
	case SEC_RD:
		return (do_rd(ps, d));
	case SEC_FSD:
		return (do_fs(ps, d));
	case SEC_FWD:
		return (do_fwd(ps, d));
	default:
		return (fail(ps, "internal: no section"));
	}
}

/* Apply -e/-i/-w and check an rd's times (PARMFILE.md 8.1). */
static int
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
static int
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

/* Checks that need the whole stream. */
static int
finish_model(struct pstate *ps)
{
	struct model *m = ps->m;
	struct rd *r;
	int i, unused = 0, nitems_rd = 0;

	ps->it = NULL;
	if (finish_entry(ps) != 0)
		return (-1);
	if (ps->sec <= SEC_HD)
		return (fail(ps, "Early EOF on input parameters"));
	if (!TAILQ_EMPTY(&m->sds) && !TAILQ_EMPTY(&m->fsds))
		return (fail(ps, "'fsd' and 'sd' parameters are mutually "
		    "exclusive"));
	if (!TAILQ_EMPTY(&m->wds) && !TAILQ_EMPTY(&m->fwds))
		return (fail(ps, "'fwd' and 'wd' parameters are mutually "
		    "exclusive"));
	TAILQ_FOREACH(r, &m->rds, entry) {
		nitems_rd++;
		if (check_rd_times(ps, r) != 0)
			return (-1);
		if (check_format(ps, r) != 0)
			return (-1);
		if (r->fwds.n > 0) {
			if (r->fwdrate_n == 0)
				return (fail(ps, "No fwdrate= specified for "
				    "rd=%s", r->name));
		} else if (r->iorate_n == 0)
			return (fail(ps, "iorate= parameter is missing. "
			    "(rd=%s)", r->name));
	}
	if (nitems_rd == 0)
		return (fail(ps, "No RD parameters specified"));
	for (i = 0; i < ps->opts->vars.n; i++) {
		if (!ps->opts->vars.v[i].used) {
			note(ps, "Unused parameter substitution: %s=%s",
			    ps->opts->vars.v[i].name,
			    ps->opts->vars.v[i].value);
			unused++;
		}
	}
	if (unused > 0)
		return (fail(ps, "Unused parameter substitution."));
	m->wd_default = wd_copy(ps->wd_def, "default");
	/* Only hd=default given: the one localhost host takes its values. */
	if (TAILQ_EMPTY(&m->hds) && ps->hd_seen_default) {
		struct hd *h = hd_copy(ps->hd_def, "localhost");

		TAILQ_INSERT_TAIL(&m->hds, h, entry);
	}
	return (0);
}

/* parmscan.html: each line, then each keyword=value and its value. */
static void
write_scan(FILE *f, const struct pitems *pi)
{
	char tod[16];
	int i, line = -1;

	if (f == NULL)
		return;
	mtime_tod(mtime_wall_ns(), tod);
	for (i = 0; i < pi->n; i++) {
		const struct pitem *it = &pi->v[i];

		/* the parmfile's text, escaped for the page */
		if (it->line_idx != line && it->src != NULL) {
			fprintf(f, "%s line: ", tod);
			html_put(f, it->src);
			fputc('\n', f);
			line = it->line_idx;
		}
		fprintf(f, "%s keyw: ", tod);
		html_put(f, it->text);
		fprintf(f, "\n%s parm: ", tod);
		html_put(f, it->value);
		fputc('\n', f);
	}
	fflush(f);
}

/* Parse a tokenized stream into a model. */
int
parmfile_parse_items(const struct pitems *pi, const struct parm_opts *opts,
    struct model **out, struct strlist *notes, struct errmsg *e)
{
	struct pstate ps;
	int i, rc = -1;

	memset(&ps, 0, sizeof(ps));
	ps.opts = opts;
	ps.m = model_new();
	ps.notes = notes;
	ps.e = e;
	ps.sec = SEC_GENERAL;
	ps.hd_def = hd_new("default");
	ps.sd_def = sd_new("default");
	ps.wd_def = wd_new("default");
	ps.rd_def = rd_new("default");
	ps.fsd_def = fsd_new("default");
	ps.fwd_def = fwd_new("default");
	write_scan(opts->scan, pi);
	if (pi->n == 0) {
		fail(&ps, "Early EOF on input parameters");
		goto out;
	}
	for (i = 0; i < pi->n; i++) {
		ps.it = &pi->v[i];
		if (parse_item(&ps) != 0)
			goto out;
	}
	if (finish_model(&ps) != 0)
		goto out;
	*out = ps.m;
	ps.m = NULL;
	rc = 0;
out:
	free(ps.pending_host);
	model_free(ps.m);
	hd_free(ps.hd_def);
	sd_free(ps.sd_def);
	wd_free(ps.wd_def);
	rd_free(ps.rd_def);
	fsd_free(ps.fsd_def);
	fwd_free(ps.fwd_def);
	return (rc);
}

/* Does a logical line start a parameter block (2.6)? 2 = an rd block. */
static int
block_start(const char *t)
{
	static const char *const kws[] = { "sd=", "fsd=", "wd=", "fwd=",
	    "rd=" };
	size_t i;

	for (i = 0; i < sizeof(kws) / sizeof(kws[0]); i++) {
		if (strncasecmp(t, kws[i], strlen(kws[i])) == 0)
			return (i == 4 ? 2 : 1);
	}
	return (0);
}

/* Does a line use a host token? */
static int
has_host_token(const char *t)
{
	return (strstr(t, "$host") != NULL || strstr(t, "!host") != NULL ||
	    strstr(t, "#host") != NULL);
}

/* Text with every occurrence of from replaced by to (a new string). */
static char *
replaced(const char *text, const char *from, const char *to)
{
	size_t fl = strlen(from), tl = strlen(to), n = 0;
	const char *p;
	char *out, *o;

	for (p = strstr(text, from); p != NULL; p = strstr(p + fl, from))
		n++;
	out = o = xmalloc(strlen(text) + n * tl + 1);
	while ((p = strstr(text, from)) != NULL) {
		memcpy(o, text, (size_t)(p - text));
		o += p - text;
		memcpy(o, to, tl);
		o += tl;
		text = p + fl;
	}
	strcpy(o, text);
	return (out);
}

/*
 * $host, !host, #host and #hosts (PARMFILE.md 2.6): after the hd= section,
 * a block whose lines use a host token is emitted once per host. Returns
 * 1 when lines changed, 0 when not, -1 on error.
 */
static int
replicate_hosts(struct plines *pl, const struct pitems *pi, struct errmsg *e)
{
	struct strlist hosts = { 0, NULL, 0 };
	struct plines out = { 0, NULL };
	int i, first = -1, any = 0, k;
	char nhosts[16];

	(void)e;
	for (i = 0; i < pi->n; i++) {
		const struct pitem *it = &pi->v[i];

		if (strcmp(it->kw, "sd") == 0 || strcmp(it->kw, "fsd") == 0 ||
		    strcmp(it->kw, "wd") == 0 || strcmp(it->kw, "fwd") == 0 ||
		    strcmp(it->kw, "rd") == 0) {
			first = it->line_idx;
			break;
		}
		if ((strcmp(it->kw, "hd") == 0 || strcmp(it->kw, "host") == 0)
		    && it->vals.n >= 1) {
			const char *label = it->vals.v[it->vals.n == 2].str;

			if (strcmp(label, "default") != 0)
				strlist_add(&hosts, label);
		}
	}
	if (first < 0)
		goto done;
	for (i = first; i < pl->n && !any; i++)
		any = has_host_token(pl->v[i].text);
	if (!any)
		goto done;
	if (hosts.n == 0)
		strlist_add(&hosts, "localhost");
	snprintf(nhosts, sizeof(nhosts), "%d", hosts.n);
	for (i = 0; i < pl->n; ) {
		int end = i + 1, repl = 0, j;

		if (i < first) {
			plines_add_copy(&out, &pl->v[i++]);
			continue;
		}
		while (end < pl->n && !block_start(pl->v[end].text))
			end++;
		for (j = i; j < end; j++)
			repl |= has_host_token(pl->v[j].text);
		if (block_start(pl->v[i].text) == 2)
			repl = 0;
		for (k = 0; k < (repl ? hosts.n : 1); k++) {
			char idx[16];

			if (repl && strcmp(hosts.v[k], "fileserver") == 0)
				continue;
			snprintf(idx, sizeof(idx), "%d", k);
			for (j = i; j < end; j++) {
				struct pline l = pl->v[j];
				char *a = replaced(l.text, "#hosts", nhosts);

				if (repl) {
					char *b = replaced(a, "$host",
					    hosts.v[k]);
					char *c = replaced(b, "!host",
					    hosts.v[k]);

					free(a);
					free(b);
					a = replaced(c, "#host", idx);
					free(c);
				}
				l.text = a;
				plines_add_copy(&out, &l);
				free(a);
			}
		}
		i = end;
	}
	plines_free(pl);
	*pl = out;
	strlist_clear(&hosts);
	return (1);
done:
	strlist_clear(&hosts);
	return (0);
}

/* Shared tail of both loaders. */
static int
load_lines(struct plines *pl, const struct parm_opts *opts,
    struct model **out, struct strlist *notes, struct errmsg *e)
{
	struct pitems pi = { 0, NULL };
	int nrds, rc = -1;

	if (lexer_add_extras(pl, opts->extras, &nrds, e) != 0)
		goto out;
	for (; nrds > 0; nrds--) {
		char *n;

		xasprintf(&n, "Adding ',%s' to each one-line RD parameter.",
		    opts->extras);
		strlist_add(notes, n);
		free(n);
	}
	if (lexer_tokenize(&pi, pl, e) != 0)
		goto out;
	if ((rc = replicate_hosts(pl, &pi, e)) < 0)
		goto out;
	if (rc > 0) {
		pitems_free(&pi);
		if (lexer_tokenize(&pi, pl, e) != 0) {
			rc = -1;
			goto out;
		}
	}
	rc = parmfile_parse_items(&pi, opts, out, notes, e);
out:
	pitems_free(&pi);
	plines_free(pl);
	return (rc);
}

/* Read parmfiles into a model. */
int
parmfile_load(const struct parm_opts *opts, struct model **out,
    struct strlist *notes, struct errmsg *e)
{
	struct plines pl = { 0, NULL };

	if (opts->nfiles > 0 && parmyaml_is_yaml(opts->files[0])) {
		struct pitems pi = { 0, NULL };
		int rc = -1;

		if (parmyaml_read(&pi, &pl, opts->nfiles, opts->files,
		    (struct subvars *)&opts->vars, e) == 0)
			rc = parmfile_parse_items(&pi, opts, out, notes, e);
		pitems_free(&pi);
		plines_free(&pl);
		return (rc);
	}
	if (lexer_read_files(&pl, opts->nfiles, opts->files,
	    (struct subvars *)&opts->vars, e) != 0) {
		plines_free(&pl);
		return (-1);
	}
	return (load_lines(&pl, opts, out, notes, e));
}

/* Read an in-memory parmfile into a model. */
int
parmfile_load_buffer(const char *name, const char *text,
    const struct parm_opts *opts, struct model **out, struct strlist *notes,
    struct errmsg *e)
{
	struct plines pl = { 0, NULL };

	if (lexer_read_buffer(&pl, name, text, (struct subvars *)&opts->vars,
	    e) != 0) {
		plines_free(&pl);
		return (-1);
	}
	return (load_lines(&pl, opts, out, notes, e));
}
