/* SPDX-License-Identifier: MIT */
#ifndef MASTER_SIMULATE_H
#define MASTER_SIMULATE_H

#include "model.h"
#include "plan.h"

/*
 * vdbench -s: print a "Simulating RD=..." line per planned run, as the
 * real vdbench prints them (PARMFILE.md 8.3, 16 item 1), with vdbc's own
 * notes on lines of their own. No I/O; file luns are only stat()ed.
 * -1 (printed) when a run's skews do not add up to 100.
 */
int	simulate_print(const struct model *, const struct plan *,
	    int jvms_opt);
/* The "Anchor size:" lines of the fsds (before the runs are planned). */
void	simulate_anchors(const struct model *);

#endif /* MASTER_SIMULATE_H */
