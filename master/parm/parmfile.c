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

#include "fstree.h"
#include "html.h"
#include "model_fields.h"
#include "mtime.h"
#include "xmalloc.h"
#include "parmyaml.h"
#include "plan.h"
#include "parm_int.h"

const char *const sec_names[SEC_N] = {
	"general", "hd", "rg", "fsd", "sd", "wd", "fwd", "rd",
};

const struct kwdef *const sec_tables[SEC_N] = {
	general_kws, hd_kws, rg_kws, fsd_kws, sd_kws, wd_kws, fwd_kws, rd_kws,
};

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


/*
 * Whether host= pattern names hd: by its label, or with clients=N by the
 * labels of its clones, <name>_cl0 ... (vdbench's HostParms renames the
 * hd itself to _cl0, so its bare name no longer selects it).
 */
static int
hd_label_matches(const char *pat, const struct hd *hd)
{
	char label[80];
	int c;

	if (hd->clients <= 0)
		return (name_matches(pat, hd->name));
	for (c = 0; c < hd->clients; c++) {
		snprintf(label, sizeof(label), "%s_cl%d", hd->name, c);
		if (name_matches(pat, label))
			return (1);
	}
	return (0);
}

/* Check and close the entry being built. */
static int
finish_entry(struct pstate *ps)
{
	if (ps->sec == SEC_GENERAL && check_general_dedup(ps) != 0)
		return (-1);
	if (ps->sec == SEC_HD && ps->hd != NULL && !ps->is_default &&
	    !ps->hd_sys_checked && ps->opts->host_exists != NULL) {
		const char *sys = ps->hd->system != NULL ? ps->hd->system :
		    ps->hd->name;

		if (strncmp(sys, "localhost", 9) != 0 &&
		    !ps->opts->host_exists(sys))
			return (fail(ps, "Host '%s' does not exist", sys));
	}
	if (ps->sec == SEC_HD && ps->hd != NULL && !ps->is_default &&
	    ps->hd->shell == NULL) {
		const char *sys = ps->hd->system != NULL ? ps->hd->system :
		    ps->hd->name;

		/* vdbench's Host.host_shell is "rsh" unless shell= says;
		 * said once for all of them (noshell_note) */
		if (strncmp(sys, "localhost", 9) != 0 &&
		    strncmp(sys, "127.", 4) != 0 && strcmp(sys, "::1") != 0)
			strlist_add(&ps->noshell, ps->hd->name);
	}
	if (ps->sec == SEC_SD && ps->sd != NULL && sd_pair_luns(ps) != 0)
		return (-1);
	if (ps->sec == SEC_SD && ps->sd != NULL && !ps->is_default) {
		int i;

		for (i = 0; i < ps->sd->nluns; i++) {
			const char *h = ps->sd->luns[i].host;
			const struct hd *hd;
			int found = 0;

			if (strcmp(h, "*") == 0)
				continue;
			TAILQ_FOREACH(hd, &ps->m->hds, entry)
				found |= hd_label_matches(h, hd);
			if (TAILQ_EMPTY(&ps->m->hds))
				found = name_matches(h, "localhost");
			if (!found)
				return (fail(ps, "Could not find host=%s", h));
		}
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
	sd_pairs_clear(ps);
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
		return (open_rg(ps));
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

/* Look a keyword up in a table: the first prefix match wins. */
const struct kwdef *
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
	case K_NOEFFECT:
		if (d->id == K_NOEFFECT) {
			/* a handler checks the value and keeps it */
			if (d->fn != NULL && d->fn(ps, d) != 0)
				return (-1);
			noeffect(ps, d->name, d->msg);
			if (d->fn != NULL)
				return (0);
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
	if (d->fn != NULL)
		return (d->fn(ps, d));
	if (ps->sec == SEC_HD)
		return (do_hd(ps, d));
	return (fail(ps, "internal: unhandled %s keyword %s",
	    sec_names[ps->sec], d->name));
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
	if (m->general.pattern != NULL && !TAILQ_EMPTY(&m->fsds))
		/* the slave refuses it too */
		strlist_add(&m->unbuilt, "'pattern=' with fsd= file-system "
		    "workloads (vdbc's file-system writes take compratio= "
		    "and compressionseed= only)");
	if (m->general.dedupratio > 0 && !TAILQ_EMPTY(&m->fsds))
		/* accepted, vdbc's fsd writes would all be unique blocks */
		strlist_add(&m->unbuilt, "'dedupratio=' with fsd= file-system "
		    "workloads (vdbench writes duplicate blocks there, "
		    "Dedup.dedupFsdBlock; vdbc's file-system writes take "
		    "compratio= and compressionseed= only)");
	if (bag_get(&m->general.bag, "concatenatesds") != NULL &&
	    m->general.formatsds == 1)
		return (fail(ps, "The 'formatsds=' and 'concatenatesds' "
		    "parameters are mutually exclusive."));
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
		} else if (r->iorate_n == 0 && bag_get(&r->bag, "replay") ==
		    NULL)
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
/* The remote hds without shell=, in one line (8 named, then a count). */
static void
noshell_note(struct pstate *ps)
{
	char list[600];
	size_t len = 0;
	int i;

	if (ps->noshell.n == 0)
		return;
	list[0] = '\0';
	for (i = 0; i < ps->noshell.n && i < 8; i++) {
		int w = snprintf(list + len, sizeof(list) - len, "%shd=%s",
		    i > 0 ? ", " : "", ps->noshell.v[i]);

		if (w < 0 || (size_t)w >= sizeof(list) - len)
			break;
		len += (size_t)w;
	}
	if (ps->noshell.n > 8)
		snprintf(list + len, sizeof(list) - len, " and %d more",
		    ps->noshell.n - 8);
	note(ps, "%s %s no 'shell=': vdbench starts a remote host's slaves "
	    "with rsh, vdbc with ssh (shell=rsh or shell=ssh chooses)", list,
	    ps->noshell.n == 1 ? "has" : "have");
}

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
	noshell_note(&ps);
	*out = ps.m;
	ps.m = NULL;
	rc = 0;
out:
	sd_pairs_clear(&ps);
	strlist_clear(&ps.noshell);
	strlist_clear(&ps.sd_def_hosts);
	strlist_clear(&ps.rgs);
	model_free(ps.m);
	hd_free(ps.hd_def);
	sd_free(ps.sd_def);
	wd_free(ps.wd_def);
	rd_free(ps.rd_def);
	fsd_free(ps.fsd_def);
	fwd_free(ps.fwd_def);
	return (rc);
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

/* Every keyword of every section with what it does (the tables above). */
void
parmfile_keywords(void (*fn)(void *arg, const char *section,
    const char *kw, enum parm_kw_kind kind), void *arg)
{
	const struct kwdef *d;
	enum parm_kw_kind k;
	int sec;

	for (sec = 0; sec < SEC_N; sec++) {
		for (d = sec_tables[sec]; d != NULL && d->name != NULL; d++) {
			switch (d->id) {
			case K_BAG:
				k = PARM_KW_BAG;
				break;
			case K_BAG_WARN:
				k = PARM_KW_UNBUILT;
				break;
			case K_NOEFFECT:
				k = PARM_KW_NOEFFECT;
				break;
			case K_REJECT:
				k = PARM_KW_REJECT;
				break;
			default:
				k = PARM_KW_TYPED;
				break;
			}
			fn(arg, sec_names[sec], d->name, k);
		}
	}
}
