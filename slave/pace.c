/* SPDX-License-Identifier: MIT */
/*
 * When a raw run's next I/O is due (pace.h).
 */
#include "pace.h"

#include <limits.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

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

/*
 * The thread sleeps on the stop flag itself (a futex with an absolute
 * monotonic deadline): pace_stop wakes it at once, and a thread at a low
 * rate wakes only for its arrivals. It slept in 100 ms slices to see a
 * stop before: 16 wake-ups a second for 10 I/Os, where each wake-up of
 * 1,024 slaves' threads on 2 cores costs 40-70 us of CPU
 * (docs/performance.md).
 */
int
pace_wait_until(struct work *w, uint64_t t_ns)
{
	struct timespec ts;

	ts.tv_sec = (time_t)(t_ns / 1000000000u);
	ts.tv_nsec = (long)(t_ns % 1000000000u);
	while (!__atomic_load_n(&w->stop, __ATOMIC_ACQUIRE)) {
		if (mtime_now_ns() >= t_ns)
			return (0);
		/* 0, ETIMEDOUT, EINTR, or EAGAIN (stop set meanwhile):
		 * the loop looks again */
		(void)syscall(SYS_futex, &w->stop, FUTEX_WAIT_BITSET_PRIVATE,
		    0, &ts, NULL, FUTEX_BITSET_MATCH_ANY);
	}
	return (-1);
}

void
pace_stop(struct work *w)
{
	__atomic_store_n(&w->stop, 1, __ATOMIC_RELEASE);
	(void)syscall(SYS_futex, &w->stop, FUTEX_WAKE_PRIVATE, INT_MAX,
	    NULL, NULL, 0);
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
