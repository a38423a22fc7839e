/* SPDX-License-Identifier: MIT */
#ifndef MASTER_SKEWSYNC_H
#define MASTER_SKEWSYNC_H

#include <stdint.h>

#include <jansson.h>

/*
 * skew= held across slaves at max ("Controlled MAX" of a block run whose
 * wds do not all run on every slave: an sd with fewer threads than
 * slaves, an sd on one host, a sequential wd). vdbench holds the shares
 * per slave only (each slave's waiter), so such a run drifts to each
 * slave's own max; vdbc holds the run's.
 *
 * Each slave of the run sends SKEW every skew_sync_ms (its WORK says so,
 * master/plan/workgen.c): its WGs' I/Os started and which have ended.
 * Every skew_sync_ms the master works out each live WG's progress now
 * (its count, and its rate since its slave's last report, over its share
 * of the skew) and sends each slave the run's floor as a line in time,
 * base + rate x t: the slowest WG's progress plus a slack of two periods
 * at its pace (and 256 I/Os of the run), rising at its pace. No WG may
 * pass the line (slave/skewgate.h); the slowest one, behind it by the
 * slack, is held only when it speeds up past twice its pace, and then
 * the next line follows. A WG at its end, and a slave lost or out of
 * the run, count no more.
 *
 * Owns: the run's members (slave, WG, share, last count and rate) and the
 * timer. Reads: the master's slaves (their links and states, mslave.h),
 * never writes them. One per run: made at WORK, started at GO, freed at
 * the run's end.
 */
struct event_base;
struct mslave;
struct skewsync;

/* The run's (sl: the master's nslaves slaves); never NULL. */
struct skewsync	*skewsync_new(struct event_base *, struct mslave *sl,
		    int nslaves, uint64_t run_id);
/* Add a slave's WORK (before it is sent): its WGs are members when it
 * asks for skew_sync_ms. */
void	skewsync_add(struct skewsync *, int slave, const json_t *work);
/* GO: the lines begin (nothing when no WORK asked for them). */
void	skewsync_start(struct skewsync *);
/* A slave's SKEW; -1 with a reason in why (the slave's frame is bad). */
int	skewsync_report(struct skewsync *, int slave, const json_t *body,
	    uint64_t now_ns, char *why, size_t whylen);
/* The run's end: the timer stops and everything goes. NULL is fine. */
void	skewsync_free(struct skewsync *);

#endif /* MASTER_SKEWSYNC_H */
