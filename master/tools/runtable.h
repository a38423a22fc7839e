/* SPDX-License-Identifier: MIT */
#ifndef MASTER_RUNTABLE_H
#define MASTER_RUNTABLE_H

#include <stdio.h>

#include <jansson.h>

#include "errmsg.h"

/*
 * The run table of one output directory, for "vdbc compare" and "vdbc
 * index": one row per run with its averages, read from vdbc's
 * results.json or, in a vdbench directory, from flatfile.html (the avg_
 * lines) and summary.html (the Starting lines: for-loops and anchors).
 * Pure: no console, no exit; errors go into a struct errmsg.
 */

/* A value the directory does not have is NAN (errors: -1). */
struct rt_run {
	char	*name;		/* run name as on the Starting line */
	char	*for_loops;	/* "threads=8 iorate=1000", "None" or "" */
	char	*status;	/* "completed", "stopped: ...", "no average" */
	char	*started;	/* start time as the directory says it, or "" */
	char	*anchor;	/* summary.html anchor ("_1"), or "" */
	double	 rate;		/* I/O (or operations) per second */
	double	 mbps;		/* MiB per second */
	double	 resp_ms;	/* mean response time */
	double	 resp_max_ms;
	double	 p50, p90, p99, p999, p9999;	/* percentiles, ms */
	double	 cpu;		/* cpu% user+sys */
	long long errors;
	long long corrupt;	/* corrupted data blocks found; -1: unknown */
	int	 killed;	/* the execution ended in this run, unrecorded */
};

struct rt_dir {
	char		*path;		/* as given */
	const char	*kind;		/* "vdbc" or "vdbench" */
	char		*started;	/* the first run's start, or "" */
	/*
	 * How the execution ended, from status.html and logfile.html: ""
	 * when it completed (or nothing says), "stopped: <why>" when it
	 * stopped early, "failed: <why>" when it ended without finishing.
	 */
	char		*outcome;
	/* The inputs, "" when the directory does not say (vdbench: seed). */
	char		*version;	/* "vdbc 0.1.0", "vdbench" */
	char		*seed;
	char		*subst;		/* "lun=/x rd=70" */
	/*
	 * The command-line options that shape the workload, in order and
	 * as logfile.html scans them ("-v", "-m2", "-e3"): without -f, -o,
	 * --seed and the substitutions, which are compared on their own.
	 */
	char		*options;
	char		*hosts;		/* "localhost (local, 2 slaves)", or "" */
	char	       **parm;		/* the parmfile's lines, resolved */
	int		 nparm;
	int		 n;
	struct rt_run	*runs;
	/* a vdbc directory's results.json "runs" as written, for
	 * charts_write (report/charts.h); NULL for vdbench's */
	json_t		*runs_json;
};

/*
 * Open a file of an output directory, or parseflat's input, to read: a
 * regular file of at most RT_MAX_BYTES, else NULL with errno (EINVAL: a
 * FIFO, device, socket or directory, never opened to block or read
 * without end; EFBIG: over the cap) and runtable_why() saying it.
 */
#define RT_MAX_BYTES	(256ull << 20)
FILE		*runtable_fopen(const char *path);
/* The reason for the last runtable_fopen's NULL, from its errno. */
const char	*runtable_why(int err);
/* Is dir an output directory (results.json or flatfile.html in it)? */
int	runtable_is_outdir(const char *dir);
/* Read dir's run table into *d: 0, or -1 with e set. */
int	runtable_read(const char *dir, struct rt_dir *d, struct errmsg *e);
void	runtable_free(struct rt_dir *d);
/* "rd1 threads=8": the name and for-loops that match runs across dirs. */
void	runtable_key(const struct rt_run *r, char *buf, unsigned long len);

/* A format run (SD_format, format_for_...): not a measured workload. */
int	runtable_is_format(const struct rt_run *r);

/* v with decimals, more digits when that shows 0; "n/a" for NAN. */
void	runtable_fmt(char *buf, unsigned long len, double v, int decimals);
/* The path of to_dir/file as seen from from_dir (both must exist). */
char	*runtable_relpath(const char *from_dir, const char *to_dir,
	    const char *file);
/* runtable_relpath as a URL: what is not unreserved %-encoded, '/' kept. */
char	*runtable_url(const char *from_dir, const char *to_dir,
	    const char *file);
/* mkdir -p dir: 0, or -1 with e set. */
int	runtable_mkdirs(const char *dir, struct errmsg *e);
/* Close f written as path: 0, or -1 with e set (a full disk, ...). */
int	runtable_fclose(FILE *f, const char *path, struct errmsg *e);

#endif /* MASTER_RUNTABLE_H */
