/* SPDX-License-Identifier: MIT */
/*
 * The report writers. Titles, headers, widths and units are vdbench's
 * (FORMATS.md); where vdbench prints Oracle's copyright, vdbc prints its
 * own name. vdbc's own additions go on lines of their own.
 */
#include "report.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "console.h"
#include "html.h"
#include "lexer.h"
#include "mtime.h"
#include "ofile.h"
#include "units.h"
#include "xmalloc.h"

enum rfile {
	RF_SUMMARY, RF_TOTALS, RF_FLAT, RF_LOG, RF_PARM, RF_ERROR, RF_STATUS,
	RF_SKEW, RF_SWAT, RF_SWAT_TOTAL, RF_N,
};

static const char *const rfile_names[RF_N] = {
	"summary", "totals", "flatfile", "logfile", "parmfile", "errorlog",
	"status", "skew", "swat_mon", "swat_mon_total",
};

/* The files of one report key. */
struct rkey {
	enum rkey_kind	 kind;
	char		*name;
	char		*html;		/* name, HTML-escaped */
	char		*path, *hpath;	/* of f and hf */
	FILE		*f;		/* interval lines (NULL: summary) */
	FILE		*hf;		/* histogram, or NULL */
	unsigned int	 lines;		/* lines since the last header */
};

struct report {
	FILE		*f[RF_N];
	char		*path[RF_N];
	int		 werr;		/* first write error, 0 = none */
	char		*werr_path;	/* and the file it hit */
	unsigned int	 lines_since_header;
	int		 totals_header_done;
	unsigned int	 totals_extra;	/* fs_extra of the last header */
	int		 run_no;
	char		*outdir;
	char		*base;		/* last component of outdir, escaped */
	int		 nkeys;
	struct rkey	*keys;
	char		 run_text[1024];	/* the current Starting line */
	char		 last_link_prefix[1400];
	int		 swat_started;
	int		 fs;		/* FWD layout (file-system runs) */
	int		 fs_flat;	/* flatfile in the FSD/FWD columns */
	unsigned int	 fs_extra;	/* 1 << FSOP_GETATTR, ... */
};

static const char *const flat_cols[] = {
	"Run", "Interval", "reqrate", "rate", "MB/sec", "bytes/io", "read%",
	"resp", "read_resp", "write_resp", "resp_max", "resp_std", "xfersize",
	"threads", "rdpct", "rhpct", "whpct", "seekpct", "lunsize", "version",
	"compratio", "dedupratio", "queue_depth", "cpu_used", "cpu_user",
	"cpu_kernel", "cpu_wait", "cpu_idle", NULL,
};

/* The flatfile of a file-system parmfile (FORMATS.md 4, FwdStats):
 * column, description. */
static const char *const fs_flat_cols[][2] = {
	{ "Run", "Name of run from RD=" },
	{ "Interval", "Reporting interval number" },
	{ "reqrate", "Requested FWD rate" },
	{ "rate", "Requested operations per second" },
	{ "resp", "Requested operations response time" },
	{ "MB/sec", "Megabytes per second (MB=1024*1024)" },
	{ "Read_rate", "Reads per second" },
	{ "Read_resp", "Read response time" },
	{ "Write_rate", "Writes per second" },
	{ "Write_resp", "Write response time" },
	{ "MB_read", "Megabytes read per second" },
	{ "MB_write", "Megabytes written per second" },
	{ "Xfersize", "Average transfer size" },
	{ "Mkdir_rate", "Mkdirs per second" },
	{ "Mkdir_resp", "Mkdir response time" },
	{ "Rmdir_rate", "Rmdirs per second" },
	{ "Rmdir_resp", "Rmdir response time" },
	{ "Create_rate", "Creates per second" },
	{ "Create_resp", "Create response time" },
	{ "Open_rate", "Opens per second" },
	{ "Open_resp", "Open response time" },
	{ "Close_rate", "Closes per second" },
	{ "Close_resp", "Close response time" },
	{ "Delete_rate", "Deletes per second" },
	{ "Delete_resp", "Delete response time" },
	{ "Getattr_rate", "Getattrs per second" },
	{ "Getattr_resp", "Getattr response time" },
	{ "Setattr_rate", "Setattrs per second" },
	{ "Setattr_resp", "Setattr response time" },
	{ "Access_rate", "Access per second" },
	{ "Access_resp", "Access response time" },
	{ "Copy_rate", "Copies per second" },
	{ "Copy_resp", "Copy response time" },
	{ "Move_rate", "Moves per second" },
	{ "Move_resp", "Move response time" },
	{ "compratio", "Requested compression ratio" },
	{ "dedupratio", "Requested dedup ratio" },
	{ "cpu_used", "kstat: cpu% user+sys" },
	{ "cpu_user", "kstat: cpu% user" },
	{ "cpu_kernel", "kstat: cpu% sys " },
	{ "cpu_wait", "kstat: cpu% wait" },
	{ "cpu_idle", "kstat: cpu% idle" },
};

