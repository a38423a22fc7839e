/* SPDX-License-Identifier: MIT */
/*
 * vdbc index (index.h). The page carries its data in the table itself;
 * a small inline script sorts it by the column clicked (numbers by the
 * cell's data-v, n/a last) and filters rows by a text; "#sort=rate-desc"
 * in the address sorts on load, so a sorted view can be linked.
 */
#include "index.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "html.h"
#include "model.h"
#include "ofile.h"
#include "runtable.h"
#include "xmalloc.h"

#define IDX_MAXDEPTH	8

/* The numeric columns: key (CSV, #sort=, class), title, decimals. */
static const struct idx_col {
	const char	*key;
	const char	*title;
	size_t		 off;
	int		 decimals;
} numcols[] = {
	{ "rate", "rate", offsetof(struct rt_run, rate), 1 },
	{ "mb_per_s", "MB/s", offsetof(struct rt_run, mbps), 2 },
	{ "resp_ms", "resp ms", offsetof(struct rt_run, resp_ms), 3 },
	{ "resp_max_ms", "max ms", offsetof(struct rt_run, resp_max_ms), 3 },
	{ "p50_ms", "p50", offsetof(struct rt_run, p50), 3 },
	{ "p90_ms", "p90", offsetof(struct rt_run, p90), 3 },
	{ "p99_ms", "p99", offsetof(struct rt_run, p99), 3 },
	{ "p99.9_ms", "p99.9", offsetof(struct rt_run, p999), 3 },
	{ "p99.99_ms", "p99.99", offsetof(struct rt_run, p9999), 3 },
	{ "cpu_pct", "cpu%", offsetof(struct rt_run, cpu), 1 },
};
#define NNUMCOLS	(sizeof(numcols) / sizeof(numcols[0]))

static const char idx_script[] =
"<script>\n"
"(function(){\n"
"var t=document.getElementById('runs'),hs=t.tHead.rows[0].cells;\n"
"function val(c){var v=c.getAttribute('data-v');\n"
" return v===null?null:(v===''?NaN:parseFloat(v));}\n"
"function sortBy(i,desc){var b=t.tBodies[0],rs=[].slice.call(b.rows);\n"
" rs.sort(function(x,y){var a=val(x.cells[i]),c=val(y.cells[i]),r;\n"
"  if(a!==null&&c!==null){if(isNaN(a))return isNaN(c)?0:1;\n"
"   if(isNaN(c))return -1;r=a-c;}\n"
"  else r=x.cells[i].textContent.localeCompare(y.cells[i].textContent,"
"undefined,{numeric:true});\n"
"  return desc?-r:r;});\n"
" rs.forEach(function(r){b.appendChild(r);});\n"
" for(var k=0;k<hs.length;k++)hs[k].className=k==i?(desc?'desc':'asc'):'';\n"
" history.replaceState(null,'','#sort='+hs[i].getAttribute('data-k')+"
"(desc?'-desc':''));}\n"
"[].forEach.call(hs,function(h,i){h.onclick=function(){\n"
" sortBy(i,h.className=='asc');};});\n"
"var m=/#sort=([^&]*?)(-desc)?$/.exec(location.hash);\n"
"if(m)[].forEach.call(hs,function(h,i){\n"
" if(h.getAttribute('data-k')==decodeURIComponent(m[1]))sortBy(i,!!m[2]);});\n"
"document.getElementById('filter').oninput=function(){\n"
" var q=this.value.toLowerCase();[].forEach.call(t.tBodies[0].rows,"
"function(r){\n"
"  r.style.display=r.textContent.toLowerCase().indexOf(q)<0?'none':'';});};\n"
"})();\n"
"</script>\n";

struct idx_args {
	struct strlist	 dirs;
	const char	*outdir;
};

