/* SPDX-License-Identifier: MIT */
#ifndef MASTER_CHARTS_H
#define MASTER_CHARTS_H

#include <stdio.h>

#include <jansson.h>

/*
 * Inline SVG charts for summary.html: per rd, rate, MB/s, response time
 * and p99 per interval, one line per run (each for-loop step). Plain SVG
 * in the page: no script, no network.
 */
void	charts_write(FILE *, const json_t *runs);

#endif /* MASTER_CHARTS_H */
