/* SPDX-License-Identifier: MIT */
/*
 * skew.html's end-of-run tables of a raw run: one per slave, host,
 * sd and wd when there are two or more, and requested against
 * observed skew per wd. A file-system run's are report_fs.c's.
 */
#include "report_int.h"

#include <math.h>
#include <string.h>

#include "mtime.h"

/* The label column: vdbench's widest sd, wd, slave or host name. */
static int
label_width(const struct report *r)
{
	int k, w = 0;

	for (k = 0; k < r->nkeys; k++) {
		enum rkey_kind t = r->keys[k].kind;

		if ((t == RKEY_HOST || t == RKEY_SLAVE || t == RKEY_SD ||
		    t == RKEY_SDQUIET || t == RKEY_WD) &&
		    (int)strlen(r->keys[k].name) > w)
			w = (int)strlen(r->keys[k].name);
	}
	return (w);
}

/*
 * One skew table row (SkewReport.createRawLine): the interval line
 * without its CPU columns, then extra (may be "") after a blank.
 */
static void
skew_row(FILE *f, const char *tod, int w, const char *name, const char *html,
    const struct iostats *s, uint64_t dur_ns, const char *extra)
{
	struct derived d;

	report_derive(&d, s, dur_ns);
	out(f, "%s %-*s %10.2f %8.2f %7ld %6.2f %8.3f %8.3f %8.3f %8.3f %8.3f "
	    "%5.1f %s%s\n", tod, w + (int)(strlen(html) - strlen(name)), html,
	    d.rate, d.mbs, d.bytes_io, d.readpct, d.resp, d.rresp, d.wresp,
	    d.max, d.stddev, d.qdepth, extra != NULL ? " " : "",
	    extra != NULL ? extra : "");
}

/*
 * A table's two header lines (SkewReport.printRawHeaders), after
 * vdbench's note, which it prints once per execution, before the first
 * table; x1/x2 extra columns (may be NULL).
 */
static void
skew_heads(struct report *r, FILE *f, const char *tod, int w,
    const char *title, const char *x1, const char *x2)
{
	if (!r->skew_counts_said) {
		out(f, "%s \n%s Counts reported below are for non-warmup "
		    "intervals.\n", tod, tod);
		r->skew_counts_said = 1;
	}
	out(f, "%s \n%s %-*s %10s %8s %7s %6s %8s %8s %8s %8s %8s %5s %s%s\n",
	    tod, tod, w, "", "i/o", "MB/sec", "bytes", "read", "resp", "read",
	    "write", "resp", "resp", "queue", x1 != NULL ? " " : "",
	    x1 != NULL ? x1 : "");
	out(f, "%s %-*s %10s %8s %7s %6s %8s %8s %8s %8s %8s %5s %s%s\n", tod,
	    w, title, "rate", report_mb_text(), "i/o", "pct", "time", "resp",
	    "resp", "max", "stddev", "depth", x2 != NULL ? " " : "",
	    x2 != NULL ? x2 : "");
}

/*
 * abort_failed_skew=limit: the first wd whose observed share of the I/Os
 * is off its requested skew by more than limit (percentage points, as
 * skew.html's delta column); 1 with text saying so, else 0.
 */
int
report_skew_failed(const struct report *r, const struct iostats *per_key,
    uint64_t dur_ns, const double *req, double limit, char *text, size_t len)
{
	struct derived tot, d;
	int k;

	if (r->fs || req == NULL || limit <= 0)
		return (0);
	report_derive(&tot, &per_key[0], dur_ns);
	for (k = 0; k < r->nkeys; k++) {
		double obs;

		if (r->keys[k].kind != RKEY_WD || r->keys[k].f == NULL ||
		    req[k] < 0)
			continue;
		report_derive(&d, &per_key[k], dur_ns);
		obs = tot.rate > 0 ? d.rate * 100 / tot.rate : 0;
		if (fabs(obs - req[k]) <= limit)
			continue;
		snprintf(text, len, "Requested skew for wd=%s: %.2f%%; observed "
		    "skew: %.2f%%; the difference of %.2f%% is more than "
		    "abort_failed_skew=%g. Aborting.", r->keys[k].html, req[k],
		    obs, fabs(obs - req[k]), limit);
		return (1);
	}
	return (0);
}

double
report_skew_worst(const struct report *r, const struct iostats *per_key,
    uint64_t dur_ns, const double *req, const char **wd)
{
	struct derived tot, d;
	double worst = -1;
	int k;

	if (req == NULL)
		return (-1);
	if (r->fs) {
		/* vdbench's fwds: the last of equals */
		for (k = 0; k < r->nkeys && per_key[0].req_n > 0; k++) {
			double off;

			if (!fs_skew_row(r, k, RKEY_FWD, &per_key[k]))
				continue;
			off = fabs((double)per_key[k].req_n * 100 /
			    (double)per_key[0].req_n - req[k]);
			if (off >= worst) {
				worst = off;
				*wd = r->keys[k].name;
			}
		}
		return (worst);
	}
	report_derive(&tot, &per_key[0], dur_ns);
	if (tot.rate <= 0)
		return (-1);
	for (k = 0; k < r->nkeys; k++) {
		double off;

		if (r->keys[k].kind != RKEY_WD || r->keys[k].f == NULL ||
		    req[k] < 0)
			continue;
		report_derive(&d, &per_key[k], dur_ns);
		off = fabs(d.rate * 100 / tot.rate - req[k]);
		if (off > worst + 1e-9) {	/* the first of equals */
			worst = off;
			*wd = r->keys[k].name;
		}
	}
	return (worst);
}

