/* SPDX-License-Identifier: MIT */
#ifndef MASTER_RUN_INT_H
#define MASTER_RUN_INT_H

/*
 * The run driver's state, shared by its parts: run.c (the run state
 * machine), slaves.c (the master's view of one slave), launch.c (starting
 * the slaves), rkeys.c (report keys) and preflight.c (checks before a
 * run, INFO and SD_format decisions). Private to master/.
 */
#include <stdint.h>

#include <event2/event.h>
#include <jansson.h>

#include "auth.h"
#include "dataerr.h"
#include "errmsg.h"
#include "hosts.h"
#include "model.h"
#include "mslave.h"
#include "plan.h"
#include "report.h"
#include "rkeys.h"
#include "run.h"
#include "tls.h"
#include "workgen.h"

struct listener;
struct remote;
struct results;
struct merge;
struct metrics;
struct skewsync;

#define RUN_MAX_SLAVES		1024	/* in all; per host: jvms= <= 256 */
#define RUN_MAX_HOST_SLAVES	256	/* one daemon starts (slave/daemon.c) */
#define RUN_EXIT_FAILED		157
/* vdbench's: "The proliferation of extra slaves requires some extra time
 * to connect, so I went from 60 to 120 seconds" (ConnectSlaves.java) */
#define RUN_CONNECT_S		120
#define RUN_CONNECT_NS		((uint64_t)RUN_CONNECT_S * 1000000000u)
#define RUN_CONNECT_SAY_NS	(10ull * 1000000000u)	/* who is awaited */
#define RUN_CONNECT_SAY_MAX	16	/* slaves named, then counted */
#define RUN_SETUP_NS		(120ull * 1000000000u)
#define RUN_MIN_SILENCE_NS	(5ull * 1000000000u)
#define RUN_IDLE_SILENCE_NS	(30ull * 1000000000u)	/* outside I/O */
#define RUN_HELLO_S		5	/* a connection has to say HELLO */
#define RUN_CONNECT_HELLO_S	30	/* the same while slaves connect */
#define RUN_MAX_UNPROVED	128	/* before HELLO; more wait in the kernel */
#define RUN_TICK_NS		1000000000ull
#define RUN_LATE_NS		(1ull * 1000000000u)	/* a stall of ours */
/* While a run's I/O goes on with this many slaves or more, the loop
 * naps this long after each pass (run_loop) */
#define RUN_COALESCE_SLAVES	64
#define RUN_COALESCE_NS		4000000u
#define RUN_STALLS		16	/* stalls remembered (master_stalled) */
#define RUN_LOSS_GATHER_NS	1500000000ull	/* losses: one stop */
#define RUN_STOP_TEXT		65536	/* why a run stopped: room to name
					   every one of 1,024 lost slaves */
#define RUN_FORMAT_ALIGN	(1024u * 1024u)

/* The run in progress, as it goes on the wire. */
struct lrun {
	char			 name[256];
	char			 text[1024];
	int			 format;
	unsigned int		 nintervals;	/* 0: until eof */
	unsigned int		 first_avg;
	int			 nactive;	/* slaves in the run at GO */
	unsigned int		 avg_last;	/* last interval averaged */
	unsigned int		 short_first;	/* intervals that lacked a */
	unsigned int		 short_last;	/* lost slave, or 0 */
	uint64_t		 interval_ns;
	uint64_t		 pause_s;
	int			 eof_run;
	int			 once_run;	/* ends at fileselect=once */
	int			 fs;		/* a file-system run */
	int			 curve_max;
	const struct run	*plan_run;
	struct run_request	 req;
	uint64_t		 maxdata_bytes;	/* 0 = no limit */
	int			 maxdata_dir;	/* 0 all, 1 read, 2 write */
	char			 maxdata_text[32];
	uint64_t		 done_bytes[3];	/* all, read, write so far */
	char			 loops[1024];	/* For loops text (status) */
	char			 rate_text[64];
	json_t			*work[RUN_MAX_SLAVES];
	double			*skew_req;	/* per report key, wd keys */
	struct skewsync		*sync;		/* skew= across slaves, or
						   NULL (skewsync.h) */
	char			 skew_failed[512];	/* abort_failed_skew= */
};

/* The master's listening side and remote hosts (launch.c, slaves.c). */
struct mlaunch {
	int			 listen_fd;
	int			 port;
	struct listener		*listener;	/* slaves dialling in */
	struct pendings		 pending;	/* their links before HELLO */
	struct remote		**remotes;	/* per host, daemon hosts */
	uint8_t			 token[AUTH_KEY_BYTES];
	struct tls		*tls;	/* remote slaves dial back over it */
	/* The port is open beyond loopback: local slaves dial it over TLS
	 * keyed by their cookies too (a stranger on the port learns
	 * nothing), at dial (the address the master listens on). */
	int			 local_tls;
	char			 dial[300];
};

/* The run driver's own timers, and how late its loop ran. */
struct mloop {
	struct event		*tick_ev;	/* each RUN_TICK_NS */
	struct event		*pause_ev;	/* pause= after a run */
	struct event		*loss_ev;	/* the stop after lost slaves */
	struct event		*sig_ev[2];	/* SIGINT, SIGTERM */
	uint64_t		 tick_last_ns;	/* when tick_cb last ran */
	uint64_t		 ticks;		/* tick_cb runs so far */
	uint64_t		 stall_ns;	/* the loop's last stall, and */
	uint64_t		 stall_end_ns;	/* when it ended (0: none) */
	/* the last RUN_STALLS stalls: when each ended, how long it was */
	uint64_t		 stalls_end_ns[RUN_STALLS];
	uint64_t		 stalls_ns[RUN_STALLS];
	unsigned int		 nstalls;	/* stalls so far */
	uint64_t		 wait_said_ns;	/* last "Waiting for slave
						   connection" lines */
};

