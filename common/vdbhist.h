/* SPDX-License-Identifier: MIT */
#ifndef COMMON_VDBHIST_H
#define COMMON_VDBHIST_H

#include <stdint.h>

#include <jansson.h>

#include "errmsg.h"

/*
 * vdbench's response-time buckets (PARMFILE.md 13.6): upper bounds in
 * microseconds plus an open last bucket; a sample v goes into the bucket
 * with min <= v < max. Counted directly, since log-linear edges cannot land
 * on 20 us exactly. The default is 26 bounds, so 27 buckets.
 */
#define VDBHIST_MAX_BUCKETS	64

struct vdbhist_edges {
	unsigned int	n;				/* upper bounds */
	uint64_t	edge_us[VDBHIST_MAX_BUCKETS - 1];
	int		suppress;	/* hide leading/trailing empty ones */
};

struct vdbhist {
	uint64_t	count[VDBHIST_MAX_BUCKETS];	/* n + 1 used */
};

void		vdbhist_edges_default(struct vdbhist_edges *);
/*
 * Build edges from histogram=(default,b1,b2,...[,suppress]): the words
 * after "default", each an integer with an optional u/m/s suffix; a value
 * not above the previous one is an increment filling the gap to the next.
 */
int		vdbhist_edges_parse(struct vdbhist_edges *, int nwords,
		    const char *const words[], struct errmsg *);
unsigned int	vdbhist_bucket_of(const struct vdbhist_edges *, uint64_t lat_ns);
void		vdbhist_add(struct vdbhist *, const struct vdbhist_edges *,
		    uint64_t lat_ns);
/*
 * The buckets a report prints, *from..*to: all of them, or with suppress
 * the ones from the first to the last non-empty bucket plus one empty
 * bucket each side (PARMFILE.md 13.6).
 */
void		vdbhist_shown(const struct vdbhist_edges *,
		    const uint64_t *count, unsigned int *from, unsigned int *to);

/* The n + 1 counts as a JSON array (the INTERVAL "vdb" form). */
json_t		*vdbhist_to_json(const struct vdbhist *, unsigned int n);

#endif /* COMMON_VDBHIST_H */
