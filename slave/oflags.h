/* SPDX-License-Identifier: MIT */
#ifndef SLAVE_OFLAGS_H
#define SLAVE_OFLAGS_H

/*
 * openflags= words to open(2) flags as vdbench's Linux slave translates
 * them (OpenFlags.translateFlags on x86_64): o_direct and directio are
 * O_DIRECT; o_sync, o_dsync and o_rsync are all O_DSYNC (0x1000); 0x<hex>
 * adds those bits; fsync is no open flag but an fsync() before close.
 * One translation for sds and fsds alike.
 */
#include "model.h"

struct oflags {
	int	flags;		/* the open(2) flags the words ask for */
	int	direct;		/* O_DIRECT among them */
	int	fsync_close;	/* "fsync": fsync() before close */
};

void	oflags_from_words(const struct strlist *, struct oflags *);

/*
 * vdbench's Linux rule (SD_entry.openOneSd): a lun under /dev/ opened
 * with no open flag at all would run through the page cache; 1 with
 * vdbench's words in text when lun breaks it, 0 else.
 */
int	oflags_dev_refused(const char *lun, const struct oflags *,
	    char *text, size_t len);

#endif /* SLAVE_OFLAGS_H */
