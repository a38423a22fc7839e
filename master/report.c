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
#include "mtime.h"
#include "xmalloc.h"

enum rfile {
	RF_SUMMARY, RF_TOTALS, RF_FLAT, RF_LOG, RF_PARM, RF_ERROR, RF_N,
};

static const char *const rfile_names[RF_N] = {
	"summary", "totals", "flatfile", "logfile", "parmfile", "errorlog",
};

struct report {
	FILE		*f[RF_N];
	unsigned int	 lines_since_header;
	int		 totals_header_done;
	int		 run_no;
};

static const char *const flat_cols[] = {
	"Run", "Interval", "reqrate", "rate", "MB/sec", "bytes/io", "read%",
	"resp", "read_resp", "write_resp", "resp_max", "resp_std", "xfersize",
	"threads", "rdpct", "rhpct", "whpct", "seekpct", "lunsize", "version",
	"compratio", "dedupratio", "queue_depth", "cpu_used", "cpu_user",
	"cpu_kernel", "cpu_wait", "cpu_idle", NULL,
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

/* Write and flush. */
static void __attribute__((format(printf, 2, 3)))
out(FILE *f, const char *fmt, ...)
{
	va_list ap;

	if (f == NULL)
		return;
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fflush(f);
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
	int i;

	(void)p;		/* the run list comes with report_rd_links() */
	base = base != NULL && base[1] != '\0' ? base + 1 : outdir;
	for (i = 0; i < RF_N; i++) {
		snprintf(path, sizeof(path), "%s/%s.html", outdir,
		    rfile_names[i]);
		if ((r->f[i] = fopen(path, "w")) == NULL) {
			errmsg_set(e, NULL, 0, 0, "cannot create %s: %s", path,
			    strerror(errno));
			report_close(r);
			return (NULL);
		}
		out(r->f[i], "<title>Vdbench %s/%s.html</title><pre>\n", base,
		    rfile_names[i]);
	}
	created(when, sizeof(when));
	out(r->f[RF_SUMMARY], "vdbc %s, a vdbench-compatible storage load "
	    "generator\nVdbench summary report, created %s\n\n", VDBC_VERSION,
	    when);
	out(r->f[RF_SUMMARY], "%-32s <A HREF=\"logfile.html\">logfile</A>\n"
	    "%-32s <A HREF=\"totals.html\">totals</A>\n"
	    "%-32s <A HREF=\"parmfile.html\">parmfile</A>\n"
	    "%-32s <A HREF=\"errorlog.html\">errorlog</A>\n"
	    "%-32s <A HREF=\"flatfile.html\">flatfile</A>\n\n",
	    "Link to logfile:", "Run totals:", "Copy of input parameter files:",
	    "Link to errorlog:", "Link to flatfile:");
	out(r->f[RF_TOTALS], "Run totals\n\n\n");
	out(r->f[RF_ERROR], "Vdbench error log, created %s \nError log. If "
	    "there are no error messages beyond this line then there were no "
	    "Data Validation or I/O errors.\n\n", when);
	out(r->f[RF_FLAT], "%s", flat_intro);
	fprintf(r->f[RF_FLAT], "%12s %23s ", "tod", "timestamp");
	for (i = 0; flat_cols[i] != NULL; i++)
		fprintf(r->f[RF_FLAT], "%10s ", flat_cols[i]);
	out(r->f[RF_FLAT], "\n");
	for (i = 0; i < nfiles; i++) {
		FILE *in = fopen(files[i], "r");
		size_t n;

		out(r->f[RF_PARM], "\n* Contents of parameter file: %s\n\n",
		    files[i]);
		if (in == NULL)
			continue;
		while ((n = fread(line, 1, sizeof(line), in)) > 0)
			fwrite(line, 1, n, r->f[RF_PARM]);
		fclose(in);
		fflush(r->f[RF_PARM]);
	}
	return (r);
}

/* The "Link to Run Definitions" block, anchors 1..n in run order. */
void
report_rd_links(struct report *r, const struct plan *p, int with_format)
{
	char line[2048], loops[1024];
	int i, n = 0;

	if (with_format) {
		snprintf(line, sizeof(line), "%-32s <A HREF=\"#_%d\">SD_format "
		    "For loops: threads=2 iorate=max</A>\n",
		    "Link to Run Definitions:", ++n);
		out(r->f[RF_SUMMARY], "%s", line);
		out(r->f[RF_TOTALS], "%s", line);
	}
	for (i = 0; i < p->nruns; i++) {
		plan_loops_text(&p->runs[i], loops, sizeof(loops));
		snprintf(line, sizeof(line), "%-32s <A HREF=\"#_%d\">%s For "
		    "loops: %s</A>\n", n == 0 ? "Link to Run Definitions:" : "",
		    n + 1, p->runs[i].name, loops);
		n++;
		out(r->f[RF_SUMMARY], "%s", line);
		out(r->f[RF_TOTALS], "%s", line);
	}
	out(r->f[RF_SUMMARY], "\n");
	out(r->f[RF_TOTALS], "\n");
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
	}
	free(r);
}

