/* SPDX-License-Identifier: MIT */
/* Output files that never follow a link (see ofile.h). */
#include "ofile.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

int
ofile_open(const char *path)
{
	return (open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW |
	    O_CLOEXEC, 0644));
}

FILE *
ofile_fopen(const char *path)
{
	FILE *f;
	int fd, saved;

	if ((fd = ofile_open(path)) < 0)
		return (NULL);
	if ((f = fdopen(fd, "w")) == NULL) {
		saved = errno;
		close(fd);
		errno = saved;
	}
	return (f);
}
