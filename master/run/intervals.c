/* SPDX-License-Identifier: MIT */
/*
 * Interval intake and the run's end: INTERVAL bodies from the slaves
 * become per-WG deltas merged into report keys (on_interval), every
 * interval all slaves have reported is printed in order
 * (print_ready_intervals), and the run ends with its average lines,
 * histograms, percentiles and vdbench's warning boxes (end_run).
 */
#include "intervals.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "console.h"
#include "hist.h"
#include "html.h"
#include "interval_json.h"
#include "journal_rd.h"
#include "iostats.h"
#include "link.h"
#include "merge.h"
#include "metrics.h"
#include "mtime.h"
#include "proto.h"
#include "report.h"
#include "results.h"
#include "xmalloc.h"

/* CPU percentages from tick deltas, with vdbench's Linux formula. */
static void
cpu_from_ticks(struct cpu_pct *c, const uint64_t d[7], int valid)
{
	double user = (double)d[0], kernel = (double)(d[2] + d[5] + d[6]);
	double total = user + kernel + (double)(d[1] + d[3] + d[4] + d[6]);

	memset(c, 0, sizeof(*c));
	if (!valid || total <= 0)
		return;
	c->valid = 1;
	c->user_sys = (user + kernel) * 100 / total;
	c->sys = kernel * 100 / total;
	c->user = user * 100 / total;
}

/* Ticks from a slave's "cpu" object; -1 when malformed. */
static int
cpu_ticks(const json_t *cpu, uint64_t t[7])
{
	static const char *const f[7] = { "user", "nice", "system", "idle",
	    "iowait", "irq", "softirq" };
	int j;

	for (j = 0; j < 7; j++) {
		json_t *x = json_object_get(cpu, f[j]);

		if (!json_is_integer(x) || json_integer_value(x) < 0)
			return (-1);
		t[j] = (uint64_t)json_integer_value(x);
	}
	return (0);
}

/* Remember a slave's CPU ticks as the base of the next delta. */
void
cpu_baseline(struct mslave *s, const json_t *cpu)
{
	uint64_t t[7];

	if (cpu != NULL && cpu_ticks(cpu, t) == 0) {
		memcpy(s->cpu_prev, t, sizeof(t));
		s->cpu_prev_valid = 1;
	}
}

/* The run's percentiles on a line of vdbc's own in summary.html. */
static void
percentile_note(struct master *m, const char *label, struct hist *const h[2])
{
	static const double p[] = { 50, 90, 99, 99.9, 99.99 };
	struct hist *all = hist_new();
	char text[1024];
	size_t n, i;
	int d;

	for (d = 0; d < 2; d++) {
		if (h[d] != NULL)
			hist_merge(all, h[d]);
	}
	if (hist_count(all) > 0) {
		/* a file-system run's percentiles are of its data reads
		 * and writes, whatever operation it asked for: say so */
		n = (size_t)snprintf(text, sizeof(text), "vdbc: %s %sresponse "
		    "time percentiles (ms):", label, m->cur.fs ?
		    "read/write " : "");
		for (i = 0; i < sizeof(p) / sizeof(p[0]) && n < sizeof(text);
		    i++)
			n += (size_t)snprintf(text + n, sizeof(text) - n,
			    " p%g=%.3f", p[i], (double)hist_percentile_ns(all,
			    p[i]) / 1e6);
		if (n < sizeof(text))
			snprintf(text + n, sizeof(text) - n, " max=%.3f",
			    (double)hist_max_ns(all) / 1e6);
		report_summary_note(m->rep, text);
	}
	hist_free(all);
}

/* vdbench's warning box: '*', a line of stars, "* text *" lines padded
 * to the longest, stars, '*'; on the console, summary and logfile. */
static void
box_line(struct master *m, const char *text)
{
	char tod[16], h[2048];

	console_line("%s", text);
	fprintf(report_summary(m->rep), "%s %s\n",
	    mtime_tod(mtime_wall_ns(), tod), html_esc(h, sizeof(h), text));
}

static void
box_out(struct master *m, const char *const *lines, int n, int summary)
{
	char stars[200], text[420];
	int i, w = 0;

	for (i = 0; i < n; i++)
		if ((int)strlen(lines[i]) > w)
			w = (int)strlen(lines[i]);
	if (w > (int)sizeof(stars) - 5)
		w = (int)sizeof(stars) - 5;
	memset(stars, '*', (size_t)w + 4);
	stars[w + 4] = '\0';
	for (i = -2; i < n + 2; i++) {
		const char *l = i == -2 || i == n + 1 ? "*" : i == -1 ||
		    i == n ? stars : text;

		if (l == text)
			snprintf(text, sizeof(text), "* %-*.*s *", w, w,
			    lines[i]);
		if (summary)
			box_line(m, l);
		else
			console_line("%s", l);
	}
}

