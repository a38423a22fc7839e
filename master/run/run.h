/* SPDX-License-Identifier: MIT */
#ifndef MASTER_RUN_H
#define MASTER_RUN_H

#include <stdint.h>

#include "model.h"
#include "plan.h"

/*
 * The run driver: starts the local slaves, asks them about the luns
 * (INFO), inserts the SD_format run where a file must be created or
 * expanded, and drives every planned run over one libevent loop (WORK,
 * READY, GO, INTERVAL, STOP, RUN_END, SHUTDOWN, HEARTBEAT both ways),
 * merging the intervals into the reports. A lost slave stops the run on
 * all the others; the reports say what ran and where it stopped.
 */
struct subvars;

struct run_opts {
	const char	*outdir;
	int		 jvms;		/* -m, or 0 */
	int		 port;		/* -1 = 5570 and up, 0 = any free */
	uint64_t	 seed;
	int		 nfiles;
	char *const	*files;
	const char	*token_file;	/* for shell=vdbench hosts, or NULL */
	const char	*master_addr;	/* slaves dial back here, or NULL */
	int		 loss_continue;	/* go on without a lost slave */
	const char	*ssh;		/* shell=ssh command, or NULL */
	int		 nscanned;	/* the arguments as vdbench echoes */
	char *const	*scanned;	/* them ("-f/p/parm", "rdpct=70") */
	const struct subvars *vars;	/* name=value substitutions */
	const char	*metrics;	/* --metrics [ADDR:]PORT, or NULL */
	int		 loop;		/* -l / loop=: repeat all runs */
	uint64_t	 loop_count;	/* loop=n: n passes in all; 0 */
	uint64_t	 loop_s;	/* until this many seconds; 0 */
	const char	*monitor;	/* monitor= file, or NULL */
	int		 force_cleanup;	/* -c: old trees deleted at first use */
};

/* Run everything; the process exit status. */
int	run_all(const struct model *, const struct plan *,
	    const struct run_opts *);

#endif /* MASTER_RUN_H */
