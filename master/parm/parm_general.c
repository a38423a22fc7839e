/* SPDX-License-Identifier: MIT */
/*
 * The general parameters and host definitions (PARMFILE.md 4, 5): their
 * keyword tables and handlers.
 * Part of the parmfile parser (parm_int.h).
 */
#include "parm_int.h"

#include <ctype.h>
#include <limits.h>
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

static int	kw_general_cmd(struct pstate *, const struct kwdef *);
static int	kw_general_compratio(struct pstate *, const struct kwdef *);
static int	kw_general_compseed(struct pstate *, const struct kwdef *);
static int	kw_general_create_anchors(struct pstate *, const struct kwdef *);
static int	kw_general_dataerr(struct pstate *, const struct kwdef *);
static int	kw_general_debug(struct pstate *, const struct kwdef *);
static int	kw_general_dedup(struct pstate *, const struct kwdef *);
static int	kw_general_compression(struct pstate *, const struct kwdef *);
static int	kw_general_pattern(struct pstate *, const struct kwdef *);
static int	kw_general_formatsds(struct pstate *, const struct kwdef *);
static int	kw_general_formatxfersize(struct pstate *, const struct kwdef *);
static int	kw_general_abortskew(struct pstate *, const struct kwdef *);
static int	kw_general_hberr(struct pstate *, const struct kwdef *);
static int	kw_general_runtotals(struct pstate *, const struct kwdef *);
static int	kw_general_histogram(struct pstate *, const struct kwdef *);
static int	kw_general_loop(struct pstate *, const struct kwdef *);
static int	kw_general_monitor(struct pstate *, const struct kwdef *);
static int	kw_general_msgscan(struct pstate *, const struct kwdef *);
static int	kw_general_port(struct pstate *, const struct kwdef *);
static int	kw_general_report(struct pstate *, const struct kwdef *);
static int	kw_general_showlba(struct pstate *, const struct kwdef *);
static int	kw_general_unix2win(struct pstate *, const struct kwdef *);
static int	kw_general_validate(struct pstate *, const struct kwdef *);
static int	kw_general_journal(struct pstate *, const struct kwdef *);

