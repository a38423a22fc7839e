/* SPDX-License-Identifier: MIT */
/*
 * Entry expansion: count= copies of an sd or fsd, and $host replication
 * of parmfile lines over the host definitions.
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
int
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
int
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
