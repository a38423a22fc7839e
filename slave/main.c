/* SPDX-License-Identifier: MIT */
/*
 * The slave's control loop: HELLO, then INFO / WORK / GO / STOP /
 * SHUTDOWN from the master; INTERVAL at each interval end; HEARTBEAT
 * both ways every second. Master silent for 5 s or gone: stop and exit.
 */
#include "slave.h"

#include <errno.h>
#include <malloc.h>
#include <netdb.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <event2/event.h>

#include "auth.h"
#include "cpu.h"
#include "daemon.h"
#include "dv_session.h"
#include "fswork.h"
#include "link.h"
#include "log.h"
#include "model.h"
#include "mtime.h"
#include "net.h"
#include "proto.h"
#include "sd_dv.h"
#include "tls.h"
#include "work.h"
#include "xmalloc.h"

/* DESIGN.md: a master silent for max(2 intervals, 5 s) is lost; the
 * slave then stops its I/O and exits. */
#define SLAVE_MASTER_SILENCE_NS	(5ull * 1000000000u)
/* Until the run's I/O begins (GO) and after it ends, no I/O of ours
 * depends on the master: the limit there is longer. The master's set-up
 * (proving, clock probes, WORK to every slave) on a machine it shares
 * with many starting slaves can stall it for seconds: 6.6 s at 1,024
 * slaves on 2 cores dropped the whole run (e2e 22). */
#define SLAVE_IDLE_SILENCE_NS	(30ull * 1000000000u)
/* Before the master's first word: it accepts and proves slaves a batch at
 * a time and waits 30 s for all of them (RUN_CONNECT_NS on its side). */
#define SLAVE_FIRST_WORD_NS	(30ull * 1000000000u)
#define SLAVE_TICK_NS		1000000000ull	/* heartbeat_cb */

struct slave {
	struct event_base	*base;
	struct link		*link;
	char			*name;
	int			 cpu;		/* report CPU (slave 0) */
	struct work		*work;
	struct dv_session	*dvs;		/* data validation's, kept
						 * across runs */
	uint64_t		 interval_no;
	uint64_t		 last_interval;	/* of a timed run; 0 = eof */
	uint64_t		 go_ns;		/* the run's GO, CLOCK_MONOTONIC */
	uint64_t		 last_snap_ns;
	uint64_t		 last_heard_ns;
	int			 io_on;		/* between GO and STOP */
	int			 heard;		/* the master said something */
	uint64_t		 tick_last_ns;	/* master_check last ran */
	uint64_t		 hb_seq;
	int			 hb_by_interval; /* INTERVALs are the
						 * heartbeats (hb_own) */
	int			 eof_sent;
	int			 idle_sent;	/* "idle" said this run */
	int			 err_sent;	/* the run's ERROR is out */
	int			 wake_fd;	/* eventfd the I/O threads
						 * write on an error */
	struct event		*wake_ev;
	struct event		*interval_ev;
	struct event		*skew_ev;	/* SKEW reports (skewsync) */
	struct event		*hb_ev;
	struct event		*sig_ev[3];
	/* READY or RUN_END waiting for the walk of what exists of the
	 * anchors (seconds for millions of files): the walk thread wakes
	 * the loop through walk_fd (an eventfd); heartbeats go on meanwhile */
	json_t			*pend;
	uint16_t		 pend_type;
	int			 walk_fd;
	struct event		*walk_ev;
	int			 stop_wait;	/* STOP waits for the fsyncs
						 * of the run's end (wake_ev) */
	int			 rc;
};

/* Leave the loop with an exit status. */
static void
slave_exit(struct slave *s, int rc)
{
	s->rc = rc;
	if (s->work != NULL)
		work_stop(s->work);
	event_base_loopexit(s->base, NULL);
}

/* Tell the master about an error, then log it. */
static void
send_error(struct slave *s, const char *text)
{
	const char *kind = text[0] == WORK_PLAIN_ERROR ? "plain" :
	    text[0] == WORK_ABORT_ERROR ? "abort" : NULL;

	if (kind != NULL)
		text++;
	log_error("%s", text);
	link_send(s->link, MSG_ERROR, json_pack("{s:s,s:s,s:s*}", "text",
	    text, "slave", s->name, "kind", kind));
}

/* The end of interval interval_no + 1: GO + k * interval (DESIGN.md). */
static uint64_t
interval_deadline(const struct slave *s)
{
	return (s->go_ns + (s->interval_no + 1) * work_interval_ns(s->work));
}

/*
 * Arm the interval timer for the end of interval interval_no + 1, from
 * the absolute deadline on a fresh clock. libevent adds a timeout to the
 * time it cached when the loop woke; re-armed relative to that after the
 * last interval's work (stats, TLS), each interval ended early by that
 * work and the slaves drifted apart (0.91-0.99 s under load).
 */
