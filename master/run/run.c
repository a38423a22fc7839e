/* SPDX-License-Identifier: MIT */
/*
 * The run driver: one libevent loop, no threads. Slaves are peers on
 * links; every message is checked by the link before it reaches here.
 * Intervals are merged from counters (never from rates): each slave sends
 * each WG's counts of the interval (master/intervals.c takes them in).
 */
#include "run.h"
#include "run_int.h"
#include "intervals.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sched.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <event2/event.h>

#include "auth.h"
#include "console.h"
#include "dvend.h"
#include "dvsummary.h"
#include "engines.h"
#include "fsdv.h"
#include "hdmount.h"
#include "hist.h"
#include "hosts.h"
#include "html.h"
#include "iostats.h"
#include "link.h"
#include "log.h"
#include "model_json.h"
#include "msgscan.h"
#include "mtime.h"
#include "merge.h"
#include "metrics.h"
#include "ofile.h"
#include "place.h"
#include "net.h"
#include "proto.h"
#include "skewsync.h"
#include "remote.h"
#include "report.h"
#include "results.h"
#include "charts.h"
#include "tls.h"
#include "units.h"
#include "workgen.h"
#include "xmalloc.h"

static void	rd_cmd(struct master *, const char *, const struct strlist *);

/* Leave the loop shortly, after queued messages are written. */
static void
master_leave(struct master *m)
{
	struct timeval t = { 1, 0 };

	m->state = M_SHUTDOWN;
	m->state_since_ns = mtime_now_ns();
	send_all(m, MSG_SHUTDOWN, NULL, 0);
	event_base_loopexit(m->base, &t);
}

/* results.json's record of the current run, begun. */
static void
results_cur_run(struct master *m)
{
	results_run(m->res, m->cur.name, m->cur.plan_run != NULL ?
	    m->cur.plan_run->rd->name : "SD_format", m->cur.loops,
	    m->cur.rate_text, m->cur.req.reqrate, m->cur.plan_run != NULL ?
	    m->cur.plan_run->elapsed_s : 0,
	    m->cur.interval_ns / 1000000000ull, m->cur.plan_run != NULL ?
	    m->cur.plan_run->warmup_s : 0);
}

static void	abort_text(struct master *, int, const char *);
static void	master_abort(struct master *, const char *, ...)
		    __attribute__((format(printf, 2, 3)));
static void	master_fail(struct master *, const char *, ...)
		    __attribute__((format(printf, 2, 3)));
static int	check_outputs(struct master *);
static void	master_data_error(struct master *);
static int	monitor_shutdown(struct master *);

/* Stop everything with an error: reports say what happened. */
static void
master_abort(struct master *m, const char *fmt, ...)
{
	char text[RUN_STOP_TEXT];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	abort_text(m, 1, text);
}

/*
 * The same, for vdbench's own last words that errorlog.html does not get
 * (Reporter.java:425, a slave's abort).
 */
static void
master_fail(struct master *m, const char *fmt, ...)
{
	char text[RUN_STOP_TEXT];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	abort_text(m, 0, text);
}

/* master_abort, its line into errorlog.html when errlog. */
static void
abort_text(struct master *m, int errlog, const char *text)
{
	if (m->aborting)
		return;
	m->aborting = 1;
	console_fatal("%s", text);
	if (errlog)
		report_error(m->rep, text);
	if (m->state == M_SETUP)
		console_line("vdbc: stopped while setting up run %s, before its "
		    "first interval; the reports hold everything up to there.",
		    m->cur.name);
	else if (m->state == M_RUNNING)
		console_line("vdbc: stopped during run %s after %u complete "
		    "interval(s); the reports hold everything up to there.",
		    m->cur.name, m->in.next_print > 0 ? m->in.next_print - 1 : 0);
	if (m->state == M_RUNNING && m->in.mg != NULL) {
		/* DESIGN.md: every report up to the last whole interval,
		 * the average of those after the warm-up included */
		char note[1200];

		if (m->cur.avg_last >= m->cur.first_avg &&
		    m->cur.avg_last > 0) {
			snprintf(note, sizeof(note), "vdbc: rd=%s stopped; "
			    "avg_%u-%u averages the whole intervals before "
			    "the stop", m->cur.name, m->cur.first_avg,
			    m->cur.avg_last);
			vdbc_note(m, note);
			write_averages(m, m->cur.avg_last);
		} else {
			snprintf(note, sizeof(note), "vdbc: rd=%s stopped "
			    "before a whole interval after the warm-up: no "
			    "average", m->cur.name);
			vdbc_note(m, note);
		}
	}
	report_end(m->rep, text);
	{
		/* the last line, so what watches status.html ends too */
		char st[RUN_STOP_TEXT + 32];
		size_t j;

		snprintf(st, sizeof(st), "Vdbench stopped: %s", text);
		for (j = 0; st[j] != '\0'; j++)
			if (st[j] == '\t' || st[j] == '\n')
				st[j] = ' ';
		report_status(m->rep, "Shutting down slaves", NULL, NULL);
		report_status(m->rep, st, NULL, NULL);
	}
	if (m->state == M_RUNNING || m->state == M_SETUP) {
		char st[RUN_STOP_TEXT + 32];

		/* stopped while its slaves set it up (a device refused at
		 * its first write run): the record is this run's, not the
		 * one before, which completed */
		if (m->state == M_SETUP && m->res != NULL)
			results_cur_run(m);
		snprintf(st, sizeof(st), "stopped: %s", text);
		results_run_end(m->res, st);
	} else if (m->res != NULL)
		results_write(m->res);
	m->rc = RUN_EXIT_FAILED;
	send_all(m, MSG_STOP, json_pack("{s:I}", "run_id",
	    (json_int_t)m->run_id), 0);
	master_leave(m);
}

/*
 * A report file or results.json that could not be written (disk full,
 * removed, read-only) ends the run with its path and errno: reports that
 * stop half-way are no result (DESIGN.md "Reports").
 */
static int
check_outputs(struct master *m)
{
	struct errmsg e;

	if (m->outputs_failed || (report_check(m->rep, &e) == 0 &&
	    results_check(m->res, &e) == 0))
		return (m->outputs_failed ? -1 : 0);
	m->outputs_failed = 1;
	master_abort(m, "%s", e.text);
	return (-1);
}

