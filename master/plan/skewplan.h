/* SPDX-License-Identifier: MIT */
#ifndef MASTER_SKEWPLAN_H
#define MASTER_SKEWPLAN_H

/*
 * skew= across slaves, planned: whether the master must hold a run's
 * shares (some slave lacks a wd, or an fwd, another slave runs), and the
 * period of the slaves' SKEW reports (WORK skew_sync_ms). Owns nothing;
 * reads the placement and the slaves' works as workgen.c built them.
 */
#include "place.h"
#include "plan.h"
#include "work_json.h"

/* A block run: 0, or the period in ms (25 to 1,000). */
int	skewplan_sync_ms(const struct run *, const struct placement *,
	    const struct slave_work *sws, int nslaves);
/* A fwdrate=max file-system run: the same. */
int	skewplan_fs_sync_ms(const struct slave_work *sws, int nslaves);

#endif /* MASTER_SKEWPLAN_H */
