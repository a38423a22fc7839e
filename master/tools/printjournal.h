/* SPDX-License-Identifier: MIT */
#ifndef MASTER_PRINTJOURNAL_H
#define MASTER_PRINTJOURNAL_H

/*
 * "vdbc printjournal FILE [-l LBA]": print a vdbench Data Validation
 * journal (.jnl) or map backup (.map) as vdbench's printjournal
 * (PrintJournal.java) does: one "Starting lba: ... key: ..." line per key
 * block of the map, then one "Before:"/"After:" line per journal entry,
 * each line prefixed with the time of day as vdbench's ptod does.
 * argv[1] is "printjournal".
 */

#include <stdint.h>
#include <stdio.h>
#include <time.h>

int	printjournal_main(int argc, char *argv[]);

/* The reader; "find_lba" -1 prints everything, else only that lba. */
struct pj_opts {
	int64_t			 find_lba;
	/*
	 * Fixed time of day for the line prefix (tests, fuzzing); NULL
	 * takes the clock as vdbench does.
	 */
	const struct timespec	*fixed_now;
};

/*
 * Print the journal or map read from "in" (sequential reads only; "name"
 * names it in errors) to "out". Errors go to "err" naming the file and
 * the byte offset. Returns 0, or 1 when the file is not a journal/map or
 * is damaged (what came before the damage has been printed).
 */
int	printjournal_stream(FILE *in, const char *name,
	    const struct pj_opts *o, FILE *out, FILE *err);

#endif /* MASTER_PRINTJOURNAL_H */
