/* SPDX-License-Identifier: MIT */
/*
 * vdbc compare (compare.h): like vdbench's compare tool, without the GUI.
 * Runs match on "name for-loops"; a name that occurs more than once with
 * the same for-loops matches by its order among them.
 */
#include "compare.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "html.h"
#include "ofile.h"
#include "runtable.h"
#include "xmalloc.h"

#define CMP_DEFAULT_THRESHOLD	5.0

/* The columns compared; better: +1 when higher is better, -1 lower. */
static const struct cmp_metric {
	const char	*label;
	size_t		 off;
	int		 better;
	int		 decimals;
} metrics[] = {
	{ "rate", offsetof(struct rt_run, rate), 1, 1 },
	{ "MB/s", offsetof(struct rt_run, mbps), 1, 2 },
	{ "resp ms", offsetof(struct rt_run, resp_ms), -1, 3 },
	{ "p99 ms", offsetof(struct rt_run, p99), -1, 3 },
	{ "p99.99 ms", offsetof(struct rt_run, p9999), -1, 3 },
	{ "cpu%", offsetof(struct rt_run, cpu), -1, 1 },
};
#define NMETRICS	(sizeof(metrics) / sizeof(metrics[0]))

struct cmp_args {
	const char	*old, *new;
	const char	*outdir;
	double		 threshold;
};

/* One matched (or unmatched: -1) pair of runs. */
struct cmp_pair {
	int	o, n;
};

static double
mval(const struct rt_run *r, const struct cmp_metric *m)
{
	return (*(const double *)(const void *)((const char *)r + m->off));
}

/*
 * The change from a to b in %; *verdict +1 better, -1 worse beyond the
 * threshold, 0 otherwise. NAN when either side has no value.
 */
static double
delta(double a, double b, const struct cmp_metric *m, double thr,
    int *verdict)
{
	double d;

	*verdict = 0;
	if (isnan(a) || isnan(b))
		return (NAN);
	if (a == 0)
		d = b == 0 ? 0 : (b > 0 ? INFINITY : -INFINITY);
	else
		d = (b - a) / fabs(a) * 100.0;
	if (fabs(d) > thr)
		*verdict = (d > 0 ? 1 : -1) * m->better;
	return (d);
}

static int
usage(const char *why)
{
	fprintf(stderr, "vdbc compare: %s\nusage: vdbc compare OLD NEW [-o "
	    "DIR] [--threshold PCT]\n  OLD, NEW: output directories (vdbc's "
	    "or vdbench's); DIR (default 'compare') gets compare.html;\n  "
	    "changes above PCT %% (default %.0f) are marked better or worse."
	    "\n", why, CMP_DEFAULT_THRESHOLD);
	return (2);
}

static int
parse_args(int argc, char *argv[], struct cmp_args *a)
{
	const char *thr = NULL;
	char *end;
	int i;

	a->outdir = "compare";
	a->threshold = CMP_DEFAULT_THRESHOLD;
	for (i = 2; i < argc; i++) {
		if (strcmp(argv[i], "-o") == 0 && i + 1 < argc)
			a->outdir = argv[++i];
		else if (strcmp(argv[i], "--threshold") == 0 && i + 1 < argc)
			thr = argv[++i];
		else if (strncmp(argv[i], "--threshold=", 12) == 0)
			thr = argv[i] + 12;
		else if (argv[i][0] == '-')
			return (usage("unknown option"));
		else if (a->old == NULL)
			a->old = argv[i];
		else if (a->new == NULL)
			a->new = argv[i];
		else
			return (usage("more than two directories"));
	}
	if (a->new == NULL)
		return (usage("two output directories are needed"));
	if (thr != NULL) {
		a->threshold = strtod(thr, &end);
		if (*thr == '\0' || *end != '\0' || !(a->threshold >= 0) ||
		    a->threshold > 1e6) {
			fprintf(stderr, "vdbc compare: invalid value for "
			    "'--threshold': '%s' (expected a percentage, 0 or "
			    "more, such as 5 or 2.5)\n", thr);
			return (2);
		}
	}
	return (0);
}