static void
warning_box(struct master *m, const char *const *lines, int n)
{
	box_out(m, lines, n, 1);
}

/* A run whose workloads are held to their skews: not the SD_format run
 * nor an uncontrolled max (vdbench's use_waiter). */
static int
skew_held(const struct master *m)
{
	const struct run *r = m->cur.plan_run;

	if (m->cur.fs)	/* fwd skew=: vdbench's FwgWaiter always holds */
		return (r != NULL && !r->format_run && m->cur.skew_req != NULL);
	return (r != NULL && !m->cur.format && m->cur.skew_req != NULL &&
	    !((r->iorate == RD_IORATE_MAX ||
	    r->iorate == RD_IORATE_CURVE) && !r->curve_point &&
	    !r->controlled));
}

/*
 * vdbench's two boxes after a run held to its skews whose wd is more
 * than 1 point off (SkewReport.java): the first on the console and in
 * summary.html, the reasons on the console (and logfile.html). A run
 * whose wds are split over slaves that do not run all of them ends so
 * in both tools (docs/threads.md).
 */
static void
skew_warning(struct master *m, const struct iostats *pk, uint64_t dur_ns)
{
	static const char *const why[] = {
	    "Possible reasons for workload skew being out of sync:", "",
	    "- Elapsed time too short.  ",
	    "  Each SD should have done at least 2000 i/o's. Adding "
	    "'warmup=nn' may help this.",
	    "  For SD concatenation this is the ONLY acceptable reason. "
	    "Contact me at the Oracle Vdbench Forum if the differences are "
	    "too big.", "",
	    "- A mix of seekpct=seq and random workloads. ",
	    "  Sequential workloads may run on only ONE slave, but random "
	    "workloads",
	    "  may run on multiple slaves. Workload skew depends on ALL "
	    "workloads",
	    "  running on all slaves. Force slave count to just one. "
	    "(hd=default,jvms=1)", "",
	    "- Not enough threads available to guarantee that all workloads "
	    "can run",
	    "  on all slaves.", "",
	    "- There may be more, can't think (of any) right now. :-)", "",
	    "You may use 'abort_failed_skew=nn' for Vdbench to abort after "
	    "skew failures. See documentation.", "" };
	static const char *const fs_why[] = {
	    "Possible reasons for workload skew being out of sync:", "",
	    "- Elapsed time too short.  ",
	    "  Each FSD should have done at least 2000 operations. Adding "
	    "'warmup=nn' may help this.", "",
	    "- Not enough threads available to guarantee that all workloads "
	    "can run on all slaves.", "",
	    "- There may be more, can't think (of any) right now. :-)",
	    "  Contact me at the Oracle Vdbench Forum if the differences are "
	    "out of line.", "",
	    "You may use 'abort_failed_skew=nn' for Vdbench to abort after "
	    "skew failures. See documentation.", "" };
	const char *wd = NULL, *first[1];
	char l1[400];
	double worst;

	if (!skew_held(m) || (worst = report_skew_worst(m->rep, pk, dur_ns,
	    m->cur.skew_req, &wd)) <= 1.0 || wd == NULL)
		return;
	snprintf(l1, sizeof(l1), "Observed Workload skew for %s=%s delta "
	    "greater than 1%% (%.2f). See skew.html for details",
	    m->cur.fs ? "fwd" : "wd", wd, worst);
	first[0] = l1;
	box_out(m, first, 1, 1);
	if (m->cur.fs)
		box_out(m, fs_why, (int)(sizeof(fs_why) / sizeof(fs_why[0])),
		    0);
	else
		box_out(m, why, (int)(sizeof(why) / sizeof(why[0])), 0);
}

/*
 * After a run's average line, vdbench's two warnings (FORMATS.md 6.1): a
 * host whose processor was over 80 % busy in the averaged intervals, and
 * more than 100,000 I/Os (or file operations) per second per slave.
 */
