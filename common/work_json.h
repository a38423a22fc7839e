/* SPDX-License-Identifier: MIT */
#ifndef COMMON_WORK_JSON_H
#define COMMON_WORK_JSON_H

#include <stdint.h>

#include <jansson.h>

#include "errmsg.h"
#include "model.h"
#include "vdbhist.h"

/*
 * The "work" object of a raw (sd/wd) WORK message, typed, and its one
 * codec: the master encodes with work_to_json, the slave decodes with
 * work_from_json, which checks every field's type and range and names the
 * field it refuses (proto/PROTOCOL.md, WORK). It carries what the slave
 * needs for the run, with the for-loop values applied and the address
 * ranges already bounded and aligned by the master (master/workgen.c).
 * A file-system WORK carries fwgs instead of wgs, each with the geometry
 * of its fsd, so the slave needs no model.
 */

/* One sd on the slave: its lun and its share of threads and rate. */
struct work_sd {
	char		*sd;
	char		*lun;
	int		 threads;	/* >= 1 */
	double		 rate_per_s;	/* 0: as fast as it goes */
	struct strlist	 openflags;
	int		 create;	/* create the file (SD_format, null) */
	int		 overwrite;	/* overwrite_data=yes */
	int		 mounted_ok;	/* allow_mounted_write=yes */
	char		*engine;	/* "sync", "aio", "null"; NULL: sync */
	int		 has_dedup;	/* sd dedupratio=/dedupsets= */
	double		 dedup_ratio;	/* >= 1; overrides work's */
	double		 dedup_sets;	/* 0: work's; < 0: percent */
	int		 dedup_not_across;	/* its dedupacross=no */
	uint64_t	 dv_kb_bytes;	/* validation's key block; 0: the
					 * slave's smallest xfersize */
	char		*journal_dir;	/* sd journal=; NULL: the slave's
					 * working directory */
	uint64_t	 dv_size_bytes;	/* validation: the sd's size (its
					 * size= or the lun's), the key
					 * map's span; 0: the lun's size */
	uint64_t	 dedup_group_bytes;	/* the sizes of the sds that
						 * share its dedup; 0: alone */
	uint64_t	 dedup_rel_bytes;	/* those before it */
};

/* One workload generator: a (wd, sd) pair on this slave. */
struct work_wg {
	char		*wd;
	char		*sd;		/* one of the work's sds */
	double		 skew_pct;
	double		 readpct;
	double		 seekpct;
	int		 seek_eof;
	double		 rhpct;
	double		 whpct;
	struct xfer	 xfer;
	uint64_t	 low_bytes;	/* miss area [low, high) */
	uint64_t	 high_bytes;
	uint64_t	 hit_low_bytes;	/* hit area [hit_low, hit_high) */
	uint64_t	 hit_high_bytes;
	uint64_t	 align_bytes;	/* sd align=, 0: xfersize */
	int		 hot;		/* hotband's access curve */
	uint64_t	 wrap_end_bytes;	/* 0: no wrap; else past it */
	uint64_t	 wrap_to_bytes;		/* addresses go on here */
	int		 has_stride;
	uint64_t	 stride_min_bytes;
	uint64_t	 stride_max_bytes;
	int		 priority;	/* wd priority=; 0 = none */
	double		 poisson_mid;	/* seekpct=poisson: > 0 */
	int		 streams;	/* streams=: 0 or >= 2 */
};

struct work_dedup {
	double		 ratio;		/* >= 1 */
	uint64_t	 unit_bytes;
	double		 sets;		/* < 0: percent of the units */
	int		 not_across;	/* dedupacross=no */
};

/* An fsd's tree as fstree_init takes it (common/fstree.h). */
struct work_fsd {
	int		 depth;		/* >= 0 */
	int		 width;		/* >= 0 */
	uint64_t	 files;		/* per directory */
	int		 dist_all;	/* distribution=all */
	int		 nsizes;	/* 1..16 */
	uint64_t	*size_bytes;
	double		*size_pct;	/* NULL: one size per file */
	int		 size_avg;	/* sizes=(avg,0) */
	uint64_t	 totalsize_bytes;	/* 0: all files */
	uint64_t	 wss_bytes;		/* 0: all files */
};

/* One file-system workload: an fwd on an fsd, on this slave. */
struct work_fwg {
	char		*fwd;
	char		*fsd;
	char		*anchor;
	char		*operation;	/* "format" in a format run */
	struct xfer	 xfer;
	double		 readpct;	/* -1: none */
	double		 stopafter;
	int		 threads;	/* >= 1 */
	int		 thread_first;	/* its slices of thread_total */
	int		 thread_total;
	double		 rate_per_s;	/* 0: as fast as it goes */
	double		 skew_pct;	/* its share of the run's skew;
					 * 0: none (see hold_skew) */
	char		*fileio;	/* NULL: sequential */
	char		*fileselect;	/* NULL: sequential */
	int		 has_poisson_midpoint;
	double		 poisson_midpoint;
	char		*target_anchor;	/* copy/move, or NULL */
	struct strlist	 openflags;
	struct work_fsd	 tree;
	uint64_t	 dv_kb_bytes;	/* validation: the fsd's key block
					 * (its smallest xfersize); 0 off */
	int		 clean_first;	/* -c: delete the anchor's old tree
					 * before the run (its first use) */
};

/* What a format run does to the trees. */
struct work_fs {
	int		 clean;
	int		 restart;
	int		 dirs_only;
	int		 clean_only;
	int		 complete;	/* format=complete: trust the tree */
	int		 create_anchors; /* make a missing anchor's parents */
};

struct slave_work {
	int			 is_fs;		/* fwgs, not sds/wgs */
	int			 nfwgs;
	struct work_fwg		*fwgs;
	struct work_fs		 fs;
	int			 nsds;
	struct work_sd		*sds;
	int			 nwgs;
	struct work_wg		*wgs;
	struct vdbhist_edges	 edges;		/* histogram_edges_us */
	int			 slave_index;	/* its random streams */
	int64_t			 max_errors;	/* data_errors=, >= 0 (0 as 1) */
	int			 remove_device;	/* data_errors=remove_device */
	double			 compratio;	/* >= 1 */
	int			 has_dedup;
	struct work_dedup	 dedup;
	int			 distribution;	/* enum rd distribution */
	char			*pattern_file;	/* pattern=, or NULL */
	int			 has_compseed;	/* compressionseed= */
	uint64_t		 compseed;	/* seeds the data pattern */
	int			 validate;	/* VALIDATE_* (model.h) */
	int			 journal;	/* JOURNAL_* (model.h) */
	int			 recovery;	/* -jr's journal_recovery rd
						 * (master/plan/journal_rd.h):
						 * its reads cover every key
						 * block the map knows */
	int			 hold_skew;	/* Controlled MAX: hold the
						 * wgs' (fwgs') shares of
						 * skew across their sds
						 * (slave/skewgate.h) */
	int			 skew_sync_ms;	/* and across slaves: SKEW
						 * every this often; 0 none
						 * (master/run/skewsync.h) */
};

/* The encoding; never NULL. */
json_t	*work_to_json(const struct slave_work *);
/* Decode into w (zeroed first); -1 with e naming the field. */
int	 work_from_json(struct slave_work *, const json_t *, struct errmsg *);
void	 slave_work_clear(struct slave_work *);

#endif /* COMMON_WORK_JSON_H */
