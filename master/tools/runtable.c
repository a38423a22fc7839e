/* SPDX-License-Identifier: MIT */
/*
 * The run table of an output directory (runtable.h): vdbc's results.json
 * when it is there, vdbench's flatfile.html and summary.html otherwise.
 */
#include "runtable.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "xmalloc.h"

#define RT_MAXCOLS	256

/* One Starting line of summary.html. */
struct rt_start {
	char	*name;
	char	*for_loops;
	char	*anchor;
	char	*time;
};

static void
run_init(struct rt_run *r)
{
	memset(r, 0, sizeof(*r));
	r->rate = r->mbps = r->resp_ms = r->resp_max_ms = NAN;
	r->p50 = r->p90 = r->p99 = r->p999 = r->p9999 = r->cpu = NAN;
	r->errors = -1;
	r->corrupt = -1;
}

static struct rt_run *
add_run(struct rt_dir *d)
{
	struct rt_run *r;

	d->runs = xreallocarray(d->runs, (size_t)d->n + 1, sizeof(*d->runs));
	r = &d->runs[d->n++];
	run_init(r);
	return (r);
}

static char *
path_in(const char *dir, const char *file)
{
	char *p;

	xasprintf(&p, "%s/%s", dir, file);
	return (p);
}

int
runtable_is_outdir(const char *dir)
{
	char *a = path_in(dir, "results.json"), *b = path_in(dir,
	    "flatfile.html");
	int yes = access(a, R_OK) == 0 || access(b, R_OK) == 0;

	free(a);
	free(b);
	return (yes);
}

/* A copy of s up to the first character of stop (or the end). */
static char *
upto(const char *s, const char *stop)
{
	return (xstrndup(s, strcspn(s, stop)));
}

FILE *
runtable_fopen(const char *path)
{
	struct stat st;
	FILE *f;
	int fd, err;

	/* O_NONBLOCK: a FIFO opens at once (and is then refused) */
	if ((fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY |
	    O_CLOEXEC)) < 0)
		return (NULL);
	if (fstat(fd, &st) != 0)
		err = errno;
	else if (!S_ISREG(st.st_mode))
		err = EINVAL;
	else if ((unsigned long long)st.st_size > RT_MAX_BYTES)
		err = EFBIG;
	else if (fcntl(fd, F_SETFL, 0) != 0 || (f = fdopen(fd, "r")) == NULL)
		err = errno;
	else
		return (f);
	close(fd);
	errno = err;
	return (NULL);
}

const char *
runtable_why(int err)
{
	if (err == EINVAL)
		return ("not a regular file (a FIFO, device or socket is not "
		    "read)");
	if (err == EFBIG)
		return ("over 256 MiB, more than any report vdbc reads");
	return (strerror(err));
}

/* The Starting lines of dir/summary.html; their number (0 without it). */
static int
read_starts(const char *dir, struct rt_start **out)
{
	char *path = path_in(dir, "summary.html"), *line = NULL;
	struct rt_start *v = NULL;
	size_t cap = 0;
	int n = 0;
	FILE *f;

	*out = NULL;
	f = runtable_fopen(path);
	free(path);
	if (f == NULL)
		return (0);
	while (getline(&line, &cap, f) != -1) {
		char *s = strstr(line, "Starting RD="), *a, *fl, *t;
		struct rt_start *st;

		if (s == NULL)
			continue;
		v = xreallocarray(v, (size_t)n + 1, sizeof(*v));
		st = &v[n++];
		st->name = upto(s + 12, ";<\r\n");
		fl = strstr(s, "For loops: ");
		st->for_loops = fl != NULL ? upto(fl + 11, "<\r\n") :
		    xstrdup("");
		a = strstr(line, "<a name=\"");
		st->anchor = a != NULL && a < s ? upto(a + 9, "\"") :
		    xstrdup("");
		/* "<i><b>10:03:44.033 Starting": the word before it */
		for (t = s; t > line && t[-1] == ' '; t--)
			;
		while (t > line && t[-1] != '>' && t[-1] != ' ')
			t--;
		st->time = xstrndup(t, strcspn(t, " "));
	}
	free(line);
	fclose(f);
	*out = v;
	return (n);
}

static void
starts_free(struct rt_start *v, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		free(v[i].name);
		free(v[i].for_loops);
		free(v[i].anchor);
		free(v[i].time);
	}
	free(v);
}

