/* SPDX-License-Identifier: MIT */
/*
 * Data validation's SD size requirement and vdbench's box when it is not
 * met (dvsize.h).
 */
#include "dvsize.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xmalloc.h"

/* "16.633m", "282.250m", "8m": bytes as vdbench's sizes print (3
 * decimals, ".000" dropped: FileAnchor.whatSize). */
static void
dv_size_text(char *buf, size_t len, uint64_t v)
{
	static const char units[] = "kmgtp";
	double d = (double)v;
	size_t n;
	int u = 0;

	if (v < 1024) {
		snprintf(buf, len, "%llu", (unsigned long long)v);
		return;
	}
	d /= 1024;
	while (u < 4 && d >= 1024) {
		d /= 1024;
		u++;
	}
	snprintf(buf, len, "%.3f%c", d, units[u]);
	/* ".000" only goes: 282.250m stays (FileAnchor.whatSize) */
	n = strlen(buf);
	if (n >= 5 && strncmp(buf + n - 5, ".000", 4) == 0)
		memmove(buf + n - 5, buf + n - 1, 2);
}

/* 1234567 -> "1,234,567". */
static void
dv_commas(char *buf, size_t len, uint64_t v)
{
	char tmp[32];
	size_t n, i, o = 0;

	n = (size_t)snprintf(tmp, sizeof(tmp), "%llu", (unsigned long long)v);
	for (i = 0; i < n && o + 2 < len; i++) {
		if (i > 0 && (n - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = tmp[i];
	}
	buf[o] = '\0';
}

/* Add one line to a newline-separated text. */
static void
box_add(char **box, const char *line)
{
	char *t;

	xasprintf(&t, "%s%s\n", *box != NULL ? *box : "", line);
	free(*box);
	*box = t;
}

/*
 * Data validation's size requirement (vdbench WG_entry.java:551-592,
 * reference v8c): every block of an I/O in flight is busy, so the miss
 * area must hold (2000, twice that at a set rate, + 256 + threads)
 * blocks of the largest xfersize (dvsize.h).
 */
int
dvsize_check(const struct placement *p, const struct place_wg *g,
    const uint64_t rg[4], uint64_t hitarea, uint64_t xmax, char **box,
    struct errmsg *e)
{
	static const char *const tail[] = {
		"",
		"",
		"Why all this? To ensure Data Validation integrity each "
		    "xfersize= block may have only ONE",
		"read or write outstanding at the same time. Each block "
		    "internally is therefore",
		"marked 'busy' with a dead-lock possible if ALL blocks are busy",
		"",
		"You may override the internal queue depth with "
		    "'misc=(fifo=nnn)',",
		"though lower queue depth may throttle throughput at high i/o "
		    "rates.",
		"",
	};
	char lines[20][200], stars[210], line[420];
	char n[6][32], a[32], b[32], cc[32], d[32];
	uint64_t need, threads = 0, width = rg[1] - rg[0];
	int k, nl = 0, w = 0;
	size_t i;

	for (k = 0; k < p->nsds; k++)
		if (p->sds[k].sd == g->sd)
			threads += (uint64_t)p->sds[k].threads;
	need = (g->rate_per_s > 0 ? 4000 : 2000) + 256 + threads;
	if (width >= need * xmax)
		return (0);
	dv_commas(a, sizeof(a), need * xmax);
	dv_size_text(b, sizeof(b), need * xmax);
	dv_commas(cc, sizeof(cc), width);
	dv_size_text(d, sizeof(d), width);
	/* vdbench's print_sizes() before the box */
	snprintf(line, sizeof(line), "wd=%s", g->wd->name);
	box_add(box, line);
	dv_commas(n[0], sizeof(n[0]), rg[2]);
	dv_commas(n[1], sizeof(n[1]), rg[3]);
	dv_commas(n[2], sizeof(n[2]), rg[3] - rg[2]);
	dv_commas(n[3], sizeof(n[3]), rg[0]);
	dv_commas(n[4], sizeof(n[4]), rg[1]);
	dv_commas(n[5], sizeof(n[5]), width);
	snprintf(line, sizeof(line), "Byte addresses for hits: Low: %16s; "
	    "High: %16s; Width: %16s", n[0], n[1], n[2]);
	box_add(box, line);
	snprintf(line, sizeof(line), "Byte addresses for miss: Low: %16s; "
	    "High: %16s; Width: %16s", n[3], n[4], n[5]);
	box_add(box, line);
	snprintf(line, sizeof(line), "sd max xfersize=%llu",
	    (unsigned long long)xmax);
	box_add(box, line);
	snprintf(line, sizeof(line), "hitarea_used: %llu",
	    (unsigned long long)(rg[3] - rg[2]));
	box_add(box, line);
	snprintf(line, sizeof(line), "hitarea: %llu",
	    (unsigned long long)hitarea);
	box_add(box, line);
	box_add(box, "");
	/* the box (WG_entry.java:564-588) */
	snprintf(lines[nl++], sizeof(lines[0]), "%s", "");
	snprintf(lines[nl++], sizeof(lines[0]), "Data Validation has some "
	    "extra SD size requirements.");
	snprintf(lines[nl++], sizeof(lines[0]), "The internal queue depth of "
	    "Vdbench is 2000 for an uncontrolled maximum i/o rate,");
	snprintf(lines[nl++], sizeof(lines[0]), "and twice that, 4000, for "
	    "all other workloads.");
	snprintf(lines[nl++], sizeof(lines[0]), "To that is added the number "
	    "of threads requested (%llu),", (unsigned long long)threads);
	snprintf(lines[nl++], sizeof(lines[0]), "plus a fudge factor of 256, "
	    "all for a total of %llu.", (unsigned long long)need);
	snprintf(lines[nl++], sizeof(lines[0]), "%s", "");
	snprintf(lines[nl++], sizeof(lines[0]), "The SD size (or range) must "
	    "be large enough to accomodate %llu times the maximum "
	    "xfersize=%llu value,", (unsigned long long)need,
	    (unsigned long long)xmax);
	snprintf(lines[nl++], sizeof(lines[0]), "for a total of %s bytes "
	    "(%s), but we only have %s bytes (%s).", a, b, cc, d);
	for (i = 0; i < sizeof(tail) / sizeof(tail[0]); i++)
		snprintf(lines[nl++], sizeof(lines[0]), "%s", tail[i]);
	for (k = 0; k < nl; k++)
		if ((int)strlen(lines[k]) > w)
			w = (int)strlen(lines[k]);
	memset(stars, '*', (size_t)w + 4);
	stars[w + 4] = '\0';
	box_add(box, "*");
	box_add(box, stars);
	for (k = 0; k < nl; k++) {
		snprintf(line, sizeof(line), "* %-*.*s *", w, w, lines[k]);
		box_add(box, line);
	}
	box_add(box, stars);
	box_add(box, "*");
	errmsg_set(e, NULL, 0, 0, "SD size for cache misses not large "
	    "enough.");
	return (-1);
}
