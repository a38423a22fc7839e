/* SPDX-License-Identifier: MIT */
/*
 * When a raw run's next I/O is due (pace.h).
 */
#include "pace.h"

#include <time.h>

#include "mtime.h"
#include "xmalloc.h"

void
pace_prio_init(struct prio_sched *p, const struct sdw *s, struct thread *t,
    uint64_t go_ns)
{
	int j;

	p->next_ns = xcalloc((size_t)s->nwgs, sizeof(uint64_t));
	p->mean_ns = xcalloc((size_t)s->nwgs, sizeof(double));
	p->dead = xcalloc((size_t)s->nwgs, 1);
	for (j = 0; j < s->nwgs; j++) {
		double share = (s->wg_cum[j] - (j > 0 ? s->wg_cum[j - 1] : 0)) /
		    s->wg_cum[s->nwgs - 1];

		p->mean_ns[j] = s->rate_per_s > 0 && share > 0 ? 1e9 *
		    s->nthreads / (s->rate_per_s * share) : 0;
		p->next_ns[j] = go_ns + (p->mean_ns[j] > 0 ?
		    pace_next_gap(t->w, &t->rng, p->mean_ns[j]) : 0);
	}
}

int
pace_wait_until(struct work *w, uint64_t t_ns)
{
	struct timespec ts;

	while (!__atomic_load_n(&w->stop, __ATOMIC_RELAXED)) {
		uint64_t now = mtime_now_ns(), wake;

		if (now >= t_ns)
			return (0);
		/* Sleep in slices of at most 100 ms, to see a stop. */
		wake = t_ns - now > 100000000u ? now + 100000000u : t_ns;
		ts.tv_sec = (time_t)(wake / 1000000000u);
		ts.tv_nsec = (long)(wake % 1000000000u);
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
	}
	return (-1);
}

void
pace_prio_free(struct prio_sched *p)
{
	free(p->next_ns);
	free(p->mean_ns);
	free(p->dead);
}

/*
 * The slot of the highest priority WG with an arrival due at now, or -1:
 * then *due is the earliest coming arrival (UINT64_MAX when every WG is
 * at its end).
 */
int
pace_prio_pick(const struct prio_sched *p, const struct sdw *s, uint64_t now,
    uint64_t *due)
{
	int i;

	*due = UINT64_MAX;
	for (i = 0; i < s->nwgs; i++) {
		int j = s->prio_order[i];

		if (p->dead[j])
			continue;
		if (p->mean_ns[j] == 0 || p->next_ns[j] <= now)
			return (j);
		if (p->next_ns[j] < *due)
			*due = p->next_ns[j];
	}
	return (-1);
}
