/* SPDX-License-Identifier: MIT */
/*
 * Before the first run: what this build cannot run is refused by name,
 * the hosts' INFO answers become lun sizes and SD_format decisions, and
 * startcmd=/endcmd= run.
 */
#include "run_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>

#include "auth.h"
#include "console.h"
#include "engines.h"
#include "place.h"
#include "report.h"
#include "xmalloc.h"

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
 * An sd's lun on host h to create or expand in the SD_format run: from
 * the last whole MiB it has (vdbench expands a file whose size is a
 * multiple of 1 MiB), or from 0 with formatsds=1.
 */
static void
add_format(struct master *m, const struct sd *sd, int h, int exists,
    uint64_t size, const char *lun)
{
	if (m->pre.nformat == m->pre.format_cap) {
		m->pre.format_cap = m->pre.format_cap == 0 ? 64 : 2 * m->pre.format_cap;
		m->pre.format_sd = xreallocarray(m->pre.format_sd,
		    (size_t)m->pre.format_cap, sizeof(*m->pre.format_sd));
		m->pre.format_host = xreallocarray(m->pre.format_host,
		    (size_t)m->pre.format_cap, sizeof(*m->pre.format_host));
		m->pre.format_from = xreallocarray(m->pre.format_from,
		    (size_t)m->pre.format_cap, sizeof(*m->pre.format_from));
	}
	if (m->pre.nformat == 0)
		console_line("Vdbench will attempt to expand a disk file if the "
		    "requested file size is a multiple of 1mb");
	console_line("lun=%s does not exist or is too small. host=%s", lun,
	    m->hosts[h].label);
	m->pre.format_sd[m->pre.nformat] = sd;
	m->pre.format_host[m->pre.nformat] = h;
	m->pre.format_from[m->pre.nformat] = exists ? size / RUN_FORMAT_ALIGN *
	    RUN_FORMAT_ALIGN : 0;
	if (m->model->general.formatsds == 1)
		m->pre.format_from[m->pre.nformat] = 0;
	m->pre.nformat++;
}

/*
 * vdbench's rule (Work.prepareWgWork, run for every rd once the slaves
 * are connected, not under -s): a run whose wds have streams= must run at
 * iorate=max; a set rate, a curve or N% is refused before any I/O.
 */
static int
check_streams_rate(const struct plan *p, struct errmsg *err)
{
	int r, w;

	for (r = 0; r < p->nruns; r++) {
		const struct run *run = &p->runs[r];

		if (run->format_run || run->iorate == RD_IORATE_MAX)
			continue;
		for (w = 0; w < run->nwds; w++) {
			if (run->wds[w].wd->streams > 1) {
				errmsg_set(err, "", 0, 0, "Use of the streams= "
				    "parameter requires iorate=max");
				return (-1);
			}
		}
	}
	return (0);
}

/*
 * Every host's INFO answer is in: lun facts; decide on SD_format per sd
 * and host; open the report keys. An sd's size is its size= or the
 * smallest of its luns over the hosts. -1 and why when a lun cannot be
 * used.
 */
int
on_info(struct master *m, struct errmsg *err)
{
	const struct sd *sd, **runs_sds = NULL;
	json_t **facts = xcalloc((size_t)m->nhosts + 1, sizeof(*facts));
	size_t nused = 0, cap = 0;
	int si = 0, rc = -1, h, r, w, k;

	for (h = 0; h < m->nhosts; h++)
		facts[h] = lun_facts(json_array_get(m->pre.info, (size_t)h));
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
		m->pre.sd_size[si] = sd->size_bytes > 0 ? sd->size_bytes :
		    smallest;
		si++;
		for (h = 0; used && h < m->nhosts; h++) {
			const char *lun = place_sd_lun(sd, m->hosts[h].label);
			json_int_t size;
			int exists, need;

			if (lun == NULL)
				continue;
			lun_fact(facts[h], lun, &exists, &size);
			need = plan_sd_needs_format(sd, lun, exists,
			    (uint64_t)size, m->model->general.formatsds, err);
			if (need < 0)
				goto out;
			if (need == 0 && !exists) {
				errmsg_set(err, "", 0, 0, "sd=%s,lun=%s: the lun "
				    "does not exist on host %s", sd->name, lun,
				    m->hosts[h].label);
				goto out;
			}
			if (need == 0 && m->pre.sd_size[si - 1] == 0) {
				errmsg_set(err, "", 0, 0, "Unknown lun size for "
				    "sd=%s", sd->name);
				goto out;
			}
			if (need > 0 && (engines_flags(sd_engine(sd,
			    &sd->openflags)) & ENGINE_NOIO) != 0) {
				console_line("sd=%s,lun=%s: engine=null does no "
				    "I/O, so the lun is not formatted (an empty "
				    "file is made if there is none)", sd->name,
				    lun);
			} else if (need > 0)
				add_format(m, sd, h, exists, (uint64_t)size,
				    lun);
		}
	}
	if (check_streams_rate(m->plan, err) != 0)
		goto out;
	report_status(m->rep, "Query host configuration completed", NULL, NULL);
	m->pre.had_format = m->pre.nformat > 0;
	open_key_reports(m);
	report_rd_links(m->rep, m->plan, m->pre.nformat > 0);
	/* a report file that could not be made stops the run before any
	 * I/O, not at the first interval */
	if (report_check(m->rep, err) != 0)
		goto out;
	rc = 0;