/* Tell every daemon whether its slaves run I/O now (remote_io). */
static void
hosts_io(struct master *m, int on)
{
	int h;

	for (h = 0; m->launch.remotes != NULL && h < m->nhosts; h++)
		remote_io(m->launch.remotes[h], on);
}

/* GO to every slave of the run. */
void
go(struct master *m)
{
	int i;

	console_line("%s", m->cur.text);
	report_run_start(m->rep, m->cur.text, ++m->anchor);
	run_progress(m);
	results_cur_run(m);
	merge_free(m->in.mg);
	m->in.mg = merge_new(report_nkeys(m->rep));
	m->in.next_print = 1;
	report_status(m->rep, "Starting", m->cur.name, m->cur.loops);
	m->cur.nactive = active_count(m);
	m->cur.avg_last = m->cur.short_first = m->cur.short_last = 0;
	for (i = 0; i < m->nslaves; i++) {
		m->sl[i].eof = m->sl[i].idle = 0;
		if (m->sl[i].active && !slave_out(&m->sl[i]))
			m->sl[i].state = SLAVE_RUNNING;
	}
	m->keys.anchors_row = 0;
	m->state = M_RUNNING;
	m->state_since_ns = mtime_now_ns();
	slaves_silence_moved(m);
	hosts_io(m, 1);
	send_all(m, MSG_GO, json_pack("{s:I}", "run_id",
	    (json_int_t)m->run_id), 1);
	skewsync_start(m->cur.sync);
}

/* The pause= after a run is over. */
static void
pause_cb(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	start_next_run(arg);
}

/* When every slave still in the run has ended it: pause or go on. */
void
check_run_end(struct master *m)
{
	int i;

	for (i = 0; i < m->nslaves; i++) {
		if (m->sl[i].active && !slave_out(&m->sl[i]) &&
		    m->sl[i].state != SLAVE_ENDED)
			return;
	}
	m->runs_done++;
	hosts_io(m, 0);
	skewsync_free(m->cur.sync);
	m->cur.sync = NULL;
	report_status(m->rep, "Slaves done", m->cur.name, m->cur.loops);
	if (dvend_end_of_rd(m))
		return;
	if (m->cur.plan_run != NULL && !m->cur.plan_run->format_run)
		rd_cmd(m, "endcmd", &m->cur.plan_run->rd->endcmd);
	if (m->cur.pause_s > 0) {
		struct timeval t = { (time_t)m->cur.pause_s, 0 };

		console_line("Waiting %llu seconds; requested by 'pause' "
		    "parameter", (unsigned long long)m->cur.pause_s);
		m->state = M_PAUSE;
		evtimer_add(m->loop.pause_ev, &t);
		return;
	}
	start_next_run(m);
}


/* Send the current run's WORK. */
static void
send_work(struct master *m)
{
	int i;

	m->run_id++;
	dataerr_run_start(&m->derr);	/* vdbench counts per rd */
	m->derr_said = 0;
	m->state = M_SETUP;
	m->state_since_ns = mtime_now_ns();
	skewsync_free(m->cur.sync);
	m->cur.sync = skewsync_new(m->base, m->sl, m->nslaves, m->run_id);
	for (i = 0; i < m->nslaves; i++) {
		struct mslave *s = &m->sl[i];
		json_t *w = m->cur.work[i];

		s->active = w != NULL && !slave_out(s);
		if (!slave_out(s))
			s->state = s->active ? SLAVE_SETUP : SLAVE_IDLE;
		s->eof = s->idle = 0;
		s->last_k = 0;
		s->elapsed_ns = 0;
		memset(s->cpu_avg, 0, sizeof(s->cpu_avg));
		s->cpu_avg_valid = 0;
		slave_wg_free(s);
		if (!s->active)
			continue;
		/* the WORK body is workgen.c's, whole (slave_index gives each
		 * slave its own random streams; the seed stays common: dedup's
		 * patterns must agree across slaves) */
		slave_wg_alloc(m, s, json_object_get(w, "wgs") != NULL ?
		    json_object_get(w, "wgs") : json_object_get(w, "fwgs"));
		skewsync_add(m->cur.sync, i, w);
		link_send(s->link, MSG_WORK, json_pack("{s:I,s:s,s:I,s:I,s:I,"
		    "s:b,s:o}", "run_id", (json_int_t)m->run_id, "run",
		    m->cur.name, "interval_ns", (json_int_t)m->cur.interval_ns,
		    "seed", (json_int_t)(m->o->seed & 0x7fffffffffffffffull),
		    "elapsed_s", (json_int_t)(m->cur.nintervals *
		    (m->cur.interval_ns / 1000000000ull)), "format",
		    m->cur.format, "work", w));
		m->cur.work[i] = NULL;
	}
	if (!active_any(m))
		master_abort(m, "run %s has no work for any slave",
		    m->cur.name);
}

/* What the WORK builder reads of the master. */
static void
workgen_input(struct master *m, struct workgen_in *in)
{
	memset(in, 0, sizeof(*in));
	in->model = m->model;
	in->hosts = m->hosts;
	in->nhosts = m->nhosts;
	in->nslaves = m->nslaves;
	in->sd_size = m->pre.sd_size;
	in->sd_xmax = m->pre.sd_xmax;
	in->sd_xmin = m->pre.sd_xmin;
	in->fsd_xmin = m->pre.fsd_xmin;
	in->nformat = m->pre.nformat;
	in->format_sd = m->pre.format_sd;
	in->format_host = m->pre.format_host;
	in->format_from = m->pre.format_from;
	in->cleaned = m->o->force_cleanup ? &m->cleaned : NULL;
}

/*
 * The requested skew of each fwd of a file-system run, by report key:
 * skew=, or what is left split over the fwds without (SkewReport.java).
 * NULL when no fwd has skew= or there is one fwd: vdbench then prints
 * no "FWD skew requested vs. actual" table.
 */
static double *
fwd_skew_req(struct master *m, const struct run *pr)
{
	double total = 0, left, *req;
	int i, yes = 0, no = 0;

	for (i = 0; i < pr->nfwds; i++) {
		const struct fwd *f = pr->fwds[i].fwd;

		if (f->skew_set && f->skew_pct != 0) {
			total += f->skew_pct;
			yes++;
		} else
			no++;
	}
	if (yes == 0 || pr->nfwds < 2)
		return (NULL);
	left = no > 0 ? (100 - total) / no : 0;
	req = xcalloc((size_t)report_nkeys(m->rep) + 1, sizeof(double));
	for (i = 0; i < pr->nfwds; i++) {
		const struct fwd *f = pr->fwds[i].fwd;
		int key = fs_key(m, "fwd", f->name);

		if (key >= 0)
			req[key] = f->skew_set && f->skew_pct != 0 ?
			    f->skew_pct : left;
	}
	return (req);
}

