/* SPDX-License-Identifier: MIT */
/*
 * The simulate report. Curve points and N% runs need a measured rate;
 * like vdbench, simulate assumes 10000 I/O per second for them.
 */
#include "simulate.h"

#include <string.h>
#include <sys/stat.h>

#include "console.h"

#define SIMULATE_ASSUMED_MAX	10000.0

/* Say which file luns an SD_format run would create or expand first. */
static void
note_formats(const struct model *m, const struct plan *p)
{
	const struct sd *s;
	int i, k, used;

	TAILQ_FOREACH(s, &m->sds, entry) {
		used = 0;
		for (i = 0; i < p->nruns && !used; i++) {
			for (k = 0; k < p->runs[i].nwds && !used; k++) {
				int j;

				for (j = 0; j < p->runs[i].wds[k].nsds; j++)
					used |= p->runs[i].wds[k].sds[j] == s;
			}
		}
		if (!used)
			continue;
		for (i = 0; i < s->nluns; i++) {
			const char *lun = s->luns[i].lun;
			struct errmsg e;
			struct stat st;
			int exists = stat(lun, &st) == 0, rc;

			rc = plan_sd_needs_format(s, lun, exists,
			    exists ? (uint64_t)st.st_size : 0,
			    m->general.formatsds, &e);
			if (rc < 0)
				console_line("vdbc: a real run would stop "
				    "here: %s (lun=%s)", e.text, lun);
			else if (rc > 0)
				console_line("vdbc: an SD_format run will "
				    "precede the first run: lun=%s does not "
				    "exist or is too small.", lun);
		}
	}
}

/* Print the run list. */
void
simulate_print(const struct model *m, const struct plan *p)
{
	char rate[64], loops[1024], el[64];
	int i;

	note_formats(m, p);
	for (i = 0; i < p->nruns; i++) {
		const struct run *r = &p->runs[i];

		plan_loops_text(r, loops, sizeof(loops));
		plan_elapsed_text(r, el, sizeof(el));
		if (r->rd->fwds.n > 0) {
			double fr = r->iorate;

			if (fr == RD_IORATE_MAX)
				strcpy(rate, "max");
			else if (fr == RD_IORATE_CURVE)
				strcpy(rate, "curve");
			else
				snprintf(rate, sizeof(rate), "%lld",
				    (long long)fr);
			console_line("Simulating RD=%s; %s; fwdrate=%s. For "
			    "loops: %s", r->sim_name, el, rate, loops);
			continue;
		}
		plan_rate_text(r, SIMULATE_ASSUMED_MAX, rate, sizeof(rate));
		console_line("Simulating RD=%s; I/O rate: %s; %s; For loops: %s",
		    r->sim_name, rate, el, loops);
	}
}