static void
run_warnings(struct master *m, const struct iacc *sum)
{
	char l1[400], l2[400];
	int h, i, used = 0;
	double rate;

	for (h = 0; h < m->nhosts; h++) {
		for (i = 0; i < m->nslaves; i++) {
			struct cpu_pct c;

			if (m->sl[i].host != h || !m->sl[i].cpu_avg_valid)
				continue;
			cpu_from_ticks(&c, m->sl[i].cpu_avg, 1);
			if (c.valid && c.user_sys > 80) {
				const char *box[3] = { l1,
				    "Any processor utilization over 80% could "
				    "mean that your system",
				    "does not have enough cycles to run the "
				    "highest rate possible." };

				snprintf(l1, sizeof(l1), "Warning for host=%s: "
				    "average processor utilization %.1f%% ",
				    m->hosts[h].label, c.user_sys);
				warning_box(m, box, 3);
			}
			break;
		}
	}
	for (i = 0; i < m->nslaves; i++)
		used += m->sl[i].active;
	rate = sum->dur_sum_ns == 0 ? 0 : (double)(m->cur.fs &&
	    sum->keys[0].st.req_n > 0 ? sum->keys[0].st.req_n :
	    sum->keys[0].st.side[0].ios + sum->keys[0].st.side[1].ios) *
	    1e9 / (double)sum->dur_sum_ns;
	if (used > 0 && rate / used > 100000) {
		const char *box[7] = { l1,
		    "You may need to adjust your total slave count.", "",
		    "See 'jvms=' in documentation for raw (SD/WD) workloads).",
		    "See 'host=' and/or 'clients=' in documentation for file "
		    "system (FSD/FWD) workloads).", "", l2 };

		snprintf(l1, sizeof(l1), "Warning: total amount of i/o per "
		    "second per slave (%.0f) greater than 100000.",
		    floor(rate / used));
		snprintf(l2, sizeof(l2), "rd=%s actively used %d slaves.",
		    m->cur.name, used);
		warning_box(m, box, 7);
	}
}

/*
 * abort_failed_skew= (general): at the end of a run whose workloads are
 * held to their skews (not an uncontrolled max run), a wd off its
 * requested skew by more than the limit stops everything (end_run).
 */
static void
skew_check(struct master *m, const struct iostats *pk, uint64_t dur_ns)
{
	double limit_pct = m->model->general.abort_failed_skew_pct;
	const struct run *r = m->cur.plan_run;

	if (limit_pct <= 0 || r == NULL ||
	    m->cur.skew_req == NULL || ((r->iorate == RD_IORATE_MAX ||
	    r->iorate == RD_IORATE_CURVE) && !r->curve_point &&
	    !r->controlled))
		return;
	report_skew_failed(m->rep, pk, dur_ns, m->cur.skew_req,
	    limit_pct, m->cur.skew_failed, sizeof(m->cur.skew_failed));
}

/*
 * The keys a raw run's interval (avg 0) or average (avg 1) lines go to,
 * as vdbench's SdReport: a slave or host only when it has work in the
 * run (an idle slave's report gets no line, not even a header); an sd
 * its interval lines in every run but its average line only in a run
 * that uses it. Everything else, and every key of a file-system run,
 * gets its lines. NULL: every key (the caller frees the array).
 */
static char *
keys_shown(const struct master *m, int nkeys, int avg)
{
	char *live, *show;
	int i, j, k;

	if (m->cur.fs)
		return (NULL);
	live = xcalloc((size_t)nkeys + 1, 1);
	show = xcalloc((size_t)nkeys + 1, 1);
	for (i = 0; i < m->nslaves; i++) {
		const struct mslave *s = &m->sl[i];

		for (j = 0; s->active && s->wg_keys != NULL &&
		    j < MERGE_KEYS_PER_WG * s->nwgs; j++) {
			k = s->wg_keys[j];
			if (k >= 0 && k < nkeys)
				live[k] = 1;
		}
	}
	for (k = 0; k < nkeys; k++) {
		switch (report_key_kind(m->rep, k)) {
		case RKEY_HOST:
		case RKEY_SLAVE:
		case RKEY_HOSTSD:
		case RKEY_SLAVESD:
			show[k] = live[k];
			break;
		case RKEY_SD:
		case RKEY_SDQUIET:
			show[k] = !avg || live[k];
			break;
		default:
			show[k] = 1;
		}
	}
	free(live);
	return (show);
}

/*
 * The lines of the report keys but the total that keys_shown shows (avg
 * 1: average lines): a host's report and its slaves' show that host's
 * own CPU (the hosts review of 2026-12-04 found every host's cpu% to be
 * the all-hosts figure, so a hot host could not be told from its
 * report); the other keys show all (all_cpu).
 */
static void
key_lines(struct master *m, const struct iacc *a, const char *label,
    uint64_t dur_ns, const struct cpu_pct *all_cpu, int avg)
{
	int *src = xcalloc((size_t)a->nkeys, sizeof(int)), i;
	char *show = keys_shown(m, a->nkeys, avg);

	for (i = 0; i < a->nkeys; i++)
		src[i] = -1;
	for (i = 0; m->keys.hosts != NULL && i < m->nhosts; i++) {
		int hk = m->keys.hosts[i];

		if (hk >= 0 && hk < a->nkeys)
			src[hk] = hk;
	}
	for (i = 0; m->keys.slave != NULL && m->keys.hosts != NULL &&
	    i < m->nslaves; i++) {
		int sk = m->keys.slave[i];

		if (sk >= 0 && sk < a->nkeys)
			src[sk] = m->keys.hosts[m->sl[i].host];
	}
	for (i = 1; i < a->nkeys; i++) {
		struct cpu_pct own;

		if (show != NULL && !show[i])
			continue;
		if (src[i] >= 0 && src[i] < a->nkeys) {
			cpu_from_ticks(&own, a->keys[src[i]].cpu,
			    a->keys[src[i]].cpu_valid);
			report_key_line(m->rep, i, label, &a->keys[i].st,
			    dur_ns, &own);
		} else
			report_key_line(m->rep, i, label, &a->keys[i].st,
			    dur_ns, all_cpu);
	}
	free(src);
	free(show);
}

