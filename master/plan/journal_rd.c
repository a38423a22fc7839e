/* SPDX-License-Identifier: MIT */
/*
 * Journal settings and the journal_recovery rd (journal_rd.h).
 */
#include "journal_rd.h"

#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "xmalloc.h"

/* Is sd s used by some wd of some rd? */
static int
sd_used(const struct model *m, const struct sd *s)
{
	const struct wd *w;
	const struct rd *r;
	int i, k;

	TAILQ_FOREACH(r, &m->rds, entry) {
		for (i = 0; i < r->sds.n; i++)
			if (name_matches(r->sds.v[i], s->name))
				return (1);
		TAILQ_FOREACH(w, &m->wds, entry) {
			for (i = 0; i < r->wds.n; i++) {
				if (!name_matches(r->wds.v[i], w->name))
					continue;
				for (k = 0; k < w->sds.n; k++)
					if (name_matches(w->sds.v[k], s->name))
						return (1);
			}
		}
	}
	return (0);
}

int
journal_recovery_rd(const struct rd *r)
{
	return (r != NULL && strcmp(r->name, JOURNAL_RECOVERY_RD) == 0);
}

void
journal_model_apply(struct model *m, int cli_journal)
{
	struct rd *rd, *next;
	struct sd *s;
	int n = 0;

	m->general.journal |= cli_journal;
	if (m->general.journal == 0)
		return;
	m->general.validate |= VALIDATE_ON;
	if (!(m->general.journal & JOURNAL_RECOVER) || TAILQ_EMPTY(&m->sds))
		return;
	rd = rd_new(JOURNAL_RECOVERY_RD);
	TAILQ_FOREACH(s, &m->sds, entry) {
		struct wd *w;
		char *name;

		if (!sd_used(m, s))
			continue;
		xasprintf(&name, "journal_recovery_%s", s->name);
		w = wd_new(name);
		free(name);
		strlist_add(&w->sds, s->name);
		xfer_clear(&w->xfer);
		xfer_set_single(&w->xfer, 128 * 1024);
		w->readpct = 100;
		w->seekpct = 0;
		w->seek_eof = 1;
		TAILQ_INSERT_TAIL(&m->wds, w, entry);
		strlist_add(&rd->wds, w->name);
		n++;
	}
	if (n == 0) {
		rd_free(rd);
		return;
	}
	/* iorate=max, no elapsed: the rd ends when the reads reach the end
	 * of every sd (elapsed is only a bound, printed as "(none)") */
	rd->iorate_n = 1;
	rd->iorate = xcalloc(1, sizeof(double));
	rd->iorate[0] = RD_IORATE_MAX;
	rd->elapsed_s = 1000000;
	rd->interval_s = 1;
	if (m->general.journal & JOURNAL_ONLY) {
		struct rd *r;

		for (r = TAILQ_FIRST(&m->rds); r != NULL; r = next) {
			next = TAILQ_NEXT(r, entry);
			TAILQ_REMOVE(&m->rds, r, entry);
			rd_free(r);
		}
	}
	TAILQ_INSERT_HEAD(&m->rds, rd, entry);
}
