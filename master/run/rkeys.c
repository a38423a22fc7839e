/* SPDX-License-Identifier: MIT */
/*
 * The report keys of a run list (FORMATS.md 3): host, slave, sd, wd, fsd
 * and fwd reports, host_detail and slave_detail, and anchors.html rows.
 */
#include "rkeys.h"
#include "run_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "html.h"
#include "journal_rd.h"
#include "place.h"
#include "report.h"
#include "xmalloc.h"

/* The report key of a wd name, or -1. */
int
wd_key(const struct master *m, const char *name)
{
	int i;

	for (i = 0; i < m->keys.nwd; i++) {
		if (strcmp(m->keys.wd_name[i], name) == 0)
			return (m->keys.wd[i]);
	}
	return (-1);
}

/* The report key of an fsd or fwd ("fsd", name), or -1. */
int
fs_key(const struct master *m, const char *kind, const char *name)
{
	char want[300];
	int i;

	if (name == NULL)
		return (-1);
	snprintf(want, sizeof(want), "%s:%s", kind, name);
	for (i = 0; i < m->keys.fs_name.n; i++) {
		if (strcmp(m->keys.fs_name.v[i], want) == 0)
			return (m->keys.fs[i]);
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
				m->keys.fs = xreallocarray(m->keys.fs, (size_t)
				    m->keys.fs_name.n + 1, sizeof(int));
				m->keys.fs[m->keys.fs_name.n] = report_key_add(
				    m->rep, RKEY_FSD, pr->fwds[k].fsds[j]->name,
				    1);
				strlist_add(&m->keys.fs_name, n);
			}
		}
	}
	if (m->keys.fs_name.n > 0) {
		const struct fsd *f;

		m->keys.anchor_w = 15;
		TAILQ_FOREACH(f, &m->model->fsds, entry)
			if ((int)strlen(f->anchor) > m->keys.anchor_w)
				m->keys.anchor_w = (int)strlen(f->anchor);
		/* RKEY_ANCHORS takes the anchor column width in with_hist. */
		m->keys.anchors = report_key_add(m->rep, RKEY_ANCHORS,
		    "anchors", m->keys.anchor_w);
	}
	if (format) {
		m->keys.fs = xreallocarray(m->keys.fs,
		    (size_t)m->keys.fs_name.n + 1, sizeof(int));
		m->keys.fs[m->keys.fs_name.n] = report_key_add(m->rep, RKEY_FWD,
		    "format", 1);
		strlist_add(&m->keys.fs_name, "fwd:format");
	}
	for (r = 0; r < m->plan->nruns; r++) {
		const struct run *pr = &m->plan->runs[r];

		for (k = 0; k < pr->nfwds; k++) {
			char n[300];

			if (pr->format_run || fs_key(m, "fwd",
			    pr->fwds[k].fwd->name) >= 0)
				continue;
			snprintf(n, sizeof(n), "fwd:%s", pr->fwds[k].fwd->name);
			m->keys.fs = xreallocarray(m->keys.fs, (size_t)
			    m->keys.fs_name.n + 1, sizeof(int));
			m->keys.fs[m->keys.fs_name.n] = report_key_add(m->rep,
			    RKEY_FWD, pr->fwds[k].fwd->name, 1);
			strlist_add(&m->keys.fs_name, n);
		}
	}
}

/* anchors.html rows from a slave's [{anchor, files, dirs, bytes,
 * full_files, full_bytes}]. */
void
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
		report_anchor_row(m->rep, m->keys.anchors, m->keys.anchor_w, a,
		    size, total, wss, ex, op);
	}
}

/* A key per host and per slave, the host's links to its slaves. */
static void
open_host_keys(struct master *m)
{
	int i, k;

	m->keys.hosts = xcalloc((size_t)m->nhosts, sizeof(int));
	m->keys.slave = xcalloc((size_t)m->nslaves + 1, sizeof(int));
	for (k = 0; k < m->nhosts; k++) {
		const struct mhost *h = &m->hosts[k];
		char link[2048], hn[400];

		m->keys.hosts[k] = report_key_add(m->rep, RKEY_HOST, h->label,
		    0);
		for (i = h->first; i < h->first + h->nslaves; i++) {
			m->keys.slave[i] = report_key_add(m->rep, RKEY_SLAVE,
			    m->sl[i].name, m->nslaves > 1);
			html_esc(hn, sizeof(hn), m->sl[i].name);
			snprintf(link, sizeof(link), "%-32s <A HREF=\"%s.html\">"
			    "%s summary</A>   <A HREF=\"%s.stdout.html\">%s "
			    "stdout</A>\n", "Link to slave summary report:",
			    hn, hn, hn, hn);
			report_key_text(m->rep, m->keys.hosts[k], link);
		}
		snprintf(link, sizeof(link), "Link to /var/adm/messages:       "
		    "<A HREF=\"%s.var_adm_msgs.html\">messages</A>\n\n",
		    html_esc(hn, sizeof(hn), h->label));
		report_key_text(m->rep, m->keys.hosts[k], link);
		report_host_messages(m->rep, h->label);
	}
}