const struct kwdef general_kws[] = {
	{ "compression", EXACT, K_COMPRATIO, 0, NULL, kw_general_compression },
	{ "compratio", 2, K_COMPRATIO, 0, NULL, kw_general_compratio },
	{ "compressionseed", 2, K_G_COMPSEED, 0, NULL, kw_general_compseed },
	{ "dedupratio", 2, K_G_DEDUP, 0, NULL, kw_general_dedup },
	{ "dedupunit", 2, K_G_DEDUP, 0, NULL, kw_general_dedup },
	{ "dedupsets", 2, K_G_DEDUP, 0, NULL, kw_general_dedup },
	{ "deduphotsets", 2, K_G_DEDUP, 0, NULL, kw_dedup_more },
	{ "dedupflipflop", 2, K_G_DEDUP, 0, NULL, kw_dedup_more },
	{ "dedupacross", 2, K_G_DEDUP, 0, NULL, kw_dedup_more },
	{ "dedupmaxkey", 2, K_G_DEDUP, 0, NULL, kw_dedup_more },
	{ "port", 2, K_PORT, 0, NULL, kw_general_port },
	{ "pattern", 2, K_G_DEDUP, 0, NULL, kw_general_pattern },
	{ "data_errors", 2, K_G_DATAERR, 0, NULL, kw_general_dataerr },
	{ "dataerrors", 2, K_G_DATAERR, 0, NULL, kw_general_dataerr },
	{ "swat", 2, K_REJECT, 0,
	    "The 'swat=' parameter is no longer supported", NULL },
	{ "validate", 2, K_G_VALIDATE, 0, NULL, kw_general_validate },
	{ "journal", EXACT, K_G_VALIDATE, 0, NULL, kw_general_journal },
	{ "startcmd", 2, K_G_CMD, 0, "startcmd", kw_general_cmd },
	{ "start_cmd", EXACT, K_G_CMD, 0, "startcmd", kw_general_cmd },
	{ "endcmd", 2, K_G_CMD, 0, "endcmd", kw_general_cmd },
	{ "end_cmd", EXACT, K_G_CMD, 0, "endcmd", kw_general_cmd },
	{ "heartbeat_error", EXACT, K_G_CMD, 0, "heartbeat_error",
	    kw_general_hberr },
	{ "debug", EXACT, K_NOEFFECT, 0, "a switch of vdbench's own Java "
	    "code (tracing, internal tests); vdbc has none of them",
	    kw_general_debug },
	{ "unix2windows", 2, K_NOEFFECT, 0, "path translation for Windows "
	    "slaves; vdbc's slaves run on Linux only", kw_general_unix2win },
	{ "formatxfersize", 2, K_FORMATXFERSIZE, 0, NULL, kw_general_formatxfersize },
	{ "create_anchors", 2, K_G_CREATE_ANCHORS, 0, NULL,
	    kw_general_create_anchors },
	{ "formatsds", 2, K_FORMATSDS, 0, NULL, kw_general_formatsds },
	{ "report", 2, K_G_REPORT, 0, NULL, kw_general_report },
	{ "report_run_totals", 2, K_G_REPORT, 0, "report_run_totals",
	    kw_general_runtotals },
	{ "histogram", 2, K_HISTOGRAM, 0, NULL, kw_general_histogram },
	{ "psrset", 2, K_REJECT, 0,
	    "'psrset=' option is only supported on Solaris", NULL },
	{ "auxreport", 2, K_BAG_WARN, 0, NULL, NULL },
	{ "monitor", 2, K_G_CMD, 0, NULL, kw_general_monitor },
	{ "concatenatesds", 2, K_G_CMD, 0, NULL, kw_yes_unbuilt },
	{ "messagescan", 2, K_G_MSGSCAN, 0, NULL, kw_general_msgscan },
	{ "abort_failed_skew", 2, K_G_DEBUG, 0, "abort_failed_skew",
	    kw_general_abortskew },
	{ "misc", 2, K_NOEFFECT, 0, "free-form settings for vdbench's Java "
	    "slaves; vdbc's slaves take none", NULL },
	{ "pattern_buffer", EXACT, K_NOEFFECT, 0, "the size of vdbench's Java "
	    "data pattern buffer; vdbc makes each block's data as it writes "
	    "it and keeps no such buffer", NULL },
	{ "showlba", EXACT, K_G_SHOWLBA, 0, NULL, kw_general_showlba },
	{ "loop", EXACT, K_G_CMD, 0, NULL, kw_general_loop },
	{ NULL, 0, K_BAG, 0, NULL, NULL },
};

const struct kwdef hd_kws[] = {
	{ "hd", EXACT, K_NAME, 0, NULL, NULL },
	{ "host", EXACT, K_NAME, 0, NULL, NULL },
	{ "system", 2, K_SYSTEM, 0, NULL, NULL },
	{ "vdbench", 2, K_VDBENCH, 0, NULL, NULL },
	{ "shell", 2, K_SHELL, 0, NULL, NULL },
	{ "user", 2, K_USER, 0, NULL, NULL },
	{ "jvms", 2, K_JVMS, 0, NULL, NULL },
	{ "clients", 2, K_CLIENTS, 0, NULL, NULL },
	{ "mount", 2, K_H_MOUNT, 0, NULL, NULL },
	{ NULL, 0, K_BAG, 0, NULL, NULL },
};

/* dedupratio= and dedupunit= of the general parameters. */
int
check_dedup(struct pstate *ps, const char *name)
{
	const struct pvals *v = &ps->it->vals;
	const struct field_desc *fd = field_find(&general_desc, name);

	if (strcmp(name, "dedupratio") == 0 && (v->n != 1 ||
	    !v->v[0].is_num || !field_in_bounds(fd, v->v[0].num)))
		return (fail(ps, "dedupratio= must be one number of at least "
		    "1: %s", ps->it->value));
	if (strcmp(name, "dedupunit") == 0 && (v->n != 1 ||
	    !v->v[0].is_num || !field_in_bounds(fd, v->v[0].num) ||
	    fmod(v->v[0].num, 512) != 0))
		return (fail(ps, "dedupunit= must be one size, a multiple of "
		    "512 bytes: %s", ps->it->value));
	return (0);
}

