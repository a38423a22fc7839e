/* SPDX-License-Identifier: MIT */
#ifndef SLAVE_WORK_H
#define SLAVE_WORK_H

#include <stdint.h>

#include <jansson.h>

#include "errmsg.h"

/*
 * One run on this slave: its targets, workload generators (WGs) and I/O
 * threads. Threads never touch libevent: they read the stop flag and
 * write their own counters with relaxed atomic stores; the slave's loop
 * reads those counters at every interval without stopping them.
 */
struct work;

/*
 * What one WORK may ask of a slave; more is refused with a WORK error
 * naming the field and the limit, before anything is allocated.
 */
#define WORK_MAX_THREADS	4096	/* threads (or aio slots) in all */
#define WORK_MAX_XFER_BYTES	(1ull << 30)	/* per I/O; Linux moves at
						 * most 2 GiB - 4 KiB a call */
/* Buffers and statistics may take at most this share of the host's RAM. */
#define WORK_MAX_MEM_PCT	50

/* Build from a WORK body and open every target; NULL with e filled.
 * Data validation keeps its key maps in the slave's session
 * (dv_session.h), from run to run. */
struct dv_session;
struct work	*work_new(const json_t *body, struct dv_session *,
		    struct errmsg *);
/*
 * Start the I/O threads before READY: they wait for work_start, so GO
 * costs the loop no thread creation (thousands took seconds under load,
 * and the loop's heartbeats with them). work_start does it itself when
 * it was not called. File-system runs start theirs at GO.
 */
int		 work_prepare(struct work *, struct errmsg *);
/* GO: the threads go (the run's time starts now). */
int		 work_start(struct work *, struct errmsg *);
/* Ask the threads to stop, drain and join them; the fsyncs of the
 * run's end then start on a thread of their own (endsync.h). */
void		 work_stop(struct work *);
/* Are those fsyncs over (their errors queued)? The loop's wake eventfd
 * (work_set_wake) is written when they are. */
int		 work_sync_done(struct work *);
void		 work_free(struct work *);
/*
 * skew= held across slaves (WORK skew_sync_ms, master/run/skewsync.h):
 * the period of the SKEW reports in ms, 0 when this run has none; the
 * report (each WG's I/Os started and whether it has ended, WORK order);
 * the master's answer applied (now_ns: when it came, CLOCK_MONOTONIC).
 * work_skew_apply: -1 with e naming what is wrong in the body.
 */
unsigned int	 work_skew_sync_ms(const struct work *);
json_t		*work_skew_report(const struct work *);
int		 work_skew_apply(struct work *, const json_t *body,
		    uint64_t now_ns, struct errmsg *);
uint64_t	 work_run_id(const struct work *);
uint64_t	 work_interval_ns(const struct work *);
/* The monotonic time of GO, taken before the first thread starts: every
 * I/O and every arrival of the run is after it (0 before work_start). */
uint64_t	 work_go_ns(const struct work *);
/* Every WG's counts since the previous call, as INTERVAL "stats"
 * (common/interval_json.h; new reference): those of the I/Os completed
 * by the end of interval_no (GO + interval_no * interval), or, final
 * (RUN_END), every I/O counted. */
json_t		*work_stats_json(struct work *, uint64_t interval_no,
		    int final);
/* Have all the WGs with seekpct=eof reached the end of their range? */
int		 work_eof_done(const struct work *);
/* A file-system run whose threads all ended (fswork_idle). */
int		 work_idle(const struct work *);
/* The I/O error texts queued since the last call (caller clears). */
struct strlist;
void		 work_take_errors(struct work *, struct strlist *);
int		 work_is_fs(const struct work *);
/* A file-system run under data validation (-v): it has end lines. */
int		 work_is_fs_dv(const struct work *);
/* [{anchor, files, dirs, bytes, ...}] of a file-system run, walked on
 * a thread of its own (fswork.h): begin, then take until not NULL. */
int		 work_anchors_begin(struct work *, int, struct errmsg *);
json_t		*work_anchors_take(struct work *);
/* The first byte of a work_take_errors() line that is the detail of a
 * report (data validation's corruption report), not an error event. */
#define WORK_DETAIL_MARK	'\x1f'
/* ... a line for errorlog.html and the slave's log, not the console
 * (data validation's map lines, vdbench's DV_map.java:149,361). */
#define WORK_ERRLOG_MARK	'\x1e'
/* ... the end-of-rd "Total amount of key blocks" line: the master puts
 * its own count lines before the first one (Reporter.java:412-425). */
#define WORK_TOTAL_MARK		'\x1d'
/* ... a line of a message to the master's console ("Message from slave
 * X:" and the lines, vdbench's sendMessageToConsole), not errorlog.html. */
#define WORK_MESSAGE_MARK	'\x1c'
/* The first byte of a work_error() text that the master prints as its
 * own line (vdbench's master says it), or as vdbench's slave abort box. */
#define WORK_PLAIN_ERROR	'\x1a'
#define WORK_ABORT_ERROR	'\x19'
/* A line may carry, after this byte, a JSON object: data validation's
 * record of it (a corrupted data block, a run's totals), sent as the
 * LOG's "dv" (proto/PROTOCOL.md); nothing before it: no text to show. */
#define WORK_DV_SEP		'\x18'
/* The journal's recovery and map dump lines: errorlog.html and the
 * slave's log, as vdbench logs them. */
#define WORK_ELOG_MARK		WORK_ERRLOG_MARK

/* Lines for the slave's own log only, e.g. data validation's per-key
 * counters (caller clears). */
void		 work_take_own_log(struct work *, struct strlist *);
/* Progress lines for the console (file-system runs; sds that
 * data_errors=remove_device took out); the caller clears. */
void		 work_take_notes(struct work *, struct strlist *);
/* An eventfd the I/O threads write to when the run must stop on I/O
 * errors, so the loop sends the ERROR at once, not at the interval's end
 * (memcached thread.c style). Set before work_start; -1 = none. */
void		 work_set_wake(struct work *, int fd);
/*
 * A timed run's length from GO (its elapsed in whole intervals): no I/O
 * starts after GO + run_ns, so the intervals hold the run's arrivals
 * however late the last interval's timer fires on a busy host. Set
 * before work_start; 0 (the default) = until STOP.
 */
void		 work_set_length(struct work *, uint64_t run_ns);
/* Has the run stopped on I/O errors (data_errors=)? The text, or NULL. */
const char	*work_error(const struct work *);
/* The targets' facts for INFO: exists, size, block size, type. */
json_t		*work_lun_info(const json_t *luns);

#endif /* SLAVE_WORK_H */