/* Pair the runs of o and n; returns the pairs (old order, then new-only). */
static struct cmp_pair *
match(const struct rt_dir *o, const struct rt_dir *n, int *np)
{
	struct cmp_pair *p = xcalloc((size_t)(o->n + n->n) + 1, sizeof(*p));
	char *used = xcalloc((size_t)n->n + 1, 1);
	char ka[1024], kb[1024];
	int i, j, cnt = 0;

	for (i = 0; i < o->n; i++) {
		if (runtable_is_format(&o->runs[i]))
			continue;	/* shown apart: fmt_text, fmt_html */
		runtable_key(&o->runs[i], ka, sizeof(ka));
		p[cnt].o = i;
		p[cnt].n = -1;
		for (j = 0; j < n->n; j++) {
			if (runtable_is_format(&n->runs[j]))
				continue;
			runtable_key(&n->runs[j], kb, sizeof(kb));
			if (!used[j] && strcmp(ka, kb) == 0) {
				used[j] = 1;
				p[cnt].n = j;
				break;
			}
		}
		cnt++;
	}
	for (j = 0; j < n->n; j++) {
		if (!used[j] && !runtable_is_format(&n->runs[j])) {
			p[cnt].o = -1;
			p[cnt++].n = j;
		}
	}
	free(used);
	*np = cnt;
	return (p);
}

static void
fmt_delta(char *buf, size_t len, double d)
{
	if (isnan(d))
		snprintf(buf, len, "%s", "");
	else if (isinf(d))
		snprintf(buf, len, "%s", d > 0 ? "+inf" : "-inf");
	else
		snprintf(buf, len, "%+.1f%%", d);
}

/* Counters for the last line. */
struct cmp_count {
	int	matched, only_old, only_new, better, worse;
	int	unjudged;	/* pairs with a stopped or corrupted side */
	int	differ;		/* inputs that differ, the seed aside */
};

/*
 * Why a run's numbers cannot be called better or worse than another's:
 * it found corrupted data, had I/O errors, stopped (or was killed) or has
 * no average. Its text into buf; 0 when none of these.
 */
static int
run_flaw(const struct rt_run *r, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	if (r->corrupt > 0)
		n += (size_t)snprintf(buf + n, len - n, "found corrupted data "
		    "(%lld data block%s)", r->corrupt, r->corrupt == 1 ? "" :
		    "s");
	if (r->errors > 0 && n < len)
		n += (size_t)snprintf(buf + n, len - n, "%shad %lld I/O "
		    "error%s", n > 0 ? ", " : "", r->errors, r->errors == 1 ?
		    "" : "s");
	if (strcmp(r->status, "completed") != 0 && n < len)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", n > 0 ? ", " :
		    "", r->killed ? "was killed (no end recorded)" :
		    r->status);
	return (n > 0);
}

/* Both sides' flaws as "OLD ...; NEW ..." into buf; 0 when none. */
static int
pair_flaw(const struct rt_run *ro, const struct rt_run *rn, char *buf,
    size_t len)
{
	char a[512], b[512];
	int fo = run_flaw(ro, a, sizeof(a)), fn = run_flaw(rn, b, sizeof(b));

	snprintf(buf, len, "%s%s%s%s%s", fo ? "OLD " : "", fo ? a : "",
	    fo && fn ? "; " : "", fn ? "NEW " : "", fn ? b : "");
	return (fo || fn);
}

#define CMP_MAXPARM	20	/* parmfile lines listed each way */

struct cmp_lines {
	char	**v;
	int	  n;
};

static void
lines_add(struct cmp_lines *l, char *s)
{
	l->v = xreallocarray(l->v, (size_t)l->n + 1, sizeof(*l->v));
	l->v[l->n++] = s;
}