/* The average lines and histograms of intervals first_avg..last. */
void
write_averages(struct master *m, unsigned int last)
{
	const struct iacc *sum = merge_sum(m->in.mg);
	struct cpu_pct cpu;
	char label[64];
	int i;

	cpu_from_ticks(&cpu, sum->cpu, sum->cpu_valid);
	snprintf(label, sizeof(label), "avg_%u-%u", m->cur.first_avg, last);
	report_avg(m->rep, m->cur.name, label, &sum->keys[0].st,
	    sum->dur_sum_ns, &cpu, &m->cur.req);
	key_lines(m, sum, label, sum->dur_sum_ns, &cpu, 1);
	run_warnings(m, sum);
	if (m->cur.fs)
		report_fs_misc(m->rep, &merge_all(m->in.mg)->keys[0].st, last,
		    m->cur.interval_ns / 1000000000ull);
	for (i = 0; i < sum->nkeys; i++) {
		/* vdbench's histograms hold the intervals after the first:
		 * a run of one interval (avg_2-1: an SD_format, a sequential
		 * write done in its first second, v2a and v6) has "No
		 * statistics generated for this run." A file system's run
		 * keeps it (format_for_rd0 in c_fsd_format_read and v5b). */
		static const struct vdbhist none[2];

		report_key_hist(m->rep, i, &m->model->general.histogram,
		    !m->cur.fs && (m->cur.format || m->cur.first_avg > last) ?
		    none : sum->keys[i].vdb);
	}
	results_average(m->res, label, &sum->keys[0].st, sum->dur_sum_ns,
	    &cpu, sum->keys[0].h);
	for (i = 1; i < sum->nkeys; i++) {
		static const char *const kinds[] = {
			[RKEY_TOTAL] = "total", [RKEY_HOST] = "hosts",
			[RKEY_SLAVE] = "slaves", [RKEY_SD] = "sds",
			[RKEY_WD] = "wds", [RKEY_HOSTSD] = "host_sds",
			[RKEY_SLAVESD] = "slave_sds", [RKEY_SDQUIET] = "sds",
			[RKEY_FSD] = "fsds", [RKEY_FWD] = "fwds",
			[RKEY_ANCHORS] = "anchors",
		};

		if (report_key_kind(m->rep, i) == RKEY_ANCHORS)
			continue;
		results_key_average(m->res, kinds[report_key_kind(m->rep, i)],
		    report_key_name(m->rep, i), &sum->keys[i].st,
		    sum->dur_sum_ns, sum->keys[i].h);
	}
	percentile_note(m, label, sum->keys[0].h);
	report_percentiles(m->rep, label, m->cur.fs, sum->keys[0].h);
	results_sched(m->res, sum->keys[0].sched);
	if (sum->keys[0].sched != NULL && hist_count(sum->keys[0].sched) > 0) {
		const struct hist *sh = sum->keys[0].sched;

		console_logonly("vdbc: %s delay from scheduled start (ms): "
		    "p50=%.3f p90=%.3f p99=%.3f p99.9=%.3f max=%.3f", label,
		    (double)hist_percentile_ns(sh, 50) / 1e6,
		    (double)hist_percentile_ns(sh, 90) / 1e6,
		    (double)hist_percentile_ns(sh, 99) / 1e6,
		    (double)hist_percentile_ns(sh, 99.9) / 1e6,
		    (double)hist_max_ns(sh) / 1e6);
	}
	{
		struct iostats *pk = xcalloc((size_t)sum->nkeys,
		    sizeof(*pk));

		struct cpu_pct *hc = xcalloc((size_t)sum->nkeys,
		    sizeof(*hc));
		const struct run *pr = m->cur.plan_run;
		struct skew_in si;
		int h;

		for (i = 0; i < sum->nkeys; i++)
			pk[i] = sum->keys[i].st;
		/* a host's cpu: its first slave's (one /proc/stat) */
		for (h = 0; h < m->nhosts; h++) {
			for (i = 0; i < m->nslaves; i++) {
				int key = m->keys.hosts[h];

				if (m->sl[i].host != h ||
				    !m->sl[i].cpu_avg_valid || key < 0 ||
				    key >= sum->nkeys)
					continue;
				cpu_from_ticks(&hc[key], m->sl[i].cpu_avg, 1);
				break;
			}
		}
		memset(&si, 0, sizeof(si));
		si.per_key = pk;
		si.dur_ns = sum->dur_sum_ns;
		si.skew_req = m->cur.skew_req;
		si.host_cpu = hc;
		si.total_cpu = &cpu;
		/* the SD_format run, an iorate=max or curve's max run */
		si.uncontrolled = pr == NULL || ((pr->iorate ==
		    RD_IORATE_MAX || pr->iorate == RD_IORATE_CURVE) &&
		    !pr->curve_point && !pr->controlled);
		report_skew(m->rep, &si);
		free(hc);
		skew_warning(m, pk, sum->dur_sum_ns);
		skew_check(m, pk, sum->dur_sum_ns);
		report_swat_total(m->rep, pk, sum->dur_sum_ns);
		free(pk);
	}
}

