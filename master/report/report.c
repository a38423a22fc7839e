/* SPDX-License-Identifier: MIT */
/*
 * The report writers. Titles, headers, widths and units are vdbench's
 * (FORMATS.md); where vdbench prints Oracle's copyright, vdbc prints its
 * own name. vdbc's own additions go on lines of their own.
 */
#include "report_int.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "console.h"
#include "hist.h"
#include "html.h"
#include "lexer.h"
#include "mtime.h"
#include "ofile.h"
#include "units.h"
#include "xmalloc.h"

static const char *const rfile_names[RF_N] = {
	"summary", "totals", "flatfile", "logfile", "parmfile", "errorlog",
	"status", "skew", "swat_mon", "swat_mon_total", "percentiles",
};

/* Keep the first write error: the path and errno. */
static void
werr_set(struct report *r, const char *path, int err)
{
	if (r->werr != 0)
		return;
	r->werr = err != 0 ? err : EIO;
	r->werr_path = xstrdup(path);
}

/* Flush one report file and see whether any write to it failed. */
static void
check_file(struct report *r, FILE *f, const char *path)
{
	int err;

	if (f == NULL || r->werr != 0)
		return;
	errno = 0;
	if (fflush(f) == 0 && !ferror(f))
		return;
	err = f == out_fail_f ? out_fail_errno : errno;
	werr_set(r, path, err);
}

int
report_check(struct report *r, struct errmsg *e)
{
	int i;

	if (r == NULL)
		return (0);
	/* the first write that failed names its file and errno */
	for (i = 0; out_fail_f != NULL && i < RF_N; i++)
		if (r->f[i] == out_fail_f)
			werr_set(r, r->path[i], out_fail_errno);
	for (i = 0; out_fail_f != NULL && i < r->nkeys; i++) {
		if (r->keys[i].f == out_fail_f)
			werr_set(r, r->keys[i].path, out_fail_errno);
		if (r->keys[i].hf == out_fail_f)
			werr_set(r, r->keys[i].hpath, out_fail_errno);
	}
	for (i = 0; i < RF_N; i++)
		check_file(r, r->f[i], r->path[i]);
	for (i = 0; i < r->nkeys; i++) {
		check_file(r, r->keys[i].f, r->keys[i].path);
		check_file(r, r->keys[i].hf, r->keys[i].hpath);
	}
	if (r->werr == 0)
		return (0);
	errmsg_set(e, NULL, 0, 0, "Cannot write report file %s: %s",
	    r->werr_path, strerror(r->werr));
	return (-1);
}

/* "10:03:24 Nov 30 2026 UTC" */
static const char *
created(char *buf, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;

	localtime_r(&t, &tm);
	strftime(buf, len, "%H:%M:%S %b %d %Y %Z", &tm);
	return (buf);
}