/* Make a built run the current one (its WORK bodies move to m->cur). */
static void
take_run(struct master *m, struct workgen_run *w)
{
	struct lrun *c = &m->cur;
	int i, k;

	memset(c, 0, sizeof(*c));
	memcpy(c->name, w->name, sizeof(c->name));
	memcpy(c->text, w->text, sizeof(c->text));
	memcpy(c->loops, w->loops, sizeof(c->loops));
	memcpy(c->rate_text, w->rate_text, sizeof(c->rate_text));
	memcpy(c->maxdata_text, w->maxdata_text, sizeof(c->maxdata_text));
	c->format = w->format;
	c->fs = w->fs;
	c->eof_run = w->eof_run;
	c->once_run = w->once_run;
	c->curve_max = w->curve_max;
	c->nintervals = w->nintervals;
	c->first_avg = w->first_avg;
	c->interval_ns = w->interval_ns;
	c->pause_s = w->pause_s;
	c->plan_run = w->plan_run;
	c->req = w->req;
	c->maxdata_bytes = w->maxdata_bytes;
	c->maxdata_dir = w->maxdata_dir;
	for (i = 0; i < m->nslaves && i < w->nslaves; i++) {
		c->work[i] = w->work[i];
		w->work[i] = NULL;
		m->sl[i].has_eof = w->has_eof[i];
	}
	if (!w->fs) {	/* the wds of a raw run (-1: not in it) */
		int nk = report_nkeys(m->rep);

		c->skew_req = xcalloc((size_t)nk, sizeof(double));
		for (k = 0; k < nk; k++)
			c->skew_req[k] = -1;
	}
	if (w->plan_run != NULL && !w->fs) {	/* a raw planned run */
		for (k = 0; k < w->nskew; k++) {
			int key = wd_key(m, w->skew[k].wd);

			if (key < 0)
				continue;
			if (c->skew_req[key] < 0)
				c->skew_req[key] = 0;
			c->skew_req[key] += w->skew[k].pct;
		}
	} else if (!w->fs) {
		/* the SD_format run: a wd per sd (however many hosts
		 * format it), each an equal share, as vdbench's */
		char name[512];
		int n = 0, j;

		for (j = 0; j < 2; j++) {
			for (k = 0; k < m->pre.nformat; k++) {
				int key;

				snprintf(name, sizeof(name), "SD_format_%s",
				    m->pre.format_sd[k]->name);
				key = wd_key(m, name);
				if (key < 0)
					continue;
				if (j == 0 && c->skew_req[key] < 0) {
					c->skew_req[key] = 0;
					n++;
				} else if (j == 1)
					c->skew_req[key] = 100.0 / n;
			}
		}
	} else if (w->plan_run != NULL && !w->plan_run->format_run)
		c->skew_req = fwd_skew_req(m, w->plan_run);
	workgen_run_free(w);
}

/* Build a planned run and make it the current one; -1 after an abort. */
static int
build_run(struct master *m, const struct run *pr)
{
	struct workgen_in in;
	struct workgen_run w;
	struct errmsg e;
	int rc, box;

	workgen_input(m, &in);
	in.observed_rate = pr->curve_point ? m->curve.curve_rate : m->curve.prev_rate;
	rc = workgen_plan_run(&in, pr, &w, &e);
	if (w.rate_guessed) {
		console_line("iorate=curve. No i/o rate observed. Was run too "
		    "short?");
		if (pr->curve_point)
			m->curve.curve_rate = w.observed_rate;
	}
	report_set_fs(m->rep, w.fs, workgen_fs_ops(m->model));
	box = w.dv_box != NULL;
	if (box) {		/* vdbench's console lines (workgen.c) */
		char *l = w.dv_box, *nl;

		while ((nl = strchr(l, '\n')) != NULL) {
			*nl = '\0';
			console_line("%s", l);
			l = nl + 1;
		}
	}
	take_run(m, &w);
	if (rc != 0) {
		if (box)	/* vdbench's errorlog.html stays empty (v8c) */
			master_fail(m, "%s", e.text);
		else
			master_abort(m, "%s", e.text);
		return (-1);
	}
	return (0);
}

/*
 * Every host answered INFO: the SD_format decisions and report keys
 * (preflight.c), then the first run; a lun that cannot be used stops
 * everything, named.
 */
static void
info_done(struct master *m)
{
	struct errmsg e;

	if (on_info(m, &e) != 0) {
		master_abort(m, "%s", e.text);
		return;
	}
	start_next_run(m);
}

/* Does a command list (startcmd=, endcmd=) hold this target word? */
static int
cmd_has(const struct strlist *l, const char *word)
{
	int i;

	for (i = 0; i < l->n; i++) {
		if (strcasecmp(l->v[i], word) == 0)
			return (1);
	}
	return (0);
}

/*
 * rd startcmd=/endcmd= run on every slave unless the target "master" is
 * given (PARMFILE.md 8.1): vdbc runs them here, once per local slave, so
 * a remote host without "master" is refused before anything starts.
 */
static int
check_rd_cmds(struct master *m)
{
	const struct rd *r;
	int i;

	TAILQ_FOREACH(r, &m->model->rds, entry) {
		const struct strlist *c = r->startcmd.n > 0 && !cmd_has(
		    &r->startcmd, "master") ? &r->startcmd : r->endcmd.n > 0 &&
		    !cmd_has(&r->endcmd, "master") ? &r->endcmd : NULL;

		for (i = 0; c != NULL && i < m->nhosts; i++) {
			if (m->hosts[i].how == HOST_LOCAL)
				continue;
			console_fatal("rd=%s: '%s=' runs on every slave, and vdbc "
			    "runs rd commands on this host only: host=%s is "
			    "remote. Add the target 'master' to run it here "
			    "once", r->name, c == &r->startcmd ? "startcmd" :
			    "endcmd", m->hosts[i].label);
			return (-1);
		}
	}
	return (0);
}