static void
lines_free(struct cmp_lines *l)
{
	int i;

	for (i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
}

static int
has_line(const struct rt_dir *d, const char *s)
{
	int i;

	for (i = 0; i < d->nparm; i++) {
		if (strcmp(d->parm[i], s) == 0)
			return (1);
	}
	return (0);
}

/* One input that differs: "what: OLD a, NEW b" when a and b differ. */
static int
input_pair(struct cmp_lines *l, const char *what, const char *a,
    const char *b)
{
	char *t;

	if (strcmp(a, b) == 0)
		return (0);
	xasprintf(&t, "%s: OLD %s, NEW %s", what, a[0] != '\0' ? a :
	    "(none)", b[0] != '\0' ? b : "(none)");
	lines_add(l, t);
	return (1);
}

/* The parmfile lines of a that b lacks, as "side: line". */
static int
parm_only(struct cmp_lines *l, const struct rt_dir *a,
    const struct rt_dir *b, const char *side)
{
	int i, cnt = 0;
	char *t;

	for (i = 0; i < a->nparm; i++) {
		if (has_line(b, a->parm[i]))
			continue;
		if (cnt++ < CMP_MAXPARM)
			xasprintf(&t, "parmfile, only %s: %s", side,
			    a->parm[i]);
		else
			continue;
		lines_add(l, t);
	}
	if (cnt > CMP_MAXPARM) {
		xasprintf(&t, "parmfile, only %s: %d more lines", side, cnt -
		    CMP_MAXPARM);
		lines_add(l, t);
	}
	return (cnt);
}

/*
 * What differs in the inputs of o and n: version, seed, the command-line
 * options (-v, -j, -m, -e, -i, -w, ...), the hosts and their slaves,
 * the substitutions, the resolved parmfile's lines (either side's
 * parmfile when the other has none is not a difference worth a line
 * each). The number of differences other than the seed: a new seed
 * repeats the workload with other random draws, the rest changes it.
 */
static int
inputs_diff(const struct rt_dir *o, const struct rt_dir *n,
    struct cmp_lines *l)
{
	int cnt = 0;

	cnt += input_pair(l, "version", o->version, n->version);
	if (o->seed[0] != '\0' && n->seed[0] != '\0')
		input_pair(l, "seed", o->seed, n->seed);
	cnt += input_pair(l, "options", o->options, n->options);
	if (o->hosts[0] != '\0' && n->hosts[0] != '\0')
		cnt += input_pair(l, "hosts", o->hosts, n->hosts);
	cnt += input_pair(l, "substitutions", o->subst, n->subst);
	if (o->nparm > 0 && n->nparm > 0) {
		cnt += parm_only(l, o, n, "OLD");
		cnt += parm_only(l, n, o, "NEW");
	}
	return (cnt);
}

/* The words that mark a comparison of different inputs. */
#define CMP_DIFFER_TEXT	"DIFFERENT INPUTS: OLD and NEW did not run the " \
	"same workload the same way (listed above); a change may come from " \
	"them, not from the system under test"
#define CMP_NONE_TEXT	" none (version, options, hosts, substitutions, " \
	"parmfile; the seed aside)"

/*
 * A console line of texts read from the directories (paths, statuses,
 * outcomes, run names): control characters shown as '?', so a hostile
 * results.json or status.html cannot drive the terminal.
 */
static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void
say(const char *fmt, ...)
{
	va_list ap;
	char *t;

	va_start(ap, fmt);
	if (vasprintf(&t, fmt, ap) < 0)
		t = NULL;
	va_end(ap);
	if (t == NULL)
		return;
	fputs(text_clean(t, 1), stdout);
	free(t);
}

/*
 * The format runs of d (SD_format, format_for_...), apart: they prepare
 * the luns, their size and rate are not the workload's, so they are not
 * compared. The number listed.
 */
static int
fmt_text(const struct rt_dir *d, const char *side)
{
	char key[1024], rate[64], mbps[64];
	int i, cnt = 0;

	for (i = 0; i < d->n; i++) {
		const struct rt_run *r = &d->runs[i];

		if (!runtable_is_format(r))
			continue;
		if (cnt++ == 0)
			say("\nformat runs in %s (not compared):\n", side);
		runtable_key(r, key, sizeof(key));
		text_clean(key, 0);
		runtable_fmt(rate, sizeof(rate), r->rate, 1);
		runtable_fmt(mbps, sizeof(mbps), r->mbps, 2);
		say("  %s: rate %s, MB/s %s\n", key, rate, mbps);
	}
	return (cnt);
}

/* The console: one block per run, one line per metric. */
static void
print_text(const struct rt_dir *o, const struct rt_dir *n,
    const struct cmp_pair *p, int np, double thr, struct cmp_count *c)
{
	int colour = isatty(STDOUT_FILENO) && getenv("NO_COLOR") == NULL;
	char key[1024], a[64], b[64], d[64], flaw[1100];
	size_t k;
	int i, fl;

	say("vdbc compare: OLD %s (%s), NEW %s (%s)\n", o->path, o->kind,
	    n->path, n->kind);
	if (o->outcome[0] != '\0')
		say("OLD %s\n", o->outcome);
	if (n->outcome[0] != '\0')
		say("NEW %s\n", n->outcome);
	{
		struct cmp_lines l = { NULL, 0 };
		int j;

		c->differ = inputs_diff(o, n, &l);
		say("Inputs that differ:%s\n", l.n == 0 ? CMP_NONE_TEXT : "");
		for (j = 0; j < l.n; j++) {
			text_clean(l.v[j], 0);
			say("  %s\n", l.v[j]);
		}
		lines_free(&l);
		if (c->differ > 0)
			printf("%s%s%s\n", colour ? "\033[1;33m" : "",
			    CMP_DIFFER_TEXT, colour ? "\033[0m" : "");
	}
	say("changes above %.1f%% are marked better or worse\n", thr);
	for (i = 0; i < np; i++) {
		const struct rt_run *ro = p[i].o >= 0 ? &o->runs[p[i].o] : NULL;
		const struct rt_run *rn = p[i].n >= 0 ? &n->runs[p[i].n] : NULL;

		runtable_key(ro != NULL ? ro : rn, key, sizeof(key));
		text_clean(key, 0);
		if (ro == NULL || rn == NULL) {
			say("\n%s: only in %s\n", key, ro != NULL ? "OLD" :
			    "NEW");
			if (ro != NULL)
				c->only_old++;
			else
				c->only_new++;
			continue;
		}
		c->matched++;
		say("\n%s\n", key);
		if (strcmp(ro->status, "completed") != 0)
			say("  OLD: %s\n", ro->status);
		if (strcmp(rn->status, "completed") != 0)
			say("  NEW: %s\n", rn->status);
		if ((fl = pair_flaw(ro, rn, flaw, sizeof(flaw))) != 0) {
			c->unjudged++;
			say("  not judged better or worse: %s\n", flaw);
		}
		say("  %-10s %14s %14s %9s\n", "", "OLD", "NEW", "change");
		for (k = 0; k < NMETRICS; k++) {
			const struct cmp_metric *m = &metrics[k];
			double va = mval(ro, m), vb = mval(rn, m), dd;
			int v;

			if (isnan(va) && isnan(vb))
				continue;
			dd = delta(va, vb, m, thr, &v);
			if (fl)
				v = 0;
			runtable_fmt(a, sizeof(a), va, m->decimals);
			runtable_fmt(b, sizeof(b), vb, m->decimals);
			fmt_delta(d, sizeof(d), dd);
			if (v > 0)
				c->better++;
			else if (v < 0)
				c->worse++;
			printf("  %-10s %14s %14s %s%9s%s%s\n", m->label, a, b,
			    colour && v != 0 ? (v > 0 ? "\033[32m" :
			    "\033[31m") : "", d, colour && v != 0 ? "\033[0m" :
			    "", v > 0 ? "  better" : v < 0 ? "  worse" : "");
		}
	}
	fmt_text(o, "OLD");
	fmt_text(n, "NEW");
	say("\n%d runs matched, %d changes above %.1f%% (%d better, %d "
	    "worse), %d only in OLD, %d only in NEW\n", c->matched,
	    c->better + c->worse, thr, c->better, c->worse, c->only_old,
	    c->only_new);
	if (c->unjudged > 0)
		say("%d matched run%s not judged: a side stopped, was killed, "
		    "found corrupted data or had I/O errors\n", c->unjudged,
		    c->unjudged == 1 ? "" : "s");
	if (c->differ > 0)
		say("the inputs differ (%d difference%s besides the seed): not "
		    "a like-for-like comparison\n", c->differ, c->differ == 1 ?
		    "" : "s");
}

/* A link to a run in its directory's summary.html, from outdir. */
static void
html_link(FILE *f, const char *outdir, const struct rt_dir *d,
    const struct rt_run *r, const char *text)
{
	char *rel = runtable_url(outdir, d->path, "summary.html");

	fputs("<a href=\"", f);
	html_put(f, rel);
	if (r->anchor[0] != '\0') {
		fputc('#', f);
		html_put(f, r->anchor);
	}
	fputs("\">", f);
	html_put(f, text);
	fputs("</a>", f);
	free(rel);
}

static void
html_head(FILE *f, const struct rt_dir *o, const struct rt_dir *n,
    const char *outdir, double thr, const struct cmp_count *c)
{
	char *ro = runtable_url(outdir, o->path, "summary.html");
	char *rn = runtable_url(outdir, n->path, "summary.html");
	size_t k;

	fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
	    "<title>vdbc compare</title>\n<style>\nbody{font-family:sans-serif;"
	    "font-size:13px;margin:16px}\ntable{border-collapse:collapse}\n"
	    "th,td{border:1px solid #ccc;padding:3px 6px}\ntd.v{text-align:"
	    "right;font-family:monospace}\nth{background:#eee}\ntr.sub th"
	    "{font-weight:normal;font-size:11px}\ntd.better{background:"
	    "#c8f0c8}\ntd.worse{background:#f6c6c6}\ntd.only{color:#888;"
	    "font-style:italic}\n.stop{color:#c00}\np.differ{background:"
	    "#fff3c4;border:2px solid #d9a400;padding:6px;font-weight:bold}\n"
	    "small.unjudged{color:#a15c00;font-weight:bold}\n.g{border-left:2px solid #777}\n</style></head>"
	    "<body>\n<h2>vdbc compare"
	    "</h2>\n<p>OLD: <a href=\"", f);
	html_put(f, ro);
	fputs("\">", f);
	html_put(f, o->path);
	fprintf(f, "</a> (%s", o->kind);
	if (o->started[0] != '\0') {
		fputs(", ", f);
		html_put(f, o->started);
	}
	fputs(")", f);
	if (o->outcome[0] != '\0') {
		fputs(" <b class=stop>", f);
		html_put(f, o->outcome);
		fputs("</b>", f);
	}
	fputs("<br>NEW: <a href=\"", f);
	html_put(f, rn);
	fputs("\">", f);
	html_put(f, n->path);
	fprintf(f, "</a> (%s", n->kind);
	if (n->started[0] != '\0') {
		fputs(", ", f);
		html_put(f, n->started);
	}
	fputs(")", f);
	if (n->outcome[0] != '\0') {
		fputs(" <b class=stop>", f);
		html_put(f, n->outcome);
		fputs("</b>", f);
	}
	{
		struct cmp_lines l = { NULL, 0 };
		int j;

		inputs_diff(o, n, &l);
		fprintf(f, "<br><b>Inputs that differ:</b>%s", l.n == 0 ?
		    CMP_NONE_TEXT : "");
		if (l.n > 0)
			fputs("</p>\n<ul class=inputs>\n", f);
		for (j = 0; j < l.n; j++) {
			fputs("<li><code>", f);
			html_put(f, l.v[j]);
			fputs("</code></li>\n", f);
		}
		fputs(l.n > 0 ? "</ul>\n<p>" : "<br>", f);
		lines_free(&l);
		if (c->differ > 0)
			fprintf(f, "</p>\n<p class=differ id=different-inputs>"
			    "%s.</p>\n<p>", CMP_DIFFER_TEXT);
	}
	fprintf(f, "Changes above %.1f%% are coloured: <span style=\""
	    "background:#c8f0c8\">better</span>, <span style=\"background:"
	    "#f6c6c6\">worse</span> (higher is better for rate and MB/s, "
	    "lower for response times and cpu); a run that stopped, was "
	    "killed, found corrupted data or had I/O errors is never called "
	    "either.</p>\n<p><b>%d runs matched, "
	    "%d changes above %.1f%% (%d better, %d worse), %d only in OLD, "
	    "%d only in NEW", thr, c->matched, c->better +
	    c->worse, thr, c->better, c->worse, c->only_old, c->only_new);
	if (c->unjudged > 0)
		fprintf(f, "; %d not judged (a side stopped, was killed, found "
		    "corrupted data or had I/O errors)", c->unjudged);
	fputs(".</b></p>\n<table>\n<tr><th rowspan=2>run</th>"
	    "<th rowspan=2>for loops</th>", f);
	for (k = 0; k < NMETRICS; k++)
		fprintf(f, "<th class=g colspan=3>%s</th>", metrics[k].label);
	fputs("</tr>\n<tr class=sub>", f);
	for (k = 0; k < NMETRICS; k++)
		fputs("<th class=g>OLD</th><th>NEW</th><th>change</th>", f);
	fputs("</tr>\n", f);
	free(ro);
	free(rn);
}