/* "2026-12-01T07:04:28+0000" as "2026-12-01 07:04:28" (else as is). */
static char *
iso_time(const char *s)
{
	char *t = xstrdup(s);

	if (strlen(t) >= 19 && t[10] == 'T') {
		t[10] = ' ';
		t[19] = '\0';
	}
	return (t);
}

/*
 * vdbench's flatfile stamp "11/30/2026-10:03:45-UTC" as
 * "2026-11-30 10:03:45", or with time (a Starting line's "10:03:44.033")
 * for the clock; a copy of time (or "") when stamp is not of that form.
 */
static char *
vdb_time(const char *stamp, const char *hms)
{
	int mo, dd, yy, h, m, sec;
	char *t;

	if (stamp == NULL || sscanf(stamp, "%d/%d/%d-%d:%d:%d", &mo, &dd, &yy,
	    &h, &m, &sec) != 6)
		return (xstrdup(hms != NULL ? hms : ""));
	if (hms != NULL && sscanf(hms, "%d:%d:%d", &h, &m, &sec) != 3)
		return (xstrdup(hms));
	xasprintf(&t, "%04d-%02d-%02d %02d:%02d:%02d", yy, mo, dd, h, m, sec);
	return (t);
}

static double
jnum(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return (json_is_number(v) ? json_number_value(v) : NAN);
}

static char *
jstr(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return (xstrdup(s != NULL ? s : ""));
}

/* One run of results.json. */
static void
json_run(struct rt_dir *d, json_t *jr)
{
	struct rt_run *r = add_run(d);
	json_t *a = json_object_get(jr, "average");
	json_t *p = json_object_get(json_object_get(a, "percentiles_ms"),
	    "all");
	json_t *er = json_object_get(a, "errors");

	r->name = jstr(jr, "name");
	r->for_loops = jstr(jr, "for_loops");
	r->status = jstr(jr, "status");
	if (strcmp(r->status, "running") == 0 &&
	    json_object_get(jr, "ended") == NULL) {
		/* results.json is rewritten after every interval: a run
		 * still "running" in it is one whose master ended without
		 * closing it (kill -9, a crash, the machine gone) */
		size_t n = json_array_size(json_object_get(jr, "intervals"));

		free(r->status);
		xasprintf(&r->status, "stopped early after %zu interval%s: "
		    "no end recorded (the master was killed?)", n,
		    n == 1 ? "" : "s");
		r->killed = 1;
	}
	{
		json_t *v = json_object_get(jr, "validation"), *c;

		c = json_object_get(v, "corrupted_data_blocks");
		if (json_is_integer(c))
			r->corrupt = (long long)json_integer_value(c);
	}
	r->started = jstr(jr, "started");
	{
		char *t = iso_time(r->started);

		free(r->started);
		r->started = t;
	}
	r->anchor = xstrdup("");
	if (!json_is_object(a)) {
		if (strncmp(r->status, "stopped early", 13) != 0) {
			free(r->status);
			r->status = xstrdup("no average");
		}
		return;
	}
	r->rate = jnum(a, "rate");
	r->mbps = jnum(a, "mb_per_s");
	r->resp_ms = jnum(a, "resp_ms");
	r->resp_max_ms = jnum(a, "resp_max_ms");
	r->cpu = jnum(a, "cpu_sys_user_pct");
	r->p50 = jnum(p, "p50");
	r->p90 = jnum(p, "p90");
	r->p99 = jnum(p, "p99");
	r->p999 = jnum(p, "p99.9");
	r->p9999 = jnum(p, "p99.99");
	if (json_is_integer(er))
		r->errors = (long long)json_integer_value(er);
}

/*
 * Does the argument arg shape the workload beyond what is compared on
 * its own (the parmfiles' text, the output directory, the seed, the
 * substitutions)?
 */
static int
option_counts(const char *arg)
{
	if (arg[0] != '-')
		return (0);	/* a substitution, a further parmfile */
	return (strncmp(arg, "-f", 2) != 0 && strncmp(arg, "-o", 2) != 0 &&
	    strncmp(arg, "--seed", 6) != 0);
}

static void
option_add(struct rt_dir *d, const char *arg)
{
	char *t;

	if (!option_counts(arg))
		return;
	if (d->options == NULL || d->options[0] == '\0') {
		free(d->options);
		d->options = xstrdup(arg);
	} else {
		xasprintf(&t, "%s %s", d->options, arg);
		free(d->options);
		d->options = t;
	}
}