static const char flat_intro[] =
"*\n"
"* 'flatfile.html' contains Vdbench generated information in a column by "
"column ASCII format. \n"
"* The first line in the file contains a one word 'column header name'; the "
"rest of the file \n"
"* contains data that belongs to each column. The objective of this file "
"format is to allow \n"
"* easy transfer of information to a spreadsheet and therefore the creation "
"of performance \n"
"* charts.\n"
"* See also 'Selective flatfile parsing' in the documentation. \n"
"*\n"
"* Run             : Name of run from RD=\n"
"* Interval        : Reporting interval number\n"
"* reqrate         : Requested i/o rate\n"
"* rate            : Observed i/o rate\n"
"* MB/sec          : Megabytes per second (MB=1024*1024)\n"
"* bytes/io        : Average data transfersize\n"
"* read%           : Observed read percentage\n"
"* resp            : Observed response time\n"
"* read_resp       : Observed read response time\n"
"* write_resp      : Observed write response time\n"
"* resp_max        : Observed maximum response time\n"
"* resp_std        : Standard deviation\n"
"* xfersize        : data transfer size requested\n"
"* threads         : number of threads requested\n"
"* rdpct           : read% requested\n"
"* rhpct           : readhit% requested\n"
"* whpct           : writehit% requested\n"
"* seekpct         : seek% requested\n"
"* lunsize         : Total amount of Gigabytes of all luns (GB= "
"1024*1024*1024)\n"
"* version         : Vdbench version identifier\n"
"* compratio       : Requested compression ratio\n"
"* dedupratio      : Requested dedup ratio\n"
"* queue_depth     : Vdbench calculated average i/o queue depth\n"
"* cpu_used        : kstat: cpu% user+sys\n"
"* cpu_user        : kstat: cpu% user\n"
"* cpu_kernel      : kstat: cpu% sys \n"
"* cpu_wait        : kstat: cpu% wait\n"
"* cpu_idle        : kstat: cpu% idle\n"
"* 'n/a'           : Data not available, or conflicting data. eg. multiple "
"different xfersize parameters used.\n"
"* \n";

/*
 * The first report file whose write failed, and the errno then; which
 * path it is, report_check() finds (out() knows only the stream).
 */
static FILE	*out_fail_f;
static int	 out_fail_errno;

/* Write and flush; a failure is kept for report_check(). */
static void __attribute__((format(printf, 2, 3)))
out(FILE *f, const char *fmt, ...)
{
	va_list ap;

	if (f == NULL)
		return;
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	errno = 0;
	if ((fflush(f) == EOF || ferror(f)) && out_fail_f == NULL &&
	    f != stdout && f != stderr) {
		out_fail_f = f;
		out_fail_errno = errno != 0 ? errno : EIO;
	}
}

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
/* The flatfile's comment block and column line: raw or FSD/FWD. */
static void
flat_header(struct report *r)
{
	FILE *f = r->f[RF_FLAT];
	size_t i, cut;

	if (!r->fs_flat) {
		out(f, "%s", flat_intro);
		fprintf(f, "%12s %23s ", "tod", "timestamp");
		for (i = 0; flat_cols[i] != NULL; i++)
			fprintf(f, "%10s ", flat_cols[i]);
		out(f, "\n");
		return;
	}
	/* the raw intro up to its column descriptions, then the fs ones */
	cut = (size_t)(strstr(flat_intro, "* Run ") - flat_intro);
	fprintf(f, "%.*s", (int)cut, flat_intro);
	for (i = 0; i < sizeof(fs_flat_cols) / sizeof(fs_flat_cols[0]); i++)
		fprintf(f, "* %-16s: %s\n", fs_flat_cols[i][0],
		    fs_flat_cols[i][1]);
	fprintf(f, "* %-16s: Data not available, or conflicting data. eg. "
	    "multiple different xfersize parameters used.\n* \n", "'n/a'");
	fprintf(f, "%12s %23s ", "tod", "timestamp");
	for (i = 0; i < sizeof(fs_flat_cols) / sizeof(fs_flat_cols[0]); i++)
		fprintf(f, "%10s ", fs_flat_cols[i][0]);
	out(f, "\n");
}

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
	/* Where vdbench prints Oracle's copyright, vdbc names itself. */
	out(r->f[RF_LOG], "vdbc %s, a vdbench-compatible storage load "
	    "generator\n\n", VDBC_VERSION);
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
		for (i = 0, n = 0; i < r->nkeys; i++) {
			if ((int)r->keys[i].kind != k)
				continue;
			if (n++ == 0)
				fprintf(r->f[RF_SUMMARY], "%-32s", k == RKEY_FSD ?
				    "Link to FSD reports:" :
				    "Link to FWD reports:");
			link_padded(r, r->keys[i].name);
		}
		if (n > 0)
			out(r->f[RF_SUMMARY], "\n");
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

/* vdbench's %W.DF: drop decimals until the number fits W. */
static void
fmtw(char *buf, size_t len, double v, int w, int d)
{
	for (; d >= 0; d--) {
		snprintf(buf, len, "%*.*f", w, d, v);
		if ((int)strlen(buf) <= w)
			return;
	}
}

/* Title "..mkdir..." centred with dots over width w. */
static void
dotted(char *buf, size_t len, const char *title, int w)
{
	int n = (int)strlen(title), left = (w - n) / 2, right = w - n - left;

	if (left < 0)
		left = right = 0;
	if (snprintf(buf, len, "%.*s%s%.*s", left, "....................", title,
	    right, "....................") >= (int)len)
		buf[len - 1] = '\0';
}

static const enum fsop fs_cols[] = {
	FSOP_MKDIR, FSOP_RMDIR, FSOP_CREATE, FSOP_OPEN, FSOP_CLOSE,
	FSOP_DELETE, FSOP_GETATTR, FSOP_SETATTR, FSOP_ACCESS, FSOP_COPY,
	FSOP_MOVE,
};