static int
usage(const char *why)
{
	fprintf(stderr, "vdbc index: %s\nusage: vdbc index DIR... [-o DIR]\n"
	    "  DIR: output directories (vdbc's or vdbench's), or directories "
	    "to search for them;\n  -o DIR (default 'index') gets index.html "
	    "and index.csv.\n", why);
	return (2);
}

static int
parse_args(int argc, char *argv[], struct idx_args *a)
{
	int i;

	a->outdir = "index";
	for (i = 2; i < argc; i++) {
		if (strcmp(argv[i], "-o") == 0 && i + 1 < argc)
			a->outdir = argv[++i];
		else if (argv[i][0] == '-')
			return (usage("unknown option"));
		else
			strlist_add(&a->dirs, argv[i]);
	}
	if (a->dirs.n == 0)
		return (usage("no directory given"));
	return (0);
}

/* Output directories at or below dir into found (sorted by name). */
static void
search(const char *dir, int depth, const char *skip, struct strlist *found)
{
	struct dirent **ents;
	int n, i;

	if (runtable_is_outdir(dir)) {
		strlist_add(found, dir);
		return;
	}
	if (depth >= IDX_MAXDEPTH || (n = scandir(dir, &ents, NULL,
	    alphasort)) < 0)
		return;
	for (i = 0; i < n; i++) {
		struct stat st;
		char *sub, *real;

		if (ents[i]->d_name[0] != '.') {
			xasprintf(&sub, "%s/%s", dir, ents[i]->d_name);
			real = realpath(sub, NULL);
			/* not the index's own directory, no symlinks */
			if (lstat(sub, &st) == 0 && S_ISDIR(st.st_mode) &&
			    (real == NULL || skip == NULL ||
			    strcmp(real, skip) != 0))
				search(sub, depth + 1, skip, found);
			free(real);
			free(sub);
		}
		free(ents[i]);
	}
	free(ents);
}

/* The real path of p, or of its nearest parent that exists + the rest. */
static char *
real_path(const char *p)
{
	char *r = realpath(p, NULL), *parent, *slash, *out;

	if (r != NULL || strcmp(p, ".") == 0)
		return (r != NULL ? r : xstrdup(p));
	parent = xstrdup(p);
	while ((slash = strrchr(parent, '/')) != NULL && slash[1] == '\0')
		*slash = '\0';		/* "dir/" */
	slash = strrchr(parent, '/');
	if (slash == parent)
		r = xstrdup("/");
	else {
		if (slash != NULL)
			*slash = '\0';
		r = real_path(slash != NULL ? parent : ".");
	}
	xasprintf(&out, "%s%s%s", r, strcmp(r, "/") == 0 ? "" : "/",
	    slash != NULL ? slash + 1 : parent);
	free(r);
	free(parent);
	return (out);
}

/* The first of the directories that are the same (by real path) kept. */
static void
dedup(struct strlist *found)
{
	char **real = xcalloc((size_t)found->n + 1, sizeof(*real));
	int i, j, k = 0;

	for (i = 0; i < found->n; i++)
		real[i] = realpath(found->v[i], NULL);
	for (i = 0; i < found->n; i++) {
		for (j = 0; j < k && (real[i] == NULL || real[j] == NULL ||
		    strcmp(real[i], real[j]) != 0); j++)
			;
		if (j < k) {
			free(found->v[i]);
			free(real[i]);
			continue;
		}
		found->v[k] = found->v[i];
		real[k++] = real[i];
	}
	found->n = k;
	for (i = 0; i < k; i++)
		free(real[i]);
	free(real);
}

/*
 * Is the real path out an output directory (found->n) or in one of found
 * (its index)? -1 when it is neither.
 */
static int
inside_outdir(const char *out, const struct strlist *found)
{
	int i;

	if (runtable_is_outdir(out))
		return (found->n);
	for (i = 0; i < found->n; i++) {
		char *r = realpath(found->v[i], NULL);
		size_t len = r != NULL ? strlen(r) : 0;
		int in = r != NULL && strncmp(out, r, len) == 0 &&
		    (out[len] == '/' || out[len] == '\0');

		free(r);
		if (in)
			return (i);
	}
	return (-1);
}

