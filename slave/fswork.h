/* SPDX-License-Identifier: MIT */
#ifndef SLAVE_FSWORK_H
#define SLAVE_FSWORK_H

#include <stdint.h>

#include <jansson.h>

#include "errmsg.h"
#include "model.h"
#include "work_json.h"

/*
 * One file-system run on this slave (PARMFILE.md 9, 10): the fsd trees
 * (common/fstree.h) under their anchors, and the file workloads (FWGs)
 * with their threads. A format run cleans what vdbc's naming made (when
 * asked), makes the anchor and directories, then creates and fills the
 * files, each thread its own slice of them, and writes vdb_control.file.
 * Other runs do one operation per FWG (read, write, create, delete,
 * mkdir, rmdir, open, close, getattr, setattr, access) on the thread's
 * slice of the files, so no two threads write one file. Threads keep
 * their own counters (relaxed atomics); the loop snapshots them.
 */
struct fswork;
struct skewgate;

/* From a decoded file-system WORK (its fwgs carry their fsd trees);
 * validation's maps are kept in the slave's session (dv_session.h). */
struct dv_session;
struct fswork	*fswork_new(const struct slave_work *, uint64_t seed,
		    struct dv_session *, struct errmsg *);
/* The session's fsd key maps go (the slave ends; fs_dv.c). */
void		 fs_dv_forget(struct dv_session *);
int		 fswork_start(struct fswork *, struct errmsg *);
uint64_t	 fswork_go_ns(const struct fswork *);	/* work_go_ns */
void		 fswork_stop(struct fswork *);
void		 fswork_free(struct fswork *);
/* INTERVAL "stats": one entry per FWG, its counts since the previous
 * call (common/interval_json.h). */
/* The fwgs' counters of interval interval_no (each thread's closed half
 * when it is past it), or everything left (final: RUN_END, the last
 * interval of a timed run), as work_stats_json. */
json_t		*fswork_stats_json(struct fswork *, uint64_t interval_no,
		    int final);
/* The skew gate of a fwdrate=max run (skewgate.h), or NULL; *nfwgs its
 * members, the fwgs in WORK order. */
struct skewgate	*fswork_gate(const struct fswork *, int *nfwgs);
/* The run's interval, before GO: the threads close their own. */
void		 fswork_set_interval(struct fswork *, uint64_t interval_ns);
/* A format run has finished every file, or every fileselect=once
 * workload went through its files (vdbench then ends the run). */
int		 fswork_done(const struct fswork *);
/* Every run thread ended, some for want of any file (vdbench's
 * canWeGetMoreFiles): vdbench's slave then ends the run. */
int		 fswork_idle(const struct fswork *);
/* The error that stopped the run, or NULL. */
const char	*fswork_error(const struct fswork *);
/*
 * [{anchor, files, dirs, bytes, full_files, full_bytes}]: what exists of
 * each tree (a stat of every directory and of every file in the ones
 * that exist). Millions of files take seconds, so the walk runs on a
 * thread of its own: begin starts it (cancelling one in progress), take
 * returns its result once done (caller owns) and NULL until then. The
 * walk thread writes 1 to the eventfd given to begin when it ends (also
 * when cancelled), so the loop needs no polling. Begin
 * only while the file threads are not started or stopped; fswork_free
 * cancels a walk in progress.
 */
int		 fswork_anchors_begin(struct fswork *, int, struct errmsg *);
json_t		*fswork_anchors_take(struct fswork *);
/* Progress lines for the master's console (caller clears). */
struct strlist;
void		 fswork_take_notes(struct fswork *, struct strlist *);
/*
 * Data validation (-v, slave/fs_dv.c): the rd's name (for data_errors=),
 * whether the run validates, and what it has for the master (report
 * lines, a WORK_DETAIL_MARK first for the detail) and for the slave's
 * own log (the per-key counters). The caller clears the lists.
 */
void		 fswork_set_run(struct fswork *, const char *rd);
int		 fswork_validates(const struct fswork *);
void		 fswork_take_errors(struct fswork *, struct strlist *);
void		 fswork_take_own_log(struct fswork *, struct strlist *);

#endif /* SLAVE_FSWORK_H */