/* The operations' header columns: line 1 the dotted names, else 2. */
static void
fs_op_heads(const struct report *r, FILE *f, int line)
{
	char t[32];
	size_t i;

	for (i = 0; i < sizeof(fs_cols) / sizeof(fs_cols[0]); i++) {
		if (i >= 6 && !(r->fs_extra & (1u << fs_cols[i])))
			continue;
		if (line == 1) {
			dotted(t, sizeof(t), fsop_name(fs_cols[i]), 12);
			out(f, " %s", t);
		} else
			out(f, "  rate   resp");
	}
	out(f, "\n");
}

/* The FWD header (FORMATS.md 5.1). */
static void
fs_header(struct report *r, FILE *f)
{
	char date[16];

	out(f, "\n%s .Interval. .ReqstdOps... ...cpu%%...  read ....read..... "
	    "....write.... ..mb/sec... mb/sec .xfer..",
	    mtime_date(mtime_wall_ns(), date));
	fs_op_heads(r, f, 1);
	out(f, "%13s%10s   rate   resp total  sys   pct   rate   resp   rate "
	    "  resp  read write  total    size", "", "");
	fs_op_heads(r, f, 2);
}

/* One FWD line (skew: the end-of-run table row, no interval or cpu). */
static void
fs_line_as(struct report *r, char *buf, size_t len, const char *tod,
    const char *label, const struct iostats *s, uint64_t dur_ns,
    const struct cpu_pct *cpu, int skew)
{
	const struct iostats_side *rd = &s->side[0], *wr = &s->side[1];
	double secs = dur_ns > 0 ? (double)dur_ns / 1e9 : 1;
	uint64_t rw = rd->ios + wr->ios;
	struct { double v; int w, d; } f[40];
	size_t n = 0, i, o;
	char x[40];

#define FS_F(val, W, D) do { f[n].v = (val); f[n].w = (W); f[n].d = (D); \
	n++; } while (0)
	FS_F((double)s->req_n / secs, 6, 1);
	FS_F(s->req_n > 0 ? (double)s->req_resp_ns / (double)s->req_n / 1e6 :
	    0, 6, 3);
	if (!skew) {
		FS_F(cpu != NULL && cpu->valid ? cpu->user_sys : 0, 5, 1);
		FS_F(cpu != NULL && cpu->valid ? cpu->sys : 0, 4, 2);
	}
	FS_F(rw > 0 ? (double)rd->ios * 100.0 / (double)rw : 0, 5, 1);
	FS_F((double)rd->ios / secs, 6, 1);
	FS_F(rd->ios > 0 ? (double)rd->resp_sum_ns / (double)rd->ios / 1e6 :
	    0, 6, 3);
	FS_F((double)wr->ios / secs, 6, 1);
	FS_F(wr->ios > 0 ? (double)wr->resp_sum_ns / (double)wr->ios / 1e6 :
	    0, 6, 3);
	FS_F((double)rd->bytes / secs / 1048576.0, 5, 2);
	FS_F((double)wr->bytes / secs / 1048576.0, 5, 2);
	FS_F((double)(rd->bytes + wr->bytes) / secs / 1048576.0, 6, 2);
	FS_F(rw > 0 ? (double)((rd->bytes + wr->bytes) / rw) : 0, 7, 0);
	for (i = 0; i < sizeof(fs_cols) / sizeof(fs_cols[0]); i++) {
		const struct fsop_side *op = &s->op[fs_cols[i]];

		if (i >= 6 && !(r->fs_extra & (1u << fs_cols[i])))
			continue;
		FS_F((double)op->n / secs, 5, 1);
		FS_F(op->n > 0 ? (double)op->resp_sum_ns / (double)op->n /
		    1e6 : 0, 6, 3);
	}
#undef FS_F
	o = skew ? (size_t)snprintf(buf, len, "%s %-13s", tod, label) :
	    (size_t)snprintf(buf, len, "%s%10s", tod, label);
	for (i = 0; i < n && o < len; i++) {
		fmtw(x, sizeof(x), f[i].v, f[i].w, f[i].d);
		o += (size_t)snprintf(buf + o, len - o, " %s", x);
	}
}

static void
fs_line(struct report *r, char *buf, size_t len, const char *tod,
    const char *label, const struct iostats *s, uint64_t dur_ns,
    const struct cpu_pct *cpu)
{
	fs_line_as(r, buf, len, tod, label, s, dur_ns, cpu, 0);
}

/* A row of fs_skew's table: not the format run's fwd, nor an fwd of
 * another run (keys outlive runs: one that did nothing here). */
static int
fs_skew_row(const struct report *r, int k, enum rkey_kind kind,
    const struct iostats *s)
{
	size_t o;
	int busy = s->req_n > 0 || s->side[0].ios > 0 || s->side[1].ios > 0;

	for (o = 0; o < FSOP_N; o++)
		busy |= s->op[o].n > 0;
	if (r->keys[k].kind != kind)
		return (0);
	if (kind == RKEY_FWD)
		return (busy && strcmp(r->keys[k].name, "format") != 0);
	return (1);
}

/*
 * The end-of-run tables of a file-system run in skew.html, as vdbench
 * 5.04.06 writes them (c_fsd_format_read): Host:, FSD: and FWD: (the
 * format run's "format" fwd left out), each row the FWD line without
 * interval and cpu columns; one row is enough for a table.
 */
