/* SPDX-License-Identifier: MIT */
#ifndef MASTER_PARM_INT_H
#define MASTER_PARM_INT_H

#include <stdint.h>

#include "lexer.h"
#include "model.h"
#include "parmfile.h"

/*
 * Private to the parmfile parser (parmfile.c and the parm_*.c section
 * files): the keyword tables' shape, the parser's state, the value
 * checkers (parm_value.c), the section handlers and the helpers the
 * driver calls. Nothing outside master/parm*.c includes this.
 */

enum section {
	SEC_GENERAL, SEC_HD, SEC_RG, SEC_FSD, SEC_SD, SEC_WD, SEC_FWD, SEC_RD,
	SEC_N,
};

extern const char *const sec_names[SEC_N];

/* What a keyword does once matched. */
enum kwid {
	K_BAG,			/* keep the values untyped */
	K_BAG_WARN,		/* keep, and say vdbc does not act on it yet */
	K_NOEFFECT,		/* keep; vdbc has no behaviour: console warning */
	K_REJECT,		/* vdbench's own rejection text in msg */
	K_NAME,			/* the entry's own keyword (sd=, wd=, ...) */
	/* general */
	K_COMPRATIO, K_FORMATXFERSIZE, K_FORMATSDS, K_PORT, K_HISTOGRAM,
	K_G_COMPSEED, K_G_DEBUG, K_G_UNIX2WIN, K_G_REPORT, K_G_MSGSCAN,
	K_G_VALIDATE, K_W_STRIDE, K_W_HOTBAND, K_H_MOUNT, K_G_CMD,
	K_G_DEDUP, K_G_DATAERR, K_G_CREATE_ANCHORS, K_G_SHOWLBA,
	/* hd */
	K_SYSTEM, K_VDBENCH, K_SHELL, K_USER, K_JVMS, K_CLIENTS,
	/* sd */
	K_HOST, K_LUN, K_SIZE, K_THREADS, K_HITAREA, K_OFFSET, K_ALIGN,
	K_OPENFLAGS, K_RANGE, K_ENGINE, K_COUNT, K_OVERWRITE,
	/* wd */
	K_SDLIST, K_SKEW, K_XFERSIZE, K_READPCT, K_WRITEPCT, K_SEEKPCT,
	K_PRIORITY, K_WD_IORATE, K_RHPCT, K_WHPCT, K_WD_THREADS,
	/* rd */
	K_WDLIST, K_FSDLIST, K_FWDLIST, K_IORATE, K_MAXDATA, K_CURVE,
	K_ELAPSED, K_INTERVAL, K_WARMUP, K_PAUSE, K_LOOP, K_DISTRIBUTION,
	K_FWDRATE, K_FORMAT, K_OPERATIONS, K_STOPCURVE,
	/* fsd */
	K_ANCHOR, K_FSD_WIDTH, K_FSD_DEPTH, K_FSD_SIZES, K_FSD_FILES,
	K_FSD_DIST, K_FSD_TOTAL, K_FSD_WSS, K_FSD_SHARED,
	/* fwd */
	K_FWD_RDPCT, K_FWD_STOPAFTER, K_FWD_OPERATION, K_FWD_FILESELECT,
	K_FWD_FILEIO, K_FWD_XFERSIZE, K_FWD_SKEW, K_FWD_THREADS, K_FWD_TARGET,
	K_FWD_HOST,
};

struct pstate;

struct kwdef {
	const char	*name;
	int		 minlen;	/* shortest prefix; -1 = exact */
	enum kwid	 id;
	int		 arg;		/* K_LOOP: the loop kind, ... */
	const char	*msg;		/* K_REJECT / K_BAG_WARN text;
					 * K_NOEFFECT: why it has none */
	/* What the keyword does; NULL: parse_item's generic kinds, do_hd. */
	int		(*fn)(struct pstate *, const struct kwdef *);
};

#define EXACT	-1

/* count=(start,n): the most copies of one sd or fsd. */
#define PARM_MAX_COUNT	100000
/*
 * The most sds, and the most fsds, of a parmfile in all, count= copies
 * included: real parmfiles have hundreds; 100 lines of count=(1,100000)
 * would be 10 million (gigabytes, minutes in -s).
 */
#define PARM_MAX_SDS	100000

