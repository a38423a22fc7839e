/* SPDX-License-Identifier: MIT */
#ifndef MASTER_METRICS_H
#define MASTER_METRICS_H

#include <stdint.h>

#include <event2/event.h>

#include "errmsg.h"
#include "merge.h"
#include "report.h"

/*
 * --metrics [ADDR:]PORT: the master serves the last printed interval in
 * Prometheus' text exposition format (version 0.0.4) over httpd.h's
 * bounded server, at /metrics, while it runs (docs/metrics.md). Owns
 * the listening socket and the page (handed to the server); the page is
 * rebuilt once per printed interval and served as it is to every
 * scrape.
 */
struct metrics;

/*
 * Listen on spec: "PORT" or ":PORT" (127.0.0.1), "ADDR:PORT" or
 * "[ADDR6]:PORT"; port 0 takes any free one. NULL with e naming the spec
 * and the reason when it is malformed or cannot be bound.
 */
struct metrics	*metrics_new(struct event_base *, const char *spec,
		    struct errmsg *);
void		 metrics_free(struct metrics *);
/* Where it listens, "http://127.0.0.1:9464/metrics". */
const char	*metrics_url(const struct metrics *);
/*
 * Interval k of run (for-loop text loops, "threads=2 xfersize=4k" or
 * "None") was printed: the total, every host and sd/fsd of a, cpu on the
 * total. fs: a file-system run (rates and response times of the
 * requested operations). NULL m does nothing.
 */
void		 metrics_interval(struct metrics *, const struct report *,
		    const char *run, const char *rd, const char *loops,
		    unsigned int k, const struct iacc *a, uint64_t dur_ns,
		    const struct cpu_pct *cpu, int fs);

#endif /* MASTER_METRICS_H */
