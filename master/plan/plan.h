/* SPDX-License-Identifier: MIT */
#ifndef MASTER_PLAN_H
#define MASTER_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "errmsg.h"
#include "model.h"

/*
 * Run-list expansion (PARMFILE.md 8.3, 8.4, 8.6): each rd becomes its runs,
 * one per for-loop combination in vdbench's nesting order (the first loop
 * written is the outermost; an iorate= list is always innermost), plus the
 * curve points of iorate=curve. Names and "For loops:" texts are vdbench's.
 * Pure: no I/O, so unit tests pin it.
 */

/* A workload of a run and the sds it uses there. */
struct run_wd {
	const struct wd	 *wd;
	int		  nsds;
	const struct sd	**sds;
};

/* A file-system workload of a run and the fsds it uses. */
struct run_fwd {
	const struct fwd	 *fwd;
	int			  nfsds;
	const struct fsd	**fsds;
};

struct run {
	char		*name;		/* as a real run names it */
	char		*sim_name;	/* as vdbench -s names it */
	const struct rd	*rd;
	int		 nwds;
	struct run_wd	*wds;
	int		 nfwds;		/* file-system runs */
	struct run_fwd	*fwds;
	int		 format_run;	/* format_for_<rd> (10.3) */
	int		 formatted_once;	/* planning only: format=once */
	int		 nloops;	/* loop values, in nesting order */
	enum loop_kind	 loop_kind[LOOP_NKINDS];
	double		 loop_val[LOOP_NKINDS];
	const char	*loop_str[LOOP_NKINDS];	/* LOOP_OPERATION */
	const double	*loop_vals[LOOP_NKINDS];	/* each loop's list, */
	int		 loop_pos[LOOP_NKINDS];		/* and the place */
	double		 iorate;	/* RD_IORATE_*, <0 percent, or /s */
	int		 curve_point;	/* a point of iorate=curve */
	double		 curve_pct;
	int		 controlled;	/* some wd has skew/iorate/priority */
	uint64_t	 elapsed_s, interval_s, warmup_s;
	unsigned int	 nintervals;	/* intervals run */
	unsigned int	 first_avg;	/* first interval in avg_F-L */
};

/*
 * What the flatfile repeats about a run's request (plan/workgen.c
 * fills it, the reports print it).
 */
struct run_request {
	double	reqrate;	/* 9999988 for max */
	double	xfersize;	/* -1 = several */
	double	threads;
	double	rdpct, rhpct, whpct, seekpct;	/* -1 = several */
	double	lunsize_gb;
	double	compratio;
	double	dedupratio;	/* -1 = no dedup */
};

struct plan {
	int		 nruns;
	struct run	*runs;
	int		 nowned;	/* wds made for rd=x,sd=y */
	struct wd	**owned;
};

/* The most runs a plan may have, all rds together. */
#define PLAN_MAX_RUNS	100000

int		 plan_build(const struct model *, struct plan *,
		    struct errmsg *);
/*
 * The most runs an rd makes (for-loops, rates, curve points, format runs,
 * one set per sd with sd=single or sd=range): the parser checks it at the
 * rd's line against PLAN_MAX_RUNS.
 */
double		 plan_rd_runs(const struct model *, const struct rd *);
void		 plan_free(struct plan *);
/* "100", "Uncontrolled MAX", "Controlled curve", ...; rates of curve and
 * N% runs assume observed_max, as vdbench's simulate assumes 10000. */
const char	*plan_rate_text(const struct run *, double observed_max,
		    char *buf, size_t len);
/* "xfersize=4k threads=8" or "None". */
const char	*plan_loops_text(const struct run *, char *buf, size_t len);
/* "elapsed=60" or "elapsed=30 warmup=5". */
const char	*plan_elapsed_text(const struct run *, char *buf, size_t len);
/* vdbench's rate for N% of an observed rate, rounded up (8.4). */
double		 plan_pct_rate(double observed, double pct);
/*
 * The SD_format rule (12.9) for one file lun: 1 when it must be created or
 * expanded first, 0 when not, -1 when its size is unknown (e filled).
 */
int		 plan_sd_needs_format(const struct sd *, const char *lun,
		    int exists, uint64_t cur_size_bytes, int formatsds,
		    struct errmsg *);
/* Whether an rd's format= has a word (by prefix, as vdbench reads it). */
int		 plan_rd_format(const struct rd *, const char *word);
/* The tree an fsd describes: directories, files and bytes (9). */
void		 plan_anchor_size(const struct fsd *, uint64_t *dirs,
		    uint64_t *files, uint64_t *bytes);
/* Is this lun a raw device (never touch block 0)? */
int		 plan_lun_is_raw(const char *lun);

#endif /* MASTER_PLAN_H */