/* The parser's state while it walks the stream. */
struct pstate {
	const struct parm_opts	*opts;
	struct model		*m;
	struct strlist		*notes;
	struct errmsg		*e;
	const struct pitem	*it;		/* item being parsed */
	const struct pitem	*entry_it;	/* the x=name of the entry */
	enum section		 sec;
	int			 is_default;	/* current entry is x=default */
	struct hd		*hd_def, *hd;
	struct sd		*sd_def, *sd;
	struct wd		*wd_def, *wd;
	struct rd		*rd_def, *rd;
	struct fsd		*fsd_def, *fsd;
	struct fwd		*fwd_def, *fwd;
	/* sd host=/lun= pairs, in either order (vdbench's SD_entry
	 * finishPendingParms): the i-th host= list goes with the i-th lun=;
	 * sd=default's host= is the host of a lone lun= without one */
	struct strlist		*pend_hosts;
	int			 npend_hosts;
	struct strlist		 pend_luns;
	struct strlist		 sd_def_hosts;
	int			 rd_wd_given;
	int			 out_of_order;	/* an sd= inside wd/rd */
	int			 threads0_noted;
	struct strlist		 noshell;	/* remote hds without shell= */
	int			 hd_seen_default;
	int			 hd_sys_checked;	/* at its system= */
	long			 count_start, count_n;	/* count=(s,n) */
	long			 nsds, nfsds;	/* so far, with copies */
	double			 nruns;		/* the rds' runs so far */
	struct strlist		 rgs;		/* rg= names (replay groups) */
};

extern const struct kwdef *const sec_tables[SEC_N];
/* The section tables (parm_general.c, parm_sdwd.c, parm_rd.c, parm_fs.c). */
extern const struct kwdef general_kws[];
extern const struct kwdef rg_kws[];
/* An rg= (replay group) entry: its name checked and kept (parm_rd.c). */
int	open_rg(struct pstate *);
/* A RARE yes/no keyword whose no is the default: yes is unbuilt. */
int	kw_yes_unbuilt(struct pstate *, const struct kwdef *);
/* sd=/fsd= journal=DIR: unbuilt; journal=no accepted (parm_fs.c). */
int	kw_journal_dir(struct pstate *, const struct kwdef *);
/* sd replay=: device numbers, or the name of an rg= (parm_rd.c). */
int	kw_sd_replay(struct pstate *, const struct kwdef *);
extern const struct kwdef hd_kws[];
extern const struct kwdef sd_kws[];
extern const struct kwdef wd_kws[];
extern const struct kwdef rd_kws[];
extern const struct kwdef fsd_kws[];
extern const struct kwdef fwd_kws[];
/* parm_value.c */
int	is_operation(const char *s);
int	fail(struct pstate *ps, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
void	note(struct pstate *ps, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
void	unbuilt(struct pstate *ps, const char *what);
void	noeffect(struct pstate *ps, const char *name, const char *why);
int	one_num(struct pstate *ps, double *out);
int	one_uint(struct pstate *ps, uint64_t *out);
int	one_pct(struct pstate *ps, double *out);
int	one_str(struct pstate *ps, const char **out);
void	all_strs(struct pstate *ps, struct strlist *l);
int	sd_pair_luns(struct pstate *ps);
void	sd_pairs_clear(struct pstate *ps);
int	check_openflags(struct pstate *ps);
int	get_range(struct pstate *ps, double range[2], int *set);
int	size_or_pair(struct pstate *ps, uint64_t *bytes, uint64_t *divisor);
int	wd_xfersize(struct pstate *ps, struct xfer *x);
struct bag	*cur_bag(struct pstate *ps);
int	yes_no(struct pstate *ps, int *out);
/* the section files */
int	check_dedup(struct pstate *ps, const char *name);
int	kw_dedup_more(struct pstate *ps, const struct kwdef *d);
int	check_general_dedup(struct pstate *ps);
int	do_hd(struct pstate *ps, const struct kwdef *d);
int	check_rd_times(struct pstate *ps, struct rd *r);
int	check_format(struct pstate *ps, const struct rd *r);
/* parm_expand.c, parm_hint.c */
int	clone_entry(struct pstate *ps);
int	replicate_hosts(struct plines *pl, const struct pitems *pi,
	    struct errmsg *e);
const char	*did_you_mean(struct pstate *ps, const char *kw);
const char	*order_hint(struct pstate *ps, const char *kw);
/* parmfile.c */
const struct kwdef *match_kw(const struct kwdef *tab, const char *kw);

#endif /* MASTER_PARM_INT_H */
