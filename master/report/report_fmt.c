/* SPDX-License-Identifier: MIT */
/*
 * The shared pieces of the report writers: out(), which writes,
 * flushes and keeps the first failure for report_check(); vdbench's
 * number and title formats; the counters-to-rates derivation and the
 * raw interval line; the interval header of either layout.
 */
#include "report_int.h"

#include <errno.h>
#include <stdarg.h>
#include <string.h>

#include "mtime.h"

/*
 * The first report file whose write failed, and the errno then; which
 * path it is, report_check() finds (out() knows only the stream).
 */
FILE	*out_fail_f;
int	 out_fail_errno;

/* Write and flush; a failure is kept for report_check(). */
void __attribute__((format(printf, 2, 3)))
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

/* vdbench's %W.DF: drop decimals until the number fits W. */
void
fmtw(char *buf, size_t len, double v, int w, int d)
{
	for (; d >= 0; d--) {
		snprintf(buf, len, "%*.*f", w, d, v);
		if ((int)strlen(buf) <= w)
			return;
	}
}

/* Title "..mkdir..." centred with dots over width w. */
void
dotted(char *buf, size_t len, const char *title, int w)
{
	int n = (int)strlen(title), left = (w - n) / 2, right = w - n - left;

	if (left < 0)
		left = right = 0;
	if (snprintf(buf, len, "%.*s%s%.*s", left, "....................", title,
	    right, "....................") >= (int)len)
		buf[len - 1] = '\0';
}

static void	header(FILE *);


/* The two header lines, after an empty line. */
void
header_for(struct report *r, FILE *f)
{
	if (r->fs)
		fs_header(r, f);
	else
		header(f);
}

/* The two header lines, after an empty line. */
double report_mb = 1048576.0;

const char *
report_mb_text(void)
{
	return (report_mb == 1000000.0 ? "1000**2" : "1024**2");
}

static void
header(FILE *f)
{
	char date[16];

	out(f, "\n%s%10s %10s %8s %7s %6s %8s %8s %8s %8s %8s %5s %5s %5s\n",
	    mtime_date(mtime_wall_ns(), date), "interval", "i/o", "MB/sec",
	    "bytes", "read", "resp", "read", "write", "resp", "resp", "queue",
	    "cpu%", "cpu%");
	out(f, "%12s%10s %10s %8s %7s %6s %8s %8s %8s %8s %8s %5s %5s %5s\n",
	    "", "", "rate", report_mb_text(), "i/o", "pct", "time", "resp",
	    "resp",
	    "max", "stddev", "depth", "sys+u", "sys");
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
	d->mbs = (double)bytes / secs / report_mb;
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