/* Open every report file with its title line. */
struct report *
report_open(const char *outdir, const struct plan *p, int nfiles,
    char *const files[], struct errmsg *e)
{
	struct report *r = xcalloc(1, sizeof(*r));
	const char *base = strrchr(outdir, '/');
	char path[4096], when[64], line[4096];
	int i, fs_only;

	/* the run list comes with report_rd_links(); here only whether
	 * it is all file-system runs: vdbench writes no swat_mon files
	 * then (c_fsd_format_read) */
	for (i = 0, fs_only = p != NULL && p->nruns > 0; fs_only &&
	    i < p->nruns; i++)
		fs_only = p->runs[i].nfwds > 0;
	base = base != NULL && base[1] != '\0' ? base + 1 : outdir;
	r->outdir = xstrdup(outdir);
	r->base = xstrdup(html_esc(line, sizeof(line), base));
	for (i = 0; i < RF_N; i++) {
		int txt = i == RF_SWAT || i == RF_SWAT_TOTAL;

		if (txt && fs_only)
			continue;

		snprintf(path, sizeof(path), "%s/%s.%s", outdir,
		    rfile_names[i], txt ? "txt" : "html");
		if ((r->f[i] = ofile_fopen(path)) == NULL) {
			errmsg_set(e, NULL, 0, 0, "cannot create %s: %s", path,
			    strerror(errno));
			report_close(r);
			return (NULL);
		}
		r->path[i] = xstrdup(path);
		if (!txt)
			out(r->f[i], "<title>Vdbench %s/%s.html</title><pre>\n",
			    base, rfile_names[i]);
	}
	created(when, sizeof(when));
	out(r->f[RF_SUMMARY], "vdbc %s, a vdbench-compatible storage load "
	    "generator\nVdbench summary report, created %s\n\n", VDBC_VERSION,
	    when);
	out(r->f[RF_SUMMARY], "%-32s <A HREF=\"logfile.html\">logfile</A>\n"
	    "%-32s <A HREF=\"totals.html\">totals</A>\n"
	    "%-32s <A HREF=\"status.html\">status</A>\n"
	    "%-32s <A HREF=\"parmfile.html\">parmfile</A>\n"
	    "%-32s <A HREF=\"parmscan.html\">parmscan</A>\n"
	    "%-32s <A HREF=\"errorlog.html\">errorlog</A>\n"
	    "%-32s <A HREF=\"flatfile.html\">flatfile</A>\n",
	    "Link to logfile:", "Run totals:", "Vdbench status:",
	    "Copy of input parameter files:", "Copy of parameter scan detail:",
	    "Link to errorlog:", "Link to flatfile:");
	if (fs_only)
		out(r->f[RF_SUMMARY], "%-32s <A HREF=\"anchors.html\">anchors"
		    "</A>\n", "Link to anchor status:");
	out(r->f[RF_SUMMARY], "\n");
	out(r->f[RF_TOTALS], "Run totals\n\n\n");
	/* vdbc's file: totals.html keeps vdbench's columns (reports.md) */
	out(r->f[RF_PCT], "vdbc: response time percentiles per run, in ms\n"
	    "From log-linear histograms merged over all slaves (at most 1%% "
	    "relative error; max is the largest response). The same numbers "
	    "as\nresults.json's average.percentiles_ms; totals.html keeps "
	    "vdbench's columns only, for the scripts that read it.\n\n");
	/* Where vdbench prints Oracle's copyright, vdbc names itself. */
	out(r->f[RF_LOG], "vdbc %s, a vdbench-compatible storage load "
	    "generator\nVdbench distribution: vdbc-%s\n\n", VDBC_VERSION,
	    VDBC_VERSION);
	out(r->f[RF_ERROR], "Vdbench error log, created %s \nError log. If "
	    "there are no error messages beyond this line then there were no "
	    "Data Validation or I/O errors.\n\n", when);
	out(r->f[RF_STATUS], "* Vdbench status\n\n* The objective of this file "
	    "is to contain easily parseable information about the current "
	    "state of Vdbench.\n* This then can serve as an 'official' "
	    "interface for any software monitoring Vdbench.\n* Each line of "
	    "output will be immediately flushed to the file system, making its "
	    "content accessible by any monitoring program.\n* The values below "
	    "are all tab-delimited.\n\n");
	out(r->f[RF_SKEW], "Workload skew report\n\nSkew information will "
	    "only be generated if:\n - there is more than one Workload "
	    "Definition (WD/FWD)\n - there is more than one Storage "
	    "Definition (SD/FSD)\n - there is more than one Host\n - there "
	    "is more than one Slave\n(Though these rules may be ignored from "
	    "time to time).\n\n\n");
	report_key_add(r, RKEY_TOTAL, "total", 1);
	r->fs_flat = fs_only;
	flat_header(r);
	for (i = 0; i < nfiles; i++) {
		FILE *in = fopen(files[i], "r");
		size_t n, total = 0;

		out(r->f[RF_PARM], "\n* Contents of parameter file: %s\n\n",
		    html_esc(line, sizeof(line), files[i]));
		if (in == NULL)
			continue;
		/* the text as it is, escaped (the lexer refused NUL bytes),
		 * no more than the lexer read */
		while (total < LEXER_MAX_FILE && (n = fread(line, 1,
		    sizeof(line) - 1, in)) > 0) {
			total += n;
			line[n] = '\0';
			html_put(r->f[RF_PARM], line);
		}
		fclose(in);
		out(r->f[RF_PARM], "%s", "");
	}
	return (r);
}