/* results.json's hosts as "label (start, N slaves[, system=S])". */
static void
json_hosts(struct rt_dir *d, json_t *hosts)
{
	json_t *h;
	size_t i;
	char *t;

	d->hosts = xstrdup("");
	json_array_foreach(hosts, i, h) {
		const char *name = json_string_value(json_object_get(h,
		    "name")), *sys = json_string_value(json_object_get(h,
		    "system")), *how = json_string_value(json_object_get(h,
		    "start"));
		size_t ns = json_array_size(json_object_get(h, "slaves"));

		xasprintf(&t, "%s%s%s (%s, %zu slave%s%s%s)", d->hosts,
		    d->hosts[0] != '\0' ? "; " : "", name != NULL ? name : "?",
		    how != NULL ? how : "?", ns, ns == 1 ? "" : "s",
		    sys != NULL && name != NULL && strcmp(sys, name) != 0 ?
		    ", system=" : "", sys != NULL && name != NULL &&
		    strcmp(sys, name) != 0 ? sys : "");
		free(d->hosts);
		d->hosts = t;
	}
}

/* results.json's version, seed, options, hosts and substitutions. */
static void
json_inputs(struct rt_dir *d, json_t *root)
{
	json_t *seed = json_object_get(root, "seed"), *v;
	const char *k, *ver;
	size_t i;
	char *t;

	json_array_foreach(json_object_get(root, "arguments"), i, v) {
		if (json_is_string(v))
			option_add(d, json_string_value(v));
	}
	if (json_is_array(json_object_get(root, "arguments")) &&
	    d->options == NULL)
		d->options = xstrdup("");
	json_hosts(d, json_object_get(root, "hosts"));

	ver = json_string_value(json_object_get(root, "vdbc_version"));
	if (ver != NULL)
		xasprintf(&d->version, "vdbc %s", ver);
	if (json_is_integer(seed))
		xasprintf(&d->seed, "%lld", (long long)json_integer_value(seed));
	d->subst = xstrdup("");
	json_object_foreach(json_object_get(root, "substitutions"), k, v) {
		xasprintf(&t, "%s%s%s=%s", d->subst, d->subst[0] != '\0' ?
		    " " : "", k, json_is_string(v) ? json_string_value(v) :
		    "?");
		free(d->subst);
		d->subst = t;
	}
}

static int
read_json(const char *dir, struct rt_dir *d, struct errmsg *e)
{
	char *path = path_in(dir, "results.json");
	json_error_t je;
	json_t *root, *runs, *jr;
	size_t i;
	FILE *jf;

	if ((jf = runtable_fopen(path)) == NULL) {
		errmsg_set(e, NULL, 0, 0, "%s: cannot read: %s", path,
		    runtable_why(errno));
		free(path);
		return (-1);
	}
	root = json_loadf(jf, 0, &je);
	fclose(jf);
	if (root == NULL) {
		errmsg_set(e, NULL, 0, 0, "%s: not a readable results.json "
		    "(line %d: %s)", path, je.line, je.text);
		free(path);
		return (-1);
	}
	runs = json_object_get(root, "runs");
	if (!json_is_array(runs) || strcmp(json_string_value(
	    json_object_get(root, "schema")) != NULL ? json_string_value(
	    json_object_get(root, "schema")) : "", "vdbc-results") != 0) {
		errmsg_set(e, NULL, 0, 0, "%s: not a vdbc results.json "
		    "(expected \"schema\": \"vdbc-results\" and a \"runs\" "
		    "array)", path);
		json_decref(root);
		free(path);
		return (-1);
	}
	free(path);
	d->kind = "vdbc";
	json_inputs(d, root);
	{
		char *t = jstr(root, "started");

		d->started = iso_time(t);
		free(t);
	}
	json_array_foreach(runs, i, jr)
		json_run(d, jr);
	d->runs_json = json_incref(runs);
	json_decref(root);
	return (0);
}

/* Split a line on blanks (in place); the word count. */
static int
split(char *line, char **w, int max)
{
	char *p, *save = NULL;
	int n = 0;

	for (p = strtok_r(line, " \t\r\n", &save); p != NULL && n < max;
	    p = strtok_r(NULL, " \t\r\n", &save))
		w[n++] = p;
	return (n);
}

/* The flatfile's columns we read, as places in its header (-1: none). */
struct flatcols {
	int	run, interval, rate, mbps, resp, resp_max, cpu, stamp, tod;
	int	cpu_user, cpu_kernel;
	int	n;
};

static int
col(char **hdr, int nh, const char *name)
{
	int k;

	for (k = 0; k < nh; k++) {
		if (strcmp(hdr[k], name) == 0)
			return (k);
	}
	return (-1);
}