static void
arm_interval(struct slave *s)
{
	uint64_t due = interval_deadline(s), now;
	struct timeval tv;

	event_base_update_cache_time(s->base);
	now = mtime_now_ns();
	if (due < now)
		due = now;
	tv.tv_sec = (time_t)((due - now) / 1000000000u);
	/* rounded up: the timer never fires before the deadline */
	tv.tv_usec = (suseconds_t)(((due - now) % 1000000000u + 999) / 1000u);
	if (tv.tv_usec >= 1000000) {
		tv.tv_sec++;
		tv.tv_usec -= 1000000;
	}
	evtimer_add(s->interval_ev, &tv);
}

/*
 * Send INTERVAL k with the cumulative counters. Its duration ends after
 * the snapshot, not when the timer fired: every I/O in it completed
 * before that end, so none is longer than the run so far, however long
 * this thread was kept off the CPU in between (the master checks,
 * master/merge.c: "read resp_sum_ns grew by 4953915993 ns over 1
 * operations" on a starved machine before).
 */
static void
send_interval(struct slave *s)
{
	json_t *body, *stats;
	uint64_t now;

	s->interval_no++;
	/* the last interval of a timed run (its threads stopped) holds the
	 * I/O they completed after its end too: every arrival was in it */
	stats = work_stats_json(s->work, s->interval_no, s->last_interval > 0 &&
	    s->interval_no == s->last_interval);
	now = mtime_now_ns();
	body = json_pack("{s:I,s:I,s:I,s:o}", "run_id",
	    (json_int_t)work_run_id(s->work), "interval",
	    (json_int_t)s->interval_no, "duration_ns",
	    (json_int_t)(now - s->last_snap_ns), "stats", stats);
	s->last_snap_ns = now;
	if (s->cpu) {
		json_t *c = cpu_sample_json();

		if (c != NULL)
			json_object_set_new(body, "cpu", c);
	}
	/* a run that stops on an error is not done: its threads ended
	 * on the error (an fsd format on a full file system), and the
	 * master is to say "stopped" with no average, not end it whole */
	if (!s->eof_sent && work_error(s->work) == NULL &&
	    work_eof_done(s->work)) {
		json_object_set_new(body, "eof", json_true());
		s->eof_sent = 1;
	}
	if (!s->idle_sent && work_error(s->work) == NULL &&
	    work_idle(s->work)) {
		json_object_set_new(body, "idle", json_true());
		s->idle_sent = 1;
	}
	link_send(s->link, MSG_INTERVAL, body);
}

/* skew= across slaves: this slave's counts to the master, every
 * skew_sync_ms while the run's I/O goes on (master/run/skewsync.h). */
static void
skew_cb(evutil_socket_t fd, short what, void *arg)
{
	struct slave *s = arg;

	(void)fd;
	(void)what;
	if (s->work == NULL || !s->io_on)
		return;
	link_send(s->link, MSG_SKEW, work_skew_report(s->work));
}

/* Start the SKEW reports of a run that holds skew across slaves. */
static void
arm_skew(struct slave *s)
{
	unsigned int ms = work_skew_sync_ms(s->work);
	struct timeval tv;

	if (ms == 0)
		return;
	tv.tv_sec = (time_t)(ms / 1000);
	tv.tv_usec = (suseconds_t)(ms % 1000) * 1000;
	evtimer_add(s->skew_ev, &tv);
}

/* Send what take() queued in the work as LOG lines of one level. */
static void
send_logs(struct slave *s, const char *level,
    void (*take)(struct work *, struct strlist *))
{
	struct strlist lines = { 0, NULL, 0 };
	int i;

	take(s->work, &lines);
	for (i = 0; i < lines.n; i++) {
		char *t = lines.v[i], *sep;
		const char *lv = level;
		json_t *body, *dv = NULL;
		int skip = 1;

		/* data validation's record of the line rides along (JSON
		 * text escapes control bytes: the last separator is it) */
		if ((sep = strrchr(t, WORK_DV_SEP)) != NULL &&
		    (dv = json_loads(sep + 1, 0, NULL)) != NULL)
			*sep = '\0';
		switch (t[0]) {
		case WORK_DETAIL_MARK:
			lv = "detail";
			break;
		case WORK_ERRLOG_MARK:
			lv = "errorlog";
			log_info("%s", t + 1);	/* vdbench's slave log too */
			break;
		case WORK_TOTAL_MARK:
			lv = "dv_total";
			break;
		case WORK_MESSAGE_MARK:
			lv = "message";
			break;
		default:
			skip = 0;	/* no mark */
			break;
		}
		body = json_pack("{s:s,s:s}", "level", lv, "text", t + skip);
		if (dv != NULL)
			json_object_set_new(body, "dv", dv);
		link_send(s->link, MSG_LOG, body);
	}
	strlist_clear(&lines);
}

