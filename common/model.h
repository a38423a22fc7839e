/* SPDX-License-Identifier: MIT */
#ifndef COMMON_MODEL_H
#define COMMON_MODEL_H

#include <stdint.h>
#include <sys/queue.h>

#include "vdbhist.h"

/*
 * The resolved model of a parmfile: one struct per entry kind (general, hd,
 * sd, wd, rd, fsd, fwd) in definition order. Keywords whose behaviour vdbc
 * builds have typed fields, with units in their names; every other keyword
 * vdbench accepts is kept, validated as a value list, in the entry's bag,
 * so later work can type it without changing the shapes here. The model
 * says nothing about how it was read: master/parmfile.c fills it, and the
 * JSON codec (model_json.h) serialises it for WORK, --dump and results.
 */

/* One element of a value: numeric, or alpha text (always kept as text). */
struct pval {
	int	 is_num;
	double	 num;
	char	*str;
};

/* A value list as written: "4k" or "(4k,8k)". */
struct pvals {
	int		 n;
	struct pval	*v;
	int		 cap;		/* allocated elements */
};

/* A keyword kept untyped: its canonical name and its values. */
struct bag_item {
	char			*key;
	struct pvals		 vals;
	TAILQ_ENTRY(bag_item)	 entry;
};
TAILQ_HEAD(bag, bag_item);

struct strlist {
	int	  n;
	char	**v;
	int	  cap;		/* allocated elements */
};

/* iorate= sentinels, vdbench's own values (they show in its messages). */
#define RD_IORATE_MAX	9999988.0
#define RD_IORATE_CURVE	9999977.0

struct general {
	double			compratio;
	uint64_t		formatxfersize_bytes;	/* 0 = automatic */
	int			formatsds;		/* -1 unset, 0, 1 */
	int			port;			/* 0 = default */
	int			histogram_set;
	struct vdbhist_edges	histogram;
	/*
	 * Typed from keywords the bag still carries too (model_fields.c
	 * F_BAGCOPY) until every reader takes these.
	 */
	double			dedupratio;		/* 0 = no dedup */
	uint64_t		dedupunit_bytes;	/* default 128k */
	double			dedupsets;	/* <0: percent; default -5 */
	int			dedupacross;	/* default 1 (yes) */
	int			dedupflipflop;	/* only under -v */
	int			dedupmaxkey;	/* general; 0 = unset */
	int			compseed_set;	/* compressionseed= given */
	double			compseed;	/* its value (tod resolved) */
	char			*pattern;	/* pattern= file, or NULL */
	int			data_errors;		/* default 50 */
	char			*data_errors_cmd;	/* its word: remove_device
							   or a command; NULL */
	int			data_errors_wait_s;	/* (n,wait); 0 = none */
	double			abort_failed_skew_pct;	/* 0 = not given */
	struct strlist		heartbeat_error;	/* the command */
	int			messagescan;		/* 0 no; default 1 */
	int			messagescan_display;	/* 0 nodisplay */
	int			messagescan_max;	/* lines; default 1000 */
	int			validate;	/* VALIDATE_* bits; 0 = off */
	int			journal;	/* JOURNAL_* bits; 0 = off */
	struct strlist		report;		/* report= words */
	struct strlist		startcmd;	/* command(s), target words */
	struct strlist		endcmd;
	struct strlist		loop;		/* loop=: n, ns, nm or nh */
	struct strlist		monitor;	/* monitor=: the file */
	int			create_anchors;	/* make the anchors' parents */
	struct bag		bag;
};

/* Data validation (validate=, -v letters; slave/dv.h). */
#define VALIDATE_ON		0x1	/* validate=yes, -v */
#define VALIDATE_AFTER_WRITE	0x2	/* read_after_write, -vr, -v2 */
#define VALIDATE_NO_PREREAD	0x4	/* no_preread, -vw */
#define VALIDATE_TIME		0x100	/* time, -vt: per key block the time
					   of its last read or write */
#define VALIDATE_IGNORE_ZERO	0x200	/* ignore_zero_reads: no totals
					   line, no "No read validations
					   done" stop */

