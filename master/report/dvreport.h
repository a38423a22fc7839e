/* SPDX-License-Identifier: MIT */
#ifndef MASTER_DVREPORT_H
#define MASTER_DVREPORT_H

struct model;

/*
 * Data validation on the master: -v's letters joined with validate=,
 * and what is not built yet (dedup; fsd/fwd forms: fsdv.h) listed in the model's
 * unbuilt list, so the run stops before any I/O naming it.
 */
void	dv_model_check(struct model *, int cli_validate);

#endif /* MASTER_DVREPORT_H */