/* The wd of key k is one of the run's. */
static int
wd_in_run(const struct report *r, int k, const double *skew_req)
{
	return (r->keys[k].kind == RKEY_WD && r->keys[k].f != NULL &&
	    skew_req != NULL && skew_req[k] >= 0);
}

/*
 * The end-of-run tables of a raw run in skew.html, as vdbench 5.04.06
 * writes them (SkewReport.reportRawEndOfRunSkew and endOfRawRunSkewCheck,
 * measured side by side): with more than one slave a "Slave:" table per
 * host (its Total the host's); with more than one host a "Host:" table
 * with the host's cpu; with more than one sd an "SD:" table; with more
 * than one wd in the run a "WD:" table whose rows end in the requested
 * and observed skew and their delta (requested - observed, shown when
 * it is 0.10 % or more off). Labels as wide as the widest name.
 */
void
report_skew(struct report *r, const struct skew_in *in)
{
	const struct iostats *pk = in->per_key;
	FILE *f = r->f[RF_SKEW];
	char tod[16], x[64];
	int w, k, j, n, nwd = 0;
	uint64_t ios = 0;
	double reqsum = 0;

	if (r->fs) {
		fs_skew(r, pk, in->skew_req, in->dur_ns);
		return;
	}
	mtime_tod(mtime_wall_ns(), tod);
	w = label_width(r);
	for (k = 0, n = 0; k < r->nkeys; k++)
		n += r->keys[k].kind == RKEY_SLAVE;
	for (k = 0; n > 1 && k < r->nkeys; k++) {
		/* a host's slave keys follow its own (rkeys.c) */
		if (r->keys[k].kind != RKEY_HOST || pk[k].side[0].ios +
		    pk[k].side[1].ios == 0)
			continue;
		skew_heads(r, f, tod, w, "Slave:", NULL, NULL);
		for (j = k + 1; j < r->nkeys && r->keys[j].kind != RKEY_HOST;
		    j++)
			if (r->keys[j].kind == RKEY_SLAVE)
				skew_row(f, tod, w, r->keys[j].name,
				    r->keys[j].html, &pk[j], in->dur_ns, NULL);
		skew_row(f, tod, w, "Total", "Total", &pk[k], in->dur_ns, NULL);
	}
	for (k = 0, n = 0; k < r->nkeys; k++)
		n += r->keys[k].kind == RKEY_HOST;
	if (n > 1) {
		int cpu = in->total_cpu != NULL && in->total_cpu->valid;

		if (cpu)
			skew_heads(r, f, tod, w, "Host:", "  cpu", "sys+u");
		else
			skew_heads(r, f, tod, w, "Host:", NULL, NULL);
		for (k = 0; k < r->nkeys; k++) {
			if (r->keys[k].kind != RKEY_HOST ||
			    pk[k].side[0].ios + pk[k].side[1].ios == 0)
				continue;
			snprintf(x, sizeof(x), "%5.1f", in->host_cpu != NULL &&
			    in->host_cpu[k].valid ? in->host_cpu[k].user_sys :
			    0);
			skew_row(f, tod, w, r->keys[k].name, r->keys[k].html,
			    &pk[k], in->dur_ns, cpu ? x : NULL);
		}
		snprintf(x, sizeof(x), "%5.1f", cpu ? in->total_cpu->user_sys :
		    0);
		skew_row(f, tod, w, "Total", "Total", &pk[0], in->dur_ns,
		    cpu ? x : NULL);
	}
	for (k = 0, n = 0; k < r->nkeys; k++)
		n += r->keys[k].kind == RKEY_SD;
	if (n > 1) {
		skew_heads(r, f, tod, w, "SD:", NULL, NULL);
		for (k = 0; k < r->nkeys; k++)
			if (r->keys[k].kind == RKEY_SD)
				skew_row(f, tod, w, r->keys[k].name,
				    r->keys[k].html, &pk[k], in->dur_ns, NULL);
		skew_row(f, tod, w, "Total", "Total", &pk[0], in->dur_ns, NULL);
	}
	for (k = 0; k < r->nkeys; k++) {
		if (!wd_in_run(r, k, in->skew_req))
			continue;
		nwd++;
		ios += pk[k].side[0].ios + pk[k].side[1].ios;
	}
	if (nwd < 2)
		return;
	out(f, "%s \n%s Calculated versus requested workload skew. (Delta "
	    "only shown if > 0.10%% absolute)\n%s Note that for an "
	    "Uncontrolled MAX run workload skew is irrelevant.\n", tod, tod,
	    tod);
	if (in->uncontrolled)
		out(f, "%s This was an Uncontrolled MAX run.\n", tod);
	skew_heads(r, f, tod, w, "WD:", "     skew     skew    skew ",
	    "requested observed   delta ");
	if (ios == 0)
		return;
	for (k = 0; k < r->nkeys; k++) {
		double req, obs, delta;
		char dt[32] = "";

		if (!wd_in_run(r, k, in->skew_req))
			continue;
		req = in->skew_req[k];
		obs = (double)(pk[k].side[0].ios + pk[k].side[1].ios) * 100.0 /
		    (double)ios;
		delta = req - obs;
		reqsum += req;
		if (fabs(delta) >= 0.1)
			snprintf(dt, sizeof(dt), "%6.2f%%", delta);
		snprintf(x, sizeof(x), "%8.2f%% %7.2f%% %s", req, obs, dt);
		skew_row(f, tod, w, r->keys[k].name, r->keys[k].html, &pk[k],
		    in->dur_ns, x);
	}
	snprintf(x, sizeof(x), "%8.2f%% %7.2f%%", 100.0, reqsum);
	skew_row(f, tod, w, "Total", "Total", &pk[0], in->dur_ns, x);
}