/* The run stops on I/O errors: send its ERROR, once; the master then
 * stops the run. */
static void
send_run_error(struct slave *s, const char *err)
{
	if (s->err_sent)
		return;
	s->err_sent = 1;
	send_error(s, err);
}

static void	stop_end(struct slave *);
static int	master_check(struct slave *);
static void	hb_own(struct slave *, int);

/* An I/O thread woke the loop: the run has stopped on errors. Send them
 * and the ERROR now, not at the end of the interval. Or the fsyncs of
 * the run's end are over: a STOP waiting for them goes on. */
static void
wake_cb(evutil_socket_t fd, short what, void *arg)
{
	struct slave *s = arg;
	eventfd_t n;
	const char *err;

	(void)what;
	(void)eventfd_read(fd, &n);
	if (s->stop_wait && s->work != NULL && work_sync_done(s->work)) {
		s->stop_wait = 0;
		stop_end(s);		/* errors and ERROR too */
		return;
	}
	if (s->work == NULL || (err = work_error(s->work)) == NULL ||
	    s->err_sent)
		return;
	evtimer_del(s->interval_ev);
	hb_own(s, 0);			/* no more INTERVALs */
	send_logs(s, "error", work_take_errors);
	send_run_error(s, err);
}

/* The end of an interval. */
static void
interval_cb(evutil_socket_t fd, short what, void *arg)
{
	struct slave *s = arg;
	const char *err;

	(void)fd;
	(void)what;
	if (s->work == NULL)
		return;
	if (mtime_now_ns() < interval_deadline(s)) {
		arm_interval(s);	/* early (a coarse clock): not yet */
		return;
	}
	if (s->hb_by_interval && master_check(s) != 0)
		return;
	/* Progress first, so the console reads in order. */
	send_logs(s, "info", work_take_notes);
	/*
	 * The last interval of a timed run: stop the threads first, so every
	 * operation done is in a reported interval and the reports match
	 * what is on disk and what the kernel counted for the device. The
	 * interval ends when the stop is asked: threads asleep until their
	 * next arrival (up to 100 ms) add no time to it, and the I/O still in
	 * flight then was started in it.
	 */
	if (s->last_interval > 0 && s->interval_no + 1 == s->last_interval)
		work_stop(s->work);
	send_interval(s);
	send_logs(s, "info", work_take_notes);	/* a run's end lines */
	send_logs(s, "error", work_take_errors);
	if ((err = work_error(s->work)) != NULL) {
		hb_own(s, 0);		/* no more INTERVALs */
		send_run_error(s, err);
		return;			/* the master stops the run */
	}
	arm_interval(s);
}

/* How long the master may be silent before this slave gives it up. */
static uint64_t
master_silence_ns(const struct slave *s)
{
	uint64_t two;

	if (!s->io_on || s->work == NULL)
		return (SLAVE_IDLE_SILENCE_NS);
	two = 2 * work_interval_ns(s->work);
	return (two > SLAVE_MASTER_SILENCE_NS ? two : SLAVE_MASTER_SILENCE_NS);
}

/*
 * Is the master still there? 0 yes; -1 it was silent too long (or never
 * spoke), and the slave is leaving. Run each second, by heartbeat_cb or
 * by interval_cb while INTERVALs are the heartbeats.
 */
static int
master_check(struct slave *s)
{
	uint64_t now = mtime_now_ns();

	/* Our own loop ran late (this host short of CPU, or we were
	 * stopped): that time is not the master's silence. */
	if (s->tick_last_ns != 0 && now - s->tick_last_ns > 2 * SLAVE_TICK_NS) {
		uint64_t late = now - s->tick_last_ns - SLAVE_TICK_NS;

		s->last_heard_ns = s->last_heard_ns + late > now ? now :
		    s->last_heard_ns + late;
	}
	s->tick_last_ns = now;
	if (!s->heard && now - s->last_heard_ns > SLAVE_FIRST_WORD_NS) {
		log_error("%s: no word from the master within %llu s of "
		    "connecting; stopping", s->name,
		    (unsigned long long)(SLAVE_FIRST_WORD_NS / 1000000000u));
		slave_exit(s, 1);
		return (-1);
	}
	if (s->heard && now - s->last_heard_ns > master_silence_ns(s)) {
		log_error("%s: the master has been silent for %llu s%s; "
		    "stopping", s->name, (unsigned long long)
		    ((now - s->last_heard_ns) / 1000000000u), s->io_on ?
		    " while its run's I/O went on" : "");
		slave_exit(s, 1);
		return (-1);
	}
	return (0);
}

