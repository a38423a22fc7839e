/* SPDX-License-Identifier: MIT */
#ifndef MASTER_DVSIZE_H
#define MASTER_DVSIZE_H

/*
 * Data validation's size requirement on a WG's miss area (vdbench
 * WG_entry.java:551-592, reference v8c): every block of an I/O in flight
 * is busy, so the area must hold (2000, twice that at a set rate, + 256
 * + the sd's threads) blocks of the largest xfersize. Owns nothing; reads
 * the placement as workgen.c built it.
 */
#include <stdint.h>

#include "errmsg.h"
#include "place.h"

/*
 * 0 when g's miss area rg[0]..rg[1] (hits rg[2]..rg[3], hitarea= bytes)
 * holds the blocks; else -1, vdbench's console lines (its print_sizes
 * lines and its box) appended to *box (newline-separated, allocated) and
 * its last words in e.
 */
int	dvsize_check(const struct placement *p, const struct place_wg *g,
	    const uint64_t rg[4], uint64_t hitarea, uint64_t xmax, char **box,
	    struct errmsg *e);

#endif /* MASTER_DVSIZE_H */
