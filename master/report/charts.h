/* SPDX-License-Identifier: MIT */
#ifndef MASTER_CHARTS_H
#define MASTER_CHARTS_H

#include <stdio.h>

#include <jansson.h>

/*
 * Inline SVG charts for summary.html, per rd. From the run averages, one
 * point per run: rate and response time against the for-loop with the
 * most values (the outermost on a tie, iorate= last); response time against the achieved rate when the
 * rate changes from run to run (curves, N% runs, iorate= lists); p50 to
 * p99.99. Per interval: rate, MB/s, response time and p99, one line per
 * run, none for format runs and one-interval runs. Legends below the
 * plot (never cut), ten colours times four dash patterns, axis labels
 * such as 250k and 1.2M. Plain SVG in the page: no script, no network;
 * data-kind, data-points and data-label attributes name what is drawn.
 */
void	charts_write(FILE *, const json_t *runs);

#endif /* MASTER_CHARTS_H */
