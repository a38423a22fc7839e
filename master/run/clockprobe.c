/* SPDX-License-Identifier: MIT */
/*
 * Clock offsets of remote slaves from round trips (clockprobe.h).
 */
#include "clockprobe.h"
#include "run_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "console.h"
#include "link.h"
#include "mtime.h"
#include "proto.h"
#include "report.h"

/* The first run's interval, which the warning measures against. */
static uint64_t
interval_ns(const struct master *m)
{
	return (m->plan->nruns > 0 ? m->plan->runs[0].interval_s *
	    1000000000ull : 1000000000ull);
}

/* Is s's clock off by more than 10 % of the interval, whatever the
 * round trip leaves open? */
static int
clock_off(const struct master *m, const struct mslave *s)
{
	uint64_t off = (uint64_t)llabs(s->clk_offset_ns);

	return (off > interval_ns(m) / 10 + s->clk_rtt_ns / 2);
}

/* Every probed slave has its offset: one line, and one warning. */
static void
summary(struct master *m)
{
	int64_t lo = INT64_MAX, hi = INT64_MIN;
	uint64_t rtt_lo = UINT64_MAX, rtt_hi = 0;
	int i, n = 0, nhosts = 0, noff = 0, h, shown = 0;
	char list[1024];
	size_t len = 0;

	for (h = 0; h < m->nhosts; h++) {
		for (i = m->hosts[h].first; i < m->hosts[h].first +
		    m->hosts[h].nslaves; i++)
			if (m->sl[i].clk_state == CLK_DONE)
				break;
		nhosts += i < m->hosts[h].first + m->hosts[h].nslaves;
	}
	list[0] = '\0';
	for (i = 0; i < m->nslaves; i++) {
		const struct mslave *s = &m->sl[i];

		if (s->clk_state != CLK_DONE)
			continue;
		n++;
		lo = s->clk_offset_ns < lo ? s->clk_offset_ns : lo;
		hi = s->clk_offset_ns > hi ? s->clk_offset_ns : hi;
		rtt_lo = s->clk_rtt_ns < rtt_lo ? s->clk_rtt_ns : rtt_lo;
		rtt_hi = s->clk_rtt_ns > rtt_hi ? s->clk_rtt_ns : rtt_hi;
		if (!clock_off(m, s))
			continue;
		noff++;
		if (shown < 16 && len < sizeof(list) - 1) {
			int w = snprintf(list + len, sizeof(list) - len,
			    "%s%s (host %s) %+.3f ms", shown > 0 ? ", " : "",
			    s->name, m->hosts[s->host].label,
			    (double)s->clk_offset_ns / 1e6);

			if (w > 0)
				len += (size_t)w < sizeof(list) - len ?
				    (size_t)w : sizeof(list) - len - 1;
			shown++;
		}
	}
	if (n == 0)
		return;
	console_line("Clock offsets of %d slave%s on %d host%s against the "
	    "master (the least of %d round trips each): %+.3f to %+.3f ms, "
	    "round trips %.3f to %.3f ms", n, n == 1 ? "" : "s", nhosts,
	    nhosts == 1 ? "" : "s", CLOCK_PROBES, (double)lo / 1e6,
	    (double)hi / 1e6, (double)rtt_lo / 1e6, (double)rtt_hi / 1e6);
	if (noff > 0) {
		char text[1400];

		snprintf(text, sizeof(text), "Warning: the clocks of %d of "
		    "%d slaves are off the master's by more than 10%% of the "
		    "%llu s interval (run NTP): %s%s", noff, n,
		    (unsigned long long)(interval_ns(m) / 1000000000u), list,
		    noff > shown ? ", ..." : "");
		console_line("%s", text);
		report_error(m->rep, text);
	}
}

/* Send probe number s->clk_n. */
static void
probe(struct mslave *s)
{
	link_send(s->link, MSG_HEARTBEAT, json_pack("{s:I,s:I}", "seq",
	    (json_int_t)s->clk_n, "t1_ns", (json_int_t)mtime_wall_ns()));
}

void
clockprobe_start(struct master *m, struct mslave *s)
{
	if (m->hosts[s->host].how == HOST_LOCAL || s->link == NULL)
		return;
	s->clk_state = CLK_PROBING;
	s->clk_n = 0;
	s->clk_rtt_ns = UINT64_MAX;
	m->clk_pending++;
	probe(s);
}

void
clockprobe_reply(struct master *m, struct mslave *s, const json_t *body)
{
	json_int_t t1 = 0, t2 = 0, t3 = 0;
	int64_t t4 = (int64_t)mtime_wall_ns(), rtt;

	if (s->clk_state != CLK_PROBING || json_unpack((json_t *)body,
	    "{s:I,s:I,s:I}", "t1_ns", &t1, "t2_ns", &t2, "t3_ns", &t3) != 0)
		return;
	/* a reply to something else than our last probe, or nonsense:
	 * drop it (a wall clock step between t1 and t4 ends up here too) */
	rtt = (t4 - (int64_t)t1) - ((int64_t)t3 - (int64_t)t2);
	if (t4 < t1 || t3 < t2 || rtt < 0)
		return;
	if ((uint64_t)rtt < s->clk_rtt_ns) {
		s->clk_rtt_ns = (uint64_t)rtt;
		s->clk_offset_ns = (((int64_t)t2 - (int64_t)t1) +
		    ((int64_t)t3 - t4)) / 2;
	}
	if (++s->clk_n < CLOCK_PROBES) {
		probe(s);
		return;
	}
	s->clk_state = CLK_DONE;
	if (--m->clk_pending == 0 && m->clk_all)
		summary(m);
}

void
clockprobe_lost(struct master *m, struct mslave *s)
{
	if (s->clk_state != CLK_PROBING)
		return;
	s->clk_state = CLK_NONE;
	if (--m->clk_pending == 0 && m->clk_all)
		summary(m);
}

void
clockprobe_all_connected(struct master *m)
{
	m->clk_all = 1;
	if (m->clk_pending == 0)
		summary(m);
}