/* An rd's startcmd=/endcmd=: once with "master", else once per slave. */
static void
rd_cmd(struct master *m, const char *which, const struct strlist *cmd)
{
	int i, n = cmd_has(cmd, "master") ? 1 : m->nslaves;

	for (i = 0; cmd->n > 0 && i < n; i++)
		general_cmd(which, cmd, m->o->outdir);
}

/*
 * monitor=: emptied (made) when the runs start and after each request
 * acted on, as vdbench's Reporter.clearShutdownFile; -1 when it cannot
 * be (the run stops: a monitor that cannot be cleared would act again at
 * every interval).
 */
static int
monitor_clear(struct master *m)
{
	int fd = open(m->o->monitor, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
	    0666);

	if (fd < 0) {
		master_abort(m, "monitor=%s: cannot empty the file: %s",
		    m->o->monitor, strerror(errno));
		return (-1);
	}
	close(fd);
	return (0);
}

/*
 * monitor=: at an interval's end, the file's first line (trimmed, any
 * case) as vdbench's Reporter.checkMonitorFile reads it: "shutdown" or
 * "end_rd" end the current run after this interval, "terminate" or
 * "end_vdbench" end it and every run after it. The file is emptied once
 * acted on. 1 when the run ends.
 */
static int
monitor_shutdown(struct master *m)
{
	char buf[4096], *p, *e, stop[64];
	const char *what;
	size_t n;
	FILE *f;

	/* vdbench's /tmp/vdbench.shutdown.<pid>: touched, it ends vdbench
	 * after this interval (Reporter.checkMonitorFile) */
	snprintf(stop, sizeof(stop), "/tmp/vdbench.shutdown.%ld",
	    (long)getpid());
	if (access(stop, F_OK) == 0) {
		console_line("User requested early Vdbench termination using "
		    "file '%s'.", stop);
		report_status(m->rep, "User requested early Vdbench "
		    "termination.", NULL, NULL);
		(void)unlink(stop);
		if (m->o->monitor != NULL)
			monitor_clear(m);
		m->monitor_final = 1;
		return (1);
	}
	if (m->o->monitor == NULL || (f = fopen(m->o->monitor, "r")) == NULL)
		return (0);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	buf[strcspn(buf, "\r\n")] = '\0';
	for (p = buf; *p == ' ' || *p == '\t'; p++)
		;
	for (e = p + strlen(p); e > p && (e[-1] == ' ' || e[-1] == '\t'); e--)
		;
	*e = '\0';
	if (strcasecmp(p, "shutdown") == 0 || strcasecmp(p, "end_rd") == 0)
		what = "User requested early shutdown of this run.";
	else if (strcasecmp(p, "terminate") == 0 ||
	    strcasecmp(p, "end_vdbench") == 0) {
		what = "User requested early Vdbench termination.";
		m->monitor_final = 1;
	} else
		return (0);
	console_line("%s", what);
	report_status(m->rep, what, NULL, NULL);
	monitor_clear(m);
	return (1);
}

/*
 * -l / loop=: after the last run, whether to run them all again (n passes
 * in all, or until the duration has passed, checked after each pass).
 */
static int
loop_again(struct master *m)
{
	const struct run_opts *o = m->o;
	uint64_t secs;

	if (!o->loop || m->loop_stop || m->plan->nruns == 0)
		return (0);
	m->loop_pass++;
	secs = (mtime_now_ns() - m->loop_start_ns) / 1000000000ull;
	if ((o->loop_count > 0 && m->loop_pass >= o->loop_count) ||
	    (o->loop_s > 0 && secs >= o->loop_s))
		return (0);
	console_line("Loop pass %llu: all runs again (%llu seconds so far)",
	    (unsigned long long)m->loop_pass + 1, (unsigned long long)secs);
	m->next_run = 0;
	return (1);
}

/* Start the next run, or finish. */
void
start_next_run(struct master *m)
{
	struct errmsg e;
	int i;

	for (i = 0; i < RUN_MAX_SLAVES; i++) {
		json_decref(m->cur.work[i]);
		m->cur.work[i] = NULL;
	}
	free(m->cur.skew_req);
	m->cur.skew_req = NULL;
	if (!m->monitor_started) {
		char stop[64];

		/* vdbench's stop file: an old one is no request */
		snprintf(stop, sizeof(stop), "/tmp/vdbench.shutdown.%ld",
		    (long)getpid());
		(void)unlink(stop);
	}
	if (m->o->monitor != NULL && !m->monitor_started) {
		/* before the first run, format runs included (vdbench's
		 * Reporter.run) */
		m->monitor_started = 1;
		if (monitor_clear(m) != 0)
			return;
		console_line("User requesting monitoring of this run using "
		    "file '%s'.", m->o->monitor);
	}
	if (m->monitor_final) {
		/* terminate/end_vdbench: no run after this one, as
		 * vdbench's Reporter loop breaks on monitor_final */
		m->pre.nformat = 0;
		m->next_run = m->plan->nruns;
		m->loop_stop = 1;
	}
	if (m->pre.nformat > 0) {
		struct workgen_in in;
		struct workgen_run w;

		workgen_input(m, &in);
		workgen_format_run(&in, &w);
		take_run(m, &w);	/* (its skews: the sds to format) */
		m->pre.nformat = 0;
		send_work(m);
		return;
	}
	if (m->curve.last_run != NULL && m->curve.last_run->curve_point) {
		double sc = m->curve.last_run->rd->stopcurve_ms;

		if (sc > 0 && m->curve.last_resp_ms > sc) {
			console_line("Vdbench terminating because of requested "
			    "'stopcurve=%g' with observed response time of "
			    "%.3f ms", sc, m->curve.last_resp_ms);
			m->next_run = m->plan->nruns;
			m->loop_stop = 1;
		}
	}
	if (m->loop_start_ns == 0)
		m->loop_start_ns = mtime_now_ns();
	if (m->next_run >= m->plan->nruns && !loop_again(m)) {
		if (check_outputs(m) != 0)
			return;
		/* -jo, journal=only: the journal_recovery rd was all
		 * (vdbench's Reporter.java:258) */
		if (m->model->general.journal & JOURNAL_ONLY)
			console_line("'journal=(recover,only)' requested. "
			    "Terminating execution.");
		if (m->lost_names[0] != '\0')
			console_line("vdbc: every run completed, without lost "
			    "slave(s) %s from their loss on "
			    "(--on-slave-loss=continue)", m->lost_names);
		report_end(m->rep, "Vdbench execution completed successfully");
		report_status(m->rep, "Shutting down slaves", NULL, NULL);
		report_status(m->rep, "Vdbench complete", NULL, NULL);
		/* the console says so once the charts are written too */
		m->rc = 0;
		master_leave(m);
		return;
	}
	if (build_run(m, &m->plan->runs[m->next_run++]) != 0)
		return;
	/* rd mount=: remounted before the run's I/O, a failure stops it */
	if (hdmount_remount(m->model, m->plan->runs[m->next_run - 1].rd,
	    &e) != 0) {
		master_abort(m, "%s", e.text);
		return;
	}
	if (!m->plan->runs[m->next_run - 1].format_run)
		rd_cmd(m, "startcmd", &m->plan->runs[m->next_run - 1].rd->
		    startcmd);
	send_work(m);
}