static void
fs_skew(struct report *r, const struct iostats *per_key, uint64_t dur_ns)
{
	static const struct { enum rkey_kind kind; const char *title; } t[] = {
		{ RKEY_HOST, "Host:" }, { RKEY_FSD, "FSD:" },
		{ RKEY_FWD, "FWD:" },
	};
	FILE *f = r->f[RF_SKEW];
	char tod[16], line[1024];
	size_t i;
	int k, n;

	mtime_tod(mtime_wall_ns(), tod);
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		for (k = 0, n = 0; k < r->nkeys; k++)
			n += fs_skew_row(r, k, t[i].kind, &per_key[k]);
		if (n == 0)
			continue;
		out(f, "%s \n%s %-13s .ReqstdOps...  read ....read..... "
		    "....write.... ..mb/sec... mb/sec .xfer..", tod, tod, "");
		fs_op_heads(r, f, 1);
		out(f, "%s %-13s   rate   resp   pct   rate   resp   rate   "
		    "resp  read write  total    size", tod, t[i].title);
		fs_op_heads(r, f, 2);
		for (k = 0; k < r->nkeys; k++) {
			if (!fs_skew_row(r, k, t[i].kind, &per_key[k]))
				continue;
			fs_line_as(r, line, sizeof(line), tod,
			    r->keys[k].html, &per_key[k], dur_ns, NULL, 1);
			out(f, "%s\n", line);
		}
	}
}

/* "80.0m", vdbench's short size. */
static const char *
short_size(uint64_t b, char *buf, size_t len)
{
	static const char u[] = "kmgtp";
	double v = (double)b;
	int i = -1;

	while (v >= 1024 && i < 4) {
		v /= 1024;
		i++;
	}
	if (i < 0)
		snprintf(buf, len, "%llu", (unsigned long long)b);
	else
		snprintf(buf, len, "%.1f%c", v, u[i]);
	return (buf);
}

void
report_anchor_row(struct report *r, int key, int w, const char *anchor,
    const uint64_t size[3], const uint64_t total[3], const uint64_t wss[3],
    const uint64_t exist[3], const uint64_t opened[2])
{
	const uint64_t *g[4] = { size, total, wss, exist };
	FILE *f = key >= 0 && key < r->nkeys ? r->keys[key].f : NULL;
	char b[32];
	int i;

	if (f == NULL)
		return;
	{
		char h[4096];

		out(f, "%-*s", w + (int)(strlen(html_esc(h, sizeof(h),
		    anchor)) - strlen(anchor)), h);
	}
	for (i = 0; i < 4; i++)
		out(f, " %8llu %8llu %6s", (unsigned long long)g[i][0],
		    (unsigned long long)g[i][1], short_size(g[i][2], b,
		    sizeof(b)));
	out(f, " %8llu %6s\n", (unsigned long long)opened[0],
	    short_size(opened[1], b, sizeof(b)));
}

void
report_set_fs(struct report *r, int fs, unsigned int extra_ops)
{
	r->fs = fs;
	r->fs_extra = extra_ops;
}

void
report_fs_misc(struct report *r, const struct iostats *s,
    unsigned int nintervals, uint64_t interval_s)
{
	char tod[16], label[128], line[300];
	double secs = (double)(nintervals > 0 ? nintervals : 1) *
	    (double)(interval_s > 0 ? interval_s : 1);
	int i, any = 0;

	mtime_tod(mtime_wall_ns(), tod);
	for (i = 0; i < FSM_N; i++) {
		char n1[32], n2[32];

		if (s->misc[i] == 0)
			continue;
		if (!any++) {
			snprintf(line, sizeof(line), "%s \n%s Miscellaneous "
			    "statistics:\n%s (These statistics do not include "
			    "activity between the last reported interval and "
			    "shutdown.)\n", tod, tod, tod);
			out(stdout, "%s", line);
			out(r->f[RF_LOG], "%s", line);
		}
		snprintf(label, sizeof(label), "%-20s%s:", fsmisc_name(i),
		    fsmisc_text(i));
		snprintf(line, sizeof(line), "%s %-60s %10s %10s/sec\n", tod,
		    label, units_grouped(s->misc[i], n1, sizeof(n1)),
		    units_grouped((uint64_t)((double)s->misc[i] / secs), n2,
		    sizeof(n2)));
		out(stdout, "%s", line);
		out(r->f[RF_LOG], "%s", line);
	}
	/* Console and logfile only, as vdbench 5.04.06 writes them. */
	if (any) {
		out(stdout, "%s \n", tod);
		out(r->f[RF_LOG], "%s \n", tod);
	}
}

static void	header(FILE *);

/* The two header lines, after an empty line. */
static void
header_for(struct report *r, FILE *f)
{
	if (r->fs)
		fs_header(r, f);
	else
		header(f);
}

/* The two header lines, after an empty line. */
static void
header(FILE *f)
{
	char date[16];

	out(f, "\n%s%10s %10s %8s %7s %6s %8s %8s %8s %8s %8s %5s %5s %5s\n",
	    mtime_date(mtime_wall_ns(), date), "interval", "i/o", "MB/sec",
	    "bytes", "read", "resp", "read", "write", "resp", "resp", "queue",
	    "cpu%", "cpu%");
	out(f, "%12s%10s %10s %8s %7s %6s %8s %8s %8s %8s %8s %5s %5s %5s\n",
	    "", "", "rate", "1024**2", "i/o", "pct", "time", "resp", "resp",
	    "max", "stddev", "depth", "sys+u", "sys");
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
	for (i = 0; i < r->nkeys; i++)
		r->keys[i].lines = 0;
	snprintf(r->run_text, sizeof(r->run_text), "%s", text);
}

