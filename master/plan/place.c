/* SPDX-License-Identifier: MIT */
/*
 * Placement. vdbench deals an sd's threads one at a time to the slave with
 * the fewest threads in total so far; a WG whose slave got no thread for
 * its sd is dropped; skew is divided equally over a workload's WGs, so
 * fast and slow sds get the same rate (PARMFILE.md 12.4, quirk 10).
 */
#include "place.h"

#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "log.h"
#include "xmalloc.h"

/* The value of a loop in this run, or dflt. */
double
run_loop_value(const struct run *r, enum loop_kind k, double dflt)
{
	int i;

	for (i = 0; i < r->nloops; i++) {
		if (r->loop_kind[i] == k)
			return (r->loop_val[i]);
	}
	return (dflt);
}

/* Free a placement's arrays. */
void
place_free(struct placement *p)
{
	free(p->wgs);
	free(p->sds);
	memset(p, 0, sizeof(*p));
}

/*
 * The room for n + 1 elements of an array only ever appended to: it is
 * full when n is 0 or a power of two, and then doubles (growing one at a
 * time copied the whole array each time where realloc cannot grow it in
 * place).
 */
static void *
grow(void *v, int n, size_t size)
{
	if (n > 0 && (n & (n - 1)) != 0)
		return (v);
	return (xreallocarray(v, n > 0 ? 2 * (size_t)n : 1, size));
}

/* Append a WG. */
static void
add_wg(struct placement *p, int wd_idx, const struct wd *w,
    const struct sd *s, int slave, int seq)
{
	struct place_wg *g;

	p->wgs = grow(p->wgs, p->nwgs, sizeof(*p->wgs));
	g = &p->wgs[p->nwgs++];
	memset(g, 0, sizeof(*g));
	g->wd_idx = wd_idx;
	g->wd = w;
	g->sd = s;
	g->slave = slave;
	g->sequential = seq;
}

/* A host label against a pattern: "*", a trailing-* prefix, or equal. */
int
place_host_match(const char *pat, const char *label)
{
	size_t n = strlen(pat);

	if (strcmp(pat, "*") == 0)
		return (1);
	if (n > 0 && pat[n - 1] == '*')
		return (strncasecmp(pat, label, n - 1) == 0);
	return (strcasecmp(pat, label) == 0);
}

/* The lun of an sd on a host, or NULL when the sd is not defined there. */
const char *
place_sd_lun(const struct sd *s, const char *label)
{
	int i;

	for (i = 0; i < s->nluns; i++) {
		if (label == NULL || place_host_match(s->luns[i].host, label))
			return (s->luns[i].lun);
	}
	return (NULL);
}

/* Whether a wd runs on a host (wd host=, default all). */
int
place_wd_on(const struct wd *w, const char *label)
{
	int i;

	if (w->hosts.n == 0 || label == NULL)
		return (1);
	for (i = 0; i < w->hosts.n; i++) {
		if (place_host_match(w->hosts.v[i], label))
			return (1);
	}
	return (0);
}

/* One host of nslaves, with no host filtering. */
int
place_run(const struct run *r, int nslaves, struct placement *p,
    struct errmsg *e)
{
	struct place_host h = { NULL, nslaves };

	return (place_run_hosts(r, &h, 1, p, e));
}