/*
 * How late our own loop is against tick_cb's schedule (a tick each
 * RUN_TICK_NS, on the monotonic clock). RUN_LATE_NS or more is a stall of
 * the master (stopped, or this machine short of CPU): said once, on the
 * console and in errorlog.html, and remembered, so that silences measured
 * across it are not held against the slaves, nor the phase deadlines.
 */
static uint64_t
master_late(struct master *m)
{
	uint64_t now = mtime_now_ns(), late;
	char text[400];

	if (m->loop.tick_last_ns == 0 ||
	    now < m->loop.tick_last_ns + RUN_TICK_NS)
		return (0);
	late = now - m->loop.tick_last_ns - RUN_TICK_NS;
	if (late < RUN_LATE_NS)
		return (late);
	if (m->loop.stall_end_ns > m->loop.tick_last_ns)
		return (late);		/* this stall is known */
	m->loop.stall_ns = late;
	m->loop.stall_end_ns = now;
	/* the phase deadlines (connect 30 s, set-up 120 s) count only
	 * the time the master ran: its stall is not the slaves' delay */
	m->state_since_ns = m->state_since_ns + late > now ? now :
	    m->state_since_ns + late;
	m->loop.stalls_ns[m->loop.nstalls % RUN_STALLS] = late;
	m->loop.stalls_end_ns[m->loop.nstalls % RUN_STALLS] = now;
	m->loop.nstalls++;
	snprintf(text, sizeof(text), "vdbc: the master's event loop ran %.1f s "
	    "late (the master was stopped, or this machine is short of CPU); "
	    "slave silences across it are not counted", (double)late / 1e9);
	console_line("%s", text);
	report_error(m->rep, text);
	return (late);
}

/*
 * A stall of ours long enough that the slaves stopped waiting for us
 * (they leave after 5 s without a word from the master), seen lately:
 * text says so. Repeated shorter stalls count too: 2-3 s stalls one
 * after the other (a machine whose other tenants take the CPU) starve
 * the slaves and daemons on it as well, which then drop the master
 * ("775 slaves lost: ... connection closed by the peer" in the hosts
 * review, with the stalls said only as separate lines before).
 */
static int
master_stalled(struct master *m, char *text, size_t len)
{
	uint64_t now = mtime_now_ns(), sum = 0, longest = 0;
	unsigned int i, n = 0;

	master_late(m);
	if (m->loop.stall_end_ns != 0 && m->loop.stall_ns + RUN_TICK_NS >=
	    RUN_MIN_SILENCE_NS &&
	    now - m->loop.stall_end_ns <= 3 * RUN_MIN_SILENCE_NS) {
		snprintf(text, len, "The master's event loop ran %.1f s late "
		    "(the master was stopped, or this machine is short of "
		    "CPU), and a slave stops after 5 s without a word from "
		    "its master", (double)m->loop.stall_ns / 1e9);
		return (1);
	}
	for (i = 0; i < m->loop.nstalls && i < RUN_STALLS; i++) {
		if (now - m->loop.stalls_end_ns[i] > 3 * RUN_MIN_SILENCE_NS)
			continue;
		n++;
		sum += m->loop.stalls_ns[i];
		longest = m->loop.stalls_ns[i] > longest ?
		    m->loop.stalls_ns[i] : longest;
	}
	if (n < 2 || sum + RUN_TICK_NS < RUN_MIN_SILENCE_NS)
		return (0);
	snprintf(text, len, "The master's event loop ran late %u times in the "
	    "last %llu s, %.1f s in all (the longest %.1f s; the master was "
	    "stopped, or this machine is short of CPU, and so are its slaves "
	    "and daemons if they share it), and a slave or a daemon stops "
	    "after 5 s without a word from its master", n,
	    (unsigned long long)(3 * RUN_MIN_SILENCE_NS / 1000000000u),
	    (double)sum / 1e9, (double)longest / 1e9);
	return (1);
}

/*
 * Every 10 s while slaves connect, the ones still awaited, in vdbench's
 * words ("Waiting for slave connection: hd1-0", SlaveList.java): each
 * named up to RUN_CONNECT_SAY_MAX, then one line counts the rest (1,024
 * slaves would be 1,024 lines).
 */
static void
connect_wait_say(struct master *m, uint64_t now)
{
	int i, n = 0;

	if (now < m->state_since_ns + RUN_CONNECT_SAY_NS ||
	    now < m->loop.wait_said_ns + RUN_CONNECT_SAY_NS)
		return;
	m->loop.wait_said_ns = now;
	for (i = 0; i < m->nslaves; i++) {
		const struct mslave *s = &m->sl[i];

		if (slave_out(s) || s->state != SLAVE_CONNECTING)
			continue;
		if (n++ < RUN_CONNECT_SAY_MAX)
			console_line("Waiting for slave connection: %s",
			    s->name);
	}
	if (n > RUN_CONNECT_SAY_MAX)
		console_line("Waiting for slave connection: %d more slaves",
		    n - RUN_CONNECT_SAY_MAX);
}

/*
 * Every second: heartbeats out, silence and phase timeouts checked. While
 * a run's I/O goes on, each slave gets a heartbeat every other second
 * (half of them each tick): its limit is then 5 s or more, and each
 * HEARTBEAT wakes a slave's loop (1,024 slaves on 2 cores, 40-260 us a
 * wake-up, docs/performance.md).
 */