/* One row of compare.html. */
static void
html_row(FILE *f, const char *outdir, const struct rt_dir *o,
    const struct rt_dir *n, const struct cmp_pair *p, double thr)
{
	const struct rt_run *ro = p->o >= 0 ? &o->runs[p->o] : NULL;
	const struct rt_run *rn = p->n >= 0 ? &n->runs[p->n] : NULL;
	const struct rt_run *r = ro != NULL ? ro : rn;
	char a[64], b[64], d[64], flaw[1100];
	size_t k;
	int fl = 0;

	fputs("<tr><td>", f);
	if (ro != NULL)
		html_link(f, outdir, o, ro, r->name);
	else
		html_put(f, r->name);
	if (ro != NULL && rn != NULL) {
		fputs(" (", f);
		html_link(f, outdir, n, rn, "new");
		fputs(")", f);
	}
	if (ro != NULL && strcmp(ro->status, "completed") != 0) {
		fputs("<br><small class=stop>OLD: ", f);
		html_put(f, ro->status);
		fputs("</small>", f);
	}
	if (rn != NULL && strcmp(rn->status, "completed") != 0) {
		fputs("<br><small class=stop>NEW: ", f);
		html_put(f, rn->status);
		fputs("</small>", f);
	}
	if (ro != NULL && rn != NULL && (fl = pair_flaw(ro, rn, flaw,
	    sizeof(flaw))) != 0) {
		fputs("<br><small class=unjudged>not judged: ", f);
		html_put(f, flaw);
		fputs("</small>", f);
	}
	fputs("</td><td>", f);
	html_put(f, r->for_loops);
	fputs("</td>", f);
	if (ro == NULL || rn == NULL) {
		fprintf(f, "<td class=only colspan=%d>only in %s</td></tr>\n",
		    (int)NMETRICS * 3, ro != NULL ? "OLD" : "NEW");
		return;
	}
	for (k = 0; k < NMETRICS; k++) {
		const struct cmp_metric *m = &metrics[k];
		double va = mval(ro, m), vb = mval(rn, m), dd;
		int v;

		dd = delta(va, vb, m, thr, &v);
		if (fl)
			v = 0;
		runtable_fmt(a, sizeof(a), va, m->decimals);
		runtable_fmt(b, sizeof(b), vb, m->decimals);
		fmt_delta(d, sizeof(d), dd);
		fprintf(f, "<td class=\"v g\">%s</td><td class=v>%s</td><td class=\"v"
		    "%s\">%s</td>", a, b, v > 0 ? " better" : v < 0 ? " worse" :
		    "", d);
	}
	fputs("</tr>\n", f);
}