/*
 * dedupratio=, dedupunit=, dedupsets= (general): checked, kept in the bag
 * and typed. dedupsets= other than one non-zero number is 5 % (-5).
 */
static int
general_dedup(struct pstate *ps, const char *name)
{
	struct general *g = &ps->m->general;
	const struct pvals *v = &ps->it->vals;

	if (check_dedup(ps, name) != 0)
		return (-1);
	bag_set(&g->bag, name, v);
	if (strcmp(name, "dedupratio") == 0 && v->v[0].num >= 1 &&
	    g->pattern != NULL)
		return (fail(ps, "parsePatterns(): dedupratio= and pattern= "
		    "are mutually exclusive"));
	if (strcmp(name, "dedupratio") == 0)
		g->dedupratio = v->v[0].num;
	else if (strcmp(name, "dedupunit") == 0)
		g->dedupunit_bytes = (uint64_t)v->v[0].num;
	else
		g->dedupsets = v->n >= 1 && v->v[0].is_num &&
		    v->v[0].num != 0 ? v->v[0].num : -5.0;
	return (0);
}

/* Any dedup keyword in the general parameters. */
static int
any_general_dedup(const struct general *g)
{
	static const char *const kws[] = { "dedupratio", "dedupunit",
	    "dedupsets", "deduphotsets", "dedupflipflop", "dedupacross",
	    "dedupmaxkey", NULL };
	int i;

	for (i = 0; kws[i] != NULL; i++)
		if (bag_get(&g->bag, kws[i]) != NULL)
			return (1);
	return (0);
}

/*
 * At the end of the general parameters (and for an sd's own dedup): any
 * dedup keyword turns dedup on, which needs dedupunit= (vdbench has no
 * default) and dedupratio=, in vdbench's order and words.
 */
int
check_general_dedup(struct pstate *ps)
{
	const struct general *g = &ps->m->general;

	if (!any_general_dedup(g) && ps->sec == SEC_GENERAL)
		return (0);
	if (bag_get(&g->bag, "dedupunit") == NULL)
		return (fail(ps, "Requesting Dedup without specifying "
		    "dedupunit=nnn"));
	if (g->dedupratio < 1)
		return (fail(ps, "dedupratio= parameter is required. "));
	return (0);
}

/*
 * pattern= excludes dedup, validation and compratio= (vdbench checks
 * after the general parameters; vdbc at the later of the two keywords).
 */
static int
pattern_conflict(struct pstate *ps)
{
	const struct general *g = &ps->m->general;
	const struct pvals *v = bag_get(&g->bag, "validate");
	int i, dv = 0;

	if (g->pattern == NULL)
		return (0);
	if (g->dedupratio >= 1)
		return (fail(ps, "parsePatterns(): dedupratio= and pattern= "
		    "are mutually exclusive"));
	for (i = 0; v != NULL && i < v->n; i++)
		dv |= strcasecmp(v->v[i].str, "no") != 0;
	if (dv)
		return (fail(ps, "parsePatterns(): validate=yes and pattern= "
		    "are mutually exclusive"));
	if (g->compratio != 1)
		return (fail(ps, "parsePatterns(): compratio= and pattern= "
		    "are mutually exclusive"));
	return (0);
}

/*
 * Refused by name, with why: vdbench acts on it, vdbc cannot yet; -s
 * still plans, a run stops before any I/O (unbuilt).
 */
static void
refuse_why(struct pstate *ps, const char *what, const char *why)
{
	unbuilt(ps, what);
	note(ps, "vdbc: '%s': %s (docs/differences.md)", what, why);
}

/*
 * deduphotsets=, dedupflipflop=, dedupacross=, dedupmaxkey= (general or
 * sd): checked with vdbench's messages. dedupacross= works (yes is the
 * default, no: pattern.h; an sd's own over the general one);
 * dedupflipflop=no is the default; the hot sets,
 * flipflop and maxkey are refused with the reason (the general
 * dedupflipflop=yes and dedupmaxkey=2 not under -v: dv_model_check).
 */
