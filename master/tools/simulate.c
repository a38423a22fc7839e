/* SPDX-License-Identifier: MIT */
/*
 * The simulate report. Curve points and N% runs need a measured rate;
 * like vdbench, simulate assumes 10000 I/O per second for them.
 */
#include "simulate.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "console.h"
#include "dataerr.h"
#include "units.h"
#include "place.h"
#include "xmalloc.h"

#define SIMULATE_ASSUMED_MAX	10000.0

/* Order of sd pointers, for bsearch. */
static int
sd_ptr_cmp(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)*(const struct sd *const *)a;
	uintptr_t y = (uintptr_t)*(const struct sd *const *)b;

	return (x < y ? -1 : x > y);
}

/* Say which file luns an SD_format run would create or expand first. */
static void
note_formats(const struct model *m, const struct plan *p)
{
	const struct sd *s, **used = NULL;
	size_t n = 0, cap = 0;
	int i, k, j;

	/* the sds some run uses, sorted: 100,000 sds stay linear-ish */
	for (i = 0; i < p->nruns; i++) {
		for (k = 0; k < p->runs[i].nwds; k++) {
			for (j = 0; j < p->runs[i].wds[k].nsds; j++) {
				if (n == cap) {
					cap = cap < 64 ? 64 : cap * 2;
					used = xreallocarray(used, cap,
					    sizeof(*used));
				}
				used[n++] = p->runs[i].wds[k].sds[j];
			}
		}
	}
	if (n > 0)
		qsort(used, n, sizeof(*used), sd_ptr_cmp);
	TAILQ_FOREACH(s, &m->sds, entry) {
		if (n == 0 || bsearch(&s, used, n, sizeof(*used),
		    sd_ptr_cmp) == NULL)
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
	free(used);
}

/* The "Anchor size:" line of every fsd, as vdbench prints it. */
void
simulate_anchors(const struct model *m)
{
	static const char units[] = "kmgtp";
	const struct fsd *f;

	TAILQ_FOREACH(f, &m->fsds, entry) {
		uint64_t dirs, files, bytes;
		double v;
		char b[32], c[40];
		int u = -1;

		plan_anchor_size(f, &dirs, &files, &bytes);
		for (v = (double)bytes; v >= 1024 && u < 4; v /= 1024)
			u++;
		if (u < 0)
			snprintf(b, sizeof(b), "%llu", (unsigned long long)bytes);
		else
			snprintf(b, sizeof(b), "%.3f%c", v, units[u]);
		console_line("Anchor size: anchor=%s: dirs: %12llu; files: "
		    "%12llu; bytes: %10s (%s)", f->anchor,
		    (unsigned long long)dirs, (unsigned long long)files, b,
		    units_grouped(bytes, c, sizeof(c)));
	}
}

/* Print the run list; -1 (the error printed) when a run's skews fail. */
int
simulate_print(const struct model *m, const struct plan *p, int jvms_opt)
{
	char rate[64], loops[1024], el[64];
	struct dataerr de;
	struct errmsg e;
	int i;

	dataerr_init(&de, &m->general);	/* vdbench says it while parsing */
	if (dataerr_banner(&de)[0] != '\0')
		console_line("%s", dataerr_banner(&de));
	if (place_check_skews(p, &e) != 0) {
		console_fatal("%s", e.text);
		return (-1);
	}

	{
		char note[512];

		place_auto_jvms(m, p, jvms_opt, note, sizeof(note));
		if (note[0] != '\0') {
			console_line("%s", "");
			console_line("%s", note);
			console_line("%s", "");
		}
	}
	note_formats(m, p);
	for (i = 0; i < p->nruns; i++) {
		const struct run *r = &p->runs[i];

		plan_loops_text(r, loops, sizeof(loops));
		plan_elapsed_text(r, el, sizeof(el));
		if (r->format_run) {
			console_line("Simulating RD=%s", r->sim_name);
			continue;
		}
		if (r->rd->fwds.n > 0) {
			double fr = r->iorate;

			/* vdbench's punctuation: "max." but "100;". */
			if (fr == RD_IORATE_MAX)
				strcpy(rate, "max.");
			else if (fr == RD_IORATE_CURVE)
				strcpy(rate, "curve.");
			else
				snprintf(rate, sizeof(rate), "%lld;",
				    (long long)fr);
			console_line("Simulating RD=%s; %s; fwdrate=%s For "
			    "loops: %s", r->sim_name, el, rate, loops);
			continue;
		}
		plan_rate_text(r, SIMULATE_ASSUMED_MAX, rate, sizeof(rate));
		console_line("Simulating RD=%s; I/O rate: %s; %s; For loops: %s",
		    r->sim_name, rate, el, loops);
	}
	return (0);
}
