/* SPDX-License-Identifier: MIT */
#ifndef SLAVE_DV_SESSION_H
#define SLAVE_DV_SESSION_H

#include <stdint.h>

#include "pattern.h"

/*
 * A slave's data validation session: what validation keeps for the
 * slave's whole life, for sds and fsds alike, as vdbench's slave keeps
 * its key maps from rd to rd (a block written in one rd is checked in
 * the next). It owns the pattern buffer, this process's id as sectors
 * carry it, the corruption banner's "already printed" flag (once per
 * slave), and the report of one corrupted data block. The key map
 * registries hang here too: sd_dv.c keeps its sds' maps in `sds`, fs_dv.c
 * its fsds' in `fsds`, each the only reader and writer of its own list
 * (on the slave's loop thread, when a run is set up) and the one that
 * frees it (sd_dv_forget, fs_dv_forget). struct slave (slave/main.c)
 * owns the session; no file-scope state is left in validation.
 */

struct strlist;
struct dv_bad_block;
struct dv_sd;
struct fs_dvmap;

struct dv_session {
	struct dv_sd	*sds;		/* sd key maps (sd_dv.c) */
	struct fs_dvmap	*fsds;		/* fsd key maps (fs_dv.c) */
	struct wdata	 wd;		/* the pattern, made at first use */
	const unsigned char *pat;	/* wd.pat */
	uint32_t	 pid;		/* getpid() once, not per I/O */
	int		 reported;	/* atomic: the banner is out */
};

struct dv_session *dv_session_new(void);
/* Frees the pattern and the session; the maps first go with
 * sd_dv_forget and fs_dv_forget. NULL is fine. */
void		 dv_session_free(struct dv_session *);
/*
 * The pattern buffer, made at the first call as vdbench's slave makes it
 * once (Patterns.createPattern): the compression pattern of compratio
 * (1: no zeroes) from seed (compressionseed=, or 0), 2 x 1 MiB (or the
 * largest transfer max_xfer_bytes rounded up to MiB) plus two dedup
 * units (unit_bytes, 0 without dedup): pattern.h's wdata_init, the same
 * bytes as writes without validation, so validated blocks at compratio=
 * carry vdbench's zeroes. Later calls get the same buffer.
 */
const unsigned char *dv_session_pattern(struct dv_session *, int64_t seed,
		    double compratio, uint64_t max_xfer_bytes,
		    uint64_t unit_bytes);
/*
 * The lines of one corrupted data block's report into out, as vdbench
 * prints them: the banner first if no report of this slave had it yet,
 * the block's report, then the error line ("op: read lun: ... lba: ...
 * errno: 60003") with results.json's record after WORK_DV_SEP; each
 * after the slave's time of day, all but the last marked
 * WORK_DETAIL_MARK (work.h). lun and lba are as the line shows them
 * (an fsd's: the file and the offset in it); ms: when it was found.
 */
void		 dv_session_report(struct dv_session *,
		    const struct dv_bad_block *, const char *lun, uint64_t lba,
		    uint64_t ms, struct strlist *out);

#endif /* SLAVE_DV_SESSION_H */
