/* SPDX-License-Identifier: MIT */
/*
 * The response-time histogram files (FORMATS.md 3.2): a key's
 * blocks of vdbench's buckets at the end of a run.
 */
#include "report_int.h"

#include <string.h>

#include "units.h"

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
	unsigned int b, from, to;

	for (b = 0; b <= ed->n; b++)
		total += count[b];
	vdbhist_shown(ed, count, &from, &to);
	fprintf(f, "%s\n %8s <  %10s   %10s %8s %8s  '+': Individual%%; "
	    "'+-': Cumulative%%\n\n", title, "min(ms)", "max(ms)", "count",
	    "%%", "cum%%");
	for (b = from; b <= to; b++) {
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
		out(f, "No statistics generated for this run.\n");
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
