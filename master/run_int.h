/* SPDX-License-Identifier: MIT */
#ifndef MASTER_RUN_INT_H
#define MASTER_RUN_INT_H

/*
 * The run driver's state, shared by the files run.c is being split into
 * (issue 14): the master's view of one slave (struct mslave), the run in
 * progress (struct lrun) and the driver (struct master), plus the few
 * run.c functions those files call back. Private to master/.
 */
#include <stdint.h>
#include <sys/queue.h>
#include <sys/types.h>

#include <jansson.h>

#include "auth.h"
#include "hosts.h"
#include "model.h"
#include "plan.h"
#include "report.h"
#include "run.h"

#define RUN_MAX_SLAVES		1024	/* in all; per host: jvms= <= 256 */
#define RUN_EXIT_FAILED		157
#define RUN_CONNECT_NS		(30ull * 1000000000u)
#define RUN_SETUP_NS		(120ull * 1000000000u)
#define RUN_MIN_SILENCE_NS	(5ull * 1000000000u)
#define RUN_HELLO_S		5	/* a connection has to say HELLO */
#define RUN_MAX_UNPROVED	128	/* before HELLO; more wait in the kernel */
#define RUN_FORMAT_ALIGN	(1024u * 1024u)

struct master;

struct mslave {
	struct master	*m;
	int		 id;
	int		 host;		/* index into master hosts */
	char		 name[64];
	char		 cookie[AUTH_NONCE_HEX + 1];	/* HELLO proves it */
	pid_t		 pid;		/* forked here, else 0 */
	struct link	*link;
	int		 hello, lost, gone;
	int		 remote_pid;	/* as the slave said at HELLO */
	int		 via_ssh;	/* pid is its ssh (or rsh) */
	unsigned int	 last_k;	/* last interval it reported, this run */
	uint64_t	 elapsed_ns;	/* its intervals' durations, this run */
	json_t		*wgs;		/* its WGs this run, for their names */
	int64_t		 clock_offset_ns;	/* its clock - ours at HELLO */
	uint64_t	 last_heard_ns;
	struct event	*silence_ev;	/* fires at last_heard + silence */
	int		 active;	/* has work in this run */
	int		 has_eof;	/* has a seekpct=eof WG */
	int		 ready, ended, eof;
	int		 nwgs;
	struct iostats	*prev;		/* counters since GO, per WG */
	int		*wg_keys;	/* per WG: MERGE_KEYS_PER_WG keys */
	uint64_t	 cpu_prev[7];
	int		 cpu_prev_valid;
	uint64_t	 cpu_avg[7];	/* tick deltas of the averaged intervals */
	int		 cpu_avg_valid;
};

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
};

enum mstate { M_CONNECT, M_INFO, M_SETUP, M_RUNNING, M_STOPPING, M_PAUSE,
	M_SHUTDOWN };

struct pending {
	struct master		*m;
	struct link		*link;
	char			 peer[128];
	TAILQ_ENTRY(pending)	 entry;
};
TAILQ_HEAD(pendings, pending);

struct master {
	struct event_base	*base;
	const struct model	*model;
	const struct plan	*plan;
	const struct run_opts	*o;
	struct report		*rep;
	struct results		*res;
	int			 listen_fd;
	int			 port;
	struct listener		*listener;	/* slaves dialling in */
	struct pendings		 pending;	/* their links before HELLO */
	struct event		*tick_ev;
	struct event		*pause_ev;
	struct event		*sig_ev[2];
	int			 nslaves;
	struct mslave		 sl[RUN_MAX_SLAVES];
	int			 nhosts;
	struct mhost		*hosts;
	struct remote		**remotes;	/* per host, daemon hosts */
	int			*key_hosts;	/* host report key per host */
	int			 info_waiting;	/* INFO replies still due */
	char			 lost_names[512];	/* --on-slave-loss=continue */
	json_t			*info;		/* per host: INFO reply luns */
	uint8_t			 token[AUTH_KEY_BYTES];
	struct tls		*tls;	/* remote slaves dial back over it */
	struct hist		*scratch[4];	/* on_interval's, reused */
	enum mstate		 state;
	uint64_t		 state_since_ns;
	int			 next_run;	/* next plan run */
	int			 nformat;	/* sds to create/expand */
	int			 format_cap;	/* the arrays' room */
	const struct sd		**format_sd;
	int			*format_host;
	uint64_t		*format_from;
	uint64_t		*sd_size;	/* per model sd, bytes */
	uint64_t		*sd_xmax;	/* largest xfersize per sd */
	struct lrun		 cur;
	uint64_t		 run_id;
	struct merge		*mg;		/* the run's interval merger */
	unsigned int		 next_print;
	int			 key_slave[RUN_MAX_SLAVES];	/* report keys */
	int			*key_sd;	/* per model sd, or -1 */
	int			*key_hostsd;	/* host_detail: host x sd */
	int			*key_slavesd;	/* report=slave_detail */
	int			 nmodel_sds;
	int			 nwdkeys;
	char			**wdkey_name;
	int			*wdkey;
	struct strlist		 fskey_name;	/* "fsd:x", "fwd:y" */
	int			*fskey;
	int			 key_anchors;	/* anchors.html, or -1 */
	int			 anchor_w;	/* its anchor column */
	int			 anchors_first;	/* the row before any run */
	int			 anchors_row;	/* this run's row is out */
	double			 prev_rate, curve_rate;
	int			 rc;
	int			 aborting;
	int			 outputs_failed;	/* a report write failed */
	int			 runs_done;
	int			 anchor;	/* report anchor of the run */
	int			 had_format;	/* an SD_format run was planned */
	double			 last_resp_ms;	/* avg response, last run */
	const struct run	*last_run;	/* the plan run that ran last */
};

void	send_all(struct master *, uint16_t type, json_t *body,
	    int only_active);
void	master_abort(struct master *, const char *, ...)
	    __attribute__((format(printf, 2, 3)));
int	check_outputs(struct master *);
int	active_count(const struct master *);

#endif /* MASTER_RUN_INT_H */