/* Rates, response times and the rest from counters (FORMATS.md 2). */
void
report_derive(struct derived *d, const struct iostats *s, uint64_t dur_ns)
{
	const struct iostats_side *rd = &s->side[IOSTATS_READ];
	const struct iostats_side *wr = &s->side[IOSTATS_WRITE];
	uint64_t n = rd->ios + wr->ios, bytes = rd->bytes + wr->bytes;
	double secs = dur_ns > 0 ? (double)dur_ns / 1e9 : 1;

	memset(d, 0, sizeof(*d));
	d->rate = (double)n / secs;
	d->mbs = (double)bytes / secs / 1048576.0;
	if (n > 0) {
		d->bytes_io = (long)(bytes / n);
		d->readpct = (double)rd->ios * 100.0 / (double)n;
		d->resp = (double)(rd->resp_sum_ns + wr->resp_sum_ns) /
		    (double)n / 1e6;
	}
	if (rd->ios > 0)
		d->rresp = (double)rd->resp_sum_ns / (double)rd->ios / 1e6;
	if (wr->ios > 0)
		d->wresp = (double)wr->resp_sum_ns / (double)wr->ios / 1e6;
	d->max = (double)(rd->resp_max_ns > wr->resp_max_ns ? rd->resp_max_ns :
	    wr->resp_max_ns) / 1e6;
	d->stddev = iostats_stddev_ms(n, rd->resp_sum_ns + wr->resp_sum_ns,
	    rd->resp_sumsq_us2 + wr->resp_sumsq_us2);
	d->qdepth = dur_ns > 0 ? (double)s->qdepth_ns / (double)dur_ns : 0;
}

/* One interval line. */
void
report_format_line(char *buf, size_t len, const char *tod, const char *label,
    const struct iostats *s, uint64_t dur_ns, const struct cpu_pct *cpu)
{
	struct derived d;

	report_derive(&d, s, dur_ns);
	snprintf(buf, len, "%s%10s %10.2f %8.2f %7ld %6.2f %8.3f %8.3f %8.3f "
	    "%8.3f %8.3f %5.1f %5.1f %5.1f", tod, label, d.rate, d.mbs,
	    d.bytes_io, d.readpct, d.resp, d.rresp, d.wresp, d.max, d.stddev,
	    d.qdepth, cpu != NULL && cpu->valid ? cpu->user_sys : 0,
	    cpu != NULL && cpu->valid ? cpu->sys : 0);
}

/* A flatfile number, or n/a when it has no single value. */
static void
flat_num(FILE *f, double v)
{
	if (v < 0)
		fprintf(f, "%10s ", "n/a");
	else
		fprintf(f, "%10.4f ", v);
}

/* The FSD/FWD flatfile's columns from reqrate to dedupratio. */
static void
fs_flat_values(FILE *f, const struct iostats *s, uint64_t dur_ns,
    const struct run_request *q)
{
	const struct iostats_side *rd = &s->side[0], *wr = &s->side[1];
	double secs = dur_ns > 0 ? (double)dur_ns / 1e9 : 1;
	uint64_t rw = rd->ios + wr->ios;
	size_t i;

	fprintf(f, "%10.4f %10.4f %10.4f %10.4f %10.4f %10.4f %10.4f %10.4f "
	    "%10.4f %10.4f %10ld ", q->reqrate, (double)s->req_n / secs,
	    s->req_n > 0 ? (double)s->req_resp_ns / (double)s->req_n / 1e6 :
	    0, (double)(rd->bytes + wr->bytes) / secs / 1048576.0,
	    (double)rd->ios / secs, rd->ios > 0 ? (double)rd->resp_sum_ns /
	    (double)rd->ios / 1e6 : 0, (double)wr->ios / secs, wr->ios > 0 ?
	    (double)wr->resp_sum_ns / (double)wr->ios / 1e6 : 0,
	    (double)rd->bytes / secs / 1048576.0, (double)wr->bytes / secs /
	    1048576.0, rw > 0 ? (long)((rd->bytes + wr->bytes) / rw) : 0L);
	/* every operation, used or not: fs_cols' order is the flatfile's */
	for (i = 0; i < sizeof(fs_cols) / sizeof(fs_cols[0]); i++) {
		const struct fsop_side *op = &s->op[fs_cols[i]];

		fprintf(f, "%10.4f %10.4f ", (double)op->n / secs, op->n > 0 ?
		    (double)op->resp_sum_ns / (double)op->n / 1e6 : 0);
	}
	flat_num(f, q->compratio);
	flat_num(f, q->dedupratio);
}

