/* SPDX-License-Identifier: MIT */
#ifndef MASTER_MSLAVE_H
#define MASTER_MSLAVE_H

#include <sys/queue.h>
#include <sys/types.h>
#include <stdint.h>

#include <event2/event.h>
#include <jansson.h>

#include "auth.h"

/*
 * The master's view of one slave (slaves.c owns it): its link, where it
 * runs, how far it is in the run, and the per-WG state of the run's
 * interval deltas. Types only.
 */
struct master;
struct link;
struct iostats;
struct hist;
struct vdbhist;

/*
 * Where a slave is, one state at a time (the run's phases are run.c's
 * enum mstate):
 *
 *   CONNECTING --HELLO--> IDLE --WORK--> SETUP --READY--> READY --GO-->
 *   RUNNING --RUN_END--> ENDED --WORK--> SETUP ...   (no work: IDLE)
 *
 * and from any of them LOST (link closed, silent, or given up on) or,
 * once its process is waited for, GONE. A lost slave is told nothing
 * more and heard no more.
 */
enum slave_state {
	SLAVE_CONNECTING,	/* started; no HELLO yet */
	SLAVE_IDLE,		/* connected; no work in this run */
	SLAVE_SETUP,		/* WORK sent; not READY yet */
	SLAVE_READY,		/* READY; waits for GO */
	SLAVE_RUNNING,		/* GO sent */
	SLAVE_ENDED,		/* said RUN_END */
	SLAVE_LOST,		/* given up on */
	SLAVE_GONE		/* its process waited for */
};

struct mslave {
	struct master	*m;
	int		 id;
	int		 host;		/* index into master hosts */
	char		 name[64];
	char		 cookie[AUTH_NONCE_HEX + 1];	/* HELLO proves it */
	pid_t		 pid;		/* forked here, else 0 */
	struct link	*link;
	enum slave_state state;
	int		 losing;	/* lost; the stop waits for others */
	char		 lost_why[512];	/* why, while losing */
	int		 remote_pid;	/* as the slave said at HELLO */
	int		 via_ssh;	/* pid is its ssh (or rsh) */
	unsigned int	 last_k;	/* last interval it reported, this run */
	uint64_t	 elapsed_ns;	/* its intervals' durations, this run */
	json_t		*wgs;		/* its WGs this run, for their names */
	/* its clock against ours (clockprobe.c) */
	enum { CLK_NONE, CLK_PROBING, CLK_DONE } clk_state;
	int		 clk_n;		/* probes answered */
	int64_t		 clk_offset_ns;	/* its clock - ours */
	uint64_t	 clk_rtt_ns;	/* the least round trip */
	uint64_t	 last_heard_ns;
	struct event	*silence_ev;	/* fires at last_heard + silence */
	int		 active;	/* has work in this run */
	int		 has_eof;	/* has a seekpct=eof WG */
	int		 msg_said;	/* "Message from slave" said (dvend.c) */
	int		 eof;		/* its eof WGs reached eof */
	int		 idle;		/* its fs threads all ended */
	int		 nwgs;
	struct iostats	*prev;		/* counters since GO, per WG */
	int		*wg_keys;	/* per WG: MERGE_KEYS_PER_WG keys */
	uint64_t	 cpu_prev[7];
	int		 cpu_prev_valid;
	uint64_t	 cpu_avg[7];	/* tick deltas of the averaged intervals */
	int		 cpu_avg_valid;
};

/*
 * The run driver's events: what slaves.c, launch.c's daemon sessions,
 * intervals.c and dvend.c tell it. run.c sets these; none of those files
 * calls up into run.c.
 */
struct slaves_cb {
	void	 (*info)(struct master *);	/* every host answered INFO */
	void	 (*ready)(struct master *);	/* the run's slaves are READY */
	void	 (*run_end)(struct master *);	/* one ended the run, or left */
	void	 (*stop)(struct master *, const char *);	/* why: stop */
	uint64_t (*late)(struct master *);	/* the loop's lateness, ns */
	int	 (*stalled)(struct master *, char *, size_t);	/* why, if so */
	/* stop with vdbench's last words, errorlog.html not told */
	void	 (*fail)(struct master *, const char *);
	/* a slave's I/O or data validation error: data_errors= decides */
	void	 (*data_error)(struct master *);
	/* an interval printed: nonzero when an output failed (the run
	 * stops), and whether monitor= asks the run to end after it */
	int	 (*outputs_failed)(struct master *);
	int	 (*monitor_end)(struct master *);
};

/* Lost or gone: told nothing more, heard no more. */
static inline int
slave_out(const struct mslave *s)
{
	return (s->state >= SLAVE_LOST);
}

/* A connection that has not said HELLO yet. */
struct pending {
	struct master		*m;
	struct link		*link;
	char			 peer[128];
	uint64_t		 since_ns;	/* accepted, monotonic */
	struct event		*hello_ev;	/* RUN_HELLO_S to say HELLO */
	TAILQ_ENTRY(pending)	 entry;
};
TAILQ_HEAD(pendings, pending);

#endif /* MASTER_MSLAVE_H */
