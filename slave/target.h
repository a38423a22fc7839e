/* SPDX-License-Identifier: MIT */
#ifndef SLAVE_TARGET_H
#define SLAVE_TARGET_H

/*
 * A raw run's targets from its decoded WORK (work_json.h): open each sd
 * (openflags=, the engine's name, create, the link rule), copy its WGs,
 * and check them before any I/O against the lun's block size, the
 * safety rules of writes (safety.h), dedup's unit and this slave's
 * limits of threads and memory (work.h). Each refusal names the sd, wd
 * or field and why. Also the facts about luns that INFO carries
 * (work_lun_info, work.h). Owns no state: it fills struct work
 * (work_int.h) during work_new only.
 */
#include <stdint.h>

#include "errmsg.h"

struct slave_work;
struct work;

/* Open every sd of sw and copy its WGs into w (w->sds, w->wgs); the
 * limit on threads in all. */
int	target_sds_wgs(struct work *w, const struct slave_work *sw,
	    struct errmsg *e);
/* Every WG's sizes and bounds against its lun's block size, the writes
 * a lun may take (safety.h), and dedup's whole units. */
int	target_check(struct work *w, struct errmsg *e);
/* Sd k's WGs, skew, priority order, dedup data and threads; *mem grows
 * by its buffers and histograms. */
int	target_sd_index(struct work *w, int k, uint64_t *mem,
	    struct errmsg *e);
/* Refuse buffers and statistics over WORK_MAX_MEM_PCT of the RAM. */
int	target_check_mem(uint64_t bytes, struct errmsg *e);
/* A file-system WORK's limits (threads, xfersize, buffers), before
 * anything of it is built. */
int	target_check_fs_limits(const struct slave_work *sw, struct errmsg *e);
/* Is fd a block device? */
int	target_is_block(int fd);

#endif /* SLAVE_TARGET_H */