static double
fnum(char **w, int k)
{
	char *end;
	double v;

	if (k < 0)
		return (NAN);
	v = strtod(w[k], &end);
	return (end == w[k] || *end != '\0' ? NAN : v);
}

/* One avg_ line of the flatfile: its values into r. */
static void
flat_values(struct rt_run *r, char **w, const struct flatcols *c)
{
	r->rate = fnum(w, c->rate);
	r->mbps = fnum(w, c->mbps);
	r->resp_ms = fnum(w, c->resp);
	r->resp_max_ms = fnum(w, c->resp_max);
	/* vdbench 5.04.06's cpu_used is user only: user + kernel as totals */
	r->cpu = fnum(w, c->cpu_user) + fnum(w, c->cpu_kernel);
	if (isnan(r->cpu))
		r->cpu = fnum(w, c->cpu);
}

/* The avg_ lines of flatfile.html, in order, as runs of d. */
static int
read_flat_rows(FILE *f, struct rt_dir *d, const char *path,
    struct errmsg *e)
{
	char *line = NULL, *hdrline = NULL, *hdr[RT_MAXCOLS], *w[RT_MAXCOLS];
	struct flatcols c;
	size_t cap = 0;
	int nh = 0, rc = -1;

	while (getline(&line, &cap, f) != -1) {
		if (line[0] == ' ' && strstr(line, " tod ") != NULL) {
			hdrline = xstrdup(line);
			nh = split(hdrline, hdr, RT_MAXCOLS);
			break;
		}
	}
	c.run = col(hdr, nh, "Run");
	c.interval = col(hdr, nh, "Interval");
	if (hdrline == NULL || c.run < 0 || c.interval < 0) {
		errmsg_set(e, NULL, 0, 0, "%s: no column header line with Run "
		    "and Interval (is it a vdbench flatfile.html?)", path);
		goto out;
	}
	c.rate = col(hdr, nh, "rate");
	c.mbps = col(hdr, nh, "MB/sec");
	c.resp = col(hdr, nh, "resp");
	c.resp_max = col(hdr, nh, "resp_max");
	c.cpu = col(hdr, nh, "cpu_used");
	c.cpu_user = col(hdr, nh, "cpu_user");
	c.cpu_kernel = col(hdr, nh, "cpu_kernel");
	c.stamp = col(hdr, nh, "timestamp");
	c.tod = col(hdr, nh, "tod");
	c.n = nh;
	while (getline(&line, &cap, f) != -1) {
		struct rt_run *r;

		if (split(line, w, RT_MAXCOLS) != nh)
			continue;
		if (d->started == NULL && c.stamp >= 0)
			d->started = xstrdup(w[c.stamp]);
		if (strncmp(w[c.interval], "avg_", 4) != 0)
			continue;
		r = add_run(d);
		r->name = xstrdup(w[c.run]);
		r->status = xstrdup("completed");
		r->started = xstrdup(c.tod >= 0 ? w[c.tod] : "");
		flat_values(r, w, &c);
	}
	rc = 0;
out:
	free(hdrline);
	free(line);
	return (rc);
}

/* "10:03:44.033" as seconds of the day; NAN when it is not a time. */
static double
tod_s(const char *s)
{
	int h, m;
	double sec;

	if (s == NULL || sscanf(s, "%d:%d:%lf", &h, &m, &sec) != 3)
		return (NAN);
	return (h * 3600.0 + m * 60.0 + sec);
}

/* Times of the day in file order made monotonic across midnights. */
static void
unwrap(double *t, int n)
{
	double off = 0, last = NAN;
	int i;

	for (i = 0; i < n; i++) {
		if (isnan(t[i]))
			continue;
		if (!isnan(last) && t[i] + off < last - 43200)
			off += 86400;
		t[i] += off;
		last = t[i];
	}
}

/*
 * vdbench's errorlog.html: each "Corrupted data block for" line counts a
 * corrupted data block, each "op: ... errno:" line that is not a Data
 * Validation error (60003) an I/O error, both for the run that had
 * started by the line's time of day (ts: the runs' starts, unwrapped).
 * A run's counts are 0 when errorlog.html is there and has none of its.
 */