/* A vdbc line on the console and in summary.html. */
void
vdbc_note(struct master *m, const char *text)
{
	console_line("%s", text);
	report_summary_note(m->rep, text);
}

/* Print the average lines and histograms, and stop the run. */
static void
end_run(struct master *m, unsigned int last)
{
	const struct iacc *sum = merge_sum(m->in.mg);
	char text[1024];

	if (m->cur.short_first != 0) {
		/* --on-slave-loss=continue: the short intervals are
		 * printed, marked, and left out of the average */
		snprintf(text, sizeof(text), "vdbc: interval(s) %u-%u ran "
		    "short, without lost slave(s) %s; the average holds only "
		    "the whole intervals before the loss", m->cur.short_first,
		    m->cur.short_last, m->lost_names);
		vdbc_note(m, text);
		last = m->cur.avg_last;
	}
	if (m->cur.short_first == 0 || last > 0)
		write_averages(m, last);
	else {
		snprintf(text, sizeof(text), "vdbc: rd=%s has no whole "
		    "interval after the warm-up to average", m->cur.name);
		vdbc_note(m, text);
	}
	results_run_end(m->res, "completed");
	m->curve.prev_rate = sum->dur_sum_ns > 0 ? round((double)
	    (sum->keys[0].st.side[0].ios + sum->keys[0].st.side[1].ios) * 1e9 /
	    (double)sum->dur_sum_ns) : 0;
	{
		uint64_t n = sum->keys[0].st.side[0].ios +
		    sum->keys[0].st.side[1].ios;

		m->curve.last_resp_ms = n > 0 ? (double)(sum->keys[0].st.side[0].
		    resp_sum_ns + sum->keys[0].st.side[1].resp_sum_ns) /
		    (double)n / 1e6 : 0;
		m->curve.last_run = m->cur.plan_run;
	}
	if (m->cur.curve_max)
		m->curve.curve_rate = m->curve.prev_rate;
	report_status(m->rep, "Workload done", m->cur.name, m->cur.loops);
	m->state = M_STOPPING;
	m->state_since_ns = mtime_now_ns();
	send_all(m, MSG_STOP, json_pack("{s:I}", "run_id",
	    (json_int_t)m->run_id), 1);
	if (m->cur.skew_failed[0] != '\0')
		m->cb->stop(m, m->cur.skew_failed);
}

/* Has every slave still in the run reported interval k? */
static int
all_reported(const struct master *m, unsigned int k)
{
	int i;

	for (i = 0; i < m->nslaves; i++) {
		const struct mslave *s = &m->sl[i];

		if (s->active && !slave_out(s) && s->last_k < k)
			return (0);
	}
	return (1);
}

/* Has every slave still in the run said its fs threads all ended? */
static int
all_idle(const struct master *m)
{
	int i, any = 0;

	for (i = 0; i < m->nslaves; i++) {
		const struct mslave *s = &m->sl[i];

		if (!s->active || slave_out(s))
			continue;
		if (!s->idle)
			return (0);
		any = 1;
	}
	return (any);
}

