/* SPDX-License-Identifier: MIT */
#ifndef SLAVE_PACE_H
#define SLAVE_PACE_H

/*
 * When a raw run's next I/O is due (PARMFILE.md 12.5, 12.8): the gaps
 * between arrivals at a fixed rate (distribution=), the end of a timed
 * run, waits that still see a stop, and priority='s per-WG arrivals.
 * The state is the calling I/O thread's own (its rng, its prio_sched);
 * the run's end and distribution are read from struct work.
 */
#include <stdint.h>

#include "rng.h"
#include "work_int.h"

/*
 * Is t_ns past the end of a timed run? Arrivals come at GO + gap, GO + 2
 * gaps, ...: the one at GO + elapsed is the run's last (rate x elapsed
 * of them in all).
 */
static inline int
pace_past_end(const struct work *w, uint64_t t_ns)
{
	return (w->end_ns != 0 && t_ns > w->end_ns);
}

/* The gap to the next arrival (PARMFILE.md 12.5), mean mean_ns. */
static inline uint64_t
pace_next_gap(struct work *w, struct rng *r, double mean_ns)
{
	switch (w->dist) {
	case 1:
		return ((uint64_t)(rng_double(r) * 2 * mean_ns));
	case 2:
		return ((uint64_t)mean_ns);
	default:
		return ((uint64_t)rng_exp(r, mean_ns));
	}
}

/* Wait until an absolute monotonic time, or until stop (-1). */
int	pace_wait_until(struct work *w, uint64_t t_ns);

/* Stop the run's threads: w->stop set, and every thread asleep in
 * pace_wait_until woken (any thread). */
void	pace_stop(struct work *w);

/*
 * priority= (PARMFILE.md 12.8): each WG of the sd has its own arrivals
 * (its share of the sd's rate; none at max) and the thread serves the
 * highest priority WG that has one due, so a lower priority gets what is
 * left. A thread's view: per WG slot, the next arrival and mean gap.
 */
struct prio_sched {
	uint64_t	*next_ns;	/* next arrival per WG slot */
	double		*mean_ns;	/* per WG slot; 0 = always due */
	unsigned char	*dead;		/* at its end (seekpct=eof) */
};

/* t's arrivals of each WG of s, from GO. */
void	pace_prio_init(struct prio_sched *p, const struct sdw *s,
	    struct thread *t, uint64_t go_ns);
void	pace_prio_free(struct prio_sched *p);
/* The slot of the highest priority WG with an arrival due at now, or
 * -1: then *due is the earliest coming one (UINT64_MAX: all ended). */
int	pace_prio_pick(const struct prio_sched *p, const struct sdw *s,
	    uint64_t now, uint64_t *due);

#endif /* SLAVE_PACE_H */
