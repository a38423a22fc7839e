/* SPDX-License-Identifier: MIT */
#ifndef MASTER_REPORT_H
#define MASTER_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "errmsg.h"
#include "iostats.h"
#include "model.h"
#include "plan.h"
#include "vdbhist.h"

/*
 * vdbench's report files in the output directory, written as the run goes
 * (FORMATS.md 1-4): summary.html, totals.html, flatfile.html,
 * logfile.html, parmfile.html and errorlog.html. Every line is flushed as
 * it is written, so a run that stops early leaves what it did.
 */
struct report;

/* CPU percentages of an interval (vdbench's Linux formula). */
struct cpu_pct {
	int	valid;
	double	user_sys;	/* "cpu% sys+u" */
	double	sys;		/* "cpu% sys" */
	double	user;
};

/* Report keys: the files of one host, slave, sd or wd (FORMATS.md 3). */
enum rkey_kind {
	RKEY_TOTAL,	/* summary.html, histogram.html */
	RKEY_HOST,	/* <host>.html */
	RKEY_SLAVE,	/* <host>-<n>.html */
	RKEY_SD,	/* <sd>.html, <sd>.histogram.html */
	RKEY_WD,	/* <wd>.html, <wd>.histogram.html */
	RKEY_HOSTSD,	/* <host>.<sd>.html (report=host_detail) */
	RKEY_SLAVESD,	/* <host>-<n>.<sd>.html (report=slave_detail) */
	RKEY_SDQUIET,	/* an sd counted but without files (no_sd_detail) */
	RKEY_FSD,	/* <fsd>.html, <fsd>.histogram.html */
	RKEY_FWD,	/* <fwd>.html (and format.html), histogram */
	RKEY_ANCHORS,	/* anchors.html: rows of report_anchor_row only */
};

/* What an interval line shows, derived from counters (FORMATS.md 2). */
struct derived {
	double	rate, mbs, readpct, resp, rresp, wresp, max, stddev, qdepth;
	long	bytes_io;
};

/*
 * Bytes in a report's MB: 1048576, or 1000000 with vdbench's -mb; and
 * the header's "1024**2" / "1000**2".
 */
extern double	 report_mb;
const char	*report_mb_text(void);
void		 report_derive(struct derived *, const struct iostats *,
		    uint64_t duration_ns);
struct report	*report_open(const char *outdir, const struct plan *,
		    int nfiles, char *const files[], struct errmsg *);
void		 report_close(struct report *);
/*
 * Flush every report file; -1 with "Cannot write report file PATH:
 * strerror" in e when a write to any of them failed (disk full, removed,
 * read-only) since it was opened. The first failure stays.
 */
int		 report_check(struct report *, struct errmsg *);
/*
 * Add a report key and open its files; key 0 is the total, added by
 * report_open. with_hist: also a histogram file. Returns the key index.
 */
int		 report_key_add(struct report *, enum rkey_kind,
		    const char *name, int with_hist);
/* A host sd key ("<host>.<sd>", no histogram): its title names the lun. */
int		 report_key_add_lun(struct report *, enum rkey_kind,
		    const char *name, const char *lun);
int		 report_nkeys(const struct report *);
enum rkey_kind	 report_key_kind(const struct report *, int key);
const char	*report_key_name(const struct report *, int key);
/*
 * File-system runs: interval and avg lines in vdbench's FWD layout
 * (FORMATS.md 5.1) until set back to 0; extra_ops has bit (1 << FSOP_x)
 * for getattr, setattr, access, copy, move columns.
 */
void		 report_set_fs(struct report *, int fs, unsigned int extra_ops);
/*
 * One anchors.html row (FORMATS.md 5.2): the anchor's whole tree, its
 * total size and working set (0 when not limited), what exists, and what
 * was opened. w: the width of the anchor column (longest anchor).
 */
void		 report_anchor_row(struct report *, int key, int w,
		    const char *anchor, const uint64_t size[3],
		    const uint64_t total[3], const uint64_t wss[3],
		    const uint64_t exist[3], const uint64_t opened[2]);
/* The "Miscellaneous statistics" block after a run's avg line. */
void		 report_fs_misc(struct report *, const struct iostats *,
		    unsigned int nintervals, uint64_t interval_s);
/*
 * The command line's name=value substitutions at the end of parmfile.html
 * and each parmfile again with them resolved (nothing when there are
 * none): what ran, readable without the command line.
 */
