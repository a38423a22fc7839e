/* SPDX-License-Identifier: MIT */
/*
 * The file-system (FSD/FWD) report lines (FORMATS.md 5): the FWD
 * header and interval line, the skew tables of an fs run, the
 * anchors.html rows and the "Miscellaneous statistics" block.
 */
#include "report_int.h"

#include <string.h>

#include "html.h"
#include "mtime.h"
#include "units.h"

const enum fsop fs_cols[FS_NCOLS] = {
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
void
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
	FS_F((double)rd->bytes / secs / report_mb, 5, 2);
	FS_F((double)wr->bytes / secs / report_mb, 5, 2);
	FS_F((double)(rd->bytes + wr->bytes) / secs / report_mb, 6, 2);
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
	/* vdbench's FwdPrint puts a blank before every field, the label's
	 * too: " %10s" ends it under ".Interval." (FORMATS.md 5.1) */
	o = skew ? (size_t)snprintf(buf, len, "%s %-13s", tod, label) :
	    (size_t)snprintf(buf, len, "%s %10s", tod, label);
	for (i = 0; i < n && o < len; i++) {
		fmtw(x, sizeof(x), f[i].v, f[i].w, f[i].d);
		o += (size_t)snprintf(buf + o, len - o, " %s", x);
	}
}

void
fs_line(struct report *r, char *buf, size_t len, const char *tod,
    const char *label, const struct iostats *s, uint64_t dur_ns,
    const struct cpu_pct *cpu)
{
	fs_line_as(r, buf, len, tod, label, s, dur_ns, cpu, 0);
}

/* A row of fs_skew's table: not the format run's fwd, nor an fwd of
 * another run (keys outlive runs: one that did nothing here). */
int
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
void
fs_skew(struct report *r, const struct iostats *per_key, const double *req,
    uint64_t dur_ns)
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
		/* vdbench's SkewReport: a Total row under a table of more
		 * than one host, fsd or fwd (key 0 is the run's total) */
		if (n > 1) {
			fs_line_as(r, line, sizeof(line), tod, "Total",
			    &per_key[0], dur_ns, NULL, 1);
			out(f, "%s\n", line);
		}
	}
	if (req == NULL)
		return;
	/* fwd skew= asked for: requested against observed operations,
	 * vdbench's table (SkewReport.java) */
	out(f, "%s \n%s FWD skew requested vs. actual (Use "
	    "'abort_failed_skew=n.n' to abort when delta > n.n)\n"
	    "%s %-12s %7s %10s %7s %7s\n", tod, tod, tod, "FWD", "ops/sec",
	    "requested", "actual", "delta");
	for (k = 0; k < r->nkeys; k++) {
		double ops, act;

		if (!fs_skew_row(r, k, RKEY_FWD, &per_key[k]))
			continue;
		ops = dur_ns > 0 ? (double)per_key[k].req_n * 1e9 /
		    (double)dur_ns : 0;
		act = per_key[0].req_n > 0 ? (double)per_key[k].req_n * 100 /
		    (double)per_key[0].req_n : 0;
		out(f, "%s %-12s %7.0f %9.2f%% %6.2f%% %+6.2f%%\n", tod,
		    r->keys[k].html, ops, req[k], act, act - req[k]);
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
