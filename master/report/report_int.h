/* SPDX-License-Identifier: MIT */
#ifndef MASTER_REPORT_INT_H
#define MASTER_REPORT_INT_H

/*
 * What the report writers (report*.c) share and nothing else includes:
 * struct report and its files, out() and the formats every file uses.
 * report.c opens and closes the files and owns the keys, the status and
 * the summary; report_fmt.c the shared formats; report_flat.c the
 * flatfile; report_fs.c the file-system lines; report_skew.c,
 * report_swat.c and report_hist.c their files.
 */
#include "report.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "iostats.h"

enum rfile {
	RF_SUMMARY, RF_TOTALS, RF_FLAT, RF_LOG, RF_PARM, RF_ERROR, RF_STATUS,
	RF_SKEW, RF_SWAT, RF_SWAT_TOTAL, RF_PCT, RF_N,
};

/* The files of one report key. */
struct rkey {
	enum rkey_kind	 kind;
	char		*name;
	char		*html;		/* name, HTML-escaped */
	char		*path, *hpath;	/* of f and hf */
	FILE		*f;		/* interval lines (NULL: summary) */
	FILE		*hf;		/* histogram, or NULL */
	unsigned int	 lines;		/* lines since the last header */
};

struct report {
	FILE		*f[RF_N];
	char		*path[RF_N];
	int		 werr;		/* first write error, 0 = none */
	char		*werr_path;	/* and the file it hit */
	unsigned int	 lines_since_header;
	int		 totals_header_done;
	unsigned int	 totals_extra;	/* fs_extra of the last header */
	int		 run_no;
	char		*outdir;
	char		*base;		/* last component of outdir, escaped */
	int		 nkeys;
	struct rkey	*keys;
	char		 run_text[1024];	/* the current Starting line */
	char		 last_link_prefix[1400];
	int		 swat_started;
	int		 fs;		/* FWD layout (file-system runs) */
	int		 fs_flat;	/* flatfile in the FSD/FWD columns */
	unsigned int	 fs_extra;	/* 1 << FSOP_GETATTR, ... */
	int		 skew_counts_said;	/* skew.html's note, once */
};

/* The fs operation columns in vdbench's order (report_fs.c). */
#define FS_NCOLS	11
extern const enum fsop fs_cols[FS_NCOLS];

/* The first report file whose write failed and its errno (out()). */
extern FILE	*out_fail_f;
extern int	 out_fail_errno;

/* report_fmt.c */
void	 out(FILE *, const char *, ...)
	    __attribute__((format(printf, 2, 3)));
void	 fmtw(char *, size_t, double v, int w, int d);
void	 dotted(char *, size_t, const char *title, int w);
void	 header_for(struct report *, FILE *);

/* report_fs.c */
void	 fs_header(struct report *, FILE *);
void	 fs_line(struct report *, char *, size_t, const char *tod,
	    const char *label, const struct iostats *, uint64_t dur_ns,
	    const struct cpu_pct *);
void	 fs_skew(struct report *, const struct iostats *per_key,
	    const double *skew_req, uint64_t dur_ns);
int	 fs_skew_row(const struct report *, int k, enum rkey_kind,
	    const struct iostats *);

/* report_flat.c */
void	 flat_header(struct report *);
void	 flat_row(struct report *, const char *tod, const char *run,
	    const char *label, const struct iostats *, uint64_t dur_ns,
	    const struct cpu_pct *, const struct run_request *);

#endif /* MASTER_REPORT_INT_H */