/*
 * What went wrong in a run, worst first, into buf, and its class (the
 * cell's colour): "corrupt" (corrupted data found), "ioerr" (I/O
 * errors), "killed" (the master was killed in it), "failed" (the
 * execution failed before it), "stopped" (stopped early), "noavg" (no
 * average); "" and "ok" when none.
 */
static const char *
run_problem(const struct rt_dir *d, const struct rt_run *r, char *buf,
    size_t len)
{
	const char *cls = "ok";
	size_t n = 0;

#define PROBLEM(c, ...) do {						\
	if (strcmp(cls, "ok") == 0)					\
		cls = (c);						\
	if (n < len)							\
		n += (size_t)snprintf(buf + n, len - n, "%s", n > 0 ?	\
		    "; " : "");						\
	if (n < len)							\
		n += (size_t)snprintf(buf + n, len - n, __VA_ARGS__);	\
} while (0)
	buf[0] = '\0';
	if (r->corrupt > 0)
		PROBLEM("corrupt", "CORRUPTED DATA: %lld data block%s",
		    r->corrupt, r->corrupt == 1 ? "" : "s");
	if (r->errors > 0)
		PROBLEM("ioerr", "I/O errors: %lld", r->errors);
	if (r->killed)
		PROBLEM("killed", "killed: no end recorded");
	else if (r->name[0] == '\0' && strncmp(r->status, "failed", 6) == 0)
		PROBLEM("failed", "failed");
	else if (strncmp(r->status, "stopped", 7) == 0)
		PROBLEM("stopped", "stopped");
	else if (strcmp(r->status, "no average") == 0)
		PROBLEM("noavg", "%s", strncmp(d->outcome, "killed", 6) == 0 ?
		    "killed: no average" : "no average");
#undef PROBLEM
	return (cls);
}

static double
cval(const struct rt_run *r, const struct idx_col *c)
{
	return (*(const double *)(const void *)((const char *)r + c->off));
}

/*
 * A CSV text field: quoted when it needs to be. One that starts with
 * = + - @ (or a tab or CR) would be a formula to a spreadsheet
 * (=HYPERLINK(...) from a run's name): it gets a leading ' and quotes,
 * which spreadsheets show as text. (Numbers are not written here.)
 */
