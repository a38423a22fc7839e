/* SPDX-License-Identifier: MIT */
/*
 * Device safety: before a slave writes to a block device, it makes sure
 * the device is not mounted, not held by another user (a mounted file
 * system, LVM, md, dm, swap: all open it exclusively or list themselves
 * as holders) and carries no known file-system, partition-table or
 * volume signature. Any of these refuses the write unless the sd says
 * overwrite_data=yes. Reading is always allowed.
 */
#include "safety.h"

#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define SAFETY_PROBE_BYTES	(68 * 1024)

struct signature {
	const char	*name;
	size_t		 off;
	const char	*magic;
	size_t		 len;
};

static const struct signature sigs[] = {
	{ "an ext2/3/4 file system", 1080, "\x53\xef", 2 },
	{ "an XFS file system", 0, "XFSB", 4 },
	{ "a btrfs file system", 65600, "_BHRfS_M", 8 },
	{ "swap space", 4086, "SWAPSPACE2", 10 },
	{ "swap space", 4086, "SWAP-SPACE", 10 },
	{ "an LVM physical volume", 536, "LVM2 001", 8 },
	{ "a LUKS volume", 0, "LUKS\xba\xbe", 6 },
	{ "a GPT partition table", 512, "EFI PART", 8 },
	{ "an NTFS file system", 3, "NTFS    ", 8 },
	{ "a FAT file system", 54, "FAT", 3 },
	{ "a FAT32 file system", 82, "FAT32", 5 },
	{ "a DOS partition table (MBR)", 510, "\x55\xaa", 2 },
};

/* Is the device (or one of its partitions) listed in mountinfo? */
static int
mounted(dev_t dev, char *where, size_t len)
{
	FILE *f = fopen("/proc/self/mountinfo", "r");
	char line[4096];
	int found = 0;

	if (f == NULL)
		return (0);
	while (!found && fgets(line, sizeof(line), f) != NULL) {
		unsigned int maj, min;
		char mnt[2048];

		if (sscanf(line, "%*d %*d %u:%u %*s %2047s", &maj, &min,
		    mnt) != 3)
			continue;
		if (maj == major(dev) && min == minor(dev)) {
			snprintf(where, len, "%s", mnt);
			found = 1;
		}
	}
	fclose(f);
	return (found);
}

/* Does /sys/dev/block/M:m/holders list anyone (dm, md, LVM, ...)? */
static int
held(dev_t dev, char *who, size_t len)
{
	char path[128];
	struct dirent *d;
	DIR *dir;
	int found = 0;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/holders",
	    major(dev), minor(dev));
	if ((dir = opendir(path)) == NULL)
		return (0);
	while ((d = readdir(dir)) != NULL) {
		if (d->d_name[0] == '.')
			continue;
		snprintf(who, len, "%s", d->d_name);
		found = 1;
		break;
	}
	closedir(dir);
	return (found);
}

/* May this lun be written? 0 yes; -1 no, with why filled. */
int
safety_check_write(const char *lun, int allowed, char *why, size_t len)
{
	struct stat st;
	unsigned char *buf;
	char where[2048];
	ssize_t n;
	size_t i;
	int fd;

	if (stat(lun, &st) != 0 || !S_ISBLK(st.st_mode))
		return (0);		/* files are the user's own */
	if (allowed)
		return (0);
	if (mounted(st.st_rdev, where, sizeof(where))) {
		snprintf(why, len, "it is mounted on %s", where);
		return (-1);
	}
	if (held(st.st_rdev, where, sizeof(where))) {
		snprintf(why, len, "it is in use by %s", where);
		return (-1);
	}
	/* O_EXCL on a block device fails while anyone holds it open so. */
	if ((fd = open(lun, O_RDONLY | O_EXCL | O_CLOEXEC)) < 0) {
		snprintf(why, len, "it is opened exclusively elsewhere (%s)",
		    strerror(errno));
		return (-1);
	}
	buf = calloc(1, SAFETY_PROBE_BYTES);
	n = buf != NULL ? pread(fd, buf, SAFETY_PROBE_BYTES, 0) : -1;
	close(fd);
	for (i = 0; n > 0 && i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		if ((size_t)n >= sigs[i].off + sigs[i].len &&
		    memcmp(buf + sigs[i].off, sigs[i].magic, sigs[i].len) == 0) {
			snprintf(why, len, "it holds %s (signature at byte %zu)",
			    sigs[i].name, sigs[i].off);
			free(buf);
			return (-1);
		}
	}
	free(buf);
	return (0);
}
