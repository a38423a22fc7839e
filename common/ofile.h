/* SPDX-License-Identifier: MIT */
#ifndef COMMON_OFILE_H
#define COMMON_OFILE_H

#include <stdio.h>

/*
 * Creating the files of an output directory (reports, results.json's
 * temporary, slave stdout pages). An -o directory may be reused and the
 * master often runs as root, so a symbolic link left where a report goes
 * is never followed: the open fails (ELOOP) and the caller names the path
 * like any other write error. Mode 0644, close-on-exec.
 */
/* A descriptor for writing path from its start, or -1 with errno. */
int		 ofile_open(const char *path);
/* The same as a stdio stream ("w"), or NULL with errno. */
FILE		*ofile_fopen(const char *path);
/* A stream appending to path (made when missing), or NULL with errno. */
FILE		*ofile_fappend(const char *path);

#endif /* COMMON_OFILE_H */