/* The console's copy. */
FILE *
report_logfile(struct report *r)
{
	return (r != NULL ? r->f[RF_LOG] : NULL);
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
	char tod[16];

	r->run_no = anchor;
	r->lines_since_header = 0;
	mtime_tod(mtime_wall_ns(), tod);
	out(r->f[RF_SUMMARY], "\n<a name=\"_%d\"></a><i><b>%s %s</b></i>\n\n",
	    r->run_no, tod, text);
	out(r->f[RF_TOTALS], "\n<a name=\"_%d\"></a><i><b>%s %s</b></i>\n\n",
	    r->run_no, tod, text);
}

/* Derived values of an interval or an average. */
struct derived {
	double	rate, mbs, readpct, resp, rresp, wresp, max, stddev, qdepth;
	long	bytes_io;
};

/* Rates, response times and the rest from counters (FORMATS.md 2). */
static void
derive(struct derived *d, const struct iostats *s, uint64_t dur_ns)
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

	derive(&d, s, dur_ns);
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

/* One flatfile row. */
static void
flat_row(struct report *r, const char *tod, const char *run,
    const char *label, const struct iostats *s, uint64_t dur_ns,
    const struct cpu_pct *cpu, const struct run_request *q)
{
	FILE *f = r->f[RF_FLAT];
	char stamp[40];
	time_t t = time(NULL);
	struct tm tm;
	struct derived d;

	derive(&d, s, dur_ns);
	localtime_r(&t, &tm);
	strftime(stamp, sizeof(stamp), "%m/%d/%Y-%H:%M:%S-%Z ", &tm);
	fprintf(f, "%12s %24s%10s %10s ", tod, stamp, run, label);
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
	fprintf(f, "%10s ", "n/a");		/* dedupratio */
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
		header(stdout);
		header(r->f[RF_SUMMARY]);
		header(r->f[RF_LOG]);
	}
	report_format_line(line, sizeof(line), tod, label, s, dur_ns, cpu);
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
	report_format_line(line, sizeof(line), tod, label, s, dur_ns, cpu);
	out(stdout, "%s\n", line);
	out(r->f[RF_SUMMARY], "%s\n", line);
	out(r->f[RF_LOG], "%s\n", line);
	if (!r->totals_header_done) {
		header(r->f[RF_TOTALS]);
		r->totals_header_done = 1;
	}
	out(r->f[RF_TOTALS], "%s\n", line);
	flat_row(r, tod, run, label, s, dur_ns, cpu, q);
}

/* An error line. */
void
report_error(struct report *r, const char *text)
{
	char tod[16];

	mtime_tod(mtime_wall_ns(), tod);
	if (r != NULL)
		out(r->f[RF_ERROR], "%s %s\n", tod, text);
}

/* The closing line of the summary. */
void
report_end(struct report *r, const char *text)
{
	char tod[16];

	mtime_tod(mtime_wall_ns(), tod);
	out(r->f[RF_SUMMARY], "%s %s\n", tod, text);
}