/* Every second: heartbeat, and check the master is still there. */
static void
heartbeat_cb(evutil_socket_t fd, short what, void *arg)
{
	struct slave *s = arg;

	(void)fd;
	(void)what;
	if (master_check(s) != 0)
		return;
	link_send(s->link, MSG_HEARTBEAT, json_pack("{s:I}", "seq",
	    (json_int_t)++s->hb_seq));
}

/*
 * While a run's I/O goes on at intervals of 1 s or less, its INTERVALs
 * are this slave's heartbeats (the master counts any message) and
 * interval_cb checks the master: one timer wake-up a second instead of
 * two (each costs a slave's loop up to 260 us of CPU with 1,024 slaves
 * on 2 cores, docs/performance.md). on: GO; off: the interval timer
 * stops.
 */
static void
hb_own(struct slave *s, int on)
{
	struct timeval one_s = { 1, 0 };

	if (on && !s->hb_by_interval && s->work != NULL &&
	    work_interval_ns(s->work) <= SLAVE_TICK_NS) {
		event_del(s->hb_ev);
		s->hb_by_interval = 1;
	} else if (!on && s->hb_by_interval) {
		evtimer_add(s->hb_ev, &one_s);
		s->hb_by_interval = 0;
	}
}

/* SIGTERM, SIGINT, SIGHUP: stop I/O and leave. */
static void
signal_cb(evutil_socket_t sig, short what, void *arg)
{
	struct slave *s = arg;

	(void)what;
	log_warn("%s: signal %d; stopping", s->name, (int)sig);
	slave_exit(s, 1);
}

/* READY, with the CPU base of the first interval taken now. */
static void
send_ready(struct slave *s, json_t *body)
{
	if (s->cpu) {
		json_t *c = cpu_sample_json();

		if (c != NULL)
			json_object_set_new(body, "cpu", c);
	}
	link_send(s->link, MSG_READY, body);
}

/* Drop a READY or RUN_END still waiting for its walk. */
static void
pend_drop(struct slave *s)
{
	json_decref(s->pend);
	s->pend = NULL;
}

/* A walk of the anchors ended: send what waited for it. A wake from a
 * walk since cancelled finds nothing to take. */
static void
walk_cb(evutil_socket_t fd, short what, void *arg)
{
	struct slave *s = arg;
	json_t *anchors, *body;
	uint64_t n;

	(void)what;
	while (read(fd, &n, sizeof(n)) < 0 && errno == EINTR)
		;
	if (s->pend == NULL || s->work == NULL)
		return;
	if ((anchors = work_anchors_take(s->work)) == NULL)
		return;
	body = s->pend;
	s->pend = NULL;
	json_object_set_new(body, "anchors", anchors);
	if (s->pend_type == MSG_READY) {
		send_ready(s, body);
		return;
	}
	link_send(s->link, MSG_RUN_END, body);
	work_free(s->work);
	s->work = NULL;
}

/* Send body as type once the anchors are walked (file-system runs);
 * at once without them if the walk cannot start. */
static void
send_after_walk(struct slave *s, uint16_t type, json_t *body)
{
	struct errmsg e;

	if (work_anchors_begin(s->work, s->walk_fd, &e) != 0) {
		log_warn("%s: %s", s->name, e.text);
		if (type == MSG_READY)
			send_ready(s, body);
		else {
			link_send(s->link, type, body);
			work_free(s->work);
			s->work = NULL;
		}
		return;
	}
	s->pend = body;
	s->pend_type = type;
}

/* --debug=aio: each sd's engine, threads and open flags as WORK says. */
static void
debug_engines(const struct slave *s, json_t *body)
{
	json_t *w = json_object_get(body, "work"), *sd;
	size_t i;

	json_array_foreach(json_object_get(w, "sds"), i, sd) {
		const char *name = json_string_value(json_object_get(sd, "sd"));
		const char *lun = json_string_value(json_object_get(sd, "lun"));
		const char *eng = json_string_value(json_object_get(sd,
		    "engine"));
		char *fl = json_dumps(json_object_get(sd, "openflags"),
		    JSON_COMPACT | JSON_ENCODE_ANY);

		/* work.c's default engine is sync */
		log_debug(LOG_AIO, "%s: sd=%s lun=%s engine=%s threads=%lld%s "
		    "openflags=%s", s->name, name != NULL ? name : "?",
		    lun != NULL ? lun : "?", eng != NULL ? eng : "sync",
		    (long long)json_integer_value(json_object_get(sd,
		    "threads")), eng != NULL && strcmp(eng, "aio") == 0 ?
		    " (its queue depth)" : "", fl != NULL ? fl : "[]");
		free(fl);
	}
}

