/* SPDX-License-Identifier: MIT */
#ifndef MASTER_RESULTS_H
#define MASTER_RESULTS_H

#include <stdint.h>

#include <jansson.h>

#include "hist.h"
#include "iostats.h"
#include "report.h"

/*
 * results.json (docs/results-schema.md): every run and interval with its
 * counters, rates, response times and percentiles from the merged
 * log-linear histograms (<= 1 % relative error). Rewritten whole after
 * every interval and every run (through a temporary file and a rename),
 * so a run that stops early, or a master killed with -9, still leaves
 * every whole interval up to there; a run killed so keeps the status
 * "running" (vdbc index: stopped early).
 */
#define RESULTS_SCHEMA_VERSION	1

struct results;

struct results	*results_new(const char *outdir, uint64_t seed, int nfiles,
		    char *const files[]);
void		 results_free(struct results *);
/* The command line as vdbench echoes it and its name=value substitutions. */
struct subvars;
void		 results_args(struct results *, int nargs, char *const args[],
		    const struct subvars *);
/* One host: its label, system=, how its slaves start, their names. */
void		 results_host(struct results *, const char *name,
		    const char *system, const char *how,
		    const char *const slaves[], int nslaves);
/* A run starts; later calls add to it. */
void		 results_run(struct results *, const char *name,
		    const char *rd, const char *loops, const char *rate_text,
		    double requested_rate, uint64_t elapsed_s,
		    uint64_t interval_s, uint64_t warmup_s);
/* lost: comma-separated slaves lost before it ("" = none). */
void		 results_interval(struct results *, unsigned int k,
		    const struct iostats *, uint64_t duration_ns,
		    const struct cpu_pct *, struct hist *const h[2],
		    const char *lost);
/* The average of the run, overall and per report key (kind: "sd", ...). */
void		 results_average(struct results *, const char *label,
		    const struct iostats *, uint64_t duration_ns,
		    const struct cpu_pct *, struct hist *const h[2]);
void		 results_key_average(struct results *, const char *kind,
		    const char *name, const struct iostats *,
		    uint64_t duration_ns, struct hist *const h[2]);
/* Fixed rates: percentiles of the delay from the scheduled start. */
void		 results_sched(struct results *, const struct hist *);
/*
 * A slave's data validation record (the LOG's "dv"): a corrupted data
 * block, or the totals of its run; into the current run's "validation".
 */
void		 results_dv(struct results *, const char *slave,
		    const char *rd, const json_t *dv);
/* How the run ended ("completed", "stopped: ..."), then write the file. */
void		 results_run_end(struct results *, const char *status);
/* -1 with errno when the file could not be written (see results_check). */
int		 results_write(struct results *);
/* -1 with "Cannot write PATH: strerror" when a write of it failed. */
int		 results_check(const struct results *, struct errmsg *);
/* The runs so far (borrowed), for the charts at the end: their intervals
 * are read back into memory from the spool (results.c) first. */
const json_t	*results_runs(struct results *);

#endif /* MASTER_RESULTS_H */
