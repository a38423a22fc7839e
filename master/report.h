/* SPDX-License-Identifier: MIT */
#ifndef MASTER_REPORT_H
#define MASTER_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "errmsg.h"
#include "iostats.h"
#include "model.h"
#include "plan.h"

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

/* What the flatfile repeats about a run's request. */
struct run_request {
	double	reqrate;	/* 9999988 for max */
	double	xfersize;	/* -1 = several */
	double	threads;
	double	rdpct, rhpct, whpct, seekpct;	/* -1 = several */
	double	lunsize_gb;
	double	compratio;
};

struct report	*report_open(const char *outdir, const struct plan *,
		    int nfiles, char *const files[], struct errmsg *);
void		 report_close(struct report *);
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
/* The last line of summary.html. */
void		 report_end(struct report *, const char *text);
/* One interval line as vdbench prints it (for tests). */
void		 report_format_line(char *buf, size_t len, const char *tod,
		    const char *label, const struct iostats *,
		    uint64_t duration_ns, const struct cpu_pct *);

#endif /* MASTER_REPORT_H */
