/* SPDX-License-Identifier: MIT */
#ifndef MASTER_CLOCKPROBE_H
#define MASTER_CLOCKPROBE_H

#include <jansson.h>

struct master;
struct mslave;

/*
 * The clock offset of each remote slave against the master, measured as
 * NTP does: CLOCK_PROBES round trips over the slave's link after its
 * HELLO (so after the TLS handshake), each a HEARTBEAT carrying the
 * master's send time t1 that the slave answers with t1, its receive time
 * t2 and its send time t3; the master stamps t4. The sample with the
 * smallest round trip (t4 - t1) - (t3 - t2) gives the offset
 * ((t2 - t1) + (t3 - t4)) / 2, true within half that round trip. Local
 * slaves share the master's clock and are not probed.
 *
 * When every probed slave has its offset, one summary line goes to the
 * console, and one warning naming the slaves whose clock is off by more
 * than 10 % of the interval beyond what the round trip leaves open.
 * Owns the clk_* fields of struct mslave and struct master.
 */
#define CLOCK_PROBES	5

/* A slave said HELLO: start probing it (remote slaves only). */
void	clockprobe_start(struct master *, struct mslave *);
/* A slave is lost: no longer waited for. */
void	clockprobe_lost(struct master *, struct mslave *);
/* A HEARTBEAT from a slave: a probe's answer when it carries t1_ns. */
void	clockprobe_reply(struct master *, struct mslave *, const json_t *);
/* Every slave has said HELLO: the summary comes once all are probed
 * (before, it came each time the probes caught up with the slaves still
 * connecting: four lines for 64 slaves). */
void	clockprobe_all_connected(struct master *);

#endif /* MASTER_CLOCKPROBE_H */