/* compare.html's list of format runs (see fmt_text). */
static void
fmt_html(FILE *f, const char *outdir, const struct rt_dir *d,
    const char *side)
{
	char rate[64], mbps[64];
	int i, cnt = 0;

	for (i = 0; i < d->n; i++) {
		const struct rt_run *r = &d->runs[i];

		if (!runtable_is_format(r))
			continue;
		if (cnt++ == 0)
			fprintf(f, "<p>Format runs in %s (not compared: they "
			    "prepare the luns):</p>\n<ul>\n", side);
		runtable_fmt(rate, sizeof(rate), r->rate, 1);
		runtable_fmt(mbps, sizeof(mbps), r->mbps, 2);
		fputs("<li>", f);
		html_link(f, outdir, d, r, r->name);
		fputc(' ', f);
		html_put(f, r->for_loops);
		fprintf(f, ": rate %s, MB/s %s</li>\n", rate, mbps);
	}
	if (cnt > 0)
		fputs("</ul>\n", f);
}

static int
write_html(const struct cmp_args *a, const struct rt_dir *o,
    const struct rt_dir *n, const struct cmp_pair *p, int np,
    const struct cmp_count *c, char **pathp, struct errmsg *e)
{
	char *path;
	FILE *f;
	int i;

	if (runtable_mkdirs(a->outdir, e) != 0)
		return (-1);
	xasprintf(&path, "%s/compare.html", a->outdir);
	*pathp = path;
	if ((f = ofile_fopen(path)) == NULL) {
		errmsg_set(e, NULL, 0, 0, "cannot write %s: %s", path,
		    strerror(errno));
		return (-1);
	}
	html_head(f, o, n, a->outdir, a->threshold, c);
	for (i = 0; i < np; i++)
		html_row(f, a->outdir, o, n, &p[i], a->threshold);
	fputs("</table>\n", f);
	fmt_html(f, a->outdir, o, "OLD");
	fmt_html(f, a->outdir, n, "NEW");
	fprintf(f, "<p>%d runs matched, %d changes above %.1f%% "
	    "(%d better, %d worse), %d only in OLD, %d only in NEW.</p>\n",
	    c->matched, c->better + c->worse,
	    a->threshold, c->better, c->worse, c->only_old, c->only_new);
	if (c->differ > 0)
		fprintf(f, "<p class=differ>The inputs differ (%d difference%s "
		    "besides the seed): not a like-for-like comparison.</p>\n",
		    c->differ, c->differ == 1 ? "" : "s");
	fputs("</body></html>\n", f);
	return (runtable_fclose(f, path, e));
}