/* Write to every key file and histogram file. */
static void __attribute__((format(printf, 2, 3)))
all_keys(struct report *r, const char *fmt, ...)
{
	char text[4096];
	va_list ap;
	int i;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	for (i = 0; i < r->nkeys; i++) {
		out(r->keys[i].f, "%s", text);
		out(r->keys[i].hf, "%s", text);
	}
}

/* " <A HREF=name.html>name</A>" and the name padded to 8, vdbench's way
 * of listing sd, fsd and fwd reports on one line. */
static void
link_padded(struct report *r, const char *name)
{
	char h[1024];

	html_esc(h, sizeof(h), name);
	fprintf(r->f[RF_SUMMARY], " <A HREF=\"%s.html\">%s</A>%*s", h, h,
	    (int)(strlen(name) < 8 ? 8 - strlen(name) : 0), "");
}

/* Does fwd report a come before b in the summary's links? */
static int
fwd_link_before(const char *a, const char *b)
{
	if (strcmp(b, "format") == 0)
		return (0);
	return (strcmp(a, "format") == 0 || strcmp(a, b) < 0);
}

/* The summary's links to the key reports (vdbench's order). */
static void
key_links(struct report *r)
{
	int i, n, k;

	for (i = 0; i < r->nkeys; i++) {
		if (r->keys[i].kind == RKEY_HOST)
			out(r->f[RF_SUMMARY], "%-32s <A HREF=\"%s.html\">%s</A>\n",
			    "Link to HOST reports:", r->keys[i].html,
			    r->keys[i].html);
	}
	for (k = RKEY_FSD; k <= RKEY_FWD; k++) {
		int *ord = xcalloc((size_t)r->nkeys + 1, sizeof(int)), j;

		for (i = 0, n = 0; i < r->nkeys; i++)
			if ((int)r->keys[i].kind == k)
				ord[n++] = i;
		/* fwds: format first, then by name (the reference's v5:
		 * fwd=fwdw then fwd=fwdr, linked "format fwdr fwdw") */
		for (i = 1; k == RKEY_FWD && i < n; i++) {
			for (j = i; j > 0 && fwd_link_before(r->keys[ord[j]].name,
			    r->keys[ord[j - 1]].name); j--) {
				int t = ord[j];

				ord[j] = ord[j - 1];
				ord[j - 1] = t;
			}
		}
		for (i = 0; i < n; i++) {
			if (i == 0)
				fprintf(r->f[RF_SUMMARY], "%-32s", k == RKEY_FSD ?
				    "Link to FSD reports:" :
				    "Link to FWD reports:");
			link_padded(r, r->keys[ord[i]].name);
		}
		if (n > 0)
			out(r->f[RF_SUMMARY], "\n");
		free(ord);
	}
	out(r->f[RF_SUMMARY], "%-32s <A HREF=\"histogram.html\">histogram"
	    "</A>\n%-32s <A HREF=\"skew.html\">skew</A>\n",
	    "Link to response time histogram:",
	    "Link to workload skew report:");
	for (i = 0; i < r->nkeys; i++)
		if (r->keys[i].kind == RKEY_ANCHORS)
			out(r->f[RF_SUMMARY], "%-32s <A HREF=\"anchors.html\">"
			    "anchors</A>\n", "Link to anchor report:");
	for (i = 0, n = 0; i < r->nkeys; i++) {
		if (r->keys[i].kind != RKEY_SD)
			continue;
		if (n++ == 0)
			fprintf(r->f[RF_SUMMARY], "%-32s", "Link to SD reports:");
		link_padded(r, r->keys[i].name);
	}
	if (n > 0)
		out(r->f[RF_SUMMARY], "\n");
	for (i = 0, n = 0; i < r->nkeys; i++) {
		if (r->keys[i].kind != RKEY_WD || r->keys[i].f == NULL)
			continue;
		if (n++ == 0)
			out(r->f[RF_SUMMARY], "\n");
		out(r->f[RF_SUMMARY], "%-32s <A HREF=\"%s.html\">%s</A>\n",
		    "Link to workload report:", r->keys[i].html,
		    r->keys[i].html);
	}
	out(r->f[RF_SUMMARY], "\n");
}