/* WORK: set up the run; READY or ERROR. */
static void
on_work(struct slave *s, json_t *body)
{
	struct errmsg e;
	json_int_t run_id = 0;

	json_int_t el = 0, ins = 0;

	json_unpack(body, "{s:I,s:I,s:I}", "run_id", &run_id, "elapsed_s", &el,
	    "interval_ns", &ins);
	s->last_interval = el > 0 && ins > 0 ? (uint64_t)el * 1000000000u /
	    (uint64_t)ins : 0;
	pend_drop(s);
	s->stop_wait = 0;
	work_free(s->work);
	s->work = work_new(body, s->dvs, &e);
	if (s->work == NULL) {
		send_error(s, e.text);
		return;
	}
	if (log_debug_mask & LOG_AIO)
		debug_engines(s, body);
	work_set_wake(s->work, s->wake_fd);
	work_set_length(s->work, s->last_interval * (uint64_t)ins);
	if (work_prepare(s->work, &e) != 0) {
		work_free(s->work);
		s->work = NULL;
		send_error(s, e.text);
		return;
	}
	body = json_pack("{s:I}", "run_id", run_id);
	if (work_is_fs(s->work)) {
		/* -v: the fsds' map lines (slave/fs_dv.c), before the run */
		send_logs(s, "error", work_take_errors);
		send_after_walk(s, MSG_READY, body);
	}
	else {
		send_logs(s, "info", work_take_notes);	/* the DV map, now */
		send_ready(s, body);
	}
}

/* GO: start the I/O and the interval clock. */
static void
on_go(struct slave *s)
{
	struct errmsg e;

	if (s->work == NULL) {
		send_error(s, "GO without WORK");
		return;
	}
	if (s->pend != NULL) {
		send_error(s, "GO before READY");
		return;
	}
	s->interval_no = 0;
	s->eof_sent = 0;
	s->idle_sent = 0;
	s->err_sent = 0;
	if (work_start(s->work, &e) != 0) {
		send_error(s, e.text);
		return;
	}
	/* the work's GO, from before its first thread: starting hundreds
	 * of threads on a starved machine takes seconds, and an I/O begun
	 * meanwhile must not be longer than the run so far (the master's
	 * check, master/merge.c: "histogram max_ns 3221.225 ms is longer
	 * than the run so far (1.144 s)") */
	s->go_ns = s->last_snap_ns = work_go_ns(s->work);
	s->io_on = 1;
	arm_interval(s);
	arm_skew(s);
	hb_own(s, 1);
}

/* SKEW: the run's floor from the master. */
static void
on_skew(struct slave *s, json_t *body)
{
	struct errmsg e;

	if (s->work == NULL || !s->io_on)
		return;			/* the run's end crossed it */
	if (work_skew_apply(s->work, body, mtime_now_ns(), &e) != 0)
		send_error(s, e.text);
}

/* STOP: drain, then RUN_END with the final counters, once the written
 * data is synced (work_sync_done; heartbeats go on meanwhile). */
static void
on_stop(struct slave *s)
{
	if (s->work == NULL || s->stop_wait || (s->pend != NULL &&
	    s->pend_type == MSG_RUN_END))
		return;
	pend_drop(s);		/* a READY not sent: the run never began */
	evtimer_del(s->interval_ev);
	evtimer_del(s->skew_ev);
	hb_own(s, 0);
	work_stop(s->work);
	s->io_on = 0;
	if (!work_sync_done(s->work)) {
		s->stop_wait = 1;	/* wake_cb goes on */
		return;
	}
	stop_end(s);
}

/* The rest of STOP: what the end found, then RUN_END. */
static void
stop_end(struct slave *s)
{
	json_int_t id;

	/* What the end of the run found (data validation) before RUN_END */
	if (!work_is_fs(s->work) || work_is_fs_dv(s->work)) {
		struct strlist own = { 0, NULL, 0 };
		int i;

		work_take_own_log(s->work, &own);
		for (i = 0; i < own.n; i++)
			log_info("%s", own.v[i]);
		strlist_clear(&own);
		send_logs(s, "info", work_take_notes);
		send_logs(s, "error", work_take_errors);
		if (work_error(s->work) != NULL)
			send_run_error(s, work_error(s->work));
	}
	id = (json_int_t)work_run_id(s->work);
	{
		json_t *re = json_pack("{s:I,s:b,s:o}", "run_id", id, "eof",
		    work_eof_done(s->work), "stats", work_stats_json(s->work,
		    s->interval_no + 1, 1));

		if (work_is_fs(s->work)) {
			send_after_walk(s, MSG_RUN_END, re);
			return;
		}
		link_send(s->link, MSG_RUN_END, re);
	}
	work_free(s->work);
	s->work = NULL;
}