struct subvars;
void		 report_substitutions(struct report *, const struct subvars *,
		    int nfiles, char *const files[]);
/* A line of vdbc's own (percentiles) in summary.html and the logfile. */
void		 report_summary_note(struct report *, const char *);
/*
 * A run's average percentiles (all, read, write; h: read and write
 * histograms, either NULL) into percentiles.html, vdbc's own file linked
 * from summary.html: totals.html keeps vdbench's columns. fs: a
 * file-system run (the percentiles are of its data reads and writes).
 */
struct hist;
void		 report_percentiles(struct report *, const char *label, int fs,
		    struct hist *const h[2]);
void		 report_key_text(struct report *, int key, const char *);
void		 report_host_messages(struct report *, const char *host);
/* One interval or avg line in a key's own file. */
void		 report_key_line(struct report *, int key, const char *label,
		    const struct iostats *, uint64_t duration_ns,
		    const struct cpu_pct *);
/* A key's response-time histogram of the run (vdbench's buckets). */
void		 report_key_hist(struct report *, int key,
		    const struct vdbhist_edges *, const struct vdbhist vdb[2]);
/*
 * The skew tables of a run: per_key[k] is key k's average counters;
 * skew_req[k] (may be NULL) the share of the run's I/O requested for wd
 * key k, in percent, < 0 for a wd not in the run; host_cpu[k] (may be
 * NULL) the cpu of host key k and total_cpu the run's, over the same
 * intervals; uncontrolled: an uncontrolled max run.
 */
struct skew_in {
	const struct iostats	*per_key;
	uint64_t		 dur_ns;
	const double		*skew_req;
	const struct cpu_pct	*host_cpu;
	const struct cpu_pct	*total_cpu;
	int			 uncontrolled;
};
void		 report_skew(struct report *, const struct skew_in *);
/* abort_failed_skew=: 1 with text when a wd's observed skew is off its
 * requested skew by more than limit percent (report_skew's numbers). */
int		 report_skew_failed(const struct report *,
		    const struct iostats *per_key, uint64_t duration_ns,
		    const double *skew_req, double limit, char *text,
		    size_t len);
/* The wd (of a file-system run: the fwd) furthest off its requested
 * skew (report_skew's numbers): its distance in percentage points, *wd
 * its name; -1 when there is none. */
double		 report_skew_worst(const struct report *,
		    const struct iostats *per_key, uint64_t duration_ns,
		    const double *skew_req, const char **wd);
/* swat_mon.txt and swat_mon_total.txt blocks (FORMATS.md 3.1). */
void		 report_swat_interval(struct report *,
		    const struct iostats *per_key, uint64_t duration_ns);
void		 report_swat_total(struct report *,
		    const struct iostats *per_key, uint64_t duration_ns);
/* A line in status.html ("<state>" or "<state>\trd=...\tFor loops..."). */
void		 report_status(struct report *, const char *state,
		    const char *run, const char *loops);
/* The run definitions block, once the run list is known. */
void		 report_rd_links(struct report *, const struct plan *,
		    int with_format);
/* The file that gets a copy of every console line. */
FILE		*report_logfile(struct report *);
/* "Starting RD=..." in summary and totals (the console prints its own). */
void		 report_run_start(struct report *, const char *text,
		    int anchor);
/* An interval line: console, summary, flatfile. */
void		 report_interval(struct report *, const char *run_name,
		    unsigned int interval_no, const struct iostats *,
		    uint64_t duration_ns, const struct cpu_pct *,
		    const struct run_request *);
/* The avg_F-L line: console, summary, totals, flatfile. */
void		 report_avg(struct report *, const char *run_name,
		    const char *label, const struct iostats *,
		    uint64_t duration_ns, const struct cpu_pct *,
		    const struct run_request *);
/* A line for errorlog.html (and the console). */
void		 report_error(struct report *, const char *text);
/* summary.html itself, for vdbc's charts after vdbench's text. */
FILE		*report_summary(struct report *);
/* The last line of summary.html. */
void		 report_end(struct report *, const char *text);
/* One interval line as vdbench prints it (for tests). */
void		 report_format_line(char *buf, size_t len, const char *tod,
		    const char *label, const struct iostats *,
		    uint64_t duration_ns, const struct cpu_pct *);

#endif /* MASTER_REPORT_H */
