/* SPDX-License-Identifier: MIT */
/*
 * The general parameters and host definitions (PARMFILE.md 4, 5): their
 * keyword tables and handlers.
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

static int	kw_general_cmd(struct pstate *, const struct kwdef *);
static int	kw_general_compratio(struct pstate *, const struct kwdef *);
static int	kw_general_compseed(struct pstate *, const struct kwdef *);
static int	kw_general_dataerr(struct pstate *, const struct kwdef *);
static int	kw_general_debug(struct pstate *, const struct kwdef *);
static int	kw_general_dedup(struct pstate *, const struct kwdef *);
static int	kw_general_formatsds(struct pstate *, const struct kwdef *);
static int	kw_general_formatxfersize(struct pstate *, const struct kwdef *);
static int	kw_general_histogram(struct pstate *, const struct kwdef *);
static int	kw_general_msgscan(struct pstate *, const struct kwdef *);
static int	kw_general_port(struct pstate *, const struct kwdef *);
static int	kw_general_report(struct pstate *, const struct kwdef *);
static int	kw_general_unix2win(struct pstate *, const struct kwdef *);
static int	kw_general_validate(struct pstate *, const struct kwdef *);
static int	kw_general_journal(struct pstate *, const struct kwdef *);

const struct kwdef general_kws[] = {
	{ "compression", EXACT, K_BAG_WARN, 0, NULL, NULL },
	{ "compratio", 2, K_COMPRATIO, 0, NULL, kw_general_compratio },
	{ "compressionseed", 2, K_G_COMPSEED, 0, NULL, kw_general_compseed },
	{ "dedupratio", 2, K_G_DEDUP, 0, NULL, kw_general_dedup },
	{ "dedupunit", 2, K_G_DEDUP, 0, NULL, kw_general_dedup },
	{ "dedupsets", 2, K_G_DEDUP, 0, NULL, kw_general_dedup },
	{ "deduphotsets", 2, K_BAG_WARN, 0, NULL, NULL },
	{ "dedupflipflop", 2, K_BAG_WARN, 0, NULL, NULL },
	{ "dedupacross", 2, K_BAG_WARN, 0, NULL, NULL },
	{ "dedupmaxkey", 2, K_BAG_WARN, 0, NULL, NULL },
	{ "port", 2, K_PORT, 0, NULL, kw_general_port },
	{ "pattern", 2, K_BAG_WARN, 0, NULL, NULL },
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
	{ "heartbeat_error", EXACT, K_NOEFFECT, 0, NULL, NULL },
	{ "debug", EXACT, K_G_DEBUG, 0, NULL, kw_general_debug },
	{ "unix2windows", 2, K_G_UNIX2WIN, 0, NULL, kw_general_unix2win },
	{ "formatxfersize", 2, K_FORMATXFERSIZE, 0, NULL, kw_general_formatxfersize },
	{ "create_anchors", 2, K_NOEFFECT, 0, NULL, NULL },
	{ "formatsds", 2, K_FORMATSDS, 0, NULL, kw_general_formatsds },
	{ "report", 2, K_G_REPORT, 0, NULL, kw_general_report },
	{ "report_run_totals", 2, K_NOEFFECT, 0, NULL, NULL },
	{ "histogram", 2, K_HISTOGRAM, 0, NULL, kw_general_histogram },
	{ "psrset", 2, K_NOEFFECT, 0, NULL, NULL },
	{ "auxreport", 2, K_BAG_WARN, 0, NULL, NULL },
	{ "monitor", 2, K_BAG_WARN, 0, NULL, NULL },
	{ "concatenatesds", 2, K_BAG_WARN, 0, NULL, NULL },
	{ "messagescan", 2, K_G_MSGSCAN, 0, NULL, kw_general_msgscan },
	{ "abort_failed_skew", 2, K_NOEFFECT, 0, NULL, NULL },
	{ "misc", 2, K_NOEFFECT, 0, NULL, NULL },
	{ "pattern_buffer", EXACT, K_NOEFFECT, 0, NULL, NULL },
	{ "showlba", EXACT, K_NOEFFECT, 0, NULL, NULL },
	{ "loop", EXACT, K_BAG_WARN, 0, NULL, NULL },
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
	if (strcmp(name, "dedupratio") == 0)
		g->dedupratio = v->v[0].num;
	else if (strcmp(name, "dedupunit") == 0)
		g->dedupunit_bytes = (uint64_t)v->v[0].num;
	else
		g->dedupsets = v->n >= 1 && v->v[0].is_num &&
		    v->v[0].num != 0 ? v->v[0].num : -5.0;
	return (0);
}

/*
 * data_errors= (or its old spelling dataerrors=, which data_errors=
 * overrides): one number of at least 1, else the default 50.
 */
static void
general_data_errors(struct pstate *ps, const char *name)
{
	struct general *g = &ps->m->general;
	const struct pvals *v = &ps->it->vals;

	if (strcmp(name, "data_errors") == 0 ||
	    bag_get(&g->bag, "data_errors") == NULL)
		g->data_errors = v->n >= 1 && v->v[0].is_num &&
		    v->v[0].num >= 1 ? (int)v->v[0].num : 50;
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

/* messagescan=: yes, no, nodisplay or a number. */
static int
general_msgscan(struct pstate *ps, struct general *g)
{
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

/*
 * validate=yes|no|read_after_write|no_preread (prefix match, vdbench's
 * MiscParms.java); time and ignore_zero_reads are not built yet.
 */
static int
general_validate(struct pstate *ps, struct general *g)
{
	static const char *const ok[] = { "yes", "no",
	    "read_after_write", "no_preread", "time",
	    "ignore_zero_reads", NULL };
	static const int bits[] = { VALIDATE_ON, 0, VALIDATE_ON |
	    VALIDATE_AFTER_WRITE, VALIDATE_ON | VALIDATE_NO_PREREAD,
	    VALIDATE_ON, VALIDATE_ON };
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
		if (k >= 4)
			unbuilt(ps, k == 4 ? "validate=time" :
			    "validate=ignore_zero_reads");
	}
	bag_set(&g->bag, "validate", &ps->it->vals);
	return (0);
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
	if (v < 1)
		return (fail(ps, "'compratio=' must be 1 or more: %s",
		    ps->it->value));
	g->compratio = v;
	return (0);
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

/* general: compressionseed= */
static int
kw_general_compseed(struct pstate *ps, const struct kwdef *d)
{
	struct general *g = &ps->m->general;

	(void)d;
	if (ps->it->vals.n != 1 || (!ps->it->vals.v[0].is_num &&
	    strcasecmp(ps->it->vals.v[0].str, "tod") != 0))
		return (fail(ps, "Invalid 'compressionseed=' parameter: "
		    "%s", ps->it->value));
	unbuilt(ps, "compressionseed=");
	bag_set(&g->bag, "compressionseed", &ps->it->vals);
	return (0);
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
 * general: journal= (MiscParms.java): no is accepted; the journal
 * itself (yes, recover, noflush, maponly, ...) is not built yet.
 */
static int
kw_general_journal(struct pstate *ps, const struct kwdef *d)
{
	int i;

	(void)d;
	for (i = 0; i < ps->it->vals.n; i++) {
		if (strcasecmp(ps->it->vals.v[i].str, "no") != 0) {
			unbuilt(ps, "journal=");
			break;
		}
	}
	bag_set(&ps->m->general.bag, "journal", &ps->it->vals);
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