/* A key per sd that a run or a format uses (-1 for the others). */
static void
open_sd_keys(struct master *m, int no_sd)
{
	const struct sd *sd;
	int r, w, k, si = 0, nsds = 0;

	TAILQ_FOREACH(sd, &m->model->sds, entry)
		nsds++;
	m->keys.sd = xcalloc((size_t)nsds + 1, sizeof(int));
	TAILQ_FOREACH(sd, &m->model->sds, entry) {
		int used = 0;

		for (k = 0; k < m->pre.nformat; k++)
			used |= m->pre.format_sd[k] == sd;
		for (r = 0; r < m->plan->nruns && !used; r++) {
			for (w = 0; w < m->plan->runs[r].nwds; w++) {
				for (k = 0; k < m->plan->runs[r].wds[w].nsds;
				    k++)
					used |= m->plan->runs[r].wds[w].sds[k] ==
					    sd;
			}
		}
		m->keys.sd[si++] = used ? report_key_add(m->rep, no_sd ?
		    RKEY_SDQUIET : RKEY_SD, sd->name, 1) : -1;
	}
	m->keys.nsds = nsds;
}

/* report=host_detail, slave_detail: a key per host or slave and sd. */
static void
open_detail_keys(struct master *m, int host_detail, int slave_detail)
{
	const struct sd *sd;
	char name[300];
	int i, k, si = 0, nsds = m->keys.nsds;

	if (host_detail)
		m->keys.hostsd = xcalloc((size_t)(nsds * m->nhosts) + 1,
		    sizeof(int));
	if (slave_detail)
		m->keys.slavesd = xcalloc((size_t)(nsds * m->nslaves) + 1,
		    sizeof(int));
	TAILQ_FOREACH(sd, &m->model->sds, entry) {
		int used = m->keys.sd[si] >= 0;

		for (k = 0; host_detail && k < m->nhosts; k++) {
			const char *lun = place_sd_lun(sd, m->hosts[k].label);

			snprintf(name, sizeof(name), "%s.%s",
			    m->hosts[k].label, sd->name);
			m->keys.hostsd[k * nsds + si] = used && lun != NULL ?
			    report_key_add_lun(m->rep, RKEY_HOSTSD, name,
			    lun) : -1;
		}
		for (i = 0; slave_detail && i < m->nslaves; i++) {
			snprintf(name, sizeof(name), "%s.%s", m->sl[i].name,
			    sd->name);
			m->keys.slavesd[i * nsds + si] = used ?
			    report_key_add(m->rep, RKEY_SLAVESD, name, 0) : -1;
		}
		si++;
	}
}

/* Workload reports when the run list has more than one workload. */
static void
open_wd_keys(struct master *m)
{
	struct strlist wds = { 0, NULL, 0 };
	char name[300];
	int r, w, k, pass;

	for (k = 0; k < m->pre.nformat; k++) {
		int j, seen = 0;

		/* one per sd, however many hosts format it (vdbench's
		 * CreateSdFile: a wd per sd) */
		for (j = 0; j < k; j++)
			seen |= m->pre.format_sd[j] == m->pre.format_sd[k];
		if (seen)
			continue;
		snprintf(name, sizeof(name), "SD_format_%s",
		    m->pre.format_sd[k]->name);
		strlist_add(&wds, name);
	}
	/* in the order of first use; -jr's journal_recovery wds last, as
	 * vdbench appends them to its wds (v3's and v4's summary.html) */
	for (pass = 0; pass < 2; pass++) {
		for (r = 0; r < m->plan->nruns; r++) {
			if (journal_recovery_rd(m->plan->runs[r].rd) != pass)
				continue;
			for (w = 0; w < m->plan->runs[r].nwds; w++) {
				const char *n = m->plan->runs[r].wds[w].wd->name;
				int seen = 0;

				for (k = 0; k < wds.n; k++)
					seen |= strcmp(wds.v[k], n) == 0;
				if (!seen)
					strlist_add(&wds, n);
			}
		}
	}
	m->keys.nwd = wds.n;
	m->keys.wd_name = wds.v;
	m->keys.wd = xcalloc((size_t)wds.n + 1, sizeof(int));
	for (k = 0; k < wds.n; k++)
		m->keys.wd[k] = wds.n > 1 ? report_key_add(m->rep, RKEY_WD,
		    wds.v[k], 1) : -1;
}

/* Open the host, slave, sd and wd reports (FORMATS.md 3). */
void
open_key_reports(struct master *m)
{
	const struct strlist *rep = &m->model->general.report;
	int i, host_detail = 0, slave_detail = 0, no_sd = 0;

	for (i = 0; i < rep->n; i++) {
		host_detail |= strcasecmp(rep->v[i], "host_detail") == 0;
		slave_detail |= strcasecmp(rep->v[i], "slave_detail") == 0;
		no_sd |= strcasecmp(rep->v[i], "no_sd_detail") == 0;
	}
	open_host_keys(m);
	open_sd_keys(m, no_sd);
	open_fs_keys(m);
	if (host_detail || slave_detail)
		open_detail_keys(m, host_detail, slave_detail);
	open_wd_keys(m);
}

/* Free what the map holds. */
void
rkey_map_free(struct rkey_map *k)
{
	int i;

	free(k->hosts);
	free(k->slave);
	free(k->sd);
	free(k->hostsd);
	free(k->slavesd);
	for (i = 0; i < k->nwd; i++)
		free(k->wd_name[i]);
	free(k->wd_name);
	free(k->wd);
	strlist_clear(&k->fs_name);
	free(k->fs);
	memset(k, 0, sizeof(*k));
}
