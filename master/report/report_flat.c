/* SPDX-License-Identifier: MIT */
/*
 * flatfile.html (FORMATS.md 4): its comment block and column line,
 * raw or FSD/FWD, and one row per interval or avg line.
 */
#include "report_int.h"

#include <string.h>
#include <time.h>

#include "html.h"

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

/* The flatfile's comment block and column line: raw or FSD/FWD. */
void
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
	    0, (double)(rd->bytes + wr->bytes) / secs / report_mb,
	    (double)rd->ios / secs, rd->ios > 0 ? (double)rd->resp_sum_ns /
	    (double)rd->ios / 1e6 : 0, (double)wr->ios / secs, wr->ios > 0 ?
	    (double)wr->resp_sum_ns / (double)wr->ios / 1e6 : 0,
	    (double)rd->bytes / secs / report_mb, (double)wr->bytes / secs /
	    report_mb, rw > 0 ? (long)((rd->bytes + wr->bytes) / rw) : 0L);
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
void
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
