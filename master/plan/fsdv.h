/* SPDX-License-Identifier: MIT */
#ifndef MASTER_FSDV_H
#define MASTER_FSDV_H

#include <stdint.h>

struct model;
struct plan;

/*
 * Data validation of file-system (fsd/fwd) runs on the master
 * (docs/validation.md): the key block of each fsd, and what -v cannot
 * run on an fsd refused by name before any I/O.
 */

/* The fsd's place in the model's list (0, 1, ...), -1 if not there. */
int	fsdv_index(const struct model *, const char *fsd);
/*
 * Per model fsd, the smallest xfersize any run's fwd uses on it (for
 * loops included): the key block of its map (vdbench: the smallest
 * xfersize used on the FSD; the format's own 128k does not count, an
 * fwd=format's xfersize= does).
 */
void	fsdv_xmin(const struct model *, const struct plan *,
	    uint64_t *fsd_xmin);
/* Under -v: fwd operations and fsd forms that validation cannot run,
 * listed in the model's unbuilt list. */
void	fsdv_model_check(struct model *);

#endif /* MASTER_FSDV_H */