/* The "Link to Run Definitions" block, anchors 1..n in run order. */
void
report_rd_links(struct report *r, const struct plan *p, int with_format)
{
	char line[4096], loops[1024];
	int i, n = 0;

	key_links(r);
	if (with_format) {
		snprintf(line, sizeof(line), "%-32s <A HREF=\"#_%d\">SD_format "
		    "For loops: threads=2 iorate=max</A>\n",
		    "Link to Run Definitions:", ++n);
		out(r->f[RF_SUMMARY], "%s", line);
		out(r->f[RF_TOTALS], "%s", line);
		out(r->f[RF_SKEW], "%s", line);
		all_keys(r, "%s", line);
	}
	for (i = 0; i < p->nruns; i++) {
		char text[1400], prefix[1400] = "", h[2800];
		const char *sp;

		plan_loops_text(&p->runs[i], loops, sizeof(loops));
		snprintf(text, sizeof(text), "%s For loops: %s",
		    p->runs[i].name, loops);
		/* vdbench blanks what repeats the previous run's link. */
		if ((sp = strrchr(text, ' ')) != NULL)
			snprintf(prefix, sizeof(prefix), "%.*s",
			    (int)(sp + 1 - text), text);
		if (i > 0 && prefix[0] != '\0' &&
		    strcmp(prefix, r->last_link_prefix) == 0)
			snprintf(line, sizeof(line), "%-32s %*s<A HREF=\"#_%d\">"
			    "%s</A>\n", "", (int)strlen(prefix), "", n + 1,
			    html_esc(h, sizeof(h), text + strlen(prefix)));
		else
			snprintf(line, sizeof(line), "%-32s <A HREF=\"#_%d\">"
			    "%s</A>\n", n == 0 ? "Link to Run Definitions:" :
			    "", n + 1, html_esc(h, sizeof(h), text));
		snprintf(r->last_link_prefix, sizeof(r->last_link_prefix), "%s",
		    prefix);
		n++;
		out(r->f[RF_SUMMARY], "%s", line);
		out(r->f[RF_TOTALS], "%s", line);
		out(r->f[RF_SKEW], "%s", line);
		all_keys(r, "%s", line);
	}
	/* vdbc's charts are at the end of a long page: a way there */
	out(r->f[RF_SUMMARY], "%-32s <A HREF=\"#vdbc_charts\">vdbc: charts "
	    "per run and per interval</A>\n", "");
	out(r->f[RF_SUMMARY], "%-32s <A HREF=\"percentiles.html\">vdbc: "
	    "response time percentiles per run</A>\n", "");
	out(r->f[RF_SUMMARY], "\n");
	out(r->f[RF_TOTALS], "\n");
	out(r->f[RF_SKEW], "\n");
	all_keys(r, "\n");
}

/* Close every file. NULL is fine. */
void
report_close(struct report *r)
{
	int i;

	if (r == NULL)
		return;
	for (i = 0; i < RF_N; i++) {
		if (r->f[i] != NULL)
			fclose(r->f[i]);
		free(r->path[i]);
	}
	for (i = 0; i < r->nkeys; i++) {
		if (r->keys[i].f != NULL)
			fclose(r->keys[i].f);
		if (r->keys[i].hf != NULL)
			fclose(r->keys[i].hf);
		free(r->keys[i].name);
		free(r->keys[i].html);
		free(r->keys[i].path);
		free(r->keys[i].hpath);
	}
	free(r->werr_path);
	out_fail_f = NULL;	/* its streams are gone: never match a new one */
	free(r->keys);
	free(r->outdir);
	free(r->base);
	free(r);
}

/* The console's copy. */
FILE *
report_logfile(struct report *r)
{
	return (r != NULL ? r->f[RF_LOG] : NULL);
}

/* A run starts. */
void
report_run_start(struct report *r, const char *text, int anchor)
{
	char tod[16], h[4096];
	int i;

	text = html_esc(h, sizeof(h), text);
	r->run_no = anchor;
	r->lines_since_header = 0;
	mtime_tod(mtime_wall_ns(), tod);
	out(r->f[RF_SUMMARY], "\n<a name=\"_%d\"></a><i><b>%s %s</b></i>\n\n",
	    r->run_no, tod, text);
	out(r->f[RF_TOTALS], "\n<a name=\"_%d\"></a><i><b>%s %s</b></i>\n\n",
	    r->run_no, tod, text);
	all_keys(r, "\n<a name=\"_%d\"></a><i><b>%s %s</b></i>\n\n",
	    r->run_no, tod, text);
	out(r->f[RF_SKEW], "\n<a name=\"_%d\"></a><i><b>%s %s</b></i>\n\n",
	    r->run_no, tod, text);
	out(r->f[RF_PCT], "\n<a name=\"_%d\"></a><i><b>%s %s</b></i>\n\n",
	    r->run_no, tod, text);
	for (i = 0; i < r->nkeys; i++)
		r->keys[i].lines = 0;
	snprintf(r->run_text, sizeof(r->run_text), "%s", text);
}