int
kw_dedup_more(struct pstate *ps, const struct kwdef *d)
{
	const struct pvals *v = &ps->it->vals;
	const char *s0 = v->n >= 1 ? v->v[0].str : "";
	int i;

	if (strcmp(d->name, "deduphotsets") == 0) {
		if (v->n % 2 != 0 || v->n == 0)
			return (fail(ps, "Specifying deduphotsets= must be done "
			    "in pairs (10 sets of 3 blocks, hotsets=(10,3,. . . "
			    ".)"));
		for (i = 0; i < v->n; i++) {
			if (!v->v[i].is_num || (int)v->v[i].num == 0)
				return (fail(ps, "hotsets: no 'zero' value "
				    "allowed in parameters"));
		}
		refuse_why(ps, "deduphotsets=", "vdbench's placement of the "
		    "hot sets' blocks is not in PARMFILE.md; vdbc has no hot "
		    "dedup sets");
	} else if (strcmp(d->name, "dedupflipflop") == 0) {
		if (v->n != 1 || (tolower((unsigned char)s0[0]) != 'y' &&
		    tolower((unsigned char)s0[0]) != 'n' &&
		    strncasecmp(s0, "hot", 3) != 0))
			return (fail(ps, "Dedup parameter scan: unexpected "
			    "input: %s", ps->it->value));
		/* the general yes: Data Validation forces it on anyway,
		 * so dv_model_check lifts the refusal under -v */
		if (ps->sec != SEC_SD && tolower((unsigned char)s0[0]) == 'y')
			ps->m->general.dedupflipflop = 1;
		if (tolower((unsigned char)s0[0]) != 'n')
			refuse_why(ps, "dedupflipflop=", "flipflop alternates "
			    "a duplicate's data by the per-block keys of data "
			    "validation, which vdbc's dedup keeps only under "
			    "-v (where vdbench forces flipflop on)");
	} else if (strcmp(d->name, "dedupacross") == 0) {
		if (v->n != 1 || v->v[0].is_num || s0[0] == '\0' ||
		    (strncasecmp(s0, "yes", strlen(s0)) != 0 &&
		    strncasecmp(s0, "no", strlen(s0)) != 0))
			return (fail(ps, "Invalid value for 'dedupacross=': %s "
			    "(expected yes or no)", ps->it->value));
		if (ps->sec == SEC_SD && check_general_dedup(ps) != 0)
			return (-1);
		if (ps->sec == SEC_SD)
			ps->sd->dedupacross =
			    tolower((unsigned char)s0[0]) == 'y';
		else
			ps->m->general.dedupacross =
			    tolower((unsigned char)s0[0]) == 'y';
	} else {
		if (v->n != 1 || !v->v[0].is_num)
			return (fail(ps, "Invalid value for 'dedupmaxkey=': %s "
			    "(expected one number)", ps->it->value));
		/* the general 2: vdbench's own, lifted under -v */
		if (ps->sec != SEC_SD)
			ps->m->general.dedupmaxkey = (int)v->v[0].num;
		refuse_why(ps, "dedupmaxkey=", "it bounds the flipflop keys "
		    "of data validation, which vdbc's dedup keeps only under "
		    "-v, and there only vdbench's default of 2");
	}
	bag_set(cur_bag(ps), d->name, v);
	return (0);
}

/*
 * data_errors= (or its old spelling dataerrors=, which data_errors=
 * overrides): one number of 0 or more (0 ends the rd at the first error,
 * as 1 does, vdbench's errors >= max, ErrorLog.java), else the default
 * 50.
 */
static void
general_data_errors(struct pstate *ps, const char *name)
{
	struct general *g = &ps->m->general;
	const struct pvals *v = &ps->it->vals;

	if (strcmp(name, "data_errors") == 0 ||
	    bag_get(&g->bag, "data_errors") == NULL) {
		g->data_errors = v->n >= 1 && v->v[0].is_num &&
		    v->v[0].num >= 0 ? (int)v->v[0].num : 50;
		free(g->data_errors_cmd);
		g->data_errors_cmd = v->n >= 1 && !v->v[0].is_num &&
		    v->v[0].str != NULL ? xstrdup(v->v[0].str) : NULL;
		g->data_errors_wait_s = v->n >= 2 && v->v[1].is_num &&
		    v->v[1].num >= 1 ? (int)v->v[1].num : 0;
	}
	bag_set(&g->bag, name, v);
}

