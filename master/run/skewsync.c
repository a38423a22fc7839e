/* SPDX-License-Identifier: MIT */
/*
 * skew= across slaves (see skewsync.h). Progress is a WG's I/Os started
 * over its share of the skew (percent), the unit the slaves' gates use.
 */
#include "skewsync.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/event.h>

#include "link.h"
#include "mtime.h"
#include "proto.h"
#include "mslave.h"
#include "xmalloc.h"

/* The slack the line gives at least: this many I/Os of the run, or two
 * per thread (the slaves' own gates, and the line a slave starts with,
 * slave/skewgate.h SKEWGATE_RUN_SLACK_IOS; PROTOCOL.md, SKEW). */
#define SKEWSYNC_MIN_SLACK_IOS	256.0

struct ssmember {
	int		 slave;
	int		 wg;		/* its index in the slave's WORK */
	double		 share;		/* skew_pct, > 0 */
	uint64_t	 count;		/* I/Os started, last report */
	uint64_t	 at_ns;		/* when that report came; 0: none */
	uint64_t	 sat_ns;	/* and when its slave took it */
	double		 rate;		/* I/Os a second, smoothed */
	int		 gone;		/* at its end */
};

struct skewsync {
	struct event_base *base;
	struct mslave	*sl;		/* the master's slaves */
	int		 nslaves;
	uint64_t	 run_id;
	struct ssmember	*mb;
	int		 n;
	unsigned int	 period_ms;
	double		 min_slack;	/* progress units */
	int		 nthreads;	/* of the run, for the slack */
	struct event	*tick_ev;
	unsigned char	*in;		/* per slave: has members */
};

struct skewsync *
skewsync_new(struct event_base *base, struct mslave *sl, int nslaves,
    uint64_t run_id)
{
	struct skewsync *ss = xcalloc(1, sizeof(*ss));

	ss->base = base;
	ss->sl = sl;
	ss->nslaves = nslaves;
	ss->run_id = run_id;
	ss->in = xcalloc((size_t)nslaves + 1, 1);
	return (ss);
}

void
skewsync_add(struct skewsync *ss, int slave, const json_t *work)
{
	json_int_t ms = json_integer_value(json_object_get(work,
	    "skew_sync_ms"));
	json_t *wg, *sd, *wgs = json_object_get(work, "wgs");
	size_t k;

	if (ms <= 0)
		return;
	if (wgs == NULL)
		wgs = json_object_get(work, "fwgs");	/* file system */
	ss->period_ms = (unsigned int)ms;	/* workgen: one for all */
	ss->in[slave] = 1;
	json_array_foreach(json_object_get(work, "sds"), k, sd)
		ss->nthreads += (int)json_integer_value(json_object_get(sd,
		    "threads"));
	ss->mb = xreallocarray(ss->mb, (size_t)ss->n + json_array_size(wgs) +
	    1, sizeof(*ss->mb));
	json_array_foreach(wgs, k, wg) {
		if (json_object_get(work, "fwgs") != NULL)
			ss->nthreads += (int)json_integer_value(
			    json_object_get(wg, "threads"));
		struct ssmember *b = &ss->mb[ss->n++];

		memset(b, 0, sizeof(*b));
		b->slave = slave;
		b->wg = (int)k;
		b->share = json_number_value(json_object_get(wg, "skew_pct"));
		/* a WG with no share (a wd at 0 %) never holds others back */
		b->gone = !(b->share > 0);
	}
}

/* Is member b still in the run's floor? */
static int
live(const struct skewsync *ss, const struct ssmember *b)
{
	const struct mslave *s = &ss->sl[b->slave];

	return (!b->gone && s->active && !slave_out(s) && !s->losing &&
	    s->state == SLAVE_RUNNING);
}

/* Member b's progress at now, from its last count and rate. */
static double
progress_at(const struct ssmember *b, uint64_t now_ns)
{
	double c = (double)b->count;

	if (b->at_ns != 0 && now_ns > b->at_ns)
		c += b->rate * (double)(now_ns - b->at_ns) / 1e9;
	return (c / b->share);
}

