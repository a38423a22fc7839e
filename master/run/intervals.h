/* SPDX-License-Identifier: MIT */
#ifndef MASTER_INTERVALS_H
#define MASTER_INTERVALS_H

#include <jansson.h>

#include "run_int.h"

/*
 * Interval intake and the end of a run (master/intervals.c): owns the
 * decoding of INTERVAL bodies into per-WG deltas, the slaves' CPU tick
 * bookkeeping, printing the intervals every slave has reported, and the
 * run's closing lines (averages, histograms, percentiles, warnings).
 */
void	on_interval(struct mslave *, json_t *body);
void	print_ready_intervals(struct master *);
void	write_averages(struct master *, unsigned int last);
void	vdbc_note(struct master *, const char *);
void	run_progress(struct master *);
void	cpu_baseline(struct mslave *, const json_t *cpu);

#endif /* MASTER_INTERVALS_H */