static void
errorlog_scan(const char *dir, struct rt_dir *d, const double *ts, int ns)
{
	char *path = path_in(dir, "errorlog.html"), *line = NULL;
	double off = 0, last = NAN, t;
	size_t cap = 0;
	int i, k;
	FILE *f;

	f = runtable_fopen(path);
	free(path);
	if (f == NULL || ns == 0 || d->n != ns) {
		if (f != NULL)
			fclose(f);
		return;
	}
	for (i = 0; i < ns; i++) {
		d->runs[i].corrupt = 0;
		if (d->runs[i].errors < 0)
			d->runs[i].errors = 0;
	}
	while (getline(&line, &cap, f) != -1) {
		int corrupt = strstr(line, "Corrupted data block for") != NULL;
		int ioerr = strstr(line, " op: ") != NULL && strstr(line,
		    " errno: ") != NULL && strstr(line, "60003") == NULL;

		if (isnan(t = tod_s(line)))
			continue;
		if (!isnan(last) && t + off < last - 43200)
			off += 86400;
		t += off;
		last = t;
		if (!corrupt && !ioerr)
			continue;
		for (k = ns - 1; k > 0 && !(ts[k] <= t); k--)
			;
		if (corrupt)
			d->runs[k].corrupt++;
		else
			d->runs[k].errors++;
	}
	free(line);
	fclose(f);
}

/*
 * vdbench's directory: the runs are summary.html's Starting lines, their
 * averages the flatfile's avg_ lines of the same name, in order; an avg_
 * line written after the next run started is not this run's (a run
 * stopped before its average has none).
 */
static int
read_vdbench(const char *dir, struct rt_dir *d, struct errmsg *e)
{
	char *path = path_in(dir, "flatfile.html");
	struct rt_dir avg;
	struct rt_start *st;
	double *ts, *ta;
	int ns, i, j = 0, k;
	FILE *f;

	if ((f = runtable_fopen(path)) == NULL) {
		errmsg_set(e, NULL, 0, 0, "%s: cannot read: %s", path,
		    runtable_why(errno));
		free(path);
		return (-1);
	}
	memset(&avg, 0, sizeof(avg));
	i = read_flat_rows(f, &avg, path, e);
	fclose(f);
	free(path);
	if (i != 0) {
		runtable_free(&avg);
		return (-1);
	}
	d->kind = "vdbench";
	d->started = vdb_time(avg.started, NULL);
	ns = read_starts(dir, &st);
	ts = xcalloc((size_t)ns + 1, sizeof(*ts));
	ta = xcalloc((size_t)avg.n + 1, sizeof(*ta));
	for (i = 0; i < ns; i++)
		ts[i] = tod_s(st[i].time);
	for (k = 0; k < avg.n; k++)
		ta[k] = tod_s(avg.runs[k].started);
	unwrap(ts, ns);
	unwrap(ta, avg.n);
	for (i = 0; i < ns; i++) {
		struct rt_run *r = add_run(d);
		double next = i + 1 < ns ? ts[i + 1] : NAN;

		r->name = xstrdup(st[i].name);
		r->for_loops = xstrdup(st[i].for_loops);
		r->anchor = xstrdup(st[i].anchor);
		r->started = vdb_time(avg.started, st[i].time);
		for (k = j; k < avg.n && strcmp(avg.runs[k].name, r->name) != 0;
		    k++)
			;
		if (k < avg.n && !isnan(next) && !isnan(ta[k]) && ta[k] >= next)
			k = avg.n;	/* the next run's */
		if (k == avg.n) {
			r->status = xstrdup("no average");
			continue;
		}
		r->status = xstrdup("completed");
		r->rate = avg.runs[k].rate;
		r->mbps = avg.runs[k].mbps;
		r->resp_ms = avg.runs[k].resp_ms;
		r->resp_max_ms = avg.runs[k].resp_max_ms;
		r->cpu = avg.runs[k].cpu;
		j = k + 1;
	}
	errorlog_scan(dir, d, ts, ns);
	/* no summary.html: the flatfile's runs, without for-loops */
	for (k = j; ns == 0 && k < avg.n; k++) {
		struct rt_run *r = add_run(d);

		*r = avg.runs[k];
		avg.runs[k].name = avg.runs[k].status = NULL;
		avg.runs[k].started = NULL;
		r->for_loops = xstrdup("");
		r->anchor = xstrdup("");
		free(r->started);
		r->started = xstrdup("");
	}
	starts_free(st, ns);
	free(ts);
	free(ta);
	runtable_free(&avg);
	return (0);
}