static void
tick_cb(evutil_socket_t fd, short what, void *arg)
{
	struct master *m = arg;
	uint64_t now = mtime_now_ns();
	struct errmsg e;
	char text[RUN_STOP_TEXT];
	int i;

	(void)fd;
	(void)what;
	master_late(m);
	/* master_late moves state_since_ns on to its own clock read,
	 * later than now: the phase deadlines below measure from it */
	now = mtime_now_ns();
	/* after master_late's own clock read: a stall it just took note
	 * of ended before this tick, so the next one counts as new */
	m->loop.tick_last_ns = mtime_now_ns();
	m->loop.ticks++;
	if (m->state == M_SHUTDOWN)
		return;
	if (m->state == M_CONNECT && check_ssh_exits(m, &e) != 0) {
		master_abort(m, "%s", e.text);
		return;
	}
	if (m->state == M_CONNECT)
		connect_wait_say(m, now);
	for (i = 0; i < m->nslaves; i++) {
		struct mslave *s = &m->sl[i];

		if (slave_out(s) || s->losing)
			continue;
		if (s->state == SLAVE_CONNECTING) {
			if (now > m->state_since_ns &&
			    now - m->state_since_ns > RUN_CONNECT_NS) {
				console_line("Terminating attempt to connect "
				    "to slaves.");
				master_abort(m, "Slave %s did not connect "
				    "within %d seconds", s->name,
				    RUN_CONNECT_S);
				return;
			}
			continue;
		}
		/* silence: silence_cb, at each slave's own deadline */
		if (m->state == M_RUNNING && (m->loop.ticks + (uint64_t)i) % 2)
			continue;
		link_send(s->link, MSG_HEARTBEAT, json_pack("{s:I}", "seq",
		    (json_int_t)(now / 1000000000u)));
	}
	if (m->state == M_RUNNING && !m->aborting &&
	    dataerr_expired(&m->derr, now, text, sizeof(text))) {
		master_abort(m, "%s", text);
		return;
	}
	if (m->state == M_SETUP && now > m->state_since_ns &&
	    now - m->state_since_ns > RUN_SETUP_NS)
		master_abort(m, "The slaves did not get ready for run %s "
		    "within 120 seconds", m->cur.name);
}

/*
 * An error a slave reported (an I/O error; data validation's corrupted
 * blocks too): counted, and data_errors= (dataerr.h) says whether its
 * command runs and whether the run stops.
 */
static void
master_data_error(struct master *m)
{
	char text[RUN_STOP_TEXT];
	int r;

	if (m->aborting)
		return;
	r = dataerr_note(&m->derr, m->cur.name, mtime_now_ns(), text,
	    sizeof(text));
	if (r & DATAERR_RUN_COMMAND) {
		struct strlist cmd = { 0, NULL, 0 };

		/* vdbench waits for it too; the run stops right after */
		strlist_add(&cmd, m->derr.command);
		strlist_add(&cmd, "cons");
		general_cmd("data_errors", &cmd, m->o->outdir);
		strlist_clear(&cmd);
	}
	if (r & DATAERR_STOP)	/* vdbench: console only (v2d) */
		master_fail(m, "%s", text);
}

/* Ctrl-C: stop the run, keep the reports. */
static void
signal_cb(evutil_socket_t sig, short what, void *arg)
{
	struct master *m = arg;
	int first = !m->aborting;

	(void)what;
	master_abort(m, "Stopped by signal %d (%s)", (int)sig,
	    sig == SIGINT ? "Ctrl-C" : "terminate");
	if (first)
		m->rc = 128 + (int)sig;		/* the shell's convention */
}

/* slaves.c's stop: master_abort with its text. */
static void
slaves_stop_cb(struct master *m, const char *text)
{
	master_abort(m, "%s", text);
}

/* dvend.c's fail: master_fail with its text. */
static void
fail_cb(struct master *m, const char *text)
{
	master_fail(m, "%s", text);
}

/* What slaves.c, launch.c, intervals.c and dvend.c tell the run driver. */
static const struct slaves_cb slaves_events = {
	.info = info_done,
	.ready = go,
	.run_end = check_run_end,
	.stop = slaves_stop_cb,
	.late = master_late,
	.stalled = master_stalled,
	.fail = fail_cb,
	.data_error = master_data_error,
	.outputs_failed = check_outputs,
	.monitor_end = monitor_shutdown,
};

/*
 * The run driver's state for a parmfile: hosts and slaves, what this
 * build cannot run refused by name (console_fatal), the sd tables. NULL
 * when the run cannot start.
 */
static struct master *
master_new(const struct model *model, const struct plan *plan,
    const struct run_opts *o)
{
	struct master *m = xcalloc(1, sizeof(*m));
	struct errmsg e;
	char note[512];
	int i, nsds = 0, nsl = 0, rc;
	const struct sd *s;

	TAILQ_INIT(&m->launch.pending);
	m->cb = &slaves_events;
	m->model = model;
	m->plan = plan;
	m->o = o;
	rc = hosts_build(model, plan, o->jvms, RUN_MAX_SLAVES, &m->hosts,
	    &m->nhosts, note, sizeof(note), &e);
	if (note[0] != '\0')
		console_line("%s", note);
	if (rc != 0) {
		console_fatal("%s", e.text);
		free(m);
		return (NULL);
	}
	if (hosts_fd_limit(m->hosts, m->nhosts, &e) != 0) {
		console_fatal("%s", e.text);
		free(m->hosts);
		free(m);
		return (NULL);
	}
	if (check_supported(m, model, plan) != 0 || check_rd_cmds(m) != 0) {
		free(m->hosts);
		free(m);
		return (NULL);
	}
	m->launch.remotes = xcalloc((size_t)m->nhosts,
	    sizeof(*m->launch.remotes));
	for (i = 0; i < m->nhosts; i++)
		nsl += m->hosts[i].nslaves;
	m->sl = xcalloc((size_t)nsl + 1, sizeof(*m->sl));
	m->lost_names = xstrdup("");
	for (i = 0; i < 4; i++)
		m->in.scratch[i] = hist_new();
	m->rc = RUN_EXIT_FAILED;
	m->launch.listen_fd = -1;
	m->keys.anchors = -1;
	dataerr_init(&m->derr, &model->general);
	TAILQ_FOREACH(s, &model->sds, entry)
		nsds++;
	m->pre.sd_size = xcalloc((size_t)nsds + 1, sizeof(uint64_t));
	m->pre.sd_xmax = xcalloc((size_t)nsds + 1, sizeof(uint64_t));
	workgen_xmax(m->model, m->plan, m->pre.sd_xmax);
	m->pre.sd_xmin = xcalloc((size_t)nsds + 1, sizeof(uint64_t));
	workgen_xmin(m->model, m->plan, m->pre.sd_xmin);
	{
		const struct fsd *f;
		int nfsds = 0;

		TAILQ_FOREACH(f, &model->fsds, entry)
			nfsds++;
		m->pre.fsd_xmin = xcalloc((size_t)nfsds + 1,
		    sizeof(uint64_t));
		fsdv_xmin(m->model, m->plan, m->pre.fsd_xmin);
	}
	return (m);
}

