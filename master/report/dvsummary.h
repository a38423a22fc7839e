/* SPDX-License-Identifier: MIT */
#ifndef MASTER_DVSUMMARY_H
#define MASTER_DVSUMMARY_H

#include <jansson.h>

#include "errmsg.h"

/*
 * summary.html's data validation box (docs/reports.md): at the top of
 * the page, the first corrupted block of the execution (sd, lun, lba,
 * its first bad sector and flags, when, which rd) and the validated
 * totals, from results.json's runs ("validation", results.c). The
 * summary is a stream written as the runs go, so the box goes in when
 * the page is complete: dvsummary_insert() rewrites it whole (a
 * temporary file, then a rename). Leaf code: no console.
 */
/* The box's HTML (caller frees), or NULL when no run validated. */
char	*dvsummary_box(const json_t *runs);
/* Put box after summary.html's heading: 0, or -1 with e set. */
int	 dvsummary_insert(const char *path, const char *box,
	    struct errmsg *e);

#endif /* MASTER_DVSUMMARY_H */