/* report=: slave_detail, host_detail, no_sd_detail. */
static int
general_report(struct pstate *ps, struct general *g)
{
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
	all_strs(ps, &g->report);
	return (0);
}

/* messagescan=: yes, no, nodisplay or a number, or a list of them. */
static int
general_msgscan(struct pstate *ps, struct general *g)
{
	int i;

	for (i = 0; i < ps->it->vals.n; i++) {
		const char *w = ps->it->vals.v[i].str;

		if (!ps->it->vals.v[i].is_num && strcasecmp(w, "yes") != 0 &&
		    strcasecmp(w, "no") != 0 && strcasecmp(w, "nodisplay") != 0)
			return (fail(ps, "Invalid 'messagescan=' value: %s "
			    "(expected yes, no, nodisplay or a number)", w));
	}
	g->messagescan = 1;
	g->messagescan_display = 1;
	g->messagescan_max = 1000;
	for (i = 0; i < ps->it->vals.n; i++) {
		const struct pval *pv = &ps->it->vals.v[i];

		if (pv->is_num)
			g->messagescan_max = pv->num > INT_MAX ? INT_MAX :
			    (int)pv->num;
		else if (strcasecmp(pv->str, "no") == 0)
			g->messagescan = 0;
		else if (strcasecmp(pv->str, "nodisplay") == 0)
			g->messagescan_display = 0;
	}
	bag_set(&g->bag, "messagescan", &ps->it->vals);
	return (0);
}

/*
 * validate=yes|no|read_after_write|no_preread|time|ignore_zero_reads
 * (prefix match but time exact, vdbench's Validate.java).
 */
static int
general_validate(struct pstate *ps, struct general *g)
{
	static const char *const ok[] = { "yes", "no",
	    "read_after_write", "no_preread", "time",
	    "ignore_zero_reads", NULL };
	static const int bits[] = { VALIDATE_ON, 0, VALIDATE_ON |
	    VALIDATE_AFTER_WRITE, VALIDATE_ON | VALIDATE_NO_PREREAD,
	    VALIDATE_ON | VALIDATE_TIME, VALIDATE_ON | VALIDATE_IGNORE_ZERO };
	int i, k;

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
			return (fail(ps, "Unknown keyword value for "
			    "'validate=': %s", w));
		g->validate |= bits[k];
	}
	bag_set(&g->bag, "validate", &ps->it->vals);
	return (pattern_conflict(ps));
}