/* A line of an html report as text, in place: no tags, no entities. */
static void
html_text(char *s)
{
	static const struct {
		const char *ent, *c;
	} ents[] = { { "&amp;", "&" }, { "&lt;", "<" }, { "&gt;", ">" },
	    { "&quot;", "\"" }, { "&#39;", "'" } };
	char *w = s, *r = s;
	size_t k;

	while (*r != '\0') {
		if (*r == '<') {
			r += strcspn(r, ">");
			if (*r == '>')
				r++;
			continue;
		}
		for (k = 0; *r == '&' && k < sizeof(ents) / sizeof(ents[0]);
		    k++) {
			if (strncmp(r, ents[k].ent, strlen(ents[k].ent)) == 0)
				break;
		}
		if (*r == '&' && k < sizeof(ents) / sizeof(ents[0])) {
			*w++ = ents[k].c[0];
			r += strlen(ents[k].ent);
		} else
			*w++ = *r++;
	}
	while (w > s && strchr(" \t\r\n", w[-1]) != NULL)
		w--;
	*w = '\0';
}

/*
 * Why the execution failed, from its logfile.html: vdbench's
 * RuntimeException text, else the last message line (vdbc writes its
 * fatal message last). NULL when there is none.
 */
static char *
log_reason(const char *dir, int *exception)
{
	char *path = path_in(dir, "logfile.html"), *line = NULL, *last = NULL,
	    *exc = NULL, *p;
	size_t cap = 0;
	FILE *f;

	f = runtable_fopen(path);
	free(path);
	if (f == NULL)
		return (NULL);
	while (getline(&line, &cap, f) != -1) {
		html_text(line);
		if ((p = strstr(line, "java.lang.RuntimeException: ")) != NULL) {
			free(exc);
			exc = xstrdup(p + 28);
			continue;
		}
		/* "10:05:58.673 text": the text */
		p = line;
		if (!isnan(tod_s(p)))
			p = strchr(p, ' ') != NULL ? strchr(p, ' ') + 1 :
			    p + strlen(p);
		else if (line[0] == '\t' || line[0] == ' ')
			continue;	/* a stack trace */
		if (*p != '\0' && exc == NULL) {
			free(last);
			last = xstrdup(p);
		}
	}
	free(line);
	fclose(f);
	*exception = exc != NULL;
	if (exc != NULL) {
		free(last);
		return (exc);
	}
	return (last);
}

/*
 * How the execution of dir ended (struct rt_dir's outcome): status.html's
 * last line says "Vdbench complete" or "Vdbench stopped: why"; a
 * status.html with neither ended without finishing. Without status.html
 * nothing is known: "".
 */
static char *
dir_outcome(const char *dir, int *exception)
{
	char *path = path_in(dir, "status.html"), *line = NULL, *last = NULL,
	    *why, *out;
	size_t cap = 0;
	FILE *f;

	*exception = 0;
	f = runtable_fopen(path);
	free(path);
	if (f == NULL)
		return (xstrdup(""));
	while (getline(&line, &cap, f) != -1) {
		char *tab = strchr(line, '\t');

		if (line[0] == '*' || tab == NULL)
			continue;
		html_text(tab + 1);
		free(last);
		last = xstrdup(tab + 1);
	}
	free(line);
	fclose(f);
	if (last != NULL && strncmp(last, "Vdbench complete", 16) == 0)
		out = xstrdup("");
	else if (last != NULL && strncmp(last, "Vdbench stopped: ", 17) == 0)
		xasprintf(&out, "stopped: %s", last + 17);
	else {
		why = log_reason(dir, exception);
		xasprintf(&out, "failed: %s", why != NULL ? why :
		    "no \"Vdbench complete\" in status.html");
		free(why);
	}
	free(last);
	return (out);
}

/*
 * The parameter lines of dir/parmfile.html: no comments, no blank
 * lines; after vdbc's "* Command line substitutions:" only the resolved
 * copy that follows.
 */
static void
read_parm(const char *dir, struct rt_dir *d)
{
	char *path = path_in(dir, "parmfile.html"), *line = NULL;
	size_t cap = 0;
	int i;
	FILE *f;

	f = runtable_fopen(path);
	free(path);
	if (f == NULL)
		return;
	while (getline(&line, &cap, f) != -1) {
		if (strstr(line, "<title>") != NULL)
			continue;
		html_text(line);
		if (strncmp(line, "* Command line substitutions:", 29) == 0) {
			for (i = 0; i < d->nparm; i++)
				free(d->parm[i]);
			d->nparm = 0;	/* the resolved copy follows */
			continue;
		}
		if (line[0] == '\0' || line[0] == '*')
			continue;
		d->parm = xreallocarray(d->parm, (size_t)d->nparm + 1,
		    sizeof(*d->parm));
		d->parm[d->nparm++] = xstrdup(line);
	}
	free(line);
	fclose(f);
}