/* The journal (journal=, -j letters; slave/journal.h). */
#define JOURNAL_ON		0x1	/* journal=yes, -j */
#define JOURNAL_RECOVER		0x2	/* journal=recover, -jr */
#define JOURNAL_NOFLUSH		0x4	/* journal=noflush, -jn: no O_SYNC */
#define JOURNAL_MAPONLY		0x8	/* journal=maponly, -jm */
#define JOURNAL_ALL		0xf	/* the bits a WORK carries */
#define JOURNAL_ONLY		0x10	/* journal=only, -jo: recover, stop */

struct hd {
	char			*name;
	char			*system;	/* NULL = the label */
	int			 jvms;		/* 0 = not given */
	char			*shell;		/* NULL = not given */
	char			*user;
	char			*vdbench;
	int			 clients;
	struct strlist		 mount;		/* mount= commands */
	struct bag		 bag;
	TAILQ_ENTRY(hd)		 entry;
};

/* One lun of an sd and the hosts it is valid on ("*" = all). */
struct sd_lun {
	char	*host;
	char	*lun;
};

struct sd {
	char			*name;
	int			 nluns;
	struct sd_lun		*luns;
	uint64_t		 size_bytes;	/* 0 = the lun's own size */
	uint64_t		 size_divisor;	/* size=(bytes,divisor); 1 */
	uint32_t		 threads;	/* default 8 */
	uint64_t		 hitarea_bytes;	/* default 1m */
	uint64_t		 offset_bytes;
	uint64_t		 align_bytes;	/* 0 = on xfersize */
	int			 range_set;
	double			 range[2];	/* <=100: percent, else bytes */
	struct strlist		 openflags;
	char			*engine;	/* NULL = automatic */
	int			 overwrite_data;
	int			 allow_mounted_write;
	double			 dedupratio;	/* 0 = the general one */
	double			 dedupsets;	/* 0 = the general one */
	int			 dedupacross;	/* -1 = the general one */
	char			*journal_dir;	/* journal=: NULL = cwd */
	struct bag		 bag;
	TAILQ_ENTRY(sd)		 entry;
};

enum xfer_kind {
	XFER_SINGLE,		/* one size */
	XFER_DIST,		/* (size,pct,size,pct,...) */
	XFER_RANGE,		/* (min,max,align) */
};

struct xfer {
	enum xfer_kind	 kind;
	int		 n;		/* sizes in a distribution */
	uint64_t	*size_bytes;	/* n entries; SINGLE: 1 */
	double		*pct;		/* n entries, DIST only */
	uint64_t	 min_bytes, max_bytes, align_bytes;	/* RANGE */
};

/* seekpct: 0..100 = percentage of random I/Os; eof = sequential, stop. */
struct wd {
	char			*name;
	struct strlist		 sds;		/* names, wildcards */
	int			 skew_set;
	double			 skew_pct;
	struct xfer		 xfer;		/* default 4k */
	double			 readpct;	/* default 100 */
	double			 seekpct;	/* default 100 */
	int			 seek_eof;
	double			 rhpct, whpct;
	int			 range_set;
	double			 range[2];
	struct strlist		 hosts;		/* empty = all */
	struct strlist		 openflags;
	int			 iorate_set;
	double			 iorate;
	int			 priority_set;
	int			 priority;
	int			 hotband_set;
	double			 hotband[2];	/* as range= */
	int			 hotband_wrap;	/* past the end, wraps to 0 */
	int			 stride_set;
	double			 stride_bytes[2];	/* min, max */
	double			 poisson_mid;	/* seekpct=poisson: > 0 */
	int			 streams;	/* 0 = off, else >= 2 */
	struct bag		 bag;
	TAILQ_ENTRY(wd)		 entry;
};

/* For-loop kinds of an rd, with the labels vdbench prints. */
enum loop_kind {
	LOOP_XFERSIZE,
	LOOP_THREADS,
	LOOP_RDPCT,
	LOOP_RHPCT,
	LOOP_WHPCT,
	LOOP_SEEKPCT,
	LOOP_HITAREA,
	LOOP_COMP,
	LOOP_DEPTH,
	LOOP_WIDTH,
	LOOP_FILES,
	LOOP_SIZES,
	LOOP_TOTALSIZE,
	LOOP_WSS,
	LOOP_OPERATION,
	LOOP_IORATE,		/* from an iorate= list, always innermost */
	LOOP_FWDRATE,		/* a fwdrate= list, at its place */
	LOOP_NKINDS,
};

