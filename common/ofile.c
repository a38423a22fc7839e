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

static FILE *
stream(int fd, const char *mode)
{
	FILE *f;
	int saved;

	if (fd < 0)
		return (NULL);
	if ((f = fdopen(fd, mode)) == NULL) {
		saved = errno;
		close(fd);
		errno = saved;
	}
	return (f);
}

FILE *
ofile_fopen(const char *path)
{
	return (stream(ofile_open(path), "w"));
}

FILE *
ofile_fappend(const char *path)
{
	return (stream(open(path, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW |
	    O_CLOEXEC, 0644), "a"));
}