/* histogram=(default|edges..., suppress). */
static int
general_histogram(struct pstate *ps, struct general *g)
{
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

/* general: compratio= */
static int
kw_general_compratio(struct pstate *ps, const struct kwdef *d)
{
	struct general *g = &ps->m->general;
	double v = 0;

	(void)d;
	if (one_num(ps, &v) != 0)
		return (-1);
	if (v < 1)	/* vdbench's words; Java's %.0f rounds half up */
		return (fail(ps, "Minimum value for compratio=%.0f is "
		    "compratio=1", v < 0 ? -floor(-v + 0.5) : floor(v + 0.5)));
	g->compratio = v;
	return (pattern_conflict(ps));
}

/* general: formatxfersize= */
static int
kw_general_formatxfersize(struct pstate *ps, const struct kwdef *d)
{
	struct general *g = &ps->m->general;
	uint64_t u = 0;

	(void)d;
	if (one_uint(ps, &u) != 0)
		return (-1);
	if (u == 0 || u % 512 != 0)
		return (fail(ps, "data transfer size not multiple of "
		    "512 bytes: %llu", (unsigned long long)u));
	g->formatxfersize_bytes = u;
	return (0);
}

/* general: formatsds= */
static int
kw_general_formatsds(struct pstate *ps, const struct kwdef *d)
{
	struct general *g = &ps->m->general;
	const char *s = NULL;

	(void)d;
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
}

/* general: create_anchors= (yes: make a missing anchor's parents) */
static int
kw_general_create_anchors(struct pstate *ps, const struct kwdef *d)
{
	struct general *g = &ps->m->general;
	const char *s = NULL;

	(void)d;
	if (one_str(ps, &s) != 0)
		return (-1);
	if (strcasecmp(s, "yes") == 0 || strcasecmp(s, "y") == 0)
		g->create_anchors = 1;
	else if (strcasecmp(s, "no") == 0 || strcasecmp(s, "n") == 0)
		g->create_anchors = 0;
	else
		return (fail(ps, "Invalid 'create_anchors=' value: %s "
		    "(expected yes or no)", s));
	return (0);
}

/* general: port= */
static int
kw_general_port(struct pstate *ps, const struct kwdef *d)
{
	struct general *g = &ps->m->general;
	uint64_t u = 0;

	(void)d;
	if (one_uint(ps, &u) != 0)
		return (-1);
	if (u == 0 || u > 65535)
		return (fail(ps, "Invalid 'port=' value: %s",
		    ps->it->value));
	g->port = (int)u;
	return (0);
}

/*
 * general: compressionseed=: a number or tod (the time of day in ms, as
 * vdbench takes it); it seeds vdbc's data pattern (slave/work.c).
 */
static int
kw_general_compseed(struct pstate *ps, const struct kwdef *d)
{
	struct general *g = &ps->m->general;

	(void)d;
	if (ps->it->vals.n != 1 || (!ps->it->vals.v[0].is_num &&
	    strcmp(ps->it->vals.v[0].str, "tod") != 0) ||
	    (ps->it->vals.v[0].is_num && (ps->it->vals.v[0].num < 0 ||
	    ps->it->vals.v[0].num > 9.2e18)))
		return (fail(ps, "Invalid 'compressionseed=' parameter: "
		    "%s", ps->it->value));
	g->compseed_set = 1;
	g->compseed = ps->it->vals.v[0].is_num ?
	    floor(ps->it->vals.v[0].num) : (double)(mtime_wall_ns() /
	    1000000);
	bag_set(&g->bag, "compressionseed", &ps->it->vals);
	return (0);
}

/*
 * general: compression= (obsolete): a percentage, turned into
 * compratio=100/pct with vdbench's boxed warning. vdbench also sets
 * compressionseed= from it (PARMFILE.md 15 quirk 20); vdbc does not.
 */
static int
kw_general_compression(struct pstate *ps, const struct kwdef *d)
{
	struct general *g = &ps->m->general;
	double v = 0;

	(void)d;
	if (one_num(ps, &v) != 0)
		return (-1);
	if (!(v > 0 && v <= 100))
		return (fail(ps, "'compression=' must be a percentage above "
		    "0 and at most 100: %s", ps->it->value));
	g->compratio = 100. / v;
	note(ps, "*");
	note(ps, "*****************************************************"
	    "***************************");
	note(ps, "* compression= parameter replaced by compratio=. This no "
	    "longer is a percentage.");
	note(ps, "* compression= has been converted to 'compratio=%.2f'",
	    g->compratio);
	note(ps, "*****************************************************"
	    "***************************");
	note(ps, "*");
	return (pattern_conflict(ps));
}

/*
 * general: pattern=file: the data every write carries, from the file
 * (read by each slave on its host, slave/pattern.c); one value, once.
 */
static int
kw_general_pattern(struct pstate *ps, const struct kwdef *d)
{
	struct general *g = &ps->m->general;

	(void)d;
	if (ps->it->vals.n != 1)
		return (fail(ps, "Only ONE pattern= parameter value may be "
		    "coded. "));
	if (g->pattern != NULL)
		return (fail(ps, "'pattern=' may be used only once."));
	if (ps->it->vals.v[0].str[0] == '\0')
		return (fail(ps, "'pattern=' needs a file name"));
	g->pattern = xstrdup(ps->it->vals.v[0].str);
	bag_set(&g->bag, "pattern", &ps->it->vals);
	return (pattern_conflict(ps));
}

/* general: startcmd=, start_cmd=, endcmd=, end_cmd= */
static int
kw_general_cmd(struct pstate *ps, const struct kwdef *d)
{
	struct general *g = &ps->m->general;

	/* Commands, then an optional target word (cons, summary,
	 * log) and "master"/"slave"; kept as written. */
	if (ps->it->vals.n < 1 || ps->it->vals.v[0].str[0] == '\0')
		return (fail(ps, "'%s=' needs a command", d->msg));
	bag_set(&g->bag, d->msg, &ps->it->vals);
	all_strs(ps, strcmp(d->msg, "startcmd") == 0 ? &g->startcmd :
	    &g->endcmd);
	return (0);
}

/* general: heartbeat_error=, the command the master runs when it loses a
 * slave (master/slaves.c), kept as written like startcmd= */
static int
kw_general_hberr(struct pstate *ps, const struct kwdef *d)
{
	if (ps->it->vals.n < 1 || ps->it->vals.v[0].str == NULL ||
	    ps->it->vals.v[0].str[0] == '\0')
		return (fail(ps, "'%s=' needs a command", d->msg));
	bag_set(&ps->m->general.bag, d->msg, &ps->it->vals);
	all_strs(ps, &ps->m->general.heartbeat_error);
	return (0);
}

/* general: loop= n (times), or ns, nm, nh (a duration), as -l */
static int
kw_general_loop(struct pstate *ps, const struct kwdef *d)
{
	const struct pvals *v = &ps->it->vals;
	const char *s = v->n == 1 ? v->v[0].str : "";
	size_t n = strspn(s, "0123456789");

	(void)d;
	if (n == 0 || atol(s) <= 0 || atol(s) > 100000000L ||
	    (s[n] != '\0' && (strchr("smhSMH", s[n]) == NULL ||
	    s[n + 1] != '\0')))
		return (fail(ps, "Invalid 'loop=' value: %s (expected a count, "
		    "or a duration: ns, nm or nh)", ps->it->value));
	bag_set(&ps->m->general.bag, "loop", v);
	all_strs(ps, &ps->m->general.loop);
	return (0);
}

/* general: monitor= the file that can end a run (PARMFILE.md 4) */
static int
kw_general_monitor(struct pstate *ps, const struct kwdef *d)
{
	const struct pvals *v = &ps->it->vals;

	(void)d;
	if (v->n != 1 || v->v[0].str[0] == '\0')
		return (fail(ps, "'monitor=' needs one file name"));
	bag_set(&ps->m->general.bag, "monitor", v);
	all_strs(ps, &ps->m->general.monitor);
	return (0);
}

/* general: dedupratio=, dedupunit=, dedupsets= */
static int
kw_general_dedup(struct pstate *ps, const struct kwdef *d)
{
	return (general_dedup(ps, d->name));
}

/* general: data_errors=, dataerrors= */
static int
kw_general_dataerr(struct pstate *ps, const struct kwdef *d)
{
	general_data_errors(ps, d->name);
	return (0);
}

/* general: debug= */
static int
kw_general_debug(struct pstate *ps, const struct kwdef *d)
{
	struct general *g = &ps->m->general;

	(void)d;
	if (ps->it->vals.n != 1 || !ps->it->vals.v[0].is_num)
		return (fail(ps, "'debug=' requires a numeric value"));
	bag_set(&g->bag, "debug", &ps->it->vals);
	return (0);
}

/* general: abort_failed_skew=, a percentage checked at the end of each
 * run (master/intervals.c skew_check) */
static int
kw_general_abortskew(struct pstate *ps, const struct kwdef *d)
{
	const struct pvals *v = &ps->it->vals;

	if (v->n != 1 || !v->v[0].is_num || v->v[0].num <= 0 ||
	    v->v[0].num > 100)
		return (fail(ps, "'%s=' requires one percentage above 0 and "
		    "at most 100", d->msg));
	ps->m->general.abort_failed_skew_pct = v->v[0].num;
	bag_set(&ps->m->general.bag, d->msg, v);
	return (0);
}

/*
 * general: report_run_totals=: no (vdbench's default) is what vdbc does;
 * yes is refused before a run, with the reason (docs/differences.md).
 */
static int
kw_general_runtotals(struct pstate *ps, const struct kwdef *d)
{
	int yes = 0;

	if (yes_no(ps, &yes) != 0)
		return (-1);
	bag_set(&ps->m->general.bag, d->msg, &ps->it->vals);
	if (!yes)
		return (0);
	note(ps, "vdbc: report_run_totals=yes: vdbench's extra run total "
	    "lines are in none of the reference outputs, so vdbc cannot write "
	    "them as vdbench does; totals.html has each run's avg line");
	unbuilt(ps, "report_run_totals=yes");
	return (0);
}

/* general: unix2windows= */
static int
kw_general_unix2win(struct pstate *ps, const struct kwdef *d)
{
	struct general *g = &ps->m->general;

	(void)d;
	if (ps->it->vals.n != 2)
		return (fail(ps, "'unix2windows=' requires exactly two "
		    "values: (unixprefix,windowsprefix)"));
	bag_set(&g->bag, "unix2windows", &ps->it->vals);
	return (0);
}

/*
 * general: showlba= (yes: each slave writes <slave>.showlba.txt, one line
 * per I/O: sd, wd, read flag, lba, ms; a debugging trace vdbc does not
 * write, so a run with it stops before it starts).
 */
static int
kw_general_showlba(struct pstate *ps, const struct kwdef *d)
{
	struct general *g = &ps->m->general;
	const char *s = NULL;

	(void)d;
	if (one_str(ps, &s) != 0)
		return (-1);
	if (strncasecmp(s, "y", 1) != 0 && strncasecmp(s, "n", 1) != 0)
		return (fail(ps, "Invalid 'showlba=' value: %s (expected yes "
		    "or no)", s));
	bag_set(&g->bag, "showlba", &ps->it->vals);
	if (strncasecmp(s, "y", 1) == 0)
		unbuilt(ps, "showlba=yes");
	return (0);
}

/* general: report= */
static int
kw_general_report(struct pstate *ps, const struct kwdef *d)
{
	struct general *g = &ps->m->general;

	(void)d;
	return (general_report(ps, g));
}

/* general: messagescan= */
static int
kw_general_msgscan(struct pstate *ps, const struct kwdef *d)
{
	struct general *g = &ps->m->general;

	(void)d;
	return (general_msgscan(ps, g));
}

/*
 * general: journal= (Validate.java:376-419): no, yes, recover, noflush,
 * maponly, only (= recover and stop); any but no implies validate=yes.
 * skip_read_all, ignore_pending and max= are not built yet.
 */
static int
kw_general_journal(struct pstate *ps, const struct kwdef *d)
{
	static const char *const ok[] = { "no", "yes", "recover", "noflush",
	    "maponly", "only", NULL };
	static const int bits[] = { 0, JOURNAL_ON, JOURNAL_ON |
	    JOURNAL_RECOVER, JOURNAL_ON | JOURNAL_NOFLUSH, JOURNAL_ON |
	    JOURNAL_MAPONLY, JOURNAL_ON | JOURNAL_RECOVER | JOURNAL_ONLY };
	struct general *g = &ps->m->general;
	int i, k;

	(void)d;
	for (i = 0; i < ps->it->vals.n; i++) {
		const char *w = ps->it->vals.v[i].str;

		if (ps->it->vals.v[i].is_num)
			return (fail(ps, "Unknown keyword value for "
			    "'journal=': %s", w));
		for (k = 0; ok[k] != NULL; k++)
			if (strcasecmp(ok[k], w) == 0)
				break;
		if (ok[k] != NULL) {
			g->journal |= bits[k];
			continue;
		}
		if (strcasecmp(w, "skip_read_all") == 0)
			unbuilt(ps, "journal=skip_read_all");
		else if (strcasecmp(w, "ignore_pending") == 0)
			unbuilt(ps, "journal=ignore_pending");
		else if (strncasecmp(w, "max=", 4) == 0)
			unbuilt(ps, "journal=max=");
		else
			return (fail(ps, "Unknown keyword value for "
			    "'journal=': %s", w));
		g->journal |= JOURNAL_ON;
	}
	if (g->journal != 0)
		g->validate |= VALIDATE_ON;
	bag_set(&g->bag, "journal", &ps->it->vals);
	return (0);
}

/* general: validate= */
static int
kw_general_validate(struct pstate *ps, const struct kwdef *d)
{
	struct general *g = &ps->m->general;

	(void)d;
	return (general_validate(ps, g));
}

/* general: histogram= */
static int
kw_general_histogram(struct pstate *ps, const struct kwdef *d)
{
	struct general *g = &ps->m->general;

	(void)d;
	return (general_histogram(ps, g));
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
int
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
		all_strs(ps, &h->mount);
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
