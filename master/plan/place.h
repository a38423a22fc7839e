/* SPDX-License-Identifier: MIT */
#ifndef MASTER_PLACE_H
#define MASTER_PLACE_H

#include <stddef.h>

#include "errmsg.h"
#include "plan.h"

/*
 * Work placement of one run over the slaves of one host (PARMFILE.md
 * 12.2-12.4), as a pure function: which slave gets which workload on
 * which sd (a WG), how the sd's threads are dealt, and each WG's share of
 * the rate. Sequential workloads go to one slave; random ones to all.
 */
struct place_wg {
	int		 wd_idx;	/* index into run->wds */
	const struct wd	*wd;
	const struct sd	*sd;
	int		 slave;
	int		 sequential;
	double		 skew_pct;	/* share of the run's rate */
	double		 rate_per_s;	/* 0 = as fast as possible */
};

/* The threads of one sd on one slave (shared by its WGs there). */
struct place_sd {
	const struct sd	*sd;
	int		 slave;
	int		 threads;
};

struct placement {
	int		 nwgs;
	struct place_wg	*wgs;
	int		 nsds;
	struct place_sd	*sds;
};

/* A host as placement sees it; label NULL = no host filtering. */
struct place_host {
	const char	*label;
	int		 nslaves;
};

/*
 * Place one run over the hosts' slaves, numbered host by host in order
 * (host 0's slaves first). place_run: one host, no filtering.
 */
int	place_run_hosts(const struct run *, const struct place_host *,
	    int nhosts, struct placement *, struct errmsg *);
int	place_run(const struct run *, int nslaves, struct placement *,
	    struct errmsg *);
/* "*", a trailing-* prefix, or the label itself (case-insensitive). */
int	place_host_match(const char *pattern, const char *label);
/* The lun of an sd on a host, or NULL (label NULL: the first lun). */
const char *place_sd_lun(const struct sd *, const char *label);
/* Whether a wd runs on a host (its host=, default all). */
int	place_wd_on(const struct wd *, const char *label);
void	place_free(struct placement *);
/* rd=NAME: Total skew must add up to 100 (vdbench's words), or 0. */
int	place_check_skew(const struct run *, struct errmsg *);
int	place_check_skews(const struct plan *, struct errmsg *);
/*
 * Slaves for the local host: -m, hd jvms=, or vdbench's automatic rule
 * (PARMFILE.md 5); note gets vdbench's "Adjusted default JVM count" text
 * when the rule changed the count, else "".
 */
int	place_auto_jvms(const struct model *, const struct plan *,
	    int jvms_opt, char *note, size_t len);
/* The run's value of a loop kind, or dflt when the run has no such loop. */
double	run_loop_value(const struct run *, enum loop_kind, double dflt);

#endif /* MASTER_PLACE_H */