struct forloop {
	enum loop_kind	  kind;
	int		  n;
	double		 *vals;		/* numeric loops */
	char		**strs;		/* LOOP_OPERATION */
};

enum rd_dist {
	RD_DIST_EXPONENTIAL,
	RD_DIST_UNIFORM,
	RD_DIST_DETERMINISTIC,
};

struct rd {
	char			*name;
	struct strlist		 wds;
	struct strlist		 sds;		/* override, or single/... */
	struct strlist		 fwds;
	struct strlist		 fsds;
	/* iorate: RD_IORATE_MAX/CURVE, negative = percent, else per s. */
	int			 iorate_n;	/* 0 = missing */
	double			*iorate;
	int			 fwdrate_n;
	double			*fwdrate;
	int			 ncurve;
	double			*curve_pct;	/* NULL = 10,50,70,80,90,100 */
	uint64_t		 elapsed_s;	/* default 30 */
	uint64_t		 interval_s;	/* default 1 */
	uint64_t		 warmup_s;	/* 0 = none */
	int			 warmup_set;
	uint64_t		 pause_s;
	enum rd_dist		 distribution;
	int			 nloops;	/* in nesting order */
	struct forloop		*loops;
	struct strlist		 openflags;
	struct strlist		 format;	/* FSD format= words */
	/*
	 * maxdata= (0), maxdataread= (1) or maxdatawritten= (2), the last
	 * of them in that order when several are given; -1 = none. The
	 * value is bytes, or (<= 100) a multiple of the run's lun sizes.
	 */
	int			 maxdata_dir;
	double			 maxdata;
	double			 stopcurve_ms;	/* 0 = none */
	struct strlist		 operations;	/* lower case */
	struct strlist		 startcmd;	/* rd startcmd=, target words */
	char			*mount;		/* mount= options, or NULL */
	struct strlist		 endcmd;
	struct bag		 bag;
	TAILQ_ENTRY(rd)		 entry;
};

/* A file-system tree (PARMFILE.md 9). */
struct fsd {
	char			*name;
	char			*anchor;
	int			 depth;		/* default 1 */
	int			 width;		/* default 1 */
	uint64_t		 files;		/* per directory, default 10 */
	int			 dist_all;	/* distribution=all */
	int			 nsizes;	/* file sizes, default 4k */
	uint64_t		*size_bytes;
	double			*size_pct;	/* NULL: one size */
	int			 size_avg;	/* sizes=(avg,0) */
	uint64_t		 totalsize_bytes;	/* 0 = all files */
	uint64_t		 wss_bytes;	/* 0 = all files */
	int			 shared;
	struct strlist		 openflags;
	struct bag		 bag;
	TAILQ_ENTRY(fsd)	 entry;
};

/* A file-system workload (PARMFILE.md 10.1). */
struct fwd {
	char			*name;
	struct strlist		 fsds;
	char			*operation;	/* default "read" */
	int			 readpct_set;
	double			 readpct;
	double			 stopafter;	/* 0 = file size; <0 = N% */
	char			*fileselect;	/* default "sequential" */
	char			*fileio;	/* default "sequential" */
	int			 fileio_shared;	/* (random,shared) */
	int			 fileio_delete;	/* (sequential,delete) */
	struct xfer		 xfer;		/* default 4k */
	int			 skew_set;
	double			 skew_pct;
	int			 threads;	/* default 1 */
	char			*target;
	struct strlist		 hosts;
	struct strlist		 openflags;
	/* fileselect=(poisson,midpoint=n): n, when fileselect is poisson */
	double			 poisson_midpoint;	/* default 3 */
	struct bag		 bag;
	TAILQ_ENTRY(fwd)	 entry;
};