/* The reports and results.json, and startcmd=; -1 when they cannot open. */
static int
open_outputs(struct master *m)
{
	const struct run_opts *o = m->o;
	struct errmsg e;
	int i;

	if ((m->rep = report_open(o->outdir, m->plan, o->nfiles, o->files,
	    &e)) == NULL) {
		console_fatal("%s", e.text);
		return (-1);
	}
	console_tee(report_logfile(m->rep));
	/* what it takes to run it again, in the logfile as vdbench has it */
	for (i = 0; i < o->nscanned; i++)
		console_logonly("input argument scanned: '%s'", o->scanned[i]);
	console_logonly("vdbc: random seed %llu (repeat with --seed %llu)",
	    (unsigned long long)o->seed, (unsigned long long)o->seed);
	report_substitutions(m->rep, o->vars, o->nfiles, o->files);
	m->res = results_new(o->outdir, o->seed, o->nfiles, o->files);
	results_args(m->res, o->nscanned, o->scanned, o->vars);
	general_cmd("startcmd", &m->model->general.startcmd, o->outdir);
	if (dataerr_banner(&m->derr)[0] != '\0')
		console_line("%s", dataerr_banner(&m->derr));
	if (hdmount_run(m->model, &e) != 0) {	/* hd mount=, before any I/O */
		console_fatal("%s", e.text);
		return (-1);
	}
	return (0);
}

/*
 * The event loop: TLS for remote slaves, the listening port, the 1 s
 * tick, the pause timer, SIGINT and SIGTERM. -1 when slaves cannot be
 * listened for.
 */
static int
open_loop(struct master *m)
{
	const struct run_opts *o = m->o;
	struct timeval one_s = { 1, 0 };
	struct errmsg e;

	m->base = event_base_new();
	if (o->metrics != NULL) {
		if ((m->metrics = metrics_new(m->base, o->metrics, &e)) ==
		    NULL) {
			console_fatal("%s", e.text);
			return (-1);
		}
		console_line("vdbc: metrics for Prometheus at %s",
		    metrics_url(m->metrics));
	}
	if ((m->launch.tls = tls_server_new(slave_psk, m, &e)) == NULL) {
		console_fatal("%s", e.text);
		return (-1);
	}
	if (listen_port(m, o->port) != 0) {
		console_fatal("Unable to listen for slaves on port %d: %s",
		    o->port < 0 ? 5570 : o->port, strerror(errno));
		return (-1);
	}
	if ((m->launch.listener = listener_new(m->base, m->launch.listen_fd,
	    RUN_MAX_UNPROVED, accept_cb, m)) == NULL) {
		console_fatal("Unable to listen for slaves: out of memory");
		return (-1);
	}
	m->loop.tick_ev = event_new(m->base, -1, EV_PERSIST, tick_cb, m);
	evtimer_add(m->loop.tick_ev, &one_s);
	m->loop.tick_last_ns = mtime_now_ns();
	m->loop.pause_ev = evtimer_new(m->base, pause_cb, m);
	m->loop.sig_ev[0] = evsignal_new(m->base, SIGINT, signal_cb, m);
	m->loop.sig_ev[1] = evsignal_new(m->base, SIGTERM, signal_cb, m);
	evsignal_add(m->loop.sig_ev[0], NULL);
	evsignal_add(m->loop.sig_ev[1], NULL);
	return (0);
}

/* The slave table: names (host label-k) and cookies; results.json's hosts. */
static void
name_slaves(struct master *m)
{
	int i, k;

	m->nslaves = 0;
	for (i = 0; i < m->nhosts; i++) {
		for (k = 0; k < m->hosts[i].nslaves; k++) {
			struct mslave *sl = &m->sl[m->nslaves];

			sl->m = m;
			sl->id = m->nslaves++;
			sl->host = i;
			snprintf(sl->name, sizeof(sl->name), "%.50s-%d",
			    m->hosts[i].label, k);
			auth_nonce(sl->cookie);
		}
	}
	for (i = 0; i < m->nhosts; i++) {
		const struct mhost *h = &m->hosts[i];
		const char **names = xcalloc((size_t)h->nslaves + 1,
		    sizeof(*names));

		for (k = 0; k < h->nslaves; k++)
			names[k] = m->sl[h->first + k].name;
		results_host(m->res, h->label, h->system,
		    hosts_how_name(h->how), names, h->nslaves);
		free(names);
	}
}

/* The slaves' and the last run's state, once the loop is over. */
static void
free_run_state(struct master *m)
{
	int i;

	for (i = 0; i < m->nslaves; i++) {
		if (m->sl[i].silence_ev != NULL)
			event_free(m->sl[i].silence_ev);
		link_free(m->sl[i].link);
		slave_wg_free(&m->sl[i]);
	}
	merge_free(m->in.mg);
	for (i = 0; i < 4; i++)
		hist_free(m->in.scratch[i]);
	for (i = 0; m->launch.remotes != NULL && i < m->nhosts; i++)
		remote_free(m->launch.remotes[i]);
	free(m->launch.remotes);
	tls_free(m->launch.tls);
	free(m->hosts);
	json_decref(m->pre.info);
	explicit_bzero(m->launch.token, sizeof(m->launch.token));
	rkey_map_free(&m->keys);
	for (i = 0; i < RUN_MAX_SLAVES; i++)
		json_decref(m->cur.work[i]);
	free(m->cur.skew_req);
	skewsync_free(m->cur.sync);
}

