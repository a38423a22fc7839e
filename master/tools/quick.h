/* SPDX-License-Identifier: MIT */
#ifndef MASTER_QUICK_H
#define MASTER_QUICK_H

#include <stdint.h>

#include "errmsg.h"

/*
 * "vdbc quick TARGET [--size S] [--time T] [-o DIR] [--seed N] [-s]": what a
 * device or a file can do, in one command. It writes the standard matrix
 * as a vdbench parmfile (DIR/quick.parm, the runs of
 * parmfiles/quick-matrix.parm with the values filled in: it runs
 * unchanged under vdbench), the caller runs it as any parmfile (the same
 * safety checks), and quick_report prints the compact table and writes
 * DIR/quick.html. argv[1] is "quick".
 *
 * TARGET: a file (made by the run's SD_format when missing; a directory
 * gets the file vdbc_quick.dat in it) or a block device (the whole of
 * it unless --size). Before anything runs: a device must pass the
 * slaves' safety checks (slave/safety.h: nothing mounted, held or
 * recognisable on it), an existing file holding data needs --overwrite
 * (quick's own vdbc_quick.dat excepted), and a file must fit its file
 * system. Its path is made absolute, so quick.parm runs from anywhere. Devices are opened with O_DIRECT, as vdbench asks
 * on Linux; files too where their file system takes O_DIRECT, else the
 * figures are the page cache's and the header says so.
 */
struct quick {
	const char	*target;	/* as given */
	char		*lun;		/* the file or device used */
	int		 device;	/* a block device */
	int		 direct;	/* openflags=o_direct */
	uint64_t	 size;		/* bytes; 0: the whole device */
	unsigned int	 time_s;	/* each run's elapsed= */
	const char	*outdir;	/* -o, as given (default "quick") */
	const char	*seed;		/* --seed, or NULL */
	int		 simulate;	/* -s: quick.parm and vdbench -s */
	int		 overwrite;	/* --overwrite: a file's data */
	char		*parm;		/* DIR/quick.parm, once written */
};

/* The command line: 0; -1 when --help was answered; else the exit
 * status of a usage error (said). */
int	quick_args(int argc, char *argv[], struct quick *);
/* Look at the target and write outdir/quick.parm (outdir as the run
 * will use it): 0, or -1 with e set. */
int	quick_setup(struct quick *, const char *outdir, struct errmsg *e);
/* After the run (exit status rc): the table on the console and
 * outdir/quick.html; returns rc, or 1 when the run wrote no table. */
int	quick_report(const struct quick *, const char *outdir, int rc);
void	quick_free(struct quick *);

#endif /* MASTER_QUICK_H */