/* An interval. */
void
report_interval(struct report *r, const char *run, unsigned int k,
    const struct iostats *s, uint64_t dur_ns, const struct cpu_pct *cpu,
    const struct run_request *q)
{
	char tod[16], label[32], line[512];

	mtime_tod(mtime_wall_ns(), tod);
	snprintf(label, sizeof(label), "%u", k);
	if (k % 30 == 1) {
		header_for(r, stdout);
		header_for(r, r->f[RF_SUMMARY]);
		header_for(r, r->f[RF_LOG]);
	}
	if (r->fs)
		fs_line(r, line, sizeof(line), tod, label, s, dur_ns, cpu);
	else
		report_format_line(line, sizeof(line), tod, label, s, dur_ns,
		    cpu);
	out(stdout, "%s\n", line);
	out(r->f[RF_SUMMARY], "%s\n", line);
	out(r->f[RF_LOG], "%s\n", line);
	flat_row(r, tod, run, label, s, dur_ns, cpu, q);
}

/* The average line. */
void
report_avg(struct report *r, const char *run, const char *label,
    const struct iostats *s, uint64_t dur_ns, const struct cpu_pct *cpu,
    const struct run_request *q)
{
	char tod[16], line[512];

	mtime_tod(mtime_wall_ns(), tod);
	if (r->fs)
		fs_line(r, line, sizeof(line), tod, label, s, dur_ns, cpu);
	else
		report_format_line(line, sizeof(line), tod, label, s, dur_ns,
		    cpu);
	out(stdout, "%s\n", line);
	out(r->f[RF_SUMMARY], "%s\n", line);
	out(r->f[RF_LOG], "%s\n", line);
	/* vdbench: a counter that starts at 1 and goes up by 2 per run
	 * prints the header when it is 1 modulo 30 (runs 1, 16, 31, ...). */
	if ((2 * r->totals_header_done + 1) % 30 == 1 || (r->fs &&
	    r->fs_extra != r->totals_extra)) {
		/* also when a file-system run adds columns (getattr, ...) */
		header_for(r, r->f[RF_TOTALS]);
		r->totals_extra = r->fs_extra;
	}
	r->totals_header_done++;
	out(r->f[RF_TOTALS], "%s\n", line);
	flat_row(r, tod, run, label, s, dur_ns, cpu, q);
}

void
report_percentiles(struct report *r, const char *label, int fs,
    struct hist *const h[2])
{
	static const double p[] = { 50, 90, 95, 99, 99.9, 99.99 };
	static const char *const what[3] = { "all", "read", "write" };
	struct hist *all = hist_new();
	const struct hist *one;
	size_t i;
	int d;

	for (d = 0; d < 2; d++) {
		if (h[d] != NULL)
			hist_merge(all, h[d]);
	}
	if (fs)
		out(r->f[RF_PCT], "a file-system run: the percentiles of its "
		    "data reads and writes, not of its metadata operations\n");
	out(r->f[RF_PCT], "%-12s %-6s %12s %9s %9s %9s %9s %9s %9s %9s\n",
	    "", "", "count", "p50", "p90", "p95", "p99", "p99.9",
	    "p99.99", "max");
	for (d = 0; d < 3; d++) {
		one = d == 0 ? all : h[d - 1];
		if (one == NULL || hist_count(one) == 0)
			continue;
		/* no time of day first: not an interval line to scripts */
		out(r->f[RF_PCT], "%-12s %-6s %12llu", label, what[d],
		    (unsigned long long)hist_count(one));
		for (i = 0; i < sizeof(p) / sizeof(p[0]); i++)
			out(r->f[RF_PCT], " %9.3f", (double)hist_percentile_ns(
			    one, p[i]) / 1e6);
		out(r->f[RF_PCT], " %9.3f\n", (double)hist_max_ns(one) / 1e6);
	}
	if (hist_count(all) == 0)
		out(r->f[RF_PCT], "%-12s no I/O: no percentiles\n", label);
	hist_free(all);
}

