/* SPDX-License-Identifier: MIT */
#ifndef MASTER_WORKGEN_H
#define MASTER_WORKGEN_H

#include <stdint.h>

#include <jansson.h>

#include "errmsg.h"
#include "hosts.h"
#include "model.h"
#include "plan.h"

/*
 * The WORK builder (PARMFILE.md 12): a planned run, the hosts with their
 * slaves, the lun sizes the slaves reported at INFO and the rate measured
 * so far give each slave's WORK body and the run's request (what the
 * flatfile and the reports say was asked for). It owns vdbench's rules for
 * for-loop values, address ranges and hit areas, hotband wrap, the
 * division of rates and threads over slaves (with place.c), maxdata= and
 * the automatic SD_format run. Each slave's WORK "work" object is a
 * struct slave_work encoded with common/work_json.c, the codec the slave
 * decodes with. Pure: no links, no reports, no run driver state; it
 * never logs or exits and fails with -1 and an errmsg.
 */

/* What the builder reads; the caller owns all of it. */
struct workgen_in {
	const struct model	*model;
	const struct mhost	*hosts;
	int			 nhosts;
	int			 nslaves;	/* in all, over the hosts */
	const uint64_t		*sd_size;	/* per model sd, bytes (INFO) */
	const uint64_t		*sd_xmax;	/* per model sd, largest xfer */
	const uint64_t		*sd_xmin;	/* smallest (NULL: none) */
	const uint64_t		*fsd_xmin;	/* per model fsd: its DV key
						 * block (NULL: none) */
	double			 observed_rate;	/* for curve and pct rates */
	/* the SD_format run's sds: where each goes, from which byte */
	int			 nformat;
	const struct sd *const	*format_sd;
	const int		*format_host;
	const uint64_t		*format_from;
	/* -c: the anchors whose old tree a run already deleted; a run's
	 * fwgs on any other are marked clean_first and added (NULL
	 * without -c) */
	struct strlist		*cleaned;
};

/* A placed workload's share of its wd's skew (the skew report). */
struct workgen_skew {
	const char	*wd;
	double		 pct;
};

/* One run as built: the per-slave WORK and what the run asked for. */
struct workgen_run {
	char			 name[256];
	char			 text[1024];	/* "Starting RD=..." */
	char			 loops[1024];	/* For loops text (status) */
	char			 rate_text[64];
	int			 format;	/* a format run */
	int			 fs;		/* a file-system run */
	int			 eof_run;	/* ends at eof (some WG) */
	int			 once_run;	/* ends at fileselect=once */
	int			 curve_max;	/* iorate=curve's max run */
	unsigned int		 nintervals;	/* 0: until eof */
	unsigned int		 first_avg;
	uint64_t		 interval_ns;
	uint64_t		 pause_s;
	const struct run	*plan_run;	/* NULL for SD_format */
	struct run_request	 req;
	uint64_t		 maxdata_bytes;	/* 0 = no limit */
	int			 maxdata_dir;	/* 0 all, 1 read, 2 write */
	char			 maxdata_text[32];
	int			 rate_guessed;	/* no rate observed: 10000 */
	double			 observed_rate;	/* the rate it used */
	int			 nslaves;
	json_t			**work;		/* per slave; NULL: none */
	int			*has_eof;	/* per slave */
	struct workgen_skew	*skew;		/* per placed raw WG */
	int			 nskew;
	char			*dv_box;	/* data validation's size box:
						   console lines, '\n' after
						   each; NULL = none */
};

/* A planned run (raw or file system); -1 with e set. */
int		 workgen_plan_run(const struct workgen_in *, const struct run *,
		    struct workgen_run *, struct errmsg *);
/* The automatic SD_format run of in's format sds (PARMFILE.md 12.9). */
void		 workgen_format_run(const struct workgen_in *,
		    struct workgen_run *);
void		 workgen_run_free(struct workgen_run *);
unsigned int	 workgen_fs_ops(const struct model *);
/* Under data validation: the slave of host h that drives sd s in every
 * run (the sds round-robin over the host's slaves in parmfile order). */
int		 dv_sd_slave(const struct workgen_in *, int h,
		    const struct sd *);
/* Largest xfersize per model sd over every run (PARMFILE.md 12.6). */
void		 workgen_xmax(const struct model *, const struct plan *,
		    uint64_t *sd_xmax);
/* Smallest xfersize per model sd over every run: data validation's key
 * block (vdbench: the smallest xfersize used on the sd). */
void		 workgen_xmin(const struct model *, const struct plan *,
		    uint64_t *sd_xmin);

/* Used by the run driver's checks too. */
int		 sd_index(const struct model *, const struct sd *);
const char	*sd_engine(const struct sd *, const struct strlist *flags);
int		 fwd_nhosts(const struct mhost *, int nhosts,
		    const struct fwd *);
double		 select_midpoint(const struct fwd *);
const struct fsd *target_fsd(const struct model *, const char *);

#endif /* MASTER_WORKGEN_H */