int
compare_main(int argc, char *argv[])
{
	struct rt_dir o, n;
	struct cmp_args a;
	struct cmp_count c;
	struct cmp_pair *p = NULL;
	struct errmsg e;
	char buf[2048], *path = NULL;
	int rc, np = 0;

	memset(&a, 0, sizeof(a));
	memset(&c, 0, sizeof(c));
	memset(&o, 0, sizeof(o));
	memset(&n, 0, sizeof(n));
	errmsg_clear(&e);
	if ((rc = parse_args(argc, argv, &a)) != 0)
		return (rc);
	rc = 1;
	if (runtable_read(a.old, &o, &e) != 0 ||
	    runtable_read(a.new, &n, &e) != 0)
		goto out;
	/* a bad -o before the table, not after it */
	if (runtable_mkdirs(a.outdir, &e) != 0)
		goto out;
	{
		struct stat st;

		if (stat(a.outdir, &st) == 0 && !S_ISDIR(st.st_mode))
			errno = ENOTDIR;
		else if (access(a.outdir, W_OK | X_OK) == 0)
			errno = 0;
		if (errno != 0) {
			errmsg_set(&e, NULL, 0, 0, "cannot write into '%s': "
			    "%s", a.outdir, strerror(errno));
			goto out;
		}
	}
	p = match(&o, &n, &np);
	print_text(&o, &n, p, np, a.threshold, &c);
	if (write_html(&a, &o, &n, p, np, &c, &path, &e) != 0)
		goto out;
	printf("compare.html: %s\n", path);
	rc = 0;
out:
	if (rc != 0) {
		errmsg_str(&e, buf, sizeof(buf));
		fprintf(stderr, "vdbc compare: %s\n", text_clean(buf, 0));
	}
	free(path);
	free(p);
	runtable_free(&o);
	runtable_free(&n);
	return (rc);
}