/* Print every interval all slaves have reported, in order. */
void
print_ready_intervals(struct master *m)
{
	struct iacc *a;

	if (!active_any(m))
		return;
	while (m->state == M_RUNNING && (a = merge_slot(m->in.mg, m->in.next_print,
	    m->in.next_print)) != NULL && all_reported(m, m->in.next_print)) {
		unsigned int k = m->in.next_print++;
		uint64_t dur = merge_duration_ns(a);
		const struct iostats *t = &a->keys[0].st;
		struct cpu_pct cpu;
		char label[16];
		int i, all_eof = 1, any_eof = 0;

		cpu_from_ticks(&cpu, a->cpu, a->cpu_valid);
		/* results.json first: an interval on the console is on disk
		 * there too, whenever the master is killed */
		results_interval(m->res, k, t, dur, &cpu, a->keys[0].h,
		    m->lost_names);
		report_interval(m->rep, m->cur.name, k, t, dur, &cpu,
		    &m->cur.req);
		if (m->lost_names[0] != '\0') {
			char text[700];

			snprintf(text, sizeof(text), "vdbc: interval %u lacks "
			    "lost slave(s) %s", k, m->lost_names);
			console_line("%s", text);
			report_summary_note(m->rep, text);
		}
		snprintf(label, sizeof(label), "%u", k);
		key_lines(m, a, label, dur, &cpu, 0);
		metrics_interval(m->metrics, m->rep, m->cur.name,
		    m->cur.plan_run != NULL ? m->cur.plan_run->rd->name :
		    "SD_format", m->cur.loops, k, a, dur, &cpu, m->cur.fs);
		{
			struct iostats *pk = xcalloc((size_t)a->nkeys,
			    sizeof(*pk));

			for (i = 0; i < a->nkeys; i++)
				pk[i] = a->keys[i].st;
			report_swat_interval(m->rep, pk, dur);
			free(pk);
		}
		if (k == m->cur.first_avg - 1 || (m->cur.first_avg <= 1 &&
		    k == 1))
			report_status(m->rep, "Warmup done", m->cur.name,
			    m->cur.loops);
		m->cur.done_bytes[1] += t->side[0].bytes;
		m->cur.done_bytes[2] += t->side[1].bytes;
		m->cur.done_bytes[0] += t->side[0].bytes + t->side[1].bytes;
		/* an interval a lost slave did not report is short: it and
		 * every later one stay out of the average */
		if (a->nrep < m->cur.nactive) {
			if (m->cur.short_first == 0)
				m->cur.short_first = k;
			m->cur.short_last = k;
		}
		if (k >= m->cur.first_avg && m->cur.short_first == 0)
			m->cur.avg_last = k;
		merge_printed(m->in.mg, a, k >= m->cur.first_avg &&
		    m->cur.short_first == 0);
		if (m->cb->outputs_failed(m) != 0)
			return;
		if (m->cur.maxdata_bytes > 0 && m->cur.done_bytes[
		    m->cur.maxdata_dir] >= m->cur.maxdata_bytes) {
			console_line("Reached maxdata=%s. rd=%s shutting down "
			    "after next interval. ", m->cur.maxdata_text,
			    m->cur.name);
			m->cur.maxdata_bytes = 0;
			m->cur.nintervals = k + 1;
		}
		if (m->cb->monitor_end(m))
			m->cur.nintervals = k;
		if (m->cur.nintervals > 0 && k >= m->cur.nintervals) {
			end_run(m, k);
			return;
		}
		for (i = 0; i < m->nslaves; i++) {
			if (!m->sl[i].active || !m->sl[i].has_eof)
				continue;
			any_eof = 1;
			all_eof &= m->sl[i].eof;
		}
		if (m->cur.once_run && any_eof && all_eof) {
			console_line("All 'fileselect=once' workloads on all "
			    "slaves are done; this ends rd=%s.", m->cur.name);
			end_run(m, k);
			return;
		}
		if (m->cur.eof_run && any_eof && all_eof && m->cur.fs &&
		    m->cur.format) {
			/* vdbench says nothing when a format is complete */
			end_run(m, k);
			return;
		}
		if (m->cur.fs && !m->cur.format && all_idle(m)) {
			/* every fs thread of every slave ended, some for
			 * want of files: vdbench's slaves end the run
			 * (their message said why) */
			end_run(m, k);
			return;
		}
		if (m->cur.eof_run && any_eof && all_eof) {
			/* both lines, the SD_format run's too (vdbench's
			 * a_raw_randwrite_4k and t_quicktest) */
			console_line("All sequential workloads on all slaves are "
			    "done.");
			console_line("This triggers end of run inspite of "
			    "possibly some non-sequential workloads that are "
			    "still running.");
			end_run(m, k);
			return;
		}
	}
}