/* One flatfile row. */
static void
flat_row(struct report *r, const char *tod, const char *run,
    const char *label, const struct iostats *s, uint64_t dur_ns,
    const struct cpu_pct *cpu, const struct run_request *q)
{
	FILE *f = r->f[RF_FLAT];
	char stamp[40], h[1024];
	time_t t = time(NULL);
	struct tm tm;
	struct derived d;

	report_derive(&d, s, dur_ns);
	localtime_r(&t, &tm);
	strftime(stamp, sizeof(stamp), "%m/%d/%Y-%H:%M:%S-%Z ", &tm);
	fprintf(f, "%12s %24s%10s %10s ", tod, stamp, html_esc(h, sizeof(h),
	    run), label);
	if (r->fs_flat) {
		fs_flat_values(f, s, dur_ns, q);
		fprintf(f, "%10.4f %10.4f %10.4f %10.4f %10.4f \n",
		    cpu->valid ? cpu->user_sys : 0, cpu->valid ? cpu->user :
		    0, cpu->valid ? cpu->sys : 0, 0.0, 0.0);
		fflush(f);
		return;
	}
	fprintf(f, "%10.4f %10.4f %10.4f %10ld %10.4f %10.4f %10.4f %10.4f "
	    "%10.4f %10.4f ", q->reqrate, d.rate, d.mbs, d.bytes_io,
	    d.readpct, d.resp, d.rresp, d.wresp, d.max, d.stddev);
	if (q->xfersize < 0)
		fprintf(f, "%10s ", "n/a");
	else
		fprintf(f, "%10ld ", (long)q->xfersize);
	flat_num(f, q->threads);
	flat_num(f, q->rdpct);
	flat_num(f, q->rhpct);
	flat_num(f, q->whpct);
	flat_num(f, q->seekpct);
	flat_num(f, q->lunsize_gb);
	fprintf(f, "%10s ", "n/a");		/* version */
	flat_num(f, q->compratio);
	flat_num(f, q->dedupratio);
	fprintf(f, "%10.4f ", d.qdepth);
	/* cpu_used is user+sys here; vdbench 5.04.06 writes user only. */
	fprintf(f, "%10.4f %10.4f %10.4f %10.4f %10.4f \n",
	    cpu->valid ? cpu->user_sys : 0, cpu->valid ? cpu->user : 0,
	    cpu->valid ? cpu->sys : 0, 0.0, 0.0);
	fflush(f);
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

/* Add a report key and open its files. */
int
report_key_add(struct report *r, enum rkey_kind kind, const char *name,
    int with_hist)
{
	static const char *const titles[] = {
		[RKEY_TOTAL] = "Total response time histogram.",
		[RKEY_HOST] = "Host response time histogram.",
		[RKEY_SLAVE] = "Slave response time histogram.",
		[RKEY_SD] = "SD response time histogram.",
		[RKEY_WD] = "Workload response time histogram.",
		[RKEY_HOSTSD] = "Host/SD response time histogram.",
		[RKEY_SLAVESD] = "Slave/SD response time histogram.",
		[RKEY_SDQUIET] = "",
		[RKEY_FSD] = "Performance histogram for FSD",
		[RKEY_FWD] = "Performance histogram for FWD",
		[RKEY_ANCHORS] = "",
	};
	struct rkey *k;
	char path[4200];
	int own_link = 0;

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
		else {
			out(k->f, "<title>Vdbench %s/%s.html</title><pre>\n",
			    r->base, name);
			switch (kind) {
			case RKEY_HOST:
				out(k->f, "Host summary report(s) for host=%s"
				    "\n\n", name);
				return (r->nkeys++);	/* links follow */
			case RKEY_SLAVE:
				out(k->f, "Slave summary report for slave=%s\n"
				    "\n%-32s <A HREF=\"%s.stdout.html\">Slave "
				    "stdout/stderr</A>\n", name, "Console log:",
				    name);
				break;
			case RKEY_SD:
				out(k->f, "SD report for sd=%s\n\n", name);
				break;
			case RKEY_ANCHORS:
				out(k->f, "Anchor status report\n\n(This report "
				    "will not contain useful info when the "
				    "'shared=yes' FSD parameter is used)\n\n"
				    "%*s......Anchor size....    ......Total "
				    "size.....    ......Workingset.....    "
				    "....Existing ........    ...Opened..."
				    "             \n%*sfiles     dirs  bytes    "
				    "files     dirs  bytes    files     dirs  "
				    "bytes    files     dirs  bytes    files  "
				    "bytes\n\n", with_hist + 4, "",
				    with_hist + 4, "");
				own_link = 1;
				with_hist = 0;
				break;
			case RKEY_FSD:
			case RKEY_FWD:
				out(k->f, "Report for %s %s\n\n", kind ==
				    RKEY_FSD ? "fsd" : "fwd", name);
				if (with_hist)
					out(k->f, "%-32s <A HREF=\"%s.histogram."
					    "html\">histogram</A>\n",
					    "Link to Performance histogram:",
					    name);
				own_link = 1;
				break;
			case RKEY_HOSTSD:
			case RKEY_SLAVESD:
				out(k->f, "%s report for %s=%.*s,sd=%s\n\n",
				    kind == RKEY_HOSTSD ? "Host/SD" : "Slave/SD",
				    kind == RKEY_HOSTSD ? "host" : "slave",
				    (int)(strrchr(name, '.') - name), name,
				    strrchr(name, '.') + 1);
				break;
			default:
				out(k->f, "Workload Report for wd=%s\n\n", name);
				break;
			}
			if (with_hist && !own_link)
				out(k->f, "%-32s <A HREF=\"%s.histogram.html\">"
				    "histogram</A>\n", "Link to response time "
				    "histogram:", name);
			out(k->f, "\n");
		}
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
		else
			out(k->hf, "<title>Vdbench %s/%s%shistogram.html</title>"
			    "<pre>\n%s%s%s\n\n\n", r->base, kind == RKEY_TOTAL ?
			    "" : name, kind == RKEY_TOTAL ? "" : ".",
			    titles[kind], kind == RKEY_FSD || kind == RKEY_FWD ?
			    "=" : "", kind == RKEY_FSD || kind == RKEY_FWD ?
			    name : "");
	}
	return (r->nkeys++);
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

/* A bucket bound in ms, at most 8 characters (Histogram.getShort). */
static void
bound_ms(char *buf, size_t len, uint64_t us)
{
	snprintf(buf, len, "%.3f", (double)us / 1000.0);
	if (strlen(buf) > 8)
		buf[8] = '\0';
	if (buf[strlen(buf) - 1] == '.')
		buf[strlen(buf) - 1] = '\0';
}

/* One histogram block (FORMATS.md 3.2). */
static void
hist_block(FILE *f, const char *title, const struct vdbhist_edges *ed,
    const uint64_t *count)
{
	uint64_t total = 0;
	double cum = 0;
	unsigned int b;

	for (b = 0; b <= ed->n; b++)
		total += count[b];
	fprintf(f, "%s\n %8s <  %10s   %10s %8s %8s  '+': Individual%%; "
	    "'+-': Cumulative%%\n\n", title, "min(ms)", "max(ms)", "count",
	    "%%", "cum%%");
	for (b = 0; b <= ed->n; b++) {
		char lo[16], hi[16], cnt[32];
		double pct = total > 0 ? (double)count[b] * 100.0 /
		    (double)total : 0;
		int plus = (int)(pct * 0.5), minus, i;

		bound_ms(lo, sizeof(lo), b == 0 ? 0 : ed->edge_us[b - 1]);
		if (b == ed->n)
			snprintf(hi, sizeof(hi), "max");
		else
			bound_ms(hi, sizeof(hi), ed->edge_us[b]);
		minus = (int)(cum * 0.5);
		cum += pct;
		units_grouped(count[b], cnt, sizeof(cnt));
		fprintf(f, " %8s < %11s %12s %8.4f %8.4f  ", lo, hi, cnt, pct,
		    cum);
		for (i = 0; i < plus; i++)
			fputc('+', f);
		for (i = 0; i < minus; i++)
			fputc('-', f);
		fputc('\n', f);
	}
	fputc('\n', f);
}

/* A key's histogram of the run. */
void
report_key_hist(struct report *r, int key, const struct vdbhist_edges *ed,
    const struct vdbhist vdb[2])
{
	FILE *f = r->keys[key].hf;
	uint64_t both[VDBHIST_MAX_BUCKETS], nr = 0, nw = 0;
	unsigned int b;

	if (f == NULL)
		return;
	for (b = 0; b <= ed->n; b++) {
		both[b] = vdb[0].count[b] + vdb[1].count[b];
		nr += vdb[0].count[b];
		nw += vdb[1].count[b];
	}
	if (r->fs) {
		/* vdbench's FWD histograms: one, of the requested
		 * operations; nothing for an fwd the run did not use */
		if (nr + nw > 0)
			hist_block(f, "Total of all requested operations: ",
			    ed, both);
	} else if (nr + nw == 0)
		out(f, "No statistics generated for this run.\n\n");
	else if (nw == 0)
		hist_block(f, "Only reads done for this workload:", ed,
		    vdb[0].count);
	else if (nr == 0)
		hist_block(f, "Only writes done for this workload:", ed,
		    vdb[1].count);
	else {
		hist_block(f, "Reads and writes:", ed, both);
		hist_block(f, "Reads:", ed, vdb[0].count);
		hist_block(f, "Writes:", ed, vdb[1].count);
	}
	fflush(f);
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

/* One skew table row: the interval line without its CPU columns. */
static void
skew_row(FILE *f, const char *tod, const char *label,
    const struct iostats *s, uint64_t dur_ns)
{
	struct derived d;

	report_derive(&d, s, dur_ns);
	out(f, "%s %-12s%10.2f %8.2f %7ld %6.2f %8.3f %8.3f %8.3f %8.3f %8.3f "
	    "%5.1f \n", tod, label, d.rate, d.mbs, d.bytes_io, d.readpct,
	    d.resp, d.rresp, d.wresp, d.max, d.stddev, d.qdepth);
}

/* Requested against observed share of the I/Os, per wd. */
static void
skew_compare(FILE *f, const struct report *r, const char *tod,
    const struct iostats *per_key, uint64_t dur_ns, const double *req)
{
	struct derived tot, d;
	int k;

	report_derive(&tot, &per_key[0], dur_ns);
	out(f, "%s \n%s %-12s%10s %8s %8s\n%s %-12s%10s %8s %8s\n", tod, tod,
	    "", "skew", "skew", "", tod, "Wd:", "requested", "observed",
	    "delta");
	for (k = 0; k < r->nkeys; k++) {
		double obs;

		if (r->keys[k].kind != RKEY_WD || r->keys[k].f == NULL)
			continue;
		report_derive(&d, &per_key[k], dur_ns);
		obs = tot.rate > 0 ? d.rate * 100 / tot.rate : 0;
		out(f, "%s %-12s%10.2f %8.2f %8.2f\n", tod, r->keys[k].html,
		    req[k], obs, obs - req[k]);
	}
}

/* The end-of-run skew tables (per slave, host, sd, wd when > 1). */
void
report_skew(struct report *r, const struct iostats *per_key,
    uint64_t dur_ns, const double *skew_req)
{
	static const struct { enum rkey_kind kind; const char *title; } t[] = {
		{ RKEY_HOST, "Host:" }, { RKEY_SLAVE, "Slave:" },
		{ RKEY_SD, "Sd:" }, { RKEY_WD, "Wd:" },
	};
	FILE *f = r->f[RF_SKEW];
	char tod[16];
	size_t i;
	int k, n, said = 0;

	if (r->fs) {
		fs_skew(r, per_key, dur_ns);
		return;
	}
	mtime_tod(mtime_wall_ns(), tod);
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		for (k = 0, n = 0; k < r->nkeys; k++)
			n += r->keys[k].kind == t[i].kind &&
			    (t[i].kind != RKEY_WD || r->keys[k].f != NULL);
		if (n < 2)
			continue;
		if (!said++)
			out(f, "%s \n%s Counts reported below are for "
			    "non-warmup intervals.\n%s \n", tod, tod, tod);
		out(f, "%s %-12s%10s %8s %7s %6s %8s %8s %8s %8s %8s %5s \n",
		    tod, "", "i/o", "MB/sec", "bytes", "read", "resp", "read",
		    "write", "resp", "resp", "queue");
		out(f, "%s %-12s%10s %8s %7s %6s %8s %8s %8s %8s %8s %5s \n",
		    tod, t[i].title, "rate", "1024**2", "i/o", "pct", "time",
		    "resp", "resp", "max", "stddev", "depth");
		for (k = 0; k < r->nkeys; k++) {
			if (r->keys[k].kind == t[i].kind &&
			    (t[i].kind != RKEY_WD || r->keys[k].f != NULL))
				skew_row(f, tod, r->keys[k].html, &per_key[k],
				    dur_ns);
		}
		skew_row(f, tod, "Total", &per_key[0], dur_ns);
		if (t[i].kind == RKEY_WD && skew_req != NULL)
			skew_compare(f, r, tod, per_key, dur_ns, skew_req);
	}
}

/* summary.html's stream. */
FILE *
report_summary(struct report *r)
{
	return (r->f[RF_SUMMARY]);
}

/* "11302026-10:03:08.000" for a wall time in ns (whole seconds). */
static const char *
swat_date(uint64_t wall_ns, char *buf, size_t len)
{
	time_t t = (time_t)(wall_ns / 1000000000u);
	struct tm tm;

	localtime_r(&t, &tm);
	strftime(buf, len, "%m%d%Y-%H:%M:%S.000", &tm);
	return (buf);
}

/* The fixed part of both swat files: one line per sd. */
static void
swat_fixed(struct report *r, FILE *f)
{
	char d[40];
	int k, n = 0;

	out(f, ":date %s\n:fixed_data\n", swat_date(mtime_wall_ns(), d,
	    sizeof(d)));
	for (k = 0; k < r->nkeys; k++) {
		if (r->keys[k].kind == RKEY_SD ||
		    r->keys[k].kind == RKEY_SDQUIET) {
			out(f, "%d %d 0 0 sd_%s\n", n, n, r->keys[k].name);
			n++;
		}
	}
	out(f, ":\n");
}

/* One data block: begin, end, then a line per sd (FORMATS.md 3.1). */
static void
swat_block(struct report *r, FILE *f, const struct iostats *per_key,
    uint64_t begin_ns, uint64_t end_ns)
{
	char b[40], e[40];
	int k, n = 0;

	if (!r->swat_started) {
		swat_fixed(r, r->f[RF_SWAT]);
		swat_fixed(r, r->f[RF_SWAT_TOTAL]);
		r->swat_started = 1;
	}
	out(f, ":vdbench503_vdbench_data_for_swat303\n:date %s %s\n",
	    swat_date(begin_ns, b, sizeof(b)), swat_date(end_ns, e,
	    sizeof(e)));
	for (k = 0; k < r->nkeys; k++) {
		const struct iostats *s = &per_key[k];
		uint64_t rmax = s->side[0].resp_max_ns / 1000;
		uint64_t wmax = s->side[1].resp_max_ns / 1000;

		if (r->keys[k].kind != RKEY_SD &&
		    r->keys[k].kind != RKEY_SDQUIET)
			continue;
		out(f, "%d 0 %llu %llu %llu 0 %llu %llu %llu %llu %llu 0 0 0\n",
		    n++, (unsigned long long)s->side[0].ios,
		    (unsigned long long)s->side[1].ios,
		    (unsigned long long)((s->side[0].resp_sum_ns +
		    s->side[1].resp_sum_ns) / 1000),
		    (unsigned long long)(s->side[0].bytes / 512),
		    (unsigned long long)(s->side[1].bytes / 512),
		    (unsigned long long)(rmax > wmax ? rmax : wmax),
		    (unsigned long long)rmax, (unsigned long long)wmax);
	}
	out(f, ":\n");
}

/* swat_mon.txt: an interval of every sd. */
void
report_swat_interval(struct report *r, const struct iostats *per_key,
    uint64_t duration_ns)
{
	uint64_t now = mtime_wall_ns();

	swat_block(r, r->f[RF_SWAT], per_key, now - duration_ns, now);
}

/* swat_mon_total.txt: the run's averaged intervals of every sd. */
void
report_swat_total(struct report *r, const struct iostats *per_key,
    uint64_t duration_ns)
{
	uint64_t now = mtime_wall_ns();

	swat_block(r, r->f[RF_SWAT_TOTAL], per_key, now - duration_ns, now);
}