static void
csv_put(FILE *f, const char *s)
{
	int formula = strchr("=+-@\t\r", s[0]) != NULL && s[0] != '\0';

	if (!formula && strpbrk(s, ",\"\r\n") == NULL) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	if (formula)
		fputc('\'', f);
	for (; *s != '\0'; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void
write_csv_row(FILE *f, const struct rt_dir *d, const struct rt_run *r,
    const char *link)
{
	size_t k;

	csv_put(f, d->path);
	fprintf(f, ",%s,", d->kind);
	csv_put(f, r->name);
	fputc(',', f);
	csv_put(f, r->for_loops);
	fputc(',', f);
	csv_put(f, r->status);
	fputc(',', f);
	csv_put(f, r->started);
	for (k = 0; k < NNUMCOLS; k++) {
		double v = cval(r, &numcols[k]);

		if (isnan(v))
			fputc(',', f);
		else
			fprintf(f, ",%.10g", v);
	}
	if (r->errors >= 0)
		fprintf(f, ",%lld,", r->errors);
	else
		fputs(",,", f);
	csv_put(f, link);
	{
		char pb[512];

		(void)run_problem(d, r, pb, sizeof(pb));
		fputc(',', f);
		csv_put(f, pb);
		fputc(',', f);
		if (r->corrupt >= 0)
			fprintf(f, "%lld", r->corrupt);
	}
	fputc('\n', f);
}

/* The length of the directory prefix (to a '/') all paths share. */
static size_t
common_prefix(const struct rt_dir *dirs, int nd)
{
	size_t len = 0, i;
	int j;

	if (nd == 0)
		return (0);
	for (i = 0; dirs[0].path[i] != '\0'; i++) {
		for (j = 1; j < nd && dirs[j].path[i] == dirs[0].path[i]; j++)
			;
		if (j < nd)
			break;
		if (dirs[0].path[i] == '/')
			len = i + 1;
	}
	return (len);
}

static void
html_head(FILE *f, int ndirs, int nruns, const char *prefix)
{
	char stamp[64];
	time_t t = time(NULL);
	struct tm tm;
	size_t k;

	localtime_r(&t, &tm);
	strftime(stamp, sizeof(stamp), "%Y-%m-%d %H:%M:%S", &tm);
	fprintf(f, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
	    "<title>vdbc index</title>\n<style>\nbody{font-family:sans-serif;"
	    "font-size:13px;margin:16px}\ntable{border-collapse:collapse}\n"
	    "th,td{border:1px solid #ccc;padding:3px 6px;white-space:nowrap}\n"
	    "th{background:#eee;cursor:pointer;user-select:none;position:"
	    "sticky;top:0}\nth.asc:after{content:' \\25b2'}\nth.desc:after"
	    "{content:' \\25bc'}\ntd.n{text-align:right;font-family:"
	    "monospace}\ntbody tr:nth-child(even){background:#f7f7f7}\n"
	    "tbody tr:hover{background:#e8f0ff}\ntd.err{color:#c00;font-weight:"
	    "bold}\ntd.na{color:#bbb}\ntd.dir{white-space:normal;max-width:26em;"
	    "overflow-wrap:anywhere}\ntd.st{white-space:normal;min-width:8em;"
	    "max-width:24em}\ntd.pb{white-space:normal;max-width:20em;"
	    "font-weight:bold}\ntd.p-corrupt{background:#d40000;color:#fff}\n"
	    "td.p-ioerr{background:#ff9a3c}\ntd.p-killed{background:#b58cff}\n"
	    "td.p-failed{background:#f6c6c6}\ntd.p-stopped{background:#ffe27a}"
	    "\ntd.p-noavg{background:#e4e4e4;font-weight:normal}\n</style></head><body>\n<h2>vdbc index</h2>\n<p>%d runs "
	    "in %d output directories", nruns, ndirs);
	if (prefix[0] != '\0') {
		fputs(" under <b>", f);
		html_put(f, prefix);
		fputs("</b>", f);
	}
	fprintf(f, ", listed %s. Click a column to sort it (again: "
	    "the other way); the run links to its place in summary.html; "
	    "<a href=\"index.csv\">index.csv</a> has the same table.</p>\n"
	    "<p>Filter: <input id=filter size=40 placeholder=\"rd1, threads=8,"
	    " a directory...\"></p>\n<table id=runs><thead><tr>"
	    "<th data-k=directory>directory</th><th data-k=started>started"
	    "</th><th data-k=run>run</th><th data-k=for_loops>for loops</th>"
	    "<th data-k=status>status</th><th data-k=problem>problem</th>",
	    stamp);
	for (k = 0; k < NNUMCOLS; k++)
		fprintf(f, "<th data-k=\"%s\">%s</th>", numcols[k].key,
		    numcols[k].title);
	fputs("<th data-k=errors>errors</th><th data-k=corrupted>corrupted"
	    "</th></tr></thead>\n<tbody>\n", f);
}

static void
write_html_row(FILE *f, const struct rt_dir *d, const struct rt_run *r,
    const char *dirlink, const char *link, size_t plen)
{
	size_t k;

	fputs("<tr><td class=dir><a href=\"", f);
	html_put(f, dirlink);
	fputs("\" title=\"", f);
	html_put(f, d->path);
	fputs("\">", f);
	html_put(f, d->path[plen] != '\0' ? d->path + plen : d->path);
	fprintf(f, "</a> <small>%s</small></td><td>", d->kind);
	html_put(f, r->started[0] != '\0' ? r->started : d->started);
	fputs("</td><td><a href=\"", f);
	html_put(f, link);
	fputs("\">", f);
	html_put(f, r->name);
	fputs("</a></td><td>", f);
	html_put(f, r->for_loops);
	fputs("</td><td class=st>", f);
	html_put(f, r->status);
	{
		char pb[512];
		const char *cls = run_problem(d, r, pb, sizeof(pb));

		fprintf(f, "</td><td class=\"pb p-%s\">", cls);
		html_put(f, pb);
	}
	fputs("</td>", f);
	for (k = 0; k < NNUMCOLS; k++) {
		double v = cval(r, &numcols[k]);

		if (isnan(v))
			fprintf(f, "<td class=\"n na c-%s\" data-v=\"\">n/a</td>",
			    numcols[k].key);
		else {
			char b[64];

			runtable_fmt(b, sizeof(b), v, numcols[k].decimals);
			fprintf(f, "<td class=\"n c-%s\" data-v=\"%.17g\">"
			    "%s</td>", numcols[k].key, v, b);
		}
	}
	if (r->errors >= 0)
		fprintf(f, "<td class=\"n c-errors%s\" data-v=\"%lld\">%lld"
		    "</td>", r->errors > 0 ? " err" : "", r->errors,
		    r->errors);
	else
		fputs("<td class=\"n na c-errors\" data-v=\"\">n/a</td>", f);
	if (r->corrupt >= 0)
		fprintf(f, "<td class=\"n c-corrupted%s\" data-v=\"%lld\">%lld"
		    "</td>", r->corrupt > 0 ? " err" : "", r->corrupt,
		    r->corrupt);
	else
		fputs("<td class=\"n na c-corrupted\" data-v=\"\">n/a</td>",
		    f);
	fputs("</tr>\n", f);
}

/* Open outdir/name for writing; NULL with e set. */
static FILE *
open_out(const char *outdir, const char *name, char **pathp,
    struct errmsg *e)
{
	FILE *f;

	xasprintf(pathp, "%s/%s", outdir, name);
	if ((f = ofile_fopen(*pathp)) == NULL)
		errmsg_set(e, NULL, 0, 0, "cannot write %s: %s", *pathp,
		    strerror(errno));
	return (f);
}

static int
write_index(const char *outdir, const struct rt_dir *dirs, int nd,
    struct errmsg *e)
{
	char *hp = NULL, *cp = NULL;
	FILE *h, *c = NULL;
	size_t plen = common_prefix(dirs, nd);
	char *prefix = xstrndup(nd > 0 ? dirs[0].path : "", plen);
	int i, j, nruns = 0, rc = -1;

	for (i = 0; i < nd; i++)
		nruns += dirs[i].n;
	if ((h = open_out(outdir, "index.html", &hp, e)) == NULL ||
	    (c = open_out(outdir, "index.csv", &cp, e)) == NULL)
		goto out;
	html_head(h, nd, nruns, prefix);
	fputs("directory,kind,run,for_loops,status,started", c);
	for (j = 0; j < (int)NNUMCOLS; j++)
		fprintf(c, ",%s", numcols[j].key);
	fputs(",errors,summary,problem,corrupted_blocks\n", c);
	for (i = 0; i < nd; i++) {
		char *dl = runtable_url(outdir, dirs[i].path,
		    "summary.html");

		for (j = 0; j < dirs[i].n; j++) {
			const struct rt_run *r = &dirs[i].runs[j];
			char *link;

			if (r->anchor[0] != '\0')
				xasprintf(&link, "%s#%s", dl, r->anchor);
			else
				link = xstrdup(dl);
			write_html_row(h, &dirs[i], r, dl, link, plen);
			write_csv_row(c, &dirs[i], r, link);
			free(link);
		}
		if (dirs[i].n == 0 && dirs[i].outcome[0] != '\0') {
			/* an execution that failed before its first run */
			struct rt_run r;
			char none[1] = "";

			memset(&r, 0, sizeof(r));
			r.rate = r.mbps = r.resp_ms = r.resp_max_ms = NAN;
			r.p50 = r.p90 = r.p99 = r.p999 = r.p9999 = NAN;
			r.cpu = NAN;
			r.errors = -1;
			r.corrupt = -1;
			r.name = r.for_loops = r.started = r.anchor = none;
			r.status = dirs[i].outcome;
			write_html_row(h, &dirs[i], &r, dl, dl, plen);
			write_csv_row(c, &dirs[i], &r, dl);
		}
		free(dl);
	}
	fprintf(h, "</tbody></table>\n%s</body></html>\n", idx_script);
	rc = 0;
out:
	if (h != NULL && runtable_fclose(h, hp, e) != 0)
		rc = -1;
	if (c != NULL && runtable_fclose(c, cp, e) != 0)
		rc = -1;
	if (rc == 0)
		printf("index.html: %s\nindex.csv: %s\n", hp, cp);
	free(prefix);
	free(hp);
	free(cp);
	return (rc);
}

int
index_main(int argc, char *argv[])
{
	struct idx_args a;
	struct strlist found = { 0, NULL, 0 };
	struct rt_dir *dirs = NULL;
	struct errmsg e;
	char buf[2048], *skip = NULL;
	int rc, i, nd = 0;

	memset(&a, 0, sizeof(a));
	errmsg_clear(&e);
	if ((rc = parse_args(argc, argv, &a)) != 0)
		goto out;
	rc = 1;
	for (i = 0; i < a.dirs.n; i++) {
		struct stat st;

		if (stat(a.dirs.v[i], &st) != 0 || !S_ISDIR(st.st_mode)) {
			fprintf(stderr, "vdbc index: %s: not a directory\n",
			    a.dirs.v[i]);
			goto out;
		}
	}
	skip = real_path(a.outdir);
	for (i = 0; i < a.dirs.n; i++)
		search(a.dirs.v[i], 0, skip, &found);
	dedup(&found);
	if ((i = inside_outdir(skip, &found)) >= 0) {
		fprintf(stderr, "vdbc index: -o %s: %s output directory %s; "
		    "give the index a directory of its own\n", a.outdir,
		    i == found.n ? "is an" : "is in the", i == found.n ?
		    "(results.json or flatfile.html in it)" : found.v[i]);
		goto out;
	}
	if (found.n == 0) {
		fprintf(stderr, "vdbc index: no output directory (with "
		    "results.json or flatfile.html) in or under the directories "
		    "given\n");
		goto out;
	}
	if (runtable_mkdirs(a.outdir, &e) != 0)
		goto err;
	dirs = xcalloc((size_t)found.n, sizeof(*dirs));
	for (i = 0; i < found.n; i++) {
		if (runtable_read(found.v[i], &dirs[nd], &e) == 0) {
			nd++;
			continue;
		}
		/* one unreadable directory does not hide the others */
		errmsg_str(&e, buf, sizeof(buf));
		fprintf(stderr, "vdbc index: skipped: %s\n", text_clean(buf,
		    0));
		runtable_free(&dirs[nd]);
	}
	if (write_index(a.outdir, dirs, nd, &e) != 0)
		goto err;
	rc = 0;
	goto out;
err:
	errmsg_str(&e, buf, sizeof(buf));
	fprintf(stderr, "vdbc index: %s\n", text_clean(buf, 0));
out:
	for (i = 0; i < nd; i++)
		runtable_free(&dirs[i]);
	free(dirs);
	free(skip);
	strlist_clear(&found);
	strlist_clear(&a.dirs);
	return (rc);
}
