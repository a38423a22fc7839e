/* SPDX-License-Identifier: MIT */
/*
 * skew.html's end-of-run tables of a raw run: one per slave, host,
 * sd and wd when there are two or more, and requested against
 * observed skew per wd. A file-system run's are report_fs.c's.
 */
#include "report_int.h"

#include <math.h>

#include "mtime.h"

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

		if (r->keys[k].kind != RKEY_WD || r->keys[k].f == NULL)
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

		if (r->keys[k].kind != RKEY_WD || r->keys[k].f == NULL)
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

/*
 * Did the run use the wd of key k? A planned run's wds have a requested
 * skew; the SD_format run has none, its wds are those that did I/O.
 */
static int
wd_in_run(const struct iostats *s, const double *skew_req, int k)
{
	if (skew_req != NULL)
		return (skew_req[k] > 0);
	return (s->side[0].ios + s->side[1].ios > 0);
}

/* The end-of-run skew tables (per slave, host, sd, wd when > 1; a wd
 * counts when the run used it, as vdbench's a_raw_randwrite_4k shows). */
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
		fs_skew(r, per_key, skew_req, dur_ns);
		return;
	}
	mtime_tod(mtime_wall_ns(), tod);
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		for (k = 0, n = 0; k < r->nkeys; k++)
			n += r->keys[k].kind == t[i].kind &&
			    (t[i].kind != RKEY_WD || (r->keys[k].f != NULL &&
			    wd_in_run(&per_key[k], skew_req, k)));
		if (n < 2)	/* vdbench: one wd in the run, no Wd: table */
			continue;
		if (!said++)
			out(f, "%s \n%s Counts reported below are for "
			    "non-warmup intervals.\n%s \n", tod, tod, tod);
		out(f, "%s %-12s%10s %8s %7s %6s %8s %8s %8s %8s %8s %5s \n",
		    tod, "", "i/o", "MB/sec", "bytes", "read", "resp", "read",
		    "write", "resp", "resp", "queue");
		out(f, "%s %-12s%10s %8s %7s %6s %8s %8s %8s %8s %8s %5s \n",
		    tod, t[i].title, "rate", report_mb_text(), "i/o", "pct",
		    "time",
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
