/* SPDX-License-Identifier: MIT */
/*
 * Hints for an unknown keyword: did you mean (edit distance over the
 * section tables) and the section order.
 * Part of the parmfile parser (parm_int.h).
 */
#include "parm_int.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fstree.h"
#include "html.h"
#include "model_fields.h"
#include "mtime.h"
#include "xmalloc.h"
#include "parmyaml.h"
#include "plan.h"

/* Edit distance between two short words (Levenshtein). */
static int
distance(const char *a, const char *b)
{
	int la = (int)strlen(a), lb = (int)strlen(b), i, j;
	int d[40][40];

	if (la >= 40 || lb >= 40)
		return (99);
	for (i = 0; i <= la; i++)
		d[i][0] = i;
	for (j = 0; j <= lb; j++)
		d[0][j] = j;
	for (i = 1; i <= la; i++) {
		for (j = 1; j <= lb; j++) {
			int c = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);

			if (d[i - 1][j] + 1 < c)
				c = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < c)
				c = d[i][j - 1] + 1;
			d[i][j] = c;
		}
	}
	return (d[la][lb]);
}

/* " (did you mean 'xfersize='?)" for a near miss, else "". */
const char *
did_you_mean(struct pstate *ps, const char *kw)
{
	static char buf[96];
	const struct kwdef *d, *best = NULL;
	int bd = 99;

	if (sec_tables[ps->sec] == NULL)
		return ("");
	for (d = sec_tables[ps->sec]; d->name != NULL; d++) {
		int x = distance(kw, d->name);

		if (x < bd) {
			bd = x;
			best = d;
		}
	}
	if (best == NULL || bd > 2 || bd * 3 > (int)strlen(kw))
		return ("");
	snprintf(buf, sizeof(buf), " (did you mean '%s='?)", best->name);
	return (buf);
}

/* A hint for a keyword that belongs to an earlier section. */
const char *
order_hint(struct pstate *ps, const char *kw)
{
	if (ps->sec > SEC_GENERAL && match_kw(general_kws, kw) != NULL)
		return (" (general parameters must come before the first "
		    "hd=, fsd=, sd=, wd=, fwd= or rd=)");
	if (ps->out_of_order && match_kw(sd_kws, kw) != NULL)
		return (" (sd= lines must precede wd= lines)");
	return ("");
}
