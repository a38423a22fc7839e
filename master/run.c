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
#include <netinet/in.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <event2/event.h>

#include "auth.h"
#include "console.h"
#include "hist.h"
#include "hosts.h"
#include "html.h"
#include "iostats.h"
#include "link.h"
#include "log.h"
#include "model_json.h"
#include "mtime.h"
#include "merge.h"
#include "ofile.h"
#include "place.h"
#include "net.h"
#include "proto.h"
#include "remote.h"
#include "report.h"
#include "results.h"
#include "charts.h"
#include "tls.h"
#include "units.h"
#include "xmalloc.h"

static void	start_next_run(struct master *);
static int	live_count(const struct master *);
static void	slave_gone_continue(struct master *);
static void	check_run_end(struct master *);
static void	go(struct master *);
static void	check_ssh_exits(struct master *);
static int	build_fs_run(struct master *, const struct run *);
static const struct fsd *target_fsd(const struct model *, const char *);
static uint64_t	silence_ns(const struct master *);
static void	silence_arm(struct mslave *, uint64_t);

/* Index of an sd in the model. */
static int
sd_index(const struct model *m, const struct sd *s)
{
	const struct sd *x;
	int i = 0;

	TAILQ_FOREACH(x, &m->sds, entry) {
		if (x == s)
			return (i);
		i++;
	}
	return (-1);
}

/* The lun of an sd on a host ("" when it has none there). */
static const char *
sd_lun_on(const struct master *m, const struct sd *s, int host)
{
	const char *l = place_sd_lun(s, m->hosts[host].label);

	return (l != NULL ? l : "");
}

/* Any lun of an sd (raw or not is the same on every host). */
static const char *
sd_lun(const struct sd *s)
{
	return (s->nluns > 0 ? s->luns[0].lun : "");
}

/* Send to every slave still there. */
void
send_all(struct master *m, uint16_t type, json_t *body, int only_active)
{
	int i;

	for (i = 0; i < m->nslaves; i++) {
		struct mslave *s = &m->sl[i];

		if (s->link == NULL || s->lost || (only_active && !s->active))
			continue;
		link_send(s->link, type, json_deep_copy(body));
	}
	json_decref(body);
}

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