/* An error line. */
void
report_error(struct report *r, const char *text)
{
	char tod[16], h[8192];

	mtime_tod(mtime_wall_ns(), tod);
	if (r != NULL)
		out(r->f[RF_ERROR], "%s %s\n", tod, html_esc(h, sizeof(h),
		    text));
}

/* The closing line of the summary. */
void
report_end(struct report *r, const char *text)
{
	char tod[16], h[8192];

	mtime_tod(mtime_wall_ns(), tod);
	out(r->f[RF_SUMMARY], "%s %s\n", tod, html_esc(h, sizeof(h), text));
}

/*
 * What opens each kind of key's files: the first line of its page (then
 * the name), the label of its link to the histogram, and the histogram
 * page's title (FORMATS.md 3).
 */
static const struct rkey_desc {
	const char	*head;		/* "<head><name>" */
	const char	*link;		/* NULL: no link to the histogram */
	const char	*hist;
} rkey_descs[] = {
	[RKEY_TOTAL] = { NULL, NULL, "Total response time histogram." },
	[RKEY_HOST] = { "Host summary report(s) for host=", NULL,
	    "Host response time histogram." },
	[RKEY_SLAVE] = { "Slave summary report for slave=",
	    "Link to response time histogram:",
	    "Slave response time histogram." },
	[RKEY_SD] = { "SD report for sd=", "Link to response time histogram:",
	    "SD response time histogram." },
	[RKEY_WD] = { "Workload Report for wd=",
	    "Link to response time histogram:",
	    " response time histogram." },	/* after "wd=<name>" */
	[RKEY_HOSTSD] = { "Host SD report for sd=",
	    "Link to response time histogram:",
	    "Host SD response time histogram." },
	[RKEY_SLAVESD] = { "Slave SD report for sd=",
	    "Link to response time histogram:",
	    "Slave SD response time histogram." },
	[RKEY_SDQUIET] = { NULL, NULL, "" },
	[RKEY_FSD] = { "Report for fsd ", "Link to Performance histogram:",
	    "Performance histogram for FSD" },
	[RKEY_FWD] = { "Report for fwd ", "Link to Performance histogram:",
	    "Performance histogram for FWD" },
	[RKEY_ANCHORS] = { "Anchor status report", NULL, "" },
};

/* anchors.html's heading: w, the room before the columns. */
static void
anchors_head(FILE *f, const char *head, int w)
{
	out(f, "%s\n\n(This report will not contain useful info when the "
	    "'shared=yes' FSD parameter is used)\n\n%*s......Anchor size....  "
	    "  ......Total size.....    ......Workingset.....    ....Existing "
	    "........    ...Opened...             \n%*sfiles     dirs  bytes  "
	    "  files     dirs  bytes    files     dirs  bytes    files     dirs"
	    "  bytes    files  bytes\n\n", head, w, "", w, "");
}

/* A key's own page: title, heading, link to its histogram. 0 when the
 * page is done (a host's links follow later). lun: a host sd's. */
static int
key_page(struct report *r, struct rkey *k, int with_hist, const char *lun)
{
	const struct rkey_desc *d = &rkey_descs[k->kind];
	const char *name = k->html, *dot = strrchr(name, '.');

	out(k->f, "<title>Vdbench %s/%s.html</title><pre>\n", r->base, name);
	if (k->kind == RKEY_ANCHORS) {
		/* with_hist is the anchor column's width here */
		anchors_head(k->f, d->head, with_hist + 4);
		with_hist = 0;
	} else if (k->kind == RKEY_HOSTSD && dot != NULL) {
		char hl[4200];

		/* vdbench's: "Host SD report for sd=S,host=H,lun=L" */
		out(k->f, "%s%s,host=%.*s,lun=%s\n\n", d->head, dot + 1,
		    (int)(dot - name), name, html_esc(hl, sizeof(hl),
		    lun != NULL ? lun : ""));
	} else if (k->kind == RKEY_SLAVESD && dot != NULL)
		out(k->f, "%s%s\n\n", d->head, dot + 1);
	else
		out(k->f, "%s%s\n\n", d->head, name);
	if (k->kind == RKEY_HOST)
		return (0);
	if (k->kind == RKEY_SLAVE)
		out(k->f, "%-32s <A HREF=\"%s.stdout.html\">Slave "
		    "stdout/stderr</A>\n", "Console log:", name);
	if (with_hist && d->link != NULL)
		out(k->f, "%-32s <A HREF=\"%s.histogram.html\">histogram</A>\n",
		    d->link, name);
	out(k->f, "\n");
	return (1);
}