/*
 * endcmd=, results.json, the charts, and every write checked before the
 * run may be called a success: the exit status.
 */
static int
close_outputs(struct master *m, int rc)
{
	struct errmsg e;
	char *box;

	if (m->rep != NULL)
		general_cmd("endcmd", &m->model->general.endcmd, m->o->outdir);
	if (m->res != NULL) {
		results_write(m->res);
		if (m->rep != NULL)
			charts_write(report_summary(m->rep),
			    results_runs(m->res));
	}
	if (m->rep != NULL && (report_check(m->rep, &e) != 0 ||
	    results_check(m->res, &e) != 0)) {
		if (!m->outputs_failed)
			console_fatal("%s", e.text);
		if (rc == 0)	/* a signal's exit status stays */
			rc = RUN_EXIT_FAILED;
	} else if (rc == 0)
		console_line("Vdbench execution completed successfully. Output "
		    "directory: %s", m->o->outdir);
	console_tee(NULL);
	box = m->res != NULL && m->rep != NULL ?
	    dvsummary_box(results_runs(m->res)) : NULL;
	results_free(m->res);
	report_close(m->rep);
	if (box != NULL) {
		/* the first corruption at the top of summary.html */
		char path[4200];

		snprintf(path, sizeof(path), "%s/summary.html", m->o->outdir);
		if (dvsummary_insert(path, box, &e) != 0) {
			console_fatal("%s", e.text);
			if (rc == 0)
				rc = RUN_EXIT_FAILED;
		}
		free(box);
	}
	return (rc);
}

/* The loop and what is left of the master. */
static void
master_free(struct master *m)
{
	struct pending *p;
	int i;

	while ((p = TAILQ_FIRST(&m->launch.pending)) != NULL) {
		link_free(p->link);
		pending_done(p);
	}
	listener_free(m->launch.listener);
	if (m->loop.tick_ev != NULL)
		event_free(m->loop.tick_ev);
	if (m->loop.pause_ev != NULL)
		event_free(m->loop.pause_ev);
	if (m->loop.loss_ev != NULL)
		event_free(m->loop.loss_ev);
	for (i = 0; i < 2; i++) {
		if (m->loop.sig_ev[i] != NULL)
			event_free(m->loop.sig_ev[i]);
	}
	if (m->launch.listen_fd >= 0)
		close(m->launch.listen_fd);
	metrics_free(m->metrics);
	if (m->base != NULL)
		event_base_free(m->base);
	free(m->pre.format_sd);
	free(m->pre.format_host);
	free(m->pre.format_from);
	free(m->pre.sd_size);
	free(m->pre.sd_xmax);
	free(m->pre.sd_xmin);
	free(m->pre.fsd_xmin);
	free(m->lost_names);
	strlist_clear(&m->cleaned);
	free(m->sl);
	free(m);
}

/* Run everything. */
/*
 * The master's loop ahead of every slave on its machine: real-time
 * round-robin at the lowest priority, with SCHED_RESET_ON_FORK so the
 * slaves, ssh and startcmd= it forks stay ordinary. 1,024 slaves
 * starting on the master's own 2 cores cost 45 ms of CPU each (fork,
 * exec, the dynamic linker, TLS), and under the fair scheduler the
 * master then got one share in a thousand: stalls of 5-27 s, past the
 * slaves' 30 s (e2e 22). The master uses 4-17 % of a core at most, and
 * the kernel's real-time throttling bounds even a runaway loop. Only
 * root may; otherwise (and in a container that gives no real-time
 * time) the master stays as it was, and its stalls are said as before.
 */
static void
loop_priority(void)
{
	struct sched_param sp;

	memset(&sp, 0, sizeof(sp));
	sp.sched_priority = 1;
	if (geteuid() == 0)
		(void)sched_setscheduler(0, SCHED_RR | SCHED_RESET_ON_FORK,
		    &sp);
}

/*
 * The loop. While a run's I/O goes on with RUN_COALESCE_SLAVES slaves or
 * more, it naps RUN_COALESCE_NS after each pass, so the INTERVALs that
 * came meanwhile are read in one pass: the master runs at real-time
 * priority (loop_priority), so without the nap each of 1,024 INTERVALs a
 * second woke it on its own, 900 wake-ups a second at 120 us each on a
 * 2-core VM (docs/performance.md). Timers and signals wait at most the
 * nap; every deadline here is a second or more.
 */
static void
run_loop(struct master *m)
{
	struct timespec nap = { 0, RUN_COALESCE_NS };

	for (;;) {
		if (event_base_loop(m->base, EVLOOP_ONCE) != 0 ||
		    event_base_got_exit(m->base) ||
		    event_base_got_break(m->base))
			return;
		if (m->state == M_RUNNING && m->nslaves >= RUN_COALESCE_SLAVES)
			nanosleep(&nap, NULL);
	}
}

int
run_all(const struct model *model, const struct plan *plan,
    const struct run_opts *o)
{
	struct master *m;
	struct errmsg e;
	int rc;

	if ((m = master_new(model, plan, o)) == NULL)
		return (RUN_EXIT_FAILED);
	signal(SIGPIPE, SIG_IGN);
	loop_priority();
	if (open_outputs(m) == 0 && open_loop(m) == 0) {
		name_slaves(m);
		m->msgscan = msgscan_start(m->base, m->model, o->outdir,
		    m->hosts, m->nhosts);
		report_status(m->rep, "Starting slaves", NULL, NULL);
		m->state = M_CONNECT;
		m->state_since_ns = mtime_now_ns();
		m->cur.interval_ns = 1000000000ull;
		if (launch_slaves(m, &e) != 0)
			master_abort(m, "%s", e.text);
		/* the 30 s to connect count from the last fork, not the
		 * first: forking 1,024 local slaves took 120 s on a machine
		 * at load 100, and the run stopped at once on "Slave h1-0
		 * did not connect within 30 seconds"; nor are the forks a
		 * stall of the loop */
		if (m->state == M_CONNECT) {
			m->state_since_ns = mtime_now_ns();
			m->loop.tick_last_ns = m->state_since_ns;
		}
		run_loop(m);
	}
	reap(m);
	msgscan_finish(m->msgscan);
	rc = m->rc;
	free_run_state(m);
	rc = close_outputs(m, rc);
	master_free(m);
	return (rc);
}