/* Every period: the run's floor to every slave in it. */
static void
tick_cb(evutil_socket_t fd, short what, void *arg)
{
	struct skewsync *ss = arg;
	uint64_t now = mtime_now_ns();
	double floor = HUGE_VAL, frate = 0, slack, *p;
	int i, k, any = 0;

	(void)fd;
	(void)what;
	p = xcalloc((size_t)ss->n + 1, sizeof(*p));
	for (k = 0; k < ss->n; k++) {
		struct ssmember *b = &ss->mb[k];

		if (!live(ss, b))
			continue;
		p[k] = progress_at(b, now);
		if (!any || p[k] < floor) {
			floor = p[k];
			frate = b->rate / b->share;
		}
		any = 1;
	}
	/* two periods at the floor's pace: the slowest, its line lagging
	 * its own last report, is held only when it goes on at more than
	 * twice the pace it had, and the line finds a new pace within a
	 * few periods (the floor's rate doubles at most each period) */
	slack = 2 * frate * (double)ss->period_ms / 1000.0 + ss->min_slack;
	for (i = 0; i < ss->nslaves; i++) {
		struct mslave *s = &ss->sl[i];

		if (!ss->in[i] || !s->active || slave_out(s) || s->losing ||
		    s->state != SLAVE_RUNNING)
			continue;
		link_send(s->link, MSG_SKEW, any ? json_pack("{s:I,s:f,s:f}",
		    "run_id", (json_int_t)ss->run_id, "base", floor + slack,
		    "rate_per_s", frate) : json_pack("{s:I,s:b}", "run_id",
		    (json_int_t)ss->run_id, "open", 1));
	}
	free(p);
}

void
skewsync_start(struct skewsync *ss)
{
	struct timeval tv;

	if (ss == NULL || ss->n == 0)
		return;
	/* the slack in progress units: I/Os of the run over its shares
	 * (they add up to 100) */
	ss->min_slack = (2.0 * ss->nthreads > SKEWSYNC_MIN_SLACK_IOS ?
	    2.0 * ss->nthreads : SKEWSYNC_MIN_SLACK_IOS) / 100.0;
	ss->tick_ev = event_new(ss->base, -1, EV_PERSIST, tick_cb, ss);
	tv.tv_sec = (time_t)(ss->period_ms / 1000);
	tv.tv_usec = (suseconds_t)(ss->period_ms % 1000) * 1000;
	event_add(ss->tick_ev, &tv);
}

int
skewsync_report(struct skewsync *ss, int slave, const json_t *body,
    uint64_t now_ns, char *why, size_t whylen)
{
	json_t *issued = json_object_get(body, "issued");
	json_t *gone = json_object_get(body, "gone");
	json_int_t id = -1, sat = -1;
	int k, n = 0;

	if (json_unpack((json_t *)body, "{s:I,s:I}", "run_id", &id, "at_ns",
	    &sat) != 0 || sat < 0 ||
	    !json_is_array(issued) || !json_is_array(gone) ||
	    json_array_size(issued) != json_array_size(gone)) {
		snprintf(why, whylen, "SKEW: expected run_id, at_ns, and "
		    "issued and gone of one length");
		return (-1);
	}
	if (ss == NULL || (uint64_t)id != ss->run_id || !ss->in[slave])
		return (0);		/* late, or not of this run */
	for (k = 0; k < ss->n; k++) {
		struct ssmember *b = &ss->mb[k];
		json_t *c = json_array_get(issued, (size_t)b->wg);
		json_t *g = json_array_get(gone, (size_t)b->wg);
		uint64_t cnt;

		if (b->slave != slave)
			continue;
		n++;
		if (!json_is_integer(c) || json_integer_value(c) < 0 ||
		    !json_is_boolean(g)) {
			snprintf(why, whylen, "SKEW: issued[%d] or gone[%d]: "
			    "expected a count >= 0 and a bool", b->wg, b->wg);
			return (-1);
		}
		cnt = (uint64_t)json_integer_value(c);
		if (b->at_ns != 0 && (uint64_t)sat > b->sat_ns &&
		    cnt >= b->count) {
			double inst = (double)(cnt - b->count) * 1e9 /
			    (double)((uint64_t)sat - b->sat_ns);

			b->rate = b->rate > 0 ? (b->rate + inst) / 2 : inst;
		}
		b->count = cnt;
		b->at_ns = now_ns;
		b->sat_ns = (uint64_t)sat;
		b->gone |= json_is_true(g);
	}
	if ((size_t)n != json_array_size(issued)) {
		snprintf(why, whylen, "SKEW: %zu workloads, the WORK had %d",
		    json_array_size(issued), n);
		return (-1);
	}
	return (0);
}

void
skewsync_free(struct skewsync *ss)
{
	if (ss == NULL)
		return;
	if (ss->tick_ev != NULL)
		event_free(ss->tick_ev);
	free(ss->mb);
	free(ss->in);
	free(ss);
}
