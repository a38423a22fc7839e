/* SPDX-License-Identifier: MIT */
/*
 * Data validation on the master (docs/validation.md): what of it this
 * build cannot run yet is refused by name before any I/O.
 */
#include "dvreport.h"

#include <stdlib.h>

#include "fsdv.h"
#include "model.h"
#include "xmalloc.h"

void
dv_model_check(struct model *m, int cli_validate)
{
	struct wd *wd;

	m->general.validate |= cli_validate;
	if (m->general.validate == 0)
		return;
	fsdv_model_check(m);	/* fsd/fwd: master/fsdv.c */
	if (m->general.dedupratio >= 1)
		strlist_add(&m->unbuilt, "Data Validation (-v, validate=) "
		    "with dedupratio=");
	/* the slave would refuse it too, but only after SD_format wrote */
	TAILQ_FOREACH(wd, &m->wds, entry) {
		char *t;

		if (wd->xfer.kind != XFER_RANGE)
			continue;
		xasprintf(&t, "wd=%s: Data Validation (-v, validate=) with an "
		    "xfersize range (min,max,align)", wd->name);
		strlist_add(&m->unbuilt, t);
		free(t);
	}
}
