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

/* Drop the refusals that start with prefix from the unbuilt list. */
static void
unbuilt_lift(struct model *m, const char *prefix)
{
	struct strlist keep = { 0, NULL, 0 };
	int i;

	for (i = 0; i < m->unbuilt.n; i++)
		if (strncmp(m->unbuilt.v[i], prefix, strlen(prefix)) != 0)
			strlist_add(&keep, m->unbuilt.v[i]);
	strlist_clear(&m->unbuilt);
	m->unbuilt = keep;
}

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
	/* the parse refused them; under -v the general flipflop=yes and
	 * maxkey=2 are what vdbench does anyway */
	if (m->general.dedupflipflop)
		unbuilt_lift(m, "'dedupflipflop=' (");
	if (m->general.dedupmaxkey == 2)
		unbuilt_lift(m, "'dedupmaxkey=' (");
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
	if (m->general.validate == 0)
		return;
	fsdv_model_check(m);	/* fsd/fwd: master/fsdv.c */
	if (m->general.dedupratio >= 1)
		dv_dedup_check(m);
}