/* Add a report key and open its files. */
static int
key_add(struct report *r, enum rkey_kind kind, const char *name,
    int with_hist, const char *lun)
{
	const struct rkey_desc *d = &rkey_descs[kind];
	struct rkey *k;
	char path[4200];

	r->keys = xreallocarray(r->keys, (size_t)r->nkeys + 1,
	    sizeof(*r->keys));
	k = &r->keys[r->nkeys];
	memset(k, 0, sizeof(*k));
	k->kind = kind;
	k->name = xstrdup(name);
	k->html = xstrdup(html_esc(path, sizeof(path), name));
	if (kind == RKEY_SDQUIET)
		return (r->nkeys++);
	name = k->html;		/* from here on, in pages */
	if (kind != RKEY_TOTAL) {
		snprintf(path, sizeof(path), "%s/%s.html", r->outdir, k->name);
		k->path = xstrdup(path);
		if ((k->f = ofile_fopen(path)) == NULL)
			werr_set(r, path, errno);
		else if (!key_page(r, k, with_hist, lun))
			return (r->nkeys++);	/* links follow */
		if (kind == RKEY_ANCHORS)
			with_hist = 0;
	}
	if (with_hist) {
		if (kind == RKEY_TOTAL)
			snprintf(path, sizeof(path), "%s/histogram.html",
			    r->outdir);
		else
			snprintf(path, sizeof(path), "%s/%s.histogram.html",
			    r->outdir, k->name);
		k->hpath = xstrdup(path);
		if ((k->hf = ofile_fopen(path)) == NULL)
			werr_set(r, path, errno);
		else if (kind == RKEY_WD)
			out(k->hf, "<title>Vdbench %s/%s.histogram.html</title>"
			    "<pre>\nwd=%s%s\n\n\n", r->base, name, name,
			    d->hist);
		else
			out(k->hf, "<title>Vdbench %s/%s%shistogram.html</title>"
			    "<pre>\n%s%s%s\n\n\n", r->base, kind == RKEY_TOTAL ?
			    "" : name, kind == RKEY_TOTAL ? "" : ".",
			    d->hist, kind == RKEY_FSD || kind == RKEY_FWD ?
			    "=" : "", kind == RKEY_FSD || kind == RKEY_FWD ?
			    name : "");
	}
	return (r->nkeys++);
}

int
report_key_add(struct report *r, enum rkey_kind kind, const char *name,
    int with_hist)
{
	return (key_add(r, kind, name, with_hist, NULL));
}

/* A host's sd key ("<host>.<sd>"), its title naming the host's lun. */
int
report_key_add_lun(struct report *r, enum rkey_kind kind, const char *name,
    const char *lun)
{
	return (key_add(r, kind, name, 0, lun));
}

/* A key's interval or avg line, with its own header every 30 lines. */
void
report_key_line(struct report *r, int key, const char *label,
    const struct iostats *s, uint64_t dur_ns, const struct cpu_pct *cpu)
{
	struct rkey *k = &r->keys[key];
	char tod[16], line[512];

	if (k->f == NULL || k->kind == RKEY_ANCHORS)
		return;
	if (strncmp(label, "avg_", 4) != 0 && k->lines++ % 30 == 0)
		header_for(r, k->f);
	mtime_tod(mtime_wall_ns(), tod);
	if (r->fs)
		fs_line(r, line, sizeof(line), tod, label, s, dur_ns, cpu);
	else
		report_format_line(line, sizeof(line), tod, label, s, dur_ns,
		    cpu);
	out(k->f, "%s\n", line);
}

