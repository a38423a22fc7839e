/* SPDX-License-Identifier: MIT */
/*
 * Data validation on the master (docs/validation.md): what of it this
 * build cannot run yet is refused by name before any I/O.
 */
#include "dvreport.h"

#include <stdlib.h>
#include <string.h>

#include "fsdv.h"
#include "console.h"
#include "model.h"
#include "xmalloc.h"

/*
 * Dedup under validation (slave/dv.h): vdbench forces flipflop on with
 * its banner (Dedup.checkDedupParms). Built for the general dedup
 * parameters and one sd: vdbench spreads the dedup sets of all the sds
 * sharing a Dedup over their summed sizes (SdDedup), which needs every
 * lun's size on the master, and an sd's own dedup is a second Dedup
 * with its own dedup_type.
 */
static void
dv_dedup_check(struct model *m)
{
	static const char text[] = "Data Validation with Dedup requires "
	    "'dedup=flipflop'. Flipflop now activated.";
	char stars[sizeof(text) + 4];
	struct sd *sd;
	int nsds = 0;

	TAILQ_FOREACH(sd, &m->sds, entry) {
		nsds++;
		if (sd->dedupratio >= 1 || sd->dedupsets != 0 ||
		    sd->dedupacross >= 0) {
			char *t;

			xasprintf(&t, "sd=%s: Data Validation (-v, validate=) "
			    "with an sd's own dedup parameters (vdbench "
			    "makes it a second dedup type)", sd->name);
			strlist_add(&m->unbuilt, t);
			free(t);
		}
	}
	if (nsds > 1)
		strlist_add(&m->unbuilt, "Data Validation (-v, validate=) "
		    "with dedupratio= on more than one sd (vdbench spreads "
		    "the dedup sets over the sds' summed sizes)");
	if (m->general.dedupmaxkey != 0 && m->general.dedupmaxkey != 2)
		strlist_add(&m->unbuilt, "dedupmaxkey= other than 2 (the "
		    "flipflop keys 1 and 2) under Data Validation");
	if (m->general.dedupflipflop)
		return;
	memset(stars, '*', sizeof(stars) - 1);
	stars[sizeof(stars) - 1] = '\0';
	console_held("*");
	console_held("%s", stars);
	console_held("* %s *", text);
	console_held("%s", stars);
	console_held("*");
}

void
dv_model_check(struct model *m, int cli_validate)
{
	m->general.validate |= cli_validate;
	if (m->general.validate == 0) {
		if (m->general.dedupflipflop)
			strlist_add(&m->unbuilt, "dedupflipflop=yes without "
			    "Data Validation (flipflop alternates a "
			    "duplicate's data by the per-block keys of data "
			    "validation, which vdbc's dedup keeps only under "
			    "-v)");
		if (m->general.dedupmaxkey != 0)
			strlist_add(&m->unbuilt, "dedupmaxkey= without Data "
			    "Validation (it bounds the flipflop keys, which "
			    "vdbc keeps only under -v)");
		return;
	}
	fsdv_model_check(m);	/* fsd/fwd: master/fsdv.c */
	if (m->general.dedupratio >= 1)
		dv_dedup_check(m);
}