out:
	for (h = 0; h < m->nhosts; h++)
		json_decref(facts[h]);
	free(facts);
	free(runs_sds);
	return (rc);
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

			if (fwd_nhosts(m->hosts, m->nhosts, w) == 0) {
				console_fatal("fwd=%s: host=%s matches none of "
				    "the hosts of this parmfile", w->name,
				    w->hosts.n > 0 ? w->hosts.v[0] : "*");
				return (-1);
			}
			for (j = 0; j < r->fwds[k].nfsds; j++) {
				const struct fsd *f = r->fwds[k].fsds[j];

				if (!f->shared &&
				    fwd_nhosts(m->hosts, m->nhosts, w) > 1) {
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
		const struct strlist *rops = r->nfwds > 0 &&
		    r->rd->operations.n > 0 ? &r->rd->operations : NULL;
		int nops = rops != NULL ? rops->n : 1;

		for (k = 0; k < r->nfwds * nops; k++) {
			const struct fwd *w = r->fwds[k / nops].fwd;
			const char *op = rops != NULL ?
			    rops->v[k % nops] : w->operation != NULL ?
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

/*
 * Under validation an sd's key map (and journal) lives on the one slave
 * that drives it: an sd placed on two hosts would be two maps of one lun
 * if the hosts share it, each reporting the other's writes as corrupt.
 * Nothing tells vdbc whether they do, so such a run is refused; and the
 * journal of fsd workloads is not built (it ran as plain -v before).
 */
static int
check_dv_hosts(struct master *m, const struct model *model,
    const struct plan *p)
{
	struct place_host *ph;
	struct errmsg e;
	int i, k, j, rc = 0;

	if (!model->general.validate)
		return (0);
	for (i = 0; i < p->nruns; i++) {
		for (k = 0; k < p->runs[i].nwds; k++) {
			for (j = 0; j < p->runs[i].wds[k].nsds; j++) {
				const struct sd *sd = p->runs[i].wds[k].sds[j];

				if ((engines_flags(sd_engine(sd,
				    &sd->openflags)) & ENGINE_NOIO) == 0)
					continue;
				/* its reads bring nothing to compare */
				console_fatal("rd=%s: Data Validation: sd=%s "
				    "has engine=null, which moves no data; "
				    "validate with engine=sync, aio or "
				    "io_uring", p->runs[i].rd->name, sd->name);
				return (-1);
			}
		}
		if (p->runs[i].nfwds > 0 && model->general.journal) {
			console_fatal("rd=%s: the journal (-j, journal=) of file "
			    "system workloads (fsd/fwd) is not supported by vdbc "
			    "yet; -v on them is (docs/validation.md)",
			    p->runs[i].rd->name);
			return (-1);
		}
	}
	if (m->nhosts < 2)
		return (0);
	ph = xcalloc((size_t)m->nhosts, sizeof(*ph));
	for (i = 0; i < m->nhosts; i++) {
		ph[i].label = m->hosts[i].label;
		ph[i].nslaves = 1;
	}
	for (i = 0; i < p->nruns && rc == 0; i++) {
		struct placement pl;

		if (p->runs[i].nfwds > 0)
			continue;
		if (place_run_hosts(&p->runs[i], ph, m->nhosts, &pl, &e) != 0)
			continue;	/* the run's own check says why */
		for (k = 0; k < pl.nsds && rc == 0; k++) {
			for (j = 0; j < k; j++) {
				if (pl.sds[j].sd != pl.sds[k].sd ||
				    pl.sds[j].slave == pl.sds[k].slave)
					continue;
				console_fatal("rd=%s: Data Validation: sd=%s would "
				    "be driven from hd=%s and hd=%s; under "
				    "validation an sd is driven by one slave, "
				    "which keeps its key map. Give each host "
				    "its own sd (sd host=, or wd host=)",
				    p->runs[i].rd->name, pl.sds[k].sd->name,
				    m->hosts[pl.sds[j].slave].label,
				    m->hosts[pl.sds[k].slave].label);
				rc = -1;
				break;
			}
		}
		place_free(&pl);
	}
	free(ph);
	return (rc);
}

/* Refuse what this build cannot run yet, before anything starts. */
int
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
	if (daemons > 0 && auth_load_token(m->o->token_file, m->launch.token,
	    &e) != 0) {
		console_fatal("%s", e.text);
		return (-1);
	}
	if (place_check_skews(p, &e) != 0) {
		console_fatal("%s", e.text);
		return (-1);
	}
	if (check_dv_hosts(m, model, p) != 0)
		return (-1);
	if (model->unbuilt.n > 0) {
		for (i = 0; i < model->unbuilt.n; i++) {
			const char *u = model->unbuilt.v[i];
			const char *tab = strchr(u, '\t');

			/* parm_value.c's entries: "what (place)\twhy" */
			if (tab != NULL)
				console_line("%.*s is not supported by vdbc "
				    "yet: %s", (int)(tab - u), u, tab + 1);
			else
				console_line("%s is not supported by vdbc yet",
				    u);
		}
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
void
general_cmd(const char *which, const struct strlist *v, const char *outdir)
{
	int i, cons = 0;

	for (i = 0; i < v->n; i++)
		cons |= strcasecmp(v->v[i], "cons") == 0;
	for (i = 0; i < v->n; i++) {
		const char *c = v->v[i];
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
		/* vdbench's lines (Debug_cmds; reference validation/v2a) */
		console_line("Start/end command: executing '%s'", cmd);
		console_line("execute(): %s", cmd);
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
				console_logonly("Cmd: %s", line);
		}
		st = pclose(f);
		if (st != 0)
			console_line("%s: '%s' exited with status %d", which, cmd,
			    WIFEXITED(st) ? WEXITSTATUS(st) : -1);
		free(cmd);
	}
}