/* Stop everything with an error: reports say what happened. */
void
master_abort(struct master *m, const char *fmt, ...)
{
	char text[1024];
	va_list ap;

	if (m->aborting)
		return;
	m->aborting = 1;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	console_fatal("%s", text);
	report_error(m->rep, text);
	if (m->state == M_SETUP)
		console_line("vdbc: stopped while setting up run %s, before its "
		    "first interval; the reports hold everything up to there.",
		    m->cur.name);
	else if (m->state == M_RUNNING)
		console_line("vdbc: stopped during run %s after %u complete "
		    "interval(s); the reports hold everything up to there.",
		    m->cur.name, m->next_print > 0 ? m->next_print - 1 : 0);
	if (m->state == M_RUNNING && m->mg != NULL) {
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
		char st[1100];
		size_t j;

		snprintf(st, sizeof(st), "Vdbench stopped: %s", text);
		for (j = 0; st[j] != '\0'; j++)
			if (st[j] == '\t' || st[j] == '\n')
				st[j] = ' ';
		report_status(m->rep, "Shutting down slaves", NULL, NULL);
		report_status(m->rep, st, NULL, NULL);
	}
	if (m->state == M_RUNNING || m->state == M_SETUP) {
		char st[1100];

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
int
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

/*
 * --on-slave-loss=continue: a slave is gone, the others go on; what was
 * waiting for it may be complete now.
 */
static void
slave_gone_continue(struct master *m)
{
	int i, all = 1;

	if (active_count(m) == 0 && (m->state == M_RUNNING ||
	    m->state == M_SETUP)) {
		master_abort(m, "Every slave of run %s is lost", m->cur.name);
		return;
	}
	switch (m->state) {
	case M_SETUP:
		for (i = 0; i < m->nslaves; i++)
			all &= !m->sl[i].active || m->sl[i].lost ||
			    m->sl[i].ready;
		if (all)
			go(m);
		break;
	case M_RUNNING:
		print_ready_intervals(m);
		break;
	case M_STOPPING:
		check_run_end(m);
		break;
	default:
		break;
	}
}

/* A slave is gone: that stops the run on all the others. */
static void
slave_lost(struct mslave *s, const char *why)
{
	struct master *m = s->m;

	if (s->lost)
		return;
	s->lost = 1;
	if (m->state == M_SHUTDOWN && !m->aborting)
		return;			/* expected: we told it to go */
	if (m->o->loss_continue && !m->aborting && live_count(m) > 0 &&
	    (m->state == M_RUNNING || m->state == M_SETUP ||
	    m->state == M_STOPPING || m->state == M_PAUSE)) {
		char text[1024];
		size_t n = strlen(m->lost_names);

		snprintf(text, sizeof(text), "Slave %s (host %s) lost: %s; "
		    "going on without it (--on-slave-loss=continue): every "
		    "later interval lacks its I/O", s->name,
		    m->hosts[s->host].label, why);
		console_line("%s", text);
		report_error(m->rep, text);
		snprintf(m->lost_names + n, sizeof(m->lost_names) - n, "%s%s",
		    n > 0 ? "," : "", s->name);
		/* Should it wake up (SIGSTOP, a stalled network): stop it. */
		link_send(s->link, MSG_SHUTDOWN, NULL);
		if (s->pid > 0)
			kill(s->pid, SIGKILL);
		slave_gone_continue(m);
		return;
	}
	if (m->hosts[s->host].how == HOST_LOCAL)
		master_abort(m, "Slave %s (pid %d) lost: %s", s->name,
		    (int)s->pid, why);
	else
		master_abort(m, "Slave %s (pid %d) on host %s (%s) lost: %s",
		    s->name, s->remote_pid, m->hosts[s->host].label,
		    m->hosts[s->host].system, why);
}

static int	wd_key(const struct master *, const char *);

/* Slaves not lost. */
static int
live_count(const struct master *m)
{
	int i, n = 0;

	for (i = 0; i < m->nslaves; i++)
		n += !m->sl[i].lost;
	return (n);
}

/* Number of slaves taking part in the current run. */
int
active_count(const struct master *m)
{
	int i, n = 0;

	for (i = 0; i < m->nslaves; i++)
		n += m->sl[i].active && !m->sl[i].lost;
	return (n);
}

/* GO to every slave of the run. */
static void
go(struct master *m)
{
	int i;

	console_line("%s", m->cur.text);
	report_run_start(m->rep, m->cur.text, ++m->anchor);
	run_progress(m);
	results_run(m->res, m->cur.name, m->cur.plan_run != NULL ?
	    m->cur.plan_run->rd->name : "SD_format", m->cur.loops,
	    m->cur.rate_text, m->cur.req.reqrate, m->cur.plan_run != NULL ?
	    m->cur.plan_run->elapsed_s : 0,
	    m->cur.interval_ns / 1000000000ull, m->cur.plan_run != NULL ?
	    m->cur.plan_run->warmup_s : 0);
	merge_free(m->mg);
	m->mg = merge_new(report_nkeys(m->rep));
	m->next_print = 1;
	report_status(m->rep, "Starting", m->cur.name, m->cur.loops);
	m->cur.nactive = active_count(m);
	m->cur.avg_last = m->cur.short_first = m->cur.short_last = 0;
	for (i = 0; i < m->nslaves; i++)
		m->sl[i].eof = 0;
	m->anchors_row = 0;
	m->state = M_RUNNING;
	m->state_since_ns = mtime_now_ns();
	send_all(m, MSG_GO, json_pack("{s:I}", "run_id",
	    (json_int_t)m->run_id), 1);
}

/* The requested dedupratio= for the flatfile; -1 without dedup. */
static double
dedup_ratio(const struct model *model)
{
	const struct pvals *v = bag_get(&model->general.bag, "dedupratio");

	return (v != NULL && v->n >= 1 && v->v[0].is_num && v->v[0].num >= 1 ?
	    v->v[0].num : -1);
}

/* The pause= after a run is over. */
static void
pause_cb(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	start_next_run(arg);
}

/* RUN_END from a slave. */
static void
on_run_end(struct mslave *s)
{
	s->ended = 1;
	check_run_end(s->m);
}

/* When every slave still in the run has ended it: pause or go on. */
static void
check_run_end(struct master *m)
{
	int i;

	for (i = 0; i < m->nslaves; i++) {
		if (m->sl[i].active && !m->sl[i].lost && !m->sl[i].ended)
			return;
	}
	m->runs_done++;
	report_status(m->rep, "Slaves done", m->cur.name, m->cur.loops);
	if (m->cur.pause_s > 0) {
		struct timeval t = { (time_t)m->cur.pause_s, 0 };

		console_line("Waiting %llu seconds; requested by 'pause' "
		    "parameter", (unsigned long long)m->cur.pause_s);
		m->state = M_PAUSE;
		evtimer_add(m->pause_ev, &t);
		return;
	}
	start_next_run(m);
}

/* Engine of an sd: engine= from its bag, else aio with o_direct (where
 * libaio is truly asynchronous), else sync (DESIGN.md). */
static const char *
sd_engine(const struct sd *sd, const struct strlist *flags)
{
	const struct pvals *v = bag_get(&sd->bag, "engine");
	int i;

	if (v != NULL && v->n == 1)
		return (v->v[0].str);
	for (i = 0; i < flags->n; i++) {
		if (strcasecmp(flags->v[i], "o_direct") == 0 ||
		    strcasecmp(flags->v[i], "directio") == 0)
			return ("aio");
	}
	return ("sync");
}

/* Build the WORK "sds" entry of an sd for one slave (on host). */
static json_t *
work_sd(struct master *m, int host, const struct sd *sd, int threads,
    double rate, const struct strlist *flags, int create)
{
	const struct pvals *ow = bag_get(&sd->bag, "overwrite_data");
	const struct pvals *am = bag_get(&sd->bag, "allow_mounted_write");
	json_t *fl = json_array();
	int i;

	for (i = 0; i < flags->n; i++)
		json_array_append_new(fl, json_string(flags->v[i]));
	return (json_pack("{s:s,s:s,s:i,s:f,s:o,s:b,s:b,s:b,s:s}", "sd",
	    sd->name, "lun", sd_lun_on(m, sd, host), "threads", threads,
	    "rate_per_s", rate, "openflags", fl, "create", create ||
	    strcmp(sd_engine(sd, flags), "null") == 0, "overwrite", ow != NULL &&
	    ow->n == 1 && (strcasecmp(ow->v[0].str, "yes") == 0 ||
	    strcasecmp(ow->v[0].str, "y") == 0), "mounted_ok", am != NULL &&
	    am->n == 1 && (strcasecmp(am->v[0].str, "yes") == 0 ||
	    strcasecmp(am->v[0].str, "y") == 0), "engine",
	    sd_engine(sd, flags)));
}

/*
 * The address range of a WG (PARMFILE.md 12.6): r[0..1] the miss area,
 * r[2..3] the hit area, r[4..5] where a hotband past the end of the lun
 * wraps (end, start; 0 when it does not). -1 when too small.
 */
static int
wg_range(struct master *m, const struct sd *sd, const struct wd *wd,
    double hitarea, uint64_t r[6])
{
	int si = sd_index(m->model, sd);
	uint64_t size = m->sd_size[si], x = m->sd_xmax[si];
	const struct pvals *hb = bag_get(&wd->bag, "hotband");
	double hbr[2];
	const double *rg = wd->range_set ? wd->range : sd->range_set ?
	    sd->range : NULL;
	double lo, hi;
	uint64_t low, high, h = (uint64_t)hitarea;
	int wrap = 0;

	if (hb != NULL && hb->n == 2) {
		hbr[0] = hb->v[0].num;
		hbr[1] = hb->v[1].num;
		rg = hbr;
		wrap = hbr[1] > 100 && hbr[1] < 200;
	}
	lo = rg != NULL ? rg[0] : 0;
	hi = rg != NULL ? rg[1] : 100;
	if (x == 0)
		x = 512;
	low = lo <= 100 ? (uint64_t)(lo / 100 * (double)size) : (uint64_t)lo;
	high = hi <= 100 || wrap ? (uint64_t)(hi / 100 * (double)size) :
	    (uint64_t)hi;
	if (high > size && !wrap)
		high = size;
	r[0] = low + h;			/* miss area */
	r[1] = high;
	r[2] = low;			/* hit area */
	r[3] = low + h;
	r[4] = r[5] = 0;
	if (plan_lun_is_raw(sd_lun(sd))) {
		if (r[0] == 0)
			r[0] = x;
		if (r[2] == 0)
			r[2] = x;
	}
	r[0] = r[0] / x * x + sd->offset_bytes;
	r[1] = r[1] / x * x;
	r[2] = r[2] / x * x + sd->offset_bytes;
	r[3] = r[3] / x * x;
	if (wrap) {
		r[4] = size / x * x;
		r[5] = (plan_lun_is_raw(sd_lun(sd)) ? x : 0) + sd->offset_bytes;
		if (r[1] > r[4] + (r[4] - r[5]))
			r[1] = r[4] + (r[4] - r[5]);
	}
	if (r[1] < r[0] + 2 * x) {
		master_abort(m, "wd=%s,sd=%s: Lun space specified for either "
		    "cache hits or cache misses (%llu bytes) must be at least "
		    "twice the xfersize (%llu). Insufficient amount of lun size "
		    "specified", wd->name, sd->name, (unsigned long long)
		    (r[1] > r[0] ? r[1] - r[0] : 0), (unsigned long long)x);
		return (-1);
	}
	if (r[3] < r[2])
		r[3] = r[2];
	return (0);
}

/* One request value shared by every workload, or -1. */
static double
same_or_na(double cur, double v, int first)
{
	if (first)
		return (v);
	return (cur == v ? cur : -1);
}

/* Build the WORK of a planned run for every slave. */
static int
build_plan_run(struct master *m, const struct run *pr)
{
	struct lrun *c = &m->cur;
	struct run r = *pr;
	struct placement p;
	struct errmsg e;
	char rate[64], el[128], loops[1024];
	double observed = pr->curve_point ? m->curve_rate : m->prev_rate;
	int i, k, first = 1;
	double lunsize = 0;

	if (pr->nfwds > 0)
		return (build_fs_run(m, pr));
	report_set_fs(m->rep, 0, 0);
	memset(c, 0, sizeof(*c));
	if ((pr->curve_point || (pr->iorate < 0 &&
	    pr->iorate != RD_IORATE_CURVE)) && observed <= 0) {
		console_line("iorate=curve. No i/o rate observed. Was run too "
		    "short?");
		observed = 10000;
		if (pr->curve_point)
			m->curve_rate = observed;
	}
	if (pr->curve_point)
		r.iorate = plan_pct_rate(observed, pr->curve_pct);
	else if (pr->iorate < 0 && pr->iorate != RD_IORATE_CURVE)
		r.iorate = plan_pct_rate(observed, -pr->iorate);
	c->curve_max = pr->iorate == RD_IORATE_CURVE && !pr->curve_point;
	snprintf(c->name, sizeof(c->name), "%s", pr->name);
	plan_loops_text(pr, c->loops, sizeof(c->loops));
	snprintf(c->text, sizeof(c->text), "Starting RD=%s; I/O rate: %s; %s; "
	    "For loops: %s", pr->name, plan_rate_text(pr, observed, rate,
	    sizeof(rate)), plan_elapsed_text(pr, el, sizeof(el)),
	    plan_loops_text(pr, loops, sizeof(loops)));
	snprintf(c->rate_text, sizeof(c->rate_text), "%s", rate);
	c->nintervals = pr->nintervals;
	c->first_avg = pr->first_avg;
	c->interval_ns = pr->interval_s * 1000000000ull;
	c->pause_s = pr->rd->pause_s;
	c->plan_run = pr;
	c->req.reqrate = r.iorate == RD_IORATE_CURVE ? RD_IORATE_MAX :
	    r.iorate;
	c->req.compratio = run_loop_value(pr, LOOP_COMP,
	    m->model->general.compratio);
	c->req.dedupratio = dedup_ratio(m->model);
	{
		struct place_host *ph = xcalloc((size_t)m->nhosts,
		    sizeof(*ph));

		for (i = 0; i < m->nhosts; i++) {
			ph[i].label = m->hosts[i].label;
			ph[i].nslaves = m->hosts[i].nslaves;
		}
		k = place_run_hosts(&r, ph, m->nhosts, &p, &e);
		free(ph);
		if (k != 0) {
			master_abort(m, "%s", e.text);
			return (-1);
		}
	}
	c->skew_req = xcalloc((size_t)report_nkeys(m->rep), sizeof(double));
	for (k = 0; k < p.nwgs; k++) {
		int key = wd_key(m, p.wgs[k].wd->name);

		if (key >= 0)
			c->skew_req[key] += p.wgs[k].skew_pct;
	}
	for (i = 0; i < m->nslaves; i++) {
		json_t *sds = json_array(), *wgs = json_array();
		int n = 0;

		m->sl[i].has_eof = 0;
		for (k = 0; k < p.nsds; k++) {
			const struct sd *sd = p.sds[k].sd;
			const struct strlist *fl = pr->rd->openflags.n > 0 ?
			    &pr->rd->openflags : &sd->openflags;
			double rate_sum = 0;
			int g, nmax = 0;

			if (p.sds[k].slave != i)
				continue;
			for (g = 0; g < p.nwgs; g++) {
				if (p.wgs[g].sd != sd || p.wgs[g].slave != i)
					continue;
				rate_sum += p.wgs[g].rate_per_s;
				nmax += p.wgs[g].rate_per_s <= 0;
				if (pr->rd->openflags.n == 0 &&
				    p.wgs[g].wd->openflags.n > 0)
					fl = &p.wgs[g].wd->openflags;
			}
			json_array_append_new(sds, work_sd(m, m->sl[i].host, sd,
			    p.sds[k].threads, nmax > 0 ? 0 : rate_sum, fl, 0));
		}
		for (k = 0; k < p.nwgs; k++) {
			const struct place_wg *g = &p.wgs[k];
			const struct wd *wd = g->wd;
			struct xfer x;
			uint64_t rg[6];
			const struct pvals *st = bag_get(&wd->bag, "stride");
			json_t *wgj;
			double xs = run_loop_value(pr, LOOP_XFERSIZE, -1);
			double rdpct = run_loop_value(pr, LOOP_RDPCT,
			    wd->readpct);
			double rh = run_loop_value(pr, LOOP_RHPCT, wd->rhpct);
			double wh = run_loop_value(pr, LOOP_WHPCT, wd->whpct);
			double sk = run_loop_value(pr, LOOP_SEEKPCT,
			    wd->seekpct);
			double ha = rh + wh > 0 ? run_loop_value(pr,
			    LOOP_HITAREA, (double)g->sd->hitarea_bytes) : 0;
			double th = run_loop_value(pr, LOOP_THREADS,
			    g->sd->threads);

			if (i == 0) {
				c->req.xfersize = same_or_na(c->req.xfersize,
				    xs > 0 ? xs : wd->xfer.kind == XFER_SINGLE ?
				    (double)wd->xfer.size_bytes[0] : -1, first);
				c->req.rdpct = same_or_na(c->req.rdpct, rdpct,
				    first);
				c->req.rhpct = same_or_na(c->req.rhpct, rh,
				    first);
				c->req.whpct = same_or_na(c->req.whpct, wh,
				    first);
				c->req.seekpct = same_or_na(c->req.seekpct,
				    wd->seek_eof ? 0 : sk, first);
				c->req.threads = same_or_na(c->req.threads, th,
				    first);
				first = 0;
			}
			if (g->slave != i)
				continue;
			if (wg_range(m, g->sd, wd, ha, rg) != 0) {
				place_free(&p);
				return (-1);
			}
			if (xs > 0) {
				memset(&x, 0, sizeof(x));
				xfer_set_single(&x, (uint64_t)xs);
			} else
				xfer_copy(&x, &wd->xfer);
			wgj = json_pack("{s:s,s:s,s:f,s:f,"
			    "s:f,s:b,s:f,s:f,s:o,s:I,s:I,s:I,s:I,s:I}",
			    "wd", wd->name, "sd", g->sd->name, "skew_pct",
			    g->skew_pct, "readpct", rdpct, "seekpct", sk,
			    "seek_eof", wd->seek_eof, "rhpct", rh, "whpct", wh,
			    "xfer", xfer_to_json(&x), "low_bytes",
			    (json_int_t)rg[0], "high_bytes", (json_int_t)rg[1],
			    "hit_low_bytes", (json_int_t)rg[2],
			    "hit_high_bytes", (json_int_t)rg[3], "align_bytes",
			    (json_int_t)g->sd->align_bytes);
			if (bag_get(&wd->bag, "hotband") != NULL)
				json_object_set_new(wgj, "hot", json_true());
			if (rg[4] != 0) {
				json_object_set_new(wgj, "wrap_end_bytes",
				    json_integer((json_int_t)rg[4]));
				json_object_set_new(wgj, "wrap_to_bytes",
				    json_integer((json_int_t)rg[5]));
			}
			if (st != NULL && st->n == 2)
				json_object_set_new(wgj, "stride_bytes",
				    json_pack("[I,I]", (json_int_t)st->v[0].num,
				    (json_int_t)st->v[1].num));
			json_array_append_new(wgs, wgj);
			xfer_clear(&x);
			m->sl[i].has_eof |= wd->seek_eof;
			c->eof_run |= wd->seek_eof;
			n++;
		}
		if (n == 0) {
			json_decref(sds);
			json_decref(wgs);
			continue;
		}
		c->work[i] = json_pack("{s:o,s:o}", "sds", sds, "wgs", wgs);
	}
	for (k = 0; k < p.nsds; k++) {
		int dup = 0, j;

		for (j = 0; j < k; j++)
			dup |= p.sds[j].sd == p.sds[k].sd;
		if (!dup)
			lunsize += (double)m->sd_size[sd_index(m->model,
			    p.sds[k].sd)];
	}
	c->req.lunsize_gb = lunsize / (1024.0 * 1024 * 1024);
	place_free(&p);
	/* maxdata=: bytes, or a multiple (<= 100) of the run's lun sizes. */
	for (i = 0; i < 3; i++) {
		static const char *const kw[3] = { "maxdata", "maxdataread",
		    "maxdatawritten" };
		const struct pvals *v = bag_get(&pr->rd->bag, kw[i]);

		if (v == NULL || v->n != 1 || !v->v[0].is_num)
			continue;
		c->maxdata_dir = i;
		c->maxdata_bytes = v->v[0].num <= 100 ?
		    (uint64_t)(v->v[0].num * lunsize) : (uint64_t)v->v[0].num;
		units_whatsize(v->v[0].num, c->maxdata_text,
		    sizeof(c->maxdata_text));
		if (c->nintervals == 0 || c->maxdata_bytes == 0)
			c->maxdata_bytes = 0;
	}
	return (0);
}


/* fwd=format, when the parmfile has one (its threads, xfersize, flags). */
static const struct fwd *
format_fwd(const struct model *model)
{
	const struct fwd *f;

	TAILQ_FOREACH(f, &model->fwds, entry) {
		if (strcmp(f->name, "format") == 0)
			return (f);
	}
	return (NULL);
}

/* Whether an fwd runs on a host (fwd host=, default all). */
static int
fwd_on_host(const struct fwd *w, const char *label)
{
	int i;

	if (w == NULL || w->hosts.n == 0)
		return (1);
	for (i = 0; i < w->hosts.n; i++)
		if (place_host_match(w->hosts.v[i], label))
			return (1);
	return (0);
}

/* The hosts an fwd runs on. */
static int
fwd_nhosts(const struct master *m, const struct fwd *w)
{
	int i, n = 0;

	for (i = 0; i < m->nhosts; i++)
		n += fwd_on_host(w, m->hosts[i].label);
	return (n);
}

/*
 * The slaves that work on fsd f for fwd w (PARMFILE.md 10.1): a shared=yes
 * fsd on every slave of every host the fwd runs on, each taking its slice
 * of the files; otherwise on one slave, of the fwd's first host, the fsds
 * dealt round-robin over that host's slaves, so no two processes ever
 * clean or make one tree at the same time.
 */
static int
fs_slaves(const struct master *m, const struct fwd *w, const struct fsd *f,
    int *out)
{
	const struct fsd *x;
	int i, k, n = 0, ord = 0;

	TAILQ_FOREACH(x, &m->model->fsds, entry) {
		if (x == f)
			break;
		ord++;
	}
	for (i = 0; i < m->nhosts; i++) {
		const struct mhost *h = &m->hosts[i];

		if (!fwd_on_host(w, h->label) || h->nslaves < 1)
			continue;
		if (!f->shared) {
			out[0] = h->first + ord % h->nslaves;
			return (1);
		}
		for (k = 0; k < h->nslaves && n < RUN_MAX_SLAVES; k++)
			out[n++] = h->first + k;
	}
	return (n);
}

/*
 * One fwg per slave that gets fwd w on fsd: its threads dealt over those
 * slaves; each slave's threads get slices first..first+n-1 of total, so
 * no two threads share a file (fileio=(random,shared) aside).
 */
static void
add_fwgs(struct master *m, const struct fwd *w, const char *fwd,
    const struct fsd *fsd, const char *op, double readpct,
    const struct xfer *x, const char *fileio, const char *select,
    double stopafter, int threads, double rate, const struct strlist *flags,
    const char *target_anchor, double midpoint)
{
	int sl[RUN_MAX_SLAVES], nsl = fs_slaves(m, w, fsd, sl), s, i;
	int first = 0;

	for (s = 0; s < nsl && first < threads; s++) {
		int n = threads / nsl + (s < threads % nsl);

		i = sl[s];
		json_t *fl = json_array(), *g;
		const struct pvals *fv;
		int k;

		if (n == 0)
			continue;
		for (k = 0; k < flags->n; k++)
			json_array_append_new(fl, json_string(flags->v[k]));
		/* rd > fwd (or fwd=format) > fsd (PARMFILE.md 6.1) */
		if (flags->n == 0 && (fv = bag_get(&fsd->bag, "openflags")) !=
		    NULL) {
			for (k = 0; k < fv->n; k++)
				if (fv->v[k].str != NULL)
					json_array_append_new(fl,
					    json_string(fv->v[k].str));
		}
		g = json_pack("{s:s,s:s,s:s,s:s,s:o,s:f,s:f,s:i,s:i,s:i,s:f,"
		    "s:s,s:s,s:o}", "fwd", fwd, "fsd", fsd->name, "anchor",
		    fsd->anchor, "operation", op, "xfer", xfer_to_json(x),
		    "readpct", readpct, "stopafter", stopafter, "threads", n,
		    "thread_first", first, "thread_total", threads,
		    "rate_per_s", rate * n / threads, "fileio", fileio,
		    "fileselect", select, "openflags", fl);
		if (target_anchor != NULL)
			json_object_set_new(g, "target_anchor",
			    json_string(target_anchor));
		if (midpoint > 0)
			json_object_set_new(g, "poisson_midpoint",
			    json_real(midpoint));
		if (m->cur.work[i] == NULL)
			m->cur.work[i] = json_pack("{s:s,s:[],s:[],s:{}}",
			    "engine", "fs", "sds", "fwgs", "fs");
		json_array_append_new(json_object_get(m->cur.work[i], "fwgs"),
		    g);
		if (strcmp(select, "once") == 0 && strcmp(op, "format") != 0) {
			/* vdbench ends the run when every 'once' is through */
			m->sl[i].has_eof = 1;
			m->cur.eof_run = m->cur.once_run = 1;
		}
		first += n;
	}
}

/* fileio= as the slave takes it: random, sequential, random,shared, ... */
static const char *
fileio_word(const struct fwd *w)
{
	if (w->fileio_shared)
		return ("random,shared");
	if (w->fileio_delete)
		return ("sequential,delete");
	return (w->fileio != NULL ? w->fileio : "sequential");
}

/*
 * fileselect=poisson's midpoint: 3, or the number given with it
 * ((poisson,5), (poisson,midpoint=5), midpoint=5); 0 when not poisson.
 */
static double
select_midpoint(const struct fwd *w)
{
	const struct pvals *v = bag_get(&w->bag, "fileselect");
	double mid = 3;
	int i;

	if (w->fileselect == NULL || strcmp(w->fileselect, "poisson") != 0)
		return (0);
	for (i = 0; v != NULL && i < v->n; i++) {
		const char *s = v->v[i].str, *d;

		if (v->v[i].is_num)
			mid = v->v[i].num;
		else if (s != NULL && (d = strpbrk(s, "0123456789.")) != NULL)
			mid = atof(d);
	}
	return (mid);
}

/* A file-system run (PARMFILE.md 10): format_for_<rd> or the rd itself. */
static int
build_fs_run(struct master *m, const struct run *pr)
{
	static const struct strlist no_flags;
	struct lrun *c = &m->cur;
	const struct rd *rd = pr->rd;
	double rate = pr->iorate == RD_IORATE_MAX || pr->iorate ==
	    RD_IORATE_CURVE || pr->iorate < 0 ? 0 : pr->iorate;
	char loops[1024], el[128];
	unsigned int extra = 0;
	double skew_given = 0;
	int i, k, j, nfwgs = 0, skew_free = 0, nops = 1;
	const struct pvals *ops = bag_get(&rd->bag, "operations");

	memset(c, 0, sizeof(*c));
	for (i = 0; i < m->nslaves; i++)
		m->sl[i].has_eof = 0;
	snprintf(c->name, sizeof(c->name), "%s", pr->name);
	plan_loops_text(pr, c->loops, sizeof(c->loops));
	c->plan_run = pr;
	c->interval_ns = pr->interval_s * 1000000000ull;
	c->pause_s = rd->pause_s;
	c->req.reqrate = rate > 0 ? rate : RD_IORATE_MAX;
	c->req.compratio = m->model->general.compratio;
	c->req.dedupratio = -1;
	c->req.xfersize = c->req.threads = c->req.rdpct = -1;
	c->req.rhpct = c->req.whpct = c->req.seekpct = -1;
	c->fs = 1;
	if (pr->format_run) {
		const struct fwd *ff = format_fwd(m->model);
		struct xfer x;
		int threads = ff != NULL && ff->threads > 0 ? ff->threads : 8;
		int clean = plan_rd_format(rd, "yes") ||
		    plan_rd_format(rd, "clean");
		int only_clean = plan_rd_format(rd, "clean") &&
		    !plan_rd_format(rd, "yes") && !plan_rd_format(rd, "restart");

		snprintf(c->text, sizeof(c->text), "Starting RD=%s", pr->name);
		snprintf(c->rate_text, sizeof(c->rate_text), "max");
		c->format = 1;
		c->eof_run = 1;
		c->nintervals = 0;
		c->first_avg = 2;
		memset(&x, 0, sizeof(x));
		if (ff != NULL && ff->xfer.n > 0)
			xfer_set_single(&x, ff->xfer.size_bytes[0]);
		else
			xfer_set_single(&x, 128 * 1024);
		/* Each fsd once, whichever fwds use it. */
		for (i = 0; i < pr->nfwds; i++) {
			for (k = 0; k < pr->fwds[i].nfsds; k++) {
				const struct fsd *f = pr->fwds[i].fsds[k];
				int seen = 0, a, b;

				for (a = 0; a <= i; a++)
					for (b = 0; b < pr->fwds[a].nfsds &&
					    (a < i || b < k); b++)
						seen |= pr->fwds[a].fsds[b] == f;
				if (seen)
					continue;
				add_fwgs(m, pr->fwds[i].fwd, "format", f,
				    "format", -1, &x,
				    "sequential", "sequential", 0, threads, 0,
				    ff != NULL && ff->openflags.n > 0 ?
				    &ff->openflags : &rd->openflags, NULL, 0);
				nfwgs++;
			}
		}
		xfer_clear(&x);
		for (i = 0; i < m->nslaves; i++) {
			json_t *fs = m->cur.work[i] == NULL ? NULL :
			    json_object_get(m->cur.work[i], "fs");

			if (fs == NULL)
				continue;
			json_object_set_new(fs, "clean", json_boolean(clean ||
			    only_clean));
			json_object_set_new(fs, "restart", json_boolean(
			    plan_rd_format(rd, "restart")));
			json_object_set_new(fs, "dirs_only", json_boolean(
			    plan_rd_format(rd, "dir")));
			json_object_set_new(fs, "clean_only",
			    json_boolean(only_clean));
			m->sl[i].has_eof = 1;
		}
		report_set_fs(m->rep, 1, 0);
		/* format=(only,limited): the format stops after elapsed= */
		if (plan_rd_format(rd, "limited"))
			c->nintervals = pr->nintervals;
		return (nfwgs > 0 ? 0 : -1);
	}
	if (rate > 0)
		snprintf(c->rate_text, sizeof(c->rate_text), "%.0f", rate);
	else
		snprintf(c->rate_text, sizeof(c->rate_text), "max");
	plan_elapsed_text(pr, el, sizeof(el));
	plan_loops_text(pr, loops, sizeof(loops));
	if (snprintf(c->text, sizeof(c->text), "Starting RD=%s; %s; "
	    "fwdrate=%s. For loops: %s", pr->name, el, c->rate_text, loops) >=
	    (int)sizeof(c->text))
		c->text[sizeof(c->text) - 1] = '\0';
	c->nintervals = pr->nintervals;
	c->first_avg = pr->first_avg;
	if (ops != NULL && ops->n > 0)
		nops = ops->n;
	else
		ops = NULL;
	/* fwd skew= shares fwdrate=; the others split what is left. */
	for (i = 0; i < pr->nfwds; i++) {
		if (pr->fwds[i].fwd->skew_set)
			skew_given += pr->fwds[i].fwd->skew_pct;
		else
			skew_free++;
	}
	for (i = 0; i < pr->nfwds * nops; i++) {
		const struct fwd *w = pr->fwds[i / nops].fwd;
		double share = (w->skew_set ? w->skew_pct : skew_free > 0 ?
		    (100 - skew_given) / skew_free : 0) / nops;
		const char *op = ops != NULL ? ops->v[i % nops].str :
		    w->operation != NULL ? w->operation : "read";
		double th = run_loop_value(pr, LOOP_THREADS, w->threads > 0 ?
		    w->threads : 1), rdpct = run_loop_value(pr, LOOP_RDPCT,
		    w->readpct_set ? w->readpct : -1);
		double xs = run_loop_value(pr, LOOP_XFERSIZE, -1);
		int per_fsd, nf = pr->fwds[i / nops].nfsds;
		struct xfer x;

		for (j = 0; j < pr->nloops; j++)
			if (pr->loop_kind[j] == LOOP_OPERATION &&
			    pr->loop_str[j] != NULL)
				op = pr->loop_str[j];
		if (strcmp(op, "getattr") == 0)
			extra |= 1u << FSOP_GETATTR;
		if (strcmp(op, "setattr") == 0)
			extra |= 1u << FSOP_SETATTR;
		if (strcmp(op, "access") == 0)
			extra |= 1u << FSOP_ACCESS;
		if (strcmp(op, "copy") == 0)
			extra |= 1u << FSOP_COPY;
		if (strcmp(op, "move") == 0)
			extra |= 1u << FSOP_MOVE;
		/* rd operations=: the fwd's threads divided over them */
		per_fsd = (int)th / nops / (nf > 0 ? nf : 1);
		if (per_fsd < 1)
			per_fsd = 1;
		memset(&x, 0, sizeof(x));
		if (xs > 0)
			xfer_set_single(&x, (uint64_t)xs);
		else
			xfer_copy(&x, &w->xfer);
		for (k = 0; k < nf; k++) {
			add_fwgs(m, w, w->name, pr->fwds[i / nops].fsds[k],
			    op, rdpct,
			    &x, fileio_word(w),
			    w->fileselect != NULL ? w->fileselect :
			    "sequential", w->stopafter, per_fsd, rate *
			    share / 100 / nf, rd->openflags.n > 0 ?
			    &rd->openflags : w->openflags.n > 0 ?
			    &w->openflags : &no_flags, w->target != NULL &&
			    target_fsd(m->model, w->target) != NULL ?
			    target_fsd(m->model, w->target)->anchor : NULL,
			    select_midpoint(w));
			nfwgs++;
		}
		xfer_clear(&x);
	}
	report_set_fs(m->rep, 1, extra);
	for (i = 0; plan_rd_format(rd, "complete") && i < m->nslaves; i++) {
		json_t *fs = m->cur.work[i] == NULL ? NULL :
		    json_object_get(m->cur.work[i], "fs");

		if (fs != NULL)
			json_object_set_new(fs, "complete", json_true());
	}
	return (nfwgs > 0 ? 0 : -1);
}

/* Build the automatic SD_format run (PARMFILE.md 12.9). */
static void
build_format_run(struct master *m)
{
	struct lrun *c = &m->cur;
	uint64_t xfer = m->model->general.formatxfersize_bytes;
	int i, k, per_host[RUN_MAX_SLAVES] = { 0 };

	memset(c, 0, sizeof(*c));
	if (xfer == 0) {
		xfer = 128 * 1024;
		for (k = 0; k < m->nformat; k++) {
			if (m->format_sd[k]->size_bytes < 128 * 1024)
				xfer = 512;
		}
	}
	snprintf(c->name, sizeof(c->name), "SD_format");
	snprintf(c->loops, sizeof(c->loops), "threads=2 iorate=max");
	snprintf(c->rate_text, sizeof(c->rate_text), "Uncontrolled MAX");
	snprintf(c->text, sizeof(c->text), "Starting RD=SD_format; I/O rate: "
	    "Uncontrolled MAX; elapsed=(none); For loops: threads=2 "
	    "iorate=max");
	c->format = 1;
	c->eof_run = 1;
	c->first_avg = 2;
	c->interval_ns = 1000000000ull;
	c->req.reqrate = RD_IORATE_MAX;
	c->req.xfersize = (double)xfer;
	c->req.threads = 2;
	c->req.rdpct = 0;
	c->req.seekpct = 0;
	c->req.compratio = m->model->general.compratio;
	c->req.dedupratio = dedup_ratio(m->model);
	for (k = 0; k < m->nformat; k++) {
		const struct sd *sd = m->format_sd[k];
		struct xfer x;
		char wdname[300];
		json_t *sds, *wgs;

		const struct mhost *h = &m->hosts[m->format_host[k]];

		/* sequential: one slave each, dealt over the host's slaves */
		i = h->first + per_host[m->format_host[k]]++ % h->nslaves;
		if (c->work[i] == NULL)
			c->work[i] = json_pack("{s:[],s:[]}", "sds", "wgs");
		sds = json_object_get(c->work[i], "sds");
		wgs = json_object_get(c->work[i], "wgs");
		json_array_append_new(sds, work_sd(m, m->format_host[k], sd, 2,
		    0, &sd->openflags, 1));
		memset(&x, 0, sizeof(x));
		xfer_set_single(&x, xfer);
		snprintf(wdname, sizeof(wdname), "SD_format_%s", sd->name);
		json_array_append_new(wgs, json_pack("{s:s,s:s,s:f,s:f,s:f,s:b,"
		    "s:f,s:f,s:o,s:I,s:I,s:I,s:I,s:I}", "wd", wdname, "sd",
		    sd->name, "skew_pct", 100.0, "readpct", 0.0, "seekpct", 0.0,
		    "seek_eof", 1, "rhpct", 0.0, "whpct", 0.0, "xfer",
		    xfer_to_json(&x), "low_bytes",
		    (json_int_t)m->format_from[k], "high_bytes",
		    (json_int_t)sd->size_bytes, "hit_low_bytes", (json_int_t)0,
		    "hit_high_bytes", (json_int_t)0, "align_bytes",
		    (json_int_t)0));
		xfer_clear(&x);
		m->sl[i].has_eof = 1;
	}
	m->nformat = 0;
}

/* Free a slave's per-WG state of the last run. */
static void
slave_wg_free(struct mslave *s)
{
	free(s->prev);
	free(s->wg_keys);
	json_decref(s->wgs);
	s->wgs = NULL;
	s->prev = NULL;
	s->wg_keys = NULL;
	s->nwgs = 0;
}

/* The report key of a wd name, or -1. */
static int
wd_key(const struct master *m, const char *name)
{
	int i;

	for (i = 0; i < m->nwdkeys; i++) {
		if (strcmp(m->wdkey_name[i], name) == 0)
			return (m->wdkey[i]);
	}
	return (-1);
}

/* The report key of an fsd or fwd ("fsd", name), or -1. */
static int
fs_key(const struct master *m, const char *kind, const char *name)
{
	char want[300];
	int i;

	if (name == NULL)
		return (-1);
	snprintf(want, sizeof(want), "%s:%s", kind, name);
	for (i = 0; i < m->fskey_name.n; i++) {
		if (strcmp(m->fskey_name.v[i], want) == 0)
			return (m->fskey[i]);
	}
	return (-1);
}

/* Keys for the fsds and fwds the runs use, "format" for format runs. */
static void
open_fs_keys(struct master *m)
{
	int r, k, j, format = 0;

	for (r = 0; r < m->plan->nruns; r++) {
		const struct run *pr = &m->plan->runs[r];

		format |= pr->format_run && pr->nfwds > 0;
		for (k = 0; k < pr->nfwds; k++) {
			char n[300];

			for (j = 0; j < pr->fwds[k].nfsds; j++) {
				snprintf(n, sizeof(n), "fsd:%s",
				    pr->fwds[k].fsds[j]->name);
				if (fs_key(m, "fsd", pr->fwds[k].fsds[j]->name)
				    >= 0)
					continue;
				m->fskey = xreallocarray(m->fskey, (size_t)
				    m->fskey_name.n + 1, sizeof(int));
				m->fskey[m->fskey_name.n] = report_key_add(
				    m->rep, RKEY_FSD, pr->fwds[k].fsds[j]->name,
				    1);
				strlist_add(&m->fskey_name, n);
			}
		}
	}
	if (m->fskey_name.n > 0) {
		const struct fsd *f;

		m->anchor_w = 15;
		TAILQ_FOREACH(f, &m->model->fsds, entry)
			if ((int)strlen(f->anchor) > m->anchor_w)
				m->anchor_w = (int)strlen(f->anchor);
		/* RKEY_ANCHORS takes the anchor column width in with_hist. */
		m->key_anchors = report_key_add(m->rep, RKEY_ANCHORS, "anchors",
		    m->anchor_w);
	}
	if (format) {
		m->fskey = xreallocarray(m->fskey, (size_t)m->fskey_name.n + 1,
		    sizeof(int));
		m->fskey[m->fskey_name.n] = report_key_add(m->rep, RKEY_FWD,
		    "format", 1);
		strlist_add(&m->fskey_name, "fwd:format");
	}
	for (r = 0; r < m->plan->nruns; r++) {
		const struct run *pr = &m->plan->runs[r];

		for (k = 0; k < pr->nfwds; k++) {
			char n[300];

			if (pr->format_run || fs_key(m, "fwd",
			    pr->fwds[k].fwd->name) >= 0)
				continue;
			snprintf(n, sizeof(n), "fwd:%s", pr->fwds[k].fwd->name);
			m->fskey = xreallocarray(m->fskey, (size_t)
			    m->fskey_name.n + 1, sizeof(int));
			m->fskey[m->fskey_name.n] = report_key_add(m->rep,
			    RKEY_FWD, pr->fwds[k].fwd->name, 1);
			strlist_add(&m->fskey_name, n);
		}
	}
}

/* anchors.html rows from a slave's [{anchor, files, dirs, bytes,
 * full_files, full_bytes}]. */
static void
anchor_rows(struct master *m, json_t *anchors)
{
	json_t *v;
	size_t i;

	json_array_foreach(anchors, i, v) {
		const char *a = json_string_value(json_object_get(v, "anchor"));
		uint64_t size[3] = { 0 }, total[3] = { 0 }, wss[3] = { 0 };
		uint64_t ex[3], op[2] = { 0, 0 };
		const struct fsd *f, *fsd = NULL;

		if (a == NULL)
			continue;
		TAILQ_FOREACH(f, &m->model->fsds, entry)
			if (strcmp(f->anchor, a) == 0)
				fsd = f;
		if (fsd != NULL) {
			plan_anchor_size(fsd, &size[1], &size[0], &size[2]);
			if (fsd->totalsize_bytes > 0) {
				total[0] = size[0];
				total[1] = size[1];
				total[2] = fsd->totalsize_bytes;
			}
			if (fsd->wss_bytes > 0)
				wss[2] = fsd->wss_bytes;
		}
		ex[0] = (uint64_t)json_integer_value(json_object_get(v,
		    "files"));
		ex[1] = (uint64_t)json_integer_value(json_object_get(v,
		    "dirs"));
		ex[2] = (uint64_t)json_integer_value(json_object_get(v,
		    "bytes"));
		/* "Opened": the files at their full size (vdbench's full
		 * file count), as its report after a format shows */
		op[0] = (uint64_t)json_integer_value(json_object_get(v,
		    "full_files"));
		op[1] = (uint64_t)json_integer_value(json_object_get(v,
		    "full_bytes"));
		report_anchor_row(m->rep, m->key_anchors, m->anchor_w, a, size,
		    total, wss, ex, op);
	}
}

/* Per-WG state for a run: previous counters and the WG's report keys. */
static void
slave_wg_alloc(struct master *m, struct mslave *s, const json_t *wgs)
{
	const json_t *g;
	size_t i;

	s->nwgs = (int)json_array_size(wgs);
	s->wgs = json_incref((json_t *)wgs);
	s->prev = xcalloc((size_t)s->nwgs + 1, sizeof(*s->prev));
	s->wg_keys = xcalloc(MERGE_KEYS_PER_WG * (size_t)s->nwgs + 1,
	    sizeof(int));
	json_array_foreach(wgs, i, g) {
		const char *wd = json_string_value(json_object_get(g, "wd"));
		const char *sdn = json_string_value(json_object_get(g, "sd"));
		const struct sd *sd = sdn != NULL ? model_find_sd(m->model,
		    sdn) : NULL;
		int *k = &s->wg_keys[MERGE_KEYS_PER_WG * i];

		if (json_object_get(g, "fwd") != NULL) {
			k[0] = 0;
			k[1] = m->key_hosts[s->host];
			k[2] = m->key_slave[s->id];
			k[3] = fs_key(m, "fsd", json_string_value(
			    json_object_get(g, "fsd")));
			k[4] = fs_key(m, "fwd", json_string_value(
			    json_object_get(g, "fwd")));
			k[5] = k[6] = -1;
			continue;
		}
		k[0] = 0;
		k[1] = m->key_hosts[s->host];
		k[2] = m->key_slave[s->id];
		k[3] = sd != NULL ? m->key_sd[sd_index(m->model, sd)] : -1;
		k[4] = wd != NULL ? wd_key(m, wd) : -1;
		k[5] = sd != NULL && m->key_hostsd != NULL ?
		    m->key_hostsd[s->host * m->nmodel_sds +
		    sd_index(m->model, sd)] : -1;
		k[6] = sd != NULL && m->key_slavesd != NULL ?
		    m->key_slavesd[s->id * m->nmodel_sds + sd_index(m->model,
		    sd)] : -1;
	}
}

/* Open the host, slave, sd and wd reports (FORMATS.md 3). */
static void
open_key_reports(struct master *m)
{
	struct strlist wds = { 0, NULL, 0 };
	const struct pvals *rep = bag_get(&m->model->general.bag, "report");
	const struct sd *sd;
	char name[300];
	int i, r, w, k, si = 0, nsds = 0, host_detail = 0, slave_detail = 0;
	int no_sd = 0;

	for (i = 0; rep != NULL && i < rep->n; i++) {
		host_detail |= strcasecmp(rep->v[i].str, "host_detail") == 0;
		slave_detail |= strcasecmp(rep->v[i].str, "slave_detail") == 0;
		no_sd |= strcasecmp(rep->v[i].str, "no_sd_detail") == 0;
	}
	m->key_hosts = xcalloc((size_t)m->nhosts, sizeof(int));
	for (k = 0; k < m->nhosts; k++) {
		const struct mhost *h = &m->hosts[k];
		char link[2048], hn[400];

		m->key_hosts[k] = report_key_add(m->rep, RKEY_HOST, h->label,
		    0);
		for (i = h->first; i < h->first + h->nslaves; i++) {
			m->key_slave[i] = report_key_add(m->rep, RKEY_SLAVE,
			    m->sl[i].name, m->nslaves > 1);
			html_esc(hn, sizeof(hn), m->sl[i].name);
			snprintf(link, sizeof(link), "%-32s <A HREF=\"%s.html\">"
			    "%s summary</A>   <A HREF=\"%s.stdout.html\">%s "
			    "stdout</A>\n", "Link to slave summary report:",
			    hn, hn, hn, hn);
			report_key_text(m->rep, m->key_hosts[k], link);
		}
		snprintf(link, sizeof(link), "Link to /var/adm/messages:       "
		    "<A HREF=\"%s.var_adm_msgs.html\">messages</A>\n\n",
		    html_esc(hn, sizeof(hn), h->label));
		report_key_text(m->rep, m->key_hosts[k], link);
		report_host_messages(m->rep, h->label);
	}
	TAILQ_FOREACH(sd, &m->model->sds, entry)
		nsds++;
	m->key_sd = xcalloc((size_t)nsds + 1, sizeof(int));
	TAILQ_FOREACH(sd, &m->model->sds, entry) {
		int used = 0;

		for (k = 0; k < m->nformat; k++)
			used |= m->format_sd[k] == sd;
		for (r = 0; r < m->plan->nruns && !used; r++) {
			for (w = 0; w < m->plan->runs[r].nwds; w++) {
				for (k = 0; k < m->plan->runs[r].wds[w].nsds;
				    k++)
					used |= m->plan->runs[r].wds[w].sds[k] ==
					    sd;
			}
		}
		m->key_sd[si++] = used ? report_key_add(m->rep, no_sd ?
		    RKEY_SDQUIET : RKEY_SD, sd->name, 1) : -1;
	}
	m->nmodel_sds = nsds;
	open_fs_keys(m);
	if (host_detail || slave_detail) {
		if (host_detail)
			m->key_hostsd = xcalloc((size_t)(nsds * m->nhosts) +
			    1, sizeof(int));
		if (slave_detail)
			m->key_slavesd = xcalloc((size_t)(nsds * m->nslaves) +
			    1, sizeof(int));
		si = 0;
		TAILQ_FOREACH(sd, &m->model->sds, entry) {
			int used = m->key_sd[si] >= 0;

			for (k = 0; host_detail && k < m->nhosts; k++) {
				snprintf(name, sizeof(name), "%s.%s",
				    m->hosts[k].label, sd->name);
				m->key_hostsd[k * nsds + si] = used &&
				    place_sd_lun(sd, m->hosts[k].label) !=
				    NULL ? report_key_add(m->rep, RKEY_HOSTSD,
				    name, 0) : -1;
			}
			for (i = 0; slave_detail && i < m->nslaves; i++) {
				snprintf(name, sizeof(name), "%s.%s",
				    m->sl[i].name, sd->name);
				m->key_slavesd[i * nsds + si] = used ?
				    report_key_add(m->rep, RKEY_SLAVESD, name,
				    0) : -1;
			}
			si++;
		}
	}
	/* Workload reports when the run list has more than one workload. */
	for (k = 0; k < m->nformat; k++) {
		snprintf(name, sizeof(name), "SD_format_%s",
		    m->format_sd[k]->name);
		strlist_add(&wds, name);
	}
	for (r = 0; r < m->plan->nruns; r++) {
		for (w = 0; w < m->plan->runs[r].nwds; w++) {
			const char *n = m->plan->runs[r].wds[w].wd->name;
			int seen = 0;

			for (k = 0; k < wds.n; k++)
				seen |= strcmp(wds.v[k], n) == 0;
			if (!seen)
				strlist_add(&wds, n);
		}
	}
	m->nwdkeys = wds.n;
	m->wdkey_name = wds.v;
	m->wdkey = xcalloc((size_t)wds.n + 1, sizeof(int));
	for (k = 0; k < wds.n; k++)
		m->wdkey[k] = wds.n > 1 ? report_key_add(m->rep, RKEY_WD,
		    wds.v[k], 1) : -1;
}

/* data_errors=n (default 50): I/O errors a run tolerates. */
static json_int_t
data_errors(const struct model *model)
{
	const struct pvals *v = bag_get(&model->general.bag, "data_errors");

	if (v == NULL)
		v = bag_get(&model->general.bag, "dataerrors");
	if (v != NULL && v->n >= 1 && v->v[0].is_num && v->v[0].num >= 1)
		return ((json_int_t)v->v[0].num);
	return (50);
}

/*
 * dedupratio=, dedupunit= and dedupsets= of the general parameters as the
 * slaves take them; NULL without dedup. dedupunit defaults to 128k and
 * dedupsets to 5% (vdbench's defaults).
 */
static json_t *
dedup_json(const struct model *model)
{
	const struct pvals *r = bag_get(&model->general.bag, "dedupratio");
	const struct pvals *u = bag_get(&model->general.bag, "dedupunit");
	const struct pvals *k = bag_get(&model->general.bag, "dedupsets");

	if (r == NULL || r->n < 1 || !r->v[0].is_num || r->v[0].num < 1)
		return (NULL);
	return (json_pack("{s:f,s:I,s:f}", "ratio", r->v[0].num,
	    "unit_bytes", (json_int_t)(u != NULL && u->n >= 1 &&
	    u->v[0].is_num && u->v[0].num >= 512 ? u->v[0].num : 131072),
	    "sets", k != NULL && k->n >= 1 && k->v[0].is_num &&
	    k->v[0].num != 0 ? k->v[0].num : -5.0));
}

/* Send the current run's WORK. */
static void
send_work(struct master *m)
{
	json_t *model = model_to_json(m->model);
	json_t *edges = json_array(), *dd;
	unsigned int e;
	int i;

	for (e = 0; e < m->model->general.histogram.n; e++)
		json_array_append_new(edges, json_integer(
		    (json_int_t)m->model->general.histogram.edge_us[e]));
	m->run_id++;
	m->state = M_SETUP;
	m->state_since_ns = mtime_now_ns();
	for (i = 0; i < m->nslaves; i++) {
		struct mslave *s = &m->sl[i];
		json_t *w = m->cur.work[i];

		s->active = w != NULL && !s->lost;
		s->ready = s->ended = s->eof = 0;
		s->last_k = 0;
		s->elapsed_ns = 0;
		memset(s->cpu_avg, 0, sizeof(s->cpu_avg));
		s->cpu_avg_valid = 0;
		slave_wg_free(s);
		if (!s->active)
			continue;
		json_object_set(w, "histogram_edges_us", edges);
		/* each slave its own random streams (the seed stays common:
		 * dedup's patterns must agree across slaves) */
		json_object_set_new(w, "slave_index", json_integer(i));
		json_object_set_new(w, "max_errors",
		    json_integer(data_errors(m->model)));
		json_object_set_new(w, "compratio",
		    json_real(m->cur.req.compratio >= 1 ? m->cur.req.compratio :
		    1));
		if ((dd = dedup_json(m->model)) != NULL)
			json_object_set_new(w, "dedup", dd);
		json_object_set_new(w, "distribution", json_integer(
		    m->cur.plan_run != NULL ? (int)m->cur.plan_run->rd->distribution
		    : 0));
		slave_wg_alloc(m, s, json_object_get(w, "wgs") != NULL ?
		    json_object_get(w, "wgs") : json_object_get(w, "fwgs"));
		link_send(s->link, MSG_WORK, json_pack("{s:I,s:s,s:I,s:I,s:I,"
		    "s:b,s:O,s:o}", "run_id", (json_int_t)m->run_id, "run",
		    m->cur.name, "interval_ns", (json_int_t)m->cur.interval_ns,
		    "seed", (json_int_t)(m->o->seed & 0x7fffffffffffffffull),
		    "elapsed_s", (json_int_t)(m->cur.nintervals *
		    (m->cur.interval_ns / 1000000000ull)), "format",
		    m->cur.format, "model", model, "work", w));
		m->cur.work[i] = NULL;
	}
	json_decref(edges);
	json_decref(model);
	if (active_count(m) == 0)
		master_abort(m, "run %s has no work for any slave",
		    m->cur.name);
}

/* Start the next run, or finish. */
static void
start_next_run(struct master *m)
{
	int i;

	for (i = 0; i < RUN_MAX_SLAVES; i++) {
		json_decref(m->cur.work[i]);
		m->cur.work[i] = NULL;
	}
	free(m->cur.skew_req);
	m->cur.skew_req = NULL;
	if (m->nformat > 0) {
		build_format_run(m);
		send_work(m);
		return;
	}
	if (m->last_run != NULL && m->last_run->curve_point) {
		const struct pvals *sc = bag_get(&m->last_run->rd->bag,
		    "stopcurve");

		if (sc != NULL && sc->n == 1 && m->last_resp_ms > sc->v[0].num) {
			console_line("Vdbench terminating because of requested "
			    "'stopcurve=%g' with observed response time of "
			    "%.3f ms", sc->v[0].num, m->last_resp_ms);
			m->next_run = m->plan->nruns;
		}
	}
	if (m->next_run >= m->plan->nruns) {
		if (check_outputs(m) != 0)
			return;
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
	if (build_plan_run(m, &m->plan->runs[m->next_run++]) != 0)
		return;
	send_work(m);
}

/*
 * Slave 0's INFO luns of one host by name, the first of each name: a
 * lookup per sd and host was a walk of every lun (5,000 sds kept the
 * master busy past the slaves' 5 s heartbeat limit).
 */
static json_t *
lun_facts(const json_t *luns)
{
	json_t *o = json_object(), *v;
	size_t i;

	json_array_foreach(luns, i, v) {
		const char *l = NULL;
		int ex = 0;
		json_int_t sz = 0;

		json_unpack(v, "{s:s,s:b,s:I}", "lun", &l, "exists", &ex,
		    "size_bytes", &sz);
		if (l != NULL && json_object_get(o, l) == NULL)
			json_object_set(o, l, v);
	}
	return (o);
}

/* What slave 0 of a host said about a lun: exists, size. */
static void
lun_fact(const json_t *facts, const char *lun, int *exists,
    json_int_t *size)
{
	json_t *v = json_object_get(facts, lun);
	const char *l = NULL;

	*exists = 0;
	*size = 0;
	if (v != NULL)
		json_unpack(v, "{s:s,s:b,s:I}", "lun", &l, "exists", exists,
		    "size_bytes", size);
}

/* Order of sd pointers. */
static int
sd_ptr_cmp(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)*(const struct sd *const *)a;
	uintptr_t y = (uintptr_t)*(const struct sd *const *)b;

	return (x < y ? -1 : x > y);
}

/*
 * Every host's INFO answer is in: lun facts; decide on SD_format per sd
 * and host; start the first run. An sd's size is its size= or the
 * smallest of its luns over the hosts.
 */
static void
on_info(struct master *m)
{
	const struct sd *sd, **runs_sds = NULL;
	json_t **facts = xcalloc((size_t)m->nhosts + 1, sizeof(*facts));
	size_t nused = 0, cap = 0;
	int si = 0, said = 0, ready = 0, h, r, w, k;

	for (h = 0; h < m->nhosts; h++)
		facts[h] = lun_facts(json_array_get(m->info, (size_t)h));
	/* The sds the runs use, sorted: a bsearch per sd. */
	for (r = 0; r < m->plan->nruns; r++) {
		for (w = 0; w < m->plan->runs[r].nwds; w++) {
			for (k = 0; k < m->plan->runs[r].wds[w].nsds; k++) {
				if (nused == cap) {
					cap = cap < 64 ? 64 : 2 * cap;
					runs_sds = xreallocarray(runs_sds, cap,
					    sizeof(*runs_sds));
				}
				runs_sds[nused++] =
				    m->plan->runs[r].wds[w].sds[k];
			}
		}
	}
	if (nused > 0)
		qsort(runs_sds, nused, sizeof(*runs_sds), sd_ptr_cmp);
	TAILQ_FOREACH(sd, &m->model->sds, entry) {
		int used, known = 0;
		uint64_t smallest = 0;

		used = nused > 0 && bsearch(&sd, runs_sds, nused,
		    sizeof(*runs_sds), sd_ptr_cmp) != NULL;
		for (h = 0; h < m->nhosts; h++) {
			const char *lun = place_sd_lun(sd, m->hosts[h].label);
			json_int_t size;
			int exists;

			if (lun == NULL)
				continue;
			lun_fact(facts[h], lun, &exists, &size);
			if (exists && (!known || (uint64_t)size < smallest))
				smallest = (uint64_t)size;
			known |= exists;
		}
		m->sd_size[si] = sd->size_bytes > 0 ? sd->size_bytes :
		    smallest;
		si++;
		for (h = 0; used && h < m->nhosts; h++) {
			const char *lun = place_sd_lun(sd, m->hosts[h].label);
			json_int_t size;
			int exists, rc;
			struct errmsg e;

			if (lun == NULL)
				continue;
			lun_fact(facts[h], lun, &exists, &size);
			rc = plan_sd_needs_format(sd, lun, exists,
			    (uint64_t)size, m->model->general.formatsds, &e);
			if (rc < 0) {
				master_abort(m, "%s", e.text);
				goto out;
			}
			if (rc == 0 && !exists) {
				master_abort(m, "sd=%s,lun=%s: the lun does not "
				    "exist on host %s", sd->name, lun,
				    m->hosts[h].label);
				goto out;
			}
			if (rc == 0 && m->sd_size[si - 1] == 0) {
				master_abort(m, "Unknown lun size for sd=%s",
				    sd->name);
				goto out;
			}
			if (rc > 0 && strcmp(sd_engine(sd, &sd->openflags),
			    "null") == 0) {
				console_line("sd=%s,lun=%s: engine=null does no "
				    "I/O, so the lun is not formatted (an empty "
				    "file is made if there is none)", sd->name,
				    lun);
			} else if (rc > 0) {
				if (m->nformat == m->format_cap) {
					m->format_cap = m->format_cap == 0 ?
					    64 : 2 * m->format_cap;
					m->format_sd = xreallocarray(
					    m->format_sd, (size_t)m->format_cap,
					    sizeof(*m->format_sd));
					m->format_host = xreallocarray(
					    m->format_host, (size_t)m->format_cap,
					    sizeof(*m->format_host));
					m->format_from = xreallocarray(
					    m->format_from, (size_t)m->format_cap,
					    sizeof(*m->format_from));
				}
				if (!said++)
					console_line("Vdbench will attempt to "
					    "expand a disk file if the requested "
					    "file size is a multiple of 1mb");
				console_line("lun=%s does not exist or is too "
				    "small. host=%s", lun, m->hosts[h].label);
				m->format_sd[m->nformat] = sd;
				m->format_host[m->nformat] = h;
				m->format_from[m->nformat] = exists ?
				    (uint64_t)size / RUN_FORMAT_ALIGN *
				    RUN_FORMAT_ALIGN : 0;
				if (m->model->general.formatsds == 1)
					m->format_from[m->nformat] = 0;
				m->nformat++;
			}
		}
	}
	report_status(m->rep, "Query host configuration completed", NULL, NULL);
	m->had_format = m->nformat > 0;
	open_key_reports(m);
	report_rd_links(m->rep, m->plan, m->nformat > 0);
	ready = 1;
out:
	for (h = 0; h < m->nhosts; h++)
		json_decref(facts[h]);
	free(facts);
	free(runs_sds);
	if (ready)
		start_next_run(m);
}

/* One message from a known slave. */
static void
slave_dispatch(struct link *l, uint16_t type, json_t *body, uint32_t tag,
    void *arg)
{
	struct mslave *s = arg;
	struct master *m = s->m;
	const char *text = "", *level = "";
	int i;

	(void)tag;
	if (body == NULL) {
		slave_lost(s, link_error(l));
		return;
	}
	if (s->lost)
		return;			/* given up on (continue mode) */
	s->last_heard_ns = mtime_now_ns();
	switch (type) {
	case MSG_HEARTBEAT:
		break;
	case MSG_INFO:
		if (m->state == M_INFO && s->id == m->hosts[s->host].first &&
		    json_array_get(m->info, (size_t)s->host) == json_null()) {
			json_array_set(m->info, (size_t)s->host,
			    json_object_get(body, "luns"));
			if (--m->info_waiting == 0)
				on_info(m);
		}
		break;
	case MSG_READY:
		if (m->state != M_SETUP || !s->active)
			break;
		if (!m->anchors_first && m->key_anchors >= 0 &&
		    json_object_get(body, "anchors") != NULL) {
			m->anchors_first = 1;	/* the state before any run */
			anchor_rows(m, json_object_get(body, "anchors"));
		}
		s->ready = 1;
		cpu_baseline(s, json_object_get(body, "cpu"));
		for (i = 0; i < m->nslaves; i++) {
			if (m->sl[i].active && !m->sl[i].lost &&
			    !m->sl[i].ready)
				return;
		}
		go(m);
		break;
	case MSG_INTERVAL:
		on_interval(s, body);
		break;
	case MSG_RUN_END:
		if (m->state == M_STOPPING && s->active &&
		    !m->anchors_row && m->key_anchors >= 0 &&
		    json_object_get(body, "anchors") != NULL) {
			m->anchors_row = 1;	/* one slave's view will do */
			anchor_rows(m, json_object_get(body, "anchors"));
		}
		if (m->state == M_STOPPING && s->active)
			on_run_end(s);
		break;
	case MSG_ERROR:
		json_unpack(body, "{s:s}", "text", &text);
		master_abort(m, "Slave %s: %s", s->name, text);
		break;
	case MSG_LOG:
		json_unpack(body, "{s:s,s:s}", "level", &level, "text", &text);
		console_line("%s: %s", s->name, text);
		if (strcmp(level, "error") == 0)
			report_error(m->rep, text);
		break;
	default:
		master_abort(m, "Slave %s sent an unexpected %s", s->name,
		    proto_type_name(type));
		break;
	}
}

/*
 * A slave's clock against ours at HELLO (one way, so it includes the
 * network delay): printed, and a warning above 10 % of the interval.
 */
static void
clock_offset(struct master *m, struct mslave *s, int64_t off_ns)
{
	uint64_t ins = m->plan->nruns > 0 ? m->plan->runs[0].interval_s *
	    1000000000ull : 1000000000ull;
	double ms = (double)off_ns / 1e6;

	s->clock_offset_ns = off_ns;
	if (m->hosts[s->host].how == HOST_LOCAL)
		return;
	console_line("Slave %s: clock offset %+.3f ms from the master", s->name,
	    ms);
	if ((double)llabs(off_ns) > 0.1 * (double)ins)
		console_line("Warning: the clock of slave %s (host %s) is %+.3f "
		    "ms off the master's, over 10%% of the %llu s interval; "
		    "interval times will not line up (run NTP)", s->name,
		    m->hosts[s->host].label, ms,
		    (unsigned long long)(ins / 1000000000u));
}

/* A connection is no longer pending (its link is freed or handed on). */
static void
pending_done(struct pending *p)
{
	struct master *m = p->m;

	TAILQ_REMOVE(&m->pending, p, entry);
	free(p);
	listener_done(m->listener);
}

/* A connection that has not said HELLO yet. */
static void
pending_dispatch(struct link *l, uint16_t type, json_t *body, uint32_t tag,
    void *arg)
{
	struct pending *p = arg;
	struct master *m = p->m;
	const char *name = "", *cookie = NULL;
	json_int_t pid = 0, clock_ns = 0;
	int64_t now = (int64_t)mtime_wall_ns();
	int major = 0, i, all = 1;

	(void)tag;
	if (body == NULL || type != MSG_HELLO) {
		console_line("vdbc: closed a connection from %s before HELLO: "
		    "%s", p->peer, body != NULL ? "it spoke first" :
		    link_error(l)[0] != '\0' ? link_error(l) : "it went away");
		link_free(l);
		pending_done(p);
		return;
	}
	json_unpack(body, "{s:i,s:s,s:I,s:I,s?s}", "major", &major, "slave",
	    &name, "pid", &pid, "clock_wall_ns", &clock_ns, "cookie", &cookie);
	for (i = 0; i < m->nslaves; i++) {
		struct mslave *s = &m->sl[i];

		if (strcmp(s->name, name) != 0)
			continue;
		if (m->hosts[s->host].how != HOST_LOCAL && !link_is_tls(l)) {
			console_line("vdbc: closed a connection from %s: HELLO "
			    "as slave %s of another host without TLS", p->peer,
			    name);
			break;
		}
		if (s->hello)
			continue;
		if (cookie == NULL || strcmp(cookie, s->cookie) != 0) {
			console_line("vdbc: closed a connection from %s: HELLO "
			    "as slave %s without its cookie", p->peer, name);
			break;
		}
		s->hello = 1;
		s->link = l;
		if (s->pid <= 0)
			s->remote_pid = (int)pid;
		{
			char st[128];

			snprintf(st, sizeof(st), "Slave %s (pid %6d) connected "
			    "to master %d", s->name, (int)pid, (int)getpid());
			report_status(m->rep, st, NULL, NULL);
		}
		clock_offset(m, s, (int64_t)clock_ns - (int64_t)now);
		s->last_heard_ns = mtime_now_ns();
		silence_arm(s, silence_ns(m));
		link_set_dispatch(l, slave_dispatch, s);
		link_set_deadline(l, NULL, NULL);
		link_set_max_frame(l, PROTO_MAX_LEN);
		pending_done(p);
		for (i = 0; i < m->nslaves; i++)
			all &= m->sl[i].hello;
		if (all && m->state == M_CONNECT) {
			int h;

			console_line("All slaves are now connected");
			report_status(m->rep, "Slaves connected", NULL, NULL);
			report_status(m->rep, "Query host configuration started",
			    NULL, NULL);
			m->state = M_INFO;
			m->state_since_ns = mtime_now_ns();
			m->info = json_array();
			m->info_waiting = m->nhosts;
			/* Slave 0 of each host looks at that host's luns. */
			for (h = 0; h < m->nhosts; h++) {
				json_t *luns = json_array();
				const struct sd *sd;

				json_array_append_new(m->info, json_null());
				TAILQ_FOREACH(sd, &m->model->sds, entry) {
					const char *lun = place_sd_lun(sd,
					    m->hosts[h].label);

					if (lun != NULL)
						json_array_append_new(luns,
						    json_string(lun));
				}
				link_send(m->sl[m->hosts[h].first].link,
				    MSG_INFO, json_pack("{s:o}", "luns", luns));
			}
		}
		return;
	}
	if (i == m->nslaves)
		log_warn("HELLO from unknown slave '%s'; closing it", name);
	link_free(l);
	pending_done(p);
}

/* The TLS key of a remote slave dialling back: from its cookie. */
static int
slave_psk(const char *identity, uint8_t psk[TLS_PSK_BYTES], void *arg)
{
	struct master *m = arg;
	int i;

	for (i = 0; i < m->nslaves; i++) {
		const struct mslave *s = &m->sl[i];

		if (strcmp(s->name, identity) == 0 && !s->hello &&
		    m->hosts[s->host].how != HOST_LOCAL) {
			tls_psk_derive(s->cookie, strlen(s->cookie),
			    TLS_LABEL_SLAVE, psk);
			return (0);
		}
	}
	return (-1);
}

/*
 * A slave dials in. Until its HELLO names it and shows its cookie it is
 * a stranger: small frames only, RUN_HELLO_S to say HELLO, and at most
 * RUN_MAX_UNPROVED strangers at a time (then accepting waits). A local
 * slave speaks plain; a remote one dialling back speaks TLS.
 */
static void
accept_cb(int fd, const char *peer, void *arg)
{
	struct timeval t = { RUN_HELLO_S, 0 };
	struct master *m = arg;
	struct pending *p;
	char why[64];

	if (fd < 0) {
		log_warn("cannot accept a slave's connection on port %d: %s; "
		    "trying again in a second", m->port, strerror(errno));
		return;
	}
	p = xcalloc(1, sizeof(*p));
	p->m = m;
	snprintf(p->peer, sizeof(p->peer), "%s", peer);
	if ((p->link = link_new_sniff(m->base, fd, m->tls, pending_dispatch,
	    p)) == NULL) {
		close(fd);
		free(p);
		listener_done(m->listener);
		return;
	}
	TAILQ_INSERT_TAIL(&m->pending, p, entry);
	snprintf(why, sizeof(why), "no HELLO within %d s", RUN_HELLO_S);
	link_set_max_frame(p->link, LINK_UNPROVED_MAX);
	link_set_deadline(p->link, &t, why);
}

/* Every second: heartbeats out, silence and phase timeouts checked. */
static void
tick_cb(evutil_socket_t fd, short what, void *arg)
{
	struct master *m = arg;
	uint64_t now = mtime_now_ns();
	int i;

	(void)fd;
	(void)what;
	if (m->state == M_SHUTDOWN)
		return;
	if (m->state == M_CONNECT) {
		check_ssh_exits(m);
		if (m->aborting)
			return;
	}
	for (i = 0; i < m->nslaves; i++) {
		struct mslave *s = &m->sl[i];

		if (s->lost)
			continue;
		if (!s->hello) {
			if (now - m->state_since_ns > RUN_CONNECT_NS) {
				master_abort(m, "Slave %s did not connect "
				    "within 30 seconds", s->name);
				return;
			}
			continue;
		}
		/* silence: silence_cb, at each slave's own deadline */
		link_send(s->link, MSG_HEARTBEAT, json_pack("{s:I}", "seq",
		    (json_int_t)(now / 1000000000u)));
	}
	if (m->state == M_SETUP && now - m->state_since_ns > RUN_SETUP_NS)
		master_abort(m, "The slaves did not get ready for run %s "
		    "within 120 seconds", m->cur.name);
}

/* A peer silent this long is lost: max(2 intervals, 5 s) (DESIGN.md). */
static uint64_t
silence_ns(const struct master *m)
{
	uint64_t silence = 2 * m->cur.interval_ns;

	return (silence < RUN_MIN_SILENCE_NS ? RUN_MIN_SILENCE_NS : silence);
}

static void	silence_cb(evutil_socket_t, short, void *);

/* (Re)arm a slave's silence timer to fire in ns. */
static void
silence_arm(struct mslave *s, uint64_t ns)
{
	struct timeval tv;

	if (s->silence_ev == NULL)
		s->silence_ev = evtimer_new(s->m->base, silence_cb, s);
	tv.tv_sec = (time_t)(ns / 1000000000u);
	tv.tv_usec = (suseconds_t)(ns % 1000000000u / 1000u);
	evtimer_add(s->silence_ev, &tv);
}

/*
 * A slave's deadline: lost when nothing came since; else armed again for
 * the new deadline. One timer per peer at its deadline, so the promise
 * holds to the event loop's latency, not to a 1 s tick.
 */
static void
silence_cb(evutil_socket_t fd, short what, void *arg)
{
	struct mslave *s = arg;
	struct master *m = s->m;
	uint64_t now = mtime_now_ns(), lim = silence_ns(m);

	(void)fd;
	(void)what;
	if (s->lost || m->state == M_SHUTDOWN)
		return;
	if (now - s->last_heard_ns >= lim) {
		slave_lost(s, "silent for too long (no heartbeat)");
		return;
	}
	silence_arm(s, s->last_heard_ns + lim - now);
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

/*
 * Listen on the port (5570 and the next ones, or any with 0): loopback
 * when every slave is local, else --master-addr or every address (the
 * slaves prove themselves with their cookies).
 */
static int
listen_port(struct master *m, int port)
{
	const char *addr = "127.0.0.1";
	struct errmsg e;
	int tries = port < 0 ? 8 : 1, i, h;

	for (h = 0; h < m->nhosts; h++) {
		if (m->hosts[h].how != HOST_LOCAL)
			addr = m->o->master_addr;	/* NULL: any */
	}
	if (port < 0)
		port = m->model->general.port > 0 ? m->model->general.port :
		    5570;
	for (i = 0; i < tries; i++) {
		m->listen_fd = net_listen(addr, port == 0 ? 0 : port + i,
		    &m->port, &e);
		if (m->listen_fd >= 0)
			return (0);
	}
	return (-1);
}

/*
 * Fork and exec one local slave, its output into <name>.stdout.html and
 * its cookie down a pipe on its standard input (never on a command line).
 */
static int
launch(struct master *m, struct mslave *s)
{
	char exe[4096], hp[64], path[4200];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	int fd, cpu = s->id == m->hosts[s->host].first, pp[2];
	pid_t pid;

	if (n <= 0 || pipe2(pp, O_CLOEXEC) != 0)
		return (-1);
	exe[n] = '\0';
	snprintf(hp, sizeof(hp), "127.0.0.1:%d", m->port);
	snprintf(path, sizeof(path), "%s/%s.stdout.html", m->o->outdir,
	    s->name);
	console_line("Starting slave: %s slave --connect %s --name %s%s", exe,
	    hp, s->name, cpu ? " --cpu" : "");
	if ((pid = fork()) < 0) {
		close(pp[0]);
		close(pp[1]);
		return (-1);
	}
	if (pid == 0) {
		char *argv[] = { exe, (char *)"slave", (char *)"--connect", hp,
		    (char *)"--name", s->name, (char *)"--parent-death",
		    (char *)"--cookie-stdin", cpu ? (char *)"--cpu" : NULL,
		    NULL };

		if ((fd = ofile_open(path)) >= 0) {
			char hn[400];

			html_esc(hn, sizeof(hn), s->name);
			dprintf(fd, "<title>Vdbench %s.stdout.html</title><pre>"
			    "\nstdout/stderr for slave=%s\n", hn, hn);
			dup2(fd, 1);
			dup2(fd, 2);
			close(fd);
			/* its log lines go into a page: escaped */
			setenv("VDBC_LOG_HTML", "1", 1);
		}
		dup2(pp[0], 0);
		execv(exe, argv);
		_exit(127);
	}
	close(pp[0]);
	if (write(pp[1], s->cookie, strlen(s->cookie)) < 0 ||
	    write(pp[1], "\n", 1) < 0)
		log_warn("slave %s: cannot hand over its cookie", s->name);
	close(pp[1]);
	s->pid = pid;
	return (0);
}

/* A daemon answered: its slaves are on their way, or it refused. */
static void
remote_done(void *arg, const struct mhost *h, int ok, const char *text)
{
	struct master *m = arg;
	int i;

	if (ok) {
		console_line("%s", text);
		return;
	}
	if (m->state == M_CONNECT) {
		master_abort(m, "%s", text);
		return;
	}
	/*
	 * The session with a daemon ended after it started the slaves
	 * (closed, or a TLS record that failed its check): the daemon stops
	 * the host's slaves once its master is gone, so they are lost now,
	 * named with the reason, not seconds later as "closed by the peer".
	 */
	for (i = 0; i < m->nslaves; i++) {
		struct mslave *s = &m->sl[i];

		if (&m->hosts[s->host] == h && !s->lost)
			slave_lost(s, text);
	}
	if (m->state == M_SHUTDOWN && !m->aborting)
		return;
	log_warn("%s (host %s)", text, h->label);
}

/*
 * A daemon says one of its slaves exited. One that never said HELLO is
 * lost now, with the daemon's words (its own are in the daemon's log),
 * rather than after the 30 s connect wait; one that did is handled when
 * its own link closes.
 */
static void
remote_exited(void *arg, const struct mhost *h, const char *slave,
    const char *text)
{
	struct master *m = arg;
	int i;

	for (i = 0; i < m->nslaves; i++) {
		struct mslave *s = &m->sl[i];
		char why[400];

		if (&m->hosts[s->host] != h || strcmp(s->name, slave) != 0 ||
		    s->hello || s->lost)
			continue;
		snprintf(why, sizeof(why), "the daemon at %s says it exited "
		    "before it dialled back (%s); its output is in the "
		    "daemon's log there", h->system, text);
		slave_lost(s, why);
	}
}

/* Start a remote slave through ssh (or rsh). */
static int
launch_ssh(struct master *m, struct mslave *s)
{
	const struct mhost *h = &m->hosts[s->host];
	const char *cmd = h->how == HOST_RSH ? "rsh" : m->o->ssh != NULL ?
	    m->o->ssh : "ssh";
	char addr[256], connect[300], vdbc[4096], path[4200];
	struct errmsg e;

	if (m->o->master_addr != NULL)
		snprintf(addr, sizeof(addr), "%s", m->o->master_addr);
	else if (remote_route_addr(h->system, addr, sizeof(addr)) != 0) {
		master_abort(m, "hd=%s: no route to system=%s from here; give "
		    "--master-addr", h->label, h->system);
		return (-1);
	}
	snprintf(connect, sizeof(connect), strchr(addr, ':') != NULL ?
	    "[%s]:%d" : "%s:%d", addr, m->port);
	remote_vdbc_path(h, vdbc, sizeof(vdbc));
	snprintf(path, sizeof(path), "%s/%s.stdout.html", m->o->outdir,
	    s->name);
	console_line("Starting slave %s on hd=%s: %s %s '%s slave --connect %s "
	    "--name %s'", s->name, h->label, cmd, h->system, vdbc, connect,
	    s->name);
	s->pid = remote_ssh(h, cmd, vdbc, connect, s->name, s->cookie,
	    s->id == h->first, path, &e);
	if (s->pid < 0) {
		s->pid = 0;
		master_abort(m, "%s", e.text);
		return (-1);
	}
	s->via_ssh = 1;
	return (0);
}

/* The last lines of a file, joined by " / ", for an error message. */
static void
file_tail(const char *path, char *buf, size_t len)
{
	char line[512], last[3][512] = { "", "", "" };
	FILE *f = fopen(path, "r");
	int n = 0, i;

	buf[0] = '\0';
	if (f == NULL)
		return;
	while (fgets(line, sizeof(line), f) != NULL) {
		line[strcspn(line, "\r\n")] = '\0';
		if (line[0] == '\0' || strncmp(line, "<title>", 7) == 0 ||
		    strncmp(line, "stdout/stderr for slave", 23) == 0)
			continue;
		snprintf(last[n++ % 3], sizeof(last[0]), "%s", line);
	}
	fclose(f);
	for (i = n > 3 ? n - 3 : 0; i < n; i++) {
		size_t l = strlen(buf);

		snprintf(buf + l, len - l, "%s%s", l > 0 ? " / " : "",
		    last[i % 3]);
	}
}

/* An ssh that ended before its slave said HELLO: ssh's own words. */
static void
check_ssh_exits(struct master *m)
{
	int i, st;

	for (i = 0; i < m->nslaves; i++) {
		struct mslave *s = &m->sl[i];
		char path[4200], msg[1600];

		if (!s->via_ssh || s->hello || s->gone || s->pid <= 0 ||
		    waitpid(s->pid, &st, WNOHANG) != s->pid)
			continue;
		s->gone = 1;
		snprintf(path, sizeof(path), "%s/%s.stdout.html",
		    m->o->outdir, s->name);
		file_tail(path, msg, sizeof(msg));
		master_abort(m, "hd=%s: slave %s did not start: %s exited "
		    "with status %d: %s", m->hosts[s->host].label, s->name,
		    m->o->ssh != NULL ? m->o->ssh : "ssh", WIFEXITED(st) ?
		    WEXITSTATUS(st) : 128 + WTERMSIG(st), msg[0] != '\0' ?
		    msg : "(it said nothing)");
		return;
	}
}

/* Start a remote host's slaves through its daemon. */
static int
launch_remote(struct master *m, int hi)
{
	const struct mhost *h = &m->hosts[hi];
	char *names[RUN_MAX_SLAVES], *cookies[RUN_MAX_SLAVES];
	struct errmsg e;
	int i;

	for (i = 0; i < h->nslaves; i++) {
		names[i] = m->sl[h->first + i].name;
		cookies[i] = m->sl[h->first + i].cookie;
	}
	console_line("Starting %d slave(s) on hd=%s through its daemon at %s",
	    h->nslaves, h->label, h->system);
	for (i = 0; i < h->nslaves; i++) {
		char path[4200], hn[400], hl[400], hs[400];
		FILE *f;
		int bad;

		snprintf(path, sizeof(path), "%s/%s.stdout.html", m->o->outdir,
		    names[i]);
		if ((f = ofile_fopen(path)) == NULL) {
			master_abort(m, "Cannot write report file %s: %s", path,
			    strerror(errno));
			return (-1);
		}
		fprintf(f, "<title>Vdbench %s.stdout.html</title><pre>\n"
		    "stdout/stderr for slave=%s\nStarted by the slave daemon "
		    "of hd=%s (system=%s); its output is in that daemon's "
		    "log. Its warnings and errors are in this directory's "
		    "logfile.html.\n", html_esc(hn, sizeof(hn), names[i]), hn,
		    html_esc(hl, sizeof(hl), h->label), html_esc(hs,
		    sizeof(hs), h->system));
		errno = 0;
		bad = fflush(f) == EOF || ferror(f);
		if ((fclose(f) == EOF || bad) && !m->aborting) {
			master_abort(m, "Cannot write report file %s: %s", path,
			    strerror(errno != 0 ? errno : EIO));
			return (-1);
		}
	}
	m->remotes[hi] = remote_start(m->base, h, m->token, m->o->master_addr,
	    m->port, names, cookies, remote_done, remote_exited, m, &e);
	if (m->remotes[hi] == NULL) {
		master_abort(m, "%s", e.text);
		return (-1);
	}
	return (0);
}

/* Wait for the children; kill those still there after 5 s. */
static void
reap(struct master *m)
{
	uint64_t until = mtime_now_ns() + 5000000000ull;
	int i, left;

	do {
		left = 0;
		for (i = 0; i < m->nslaves; i++) {
			struct mslave *s = &m->sl[i];

			if (s->pid <= 0 || s->gone)
				continue;
			if (waitpid(s->pid, NULL, WNOHANG) == s->pid)
				s->gone = 1;
			else
				left++;
		}
		if (left > 0)
			usleep(20000);
	} while (left > 0 && mtime_now_ns() < until);
	for (i = 0; i < m->nslaves; i++) {
		if (m->sl[i].pid > 0 && !m->sl[i].gone) {
			kill(m->sl[i].pid, SIGKILL);
			waitpid(m->sl[i].pid, NULL, 0);
		}
	}
}

/* Largest xfersize per sd over every run (PARMFILE.md 12.6, quirk 13). */
static void
compute_xmax(struct master *m)
{
	int r, w, k;

	for (r = 0; r < m->plan->nruns; r++) {
		const struct run *pr = &m->plan->runs[r];
		double xs = run_loop_value(pr, LOOP_XFERSIZE, -1);

		for (w = 0; w < pr->nwds; w++) {
			uint64_t x = xs > 0 ? (uint64_t)xs :
			    xfer_max_bytes(&pr->wds[w].wd->xfer);

			for (k = 0; k < pr->wds[w].nsds; k++) {
				int si = sd_index(m->model,
				    pr->wds[w].sds[k]);

				if (x > m->sd_xmax[si])
					m->sd_xmax[si] = x;
			}
		}
	}
}

/* An fsd by name (copy/move target=), or NULL. */
static const struct fsd *
target_fsd(const struct model *model, const char *name)
{
	const struct fsd *f;

	TAILQ_FOREACH(f, &model->fsds, entry)
		if (strcmp(f->name, name) == 0)
			return (f);
	return (NULL);
}

/*
 * An fsd on more than one host needs shared=yes, and a shared fsd is
 * formatted in two steps, (clean,only) then (restart,only): the hosts
 * cannot clean and create one tree at once (vdbench's rules and texts).
 */
static int
check_fs_hosts(struct master *m, const struct plan *p)
{
	int i, k, j;

	for (i = 0; i < p->nruns; i++) {
		const struct run *r = &p->runs[i];

		for (k = 0; k < r->nfwds; k++) {
			const struct fwd *w = r->fwds[k].fwd;

			if (fwd_nhosts(m, w) == 0) {
				console_fatal("fwd=%s: host=%s matches none of "
				    "the hosts of this parmfile", w->name,
				    w->hosts.n > 0 ? w->hosts.v[0] : "*");
				return (-1);
			}
			for (j = 0; j < r->fwds[k].nfsds; j++) {
				const struct fsd *f = r->fwds[k].fsds[j];

				if (!f->shared && fwd_nhosts(m, w) > 1) {
					console_fatal("Multiple hosts may only "
					    "be requested for an FSD when "
					    "'shared=yes' is specified. rd=%s",
					    r->rd->name);
					return (-1);
				}
				if (f->shared && r->format_run &&
				    (plan_rd_format(r->rd, "yes") ||
				    (!plan_rd_format(r->rd, "restart") &&
				    !plan_rd_format(r->rd, "clean")))) {
					console_fatal("'format=yes' not allowed "
					    "for shared FSDs used in rd=%s; "
					    "use format=(clean,only), then "
					    "format=(restart,only)",
					    r->rd->name);
					return (-1);
				}
			}
		}
	}
	return (0);
}

/* The file-system parts this build runs; the rest refused by name. */
static int
check_fs_supported(struct master *m, const struct plan *p)
{
	static const char *const ops[] = { "read", "write", "create",
	    "delete", "mkdir", "rmdir", "open", "close", "getattr", "setattr",
	    "access", "copy", "move", NULL };
	int i, k, j, fs = 0;

	for (i = 0; i < p->nruns; i++) {
		const struct run *r = &p->runs[i];

		fs |= r->nfwds > 0;
		const struct pvals *rops = r->nfwds > 0 ?
		    bag_get(&r->rd->bag, "operations") : NULL;
		int nops = rops != NULL && rops->n > 0 ? rops->n : 1;

		for (k = 0; k < r->nfwds * nops; k++) {
			const struct fwd *w = r->fwds[k / nops].fwd;
			const char *op = rops != NULL && rops->n > 0 ?
			    rops->v[k % nops].str : w->operation != NULL ?
			    w->operation : "read";
			const char *sel = w->fileselect != NULL ?
			    w->fileselect : "sequential";

			for (j = 0; j < r->nloops; j++)
				if (r->loop_kind[j] == LOOP_OPERATION &&
				    r->loop_str[j] != NULL)
					op = r->loop_str[j];
			if (op == NULL)
				op = "(a number)";
			for (j = 0; ops[j] != NULL && strcmp(ops[j], op); j++)
				;
			if (ops[j] != NULL && (strcmp(op, "copy") == 0 ||
			    strcmp(op, "move") == 0) && (w->target == NULL ||
			    target_fsd(m->model, w->target) == NULL)) {
				console_fatal("fwd=%s: operation=%s needs "
				    "target= naming an fsd", w->name, op);
				return (-1);
			}
			if (ops[j] == NULL) {
				console_fatal("fwd=%s: operation=%s is not "
				    "supported by vdbc yet", w->name, op);
				return (-1);
			}
			if (strcmp(sel, "poisson") == 0 &&
			    !(select_midpoint(w) > 0 &&
			    select_midpoint(w) <= 1000)) {
				console_fatal("fwd=%s: fileselect=poisson needs "
				    "a midpoint in (0, 1000], not %g", w->name,
				    select_midpoint(w));
				return (-1);
			}
			if (w->fileio_shared && strcmp(sel, "random") == 0) {
				console_fatal("fwd=%s: 'fileio=(random,shared)' "
				    "may not be used together with "
				    "'fileselect=random'", w->name);
				return (-1);
			}
			if (w->fileio_delete && w->readpct_set) {
				console_fatal("fwd=%s: 'fileio=(sequential,"
				    "delete)' and 'rdpct=' are mutually "
				    "exclusive", w->name);
				return (-1);
			}
		}
	}
	return (fs ? check_fs_hosts(m, p) : 0);
}

/* Refuse what this build cannot run yet, before anything starts. */
static int
check_supported(struct master *m, const struct model *model,
    const struct plan *p)
{
	struct errmsg e;
	int i, daemons = 0;

	for (i = 0; i < m->nhosts; i++) {
		const struct mhost *h = &m->hosts[i];

		if (h->how == HOST_RSH && system("command -v rsh "
		    ">/dev/null 2>&1") != 0) {
			console_fatal("hd=%s,system=%s: shell=rsh, but there is "
			    "no rsh command here; use shell=ssh or shell=vdbench",
			    h->label, h->system);
			return (-1);
		}
		daemons += h->how == HOST_DAEMON;
	}
	if (daemons > 0 && m->o->token_file == NULL) {
		console_fatal("Hosts with shell=vdbench need the daemons' token: "
		    "--token-file FILE (made by 'vdbc slave --gen-token FILE')");
		return (-1);
	}
	if (daemons > 0 && auth_load_token(m->o->token_file, m->token,
	    &e) != 0) {
		console_fatal("%s", e.text);
		return (-1);
	}
	if (model->unbuilt.n > 0) {
		for (i = 0; i < model->unbuilt.n; i++)
			console_line("%s is not supported by vdbc yet",
			    model->unbuilt.v[i]);
		console_fatal("This parmfile uses what vdbc cannot run yet "
		    "(listed above); remove it, or use -s to plan the runs");
		return (-1);
	}
	return (check_fs_supported(m, p));
}

/*
 * startcmd= / endcmd= of the general parameters: each command through
 * /bin/sh with $output replaced by the output directory; its output goes
 * to the logfile, or also to the console with the "cons" target (vdbench's
 * words). Run outside the slaves' lifetime, so waiting on it is safe.
 */
static void
general_cmd(const struct model *m, const char *which, const char *outdir)
{
	const struct pvals *v = bag_get(&m->general.bag, which);
	int i, cons = 0;

	if (v == NULL)
		return;
	for (i = 0; i < v->n; i++)
		cons |= strcasecmp(v->v[i].str, "cons") == 0;
	for (i = 0; i < v->n; i++) {
		const char *c = v->v[i].str;
		char *cmd, line[4096];
		const char *p;
		FILE *f;
		int st;

		if (strcasecmp(c, "cons") == 0 || strcasecmp(c, "summary") == 0 ||
		    strcasecmp(c, "log") == 0 || strcasecmp(c, "master") == 0 ||
		    strcasecmp(c, "slave") == 0)
			continue;
		cmd = xstrdup(c);
		while ((p = strstr(cmd, "$output")) != NULL) {
			char *n;

			xasprintf(&n, "%.*s%s%s", (int)(p - cmd), cmd, outdir,
			    p + 7);
			free(cmd);
			cmd = n;
		}
		console_line("%s: %s", which, cmd);
		if ((f = popen(cmd, "r")) == NULL) {
			console_line("%s: cannot run '%s': %s", which, cmd,
			    strerror(errno));
			free(cmd);
			continue;
		}
		while (fgets(line, sizeof(line), f) != NULL) {
			line[strcspn(line, "\n")] = '\0';
			if (cons)
				console_line("%s", line);
			else
				console_logonly("%s", line);
		}
		st = pclose(f);
		if (st != 0)
			console_line("%s: '%s' exited with status %d", which, cmd,
			    WIFEXITED(st) ? WEXITSTATUS(st) : -1);
		free(cmd);
	}
}

/* Run everything. */
int
run_all(const struct model *model, const struct plan *plan,
    const struct run_opts *o)
{
	struct master *m = xcalloc(1, sizeof(*m));
	struct timeval one_s = { 1, 0 };
	struct pending *p;
	struct errmsg e;
	int i, rc, nsds = 0;
	const struct sd *s;

	TAILQ_INIT(&m->pending);
	m->model = model;
	m->plan = plan;
	m->o = o;
	if (hosts_build(model, plan, o->jvms, RUN_MAX_SLAVES, &m->hosts,
	    &m->nhosts, &e) != 0) {
		console_fatal("%s", e.text);
		free(m);
		return (RUN_EXIT_FAILED);
	}
	if (hosts_fd_limit(m->hosts, m->nhosts, &e) != 0) {
		console_fatal("%s", e.text);
		free(m->hosts);
		free(m);
		return (RUN_EXIT_FAILED);
	}
	if (check_supported(m, model, plan) != 0) {
		free(m->hosts);
		free(m);
		return (RUN_EXIT_FAILED);
	}
	m->remotes = xcalloc((size_t)m->nhosts, sizeof(*m->remotes));
	for (i = 0; i < 4; i++)
		m->scratch[i] = hist_new();
	signal(SIGPIPE, SIG_IGN);
	m->rc = RUN_EXIT_FAILED;
	m->listen_fd = -1;
	m->key_anchors = -1;
	TAILQ_FOREACH(s, &model->sds, entry)
		nsds++;
	m->sd_size = xcalloc((size_t)nsds + 1, sizeof(uint64_t));
	m->sd_xmax = xcalloc((size_t)nsds + 1, sizeof(uint64_t));
	compute_xmax(m);
	if ((m->rep = report_open(o->outdir, plan, o->nfiles, o->files,
	    &e)) == NULL) {
		console_fatal("%s", e.text);
		goto out;
	}
	console_tee(report_logfile(m->rep));
	m->res = results_new(o->outdir, o->seed, o->nfiles, o->files);
	general_cmd(model, "startcmd", o->outdir);
	m->base = event_base_new();
	if ((m->tls = tls_server_new(slave_psk, m, &e)) == NULL) {
		console_fatal("%s", e.text);
		goto out;
	}
	if (listen_port(m, o->port) != 0) {
		console_fatal("Unable to listen for slaves on port %d: %s",
		    o->port < 0 ? 5570 : o->port, strerror(errno));
		goto out;
	}
	if ((m->listener = listener_new(m->base, m->listen_fd,
	    RUN_MAX_UNPROVED, accept_cb, m)) == NULL) {
		console_fatal("Unable to listen for slaves: out of memory");
		goto out;
	}
	m->tick_ev = event_new(m->base, -1, EV_PERSIST, tick_cb, m);
	evtimer_add(m->tick_ev, &one_s);
	m->pause_ev = evtimer_new(m->base, pause_cb, m);
	m->sig_ev[0] = evsignal_new(m->base, SIGINT, signal_cb, m);
	m->sig_ev[1] = evsignal_new(m->base, SIGTERM, signal_cb, m);
	evsignal_add(m->sig_ev[0], NULL);
	evsignal_add(m->sig_ev[1], NULL);
	m->nslaves = 0;
	for (i = 0; i < m->nhosts; i++) {
		int k;

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
		int k;

		for (k = 0; k < h->nslaves; k++)
			names[k] = m->sl[h->first + k].name;
		results_host(m->res, h->label, h->system,
		    hosts_how_name(h->how), names, h->nslaves);
		free(names);
	}
	report_status(m->rep, "Starting slaves", NULL, NULL);
	m->state = M_CONNECT;
	m->state_since_ns = mtime_now_ns();
	m->cur.interval_ns = 1000000000ull;
	for (i = 0; i < m->nslaves && !m->aborting; i++) {
		struct mslave *sl = &m->sl[i];

		if (m->hosts[sl->host].how == HOST_SSH ||
		    m->hosts[sl->host].how == HOST_RSH) {
			if (launch_ssh(m, sl) != 0)
				break;
			continue;
		}
		if (m->hosts[sl->host].how != HOST_LOCAL)
			continue;
		if (launch(m, sl) != 0) {
			master_abort(m, "Cannot start slave %s: %s", sl->name,
			    strerror(errno));
			break;
		}
	}
	for (i = 0; i < m->nhosts && !m->aborting; i++) {
		if (m->hosts[i].how == HOST_DAEMON && launch_remote(m, i) != 0)
			break;
	}
	event_base_dispatch(m->base);
out:
	reap(m);
	rc = m->rc;
	for (i = 0; i < m->nslaves; i++) {
		if (m->sl[i].silence_ev != NULL)
			event_free(m->sl[i].silence_ev);
		link_free(m->sl[i].link);
		slave_wg_free(&m->sl[i]);
	}
	merge_free(m->mg);
	for (i = 0; i < 4; i++)
		hist_free(m->scratch[i]);
	for (i = 0; m->remotes != NULL && i < m->nhosts; i++)
		remote_free(m->remotes[i]);
	free(m->remotes);
	tls_free(m->tls);
	free(m->hosts);
	free(m->key_hosts);
	json_decref(m->info);
	explicit_bzero(m->token, sizeof(m->token));
	free(m->key_sd);
	free(m->key_hostsd);
	free(m->key_slavesd);
	for (i = 0; i < m->nwdkeys; i++)
		free(m->wdkey_name[i]);
	free(m->wdkey_name);
	free(m->wdkey);
	strlist_clear(&m->fskey_name);
	free(m->fskey);
	for (i = 0; i < RUN_MAX_SLAVES; i++)
		json_decref(m->cur.work[i]);
	free(m->cur.skew_req);
	if (m->rep != NULL)
		general_cmd(model, "endcmd", o->outdir);
	if (m->res != NULL) {
		results_write(m->res);
		if (m->rep != NULL)
			charts_write(report_summary(m->rep),
			    results_runs(m->res));
	}
	/* every write checked before the run may be called a success */
	if (m->rep != NULL && (report_check(m->rep, &e) != 0 ||
	    results_check(m->res, &e) != 0)) {
		if (!m->outputs_failed)
			console_fatal("%s", e.text);
		if (rc == 0)	/* a signal's exit status stays */
			rc = RUN_EXIT_FAILED;
	} else if (rc == 0)
		console_line("Vdbench execution completed successfully. Output "
		    "directory: %s", o->outdir);
	console_tee(NULL);
	results_free(m->res);
	report_close(m->rep);
	while ((p = TAILQ_FIRST(&m->pending)) != NULL) {
		link_free(p->link);
		pending_done(p);
	}
	listener_free(m->listener);
	if (m->tick_ev != NULL)
		event_free(m->tick_ev);
	if (m->pause_ev != NULL)
		event_free(m->pause_ev);
	for (i = 0; i < 2; i++) {
		if (m->sig_ev[i] != NULL)
			event_free(m->sig_ev[i]);
	}
	if (m->listen_fd >= 0)
		close(m->listen_fd);
	if (m->base != NULL)
		event_base_free(m->base);
	free(m->format_sd);
	free(m->format_host);
	free(m->format_from);
	free(m->sd_size);
	free(m->sd_xmax);
	free(m);
	return (rc);
}