/* One message from the master; NULL body: the master is gone. */
static void
dispatch(struct link *l, uint16_t type, json_t *body, uint32_t tag,
    void *arg)
{
	struct slave *s = arg;
	uint64_t t2 = mtime_wall_ns();

	if (body == NULL) {
		log_error("%s: lost the master: %s; stopping", s->name,
		    link_error(l));
		slave_exit(s, 1);
		return;
	}
	s->last_heard_ns = mtime_now_ns();
	s->heard = 1;
	switch (type) {
	case MSG_INFO:
		link_reply(l, MSG_INFO, json_pack("{s:o}", "luns",
		    work_lun_info(json_object_get(body, "luns"))), tag);
		break;
	case MSG_WORK:
		on_work(s, body);
		break;
	case MSG_GO:
		on_go(s);
		break;
	case MSG_STOP:
		on_stop(s);
		break;
	case MSG_SKEW:
		on_skew(s, body);
		break;
	case MSG_SHUTDOWN:
		slave_exit(s, 0);
		break;
	case MSG_HEARTBEAT:
		/* a clock probe (master/clockprobe.h): answered at once with
		 * its send time, our receive time and our send time */
		if (json_is_integer(json_object_get(body, "t1_ns")) &&
		    json_is_integer(json_object_get(body, "seq")))
			link_send(l, MSG_HEARTBEAT, json_pack("{s:O,s:O,s:I,"
			    "s:I}", "seq", json_object_get(body, "seq"),
			    "t1_ns", json_object_get(body, "t1_ns"), "t2_ns",
			    (json_int_t)t2, "t3_ns",
			    (json_int_t)mtime_wall_ns()));
		break;
	default:
		log_warn("%s: unexpected %s from the master", s->name,
		    proto_type_name(type));
		break;
	}
}

/* What the command line of vdbc slave asks for. */
struct slave_args {
	const char	*connect_to;
	const char	*name;
	const char	*listen_at;
	const char	*token_file;
	const char	*gen_token;
	const char	*debug;
	int		 cookie_stdin;
	int		 listen;
	int		 use_tls;
	int		 cpu;
};

/* Parse the arguments after "slave"; -1 (after the usage) on an unknown one. */
static int
parse_args(int argc, char *argv[], struct slave_args *a)
{
	int i;

	memset(a, 0, sizeof(*a));
	a->name = "slave";
	a->debug = getenv("VDBC_DEBUG");
	for (i = 2; i < argc; i++) {
		if (strcmp(argv[i], "--connect") == 0 && i + 1 < argc)
			a->connect_to = argv[++i];
		else if (strcmp(argv[i], "--name") == 0 && i + 1 < argc)
			a->name = argv[++i];
		else if (strcmp(argv[i], "--cpu") == 0)
			a->cpu = 1;
		else if (strcmp(argv[i], "--cookie-stdin") == 0)
			a->cookie_stdin = 1;
		else if (strcmp(argv[i], "--tls") == 0)
			a->use_tls = 1;
		else if (strcmp(argv[i], "--listen") == 0) {
			a->listen = 1;
			if (i + 1 < argc && argv[i + 1][0] != '-')
				a->listen_at = argv[++i];
		} else if (strcmp(argv[i], "--token-file") == 0 && i + 1 < argc)
			a->token_file = argv[++i];
		else if (strcmp(argv[i], "--gen-token") == 0 && i + 1 < argc)
			a->gen_token = argv[++i];
		else if (strcmp(argv[i], "--parent-death") == 0)
			prctl(PR_SET_PDEATHSIG, SIGTERM);
		else if (strncmp(argv[i], "--debug=", 8) == 0)
			a->debug = argv[i] + 8;
		else if (strcmp(argv[i], "--debug") == 0 && i + 1 < argc)
			a->debug = argv[++i];
		else {
			fprintf(stderr, "vdbc slave: unknown argument '%s'\n"
			    "usage: vdbc slave --connect HOST:PORT --name LABEL"
			    " [--cpu] [--cookie-stdin [--tls]]\n"
			    "       vdbc slave --listen [ADDR][:PORT] "
			    "--token-file FILE\n"
			    "       vdbc slave --gen-token FILE\n"
			    "       (each with --debug=%s)\n", argv[i],
			    LOG_DEBUG_WORDS);
			return (-1);
		}
	}
	return (0);
}