/* A status.html line, flushed at once. */
void
report_status(struct report *r, const char *state, const char *run,
    const char *loops)
{
	char stamp[40], hs[1024];
	time_t t = time(NULL);
	struct tm tm;

	if (r == NULL)
		return;
	localtime_r(&t, &tm);
	strftime(stamp, sizeof(stamp), "%m/%d/%Y-%H:%M:%S-%Z", &tm);
	state = html_esc(hs, sizeof(hs), state);	/* may name a slave */
	if (run != NULL) {
		char hr[1024], hl[2048];

		out(r->f[RF_STATUS], "%s \t%s\trd=%s\tFor loops: %s\n", stamp,
		    hs, html_esc(hr, sizeof(hr), run), html_esc(hl,
		    sizeof(hl), loops));
	} else
		out(r->f[RF_STATUS], "%s \t%s\n", stamp, hs);
}

/* Number of report keys. */
int
report_nkeys(const struct report *r)
{
	return (r->nkeys);
}

/* Raw text into a key's report (links written after the key exists). */
void
report_key_text(struct report *r, int key, const char *text)
{
	out(r->keys[key].f, "%s", text);
}

/* <host>.var_adm_msgs.html, as vdbench writes it on Linux. */
void
report_host_messages(struct report *r, const char *host)
{
	char path[4200];
	FILE *f;

	char h[1024];

	snprintf(path, sizeof(path), "%s/%s.var_adm_msgs.html", r->outdir,
	    host);
	if ((f = ofile_fopen(path)) == NULL) {
		werr_set(r, path, errno);
		return;
	}
	fprintf(f, "<title>Vdbench %s/%s.var_adm_msgs.html</title><pre>\n"
	    "This file will contain the last 'nn' lines of files \n"
	    "/var/adm/messages and /var/adm/messages.0 on the target host. \n"
	    " \n", r->base, html_esc(h, sizeof(h), host));
	errno = 0;
	if (fflush(f) == EOF || ferror(f))
		werr_set(r, path, errno);
	if (fclose(f) == EOF)
		werr_set(r, path, errno);
}

/* A key's kind and name. */
enum rkey_kind
report_key_kind(const struct report *r, int key)
{
	return (r->keys[key].kind);
}

const char *
report_key_name(const struct report *r, int key)
{
	return (r->keys[key].name);
}

/* A line of vdbc's own in summary.html (and the logfile). */
void
report_summary_note(struct report *r, const char *text)
{
	char tod[16], h[8192];

	mtime_tod(mtime_wall_ns(), tod);
	html_esc(h, sizeof(h), text);
	out(r->f[RF_SUMMARY], "%s %s\n", tod, h);
	out(r->f[RF_LOG], "%s %s\n", tod, h);
}

/* summary.html's stream. */
FILE *
report_summary(struct report *r)
{
	return (r->f[RF_SUMMARY]);
}

void
report_substitutions(struct report *r, const struct subvars *sv,
    int nfiles, char *const files[])
{
	char h[4200], *line = NULL, *t;
	size_t cap = 0, total;
	ssize_t n;
	int i;

	if (sv == NULL || sv->n == 0)
		return;
	out(r->f[RF_PARM], "\n* Command line substitutions:");
	for (i = 0; i < sv->n; i++) {
		char *kv;

		xasprintf(&kv, "%s=%s", sv->v[i].name, sv->v[i].value);
		out(r->f[RF_PARM], " %s", html_esc(h, sizeof(h), kv));
		free(kv);
	}
	out(r->f[RF_PARM], "\n");
	for (i = 0; i < nfiles; i++) {
		FILE *in = fopen(files[i], "r");

		out(r->f[RF_PARM], "\n* Contents of parameter file: %s, with "
		    "the substitutions resolved\n\n", html_esc(h, sizeof(h),
		    files[i]));
		if (in == NULL)
			continue;
		/* no more than the lexer read */
		for (total = 0; total < LEXER_MAX_FILE && (n = getline(&line,
		    &cap, in)) > 0; total += (size_t)n) {
			t = xstrdup(line);
			lexer_subst(&t, sv);
			html_put(r->f[RF_PARM], t);
			free(t);
		}
		fclose(in);
		out(r->f[RF_PARM], "%s", "");
	}
	free(line);
}