enum mstate { M_CONNECT, M_INFO, M_SETUP, M_RUNNING, M_STOPPING, M_PAUSE,
	M_SHUTDOWN };

/* What INFO said and what preflight.c decided from it. */
struct mpre {
	int			 info_waiting;	/* INFO replies still due */
	json_t			*info;		/* per host: INFO reply luns */
	int			 nformat;	/* sds to create/expand */
	int			 format_cap;	/* the arrays' room */
	const struct sd		**format_sd;
	int			*format_host;
	uint64_t		*format_from;
	uint64_t		*sd_size;	/* per model sd, bytes */
	uint64_t		*sd_xmax;	/* largest xfersize per sd */
	uint64_t		*sd_xmin;	/* smallest: the DV key block */
	uint64_t		*fsd_xmin;	/* the same per fsd (fsdv.h) */
	int			 had_format;	/* an SD_format run was planned */
};

/* Interval intake's state (intervals.c). */
struct mintake {
	struct merge		*mg;		/* the run's interval merger */
	unsigned int		 next_print;	/* next interval to print */
	struct hist		*scratch[4];	/* on_interval's, reused */
};

/* What the next run needs of the last (iorate=curve, stopcurve=). */
struct mcurve {
	double			 prev_rate;	/* the last run's rate */
	double			 curve_rate;	/* the curve's max run rate */
	double			 last_resp_ms;	/* avg response, last run */
	const struct run	*last_run;	/* the plan run that ran last */
};

struct master {
	struct event_base	*base;
	struct mloop		 loop;		/* its timers and signals */
	struct mlaunch		 launch;	/* starting slaves (launch.c) */
	const struct model	*model;
	const struct plan	*plan;
	const struct run_opts	*o;
	struct report		*rep;
	struct results		*res;
	int			 nslaves;
	struct mslave		*sl;		/* nslaves of them */
	int			 nhosts;
	struct mhost		*hosts;
	int			 clk_pending;	/* slaves whose clock is
						   being probed */
	int			 clk_all;	/* all slaves have said
						   HELLO (clockprobe.c) */
	struct msgscan		*msgscan;	/* messagescan= (msgscan.c) */
	char			*lost_names;	/* --on-slave-loss=continue:
						   "a,b", "" for none */
	enum mstate		 state;
	uint64_t		 state_since_ns;
	int			 next_run;	/* next plan run */
	struct lrun		 cur;
	struct mpre		 pre;		/* INFO, SD_format (preflight.c) */
	struct mintake		 in;		/* interval intake (intervals.c) */
	struct mcurve		 curve;		/* curve and stopcurve state */
	struct dataerr		 derr;		/* data_errors= and its count */
	int			 derr_said;	/* this rd's count printed
						   (dvend.c) */
	uint64_t		 run_id;
	struct rkey_map		 keys;		/* report keys (rkeys.c) */
	const struct slaves_cb	*cb;		/* slaves.c's events */
	int			 rc;
	int			 aborting;
	int			 outputs_failed;	/* a report write failed */
	int			 runs_done;
	int			 anchor;	/* report anchor of the run */
	struct metrics		*metrics;	/* --metrics, or NULL */
	uint64_t		 loop_pass;	/* -l / loop=: passes done */
	uint64_t		 loop_start_ns;
	int			 loop_stop;	/* stopcurve: no more passes */
	int			 monitor_started;	/* monitor= emptied */
	int			 monitor_final;	/* monitor= terminate */
	struct strlist		 cleaned;	/* -c: anchors cleaned so far
						   (workgen writes it) */
};

/* run.c: the run state machine (the others raise m->cb's events). */
void	go(struct master *);
void	check_run_end(struct master *);
void	start_next_run(struct master *);

/* slaves.c: the master's view of one slave. */
void	send_all(struct master *, uint16_t, json_t *, int);
int	active_count(const struct master *);
/* active_count(m) > 0, from the first such slave on (it runs for each
 * INTERVAL: a count was 1,024 x 1,024 steps a second, 4 % of the master) */
int	active_any(const struct master *);
void	slave_lost(struct mslave *, const char *);
void	slave_wg_alloc(struct master *, struct mslave *, const json_t *);
void	slave_wg_free(struct mslave *);
void	pending_done(struct pending *);
int	slave_psk(const char *, uint8_t [TLS_PSK_BYTES], void *);
void	accept_cb(int, const char *, void *);
/* GO or a run's end moved the silence limit: every slave's deadline is
 * its last word plus the new limit. */
void	slaves_silence_moved(struct master *);

/* launch.c: starting the slaves. */
int	listen_port(struct master *, int);
int	launch_slaves(struct master *, struct errmsg *);
int	check_ssh_exits(struct master *, struct errmsg *);
void	reap(struct master *);

/* rkeys.c: the report keys. */
void	open_key_reports(struct master *);
int	wd_key(const struct master *, const char *);
int	fs_key(const struct master *, const char *, const char *);
void	anchor_rows(struct master *, json_t *);

/* preflight.c: checks before anything starts, INFO, SD_format. */
int	check_supported(struct master *, const struct model *,
	    const struct plan *);
int	on_info(struct master *, struct errmsg *);
void	general_cmd(const char *, const struct strlist *, const char *);

#endif /* MASTER_RUN_INT_H */