/* Anchors of vdbc's summary.html, by order and name. */
static void
add_anchors(const char *dir, struct rt_dir *d)
{
	struct rt_start *st;
	int ns = read_starts(dir, &st), i;

	for (i = 0; i < ns && i < d->n; i++) {
		if (strcmp(st[i].name, d->runs[i].name) != 0)
			break;
		free(d->runs[i].anchor);
		d->runs[i].anchor = xstrdup(st[i].anchor);
	}
	starts_free(st, ns);
}

/*
 * logfile.html: the arguments (vdbench's "input argument scanned: '...'"
 * lines, which vdbc writes too) when results.json did not give them, and
 * whether vdbc wrote it ("Vdbench distribution: vdbc-X.Y.Z"): a vdbc
 * directory without results.json (a master killed before its first
 * interval) is still vdbc's.
 */
static void
log_inputs(const char *dir, struct rt_dir *d)
{
	char *path = path_in(dir, "logfile.html"), *line = NULL, *p;
	int want_args = d->options == NULL;
	size_t cap = 0;
	FILE *f;

	f = runtable_fopen(path);
	free(path);
	if (f == NULL)
		return;
	while (getline(&line, &cap, f) != -1) {
		if (strstr(line, "Vdbench distribution: vdbc-") != NULL)
			d->kind = "vdbc";
		if (!want_args || (p = strstr(line, "input argument scanned: "
		    "'")) == NULL)
			continue;
		html_text(p);
		p += 25;
		if (p[0] != '\0' && p[strlen(p) - 1] == '\'')
			p[strlen(p) - 1] = '\0';
		if (d->options == NULL)
			d->options = xstrdup("");
		option_add(d, p);
	}
	free(line);
	fclose(f);
}

static void
dir_inputs(const char *dir, struct rt_dir *d)
{
	read_parm(dir, d);
	log_inputs(dir, d);
	if (d->options == NULL)
		d->options = xstrdup("");
	if (d->hosts == NULL)
		d->hosts = xstrdup("");
	if (d->version == NULL)
		d->version = xstrdup(d->kind != NULL ? d->kind : "");
	if (d->seed == NULL)
		d->seed = xstrdup("");
	if (d->subst == NULL)
		d->subst = xstrdup("");
}

int
runtable_read(const char *dir, struct rt_dir *d, struct errmsg *e)
{
	char *rj = path_in(dir, "results.json");
	int rc, exc;

	memset(d, 0, sizeof(*d));
	d->path = xstrdup(dir);
	if (access(rj, F_OK) == 0) {
		rc = read_json(dir, d, e);
		if (rc == 0)
			add_anchors(dir, d);
	} else if (runtable_is_outdir(dir))
		rc = read_vdbench(dir, d, e);
	else if (access(dir, F_OK) != 0) {
		errmsg_set(e, NULL, 0, 0, "%s: %s", dir, strerror(errno));
		rc = -1;
	} else {
		errmsg_set(e, NULL, 0, 0, "%s: not an output directory (no "
		    "results.json, no flatfile.html)", dir);
		rc = -1;
	}
	if (d->started == NULL)
		d->started = xstrdup("");
	if (rc != 0 && runtable_is_outdir(dir)) {
		/* a failed execution's directory: no table, its reason */
		char *o = dir_outcome(dir, &exc);

		if (strncmp(o, "failed: ", 8) == 0) {
			d->outcome = o;
			if (d->kind == NULL)
				d->kind = access(rj, F_OK) == 0 ? "vdbc" :
				    "vdbench";
			free(rj);
			dir_inputs(dir, d);
			return (0);
		}
		free(o);
	}
	free(rj);
	d->outcome = dir_outcome(dir, &exc);
	if (rc == 0 && !exc && d->n > 0 && strncmp(d->outcome, "failed: ", 8)
	    == 0) {
		/* runs, no end in status.html, no exception: the master
		 * was killed (or the execution is still going) */
		free(d->outcome);
		d->outcome = xstrdup("killed: status.html has no end line "
		    "(the master was killed, or it is still running)");
		d->runs[d->n - 1].killed = 1;
	}
	dir_inputs(dir, d);
	return (rc);
}