TAILQ_HEAD(hd_list, hd);
TAILQ_HEAD(sd_list, sd);
TAILQ_HEAD(wd_list, wd);
TAILQ_HEAD(rd_list, rd);
TAILQ_HEAD(fsd_list, fsd);
TAILQ_HEAD(fwd_list, fwd);

struct sd_index;

struct model {
	struct general	 general;
	struct hd_list	 hds;
	struct sd_list	 sds;
	struct wd_list	 wds;
	struct rd_list	 rds;
	struct fsd_list	 fsds;
	struct fwd_list	 fwds;
	struct wd	*wd_default;	/* for rd=x,sd=y without wd= */
	/*
	 * Keywords vdbc accepts (so -s plans them) but cannot run yet, as
	 * "keyword= (file:line:col)". Not part of the JSON form.
	 */
	struct strlist	 unbuilt;
	/*
	 * model_find_sd's name index (model.c), built at the first lookup
	 * and kept by model_insert_sd/model_remove_sd. Not part of the JSON.
	 */
	struct sd_index	*sd_index;
};

const char	*loop_label(enum loop_kind);

struct model	*model_new(void);
void		 model_free(struct model *);

/* Entries with vdbench's defaults; the copies are deep. */
void		 general_init(struct general *);
void		 general_clear(struct general *);
struct hd	*hd_new(const char *name);
struct hd	*hd_copy(const struct hd *, const char *name);
void		 hd_free(struct hd *);
struct sd	*sd_new(const char *name);
struct sd	*sd_copy(const struct sd *, const char *name);
void		 sd_free(struct sd *);
struct wd	*wd_new(const char *name);
struct wd	*wd_copy(const struct wd *, const char *name);
void		 wd_free(struct wd *);
struct rd	*rd_new(const char *name);
struct rd	*rd_copy(const struct rd *, const char *name);
void		 rd_free(struct rd *);
struct fsd	*fsd_new(const char *name);
struct fsd	*fsd_copy(const struct fsd *, const char *name);
void		 fsd_free(struct fsd *);
struct fwd	*fwd_new(const char *name);
struct fwd	*fwd_copy(const struct fwd *, const char *name);
void		 fwd_free(struct fwd *);

/*
 * Add s to the sds before `before` (NULL: at the end), or take it out (the
 * caller frees it). Change m->sds through these two so model_find_sd, which
 * looks names up in a hash index, stays right; a plain TAILQ_INSERT_TAIL
 * is noticed (the index is rebuilt), any other direct change is not.
 */
void		 model_insert_sd(struct model *, struct sd *s,
		    struct sd *before);
void		 model_remove_sd(struct model *, struct sd *s);
/* The first sd named exactly `name`, in O(1): 100,000 sds stay linear. */
struct sd	*model_find_sd(const struct model *, const char *name);
struct wd	*model_find_wd(const struct model *, const char *name);
struct rd	*model_find_rd(const struct model *, const char *name);
struct hd	*model_find_hd(const struct model *, const char *name);

/* Helpers shared by the parser and the codec. */
void		 pvals_copy(struct pvals *dst, const struct pvals *src);
void		 pvals_clear(struct pvals *);
void		 bag_init(struct bag *);
void		 bag_copy(struct bag *dst, const struct bag *src);
void		 bag_clear(struct bag *);
/* Set key (replacing an earlier value); the values are copied. */
void		 bag_set(struct bag *, const char *key, const struct pvals *);
const struct pvals *bag_get(const struct bag *, const char *key);
void		 strlist_add(struct strlist *, const char *);
void		 strlist_copy(struct strlist *dst, const struct strlist *src);
void		 strlist_clear(struct strlist *);
void		 xfer_set_single(struct xfer *, uint64_t bytes);
void		 xfer_copy(struct xfer *dst, const struct xfer *src);
void		 xfer_clear(struct xfer *);
uint64_t	 xfer_max_bytes(const struct xfer *);
void		 forloop_copy(struct forloop *dst, const struct forloop *src);
void		 forloop_clear(struct forloop *);

/* Match a name against a pattern with vdbench's trailing-'*' wildcard. */
int		 name_matches(const char *pattern, const char *name);

#endif /* COMMON_MODEL_H */