/* WG i's counts of interval k (stats entry v) into the merge slot a. */
static int
ingest_wg(struct mslave *s, size_t i, const json_t *v, struct iacc *a,
    json_int_t k, uint64_t dur, uint64_t elapsed, struct errmsg *e)
{
	struct master *m = s->m;
	struct interval_wg w = { .h = { m->in.scratch[0], m->in.scratch[1] },
	    .sched = m->in.scratch[3] };
	struct iostats now;
	struct errmsg we;
	const json_t *wg = json_array_get(s->wgs, i);
	int fs = json_object_get(wg, "fwd") != NULL, dir, bad;
	const char *wdn = json_string_value(json_object_get(wg,
	    fs ? "fwd" : "wd"));
	const char *sdn = json_string_value(json_object_get(wg,
	    fs ? "fsd" : "sd"));

	/*
	 * Deltas by position in WORK order. The master keeps each WG's
	 * counters since GO itself (s->prev) and checks them as before:
	 * nothing grows faster than 4 per ns, no response is longer than
	 * the run so far, no sum exceeds what its count allows.
	 */
	now = s->prev[i];
	bad = interval_wg_from_json(&w, v, &we) != 0;
	if (!bad) {
		iostats_merge(&now, &w.io);
		for (dir = 0; dir < 2; dir++)
			now.side[dir].resp_max_ns = w.io.side[dir].resp_max_ns;
		for (dir = 0; dir < FSOP_N; dir++)
			now.op[dir].resp_max_ns = w.io.op[dir].resp_max_ns;
	}
	if (bad || merge_check_stats(&now, &s->prev[i], dur, elapsed,
	    &we) != 0 || merge_check_hist(w.h[0], dur, elapsed, &we) != 0 ||
	    merge_check_hist(w.h[1], dur, elapsed, &we) != 0) {
		errmsg_set(e, NULL, 0, 0, "Slave %s sent a bad INTERVAL %lld: "
		    "wd=%s,sd=%s: %s", s->name, (long long)k, wdn != NULL ?
		    wdn : "?", sdn != NULL ? sdn : "?", we.text);
		return (-1);
	}
	s->prev[i] = now;
	for (dir = 0; dir < 2; dir++)
		hist_exact_max(w.h[dir], w.io.side[dir].resp_max_ns);
	merge_add(a, &s->wg_keys[MERGE_KEYS_PER_WG * i], &w.io, w.h, w.vdb,
	    hist_count(w.sched) > 0 ? w.sched : NULL);
	return (0);
}

/* The slave's CPU ticks at the end of interval k into a. */
static int
ingest_cpu(struct mslave *s, const json_t *cpu, struct iacc *a, json_int_t k,
    struct errmsg *e)
{
	struct master *m = s->m;
	uint64_t t[7];
	int j;

	if (cpu_ticks(cpu, t) != 0) {
		errmsg_set(e, NULL, 0, 0, "Slave %s sent a bad INTERVAL %lld: "
		    "cpu ticks are not counts of 0 or more", s->name,
		    (long long)k);
		return (-1);
	}
	for (j = 0; j < 7 && s->cpu_prev_valid; j++) {
		if (t[j] < s->cpu_prev[j]) {
			errmsg_set(e, NULL, 0, 0, "Slave %s sent a bad "
			    "INTERVAL %lld: cpu tick count %d went backwards",
			    s->name, (long long)k, j);
			return (-1);
		}
	}
	if (s->cpu_prev_valid) {
		int avg = (unsigned int)k >= m->cur.first_avg &&
		    (m->cur.nintervals == 0 ||
		    (unsigned int)k <= m->cur.nintervals);
		uint64_t d[7];

		for (j = 0; j < 7; j++) {
			d[j] = t[j] - s->cpu_prev[j];
			a->cpu[j] += d[j];
			if (avg)
				s->cpu_avg[j] += d[j];
		}
		a->cpu_valid = 1;
		s->cpu_avg_valid |= avg;
		/* the host's own, for its report and its slaves' */
		if (m->keys.hosts != NULL)
			merge_add_cpu(a, m->keys.hosts[s->host], d);
	}
	cpu_baseline(s, cpu);
	return (0);
}

/*
 * Take in an INTERVAL: each WG's counts of interval k, checked and summed
 * into the merge. 1: ignored (late, from a run that ended, or already
 * printed); 0: taken; -1: a bad INTERVAL, e says which slave and field.
 */