/* --debug (or VDBC_DEBUG): the log's debug words; -1 when invalid. */
static int
set_debug(const char *debug)
{
	if (debug == NULL)
		return (0);
	if (log_set_debug(debug) != 0) {
		fprintf(stderr, "vdbc slave: invalid value for "
		    "'--debug' (or VDBC_DEBUG): '%s' (expected %s)\n",
		    debug, LOG_DEBUG_WORDS);
		return (-1);
	}
	/* a daemon's slaves inherit it */
	setenv("VDBC_DEBUG", debug, 1);
	if (log_debug_mask & LOG_PROTO)
		link_set_trace(log_frame);
	return (0);
}

/* --tls: the client side keyed by the cookie; -1 when it cannot be. */
static int
make_tls(const char *name, const char *cookie, struct tls **tls)
{
	uint8_t psk[TLS_PSK_BYTES];
	struct errmsg e;

	if (cookie[0] == '\0') {
		log_error("--tls needs the cookie on standard input "
		    "(--cookie-stdin): it is the key");
		return (-1);
	}
	tls_psk_derive(cookie, strlen(cookie), TLS_LABEL_SLAVE, psk);
	*tls = tls_client_new(name, psk, &e);
	explicit_bzero(psk, sizeof(psk));
	if (*tls == NULL) {
		log_error("%s", e.text);
		return (-1);
	}
	return (0);
}

/* The event loop, the link over fd and the slave's events. */
static void
setup_events(struct slave *s, int fd, struct tls *tls)
{
	static const int sigs[3] = { SIGTERM, SIGINT, SIGHUP };
	struct timeval one_s = { 1, 0 };
	struct event_config *cfg = event_config_new();
	int i;

	/*
	 * Interval ends are timers: libevent's default clock on Linux is
	 * CLOCK_MONOTONIC_COARSE (a tick of up to 4 ms); the precise one
	 * puts them where GO + k * interval says.
	 */
	event_config_set_flag(cfg, EVENT_BASE_FLAG_PRECISE_TIMER);
	s->base = event_base_new_with_config(cfg);
	event_config_free(cfg);
	s->link = tls != NULL ? link_new_tls(s->base, fd, tls, dispatch, s) :
	    link_new(s->base, fd, dispatch, s);
	s->interval_ev = evtimer_new(s->base, interval_cb, s);
	s->skew_ev = event_new(s->base, -1, EV_PERSIST, skew_cb, s);
	s->hb_ev = event_new(s->base, -1, EV_PERSIST, heartbeat_cb, s);
	s->walk_ev = event_new(s->base, s->walk_fd, EV_READ | EV_PERSIST,
	    walk_cb, s);
	event_add(s->walk_ev, NULL);
	/* I/O threads wake the loop through it (work_set_wake). */
	s->wake_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (s->wake_fd >= 0) {
		s->wake_ev = event_new(s->base, s->wake_fd, EV_READ |
		    EV_PERSIST, wake_cb, s);
		event_add(s->wake_ev, NULL);
	}
	evtimer_add(s->hb_ev, &one_s);
	for (i = 0; i < 3; i++) {
		s->sig_ev[i] = evsignal_new(s->base, sigs[i], signal_cb, s);
		evsignal_add(s->sig_ev[i], NULL);
	}
}

/* HELLO to the master, and the banner. */
static void
send_hello(struct slave *s, const char *name, const char *cookie,
    const struct tls *tls)
{
	char hostname[256] = "localhost", hn[400];
	/* test hook (e2e 04): announce another minor, as an older slave */
	const char *tm = getenv("VDBC_TEST_HELLO_MINOR");
	int minor = tm != NULL ? atoi(tm) : PROTO_MINOR;
	json_t *hello;

	gethostname(hostname, sizeof(hostname));
	s->last_heard_ns = mtime_now_ns();
	hello = json_pack("{s:i,s:i,s:s,s:s,s:I,s:s,s:i,s:I}", "major",
	    PROTO_MAJOR, "minor", minor, "slave", name, "host", hostname,
	    "pid", (json_int_t)getpid(), "version", VDBC_VERSION, "cores",
	    (int)sysconf(_SC_NPROCESSORS_ONLN), "clock_wall_ns",
	    (json_int_t)mtime_wall_ns());
	if (cookie[0] != '\0')
		json_object_set_new(hello, "cookie", json_string(cookie));
	link_send(s->link, MSG_HELLO, hello);
	printf("vdbc %s slave %s, protocol %d.%d, libevent %s, jansson %s%s\n",
	    VDBC_VERSION, log_text(hn, sizeof(hn), name), PROTO_MAJOR,
	    PROTO_MINOR, event_get_version(), JANSSON_VERSION, tls != NULL ?
	    ", TLS 1.3 keyed by its one-time cookie" : "");
}