void
runtable_free(struct rt_dir *d)
{
	int i;

	for (i = 0; i < d->n; i++) {
		free(d->runs[i].name);
		free(d->runs[i].for_loops);
		free(d->runs[i].status);
		free(d->runs[i].started);
		free(d->runs[i].anchor);
	}
	free(d->runs);
	json_decref(d->runs_json);
	d->runs_json = NULL;
	free(d->path);
	free(d->started);
	free(d->outcome);
	free(d->version);
	free(d->seed);
	free(d->subst);
	free(d->options);
	free(d->hosts);
	for (i = 0; i < d->nparm; i++)
		free(d->parm[i]);
	free(d->parm);
	memset(d, 0, sizeof(*d));
}

void
runtable_key(const struct rt_run *r, char *buf, unsigned long len)
{
	const char *fl = r->for_loops;

	if (fl[0] == '\0' || strcmp(fl, "None") == 0)
		snprintf(buf, len, "%s", r->name);
	else
		snprintf(buf, len, "%s %s", r->name, fl);
}

int
runtable_is_format(const struct rt_run *r)
{
	return (strcmp(r->name, "SD_format") == 0 ||
	    strncmp(r->name, "format_for_", 11) == 0);
}

char *
runtable_relpath(const char *from_dir, const char *to_dir, const char *file)
{
	char *a = realpath(from_dir, NULL), *b = realpath(to_dir, NULL), *out;
	size_t i, common = 0, ups = 0;

	if (a == NULL || b == NULL) {
		/* not there (yet): the path as given */
		xasprintf(&out, "%s/%s", to_dir, file);
		free(a);
		free(b);
		return (out);
	}
	/* the longest common prefix of whole components */
	for (i = 0; a[i] != '\0' && a[i] == b[i]; i++) {
		if (a[i] == '/')
			common = i;
	}
	if ((a[i] == '\0' && (b[i] == '/' || b[i] == '\0')) ||
	    (b[i] == '\0' && a[i] == '/'))
		common = i;
	for (i = common; a[i] != '\0'; i++) {
		if (a[i] == '/')
			ups++;
	}
	out = xstrdup("");
	for (i = 0; i < ups; i++) {
		char *t;

		xasprintf(&t, "%s../", out);
		free(out);
		out = t;
	}
	{
		const char *rest = b + common;
		char *t;

		while (*rest == '/')
			rest++;
		xasprintf(&t, "%s%s%s%s", out, rest, *rest != '\0' ? "/" : "",
		    file);
		free(out);
		out = t;
	}
	free(a);
	free(b);
	return (out);
}

char *
runtable_url(const char *from_dir, const char *to_dir, const char *file)
{
	static const char hex[] = "0123456789ABCDEF";
	char *rel = runtable_relpath(from_dir, to_dir, file), *out, *w;
	const unsigned char *r;

	w = out = xmalloc(strlen(rel) * 3 + 1);
	for (r = (const unsigned char *)rel; *r != '\0'; r++) {
		if ((*r >= 'A' && *r <= 'Z') || (*r >= 'a' && *r <= 'z') ||
		    (*r >= '0' && *r <= '9') || strchr("-._~/", *r) != NULL)
			*w++ = (char)*r;
		else {
			*w++ = '%';
			*w++ = hex[*r >> 4];
			*w++ = hex[*r & 15];
		}
	}
	*w = '\0';
	free(rel);
	return (out);
}

int
runtable_mkdirs(const char *dir, struct errmsg *e)
{
	char *path = xstrdup(dir), *p;
	int rc = 0;

	for (p = path + 1; *p != '\0'; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		(void)mkdir(path, 0755);
		*p = '/';
	}
	if (mkdir(path, 0755) != 0 && errno != EEXIST) {
		errmsg_set(e, NULL, 0, 0, "cannot create directory '%s': %s",
		    dir, strerror(errno));
		rc = -1;
	}
	free(path);
	return (rc);
}

int
runtable_fclose(FILE *f, const char *path, struct errmsg *e)
{
	int bad = fflush(f) == EOF || ferror(f), err = errno;

	if (fclose(f) != 0 && !bad) {
		bad = 1;
		err = errno;
	}
	if (bad)
		errmsg_set(e, NULL, 0, 0, "cannot write %s: %s", path,
		    strerror(err != 0 ? err : EIO));
	return (bad ? -1 : 0);
}

void
runtable_fmt(char *buf, unsigned long len, double v, int decimals)
{
	if (isnan(v))
		snprintf(buf, len, "n/a");
	else {
		/* two significant digits at least: 0.000062, not 0.000 */
		while (v != 0 && decimals < 9 && fabs(v) < pow(10,
		    1 - decimals))
			decimals++;
		snprintf(buf, len, "%.*f", decimals, v);
	}
}
