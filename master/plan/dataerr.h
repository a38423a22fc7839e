/* SPDX-License-Identifier: MIT */
#ifndef MASTER_DATAERR_H
#define MASTER_DATAERR_H

/*
 * The data_errors= policy (PARMFILE.md 4; vdbench's Validate.java and
 * ErrorLog.java): how many I/O and data validation errors a run takes,
 * the (N,S) timeout, the command, remove_device. The master keeps the
 * count of a run here; every error it hears of (an I/O error a slave
 * reports, a corrupted block) goes through dataerr_note(). Leaf code: no
 * logging, no commands run; the caller does what the answer says.
 */
#include <stddef.h>
#include <stdint.h>

#include "model.h"

enum dataerr_mode {
	DATAERR_LIMIT,		/* data_errors=N or (N,S) */
	DATAERR_COMMAND,	/* data_errors="command" */
	DATAERR_REMOVE		/* data_errors=remove_device */
};

/* With DATAERR_REMOVE, the count vdbench sets (its line says so). */
#define DATAERR_REMOVE_MAX	10000

struct dataerr {
	enum dataerr_mode	 mode;
	uint64_t		 limit;		/* errors that end a run */
	uint64_t		 wait_s;	/* (N,S): S; 0 = none */
	const char		*command;	/* DATAERR_COMMAND (the model's) */
	uint64_t		 count;		/* of the current run */
	uint64_t		 last_ns;	/* of the last error; 0 = none */
};

/* What the caller does after an error. */
#define DATAERR_RUN_COMMAND	0x1	/* run d->command now */
#define DATAERR_STOP		0x2	/* stop the run with the text */

/* The policy of a model's general parameters. */
void	 dataerr_init(struct dataerr *, const struct general *);
/* vdbench's start-up line for the mode ("" when it prints none). */
const char *dataerr_banner(const struct dataerr *);
/* A new run: vdbench counts per rd. */
void	 dataerr_run_start(struct dataerr *);
/* The errors a slave takes before it stops by itself (WORK max_errors). */
uint64_t dataerr_slave_limit(const struct dataerr *);
/*
 * One error at now_ns in run rd: DATAERR_* flags; text, when the run
 * stops, says why in vdbench's words.
 */
int	 dataerr_note(struct dataerr *, const char *rd, uint64_t now_ns,
	    char *text, size_t len);
/* (N,S): 1 with text once S seconds passed since the last error. */
int	 dataerr_expired(const struct dataerr *, uint64_t now_ns, char *text,
	    size_t len);

#endif /* MASTER_DATAERR_H */
