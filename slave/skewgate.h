/* SPDX-License-Identifier: MIT */
#ifndef SLAVE_SKEWGATE_H
#define SLAVE_SKEWGATE_H

#include <stdint.h>

/*
 * The skew gate: skew= held at max rate across the workloads of one
 * slave ("Controlled MAX"), whatever sd or fwd each belongs to.
 *
 * vdbench's slave holds it with a waiter task that hands out I/Os in
 * arrival order, each workload's arrivals coming at rate x skew (a rate
 * of ~10 million at max), into bounded queues (2,000): a queue that is
 * full stops the waiter, so the slowest workload sets the pace of all and
 * every workload gets its share of the I/Os (WT_task.java, FwgWaiter).
 * vdbc keeps no queue: each member (a WG of a block run, an fwg of a
 * file-system run) has an atomic count of the I/Os it started, and its
 * progress is that count divided by its share. A member may start an
 * I/O while its progress is within the slack of the slowest live
 * member's; a thread whose member is ahead takes another member it may
 * run, or waits a little (skewgate_backoff_ns) and tries again.
 *
 * Owns: the members' counts and shares, and the cached floor (the
 * slowest live member's progress: it only grows, so a stale value is a
 * safe lower bound and the fast path is one load, one compare and one
 * fetch-add). Not owned: the flags that say a member has ended (a WG at
 * its end, an sd taken out, an fwg out of work), which the gate only
 * reads.
 *
 * Across slaves (a run whose workloads sit on different slaves, which
 * vdbench does not hold): the master gathers every member's count of the
 * run (SKEW, proto/PROTOCOL.md; master/run/skewsync.h) and sends back
 * the run's floor as a line in time, limit(t) = base + rate x t, the
 * slowest member's progress plus a slack, rising at its pace. No member
 * may pass that line either. Until the master's first word the line is
 * SKEWGATE_RUN_SLACK_IOS of the run, so a run starts held, not ahead
 * (docs/threads.md).
 */
struct skewgate;

/* The least slack across slaves, in I/Os of the run (its members'
 * weights, skew percentages, add up to 100). */
#define SKEWGATE_RUN_SLACK_IOS	256.0

/* The most an I/O thread waits before it looks again (1 ms). */
#define SKEWGATE_WAIT_MAX_NS	1000000u

/*
 * A gate for n members (n >= 1), each given by skewgate_member(); slack
 * in units of the slave's I/Os (how far a member may run ahead of the
 * slowest, at its share). Never NULL.
 */
struct skewgate	*skewgate_new(int n, uint64_t slack_ios);
void		 skewgate_free(struct skewgate *);
/*
 * Member i: its weight (its skew, any scale; <= 0 counts as 1) and up to
 * two watched counts: the member has ended once *gone1 >= at1 or
 * *gone2 >= at2 (atomic loads; NULL: not watched).
 */
void		 skewgate_member(struct skewgate *, int i, double weight,
		    const int *gone1, int at1, const int *gone2, int at2);
/*
 * May member i start an I/O now? 1: yes, and it is counted; 0: it is
 * ahead of the slowest live member, let another go.
 */
int		 skewgate_take(struct skewgate *, int i);
/* Is member i ahead (skewgate_take would say 0)? Nothing counted. */
int		 skewgate_ahead(struct skewgate *, int i);
/* Count an I/O of member i without asking (a thread that asked before
 * it took a resource another member may wait for: a file). */
void		 skewgate_count(struct skewgate *, int i);
/*
 * Of the members list[0..n), the one to start an I/O: list[first] when
 * it may, else the one furthest behind that may (counted); -1 when all
 * of them are ahead.
 */
int		 skewgate_steer(struct skewgate *, const int *list, int n,
		    int first);
/*
 * Hold the members to the run's floor too (before GO, weights being
 * skew percentages): until skewgate_remote() the line is
 * SKEWGATE_RUN_SLACK_IOS of the run.
 */
void		 skewgate_remote_on(struct skewgate *);
/*
 * The master's floor: from now on a member may start an I/O only while
 * its progress is at most base + rate_per_ns x now (now: CLOCK_MONOTONIC
 * ns, progress in I/Os per unit of weight). open: no line (no member of
 * the run is left to hold). Called by the slave's loop while the threads
 * run.
 */
void		 skewgate_remote(struct skewgate *, double base,
		    double rate_per_ns, int open);
/* Member i's I/Os started, and whether it has ended (the master's SKEW
 * report). */
uint64_t	 skewgate_issued(const struct skewgate *, int i);
int		 skewgate_gone(const struct skewgate *, int i);
/* The next wait of a thread that was held back: doubles from 20 us to
 * SKEWGATE_WAIT_MAX_NS; *state is the thread's, 0 after an I/O. */
uint64_t	 skewgate_backoff_ns(uint64_t *state);

#endif
