/* SPDX-License-Identifier: MIT */
/*
 * Whether a held run needs the master to hold its skew across slaves
 * (skewplan.h): workgen.c asks, master/run/skewsync.c does it.
 */
#include "skewplan.h"

#include <stdlib.h>
#include <string.h>

#include "xmalloc.h"

/*
 * Controlled MAX across slaves: when the wds of a held run do not all
 * run on every slave of it (an sd with fewer threads than slaves, an sd
 * on one host, a sequential wd), each slave's own gate cannot hold the
 * run's shares, and the master holds them (master/run/skewsync.h; which
 * vdbench does not). The period of the slaves' SKEW reports in ms, or
 * 0: 2 ms per slave, so the master sends and takes at most 1,000 SKEW a
 * second each way; 25 ms at least (the line lets a WG run two periods
 * at the run's pace ahead of the slowest), 1 s at most.
 */
int
skewplan_sync_ms(const struct run *pr, const struct placement *p,
    const struct slave_work *sws, int n)
{
	unsigned char *on;
	int i, k, nin = 0, split = 0, *nwd;

	for (i = 0; i < n; i++) {
		if (sws[i].nwgs == 0)
			continue;
		/* the slave's gate: hold_skew's conditions but its sd count */
		if (!pr->controlled)
			return (0);
		for (k = 0; k < sws[i].nsds; k++) {
			if (sws[i].sds[k].rate_per_s > 0)
				return (0);
		}
		for (k = 0; k < sws[i].nwgs; k++) {
			if (sws[i].wgs[k].priority > 0)
				return (0);
		}
		nin++;
	}
	if (nin < 2)
		return (0);
	/* does some slave lack a wd another slave runs? Each wd's slaves
	 * counted once, against the slaves in the run */
	on = xcalloc((size_t)pr->nwds * (size_t)n + 1, 1);
	nwd = xcalloc((size_t)pr->nwds + 1, sizeof(*nwd));
	for (k = 0; k < p->nwgs; k++) {
		size_t at = (size_t)p->wgs[k].wd_idx * (size_t)n +
		    (size_t)p->wgs[k].slave;

		if (p->wgs[k].slave < 0 || p->wgs[k].slave >= n || on[at])
			continue;
		on[at] = 1;
		nwd[p->wgs[k].wd_idx]++;
	}
	for (k = 0; k < pr->nwds; k++)
		split |= nwd[k] > 0 && nwd[k] < nin;
	free(on);
	free(nwd);
	if (!split)
		return (0);
	return (nin * 2 < 25 ? 25 : nin * 2 > 1000 ? 1000 : nin * 2);
}

/*
 * The same for a fwdrate=max run (every such run holds its fwgs'
 * shares, equal ones without skew=): when some slave lacks an fwd
 * another runs (each fsd on its own slave, an fwd with fewer threads
 * than slaves), the master holds them; else each slave's gate does.
 */
int
skewplan_fs_sync_ms(const struct slave_work *sw, int n)
{
	const char *names[64];
	int i, k, j, nn = 0, nin = 0, split = 0;

	for (i = 0; i < n; i++) {
		if (sw[i].nfwgs == 0)
			continue;
		nin++;
		for (k = 0; k < sw[i].nfwgs; k++) {
			for (j = 0; j < nn && strcmp(names[j],
			    sw[i].fwgs[k].fwd) != 0; j++)
				;
			if (j == nn && nn < 64)
				names[nn++] = sw[i].fwgs[k].fwd;
		}
	}
	if (nin < 2)
		return (0);
	for (i = 0; i < n && !split; i++) {
		if (sw[i].nfwgs == 0)
			continue;
		for (j = 0; j < nn && !split; j++) {
			int has = 0;

			for (k = 0; k < sw[i].nfwgs && !has; k++)
				has = strcmp(sw[i].fwgs[k].fwd, names[j]) == 0;
			split = !has;
		}
	}
	if (!split)
		return (0);
	return (nin * 2 < 25 ? 25 : nin * 2 > 1000 ? 1000 : nin * 2);
}