static int
ingest(struct mslave *s, json_t *body, struct errmsg *e)
{
	struct master *m = s->m;
	json_int_t run_id, k, dur;
	json_t *stats, *v, *cpu, *eof;
	struct iacc *a;
	uint64_t elapsed;
	size_t i;

	json_unpack(body, "{s:I,s:I,s:I,s:o}", "run_id", &run_id, "interval",
	    &k, "duration_ns", &dur, "stats", &stats);
	if ((uint64_t)run_id != m->run_id || m->state != M_RUNNING ||
	    !s->active)
		return (1);		/* late, from a run that ended */
	if (k < 1 || k > 10000000 || dur < 0 ||
	    json_array_size(stats) != (size_t)s->nwgs) {
		errmsg_set(e, NULL, 0, 0, "Slave %s sent a bad INTERVAL "
		    "(interval %lld, %zu stats for %d workloads)", s->name,
		    (long long)k, json_array_size(stats), s->nwgs);
		return (-1);
	}
	if ((unsigned int)k != s->last_k + 1) {
		/* one skipped would count as reported without its I/O */
		errmsg_set(e, NULL, 0, 0, "Slave %s sent a bad INTERVAL: "
		    "interval %lld where %u was due", s->name, (long long)k,
		    s->last_k + 1);
		return (-1);
	}
	/*
	 * Its timer ends interval k at GO + k * interval on its clock, never
	 * before (DESIGN.md): the durations so far add up to at least k
	 * intervals (a late end makes the next one short), and no single
	 * interval is far longer. Anything else is a lie or a slave whose
	 * intervals drift.
	 */
	elapsed = s->elapsed_ns + (uint64_t)dur;
	if (dur == 0 || (uint64_t)dur > 2 * m->cur.interval_ns +
	    10000000000ull) {
		errmsg_set(e, NULL, 0, 0, "Slave %s sent a bad INTERVAL %lld: "
		    "duration_ns %lld is not near the interval of %.3f s",
		    s->name, (long long)k, (long long)dur,
		    (double)m->cur.interval_ns / 1e9);
		return (-1);
	}
	if (elapsed < (uint64_t)k * m->cur.interval_ns) {
		errmsg_set(e, NULL, 0, 0, "Slave %s sent a bad INTERVAL %lld: "
		    "it ended %.3f ms before GO + %lld x %.3f s (its intervals "
		    "drift)", s->name, (long long)k, (double)((uint64_t)k *
		    m->cur.interval_ns - elapsed) / 1e6, (long long)k,
		    (double)m->cur.interval_ns / 1e9);
		return (-1);
	}
	if ((a = merge_slot(m->in.mg, (unsigned int)k, m->in.next_print)) == NULL) {
		if ((unsigned int)k < m->in.next_print)
			return (1);	/* already printed: cannot happen */
		errmsg_set(e, NULL, 0, 0, "Slave %s is %lld intervals ahead of "
		    "the others", s->name, (long long)(k - m->in.next_print));
		return (-1);
	}
	json_array_foreach(stats, i, v) {
		if (ingest_wg(s, i, v, a, k, (uint64_t)dur, elapsed, e) != 0)
			return (-1);
	}
	/* rates are counts per nominal interval, as vdbench divides */
	a->dur_sum_ns += m->cur.interval_ns;
	a->nrep++;
	s->last_k = (unsigned int)k;
	s->elapsed_ns = elapsed;
	if ((cpu = json_object_get(body, "cpu")) != NULL &&
	    ingest_cpu(s, cpu, a, k, e) != 0)
		return (-1);
	if ((eof = json_object_get(body, "eof")) != NULL && json_is_true(eof))
		s->eof = 1;
	if ((eof = json_object_get(body, "idle")) != NULL && json_is_true(eof))
		s->idle = 1;
	return (0);
}

/* INTERVAL from a slave: deltas per WG, summed into interval k. */
void
on_interval(struct mslave *s, json_t *body)
{
	struct errmsg e;
	int rc = ingest(s, body, &e);

	if (rc < 0)
		s->m->cb->stop(s->m, e.text);
	else if (rc == 0)
		print_ready_intervals(s->m);
}

/* "run k of n" and the time left, on a line of vdbc's own. */
void
run_progress(struct master *m)
{
	int total = m->plan->nruns + m->pre.had_format, i;
	/* loop= / -l: the runs of this pass, which says its number */
	int k = m->anchor - (int)m->loop_pass * m->plan->nruns;
	uint64_t left_s = 0;
	char when[64];

	for (i = m->next_run - (m->cur.plan_run != NULL ? 1 : 0);
	    i >= 0 && i < m->plan->nruns; i++) {
		const struct run *r = &m->plan->runs[i];

		if (journal_recovery_rd(r->rd))
			continue;	/* to the end of the sds: not timed */
		left_s += r->nintervals * r->interval_s + r->rd->pause_s;
	}
	if (left_s >= 3600)
		snprintf(when, sizeof(when), "%lluh%02llum%02llus",
		    (unsigned long long)(left_s / 3600),
		    (unsigned long long)(left_s / 60 % 60),
		    (unsigned long long)(left_s % 60));
	else
		snprintf(when, sizeof(when), "%llum%02llus",
		    (unsigned long long)(left_s / 60),
		    (unsigned long long)(left_s % 60));
	if (m->loop_pass > 0)
		snprintf(when + strlen(when), sizeof(when) - strlen(when),
		    " of loop pass %llu", (unsigned long long)m->loop_pass +
		    1);
	console_line("vdbc: run %d of %d; about %s left%s", k, total, when,
	    m->cur.format ? " after this format run" : "");
}
