/* SPDX-License-Identifier: MIT */
/*
 * openflags= words to open(2) flags (oflags.h), as vdbench's Linux slave
 * does it.
 */
#include "oflags.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void
oflags_from_words(const struct strlist *words, struct oflags *o)
{
	int i;

	memset(o, 0, sizeof(*o));
	for (i = 0; i < words->n; i++) {
		const char *s = words->v[i];

		if (strcasecmp(s, "o_direct") == 0 ||
		    strcasecmp(s, "directio") == 0) {
			o->flags |= O_DIRECT;
			o->direct = 1;
		} else if (strcasecmp(s, "o_sync") == 0 ||
		    strcasecmp(s, "o_dsync") == 0 ||
		    strcasecmp(s, "o_rsync") == 0)
			o->flags |= O_DSYNC;	/* vdbench: 0x1000 for all */
		else if (strcasecmp(s, "fsync") == 0)
			o->fsync_close = 1;
		else if (strncasecmp(s, "0x", 2) == 0)
			o->flags |= (int)strtol(s + 2, NULL, 16);
	}
	if (o->flags & O_DIRECT)
		o->direct = 1;
}

int
oflags_dev_refused(const char *lun, const struct oflags *o, char *text,
    size_t len)
{
	if (strncmp(lun, "/dev/", 5) != 0 || o->flags != 0)
		return (0);
	snprintf(text, len, "On Linux 'openflags=o_direct' is required for "
	    "any lun starting with '/dev/': %s", lun);
	return (1);
}
