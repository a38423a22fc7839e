/* SPDX-License-Identifier: MIT */
/*
 * The skew gate (see skewgate.h): no lock, no queue. Each member's count
 * sits on a cache line of its own, so the threads of one member touch
 * only that line and the floor, which changes only when a thread that
 * is ahead looks at every member again.
 */
#include "skewgate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mtime.h"
#include "xmalloc.h"

#define SKEWGATE_WAIT_MIN_NS	20000u

struct member {
	uint64_t	 issued;	/* I/Os started; atomic */
	double		 per_io;	/* progress of one I/O: 1 / weight */
	const int	*gone[2];	/* ended once *gone[k] >= at[k] */
	int		 at[2];
	double		 weight;
} __attribute__((aligned(64)));

struct skewgate {
	int		 n;
	struct member	*m;
	double		 slack_ios;
	double		 total;		/* the members' weights */
	double		 slack;		/* progress units: slack_ios / total */
	uint64_t	 floor_bits;	/* double: the slowest live
					 * member's progress; atomic */
	int		 remote;	/* held to the run's floor too */
	int		 ropen;		/* atomic: no run floor (all
					 * members elsewhere ended) */
	uint64_t	 rbase_bits;	/* doubles, atomic: the run's */
	uint64_t	 rrate_bits;	/* limit, base + rate x now_ns */
};

static double
dload(const uint64_t *bits)
{
	uint64_t b = __atomic_load_n(bits, __ATOMIC_RELAXED);
	double f;

	memcpy(&f, &b, sizeof(f));
	return (f);
}

static void
dstore(uint64_t *bits, double f)
{
	uint64_t b;

	memcpy(&b, &f, sizeof(b));
	__atomic_store_n(bits, b, __ATOMIC_RELAXED);
}

struct skewgate *
skewgate_new(int n, uint64_t slack_ios)
{
	struct skewgate *g = xcalloc(1, sizeof(*g));
	double zero = 0;

	g->n = n;
	if (posix_memalign((void **)&g->m, 64, (size_t)n * sizeof(*g->m)) != 0)
		abort();	/* as xmalloc: nothing useful left to do */
	memset(g->m, 0, (size_t)n * sizeof(*g->m));
	g->slack_ios = (double)slack_ios;
	memcpy(&g->floor_bits, &zero, sizeof(zero));
	return (g);
}

void
skewgate_free(struct skewgate *g)
{
	if (g == NULL)
		return;
	free(g->m);
	free(g);
}

void
skewgate_member(struct skewgate *g, int i, double weight, const int *gone1,
    int at1, const int *gone2, int at2)
{
	g->m[i].weight = weight > 0 ? weight : 1;
	g->m[i].per_io = 1 / g->m[i].weight;
	g->m[i].gone[0] = gone1;
	g->m[i].at[0] = at1;
	g->m[i].gone[1] = gone2;
	g->m[i].at[1] = at2;
	/* progress is I/Os per unit of weight: the slack in slave I/Os is
	 * slack_ios / total of them (set once per member, before GO) */
	g->total += g->m[i].weight;
	g->slack = g->slack_ios / g->total;
}

/* Has member m ended? */
static int
gone(const struct member *m)
{
	int k;

	for (k = 0; k < 2; k++) {
		if (m->gone[k] != NULL &&
		    __atomic_load_n(m->gone[k], __ATOMIC_RELAXED) >= m->at[k])
			return (1);
	}
	return (0);
}

static double
progress(struct member *m)
{
	return ((double)__atomic_load_n(&m->issued, __ATOMIC_RELAXED) *
	    m->per_io);
}

static double
floor_get(struct skewgate *g)
{
	return (dload(&g->floor_bits));
}

/* Look at every member: the slowest live one's progress, cached. */
static double
floor_update(struct skewgate *g)
{
	double f = HUGE_VAL;
	uint64_t b;
	int i;

	for (i = 0; i < g->n; i++) {
		double p;

		if (gone(&g->m[i]))
			continue;
		if ((p = progress(&g->m[i])) < f)
			f = p;
	}
	memcpy(&b, &f, sizeof(b));
	__atomic_store_n(&g->floor_bits, b, __ATOMIC_RELAXED);
	return (f);
}

/* Is member m past the run's floor (the master's, across slaves)? */
static int
remote_ahead(struct skewgate *g, double p)
{
	if (!g->remote || __atomic_load_n(&g->ropen, __ATOMIC_RELAXED))
		return (0);
	return (p > dload(&g->rbase_bits) + dload(&g->rrate_bits) *
	    (double)mtime_now_ns());
}

int
skewgate_ahead(struct skewgate *g, int i)
{
	struct member *m = &g->m[i];
	double p = progress(m);

	return (((p > floor_get(g) + g->slack && p > floor_update(g) +
	    g->slack) || remote_ahead(g, p)) && !gone(m));
}

void
skewgate_remote_on(struct skewgate *g)
{
	g->remote = 1;
	dstore(&g->rbase_bits, SKEWGATE_RUN_SLACK_IOS / 100.0);
	dstore(&g->rrate_bits, 0);
}

void
skewgate_remote(struct skewgate *g, double base, double rate_per_ns,
    int open)
{
	/* a thread that reads the new base with the old rate (or the
	 * other way) is held a little early or late, once */
	dstore(&g->rbase_bits, base);
	dstore(&g->rrate_bits, rate_per_ns);
	__atomic_store_n(&g->ropen, open != 0, __ATOMIC_RELAXED);
}

uint64_t
skewgate_issued(const struct skewgate *g, int i)
{
	return (__atomic_load_n(&g->m[i].issued, __ATOMIC_RELAXED));
}

int
skewgate_gone(const struct skewgate *g, int i)
{
	return (gone(&g->m[i]));
}

void
skewgate_count(struct skewgate *g, int i)
{
	__atomic_fetch_add(&g->m[i].issued, 1, __ATOMIC_RELAXED);
}

int
skewgate_take(struct skewgate *g, int i)
{
	if (skewgate_ahead(g, i))
		return (0);
	skewgate_count(g, i);
	return (1);
}

int
skewgate_steer(struct skewgate *g, const int *list, int n, int first)
{
	double best_p = HUGE_VAL;
	int j, best = -1;

	if (skewgate_take(g, list[first]))
		return (first);
	for (j = 0; j < n; j++) {
		double p;

		/* not one at its end: it would take the I/O and give
		 * it back (eof), and the thread would spin */
		if (j == first || gone(&g->m[list[j]]))
			continue;
		if ((p = progress(&g->m[list[j]])) < best_p) {
			best_p = p;
			best = j;
		}
	}
	if (best >= 0 && skewgate_take(g, list[best]))
		return (best);
	return (-1);
}

uint64_t
skewgate_backoff_ns(uint64_t *state)
{
	*state = *state == 0 ? SKEWGATE_WAIT_MIN_NS : *state * 2 >
	    SKEWGATE_WAIT_MAX_NS ? SKEWGATE_WAIT_MAX_NS : *state * 2;
	return (*state);
}
