/* SPDX-License-Identifier: MIT */
/*
 * Data validation of file-system runs on the master: the key block of
 * each fsd's map and the refusals (fsdv.h). The slave keeps one map per
 * fsd over all its files back to back (slave/fs_dv.c).
 */
#include "fsdv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model.h"
#include "place.h"
#include "plan.h"
#include "xmalloc.h"

int
fsdv_index(const struct model *m, const char *name)
{
	const struct fsd *f;
	int i = 0;

	TAILQ_FOREACH(f, &m->fsds, entry) {
		if (strcmp(f->name, name) == 0)
			return (i);
		i++;
	}
	return (-1);
}

void
fsdv_xmin(const struct model *m, const struct plan *plan, uint64_t *out)
{
	const struct fwd *ff = NULL, *fw;
	int r, w, k, j;

	TAILQ_FOREACH(fw, &m->fwds, entry)
		if (strcmp(fw->name, "format") == 0)
			ff = fw;

	for (r = 0; r < plan->nruns; r++) {
		const struct run *pr = &plan->runs[r];
		double xs = run_loop_value(pr, LOOP_XFERSIZE, -1);

		for (w = 0; w < pr->nfwds; w++) {
			const struct xfer *x = &pr->fwds[w].fwd->xfer;
			uint64_t v = xs > 0 ? (uint64_t)xs : 0;

			for (j = 0; xs <= 0 && j < x->n; j++)
				if (v == 0 || x->size_bytes[j] < v)
					v = x->size_bytes[j];
			for (k = 0; k < pr->fwds[w].nfsds; k++) {
				int fi = fsdv_index(m,
				    pr->fwds[w].fsds[k]->name);

				if (fi >= 0 && v > 0 && (out[fi] == 0 ||
				    v < out[fi]))
					out[fi] = v;
				/* an fwd=format's xfersize writes it too */
				for (j = 0; fi >= 0 && ff != NULL &&
				    j < ff->xfer.n; j++)
					if (ff->xfer.size_bytes[j] < out[fi])
						out[fi] = ff->xfer.size_bytes[j];
			}
		}
	}
}

/*
 * The fwd operations that create, delete or move files: vdbench's
 * reference runs do not show what they do to an fsd's key map, so vdbc
 * does not guess (docs/validation.md).
 */
static int
op_changes_files(const char *op)
{
	static const char *const ops[] = { "create", "delete", "copy",
	    "move", NULL };
	int i;

	for (i = 0; ops[i] != NULL; i++)
		if (op != NULL && strcasecmp(op, ops[i]) == 0)
			return (1);
	return (0);
}

static void
refuse(struct model *m, const char *what, const char *why)
{
	char *t;

	xasprintf(&t, "%s\t%s", what, why);
	strlist_add(&m->unbuilt, t);
	free(t);
}

void
fsdv_model_check(struct model *m)
{
	static const char files_why[] = "what vdbench does to the Data "
	    "Validation map of an fsd when files are created, deleted, "
	    "copied or moved is not known from its reference runs; -v on "
	    "fsds runs format, read and write (and the operations that "
	    "leave file data alone)";
	const struct fwd *w;
	const struct fsd *f;
	const struct rd *rd;
	char what[512];
	int i, k;

	TAILQ_FOREACH(w, &m->fwds, entry) {
		if (strcmp(w->name, "format") == 0)
			continue;
		if (op_changes_files(w->operation)) {
			snprintf(what, sizeof(what), "Data Validation (-v, "
			    "validate=) with fwd=%s,operation=%s", w->name,
			    w->operation);
			refuse(m, what, files_why);
		}
		if (w->fileio_delete) {
			snprintf(what, sizeof(what), "Data Validation (-v, "
			    "validate=) with fwd=%s,fileio=(sequential,"
			    "delete)", w->name);
			refuse(m, what, files_why);
		}
	}
	TAILQ_FOREACH(rd, &m->rds, entry) {
		for (i = 0; i < rd->operations.n; i++) {
			if (!op_changes_files(rd->operations.v[i]))
				continue;
			snprintf(what, sizeof(what), "Data Validation (-v, "
			    "validate=) with rd=%s,operation=%s", rd->name,
			    rd->operations.v[i]);
			refuse(m, what, files_why);
		}
		for (i = 0; i < rd->nloops; i++) {
			const struct forloop *l = &rd->loops[i];

			for (k = 0; l->kind == LOOP_OPERATION &&
			    l->strs != NULL && k < l->n; k++) {
				if (!op_changes_files(l->strs[k]))
					continue;
				snprintf(what, sizeof(what), "Data Validation "
				    "(-v, validate=) with rd=%s,"
				    "foroperation=%s", rd->name, l->strs[k]);
				refuse(m, what, files_why);
			}
		}
	}
	TAILQ_FOREACH(f, &m->fsds, entry) {
		if (!f->shared)
			continue;
		snprintf(what, sizeof(what), "Data Validation (-v, validate=) "
		    "with fsd=%s,shared=yes", f->name);
		refuse(m, what, "each slave would keep its own map of the "
		    "fsd's files; validation needs one map per fsd, on one "
		    "slave");
	}
}
