/* SPDX-License-Identifier: MIT */
#ifndef SLAVE_SD_DV_H
#define SLAVE_SD_DV_H

#include <pthread.h>
#include <stdint.h>

#include "errmsg.h"

/*
 * Data validation of sds (raw luns and files: -v, -j), behind the one
 * worker loop's hooks as fio's verify sits behind its io_u. It owns:
 * - per run, each sd's validation state: its key map, dedup and
 *   journal (made once and kept in the slave's session, dv_session.h,
 *   across runs, as vdbench's slave keeps them, so a block written in
 *   one rd is checked in the next), its key block, the journal's setup
 *   and recovery (-jr);
 * - the phases of one validated I/O (read; pre-read, write, read-back)
 *   and the key blocks it keeps claimed in the map meanwhile;
 * - the check of what a read brought, the report of a corrupted data
 *   block, and the run's verdict (the totals line, the "No read
 *   validations" abort).
 * work.c owns the loop, the engines, pacing, counters and queues; it
 * calls sd_dv_prep before it queues an I/O of a validated sd and
 * sd_dv_done when the I/O is over, which may give the same slot its
 * next phase (SD_DV_AGAIN: queue it again). Validation reports through
 * the struct sd_dv_out the worker hands it. dv.c (pattern, map, report
 * text) and journal.c are its leaves.
 */

struct dv_session;
struct io_u;
struct strlist;
struct wg;
struct sd_dv_run;
struct sd_dv_thread;

/* What the worker gives validation to report through. */
struct sd_dv_out {
	pthread_mutex_t	*mu;		/* orders the lines and *nerrors */
	struct strlist	*errq;		/* lines for the master, work.h
					 * marks (work_take_errors) */
	struct strlist	*notes;		/* progress lines (work_take_notes) */
	struct strlist	*own_log;	/* the slave's log; not under mu:
					 * set up and end only */
	uint64_t	*nerrors;	/* atomic: what data_errors= counts */
	uint64_t	 max_errors;	/* data_errors= */
	const char	*run;		/* the rd's name */
	void		*arg;		/* for the three calls: */
	/* the run stops with text (the first one wins) */
	void		(*stop)(void *arg, const char *text);
	/* an I/O error of sd sdi: reported and counted */
	void		(*io_error)(void *arg, int sdi, int dir, uint64_t off,
			    uint64_t len, int err);
	/* the text the run stops with, or NULL */
	const char	*(*error)(void *arg);
};

/* The run's validation settings. */
struct sd_dv_cfg {
	int		 validate;	/* VALIDATE_* bits, not 0 */
	int		 journal;	/* JOURNAL_* bits */
	uint64_t	 dd_unit_bytes;	/* dedupunit=; 0: no dedup */
	double		 dd_ratio;
	double		 dd_sets;	/* < 0: percent */
	int		 dd_not_across;	/* dedupacross=no */
	int		 has_compseed;
	uint64_t	 compseed;	/* compressionseed= */
	double		 compratio;	/* compratio=, >= 1 */
	uint64_t	 max_xfer_bytes; /* the run's largest transfer */
};

/* One sd of the run, as the worker opened it. */
struct sd_dv_sd {
	const char	*name;
	const char	*lun;
	const char	*jnl_dir;	/* journal=, or NULL */
	int		 fd;
	uint64_t	 size_bytes;	/* size= from the WORK, or 0: the
					 * lun's own */
	uint64_t	 kb_bytes;	/* the master's key block, or 0 */
	int		 has_own_dd;	/* sd dedupratio=/dedupsets= */
};

/* A run's validation over nsds sds, in the slave's session (its maps
 * and pattern, dv_session.h); cfg and out are copied. */
struct sd_dv_run *sd_dv_new(struct dv_session *, const struct sd_dv_cfg *,
		    const struct sd_dv_out *, int nsds);
/* Sd sdi (0..nsds-1): its key block from the WGs that use it (those of
 * wgs with sdi), its map found or made, its journal (recovered with
 * -jr). 0, or -1 with e filled. */
int		 sd_dv_sd_setup(struct sd_dv_run *, int sdi,
		    const struct sd_dv_sd *, const struct wg *wgs, int nwgs,
		    struct errmsg *e);
/* The run's end: per-key counters, journals dumped, the verdict. Once;
 * after every thread is joined. */
void		 sd_dv_end(struct sd_dv_run *, const struct wg *wgs, int nwgs);
void		 sd_dv_free(struct sd_dv_run *);
/* The session's sd key maps and journals go (the slave ends). */
void		 sd_dv_forget(struct dv_session *);

/* An I/O thread's validation of sd sdi: qd slots (io_u index 0..qd-1)
 * of up to max_xfer bytes. */
struct sd_dv_thread *sd_dv_thread_new(struct sd_dv_run *, int sdi, int qd,
		    uint64_t max_xfer);
/* The thread is over: its counts go to the map (on the thread). */
void		 sd_dv_thread_end(struct sd_dv_thread *);
void		 sd_dv_thread_free(struct sd_dv_thread *);

/*
 * u holds the worker's next I/O (wi, dir, len, off). Claim its key
 * blocks and set u up for its first phase: u->dir (a write of known
 * blocks is first a read), a write's data in u->wbuf, the journal's
 * BEFORE entries. 0: queue u; -1: not this I/O (a key block is in use by
 * another I/O or in error, or the journal failed): pick another.
 */
int		 sd_dv_prep(struct sd_dv_thread *, struct io_u *u);
/*
 * u is over (ok: it moved all its bytes; the worker counted it or
 * reported its error). Check what a read brought, stamp, journal AFTER;
 * then either SD_DV_AGAIN, u set up for its next phase on the same slot
 * (its key blocks still claimed), or 0: the blocks are released and the
 * slot is free. last: the run is over, no next phase.
 */
#define SD_DV_AGAIN	1
int		 sd_dv_done(struct sd_dv_thread *, struct io_u *u, int ok,
		    int last);

/* Sd sdi's key block and the bytes its key map spans. */
void		 sd_dv_extent(const struct sd_dv_run *, int sdi,
		    uint32_t *kb_bytes, uint64_t *map_bytes);

#endif /* SLAVE_SD_DV_H */