/* Add one thread of sd s on slave sl; s's entries start at from. */
static void
add_thread(struct placement *p, const struct sd *s, int sl, int from)
{
	int k;

	for (k = from; k < p->nsds; k++) {
		if (p->sds[k].sd == s && p->sds[k].slave == sl)
			break;
	}
	if (k == p->nsds) {
		p->sds = grow(p->sds, p->nsds, sizeof(*p->sds));
		p->sds[k].sd = s;
		p->sds[k].slave = sl;
		p->sds[k].threads = 0;
		p->nsds++;
	}
	p->sds[k].threads++;
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
 * The run's distinct sds as sorted pointers, so each WG's sd has a number
 * (sd_pos): placement then does per sd what it did by comparing every WG
 * with every other (100,000 sds: minutes).
 */
static const struct sd **
sd_set(const struct run *r, int *n)
{
	const struct sd **u;
	int i, k, total = 0;

	for (i = 0; i < r->nwds; i++)
		total += r->wds[i].nsds;
	u = xcalloc((size_t)total + 1, sizeof(*u));
	*n = 0;
	for (i = 0; i < r->nwds; i++) {
		for (k = 0; k < r->wds[i].nsds; k++)
			u[(*n)++] = r->wds[i].sds[k];
	}
	if (*n > 0)
		qsort(u, (size_t)*n, sizeof(*u), sd_ptr_cmp);
	for (i = k = 0; i < *n; i++) {
		if (k == 0 || u[k - 1] != u[i])
			u[k++] = u[i];
	}
	*n = k;
	return (u);
}

/* The number of s in the set. */
static int
sd_pos(const struct sd **u, int n, const struct sd *s)
{
	const struct sd **f = bsearch(&s, u, (size_t)n, sizeof(*u),
	    sd_ptr_cmp);

	return ((int)(f - u));
}

/* --debug=plan: where each sd's threads and each WG went. */
static void
debug_placement(const struct run *r, const struct place_host *hosts,
    const int *slave_host, const struct placement *p)
{
	int i;

	for (i = 0; i < p->nsds; i++) {
		const struct place_sd *s = &p->sds[i];
		const char *h = hosts[slave_host[s->slave]].label;

		log_debug(LOG_PLAN, "run %s: sd=%s: %d thread(s) on slave %d "
		    "(host %s)", r->name, s->sd->name, s->threads, s->slave,
		    h != NULL ? h : "local");
	}
	for (i = 0; i < p->nwgs; i++) {
		const struct place_wg *g = &p->wgs[i];

		log_debug(LOG_PLAN, "run %s: wd=%s sd=%s on slave %d: %s, "
		    "skew %.3f %%, rate %.1f/s%s", r->name, g->wd->name,
		    g->sd->name, g->slave, g->sequential ? "sequential" :
		    "random", g->skew_pct, g->rate_per_s, g->rate_per_s > 0 ?
		    "" : " (max)");
	}
}

/*
 * The scratch state of one placement: where each host's slaves start,
 * what each slave has, and per distinct sd of the run (sd_pos): the wd
 * (+1) it has a sequential WG for, whether its threads are dealt, its WGs
 * and its p->sds entries.
 */
struct place_ctx {
	const struct run		*r;
	const struct place_host		*hosts;
	int				 nhosts;
	int				 nslaves;
	int				*first;		/* host's first slave */
	int				*slave_host;	/* slave's host */
	int				*wgs_per_slave;
	int				*threads_per_slave;
	const struct sd		       **u;		/* distinct sds */
	int				 nu;
	int				*seq_wd;
	int				*dealt;
	int				*wg_first;
	int				*sd_from;
	int				*sd_to;
	int				*wg_pos;	/* per WG: sd_pos */
	int				*members;	/* WGs by sd */
};

/* Set up the scratch state: the slave numbering of the hosts. */
static void
ctx_init(struct place_ctx *c, const struct run *r,
    const struct place_host *hosts, int nhosts)
{
	int h, j;

	memset(c, 0, sizeof(*c));
	c->r = r;
	c->hosts = hosts;
	c->nhosts = nhosts;
	c->first = xcalloc((size_t)nhosts + 1, sizeof(int));
	c->u = sd_set(r, &c->nu);
	c->seq_wd = xcalloc((size_t)c->nu + 1, sizeof(int));
	c->dealt = xcalloc((size_t)c->nu + 1, sizeof(int));
	c->wg_first = xcalloc((size_t)c->nu + 2, sizeof(int));
	c->sd_from = xcalloc((size_t)c->nu + 1, sizeof(int));
	c->sd_to = xcalloc((size_t)c->nu + 1, sizeof(int));
	for (h = 0; h < nhosts; h++) {
		c->first[h] = c->nslaves;
		c->nslaves += hosts[h].nslaves;
	}
	c->wgs_per_slave = xcalloc((size_t)c->nslaves + 1, sizeof(int));
	c->threads_per_slave = xcalloc((size_t)c->nslaves + 1, sizeof(int));
	c->slave_host = xcalloc((size_t)c->nslaves + 1, sizeof(int));
	for (h = 0; h < nhosts; h++) {
		for (j = 0; j < hosts[h].nslaves; j++)
			c->slave_host[c->first[h] + j] = h;
	}
}

/* Free the scratch state. */
static void
ctx_free(struct place_ctx *c)
{
	free(c->u);
	free(c->seq_wd);
	free(c->dealt);
	free(c->wg_first);
	free(c->sd_from);
	free(c->sd_to);
	free(c->wg_pos);
	free(c->members);
	free(c->wgs_per_slave);
	free(c->threads_per_slave);
	free(c->slave_host);
	free(c->first);
}

/*
 * The WGs of wd i on host h: random work on every slave of the host,
 * sequential work once per wd and sd, on the least busy slave of the
 * first host that gets it.
 */
static void
place_wd_host(struct place_ctx *c, struct placement *p, int i, int h,
    int seq)
{
	const struct run_wd *rw = &c->r->wds[i];
	const struct place_host *ph = &c->hosts[h];
	int j, k, first = c->first[h];

	for (k = 0; k < rw->nsds; k++) {
		int best = first, pos;

		if (place_sd_lun(rw->sds[k], ph->label) == NULL)
			continue;
		if (!seq) {
			for (j = first; j < first + ph->nslaves; j++) {
				add_wg(p, i, rw->wd, rw->sds[k], j, 0);
				c->wgs_per_slave[j]++;
			}
			continue;
		}
		/* Once per wd and sd, on the first host. */
		pos = sd_pos(c->u, c->nu, rw->sds[k]);
		if (c->seq_wd[pos] == i + 1)
			continue;
		c->seq_wd[pos] = i + 1;
		for (j = first + 1; j < first + ph->nslaves; j++) {
			if (c->wgs_per_slave[j] < c->wgs_per_slave[best])
				best = j;
		}
		add_wg(p, i, rw->wd, rw->sds[k], best, 1);
		c->wgs_per_slave[best]++;
	}
}

/*
 * 1. WGs: for every wd and every host it runs on, the sds of the wd
 * defined there.
 */
static void
place_wgs(struct place_ctx *c, struct placement *p)
{
	const struct run *r = c->r;
	double seekpct = run_loop_value(r, LOOP_SEEKPCT, -1);
	int i, h;

	for (i = 0; i < r->nwds; i++) {
		const struct run_wd *rw = &r->wds[i];
		double sp = seekpct >= 0 ? seekpct : rw->wd->seekpct;
		int seq = rw->wd->seek_eof || sp <= 0;

		for (h = 0; h < c->nhosts; h++) {
			if (place_wd_on(rw->wd, c->hosts[h].label))
				place_wd_host(c, p, i, h, seq);
		}
	}
}

/* Index the WGs by sd: members[wg_first[x] .. wg_first[x + 1]). */
static void
index_wgs(struct place_ctx *c, const struct placement *p)
{
	int i, k;

	c->wg_pos = xcalloc((size_t)p->nwgs + 1, sizeof(int));
	c->members = xcalloc((size_t)p->nwgs + 1, sizeof(int));
	for (i = 0; i < p->nwgs; i++) {
		c->wg_pos[i] = sd_pos(c->u, c->nu, p->wgs[i].sd);
		c->wg_first[c->wg_pos[i] + 2]++;
	}
	for (k = 0; k < c->nu; k++)
		c->wg_first[k + 2] += c->wg_first[k + 1];
	/* members[wg_first[x] .. wg_first[x + 1]): sd x's WGs, in order */
	for (i = 0; i < p->nwgs; i++)
		c->members[c->wg_first[c->wg_pos[i] + 1]++] = i;
}

/*
 * Deal the threads of distinct sd x: round-robin over the hosts that use
 * it (one cursor across all sds), then within the host to the slave with
 * a WG for the sd and the fewest threads in total.
 */
static void
deal_sd(struct place_ctx *c, struct placement *p, int x, const struct sd *s,
    int *cursor)
{
	int *uses = xcalloc((size_t)c->nhosts + 1, sizeof(int));
	int *tps = c->threads_per_slave;
	int n, m, h;
	double t;

	for (m = c->wg_first[x]; m < c->wg_first[x + 1]; m++)
		uses[c->slave_host[p->wgs[c->members[m]].slave]] = 1;
	t = run_loop_value(c->r, LOOP_THREADS, s->threads);
	n = t < 1 ? 1 : (int)t;
	c->sd_from[x] = p->nsds;
	while (n-- > 0) {
		int best = -1;

		do {
			h = (*cursor)++ % c->nhosts;
		} while (!uses[h]);
		for (m = c->wg_first[x]; m < c->wg_first[x + 1]; m++) {
			int sl = p->wgs[c->members[m]].slave;

			if (c->slave_host[sl] != h)
				continue;
			if (best < 0 || tps[sl] < tps[best] ||
			    (tps[sl] == tps[best] && sl < best))
				best = sl;
		}
		tps[best]++;
		add_thread(p, s, best, c->sd_from[x]);
	}
	c->sd_to[x] = p->nsds;
	free(uses);
}

/* 2. Threads per sd, in the order of the sds' first WGs. */
static void
deal_threads(struct place_ctx *c, struct placement *p)
{
	int i, cursor = 0;

	index_wgs(c, p);
	for (i = 0; i < p->nwgs; i++) {
		int x = c->wg_pos[i];

		if (c->dealt[x])
			continue;
		c->dealt[x] = 1;
		deal_sd(c, p, x, p->wgs[i].sd, &cursor);
	}
}

/* 3. Drop WGs whose slave has no thread for their sd. */
static void
drop_idle_wgs(const struct place_ctx *c, struct placement *p)
{
	int i, j, k;

	for (i = j = 0; i < p->nwgs; i++) {
		int has = 0, x = c->wg_pos[i];

		for (k = c->sd_from[x]; k < c->sd_to[x]; k++)
			has |= p->sds[k].slave == p->wgs[i].slave;
		if (has)
			p->wgs[j++] = p->wgs[i];
	}
	p->nwgs = j;
}

/*
 * The skew of each workload into wd_skew and the fixed rates into *fixed:
 * every wd must have a WG left and the skews must add up to 100.
 */
static int
wd_skews(const struct run *r, const struct placement *p, double *wd_skew,
    double *fixed, struct errmsg *e)
{
	double skew_given = 0;
	int i, k, nfree = 0;

	for (i = 0; i < r->nwds; i++) {
		int used = 0;

		for (k = 0; k < p->nwgs; k++)
			used |= p->wgs[k].wd_idx == i;
		if (!used) {
			errmsg_set(e, NULL, 0, 0, "rd=%s,wd=%s not used. Could "
			    "it be that more hosts have been requested than "
			    "there are threads?", r->rd->name,
			    r->wds[i].wd->name);
			return (-1);
		}
		if (r->wds[i].wd->iorate_set)
			*fixed += r->wds[i].wd->iorate;
		else if (r->wds[i].wd->skew_set)
			skew_given += wd_skew[i] = r->wds[i].wd->skew_pct;
		else
			nfree++;
	}
	for (i = 0; i < r->nwds; i++) {
		if (!r->wds[i].wd->skew_set && !r->wds[i].wd->iorate_set)
			wd_skew[i] = nfree > 0 ? (100 - skew_given) / nfree : 0;
	}
	return (place_check_skew(r, e));
}

/* vdbench's check that the skews of a run add up to 100 (-s and runs). */
int
place_check_skew(const struct run *r, struct errmsg *e)
{
	double skew_given = 0, fixed = 0;
	int i, nfree = 0;

	for (i = 0; i < r->nwds; i++) {
		if (r->wds[i].wd->iorate_set)
			fixed += r->wds[i].wd->iorate;
		else if (r->wds[i].wd->skew_set)
			skew_given += r->wds[i].wd->skew_pct;
		else
			nfree++;
	}
	if (nfree == 0 && skew_given == 0 && fixed > 0)
		skew_given = 100;	/* only fixed-rate workloads */
	if ((nfree == 0 && fabs(skew_given - 100) > 0.0001) ||
	    (nfree > 0 && skew_given > 100.0001)) {
		errmsg_set(e, NULL, 0, 0, "rd=%s: Total skew must add up to "
		    "100: %.2f", r->rd->name, skew_given);
		return (-1);
	}
	return (0);
}

/* place_check_skew for every block run of a plan (before any I/O). */
int
place_check_skews(const struct plan *p, struct errmsg *e)
{
	int i;

	for (i = 0; i < p->nruns; i++) {
		if (p->runs[i].format_run || p->runs[i].nwds == 0)
			continue;
		if (place_check_skew(&p->runs[i], e) != 0)
			return (-1);
	}
	return (0);
}

/*
 * With fixed-rate workloads, the skewed ones need a numeric rd rate and
 * something of it left (rest).
 */
static int
check_rest(const struct run *r, double rate, double rest, double fixed,
    struct errmsg *e)
{
	int i;

	for (i = 0; i < r->nwds && fixed > 0; i++) {
		if (r->wds[i].wd->iorate_set)
			continue;
		if (rate <= 0) {
			errmsg_set(e, NULL, 0, 0, "rd=%s: a wd with iorate= "
			    "beside wd=%s without one needs a numeric rd "
			    "iorate= in vdbc (with iorate=max the other "
			    "workloads would take every I/O)", r->rd->name,
			    r->wds[i].wd->name);
			return (-1);
		}
		if (rest <= 0) {
			errmsg_set(e, NULL, 0, 0, "rd=%s: the workloads with "
			    "iorate= take all of iorate=%.0f; nothing is left "
			    "for wd=%s", r->rd->name, rate, r->wds[i].wd->name);
			return (-1);
		}
	}
	return (0);
}

/* Each WG's share of its workload's skew and rate. */
static void
apply_skew(const struct run *r, struct placement *p, const double *wd_skew,
    double rate, double rest)
{
	int i, k;

	for (i = 0; i < r->nwds; i++) {
		const struct wd *w = r->wds[i].wd;
		int n = 0;

		for (k = 0; k < p->nwgs; k++)
			n += p->wgs[k].wd_idx == i;
		for (k = 0; k < p->nwgs; k++) {
			if (p->wgs[k].wd_idx != i)
				continue;
			if (w->iorate_set) {
				p->wgs[k].rate_per_s = w->iorate / n;
				p->wgs[k].skew_pct = rate > 0 ? 100 *
				    w->iorate / rate / n : 0;
				continue;
			}
			p->wgs[k].skew_pct = wd_skew[i] / n *
			    (rate > 0 ? rest / rate : 1);
			p->wgs[k].rate_per_s = rest * wd_skew[i] / n / 100;
		}
	}
}

/* 4. Skew per workload, then per WG. */
static int
place_skew(const struct run *r, struct placement *p, struct errmsg *e)
{
	double *wd_skew = xcalloc((size_t)r->nwds + 1, sizeof(double));
	double rate, rest, fixed = 0;
	int rc = -1;

	if (wd_skews(r, p, wd_skew, &fixed, e) != 0)
		goto out;
	rate = r->iorate == RD_IORATE_MAX || r->iorate == RD_IORATE_CURVE ||
	    r->iorate < 0 ? 0 : r->iorate;
	/* What the fixed-rate workloads take is not for the skewed ones. */
	rest = rate > fixed ? rate - fixed : 0;
	if (check_rest(r, rate, rest, fixed, e) != 0)
		goto out;
	apply_skew(r, p, wd_skew, rate, rest);
	rc = 0;
out:
	free(wd_skew);
	return (rc);
}

/*
 * Place one run over the slaves of every host (12.2): the WGs, the
 * threads of each sd, the WGs left without a thread dropped, the skew.
 */
int
place_run_hosts(const struct run *r, const struct place_host *hosts,
    int nhosts, struct placement *p, struct errmsg *e)
{
	struct place_ctx c;
	int rc;

	ctx_init(&c, r, hosts, nhosts);
	memset(p, 0, sizeof(*p));
	place_wgs(&c, p);
	deal_threads(&c, p);
	drop_idle_wgs(&c, p);
	rc = place_skew(r, p, e);
	if (rc == 0 && (log_debug_mask & LOG_PLAN))
		debug_placement(r, hosts, c.slave_host, p);
	if (rc != 0)
		place_free(p);
	ctx_free(&c);
	return (rc);
}

/* Slaves for the local host: -m, jvms=, or vdbench's automatic rule. */
int
place_auto_jvms(const struct model *m, const struct plan *p, int jvms_opt,
    char *note, size_t len)
{
	const struct hd *h;
	const struct sd *s;
	double rate = 0, shown = 0;
	int i, nsds = 0, n;

	note[0] = '\0';
	if (jvms_opt > 0)
		return (jvms_opt);
	TAILQ_FOREACH(h, &m->hds, entry) {
		if (h->jvms > 0)
			return (h->jvms);
	}
	for (i = 0; i < p->nruns; i++) {
		double r = p->runs[i].iorate;

		if (p->runs[i].nfwds > 0 || r < 0)
			continue;
		if (r > rate) {
			rate = r;
			shown = r;
		}
	}
	TAILQ_FOREACH(s, &m->sds, entry)
		nsds++;
	if (rate <= 100000)
		return (1);
	n = (int)ceil(rate / 100000);
	if (n > 8)
		n = 8;
	if (n > nsds)
		n = nsds;
	if (n <= 1)
		return (1);
	if (shown == RD_IORATE_MAX)
		snprintf(note, len, "Adjusted default JVM count for host="
		    "localhost from jvms=1 to jvms=%d because of iorate=max and "
		    "a total of %d sds.", n, nsds);
	else
		snprintf(note, len, "Adjusted default JVM count for host="
		    "localhost from jvms=1 to jvms=%d because of iorate=%.0f "
		    "and a total of %d sds.", n, shown, nsds);
	return (n);
}