/* Free what setup_events and the run made. */
static void
teardown(struct slave *s)
{
	int i;

	json_decref(s->pend);
	work_free(s->work);	/* cancels a walk in progress */
	for (i = 0; i < 3; i++)
		event_free(s->sig_ev[i]);
	event_free(s->walk_ev);
	close(s->walk_fd);
	if (s->wake_ev != NULL)
		event_free(s->wake_ev);
	if (s->wake_fd >= 0)
		close(s->wake_fd);
	event_free(s->interval_ev);
	event_free(s->skew_ev);
	event_free(s->hb_ev);
	link_free(s->link);
}

/*
 * Connect to the master and serve it until it is done with us: the
 * exit status.
 */
static int
run_slave(struct slave *s, const struct slave_args *a, const char *cookie,
    struct tls *tls)
{
	struct errmsg e;
	int fd;

	signal(SIGPIPE, SIG_IGN);
	/*
	 * A run gives each thread a 30 KiB histogram per workload and
	 * direction, mostly never touched. glibc's calloc zeroes (so makes
	 * resident) what it carves from the heap; mapped on their own they
	 * stay zero pages until used: 38 MB instead of 61 MB for 64 sds x
	 * 8 threads at a fixed rate (docs/performance.md).
	 */
	mallopt(M_MMAP_THRESHOLD, 16 * 1024);
	if ((s->walk_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)) < 0) {
		log_error("eventfd: %s", strerror(errno));
		return (1);
	}
	if ((fd = net_dial(a->connect_to, NULL, &e)) < 0) {
		log_error("%s", e.text);
		close(s->walk_fd);
		return (1);
	}
	log_debug(LOG_NET, "%s: connected to the master at %s (fd %d%s)",
	    a->name, a->connect_to, fd, tls != NULL ? ", TLS" : "");
	if (tls != NULL)
		evutil_make_socket_nonblocking(fd);
	s->name = xstrdup(a->name);
	setup_events(s, fd, tls);
	send_hello(s, a->name, cookie, tls);
	event_base_dispatch(s->base);
	/* Flush what is queued (RUN_END, ERROR) before leaving; a plain
	 * socket with nothing queued has nothing to flush (TLS keeps the
	 * 200 ms: its records may still sit below the link's buffer). */
	if (s->rc == 0 && s->link != NULL && (link_is_tls(s->link) ||
	    link_pending(s->link) > 0)) {
		struct timeval t = { 0, 200000 };

		event_base_loopexit(s->base, &t);
		event_base_dispatch(s->base);
	}
	teardown(s);
	return (s->rc);
}

/* vdbc slave --connect HOST:PORT --name LABEL [--cpu] [--cookie-stdin
 * [--tls]]; --tls (a slave on another host): TLS 1.3 keyed by the
 * cookie, with the name as the key's identity. */
int
slave_main(int argc, char *argv[])
{
	struct slave_args a;
	char cookie[80] = "";
	struct tls *tls = NULL;
	struct slave s;
	struct errmsg e;
	int rc;

	memset(&s, 0, sizeof(s));
	if (parse_args(argc, argv, &a) != 0)
		return (2);
	s.cpu = a.cpu;
	if (set_debug(a.debug) != 0)
		return (2);
	if (a.gen_token != NULL) {
		if (auth_gen_token(a.gen_token, &e) != 0) {
			fprintf(stderr, "vdbc slave: %s\n", e.text);
			return (1);
		}
		printf("vdbc: wrote a new token to %s (mode 0600); copy it to "
		    "the master and to every host's daemon\n", a.gen_token);
		return (0);
	}
	if (a.listen)
		return (daemon_main(a.listen_at, a.token_file));
	if (a.cookie_stdin) {
		if (fgets(cookie, sizeof(cookie), stdin) == NULL)
			cookie[0] = '\0';
		cookie[strcspn(cookie, "\r\n")] = '\0';
	}
	log_open("slave", a.name);
	if (a.connect_to == NULL) {
		fprintf(stderr, "vdbc slave: --connect HOST:PORT, --listen or "
		    "--gen-token FILE is required\n");
		return (2);
	}
	if (a.use_tls && make_tls(a.name, cookie, &tls) != 0)
		return (2);
	s.dvs = dv_session_new();
	rc = run_slave(&s, &a, cookie, tls);
	sd_dv_forget(s.dvs);
	fs_dv_forget(s.dvs);
	dv_session_free(s.dvs);
	tls_free(tls);
	if (s.base != NULL)
		event_base_free(s.base);
	free(s.name);
	return (rc);
}
