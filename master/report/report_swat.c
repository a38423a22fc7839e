/* SPDX-License-Identifier: MIT */
/*
 * swat_mon.txt and swat_mon_total.txt (FORMATS.md 3.1): the fixed
 * part, one line per sd, and a data block per interval or run.
 */
#include "report_int.h"

#include <time.h>

#include "mtime.h"

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
